"""Differential tests of the newest operators: TensorScatter-24 against onnxruntime and onnx.reference,
SliceScatter-15 against the OpenVINO CPU plugin (OpenVINO's reference has no SliceScatter kernel).

* every example (node tests, spec page, teaching cases) on every runtime that runs the version;
* the invalid inputs the issue names, with what each runtime really says;
* the behaviours where a runtime departs from the text, asserted with its exact output or message
  (``runtime_check.divergences.NEWOPS_OBSERVED``);
* random valid cases (hypothesis), value for value, with wrap-around, negative steps and clamped bounds.
"""

from __future__ import annotations

import os
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import runtime_check as rc
import spec_examples as se
from scatter_core import ScatterError, scatter
from tests.support.skipping import require_or_skip
from tests.support.strategies import cases

pytestmark = pytest.mark.runtimes

TS, SS = "TensorScatter-24", "SliceScatter-15"
f32, i32, i64 = np.float32, np.int32, np.int64
CACHE = np.arange(16, dtype=f32).reshape(2, 4, 2)  # batch 2, max_sequence_length 4
UPDATE = -np.arange(1, 9, dtype=f32).reshape(2, 2, 2)  # sequence_length 2
D35 = np.arange(15, dtype=f32).reshape(3, 5)


def one(runtime, op, data, indices, updates, **attrs) -> rc.Comparison:
    (c,) = rc.compare(op, data, indices, updates, runtimes=[runtime], guarded=False, **attrs)
    return c


def same(a, b) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# =====================================================================================
# 1. Every example on every runtime
# =====================================================================================
NEW_EXAMPLES = [ex for ex in se.load_all() if ex.op in (TS, SS)]


@pytest.mark.parametrize("ex", NEW_EXAMPLES, ids=[ex.id for ex in NEW_EXAMPLES])
def test_examples_agree_on_every_runtime(ex):
    runtimes = rc.runtimes_for(ex.op)
    require_or_skip(*runtimes)
    comparisons = rc.compare(ex.op, ex.data, ex.indices, ex.updates, guarded=False, **ex.attrs)
    assert [c.runtime for c in comparisons] == runtimes
    for c in comparisons:
        if c.runtime == "openvino-reference":  # observed: no SliceScatter kernel at all
            assert not c.agree and c.divergence == "reference-no-kernel", c
            continue
        if c.runtime == "openvino-onnx":  # observed: OpenVINO's ONNX frontend has no TensorScatter-24 rule
            assert c.outcome == "refused" and c.divergence == "frontend-no-conversion-rule", c
            assert "no conversion rule for TensorScatter-24" in c.runtime_error
            continue
        assert c.agree and same(c.runtime_output, ex.expected), (c.runtime, c.runtime_error)


def test_slice_scatter_example_3_needs_two_entry_bounds():
    """The erratum: the page's ports say one element, the values (and the runtime) need two."""
    require_or_skip("openvino-cpu")
    ex = se.by_id("ov-slice-scatter-15-example-3")
    res = rc.run("openvino-cpu", SS, ex.data, None, ex.updates, **ex.attrs)
    assert res.ok and same(res.output, ex.expected)
    assert [e.id for e in se.errata_for(ex.id)] == ["ov-slice-scatter-15-example-3-port-dims"]


# =====================================================================================
# 2. TensorScatter-24: the invalid inputs, runtime by runtime
# =====================================================================================
INVALID = {
    # name: (past_cache, write_indices, update, attrs, onnxruntime's words, onnx.reference's outcome)
    "write past the end (linear)": (CACHE, i64([3, 0]), UPDATE, {}, "exceeds max_sequence_length", "refused"),
    "sequence length above the maximum": (CACHE, i64([0, 0]), np.zeros((2, 5, 2), f32), {},
                                          "update sequence_length \\(5\\) exceeds max_sequence_length \\(4\\)",
                                          "refused"),
    "the batch axis": (CACHE, i64([0, 0]), UPDATE[:1], {"axis": 0}, "axis 0 is out of range", "refused"),
    "write_indices of the wrong length": (CACHE, i64([0, 0, 0]), UPDATE, {}, "Dimension mismatch",
                                          "tensorscatter-reference-write-indices-shape"),
    "write_indices of the wrong rank": (CACHE, i64([[0], [0]]), UPDATE, {}, "expected to have rank 1",
                                        "tensorscatter-reference-write-indices-shape"),
    "negative write index": (CACHE, i64([-1, 0]), UPDATE, {"mode": "circular"}, "is negative",
                             "tensorscatter-reference-negative-write-index"),
}


@pytest.mark.parametrize("name", INVALID)
def test_invalid_tensor_scatter_inputs(name):
    require_or_skip("onnxruntime", "onnx.reference")
    cache, write, update, attrs, ort_words, reference = INVALID[name]
    with pytest.raises(ScatterError):
        scatter(TS, cache, write, update, **attrs)
    ort = one("onnxruntime", TS, cache, write, update, **attrs)
    assert ort.agree and not ort.runtime_ok
    assert re.search(ort_words, ort.runtime_error), ort.runtime_error
    ref = one("onnx.reference", TS, cache, write, update, **attrs)
    if reference == "refused":
        assert ref.agree and not ref.runtime_ok
    else:  # onnx.reference computes an output; the record's model predicts it exactly
        assert not ref.agree and ref.outcome == "accepted" and ref.divergence == reference and ref.new


def test_onnx_reference_counts_a_negative_write_index_from_the_end():
    require_or_skip("onnx.reference")
    got = rc.run("onnx.reference", TS, CACHE, i64([-1, 0]), UPDATE).output
    # linear mode, write index -1: position -1 is 3, then 0 (NumPy indexing), as circular from 3
    assert same(got, scatter(TS, CACHE, i64([3, 0]), UPDATE, mode="circular"))


def test_onnx_reference_takes_int32_write_indices_and_skips_the_bound_for_an_empty_update():
    require_or_skip("onnxruntime", "onnx.reference")
    c = one("onnx.reference", TS, CACHE, i32([1, 2]), UPDATE)
    assert c.divergence == "tensorscatter-reference-int32-write-indices"
    assert same(c.runtime_output, scatter(TS, CACHE, i64([1, 2]), UPDATE))
    assert "Type Error" in one("onnxruntime", TS, CACHE, i32([1, 2]), UPDATE).runtime_error
    empty = np.zeros((2, 0, 2), f32)
    c = one("onnx.reference", TS, CACHE, i64([7, 0]), empty)
    assert c.divergence == "tensorscatter-reference-empty-update-bound" and same(c.runtime_output, CACHE)
    assert one("onnxruntime", TS, CACHE, i64([7, 0]), empty).agree  # both refuse 7 + 0 > 4


@pytest.mark.parametrize("runtime", ["onnxruntime", "onnx.reference"])
def test_circular_wrap_and_left_out_write_indices(runtime):
    require_or_skip(runtime)
    for write, attrs in ((i64([3, 9]), {"mode": "circular"}), (None, {}), (None, {"mode": "circular"}),
                         (i64([2, 0]), {"axis": -2})):
        c = one(runtime, TS, CACHE, write, UPDATE, **attrs)
        assert c.agree and c.runtime_ok, (write, attrs, c.runtime_error)


# =====================================================================================
# 3. SliceScatter-15 on the OpenVINO CPU plugin
# =====================================================================================
SLICES = [  # (start, stop, step, axes): negative steps, clamped bounds, INT_MAX / INT_MIN ends
    ([4], [0], [-2], [1]), ([100], [-100], [-2], [-1]), ([-1], [-(2 ** 31)], [-1], [1]),
    ([1], [2 ** 31 - 1], [2], [-1]), ([-25], [25], [2], [1]), ([2, 4], [-4, -6], [-1, -3], None),
    ([-2], [5], [1], [0]), ([0, 1], [3, 5], [2, 2], [1, 0]),
]


@pytest.mark.parametrize("start,stop,step,axes", SLICES)
def test_negative_steps_and_clamped_bounds_agree_on_the_cpu_plugin(start, stop, step, axes):
    require_or_skip("openvino-cpu")
    slices = [slice(None)] * 2
    for a, b, e, s in zip(axes if axes is not None else range(len(start)), start, stop, step):
        slices[a] = slice(b, e, s)
    shape = D35[tuple(slices)].shape
    updates = np.arange(100, 100 + int(np.prod(shape)), dtype=f32).reshape(shape)
    attrs = dict(start=start, stop=stop, step=step) | ({} if axes is None else {"axes": axes})
    c = one("openvino-cpu", SS, D35, None, updates, **attrs)
    assert c.agree and c.runtime_ok, c.runtime_error
    want = D35.copy()
    want[tuple(slices)] = updates
    assert same(c.runtime_output, want)


def test_openvino_reads_a_start_below_minus_size_with_a_negative_step_as_the_first_element():
    """Observed (not in docs/semantics.md): OpenVINO selects element 0 where Python's slicing selects nothing."""
    require_or_skip("openvino-cpu", "openvino-reference")
    data = np.arange(3, dtype=f32)
    attrs = dict(start=[-8], stop=[-8], step=[-1])
    assert scatter(SS, data, None, np.zeros(0, f32), **attrs).tolist() == [0, 1, 2]  # the text: empty slice
    for runtime in ("openvino-cpu", "openvino-reference"):
        c = one(runtime, SS, data, None, np.zeros(0, f32), **attrs)
        assert not c.agree and c.divergence == "slice-negative-step-start-below" and c.new
        assert "not compatible with expected slice shape [1]" in c.runtime_error
    c = one("openvino-cpu", SS, data, None, np.full(1, -7, f32), **attrs)
    assert c.outcome == "accepted" and c.divergence == "slice-negative-step-start-below-accepted"
    assert c.runtime_output.tolist() == [-7, 1, 2]


def test_openvino_narrows_int64_and_float64_slice_scatter_data():
    require_or_skip("openvino-cpu")
    data = np.arange(6, dtype=i64).reshape(2, 3) + 2 ** 40
    c = one("openvino-cpu", SS, data, None, np.zeros((2, 1), i64), start=[0], stop=[1], step=[1], axes=[1])
    assert c.known_divergence == "int64-narrowing" and c.runtime_output[0].tolist() == [0, 1, 2]
    c = one("openvino-cpu", SS, np.full((2, 2), 2 + 1e-10), None, np.full((1, 2), 0.1), start=[0], stop=[1],
            step=[1])
    assert c.divergence == "f64-narrowing" and c.runtime_output[0, 0] == np.float64(np.float32(0.1))


def test_invalid_slice_scatter_inputs_are_refused_everywhere():
    require_or_skip("openvino-cpu")
    for attrs, words in ((dict(start=[0], stop=[5], step=[0], axes=[1]), "step values must be non-zero"),
                         (dict(start=[0, 0], stop=[5, 5], step=[1, 1], axes=[1, 1]), "must be unique"),
                         (dict(start=[0, 0], stop=[5], step=[1]), "compatible shapes"),
                         (dict(start=[0], stop=[5], step=[1], axes=[2]), "out of the tensor rank range")):
        c = one("openvino-cpu", SS, D35, None, D35, **attrs)
        assert c.agree and not c.core_ok and not c.runtime_ok and words in c.runtime_error, (attrs, c.runtime_error)


# =====================================================================================
# 4. Random valid cases
# =====================================================================================
# behaviours the random cases may meet, each asserted exactly above or in test_differential.py
EXPLAINED = {"reference-no-kernel", "f64-narrowing", "slice-negative-step-start-below"}
DRAWS = {("onnxruntime", TS): 120, ("onnx.reference", TS): 120, ("openvino-cpu", SS): 120,
         ("openvino-reference", SS): 30}


@pytest.mark.slow
@pytest.mark.parametrize("runtime,op", list(DRAWS), ids=[f"{r}-{o}" for r, o in DRAWS])
def test_random_cases_agree_with_scatter_core(runtime, op):
    require_or_skip(runtime)
    tally = {"agree": 0, "explained": 0}

    @settings(max_examples=DRAWS[runtime, op], deadline=None, derandomize=os.environ.get("CI") == "true",
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(cases(ops=[op]))
    def check(case):
        op_, data, indices, updates, attrs = case
        c = one(runtime, op_, data, indices, updates, **attrs)
        assert c.core_ok, c.core_error
        if c.agree:
            assert same(c.runtime_output, c.core_output)
            tally["agree"] += 1
            return
        assert c.known_divergence or c.divergence in EXPLAINED, (
            f"{runtime} differs from scatter_core on {op_} {attrs}: {c.outcome}; cells {c.cells[:5]} core "
            f"{c.core_values[:5]} runtime {c.runtime_values[:5]}; error {c.runtime_error}; data={data!r} "
            f"indices={indices!r} updates={updates!r}")
        tally["explained"] += 1

    check()
    if runtime != "openvino-reference":  # (which refuses every SliceScatter case)
        assert tally["agree"] >= sum(tally.values()) // 2, tally
