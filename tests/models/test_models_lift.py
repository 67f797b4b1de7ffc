"""A subgraph node's onnxruntime output from onnxruntime's own run of the whole model (scatter_models.lift).

A node inside an If, Loop or Scan body, nested ones too, or a local function: the capture on onnxruntime
rewrites the model so the node's tensors leave their bodies as model outputs (Loop/Scan: extra scan outputs,
one slice per iteration; If: beside an empty placeholder in the other branch; functions inlined), runs it
once, and records the first call and the number of calls, as the onnx.reference capture does. Each test
compares with the onnx.reference capture of the same model and inputs, and reads ``output_source``.
"""

from __future__ import annotations

import numpy as np
import pytest

import scatter_models as sm
from tests.support.skipping import require_or_skip
from tests.support.model_builders import scan_model

WHOLE = "onnxruntime, running the whole model once, rewritten so that the node's tensors leave "
ALONE = "onnxruntime, running the node alone on the inputs it received in "


@pytest.fixture(autouse=True)
def _needs_onnxruntime():
    require_or_skip("onnxruntime")


def _h():
    from onnx import TensorProto as T, helper as h, numpy_helper

    return T, h, numpy_helper


def _open(graph, functions=(), opset=18):
    T, h, _ = _h()
    imports = [h.make_opsetid("", opset)] + ([h.make_opsetid("local", 1)] if functions else [])
    return sm.open_model(h.make_model(graph, opset_imports=imports, functions=list(functions), ir_version=8)
                         .SerializeToString())


def _same_as_reference(model, feeds, key, calls):
    ort = model.capture(feeds, runtime="onnxruntime")[key]
    ref = model.capture(feeds, runtime="reference")[key]
    assert ort.calls == ref.calls == calls
    for a, b in zip(ort.case.given(), ref.case.given()):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(ort.output, ref.output)
    np.testing.assert_array_equal(ort.output, ort.case.run())
    assert ref.output_source == "onnx.reference"
    return ort


def test_the_loop_sample_runs_whole_on_onnxruntime():
    model = sm.open_model(sm.sample_path("loop_body"))
    rec = _same_as_reference(model, None, "accumulate_row", 3)
    assert rec.output_source.startswith(WHOLE + "main graph > Loop 'rows_loop' body as model outputs")
    assert "extra scan output" in rec.output_source and "the first of the 3 calls" in rec.output_source


def test_every_subgraph_node_of_the_samples_runs_whole_on_onnxruntime():
    seen = 0
    for key in sm.SAMPLES:
        model = sm.open_model(sm.sample_path(key))
        if model.kind != "onnx" or not any(n.in_subgraph or n.in_function for n in model.nodes):
            continue
        cap = model.capture(seed=3, runtime="onnxruntime")
        ref = model.capture(seed=3, runtime="reference")
        for node in model.nodes:
            if node.in_subgraph or node.in_function:
                seen += 1
                assert cap[node.name].output_source.startswith(WHOLE), cap[node.name].output_source
                np.testing.assert_array_equal(cap[node.name].output, ref[node.name].output)
    assert seen >= 1


def _if_model(negate=False):
    """An If whose then branch scatters (ScatterND); the else branch passes data through."""
    T, h, _ = _h()
    then = h.make_graph([h.make_node("ScatterND", ["d", "i", "u"], ["t"], name="in_then", reduction="add")], "then",
                        [], [h.make_tensor_value_info("t", T.FLOAT, [4])])
    other = h.make_graph([h.make_node("Identity", ["d"], ["e"])], "else", [],
                         [h.make_tensor_value_info("e", T.FLOAT, [4])])
    graph = h.make_graph([h.make_node("If", ["c"], ["o"], name="branch", then_branch=then, else_branch=other)], "g", [
        h.make_tensor_value_info("c", T.BOOL, []), h.make_tensor_value_info("d", T.FLOAT, [4]),
        h.make_tensor_value_info("i", T.INT64, [2, 1]), h.make_tensor_value_info("u", T.FLOAT, [2])],
        [h.make_tensor_value_info("o", T.FLOAT, [4])])
    return _open(graph)


def test_a_node_in_an_if_branch_runs_whole_and_is_missing_when_the_branch_does_not_run():
    model = _if_model()
    feeds = {"c": np.array(True), "d": np.float32([1, 2, 3, 4]), "i": np.array([[1], [1]]), "u": np.float32([5, 6])}
    rec = _same_as_reference(model, feeds, "in_then", 1)
    assert rec.output_source.startswith(WHOLE + "main graph > If 'branch' then_branch as model outputs")
    assert "empty placeholder in the other branch" in rec.output_source
    np.testing.assert_array_equal(rec.output, [1, 13, 3, 4])
    cap = model.capture({**feeds, "c": np.array(False)}, runtime="onnxruntime")
    assert "in_then" in cap.missing and not cap


def test_a_scalar_input_reaches_the_runtime_as_a_scalar():
    """The If's condition is a 0-d bool: it reached the worker as shape (1,), which OpenVINO CPU refused ("got [1]
    expecting []"); onnx.reference and onnxruntime took it. Now every runtime gets it as declared."""
    require_or_skip("openvino-cpu")
    model = _if_model()
    feeds = {"c": np.array(True), "d": np.float32([1, 2, 3, 4]), "i": np.array([[1], [1]]), "u": np.float32([5, 6])}
    cap = model.capture(feeds, runtime="openvino")  # raised ModelError before
    assert "in_then" in cap.missing and "subgraph" in cap.missing["in_then"]


def test_a_node_in_a_scan_body_runs_whole_with_its_first_call_and_count():
    feeds = {"start": np.float32([0, 10, 20, 30]), "rows": np.array([[2], [0], [2]])}
    rec = _same_as_reference(scan_model(), feeds, "count_row", 3)  # the Scan model of tests/models/test_models.py
    assert rec.output_source.startswith(WHOLE + "main graph > Scan 'scan_rows' body")
    np.testing.assert_array_equal(rec.case.given()[0], feeds["start"])  # the first call: the state entering
    np.testing.assert_array_equal(rec.output, [0, 10, 21, 30])


def test_a_node_in_a_local_function_called_twice_runs_whole_after_inlining():
    T, h, _ = _h()
    fn = h.make_function("local", "bump", ["d", "i", "u"], ["y"],
                         [h.make_node("ScatterND", ["d", "i", "u"], ["y"], name="fn_scatter", reduction="mul")],
                         [h.make_opsetid("", 18)])
    graph = h.make_graph([h.make_node("bump", ["d", "i", "u"], ["y1"], domain="local", name="call1"),
                          h.make_node("bump", ["y1", "i", "u"], ["y2"], domain="local", name="call2")], "g",
                         [h.make_tensor_value_info("d", T.FLOAT, [4]), h.make_tensor_value_info("i", T.INT64, [1, 1]),
                          h.make_tensor_value_info("u", T.FLOAT, [1])],
                         [h.make_tensor_value_info("y2", T.FLOAT, [4])])
    model = _open(graph, [fn])
    assert model.node("fn_scatter").in_function
    feeds = {"d": np.float32([1, 2, 3, 4]), "i": np.array([[2]]), "u": np.float32([3])}
    rec = _same_as_reference(model, feeds, "fn_scatter", 2)
    assert rec.output_source.startswith(WHOLE + "function local.bump") and "local function inlined" in rec.output_source
    np.testing.assert_array_equal(rec.output, [1, 2, 9, 4])  # the first call (the second gives 27)


def _loop(name, body_nodes, extra_inputs=(), trip="n"):
    """A Loop whose body carries ``acc`` (float [4]) through ``body_nodes`` (which make ``acc_out``)."""
    T, h, _ = _h()
    body = h.make_graph(
        list(body_nodes) + [h.make_node("Identity", ["cond_in"], ["cond_out"])], f"{name}_body",
        [h.make_tensor_value_info("it", T.INT64, []), h.make_tensor_value_info("cond_in", T.BOOL, []),
         h.make_tensor_value_info("acc", T.FLOAT, [4])],
        [h.make_tensor_value_info("cond_out", T.BOOL, []), h.make_tensor_value_info("acc_out", T.FLOAT, [4])])
    return body


def test_nested_a_loop_inside_an_if_branch():
    """If 'outer' then-branch holds Loop 'rows'; its body scatters at the iteration's index."""
    T, h, numpy_helper = _h()
    body = _loop("rows", [
        h.make_node("Unsqueeze", ["it", "axes"], ["where"]),
        h.make_node("Unsqueeze", ["where", "axes"], ["where2"]),
        h.make_node("ScatterND", ["acc", "where2", "upd"], ["acc_out"], name="deep_scatter", reduction="add")])
    consts = [h.make_node("Constant", [], ["axes"], value=numpy_helper.from_array(np.array([0]))),
              h.make_node("Constant", [], ["t"], value=numpy_helper.from_array(np.array(True)))]
    then = h.make_graph(consts[:1] + consts[1:] + [
        h.make_node("Loop", ["n", "t", "d"], ["looped"], name="rows", body=body)], "then", [],
        [h.make_tensor_value_info("looped", T.FLOAT, [4])])
    other = h.make_graph([h.make_node("Identity", ["d"], ["e"])], "else", [],
                         [h.make_tensor_value_info("e", T.FLOAT, [4])])
    graph = h.make_graph([h.make_node("If", ["c"], ["o"], name="outer", then_branch=then, else_branch=other)], "g", [
        h.make_tensor_value_info("c", T.BOOL, []), h.make_tensor_value_info("n", T.INT64, []),
        h.make_tensor_value_info("d", T.FLOAT, [4]), h.make_tensor_value_info("upd", T.FLOAT, [1])],
        [h.make_tensor_value_info("o", T.FLOAT, [4])])
    model = _open(graph)
    node = model.node("deep_scatter")
    assert node.location == "main graph > If 'outer' then_branch > Loop 'rows' body"
    feeds = {"c": np.array(True), "n": np.array(3), "d": np.float32([1, 2, 3, 4]), "upd": np.float32([10])}
    rec = _same_as_reference(model, feeds, "deep_scatter", 3)
    assert rec.output_source.startswith(WHOLE + "main graph > If 'outer' then_branch > Loop 'rows' body")
    assert "extra scan output" in rec.output_source and "empty placeholder" in rec.output_source
    np.testing.assert_array_equal(rec.output, [11, 2, 3, 4])  # the first iteration writes index 0
    assert "deep_scatter" in model.capture({**feeds, "c": np.array(False)}, runtime="onnxruntime").missing
    assert "deep_scatter" in model.capture({**feeds, "n": np.array(0)}, runtime="onnxruntime").missing


def _if_in_loop_model(outer_condition=False, shift=False):
    """Loop 'steps' whose body holds If 'odd': its then branch scatters. The condition is whether the iteration
    is odd, or (``outer_condition``) the model input ``c``, the same in every iteration."""
    T, h, numpy_helper = _h()
    then = h.make_graph([h.make_node("ScatterElements", ["acc", "idx", "upd"], ["t"], name="odd_scatter",
                                     reduction="add")], "then", [], [h.make_tensor_value_info("t", T.FLOAT, [4])])
    other = h.make_graph([h.make_node("Identity", ["acc"], ["e"])], "else", [],
                         [h.make_tensor_value_info("e", T.FLOAT, [4])])
    condition = [] if outer_condition else [
        h.make_node("Constant", [], ["two"], value=numpy_helper.from_array(np.array(2))),
        *([h.make_node("Add", ["it", "s"], ["its"])] if shift else []),
        h.make_node("Mod", ["its" if shift else "it", "two"], ["rem"]),
        h.make_node("Cast", ["rem"], ["odd"], to=T.BOOL)]
    body = _loop("steps", condition + [
        h.make_node("If", ["c" if outer_condition else "odd"], ["acc_out"], name="odd", then_branch=then,
                    else_branch=other)])
    inputs = [h.make_tensor_value_info("n", T.INT64, []), h.make_tensor_value_info("d", T.FLOAT, [4]),
              h.make_tensor_value_info("idx", T.INT64, [1]), h.make_tensor_value_info("upd", T.FLOAT, [1])]
    if outer_condition:
        inputs.append(h.make_tensor_value_info("c", T.BOOL, []))
    if shift:  # the branch is taken in the iterations i with i + s odd
        inputs.append(h.make_tensor_value_info("s", T.INT64, []))
    # the condition is given (true): onnx.reference 1.23.2 runs no iteration when it is left out
    keep = h.make_node("Constant", [], ["keep"], value=numpy_helper.from_array(np.array(True)))
    graph = h.make_graph([keep, h.make_node("Loop", ["n", "keep", "d"], ["final"], name="steps", body=body)], "g",
                         inputs, [h.make_tensor_value_info("final", T.FLOAT, [4])])
    return _open(graph)


def test_nested_an_if_inside_a_loop_whose_branch_alternates_falls_back_and_says_why():
    """The node runs in iterations 1 and 3 only: the lifted scan output would stack its [4] output beside the
    other branch's empty placeholder, which onnxruntime refuses; the node then runs alone, and says why."""
    model = _if_in_loop_model()
    assert model.node("odd_scatter").location == "main graph > Loop 'steps' body > If 'odd' then_branch"
    feeds = {"n": np.array(4), "d": np.float32([0, 0, 0, 0]), "idx": np.array([2]), "upd": np.float32([5])}
    rec = _same_as_reference(model, feeds, "odd_scatter", 2)
    assert rec.output_source.startswith(ALONE + "main graph > Loop 'steps' body > If 'odd' then_branch")
    assert "could not be lifted out" in rec.output_source and "rewritten to lift them failed" in rec.output_source
    np.testing.assert_array_equal(rec.output, [0, 0, 5, 0])  # iteration 1: the state as iteration 0 left it


def test_nested_an_if_inside_a_loop_that_takes_the_branch_every_time_runs_whole():
    model = _if_in_loop_model(outer_condition=True)
    feeds = {"n": np.array(3), "d": np.float32([0, 0, 0, 0]), "idx": np.array([2]), "upd": np.float32([5]),
             "c": np.array(True)}
    rec = _same_as_reference(model, feeds, "odd_scatter", 3)
    assert rec.output_source.startswith(WHOLE + "main graph > Loop 'steps' body > If 'odd' then_branch")
    assert "the first of the 3 calls" in rec.output_source
    np.testing.assert_array_equal(rec.output, [0, 0, 5, 0])
    assert "odd_scatter" in model.capture({**feeds, "c": np.array(False)}, runtime="onnxruntime").missing


def test_after_a_fallback_on_some_inputs_the_next_inputs_run_whole_again():
    """The warm worker keeps the rewritten session when one run of it fails: a capture whose branch alternates
    falls back, and the next, whose only iteration takes the branch, runs whole again."""
    model = _if_in_loop_model(shift=True)
    base = {"d": np.float32([0, 0, 0, 0]), "idx": np.array([2]), "upd": np.float32([5])}
    alternating = model.capture({**base, "n": np.array(4), "s": np.array(0)}, runtime="onnxruntime")["odd_scatter"]
    assert alternating.output_source.startswith(ALONE)
    once = _same_as_reference(model, {**base, "n": np.array(1), "s": np.array(1)}, "odd_scatter", 1)
    assert once.output_source.startswith(WHOLE), once.output_source
    np.testing.assert_array_equal(once.output, [0, 0, 5, 0])


def _loop_without_condition_model():
    """Loop 'steps' (trip count n, condition input left out) whose body adds upd at idx into acc."""
    T, h, _ = _h()
    body = _loop("steps", [h.make_node("ScatterElements", ["acc", "idx", "upd"], ["acc_out"], name="step_scatter",
                                       reduction="add")])
    inputs = [h.make_tensor_value_info("n", T.INT64, []), h.make_tensor_value_info("d", T.FLOAT, [4]),
              h.make_tensor_value_info("idx", T.INT64, [1]), h.make_tensor_value_info("upd", T.FLOAT, [1])]
    graph = h.make_graph([h.make_node("Loop", ["n", "", "d"], ["final"], name="steps", body=body)], "g", inputs,
                         [h.make_tensor_value_info("final", T.FLOAT, [4])])
    return _open(graph)


def test_a_loop_without_its_condition_runs_its_trip_count_on_onnx_reference_too():
    """onnx.reference (the pinned 1.23.2) runs no iteration of a Loop whose condition input is left out (the fact
    onnx-ref-loop-without-condition, checked here on the runtime itself); the capture gives it a constant true
    condition, so the node runs n times on onnx.reference as on onnxruntime, and the source says what changed."""
    from onnx.reference import ReferenceEvaluator

    import scatter_core as sc

    model = _loop_without_condition_model()
    feeds = {"n": np.array(3), "d": np.float32([0, 0, 0, 0]), "idx": np.array([2]), "upd": np.float32([5])}
    import onnx

    raw = onnx.load_model_from_string(model._payload)
    assert ReferenceEvaluator(raw).run(None, feeds)[0].tolist() == [0, 0, 0, 0]  # the fact, as it stands
    fact = sc.FACT_BY_ID["onnx-ref-loop-without-condition"]
    assert fact.runtimes == ("onnx.reference",)
    ref = model.capture(feeds, runtime="reference")["step_scatter"]
    ort = model.capture(feeds, runtime="onnxruntime")["step_scatter"]
    assert ref.calls == ort.calls == 3
    np.testing.assert_array_equal(ref.output, [0, 0, 5, 0])  # the first call
    np.testing.assert_array_equal(ref.output, ort.output)
    assert ref.output_source.startswith("onnx.reference, with 1 Loop whose condition input was left out given a "
                                        "constant true one"), ref.output_source
    assert "runs none of the iterations" in ref.output_source
