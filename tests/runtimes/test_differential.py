"""Differential tests: scatter_core against onnxruntime, onnx.reference, the OpenVINO CPU
plugin and OpenVINO's reference implementation.

* the spec examples: every runtime that can run the version gives scatter_core's
  (and the text's) answer;
* every divergence ``docs/semantics.md`` describes, asserted with the value or
  message the runtime really produces;
* behaviours seen on these runtimes that docs/semantics.md does not (yet) document,
  asserted as observed (and reported, see the ``OBSERVED`` table of
  ``runtime_check.divergences``);
* random valid cases (hypothesis): bit-for-bit agreement, or a known divergence
  whose exact runtime output or message matches its record.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import runtime_check as rc
import scatter_core as sc
from scatter_core import OPERATORS, ScatterError, facts_for, scatter
from scatter_core import trace as scatter_trace
from tests.support.skipping import require_or_skip
from tests.support.strategies import cases

pytestmark = pytest.mark.runtimes

ONNX_RUNTIMES = ("onnxruntime", "onnx.reference")
OV_RUNTIMES = ("openvino-cpu", "openvino-reference")
i8, i16, i32, i64 = np.int8, np.int16, np.int32, np.int64
f16, f32, f64 = np.float16, np.float32, np.float64
B = np.array


def out(runtime, op, data, indices, updates, **attrs) -> np.ndarray:
    """The runtime's output (the test fails with the runtime's message if it refuses)."""
    res = rc.run(runtime, op, data, indices, updates, **attrs)
    assert res.ok, f"{runtime} {op}: {res.error}"
    return res.output


def err(runtime, op, data, indices, updates, **attrs) -> str:
    """The runtime's error message (the test fails if it computes a result)."""
    res = rc.run(runtime, op, data, indices, updates, **attrs)
    assert not res.ok, f"{runtime} {op} accepted the case: {res.output!r}"
    return res.error


def same(a: np.ndarray, b) -> bool:
    b = np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# =====================================================================================
# 1. The spec examples
# =====================================================================================
from tests.support.spec_data import ND_DATA, ND_OUT, ND_UPD  # ONNX ScatterND Example 2, transcribed once

ND_OPS = ["ScatterND-11", "ScatterND-13", "ScatterND-16", "ScatterND-18", "ScatterNDUpdate-3", "ScatterNDUpdate-15"]
ELEMENTS_OPS = ["Scatter-9", "Scatter-11", "ScatterElements-11", "ScatterElements-13", "ScatterElements-16",
                "ScatterElements-18", "ScatterElementsUpdate-3", "ScatterElementsUpdate-12"]
ZEROS34 = np.zeros((3, 4), i32)
USE_INIT = (i32([100, -100, 7, 7]), i64([0, 1, 0, 1]), i32([5, -5, 3, -3]))
USE_INIT_TABLE = {  # docs/semantics.md: reduction -> (with use_init_val, without)
    "sum": ([108, -108, 7, 7], [8, -8, 7, 7]),
    "prod": ([1500, -1500, 7, 7], [15, 15, 7, 7]),
    "min": ([3, -100, 7, 7], [3, -5, 7, 7]),
    "max": ([100, -3, 7, 7], [5, -3, 7, 7]),
    "mean": ([36, -36, 7, 7], [4, -4, 7, 7]),
}


def _elements_axis(op, axis):
    return {"axis": axis} if (axis or OPERATORS[op].attribute("axis").required) else {}


def _seed_cases():
    for op in ND_OPS:
        yield (f"{op} ONNX Example 1", op, f32([1, 2, 3, 4, 5, 6, 7, 8]), i64([[4], [3], [1], [7]]),
               f32([9, 10, 11, 12]), {}, f32([1, 11, 3, 10, 9, 6, 7, 12]))
        yield f"{op} ONNX Example 2", op, f32(ND_DATA), i64([[0], [2]]), f32(ND_UPD), {}, f32(ND_OUT)
    for op in ELEMENTS_OPS:
        yield (f"{op} Scatter Example 1", op, np.zeros((3, 3), f32), i64([[1, 0, 2], [0, 2, 1]]),
               f32([[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]]), _elements_axis(op, 0),
               f32([[2.0, 1.1, 0.0], [1.0, 0.0, 2.2], [0.0, 2.1, 1.2]]))
        yield (f"{op} Scatter Example 2", op, f32([[1.0, 2.0, 3.0, 4.0, 5.0]]), i64([[1, 3]]), f32([[1.1, 2.1]]),
               _elements_axis(op, 1), f32([[1.0, 1.1, 3.0, 2.1, 5.0]]))
    op = "ScatterElementsUpdate-12"
    axis0 = i64([0])  # the examples pass axis as a one-element tensor
    yield (f"{op} Example 1", op, f32([2, 3, 4, 6]), i64([1, 0, 0, -2, -1, 2]), f32([10, 20, 30, 40, 70, 60]),
           {"axis": axis0, "reduction": "sum", "use_init_val": True}, f32([52, 13, 104, 76]))
    yield (f"{op} Example 2", op, f32([2, 3, 4, 6]), i64([1, 0, 0, 2, 3, 2]), f32([10, 20, 30, 40, 70, 60]),
           {"axis": axis0, "reduction": "sum", "use_init_val": False}, f32([50, 10, 100, 70]))
    yield (f"{op} Example 3", op, ZEROS34, i64([[1, 2], [0, 3]]), i32([[11, 12], [13, 14]]),
           {"axis": i64([1]), "reduction": "none", "use_init_val": True},
           i32([[0, 11, 12, 0], [13, 0, 0, 14], [0, 0, 0, 0]]))
    yield (f"{op} Example 4", op, ZEROS34 + 1, i64([[1, 1], [0, 3]]), i32([[11, 12], [13, 14]]),
           {"axis": i64([1]), "reduction": "sum", "use_init_val": True},
           i32([[1, 24, 1, 1], [14, 1, 1, 15], [1, 1, 1, 1]]))
    yield (f"{op} Example 5", op, ZEROS34 + 2, i64([[1, 1], [0, 3]]), i32([[11, 12], [13, 14]]),
           {"axis": i64([1]), "reduction": "prod", "use_init_val": True},
           i32([[2, 264, 2, 2], [26, 2, 2, 28], [2, 2, 2, 2]]))
    for reduction, want in (("sum", [61, 72, 23, 4]), ("sub", [-59, -68, -17, 4])):
        yield (f"ScatterNDUpdate-15 {reduction} example", "ScatterNDUpdate-15", i64([1, 2, 3, 4]),
               i64([[0], [2], [-3], [-3], [0]]), i64([10, 20, 30, 40, 50]), {"reduction": reduction}, i64(want))
    for reduction, (with_init, without) in USE_INIT_TABLE.items():
        for flag, want in ((True, with_init), (False, without)):
            yield (f"{op} use_init_val={flag} {reduction}", op, *USE_INIT,
                   {"axis": 0, "reduction": reduction, "use_init_val": flag}, i32(want))


SEED_CASES = list(_seed_cases())
# Documented divergences among the seed examples, by (op, runtime). onnx.reference has no Scatter kernel;
# this applies only while the registry lists it for Scatter-9 (see test_scatter_11_cannot_run_anywhere).
SEED_DIVERGENCES = {("Scatter-9", "onnx.reference"): "no-scatter-kernel"}


@pytest.mark.parametrize("name,op,data,indices,updates,attrs,expected", SEED_CASES, ids=[c[0] for c in SEED_CASES])
def test_spec_examples_on_every_runtime(name, op, data, indices, updates, attrs, expected):
    core = scatter(op, data, indices, updates, **attrs)
    assert same(core, expected), (name, core)
    runtimes = rc.runtimes_for(op) or rc.runtimes_for(rc.stand_in(op))
    require_or_skip(*runtimes)
    comparisons = rc.compare(op, data, indices, updates, guarded=False, **attrs)
    assert [c.runtime for c in comparisons] == runtimes
    for c in comparisons:
        label = SEED_DIVERGENCES.get((op, c.runtime))
        if label is None:
            assert c.agree and same(c.runtime_output, expected), (name, c.runtime, c.runtime_error, c.runtime_output)
        else:
            assert not c.agree and c.known_divergence == label and not c.new, (name, c)


def test_scatter_9_runs_at_opset_10_too():
    """The ONNX test suite runs Scatter-9's examples at opset 10; onnxruntime gives the same answer."""
    require_or_skip("onnxruntime", "onnx")
    import onnxruntime as ort
    from onnx import helper

    from runtime_check.onnx_backend import build_model

    data, idx, upd = np.zeros((3, 3), f32), i64([[1, 0, 2], [0, 2, 1]]), f32([[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]])
    model = build_model(OPERATORS["Scatter-9"], data, idx, upd, {})
    del model.opset_import[:]
    model.opset_import.append(helper.make_opsetid("", 10))
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    got = session.run(None, {"data": data, "indices": idx, "updates": upd})[0]
    assert same(got, scatter("Scatter-9", data, idx, upd))


# =====================================================================================
# 2. Divergences documented in docs/semantics.md, asserted with what the runtimes really do
# =====================================================================================
@pytest.mark.parametrize("dtype", [i16, i32, i64])
def test_integer_mean_cpu_truncates_reference_floors(dtype):
    require_or_skip(*OV_RUNTIMES)
    op = "ScatterElementsUpdate-12"
    rows = [  # data, indices, updates, use_init_val, spec/reference (floor), CPU (truncation)
        ([0], [0], [-3], True, -2, -1),
        ([0], [0, 0], [-1, -2], False, -2, -1),
        ([0], [0, 0], [-2, -2], True, -2, -1),  # -4/3
        ([1], [0, 0], [3, 3], True, 2, 2),  # 7/3
    ]
    for data, idx, upd, init, floor, trunc in rows:
        args = (np.array(data, dtype), i64(idx), np.array(upd, dtype))
        kw = dict(axis=0, reduction="mean", use_init_val=init)
        assert scatter(op, *args, **kw).tolist() == [floor]
        assert out("openvino-reference", op, *args, **kw).tolist() == [floor]
        assert out("openvino-cpu", op, *args, **kw).tolist() == [trunc]
    (cpu,) = rc.compare(op, dtype([0]), [0], dtype([-3]), axis=0, reduction="mean", runtimes=["openvino-cpu"],
                        guarded=False)
    assert cpu.known_divergence == "integer-mean-truncation" and cpu.runtime_values == (-1,)


def test_int8_mean_only_on_cpu():
    """docs/semantics.md: OV-ref has no int8/uint8 mean kernel; OV-CPU truncates and accumulates wrapped."""
    require_or_skip(*OV_RUNTIMES)
    op = "ScatterElementsUpdate-12"
    for dtype, upd in ((i8, -3), (np.uint8, 3)):
        assert "Node.evaluate returned False" in err("openvino-reference", op, np.array([0], dtype), [0],
                                                     np.array([upd], dtype), axis=0, reduction="mean")
    assert out("openvino-cpu", op, i8([0]), [0], i8([-3]), axis=0, reduction="mean").tolist() == [-1]
    assert out("openvino-cpu", op, i8([120]), [0, 0], i8([120, 120]), axis=0, reduction="mean").tolist() == [34]
    assert scatter(op, i8([120]), [0, 0], i8([120, 120]), axis=0, reduction="mean").tolist() == [34]


def test_k_zero_cpu_no_op_elsewhere_whole_tensor():
    require_or_skip(*rc.RUNTIMES)
    data = np.arange(4, dtype=i64).reshape(2, 2)
    k0 = np.zeros((2, 0), i64)
    sevens = np.full((2, 2, 2), 7, i64)
    for runtime in ONNX_RUNTIMES:
        assert out(runtime, "ScatterND-16", data, k0, sevens, reduction="add").tolist() == (data + 14).tolist()
        assert out(runtime, "ScatterND-11", data, k0, sevens).tolist() == [[7, 7], [7, 7]]
    assert out("openvino-reference", "ScatterNDUpdate-15", data, k0, sevens, reduction="sum").tolist() == \
        (data + 14).tolist()
    assert out("openvino-reference", "ScatterNDUpdate-3", data, k0, sevens).tolist() == [[7, 7], [7, 7]]
    assert same(out("openvino-cpu", "ScatterNDUpdate-15", data, k0, sevens, reduction="sum"), data)
    assert same(out("openvino-cpu", "ScatterNDUpdate-3", data, k0, sevens), data)
    assert same(scatter("ScatterNDUpdate-15", data, k0, sevens, reduction="sum"), data + 14)
    labels = {c.runtime: c.known_divergence for c in rc.compare("ScatterNDUpdate-3", data, k0, sevens, guarded=False)}
    assert labels == {"openvino-cpu": "k-zero-noop", "openvino-reference": None}


@pytest.mark.parametrize("op,idx,kw", [("ScatterElementsUpdate-12", [1], {"axis": 0}),
                                       ("ScatterElementsUpdate-3", [1], {"axis": 0}),
                                       ("ScatterNDUpdate-15", [[1]], {}), ("ScatterNDUpdate-3", [[1]], {}),
                                       ("ScatterUpdate-3", [1], {"axis": 0})])
def test_int64_data_is_computed_in_int32_on_cpu(op, idx, kw):
    require_or_skip(*OV_RUNTIMES)
    data = i64([2**40 + 3, 5])
    assert out("openvino-cpu", op, data, idx, i64([1]), **kw).tolist() == [3, 1]
    assert out("openvino-reference", op, data, idx, i64([1]), **kw).tolist() == [2**40 + 3, 1]
    assert scatter(op, data, idx, i64([1]), **kw).tolist() == [2**40 + 3, 1]
    (cpu,) = rc.compare(op, data, idx, i64([1]), runtimes=["openvino-cpu"], guarded=False, **kw)
    assert cpu.known_divergence == "int64-narrowing" and cpu.cells == ((0,),)


def test_float16_accumulation_and_refusals():
    require_or_skip(*rc.RUNTIMES)
    two = dict(data=f16([2048]), updates=f16([1, 1]))
    assert scatter("ScatterND-16", two["data"], [[0], [0]], two["updates"], reduction="add").tolist() == [2048]
    for runtime in OV_RUNTIMES:  # wide accumulator, CPU and reference
        assert out(runtime, "ScatterNDUpdate-15", two["data"], [[0], [0]], two["updates"], reduction="sum")[0] == 2050
        assert out(runtime, "ScatterElementsUpdate-12", two["data"], [0, 0], two["updates"], axis=0,
                   reduction="sum")[0] == 2050
    assert out("onnx.reference", "ScatterND-16", two["data"], [[0], [0]], two["updates"], reduction="add")[0] == 2048
    for op, idx, kw in (("ScatterND-16", [[0], [0]], {}), ("ScatterElements-16", [0, 0], {"axis": 0}),
                        ("ScatterND-18", [[0], [0]], {}), ("ScatterElements-18", [0, 0], {"axis": 0})):
        for reduction in ("add", "mul"):
            assert "MLFloat16 data type is not supported" in err(
                "onnxruntime", op, two["data"], idx, two["updates"], reduction=reduction, **kw)
    for reduction in ("max", "min"):
        assert "MLFloat16 data type is not supported with ScatterND opset 18" in err(
            "onnxruntime", "ScatterND-18", two["data"], [[0], [0]], two["updates"], reduction=reduction)
        assert out("onnxruntime", "ScatterElements-18", two["data"], [0, 0], two["updates"], axis=0,
                   reduction=reduction)[0] == (2048 if reduction == "max" else 1)
    # overflow to inf (OV and onnx.reference)
    big = dict(data=f16([60000]), updates=f16([6000, 6000]))
    assert np.isposinf(out("onnx.reference", "ScatterND-16", big["data"], [[0], [0]], big["updates"],
                           reduction="add")[0])
    for runtime in OV_RUNTIMES:
        assert np.isposinf(out(runtime, "ScatterNDUpdate-15", big["data"], [[0], [0]], big["updates"],
                               reduction="sum")[0])
    labels = {c.runtime: c.known_divergence for c in rc.compare(
        "ScatterNDUpdate-15", two["data"], [[0], [0]], two["updates"], reduction="sum", guarded=False)}
    assert labels == {"openvino-cpu": "f16-accumulation", "openvino-reference": "f16-accumulation"}


def test_bool_reductions():
    require_or_skip(*rc.RUNTIMES)
    data, upd = B([False, True, False]), B([True, False, True])
    logical = {"add": [True, True, False], "mul": [False, True, False],
               "max": [True, True, False], "min": [False, True, False]}
    for op, idx, kw in (("ScatterElements-18", [0, 0, 1], {"axis": 0}), ("ScatterND-18", [[0], [0], [1]], {})):
        for reduction, want in logical.items():
            assert scatter(op, data, idx, upd, reduction=reduction, **kw).tolist() == want
            assert out("onnx.reference", op, data, idx, upd, reduction=reduction, **kw).tolist() == want
            if reduction in ("add", "mul"):
                assert out("onnxruntime", op, data, idx, upd, reduction=reduction, **kw).tolist() == want
            else:
                assert f"bool data type is not supported with {op.split('-')[0]} opset 18 when reduction is " \
                       f"'{reduction}'" in err("onnxruntime", op, data, idx, upd, reduction=reduction, **kw)
    ov = {"sum": "add", "prod": "mul", "max": "max", "min": "min"}
    for runtime in OV_RUNTIMES:
        for reduction, onnx_name in ov.items():
            assert out(runtime, "ScatterElementsUpdate-12", data, [0, 0, 1], upd, axis=0,
                       reduction=reduction).tolist() == logical[onnx_name]
            assert out(runtime, "ScatterNDUpdate-15", data, [[0], [0], [1]], upd,
                       reduction=reduction).tolist() == logical[onnx_name]
        # use_init_val=false: the neutral is False for sum/max and True for prod/min
        neutral_cases = (("sum", True, False, True, False), ("max", True, False, True, False),
                         ("prod", False, True, False, True), ("min", False, True, False, True))
        for reduction, d, u, with_init, without in neutral_cases:
            for flag, want in ((True, with_init), (False, without)):
                kw = dict(axis=0, reduction=reduction, use_init_val=flag)
                assert out(runtime, "ScatterElementsUpdate-12", B([d]), [0], B([u]), **kw).tolist() == [want]
                assert scatter("ScatterElementsUpdate-12", B([d]), [0], B([u]), **kw).tolist() == [want]
    # sub = XOR: one update per cell on both, several updates per cell on the reference
    one = (B([False, True]), [[0], [1]], B([True, True]))
    for runtime in OV_RUNTIMES:
        assert out(runtime, "ScatterNDUpdate-15", *one, reduction="sub").tolist() == [True, False]
    dup = (B([False, True, False]), [[0], [0], [1]], B([True, True, True]))
    assert out("openvino-reference", "ScatterNDUpdate-15", *dup, reduction="sub").tolist() == [False, False, False]
    assert scatter("ScatterNDUpdate-15", *dup, reduction="sub").tolist() == [False, False, False]


@pytest.mark.parametrize("op,idx,kw", [("ScatterElements-16", [0, 0, 1], {"axis": 0}),
                                       ("ScatterND-16", [[0], [0], [1]], {})])
def test_onnxruntime_accepts_max_min_at_opset_16(op, idx, kw):
    require_or_skip(*ONNX_RUNTIMES)
    later = op.replace("-16", "-18")
    for reduction, want in (("max", [3, 5]), ("min", [1, 1])):
        args = (i32([1, 5]), idx, i32([3, 2, 1]))
        with pytest.raises(ScatterError, match="not allowed"):
            scatter(op, *args, reduction=reduction, **kw)
        assert scatter(later, *args, reduction=reduction, **kw).tolist() == want
        for runtime in ONNX_RUNTIMES:
            assert out(runtime, op, *args, reduction=reduction, **kw).tolist() == want
        labels = {c.runtime: c.divergence
                  for c in rc.compare(op, *args, reduction=reduction, guarded=False, **kw)}
        assert labels == {"onnxruntime": "maxmin-accepted-at-opset-16", "onnx.reference": "reduction-not-validated",
                          "openvino-onnx": "frontend-reduction-not-validated"}


@pytest.mark.parametrize("op,idx,kw", [("ScatterElements-16", [0, 0, 1], {"axis": 0}),
                                       ("ScatterElements-18", [0, 0, 1], {"axis": 0}),
                                       ("ScatterND-16", [[0], [0], [1]], {}), ("ScatterND-18", [[0], [0], [1]], {})])
@pytest.mark.parametrize("reduction", ["sum", "mean", "bogus", "ADD"])
def test_onnxruntime_treats_unknown_reductions_as_none(op, idx, kw, reduction):
    require_or_skip("onnxruntime")
    args = (i32([1, 5]), idx, i32([3, 2, 1]))
    assert out("onnxruntime", op, *args, reduction=reduction, **kw).tolist() == [2, 1]
    assert scatter(op, *args, **kw).tolist() == [2, 1]
    with pytest.raises(ScatterError):
        scatter(op, *args, reduction=reduction, **kw)
    (c,) = rc.compare(op, *args, reduction=reduction, runtimes=["onnxruntime"], guarded=False, **kw)
    assert c.outcome == "accepted" and c.known_divergence == "unknown-reduction-ignored"


@pytest.mark.parametrize("op,idx,kw,reduction,want", [
    ("ScatterElements-11", [0, 0, 1], {"axis": 0}, "add", [6, 6]),
    ("ScatterElements-13", [0, 0, 1], {"axis": 0}, "max", [3, 5]),
    ("ScatterND-11", [[0], [0], [1]], {}, "mul", [6, 5]),
    ("ScatterND-13", [[0], [0], [1]], {}, "min", [1, 1]),
])
def test_reduction_before_opset_16_refused_by_ort_applied_by_onnx_reference(op, idx, kw, reduction, want):
    require_or_skip(*ONNX_RUNTIMES)
    args = (i32([1, 5]), idx, i32([3, 2, 1]))
    assert "Unrecognized attribute: reduction" in err("onnxruntime", op, *args, reduction=reduction, **kw)
    assert out("onnx.reference", op, *args, reduction=reduction, **kw).tolist() == want
    labels = {c.runtime: (c.agree, c.known_divergence)
              for c in rc.compare(op, *args, reduction=reduction, guarded=False, runtimes=ONNX_RUNTIMES, **kw)}
    assert labels == {"onnxruntime": (True, None), "onnx.reference": (False, "reduction-not-validated")}


def test_openvino_reduction_names_are_case_insensitive():
    require_or_skip(*OV_RUNTIMES)
    args = (i32([1, 5]), [0, 0, 1], i32([3, 2, 1]))
    for runtime in OV_RUNTIMES:
        for reduction, want in (("SUM", [6, 6]), ("Sum", [6, 6]), ("MEAN", [2, 3]), ("NONE", [2, 1])):
            assert out(runtime, "ScatterElementsUpdate-12", *args, axis=0, reduction=reduction).tolist() == want
        assert out(runtime, "ScatterNDUpdate-15", i32([1, 5]), [[0], [0], [1]], i32([3, 2, 1]),
                   reduction="Sub").tolist() == [-4, 4]
        for bad in ("bogus", "add"):
            assert f'"{bad}" is not a member of enum op::v12::ScatterElementsUpdate::Reduction' in err(
                runtime, "ScatterElementsUpdate-12", *args, axis=0, reduction=bad)
        assert '"mean" is not a member of enum op::v15::ScatterNDUpdate::Reduction' in err(
            runtime, "ScatterNDUpdate-15", i32([1, 5]), [[0]], i32([3]), reduction="mean")
    labels = {c.runtime: c.known_divergence for c in rc.compare("ScatterElementsUpdate-12", *args, axis=0,
                                                                reduction="SUM", guarded=False)}
    assert labels == dict.fromkeys(OV_RUNTIMES, "reduction-case-insensitive")


def test_negative_indices_accepted_by_openvino_v3_ops_against_their_text():
    require_or_skip(*OV_RUNTIMES)
    with pytest.raises(ScatterError, match="negative"):
        scatter("ScatterElementsUpdate-3", f32([0, 0, 0, 0]), [-1], f32([1]), axis=0)
    with pytest.raises(ScatterError, match="negative"):
        scatter("ScatterNDUpdate-3", i64([1, 2, 3, 4]), [[0], [2], [-3]], i64([10, 20, 30]))
    for runtime in OV_RUNTIMES:
        assert out(runtime, "ScatterElementsUpdate-3", f32([0, 0, 0, 0]), [-1], f32([1]), axis=0).tolist() == \
            [0, 0, 0, 1]
        assert out(runtime, "ScatterNDUpdate-3", i64([1, 2, 3, 4]), [[0], [2], [-3]], i64([10, 20, 30])).tolist() == \
            [10, 30, 20, 4]
    # ScatterUpdate-3 rejects negatives, as its text says (data of rank >= 2; see the rank-1 observation)
    bad = (np.zeros((2, 3), i32), [-1], np.ones((1, 3), i32))
    assert "have indices value that points to non-existing output tensor element" in err(
        "openvino-cpu", "ScatterUpdate-3", *bad, axis=0)
    assert "ScatterUpdate indices value -1 is out of bounds for axis 0 of size 2" in err(
        "openvino-reference", "ScatterUpdate-3", *bad, axis=0)
    labels = {c.runtime: c.known_divergence
              for c in rc.compare("ScatterNDUpdate-3", i64([1, 2, 3, 4]), [[-1]], i64([9]), guarded=False)}
    assert labels == dict.fromkeys(OV_RUNTIMES, "negative-index-accepted")


def test_scatter_9_accepts_negative_indices_on_onnxruntime():
    require_or_skip("onnxruntime")
    assert out("onnxruntime", "Scatter-9", f32([0, 0, 0]), [-1], f32([1])).tolist() == [0, 0, 1]
    assert scatter("Scatter-9", f32([0, 0, 0]), [-1], f32([1])).tolist() == [0, 0, 1]


def test_scatter_11_cannot_run_anywhere():
    require_or_skip(*ONNX_RUNTIMES, "onnx")
    import onnx

    from runtime_check.onnx_backend import build_model

    args = (f32([0, 0, 0]), i64([1]), f32([1]))
    assert "Op registered for Scatter is deprecated in domain_version of 11" in err("onnxruntime", "Scatter-11", *args)
    assert "No registered implementation for operator 'Scatter'" in err("onnx.reference", "Scatter-11", *args)
    assert "No registered implementation for operator 'Scatter'" in err("onnx.reference", "Scatter-9", *args)
    with pytest.raises(onnx.checker.ValidationError, match="deprecated in domain_version of 11"):
        onnx.checker.check_model(build_model(OPERATORS["Scatter-11"], *args, {}))


# -- invalid inputs (docs/semantics.md's table) --------------------------------------------
def test_index_at_or_above_s():
    require_or_skip(*rc.RUNTIMES)
    assert "indices element out of data bounds, idx=2 must be within the inclusive range [-2,1]" in err(
        "onnxruntime", "ScatterElements-18", i32([1, 5]), [2], i32([3]), axis=0)
    assert "invalid indice found, indice = 2" in err("onnxruntime", "ScatterND-18", i32([1, 5]), [[2]], i32([3]))
    assert err("onnx.reference", "ScatterElements-18", i32([1, 5]), [2], i32([3]), axis=0).startswith("IndexError")
    assert err("onnx.reference", "ScatterND-18", i32([1, 5]), [[2]], i32([3])).startswith("IndexError")
    for runtime in OV_RUNTIMES:
        assert "RuntimeError" in err(runtime, "ScatterElementsUpdate-12", i32([1, 5]), [2], i32([3]), axis=0)
        assert "RuntimeError" in err(runtime, "ScatterNDUpdate-15", i32([1, 5]), [[2]], i32([3]))


@pytest.mark.slow
def test_index_below_minus_s():
    require_or_skip(*rc.RUNTIMES)
    assert "idx=-3 must be within the inclusive range [-2,1]" in err(
        "onnxruntime", "ScatterElements-18", i32([1, 5]), [-3], i32([3]), axis=0)
    assert err("onnx.reference", "ScatterElements-18", i32([1, 5]), [-3], i32([3]), axis=0).startswith("IndexError")
    for op in ("ScatterElementsUpdate-3", "ScatterElementsUpdate-12"):
        assert "normalized >= 0" in err("openvino-reference", op, i32([1, 5]), [-3], i32([3]), axis=0)
    assert "indices contain values that points to non-existing data tensor element" in err(
        "openvino-cpu", "ScatterNDUpdate-15", i32([0, 0, 0, 0]), [[-5]], i32([7]))
    # the Elements ops on the CPU plugin: no lower-bound check, a segfault (in a child process)
    for op in ("ScatterElementsUpdate-3", "ScatterElementsUpdate-12"):
        res = rc.run_guarded("openvino-cpu", op, i32([0, 0, 0, 0]), i64([-5]), i32([7]), axis=0)
        assert not res.ok and "crashed (signal 11" in res.error and "SIGSEGV" in res.error
    cpu = [c for c in rc.compare("ScatterElementsUpdate-12", i32([0, 0, 0, 0]), [-5], i32([7]), axis=0)
           if c.runtime == "openvino-cpu"][0]
    assert cpu.outcome == "crash" and cpu.known_divergence == "index-below-range-crash"


def test_updates_shape_differs_from_indices_shape():
    require_or_skip(*rc.RUNTIMES)
    data, idx = i32([[1, 5], [2, 3]]), i64([[0, 1]])
    assert "Indices vs updates dimensions differs at position=1 2 vs 3" in err(
        "onnxruntime", "ScatterElements-18", data, idx, i32([[3, 4, 5]]), axis=0)
    # onnx.reference silently ignores the extra update
    assert out("onnx.reference", "ScatterElements-18", data, idx, i32([[3, 4, 5]]), axis=0).tolist() == [[3, 5], [2, 4]]
    for runtime in OV_RUNTIMES:
        assert "indices_shape.compatible(updates_shape)" in err(
            runtime, "ScatterElementsUpdate-12", data, idx, i32([[3]]), axis=0)
    (ref,) = rc.compare("ScatterElements-18", data, idx, i32([[3, 4, 5]]), axis=0, runtimes=["onnx.reference"],
                        guarded=False)
    assert ref.outcome == "accepted" and ref.known_divergence == "updates-shape-not-validated"


def test_indices_dimension_larger_than_data_on_a_non_axis_dimension():
    require_or_skip(*rc.RUNTIMES)
    data, idx, upd = np.zeros((2, 3), i32), i64([[0, 0, 0, 0]]), i32([[1, 2, 3, 4]])
    assert "Indices dim=4 at pos=1 is greater than input dim=3" in err(
        "onnxruntime", "ScatterElements-18", data, idx, upd, axis=0)
    assert err("onnx.reference", "ScatterElements-18", data, idx, upd, axis=0).startswith("IndexError")
    for runtime in OV_RUNTIMES:
        for op in ("ScatterElementsUpdate-3", "ScatterElementsUpdate-12"):
            assert out(runtime, op, data, idx, upd, axis=0).tolist() == [[1, 2, 3], [4, 0, 0]]  # (0,3) -> (1,0)
    labels = {c.runtime: c.known_divergence for c in rc.compare("ScatterElementsUpdate-12", data, idx, upd, axis=0,
                                                                guarded=False)}
    assert labels == dict.fromkeys(OV_RUNTIMES, "non-axis-dim-aliasing")


def test_indices_rank_differs_from_data_rank():
    require_or_skip(*rc.RUNTIMES)
    data = np.zeros((2, 3), i32)
    assert "Indices must have the same rank as Input. Indices rank=1. Input rank=2" in err(
        "onnxruntime", "ScatterElements-18", data, [0, 1], i32([1, 2]), axis=0)
    assert out("onnx.reference", "ScatterElements-18", data, [0, 1], i32([1, 2]), axis=0).tolist() == \
        [[1, 1, 1], [2, 2, 2]]
    for runtime in OV_RUNTIMES:
        assert "indices_rank.compatible(data_rank)" in err(
            runtime, "ScatterElementsUpdate-12", data, [0, 1], i32([1, 2]), axis=0)


def test_axis_dimension_of_indices_larger_than_datas():
    require_or_skip(*rc.RUNTIMES)
    args = (np.zeros(2, i32), [0, 1, 1], i32([1, 2, 3]))
    for runtime in ONNX_RUNTIMES:
        assert out(runtime, "ScatterElements-18", *args, axis=0).tolist() == [1, 3]
    for runtime in OV_RUNTIMES:
        for op in ("ScatterElementsUpdate-3", "ScatterElementsUpdate-12"):
            assert out(runtime, op, *args, axis=0).tolist() == [1, 3]
    with pytest.raises(ScatterError, match="exceeds"):
        scatter("ScatterElementsUpdate-3", *args, axis=0)
    labels = {c.runtime: c.known_divergence for c in rc.compare("ScatterElementsUpdate-3", *args, axis=0,
                                                                guarded=False)}
    assert labels == dict.fromkeys(OV_RUNTIMES, "axis-dim-accepted")


def test_bad_axis_k_too_large_float_indices_are_refused_everywhere():
    require_or_skip(*rc.RUNTIMES)
    data = np.zeros((2, 3), i32)
    assert "HandleNegativeAxis" in err("onnxruntime", "ScatterElements-18", data, [[0]], i32([[1]]), axis=2)
    assert err("onnx.reference", "ScatterElements-18", data, [[0]], i32([[1]]), axis=2).startswith("IndexError")
    assert "last dimension of indices must not be larger than rank of input tensor" in err(
        "onnxruntime", "ScatterND-18", np.zeros(2, i32), [[0, 1]], i32([1]))
    assert "Type 'tensor(double)' of input parameter (indices)" in err(
        "onnxruntime", "ScatterElements-18", np.zeros(2, i32), [0.0], i32([1]), axis=0)
    for runtime in OV_RUNTIMES:
        assert "is_axis_valid" in err(runtime, "ScatterElementsUpdate-12", data, [[0]], i32([[1]]), axis=2)
        assert "last_idx_dim_size <= inputs_shape.size()" in err(
            runtime, "ScatterNDUpdate-15", np.zeros(2, i32), [[0, 1]], i32([1]))
        assert "indices_et.is_integral()" in err(
            runtime, "ScatterElementsUpdate-12", np.zeros(2, i32), [0.0], i32([1]), axis=0)
        assert "get_input_element_type(0) != element::boolean" in err(
            runtime, "ScatterElementsUpdate-12", B([False]), [0], B([True]), axis=0, reduction="mean")


def test_index_dtypes_for_scatter_nd():
    require_or_skip(*rc.RUNTIMES)
    idx32 = i32([[1]])
    assert "Type 'tensor(int32)' of input parameter (indices)" in err(
        "onnxruntime", "ScatterND-18", np.zeros(2, i32), idx32, i32([1]))
    assert out("onnx.reference", "ScatterND-18", np.zeros(2, i32), idx32, i32([1])).tolist() == [0, 1]
    for runtime in OV_RUNTIMES:
        assert out(runtime, "ScatterNDUpdate-15", np.zeros(2, i32), idx32, i32([1])).tolist() == [0, 1]
        assert "indices_et.compatible(element::i32) || indices_et.compatible(element::i64)" in err(
            runtime, "ScatterNDUpdate-15", np.zeros(2, i32), i16([[1]]), i32([1]))
    (ref,) = rc.compare("ScatterND-18", np.zeros(2, i32), idx32, i32([1]), runtimes=["onnx.reference"], guarded=False)
    assert ref.known_divergence == "nd-int32-indices-accepted"


def test_zero_d_indices_and_one_element_updates_on_openvino():
    require_or_skip(*OV_RUNTIMES)
    data = np.zeros((3, 4), i32)
    want = [[0, 0, 0, 0], [1, 2, 3, 4], [0, 0, 0, 0]]
    assert out("openvino-reference", "ScatterUpdate-3", data, i64(1), i32([1, 2, 3, 4]), axis=0).tolist() == want
    assert "do not support scalar input" in err("openvino-cpu", "ScatterUpdate-3", data, i64(1), i32([1, 2, 3, 4]),
                                                axis=0)
    for op in ("ScatterNDUpdate-3", "ScatterNDUpdate-15"):
        assert out("openvino-reference", op, np.zeros((2, 2), f32), [0, 1], f32([7])).tolist() == [[0, 7], [0, 0]]
        assert "expectUpdateShape.size() == updateRank" in err("openvino-cpu", op, np.zeros((2, 2), f32), [0, 1],
                                                               f32([7]))
        assert out("openvino-cpu", op, np.zeros((2, 2), f32), [0, 1], f32(7)).tolist() == [[0, 7], [0, 0]]
    labels = {c.runtime: c.known_divergence for c in rc.compare("ScatterNDUpdate-15", np.zeros((2, 2), f32), [0, 1],
                                                                f32([7]), guarded=False)}
    assert labels == {"openvino-cpu": "scalar-updates-refused", "openvino-reference": None}


def test_duplicates_with_none_last_write_wins_everywhere():
    require_or_skip(*rc.RUNTIMES)
    n = 5000
    zeros, ramp = np.zeros(2, i32), np.arange(n, dtype=i32)
    for runtime in ONNX_RUNTIMES:
        assert out(runtime, "ScatterND-11", zeros, np.zeros((n, 1), i64), ramp).tolist() == [n - 1, 0]
        assert out(runtime, "ScatterElements-11", zeros, np.zeros(n, i64), ramp, axis=0).tolist() == [n - 1, 0]
    for runtime in OV_RUNTIMES:
        assert out(runtime, "ScatterElementsUpdate-12", zeros, np.zeros(n, i64), ramp, axis=0).tolist() == [n - 1, 0]
        for op in ("ScatterNDUpdate-15", "ScatterUpdate-3"):
            indices = np.zeros((n, 1) if op.startswith("ScatterND") else n, i64)
            attrs = {} if op.startswith("ScatterND") else {"axis": 0}
            got = out(runtime, op, zeros, indices, ramp, **attrs).tolist()
            if runtime == "openvino-cpu":
                # parallel_for over the updates: with several threads the winner is the last write of
                # whichever thread finishes last (seen on 2 cores: 4999 usually, 2499 sometimes)
                assert got[1] == 0 and got[0] in range(n), (op, got)
            else:
                assert got == [n - 1, 0], (runtime, op, got)


def test_empty_indices_leave_data_unchanged_everywhere():
    require_or_skip(*rc.RUNTIMES)
    ones = i32([1, 1])
    for runtime in ONNX_RUNTIMES:
        assert out(runtime, "ScatterND-18", ones, np.zeros((0, 1), i64), np.zeros(0, i32), reduction="mul").tolist() \
            == [1, 1]
        assert out(runtime, "ScatterElements-18", ones, np.zeros(0, i64), np.zeros(0, i32), axis=0,
                   reduction="add").tolist() == [1, 1]
    for runtime in OV_RUNTIMES:
        assert out(runtime, "ScatterElementsUpdate-12", ones, np.zeros(0, i64), np.zeros(0, i32), axis=0,
                   reduction="mean", use_init_val=False).tolist() == [1, 1]
        assert out(runtime, "ScatterNDUpdate-15", ones, np.zeros((0, 1), i64), np.zeros(0, i32),
                   reduction="prod").tolist() == [1, 1]
        assert out(runtime, "ScatterUpdate-3", ones, np.zeros(0, i64), np.zeros(0, i32), axis=0).tolist() == [1, 1]


def test_integer_overflow_wraps():
    require_or_skip("onnxruntime", "onnx.reference", "openvino-cpu")
    for runtime in ONNX_RUNTIMES:
        with np.errstate(over="ignore"):
            assert out(runtime, "ScatterND-16", i8([120]), [[0], [0]], i8([5, 5]), reduction="add").tolist() == [-126]
            assert out(runtime, "ScatterND-16", i8([100]), [[0]], i8([3]), reduction="mul").tolist() == [44]
    assert out("openvino-cpu", "ScatterNDUpdate-15", i8([120]), [[0], [0]], i8([5, 5]), reduction="sum").tolist() == \
        [-126]
    assert out("openvino-cpu", "ScatterNDUpdate-15", i8([100]), [[0]], i8([3]), reduction="prod").tolist() == [44]


# =====================================================================================
# 3. Observed on these runtimes, not (yet) in docs/semantics.md - asserted as they are
# =====================================================================================
def test_observed_cpu_computes_bool_sum_and_sub_in_uint8():
    """docs/semantics.md says OV-CPU = OV-ref: sum = OR, sub = XOR. With several updates per cell the
    CPU plugin instead counts in uint8: F - T - T = 254 -> True, F + 256 x T = 0 -> False."""
    require_or_skip(*OV_RUNTIMES)
    dup = (B([False, True, False]), [[0], [0], [1]], B([True, True, True]))
    assert out("openvino-cpu", "ScatterNDUpdate-15", *dup, reduction="sub").tolist() == [True, False, False]
    many = (B([False, True]), np.zeros((256, 1), i64), np.ones(256, bool))
    assert out("openvino-cpu", "ScatterNDUpdate-15", *many, reduction="sum").tolist() == [False, True]
    assert out("openvino-reference", "ScatterNDUpdate-15", *many, reduction="sum").tolist() == [True, True]
    assert out("openvino-cpu", "ScatterElementsUpdate-12", B([False, True]), np.zeros(256, i64), np.ones(256, bool),
               axis=0, reduction="sum").tolist() == [False, True]
    (cpu,) = rc.compare("ScatterNDUpdate-15", *dup, reduction="sub", runtimes=["openvino-cpu"], guarded=False)
    assert cpu.divergence == "bool-sum-sub-as-uint8" and cpu.new


def test_observed_cpu_computes_float64_in_float32():
    require_or_skip("openvino-cpu")
    got = out("openvino-cpu", "ScatterElementsUpdate-12", f64([0.1, 0.2]), [0], f64([1e-10]), axis=0, reduction="sum")
    assert got.dtype == f64 and got.tolist() == [float(f32(0.1)), float(f32(0.2))]
    assert scatter("ScatterElementsUpdate-12", f64([0.1, 0.2]), [0], f64([1e-10]), axis=0,
                   reduction="sum").tolist() == [0.1 + 1e-10, 0.2]


def test_observed_cpu_narrows_uint64_and_widens_int16_mean():
    require_or_skip(*OV_RUNTIMES)
    assert out("openvino-cpu", "ScatterElementsUpdate-12", np.uint64([2**40 + 5, 1]), [0], np.uint64([2**33]),
               axis=0).tolist() == [0, 1]
    assert out("openvino-reference", "ScatterElementsUpdate-12", np.uint64([2**40 + 5, 1]), [0], np.uint64([2**33]),
               axis=0).tolist() == [2**33, 1]
    # int16 mean: the reference (and scatter_core) wrap the int16 sum before dividing, the CPU plugin does not
    args = (i16([32767, 0]), [0], i16([32767]))
    assert out("openvino-reference", "ScatterElementsUpdate-12", *args, axis=0, reduction="mean").tolist() == [-1, 0]
    assert scatter("ScatterElementsUpdate-12", *args, axis=0, reduction="mean").tolist() == [-1, 0]
    assert out("openvino-cpu", "ScatterElementsUpdate-12", *args, axis=0, reduction="mean").tolist() == [32767, 0]


def test_observed_signed_zero_ties_differ_between_runtimes():
    """max/min of -0.0 and +0.0: which zero survives is up to each implementation."""
    require_or_skip(*rc.RUNTIMES)
    keeps = {}  # (who, dtype) -> "update" | "current", for data [-0, +0], updates [+0, -0]

    def who_wins(result):
        signs = tuple(bool(s) for s in np.signbit(result))
        return {(True, False): "current", (False, True): "update"}[signs]

    for dtype in (f16, f32):
        d, u = np.array([-0.0, 0.0], dtype), np.array([0.0, -0.0], dtype)
        keeps[("core", dtype)] = who_wins(scatter("ScatterElements-18", d, [0, 1], u, axis=0, reduction="max"))
        keeps[("ort E", dtype)] = who_wins(out("onnxruntime", "ScatterElements-18", d, [0, 1], u, axis=0,
                                               reduction="max"))
        keeps[("onnx.ref E", dtype)] = who_wins(out("onnx.reference", "ScatterElements-18", d, [0, 1], u, axis=0,
                                                    reduction="max"))
        keeps[("onnx.ref ND", dtype)] = who_wins(out("onnx.reference", "ScatterND-18", d, [[0], [1]], u,
                                                     reduction="max"))
        for runtime in OV_RUNTIMES:
            keeps[(runtime + " E", dtype)] = who_wins(out(runtime, "ScatterElementsUpdate-12", d, [0, 1], u, axis=0,
                                                          reduction="max"))
            keeps[(runtime + " ND", dtype)] = who_wins(out(runtime, "ScatterNDUpdate-15", d, [[0], [1]], u,
                                                           reduction="max"))
    assert keeps == {
        ("core", f16): "current", ("core", f32): "update",
        ("ort E", f16): "update", ("ort E", f32): "update",
        ("onnx.ref E", f16): "current", ("onnx.ref E", f32): "current",
        ("onnx.ref ND", f16): "current", ("onnx.ref ND", f32): "update",
        ("openvino-cpu E", f16): "current", ("openvino-cpu E", f32): "current",
        ("openvino-cpu ND", f16): "current", ("openvino-cpu ND", f32): "current",
        ("openvino-reference E", f16): "update", ("openvino-reference E", f32): "update",
        ("openvino-reference ND", f16): "current", ("openvino-reference ND", f32): "current",
    }


@pytest.mark.parametrize("reduction,inf", [("max", -np.inf), ("min", np.inf)])
def test_observed_flt_max_for_all_infinite_updates_without_init_value(reduction, inf):
    """use_init_val=false, every update of a cell is -inf (max) or +inf (min): OpenVINO (CPU and reference)
    gives -FLT_MAX / +FLT_MAX; scatter_core gives the infinity (data is not used: the updates decide)."""
    require_or_skip(*OV_RUNTIMES)
    data, upd = f32([5, 1, 7]), f32([inf, inf, 2])
    kw = dict(axis=0, reduction=reduction, use_init_val=False)
    core = scatter("ScatterElementsUpdate-12", data, [0, 0, 2], upd, **kw)
    assert core.tolist() == [inf, 1, 2]
    flt_max = float(np.sign(inf)) * float(np.finfo(f32).max)
    for runtime in OV_RUNTIMES:
        got = out(runtime, "ScatterElementsUpdate-12", data, [0, 0, 2], upd, **kw)
        assert got.tolist() == [flt_max, 1, 2], runtime
        (c,) = rc.compare("ScatterElementsUpdate-12", data, [0, 0, 2], upd, runtimes=[runtime], guarded=False,
                          **kw)
        # docs/semantics.md records it, so it is a known divergence, not NEW
        assert c.outcome == "value" and c.divergence == "use-init-val-flt-max" and not c.new
        assert c.known_divergence == "use-init-val-flt-max" and "FLT_MAX" in c.divergence_text
    assert "FLT_MAX" in OPERATORS["ScatterElementsUpdate-12"].note_text("use-init-val-infinity")


# (data, indices, updates) -> each runtime's output, for max; NaN placed in an update (first or last) or in data
NAN_CASES = {
    "nan update first": (f32([5, 1]), [0, 0], f32([np.nan, 3])),
    "nan update last": (f32([5, 1]), [0, 0], f32([3, np.nan])),
    "nan in data": (f32([np.nan, 1]), [0], f32([3])),
}
NAN = float("nan")
NAN_OBSERVED = {  # cell 0 of the output, per runtime and operator (max)
    ("core", "E"): (NAN, NAN, NAN), ("core", "ND"): (NAN, NAN, NAN),
    ("onnxruntime", "E"): (3.0, NAN, 3.0), ("onnxruntime", "ND"): (3.0, NAN, 3.0),
    ("onnx.reference", "E"): (5.0, 5.0, NAN), ("onnx.reference", "ND"): (NAN, NAN, NAN),
    ("openvino-cpu", "E"): (5.0, 5.0, NAN), ("openvino-cpu", "ND"): (5.0, 5.0, NAN),
    ("openvino-reference", "E"): (3.0, NAN, 3.0), ("openvino-reference", "ND"): (5.0, 5.0, NAN),
}
NAN_OPS = {"E": ({"ONNX": "ScatterElements-18", "OpenVINO": "ScatterElementsUpdate-12"}, {"axis": 0}),
           "ND": ({"ONNX": "ScatterND-18", "OpenVINO": "ScatterNDUpdate-15"}, {})}


def _nd(indices):
    return np.asarray(indices, dtype=i64).reshape(-1, 1)


def test_observed_nan_in_max_min_differs_between_runtimes():
    """Neither spec defines max/min with a NaN: scatter_core keeps it; each runtime does something else, as the
    registry notes (topic nan-max-min) say and the nan-in-max-min finding reports."""
    require_or_skip(*rc.RUNTIMES)
    seen = {}
    for (who, kind), want in NAN_OBSERVED.items():
        ops, kw = NAN_OPS[kind]
        got = []
        for data, idx, upd in NAN_CASES.values():
            indices = i64(idx) if kind == "E" else _nd(idx)
            if who == "core":
                res = scatter(ops["ONNX"], data, indices, upd, reduction="max", **kw)
            else:
                framework = "ONNX" if who.startswith("onnx") else "OpenVINO"
                res = out(who, ops[framework], data, indices, upd, reduction="max", **kw)
            assert res[1] == 1
            got.append(float(res[0]))
        seen[(who, kind)] = tuple(got)
    assert {k: tuple("nan" if np.isnan(v) else v for v in t) for k, t in seen.items()} == \
        {k: tuple("nan" if np.isnan(v) else v for v in t) for k, t in NAN_OBSERVED.items()}
    # min behaves alike (a NaN update first, on the OpenVINO CPU plugin: dropped)
    assert out("openvino-cpu", "ScatterElementsUpdate-12", f32([5, 1]), i64([0, 0]), f32([np.nan, 3]), axis=0,
               reduction="min").tolist() == [3, 1]


def test_observed_nan_in_max_min_is_a_named_divergence_and_a_finding():
    require_or_skip(*rc.RUNTIMES)
    data, idx, upd = NAN_CASES["nan update first"]
    for op, kw in (("ScatterElements-18", {"axis": 0}), ("ScatterElementsUpdate-12", {"axis": 0})):
        for c in rc.compare(op, data, i64(idx), upd, reduction="max", guarded=False, **kw):
            # docs/semantics.md records that a NaN survives on OpenVINO's reference: known there, NEW elsewhere
            documented = (op, c.runtime) == ("ScatterElementsUpdate-12", "openvino-reference")
            assert c.agree or (c.divergence == "nan-in-max-min" and c.new != documented), (op, c.runtime, c.divergence)
        finding = next(f for f in scatter_trace(sc.case(op, data, i64(idx), upd, reduction="max", **kw)).findings
                       if f.kind == "nan-in-max-min")
        assert finding.cells == ((0,),) and "keeps the NaN" in finding.message
        for note in OPERATORS[op].notes_on("nan-max-min"):
            assert note.runtimes in finding.message
            assert note.documented == (note.fact == "ov-ref-nan-elements")  # docs/semantics.md: NaN survives there


def test_observed_reference_scatter_update_misreads_updates_for_some_nd_indices():
    require_or_skip(*OV_RUNTIMES)
    data, idx = np.zeros((3, 2), f32), i64([[0], [1], [2]])
    upd = np.arange(1, 7, dtype=f32).reshape(3, 1, 2)
    want = [[1, 2], [3, 4], [5, 6]]
    assert scatter("ScatterUpdate-3", data, idx, upd, axis=0).tolist() == want
    assert out("openvino-cpu", "ScatterUpdate-3", data, idx, upd, axis=0).tolist() == want
    assert out("openvino-reference", "ScatterUpdate-3", data, idx, upd, axis=0).tolist() == [[1, 2], [2, 3], [3, 4]]
    # the same slices with indices of shape (1, 3) are read correctly
    assert out("openvino-reference", "ScatterUpdate-3", data, idx.reshape(1, 3), upd.reshape(1, 3, 2),
               axis=0).tolist() == want


@pytest.mark.slow
def test_observed_reference_kernels_missing_for_some_element_types():
    require_or_skip(*OV_RUNTIMES)
    missing = {"ScatterElementsUpdate-12": {"int8", "uint8", "uint16", "float64"},
               "ScatterElementsUpdate-3": {"int8", "uint8", "uint16", "float64"},
               "ScatterNDUpdate-15": {"int8", "int16", "uint8", "uint16", "float64"},
               "ScatterNDUpdate-3": {"int8", "int16", "uint8", "uint16", "float64"},
               "ScatterUpdate-3": set()}
    dtypes = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
              "float64", "bool"]
    for op, no_kernel in missing.items():
        spec = OPERATORS[op]
        idx = [[0], [2]] if spec.family == "nd" else [0, 2]
        kw = {"axis": 0} if spec.attribute("axis") else {}
        for dtype in dtypes:
            args = (np.array([1, 0, 1], dtype), idx, np.array([0, 1], dtype))
            ref = rc.run("openvino-reference", op, *args, **kw)
            if dtype in no_kernel:
                assert not ref.ok and "Node.evaluate returned False" in ref.error, (op, dtype)
            else:
                assert ref.ok and same(ref.output, scatter(op, *args, **kw)), (op, dtype, ref.error)
            assert same(out("openvino-cpu", op, *args, **kw), scatter(op, *args, **kw)), (op, dtype)


def test_observed_reference_refuses_zero_d_indices_with_one_d_data():
    require_or_skip("openvino-reference")
    assert "_M_range_check" in err("openvino-reference", "ScatterUpdate-3", f32([1, 2]), i64(0), f32(5), axis=0)
    assert scatter("ScatterUpdate-3", f32([1, 2]), i64(0), f32(5), axis=0).tolist() == [5, 2]


def test_observed_cpu_scatter_update_rank_1_negative_index_is_unchecked():
    """docs/semantics.md: a negative ScatterUpdate-3 index is an exception on OV-CPU. That holds for data of
    rank >= 2; with 1-D data the CPU plugin skips the check: -1 crashes, -4 writes nothing."""
    require_or_skip("openvino-cpu")
    data = np.zeros(4, i32)
    crash = rc.run_guarded("openvino-cpu", "ScatterUpdate-3", data, i64([-1]), i32([7]), axis=0)
    assert not crash.ok and rc.is_crash(crash) and "SIGSEGV" in crash.error
    quiet = rc.run_guarded("openvino-cpu", "ScatterUpdate-3", data, i64([-4]), i32([7]), axis=0)
    assert quiet.ok and quiet.output.tolist() == [0, 0, 0, 0]
    assert "RuntimeError" in err("openvino-cpu", "ScatterUpdate-3", np.zeros((4, 1), i32), [-1], i32([[7]]), axis=0)


def test_observed_cpu_index_slightly_below_minus_s_may_not_crash():
    """Undefined behaviour (no lower-bound check): on this machine -5 on an axis of size 2 returns
    without crashing and without changing data; docs/semantics.md only mentions the segfault."""
    require_or_skip("openvino-cpu")
    res = rc.run_guarded("openvino-cpu", "ScatterElementsUpdate-12", i32([0, 5]), i64([-5]), i32([-3]), axis=0)
    assert (res.ok and res.output.tolist() == [0, 5]) or rc.is_crash(res), res


# =====================================================================================
# 4. Random valid cases (hypothesis), runtime by runtime
# =====================================================================================
# Observed-but-undocumented behaviours the random test accepts: each has its own test in section 3
# and is matched by its record's exact model / relation / message, never by the predicate alone.
ACCEPTED_OBSERVED = {"bool-sum-sub-as-uint8", "f64-narrowing", "signed-zero-tie", "slice-negative-step-start-below",
                     "scatter-update-reference-nd-indices", "reference-no-kernel",
                     "scatter-update-scalar-updates-reference"}
EXAMPLES = dict.fromkeys(rc.RUNTIMES, 150)


def _ops_for(runtime):
    """The versions ``runtime`` runs; for OpenVINO's reference, not those it has no kernel for at all
    (SliceScatter-15: every case would be the observed refusal, test_observed_* covers it)."""
    def no_kernel_at_all(op):
        if any(f.topic == "runnable" and runtime in f.runtimes for f in facts_for(op)):
            return True  # OpenVINO's ONNX frontend has no conversion rule for it (test_runtime_openvino_onnx.py)
        return runtime == "openvino-reference" and "float32" in OPERATORS[op].extra.get(
            "openvino_reference_no_kernel", ())

    return sorted(op for op in OPERATORS if runtime in rc.runtimes_for(op) and not no_kernel_at_all(op))


@pytest.mark.slow
@pytest.mark.parametrize("runtime", rc.RUNTIMES)
def test_random_cases_agree_with_scatter_core(runtime):
    require_or_skip(runtime)
    tally = {"agree": 0, "known": 0, "observed": 0}

    @settings(max_examples=EXAMPLES[runtime], deadline=None, derandomize=os.environ.get("CI") == "true",
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(cases(ops=_ops_for(runtime)))
    def check(case):
        op, data, indices, updates, attrs = case
        (c,) = rc.compare(op, data, indices, updates, runtimes=[runtime], guarded=False, **attrs)
        assert c.core_ok, c.core_error  # the strategy draws valid cases only
        if c.agree:
            assert same(c.runtime_output, c.core_output)
            tally["agree"] += 1
        elif c.known_divergence:
            tally["known"] += 1
        else:
            assert c.divergence in ACCEPTED_OBSERVED, (
                f"{runtime} differs from scatter_core on {op} {attrs} and docs/semantics.md does not explain it: "
                f"{c.outcome}; cells {c.cells[:5]} core {c.core_values[:5]} runtime {c.runtime_values[:5]}; "
                f"error {c.runtime_error}; data={data!r} indices={indices!r} updates={updates!r}")
            tally["observed"] += 1

    check()
    total = sum(tally.values())
    assert total >= EXAMPLES[runtime] // 2
    assert tally["agree"] >= total // 2, tally  # most random cases are compared value for value


def test_openvino_reference_scatter_update_misreads_updates_with_a_length_1_trailing_axis():
    require_or_skip("openvino-reference")
    data = np.zeros((2, 3, 1), np.float32)
    updates = np.arange(1, 7, dtype=np.float32).reshape(2, 3, 1)
    got = out("openvino-reference", "ScatterUpdate-3", data, np.array([0, 1]), updates, axis=0)
    assert got.ravel().tolist() == [1, 2, 3, 2, 3, 4]  # scatter_core and the CPU plugin: [1, 2, 3, 4, 5, 6]
    c = [c for c in rc.compare("ScatterUpdate-3", data, np.array([0, 1]), updates, guarded=False, axis=0)
         if c.runtime == "openvino-reference"][0]
    assert not c.agree and c.divergence == "scatter-update-reference-nd-indices" and c.new
