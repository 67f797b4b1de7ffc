"""Which capture runtime can run which node: said before running (from the registry and the runtime facts),
and a runtime's refusal to load a model said in plain words (the node, the op, the runtimes that can)."""

from __future__ import annotations

import numpy as np
import pytest

import scatter_core as sc
import scatter_models as sm
from scatter_models import capture as capture_module
from scatter_models import support
from tests.support.skipping import require_or_skip

RAW_MARKERS = ("Exception from src", "Check '", ".cpp:", "Traceback", "unconverted_ops_report")


def _model(key):
    return sm.open_model(sm.sample_path(key))


def _one_node(op_type: str, name: str, opset: int, elem: int, n: int, **attrs):
    """A model of one scatter node on n×n data of ONNX type ``elem``, one row of indices and updates."""
    from onnx import TensorProto as T
    from onnx import helper as h

    node = h.make_node(op_type, ["d", "i", "u"], ["y"], name=name, **attrs)
    graph = h.make_graph([node], "g", [h.make_tensor_value_info("d", elem, [n, n]),
                                       h.make_tensor_value_info("i", T.INT64, [1, n]),
                                       h.make_tensor_value_info("u", elem, [1, n])],
                         [h.make_tensor_value_info("y", elem, [n, n])])
    opsets = [h.make_opsetid("", opset)]
    return sm.open_model(h.make_model(graph, opset_imports=opsets, ir_version=h.find_min_ir_version_for(opsets))
                         .SerializeToString())


def test_tensor_scatter_on_openvino_is_refused_before_running_naming_node_op_and_who_can():
    model = _model("circular_cache")
    problem = sm.runtime_problem(model, "openvino")
    assert problem is not None
    assert "'cache_write'" in problem and "TensorScatter-24" in problem and "OpenVINO CPU cannot run" in problem
    assert "no conversion rule" in problem
    # the runtimes that can are named from the data (facts and registry), not hard-wired to this op
    assert "onnx.reference" in problem and "onnxruntime" in problem.split("Choose", 1)[1]
    assert not any(m in problem for m in RAW_MARKERS)
    assert sm.runtime_problem(model, "onnxruntime") is None
    assert sm.runtime_problem(model, "reference") is None
    with pytest.raises(sm.ModelError) as err:
        model.capture(runtime="openvino")
    assert err.value.rule == "runtime" and "'cache_write'" in str(err.value)


def test_the_refusal_comes_from_the_fact_table():
    spec = sc.get_spec("TensorScatter-24")
    facts = support.blocking_facts(spec, "openvino")
    assert [f.id for f in facts] == ["ov-onnx-frontend-no-tensor-scatter"]
    assert support.why_not(spec, "onnxruntime") is None and support.why_not(spec, "reference") is None
    # no fact, no refusal: every other ONNX scatter version loads through OpenVINO's frontend
    for other in sc.OPERATORS_LIST:
        if other.framework == "ONNX" and other.name != "TensorScatter-24":
            assert support.why_not(other, "openvino") is None, other.name


def test_onnxruntime_and_the_deprecated_scatter_11_is_refused_from_the_registry():
    spec = sc.get_spec("Scatter-11")
    reason = support.why_not(spec, "onnxruntime")
    assert reason is not None and "Scatter-11" in reason and "deprecated" in reason
    assert support.why_not(sc.get_spec("Scatter-9"), "onnxruntime") is None  # onnxruntime runs opset-9 Scatter
    can = support.runtimes_that_can(spec, lambda r: True)
    assert can == ["onnx.reference", "OpenVINO CPU"]


def test_scatter_11_model_names_the_node_on_onnxruntime():
    from onnx import TensorProto as T

    model = _one_node("Scatter", "old_scatter", 11, T.FLOAT, 3)
    assert model.nodes[0].op == "Scatter-11"
    problem = sm.runtime_problem(model, "onnxruntime")
    assert problem and "'old_scatter'" in problem and "onnxruntime cannot run Scatter-11" in problem
    assert "Choose onnx.reference or OpenVINO CPU" in problem


@pytest.mark.parametrize("fact", [f for f in sc.FACTS if f.topic == "runnable" and "openvino-onnx" in f.runtimes],
                         ids=lambda f: f.id)
def test_each_openvino_frontend_fact_holds_on_the_pinned_openvino(fact):
    require_or_skip("openvino")
    import openvino as ov

    from scatter_export import onnx_model

    for op in fact.operators:
        case = sc.sample_case(np.random.default_rng(0), op, dtype="float32")
        payload = onnx_model(case)
        with pytest.raises(Exception, match="No conversion rule found for operations: " + op):
            ov.Core().read_model(model=payload, weights=ov.Tensor(np.zeros(0, np.uint8)))


def test_a_runtime_that_refuses_the_model_is_said_plainly(monkeypatch):
    """Past the check before running (here bypassed), the runtime's own refusal is read for the op and the
    node: no source locations, no traceback."""
    require_or_skip("openvino")
    monkeypatch.setattr(capture_module, "runtime_problem", lambda *a: None)
    model = _model("circular_cache")
    with pytest.raises(sm.ModelError) as err:
        model.capture(runtime="openvino")
    text = str(err.value)
    assert "OpenVINO CPU cannot load this model" in text and "TensorScatter-24 (node 'cache_write')" in text
    assert "Choose onnx.reference or onnxruntime" in text
    assert not any(m in text for m in RAW_MARKERS)


def test_unknown_load_errors_keep_the_message_without_source_locations():
    raw = ("Exception from src/inference/src/cpp/core.cpp:105:\nCheck 'false' failed at src/x.cpp:1:\n"
           "FrontEnd API failed with GeneralFailure:\nsomething else went wrong")
    assert support.explain_load_error(_model("kv_cache"), "openvino", raw) is None
    assert support.plain(raw) == "FrontEnd API failed with GeneralFailure: something else went wrong"


def test_onnxruntime_missing_kernel_message_names_the_node():
    model = _model("kv_cache")
    text = support.explain_load_error(
        model, "onnxruntime", "[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not find an implementation for "
                              "ScatterND(18) node with name 'write_k'")
    assert text == ("onnxruntime cannot run this model: it has no kernel for ScatterND at opset 18 (node "
                    "'write_k'). Choose onnx.reference as the runtime, or OpenVINO CPU.")


def test_onnxruntime_refusing_a_node_while_running_is_said_plainly():
    """onnxruntime has no float16 add for ScatterElements (a runtime fact): the capture names the node and the
    runtime's reason, without the log's source locations."""
    require_or_skip("onnxruntime")
    from onnx import TensorProto as T

    model = _one_node("ScatterElements", "half_add", 18, T.FLOAT16, 4, reduction="add")
    assert sm.runtime_problem(model, "onnxruntime") is None  # it loads; the refusal comes when it runs
    with pytest.raises(sm.ModelError) as err:
        model.capture(runtime="onnxruntime")
    text = str(err.value)
    assert "onnxruntime refused to run node 'half_add' (ScatterElements)" in text and "MLFloat16" in text
    assert "Choose onnx.reference as the runtime, or OpenVINO CPU." in text
    assert not any(m in text for m in RAW_MARKERS + ("sequential_executor", "\x1b"))


def test_an_op_openvino_cannot_convert_outside_the_scatter_nodes_is_named_by_its_type():
    raw = ("Exception from src/inference/src/cpp/core.cpp:105:\nCheck 'false' failed at src/frontends/common_"
           "translators/src/unconverted_ops_report.cpp:151:\nFrontEnd API failed with OpConversionFailure:\nModel "
           "wasn't fully converted.\nSummary:\n-- No conversion rule found for operations: Gelu-99\n")
    text = support.explain_load_error(_model("kv_cache"), "openvino", raw)
    assert text == ("OpenVINO CPU cannot load this model: OpenVINO's ONNX frontend has no conversion rule for "
                    "Gelu-99. Try onnx.reference or onnxruntime as the runtime.")


def test_onnxruntime_capture_by_appended_outputs_matches_the_reference():
    """Main-graph nodes only, a constant (initializer) index and a node whose output is the model's output:
    onnxruntime gets the model's own bytes with the extra outputs appended (never parsed in the worker), and
    the records match a reference capture input for input."""
    require_or_skip("onnxruntime")
    from onnx import TensorProto as T
    from onnx import helper as h
    from onnx import numpy_helper

    from scatter_models import worker

    idx = numpy_helper.from_array(np.array([[0], [2], [0]], np.int64), "idx")
    nodes = [h.make_node("Relu", ["x"], ["r"]),
             h.make_node("ScatterND", ["r", "idx", "u"], ["s"], name="nd_add", reduction="add"),
             h.make_node("Slice", ["s", "zero", "one"], ["s_upd"]),
             h.make_node("ScatterElements", ["s", "j", "s_upd"], ["y"], name="el", axis=0)]
    inits = [idx, numpy_helper.from_array(np.array([0], np.int64), "zero"),
             numpy_helper.from_array(np.array([1], np.int64), "one")]
    graph = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [3, 2]),
                                      h.make_tensor_value_info("u", T.FLOAT, [3, 2]),
                                      h.make_tensor_value_info("j", T.INT64, [1, 2])],
                         [h.make_tensor_value_info("y", T.FLOAT, [3, 2])], initializer=inits)
    model = sm.open_model(h.make_model(graph, opset_imports=[h.make_opsetid("", 18)], ir_version=8)
                          .SerializeToString())
    nd = model.node("nd_add")
    assert nd.constant_inputs == {1} and 1 in nd.constants and model.graph_outputs == ("y",)
    assert worker.appendable({"kind": "onnx", "nodes": {n.name: {"where": n.location, "consts_known": all(
        p in n.constants for p in n.constant_inputs)} for n in model.nodes}})
    feeds = {"x": np.array([[1, -2], [3, 4], [-5, 6]], np.float32), "u": np.ones((3, 2), np.float32),
             "j": np.array([[2, 0]])}
    ort_cap, ref_cap = model.capture(feeds, runtime="onnxruntime"), model.capture(feeds)
    for name in ("nd_add", "el"):
        assert ort_cap[name].output_source == "onnxruntime"
        for a, b in zip(ort_cap[name].case.given(), ref_cap[name].case.given()):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(ort_cap[name].output, ref_cap[name].output)
    np.testing.assert_array_equal(ort_cap["nd_add"].case.indices, [[0], [2], [0]])  # the constant, filled in
    np.testing.assert_array_equal(ort_cap["nd_add"].output, [[3, 2], [3, 4], [1, 7]])
