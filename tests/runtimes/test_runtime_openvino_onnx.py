"""runtime_check's "openvino-onnx": the OpenVINO CPU plugin running the ONNX one-node model through OpenVINO's
ONNX frontend (``openvino.Core().read_model`` on the model's bytes).

* every ONNX spec example and many drawn cases (each reduction of each version, several dtypes) agree with
  scatter_core bit for bit, or differ in a way a fact of the one table explains (``Comparison.divergence``);
* each behaviour the facts table says of the frontend path holds on the pinned OpenVINO (the facts
  ``ov-onnx-frontend-*`` and the CPU-plugin facts extended to "openvino-onnx"), with the exact output;
* TensorScatter-24 is a plain refusal (no conversion rule), never a crash;
* the runtime is named in the cross-check of ONNX operators only.
"""

from __future__ import annotations

import numpy as np
import pytest

import runtime_check as rc
import scatter_core as sc
import spec_examples as se
from runtime_check.openvino_onnx_backend import converted_ops, frontend_refusal
from tests.support.skipping import require_or_skip

pytestmark = [pytest.mark.runtimes, pytest.mark.slow]  # drawn cases through the ONNX frontend: not the fast loop
RT = "openvino-onnx"
ONNX_OPS = [n for n, s in sc.OPERATORS.items() if s.framework == "ONNX" and rc.runtimes_for(n)]
f32, f16, f64, i64, u64 = np.float32, np.float16, np.float64, np.int64, np.uint64


def _one(op, data, indices, updates, **attrs) -> rc.Comparison:
    (c,) = rc.compare(op, data, indices, updates, runtimes=(RT,), guarded=False, **attrs)
    assert c.runtime == RT
    return c


def _explained(c: rc.Comparison) -> bool:
    """Agreement, or a difference a runtime fact explains (documented or observed)."""
    return c.agree or c.divergence is not None


# ------------------------------------------------------------------------------ registry and naming
def test_the_frontend_runtime_runs_onnx_operators_only():
    assert rc.RUNTIME_FRAMEWORK[RT] == "ONNX" and RT in sc.RUNTIME_NAMES and RT in rc.RUNTIMES
    assert rc.RUNTIME_TITLES[RT] == "OpenVINO CPU (ONNX frontend)"
    for name, spec in sc.OPERATORS.items():
        assert (RT in rc.runtimes_for(name)) == (spec.framework == "ONNX" and bool(spec.runnable_on)), name
    assert rc.runtimes_for("TensorScatter-24")[-1] == RT  # tried, and refused plainly (below)
    assert RT in rc.runtimes_for(rc.stand_in("Scatter-11"))
    assert rc.verified_versions()[RT] == rc.verified_versions()["openvino-cpu"]  # one OpenVINO pin


# ------------------------------------------------------------------------------ differential
def test_every_onnx_spec_example_agrees_or_is_explained_by_a_fact():
    require_or_skip(RT)
    ran = 0
    for ex in se.load_all():
        op = ex.op if rc.runtimes_for(ex.op) else rc.stand_in(ex.op)
        if op is None or RT not in rc.runtimes_for(op):
            continue
        if max(a.size for a in ex.inputs if a is not None) > 1_000_000:
            continue
        c = _one(ex.op, ex.data, ex.indices, ex.updates, **dict(ex.attrs))
        ran += 1
        assert _explained(c), (ex.id, c.outcome, c.runtime_error)
        if not c.agree:  # the only ONNX examples the frontend does not run are TensorScatter's
            assert c.divergence == "frontend-no-conversion-rule" and c.op == "TensorScatter-24", ex.id
    assert ran >= 40


@pytest.mark.parametrize("op", [o for o in ONNX_OPS if o != "TensorScatter-24"])
def test_drawn_cases_agree_or_are_explained_by_a_fact(op):
    require_or_skip(RT)
    spec = sc.OPERATORS[op]
    rng = np.random.default_rng(sum(map(ord, op)))
    spellings = list(spec.reduction_spellings) or [None]
    agreed = 0
    for dtype in ("float32", "int32", "int64", "float16", "float64", "int8", "uint8"):
        for red in spellings:
            for _ in range(2):
                attrs = {} if red is None else {sc.reduction_codec(spec).name: red}
                case = sc.sample_case(rng, op, dtype=dtype, attrs=attrs)
                data, indices, updates = case.given()
                c = _one(op, data, indices, updates, **dict(case.attrs))
                assert _explained(c), (op, dtype, red, c.outcome, c.cells[:3], c.core_values[:3],
                                       c.runtime_values[:3], c.runtime_error)
                agreed += c.agree
    assert agreed >= 10  # most draws agree bit for bit


def test_duplicates_and_negative_indices_with_every_reduction_agree():
    """Small integer values (exact in float32, any order): every reduction of ScatterND-18 and
    ScatterElements-18 on a cell written three times, and negative indices, bit for bit."""
    require_or_skip(RT)
    data = f32([1, 2, 3, 4])
    for red in ("none", "add", "mul", "max", "min"):
        nd = _one("ScatterND-18", data, np.array([[1], [-3], [1]]), f32([5, 6, -7]), reduction=red)
        el = _one("ScatterElements-18", data, np.array([1, -3, 1]), f32([5, 6, -7]), axis=0, reduction=red)
        for c in (nd, el):
            assert c.agree, (red, c.outcome, c.runtime_output)
    assert el.runtime_output.tolist() == [1, -7, 3, 4]  # min over 2, 5, 6, -7
    assert _one("ScatterElements-18", np.zeros((2, 3), f32), np.array([[1], [2]]), f32([[1], [2]]),
                axis=-1).agree
    assert _one("Scatter-9", np.zeros(4, f32), np.array([-1]), f32([1]), axis=0).agree


def test_what_the_frontend_makes_of_each_onnx_operator():
    require_or_skip(RT)
    assert converted_ops(sc.OPERATORS["ScatterND-18"], f32([1, 2]), np.array([[0]]), f32([3]),
                         {"reduction": "mul"}) == ["ScatterNDUpdate-opset15"]
    for op in ("ScatterElements-18", "Scatter-9"):
        assert converted_ops(sc.OPERATORS[op], f32([1, 2]), np.array([0]), f32([3]),
                             {"axis": 0}) == ["ScatterElementsUpdate-opset12"], op


# ------------------------------------------------------------------------------ the facts, one by one
def test_cpu_plugin_facts_hold_through_the_frontend():
    require_or_skip(RT)
    c = _one("ScatterND-18", np.array([2**40 + 3, 0]), np.array([[1]]), np.array([2**40 + 5]), reduction="add")
    assert c.runtime_output.tolist() == [3, 5] and c.known_divergence == "int64-narrowing" and not c.new
    c = _one("ScatterElements-18", f64([0.1, 0]), np.array([0]), f64([1e-10]), axis=0, reduction="add")
    assert c.runtime_output.tolist() == [np.float64(np.float32(0.1)), 0] and c.divergence == "f64-narrowing"
    c = _one("ScatterND-18", f16([2048]), np.array([[0], [0]]), f16([1, 1]), reduction="add")
    assert c.runtime_output.tolist() == [2050] and c.known_divergence == "f16-accumulation"
    c = _one("ScatterND-18", f32([1, 2]), np.zeros((2, 0), i64), f32([[5, 6], [1, 1]]), reduction="add")
    assert c.runtime_output.tolist() == [1, 2] and c.known_divergence == "k-zero-noop"
    c = _one("ScatterElements-18", np.array([False]), np.zeros(256, i64), np.ones(256, bool), axis=0,
             reduction="add")
    assert c.runtime_output.tolist() == [False] and c.divergence == "bool-sum-sub-as-uint8"
    c = _one("ScatterElements-18", u64([2**40 + 5, 1]), np.array([0]), u64([2**33]), axis=0)
    assert c.runtime_output.tolist() == [0, 1] and c.divergence == "uint64-narrowing"
    c = _one("ScatterND-18", f32([1, np.nan, 2]), np.array([[0], [1], [2]]), f32([np.nan, 3, 1]), reduction="max")
    assert c.runtime_output[[0, 2]].tolist() == [1, 2] and np.isnan(c.runtime_output[1])
    assert c.divergence == "nan-in-max-min" and "CPU plugin" in c.divergence_text
    c = _one("ScatterND-18", f32([0.0, -0.0]), np.array([[0], [1]]), f32([-0.0, 0.0]), reduction="max")
    assert c.divergence == "signed-zero-tie"


def test_frontend_facts_hold_on_the_pinned_openvino():
    require_or_skip(RT)
    for op, red, want in (("ScatterElements-11", "mul", [0, 0, 0]), ("ScatterElements-13", "add", [0, 3, 0]),
                          ("ScatterElements-16", "max", [0, 2, 0]), ("ScatterND-16", "min", [0, 0, 0])):
        idx = np.array([1, 1]) if "Elements" in op else np.array([[1], [1]])
        attrs = {"axis": 0} if "Elements" in op else {}
        c = _one(op, f32([0, 0, 0]), idx, f32([1, 2]), reduction=red, **attrs)
        assert c.outcome == "accepted" and c.runtime_output.tolist() == want, op
        assert c.divergence == "frontend-reduction-not-validated" and c.new  # observed, not in docs/semantics.md
        assert "does not check reduction against the opset" in c.divergence_text
        assert op in sc.FACT_BY_ID["ov-onnx-frontend-reduction"].operators
    for op in ("ScatterND-11", "ScatterND-13"):  # ScatterND's rule checks it: both refuse, plainly
        c = _one(op, f32([0, 0, 0]), np.array([[1], [1]]), f32([1, 2]), reduction="add")
        assert c.agree and not c.core_ok and not c.runtime_ok, op
        assert c.runtime_error == (f"FrontendRefusal: OpenVINO's ONNX frontend could not convert {op}: Unsupported "
                                   f"value of attribute: `reduction`. Only `none` is supported, got: add")
    c = _one("ScatterElements-18", f32([0, 0, 0]), np.array([1]), f32([1]), axis=0, reduction="sum")
    assert c.agree and not c.core_ok and not c.runtime_ok  # an unknown name: both refuse
    c = _one("ScatterND-18", f32([0, 0, 0]), np.array([[1]], np.int32), f32([1]))
    assert c.outcome == "accepted" and c.runtime_output.tolist() == [0, 1, 0]
    assert c.divergence == "frontend-nd-int32-indices"
    c = _one("ScatterElements-18", np.zeros((2, 3), f32), np.array([[0, 0, 0, 0]]), f32([[1, 2, 3, 4]]), axis=0)
    assert c.runtime_output.tolist() == [[1, 2, 3], [4, 0, 0]] and c.known_divergence == "non-axis-dim-aliasing"
    for fid in ("ov-onnx-frontend-reduction", "ov-onnx-frontend-nd-int32-indices", "ov-onnx-frontend-kernels",
                "ov-onnx-frontend-no-tensor-scatter"):
        fact = sc.FACT_BY_ID[fid]
        assert fact.runtimes == (RT,) and fact.status == "holds" and fact.source.kind == "test" and not fact.documented, fid


def test_an_elements_index_below_minus_s_crashes_the_guarded_child_and_is_a_known_divergence():
    require_or_skip(RT)
    (c,) = rc.compare("ScatterElements-18", np.zeros(4, f32), np.array([-5]), f32([1]), axis=0,
                      runtimes=(RT,), guarded=True)
    if c.outcome == "accepted":  # rare: the stray write missed unmapped memory
        assert c.divergence == "index-below-range-silent"
    else:
        assert c.outcome == "crash" and c.known_divergence == "index-below-range-crash" and not c.new
    (nd,) = rc.compare("ScatterND-18", np.zeros(4, f32), np.array([[-5]]), f32([1]), runtimes=(RT,), guarded=True)
    assert nd.agree and not nd.runtime_ok  # ScatterNDUpdate checks the range: a refusal, as scatter_core's


# ------------------------------------------------------------------------------ TensorScatter-24: a refusal
def test_tensor_scatter_is_a_plain_refusal_not_a_crash():
    require_or_skip(RT)
    data, write, update = np.zeros((1, 4, 2), f32), np.array([1]), np.ones((1, 1, 2), f32)
    for guarded in (False, True):
        result = (rc.run_guarded if guarded else rc.run)(RT, "TensorScatter-24", data, write, update)
        assert not result.ok and not rc.is_crash(result)
        assert result.error == ("FrontendRefusal: OpenVINO's ONNX frontend has no conversion rule for "
                                "TensorScatter-24, so read_model refuses the model")
    (c,) = rc.compare("TensorScatter-24", data, write, update, runtimes=(RT,), guarded=True)
    assert c.outcome == "refused" and c.core_ok and c.divergence == "frontend-no-conversion-rule"
    assert "has no conversion rule for TensorScatter-24" in c.divergence_text


def test_frontend_refusal_reads_openvinos_message():
    raw = ("Exception from src/inference/src/cpp/core.cpp:105:\nCheck 'false' failed at src/frontends/common_"
           "translators/src/unconverted_ops_report.cpp:48:\nOpenVINO does not support the following ONNX "
           "operations: \nNo conversion rule found for operations: TensorScatter-24\n")
    assert frontend_refusal(raw) == ("OpenVINO's ONNX frontend has no conversion rule for TensorScatter-24, so "
                                     "read_model refuses the model")
    assert frontend_refusal("some other failure") is None
