"""scatter_models: listing and capturing the sample models, and refusing hostile files."""

from __future__ import annotations

import ast
import time
from pathlib import Path

import numpy as np
import pytest

import scatter_core as sc
import scatter_models as sm
from scatter_models.samples import SAMPLES, sample_path
from tests.support.skipping import require_or_skip
from tests.support.model_builders import scan_model

pytestmark = pytest.mark.slow  # captures on real runtimes, warm workers started and stopped: the full suite runs them, the fast loop does not

ROOT = Path(__file__).resolve().parents[2]
ONNX_SAMPLES = [k for k, s in SAMPLES.items() if s.file.endswith(".onnx")]


def _model(key):
    return sm.open_model(sample_path(key))


def test_package_is_pure_and_uses_public_core_api():
    for path in (ROOT / "scatter_models").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith(("streamlit", "plotly")), f"{path.name} imports {name}"
                assert not name.startswith("scatter_core."), f"{path.name} imports {name} (use scatter_core's API)"


def test_model_error_is_a_scatter_error():
    assert issubclass(sm.ModelError, sc.ScatterError)


@pytest.mark.parametrize("key, op, attrs", [
    ("kv_cache", "ScatterND-18", {"reduction": "none"}),
    ("index_put", "ScatterND-18", {"reduction": "add"}),
    ("scatter_amax", "ScatterElements-18", {"axis": 1, "reduction": "max"}),
    ("circular_cache", "TensorScatter-24", {"axis": -2, "mode": "circular"}),
    ("scatter9", "Scatter-9", {"axis": 0}),
    ("ov_mean", "ScatterElementsUpdate-12", {"axis": 0, "reduction": "mean", "use_init_val": True}),
    ("loop_body", "ScatterElements-18", {"axis": 0, "reduction": "add"}),
])
def test_sample_nodes_are_listed_with_versioned_op_and_attrs(key, op, attrs):
    model = _model(key)
    assert len(model.nodes) == 1
    node = model.nodes[0]
    assert node.op == op
    assert node.attrs == attrs
    assert all(type(v) in (str, int, float, bool, tuple) for v in node.attrs.values())


def test_symbolic_dims_are_named_in_inputs_and_shapes():
    model = _model("kv_cache")
    inputs = {i.name: i for i in model.inputs}
    assert inputs["past_key"].shape == (2, "max_seq", 4)
    assert inputs["p"].dtype == "int64"
    assert model.symbolic_dims == ("max_seq",)
    assert model.nodes[0].shapes == {"data": (2, "max_seq", 4), "indices": (2, 2), "updates": (2, 4)}


def test_loop_body_node_is_found_and_named_by_location():
    node = _model("loop_body").nodes[0]
    assert node.in_subgraph and "Loop 'rows_loop' body" in node.location


def test_opset_resolution_takes_newest_version_not_newer_than_the_import():
    from onnx import TensorProto as T, helper as h

    for opset, want in ((11, "ScatterND-11"), (15, "ScatterND-13"), (17, "ScatterND-16"), (21, "ScatterND-18")):
        graph = h.make_graph([h.make_node("ScatterND", ["d", "i", "u"], ["o"], name="n")], "g", [
            h.make_tensor_value_info("d", T.FLOAT, [4]), h.make_tensor_value_info("i", T.INT64, [1, 1]),
            h.make_tensor_value_info("u", T.FLOAT, [1])], [h.make_tensor_value_info("o", T.FLOAT, [4])])
        model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
        assert sm.open_model(model.SerializeToString()).nodes[0].op == want


def _const_model(indices, reduction="none", data_shape=(4, 2), updates_shape=None, opset=18, names=("n",)):
    from onnx import TensorProto as T, helper as h, numpy_helper

    idx = np.asarray(indices, dtype=np.int64)
    updates_shape = updates_shape or idx.shape[:-1] + tuple(data_shape[idx.shape[-1]:])
    nodes = [h.make_node("ScatterND", ["d", "idx", "u"], [f"o{k}"], name=name, reduction=reduction)
             for k, name in enumerate(names)]
    graph = h.make_graph(nodes, "g", [
        h.make_tensor_value_info("d", T.FLOAT, list(data_shape)),
        h.make_tensor_value_info("u", T.FLOAT, list(updates_shape))],
        [h.make_tensor_value_info(f"o{k}", T.FLOAT, list(data_shape)) for k in range(len(names))],
        initializer=[numpy_helper.from_array(idx, "idx")])
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)]).SerializeToString()


def test_static_findings_duplicates_depend_on_reduction():
    none = sm.open_model(_const_model([[1], [3], [1]])).nodes[0]
    rules = {f.rule: f for f in none.findings}
    assert "duplicates" in rules
    assert "output[1, 0] ← updates[0, 0], updates[2, 0]" in rules["duplicates"].text
    assert "depends on the runtime" in rules["duplicates"].text
    largest = sm.open_model(_const_model([[1], [3], [1]], reduction="max")).nodes[0]
    assert "combined" in {f.rule: f for f in largest.findings}["duplicates"].text
    mul = sm.open_model(_const_model([[1], [3], [1]], reduction="mul")).nodes[0]
    assert "order" in {f.rule: f for f in mul.findings}["duplicates"].text
    unique = sm.open_model(_const_model([[1], [3]])).nodes[0]
    assert "duplicates" not in {f.rule for f in unique.findings}


def test_static_findings_out_of_range_and_negative_indices():
    bad = sm.open_model(_const_model([[7]])).nodes[0]
    assert any(f.severity == "error" and "7" in f.text for f in bad.findings)
    neg = sm.open_model(_const_model([[-1]])).nodes[0]
    assert any(f.rule == "negative-index" for f in neg.findings)


def test_static_runtime_fact_for_integer_mean_on_openvino_ir():
    node = _model("ov_mean").nodes[0]
    assert any(f.rule == "runtime-fact:integer-mean-truncation" for f in node.findings)


def test_static_runtime_findings_read_as_sentences_for_this_node_only():
    """Runtime facts name the runtimes as users know them, only those that run the node's operator, with the
    fact's source in words; no internal runtime ids or source flags."""
    node = _model("scatter_amax").nodes[0]  # ScatterElements-18 max: an ONNX node
    facts = [f for f in node.findings if f.rule.startswith("runtime-fact:")]
    assert {f.rule for f in facts} == {"runtime-fact:signed-zero-tie", "runtime-fact:nan-in-max-min"}
    for f in facts:
        assert f.text.endswith(".") and ": " in f.text  # "<runtimes>: <what they do>."
        for internal in ("openvino-cpu", "openvino-reference", "[observed", "Not in semantics.md"):
            assert internal not in f.text and internal not in f.short, (internal, f.text)
        # the OpenVINO CPU plugin runs an ONNX model through its ONNX frontend, and behaves so there too
        assert f.short.startswith("onnxruntime, onnx.reference, OpenVINO CPU (ONNX): ")
        assert f.source.startswith("this project's test test_differential::test_observed_") and "verified on" in f.source
    nan = next(f for f in facts if f.rule.endswith("nan-in-max-min"))
    # the per-runtime facts of the runtimes that run an ONNX node, not OpenVINO's
    assert nan.text.startswith("onnxruntime ") and "onnx.reference " in nan.text and "OpenVINO" not in nan.text
    assert "Whether it applies depends on the values that reach the node" in nan.text  # indices not constant
    assert nan.short.endswith(": NaN under max or min"), nan.short  # what the fact is about, not a finding
    ir = _model("ov_mean").nodes[0]
    mean = next(f for f in ir.findings if f.rule == "runtime-fact:integer-mean-truncation")
    assert mean.short == "OpenVINO CPU: an integer mean's rounding" and mean.text.startswith("OpenVINO ")
    assert mean.source.startswith("this project's test test_differential::test_integer_mean_cpu_truncates_reference_floors"
                                  "; verified on openvino ")


def test_a_runtime_that_cannot_load_the_node_is_said_so_in_its_short_title_whatever_the_values():
    """The node table showed "OpenVINO CPU (ONNX): runnable" for TensorScatter-24, which its frontend cannot
    load; and a refusal to load does not wait for values to meet a condition."""
    node = _model("circular_cache").nodes[0]
    fact = next(f for f in node.findings if f.rule == "runtime-fact:frontend-no-conversion-rule")
    assert fact.short == "OpenVINO CPU (ONNX): cannot run it"
    assert "has no conversion rule for TensorScatter-24" in fact.text and "condition" not in fact.text


@pytest.mark.parametrize("key", list(SAMPLES))
def test_capture_reference_records_real_case_and_output(key):
    if key == "ov_mean":
        require_or_skip("openvino")
    model = _model(key)
    cap = model.capture(runtime="reference")
    assert set(cap) == {n.name for n in model.nodes}
    for name, rec in cap.items():
        assert isinstance(rec.case, sc.Case) and rec.case.op == model.node(name).op
        np.testing.assert_array_equal(rec.output, rec.case.run())
        assert rec.calls >= 1


def test_capture_is_deterministic_in_seed_and_draws_small_nonnegative_integers():
    model = _model("index_put")
    a, b, c = model.capture(seed=3), model.capture(seed=3), model.capture(seed=4)
    for x, y in ((a, b),):
        for name in x:
            np.testing.assert_array_equal(x[name].case.data, y[name].case.data)
            np.testing.assert_array_equal(x[name].case.updates, y[name].case.updates)
    assert any(not np.array_equal(a.feeds[k], c.feeds[k]) for k in a.feeds)
    pos = _model("scatter_amax").capture(seed=1).feeds["positions"]
    assert pos.dtype == np.int64 and pos.min() >= 0 and pos.max() < 8


def test_tensor_scatter_case_uses_core_roles():
    cap = _model("circular_cache").capture(seed=2)
    rec = cap["cache_write"]
    np.testing.assert_array_equal(rec.case.data, cap.feeds["past_cache"])
    np.testing.assert_array_equal(rec.case.indices, cap.feeds["write_indices"])
    np.testing.assert_array_equal(rec.case.updates, cap.feeds["update"])


def test_scatter9_on_reference_uses_scatter_core_and_says_so():
    rec = _model("scatter9").capture(runtime="reference")["legacy_scatter"]
    assert "scatter_core" in rec.output_source and "no Scatter kernel" in rec.output_source


def test_loop_body_records_first_call_and_count():
    cap = _model("loop_body").capture(seed=5)
    rec = cap["accumulate_row"]
    assert rec.calls == 3
    np.testing.assert_array_equal(rec.case.data, cap.feeds["x"])  # the first call sees the loop's input
    np.testing.assert_array_equal(rec.case.indices, np.zeros((1, 4), np.int64))  # iteration 0 writes row 0
    np.testing.assert_array_equal(rec.case.updates, cap.feeds["row"])


def test_given_inputs_are_used_and_the_rest_drawn():
    model = _model("kv_cache")
    past = np.arange(2 * 6 * 4, dtype=np.float32).reshape(2, 6, 4)
    cap = model.capture({"past_key": past, "p": np.array([5])})
    rec = cap["kv_write"]
    np.testing.assert_array_equal(rec.case.data, past)  # max_seq = 6 comes from the given input's shape
    np.testing.assert_array_equal(rec.output[:, 5], cap.feeds["new_key"])
    assert cap.dims == {"max_seq": 6}


def test_invalid_indices_name_node_and_rule():
    model = _model("kv_cache")
    with pytest.raises(sm.ModelError) as info:
        model.capture({"p": np.array([9])}, dims={"max_seq": 4})
    assert info.value.node == "kv_write" and info.value.rule == "index-range"
    assert "kv_write" in str(info.value)


def test_dims_and_inputs_are_checked():
    model = _model("kv_cache")
    with pytest.raises(sm.ModelError, match="no symbolic dim 'seq'"):
        model.capture(dims={"seq": 3})
    with pytest.raises(sm.ModelError, match="no input named 'nope'"):
        model.capture({"nope": np.zeros(1)})
    with pytest.raises(sm.ModelError, match="declares"):
        model.capture({"new_key": np.zeros((3, 4), np.float32)})


@pytest.mark.parametrize("runtime", ["onnxruntime", "openvino"])
def test_capture_on_other_runtimes_agrees_with_core(runtime):
    require_or_skip(runtime if runtime == "onnxruntime" else "openvino-cpu")
    for key in ("kv_cache", "index_put", "scatter_amax"):
        cap = _model(key).capture(seed=1, runtime=runtime)
        for rec in cap.values():
            assert rec.output_source.startswith("onnxruntime" if runtime == "onnxruntime" else "OpenVINO CPU")
            np.testing.assert_array_equal(rec.output, rec.case.run())


def test_onnxruntime_loop_body_leaves_as_scan_outputs():
    require_or_skip("onnxruntime")
    cap = _model("loop_body").capture(runtime="onnxruntime", seed=5)
    rec = cap["accumulate_row"]
    assert rec.output_source.startswith("onnxruntime, running the whole model once, rewritten so that the node's "
                                        "tensors leave main graph > Loop 'rows_loop' body") and rec.calls == 3
    assert "extra scan output" in rec.output_source
    ref = _model("loop_body").capture(seed=5)["accumulate_row"]
    for a, b in zip(rec.case.given(), ref.case.given()):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(rec.output, ref.output)


def test_openvino_says_before_and_after_capturing_that_it_cannot_expose_a_loop_body_node():
    model = _model("loop_body")
    note = sm.runtime_note(model, "openvino")
    assert "'accumulate_row'" in note and "subgraph" in note and "onnx.reference" in note and "onnxruntime" in note
    assert sm.runtime_note(model, "reference") is None and sm.runtime_note(model, "onnxruntime") is None
    assert sm.runtime_note(_model("index_put"), "openvino") is None  # a main-graph node is captured
    require_or_skip("openvino-cpu")
    cap = model.capture(runtime="openvino", seed=5)
    assert "accumulate_row" not in cap
    why = cap.missing["accumulate_row"]
    assert "Loop 'rows_loop' body" in why and "did not run" not in why and "onnx.reference" in why


def test_onnxruntime_gives_a_node_inside_an_if_branch_from_its_run_of_the_whole_model():
    require_or_skip("onnxruntime")
    from onnx import TensorProto as T, helper as h

    then = h.make_graph([h.make_node("ScatterND", ["d", "i", "u"], ["t"], name="in_then")], "then", [],
                        [h.make_tensor_value_info("t", T.FLOAT, [4])])
    other = h.make_graph([h.make_node("Identity", ["d"], ["e"])], "else", [],
                         [h.make_tensor_value_info("e", T.FLOAT, [4])])
    graph = h.make_graph([h.make_node("If", ["c"], ["o"], name="branch", then_branch=then, else_branch=other)], "g", [
        h.make_tensor_value_info("c", T.BOOL, []), h.make_tensor_value_info("d", T.FLOAT, [4]),
        h.make_tensor_value_info("i", T.INT64, [1, 1]), h.make_tensor_value_info("u", T.FLOAT, [1])],
        [h.make_tensor_value_info("o", T.FLOAT, [4])])
    m = sm.open_model(h.make_model(graph, opset_imports=[h.make_opsetid("", 18)], ir_version=8).SerializeToString())
    cap = m.capture({"c": np.array(True)}, runtime="onnxruntime")
    rec = cap["in_then"]
    assert rec.output_source.startswith("onnxruntime, running the whole model once, rewritten so that the node's "
                                        "tensors leave main graph > If 'branch' then_branch as model outputs")
    assert "onnx.reference" not in rec.output_source and not rec.stood_in
    ref = m.capture({"c": np.array(True)}, runtime="reference")["in_then"]
    assert ref.output_source == "onnx.reference"
    for a, b in zip(rec.case.given(), ref.case.given()):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(rec.output, rec.case.run())
    cap = m.capture({"c": np.array(False)})
    assert "in_then" in cap.missing and not cap


def test_ir_refuses_onnxruntime():
    with pytest.raises(sm.ModelError, match="ONNX models only"):
        _model("ov_mean").capture(runtime="onnxruntime")


def test_unknown_runtime_is_a_model_error():
    with pytest.raises(sm.ModelError, match="not one of"):
        _model("kv_cache").capture(runtime="tvm")


def test_warm_worker_one_shot_worker_and_a_dead_warm_worker_give_the_same_capture(monkeypatch):
    import scatter_models.capture as capture_module

    a, b = _model("index_put"), _model("scatter_amax")
    warm_a, warm_b, warm_a2 = a.capture(seed=2), b.capture(seed=2), a.capture(seed=2)  # the worker switches models
    monkeypatch.setenv("SCATTER_MODELS_WARM_WORKER", "0")
    cold_a = a.capture(seed=2)
    monkeypatch.delenv("SCATTER_MODELS_WARM_WORKER")
    if capture_module.warm_worker() is not None:
        capture_module.warm_worker().proc.kill()  # a worker that died between captures is started again
    again_a = a.capture(seed=2)
    for cap in (warm_a2, cold_a, again_a):
        rec, ref = cap["index_put_accumulate"], warm_a["index_put_accumulate"]
        np.testing.assert_array_equal(rec.output, ref.output)
        np.testing.assert_array_equal(rec.case.indices, ref.case.indices)
    assert warm_b["scatter_reduce_amax"].case.op == "ScatterElements-18"


def test_idle_warm_worker_exits_and_the_next_capture_starts_another(monkeypatch):
    import scatter_models.capture as capture_module

    capture_module.stop_warm_worker()
    monkeypatch.setenv("SCATTER_MODELS_WORKER_IDLE", "0.5")
    model = _model("kv_cache")
    first = model.capture(seed=1)
    worker = capture_module.warm_worker()
    assert worker is not None
    worker.proc.wait(timeout=30)  # it gives its memory back by itself
    assert not worker.alive()
    second = model.capture(seed=1)
    np.testing.assert_array_equal(first["kv_write"].output, second["kv_write"].output)


def test_prewarm_starts_the_worker_once_and_the_first_capture_uses_it(monkeypatch):
    import scatter_models.capture as capture_module

    capture_module.stop_warm_worker()
    assert sm.prewarm() is True
    started = capture_module.warm_worker()
    assert started is not None and started.alive()
    assert sm.prewarm() is False and capture_module.warm_worker() is started  # one at a time
    cap = _model("kv_cache").capture(seed=1, runtime="reference")
    assert capture_module.warm_worker() is started and cap["kv_write"].output_source == "onnx.reference"
    monkeypatch.setenv("SCATTER_MODELS_WARM_WORKER", "0")  # switched off: nothing is started
    capture_module.stop_warm_worker()
    assert sm.prewarm() is False and capture_module.warm_worker() is None


def _wait_prepared(capture_module, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while capture_module.preparing() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not capture_module.preparing(), "the preparation did not end"


@pytest.mark.parametrize("runtime, key", [("reference", "kv_cache"), ("onnxruntime", "kv_cache"),
                                          ("openvino", "kv_cache"), ("openvino", "ov_mean")])
def test_prewarm_with_the_model_builds_its_run_ahead_and_the_capture_only_runs(monkeypatch, runtime, key):
    import scatter_models.capture as capture_module

    if runtime != "reference":
        require_or_skip(runtime)
    capture_module.stop_warm_worker()
    model = _model(key)
    assert sm.prewarm(runtime, model) is True
    _wait_prepared(capture_module)
    warm = capture_module.warm_worker()
    assert warm is not None and warm.alive() and warm.holds == model.digest
    assert (model.digest, runtime) in warm.prepared
    assert sm.prewarm(runtime, model) is False  # already prepared: nothing to do
    sent, one_shot = [], []
    monkeypatch.setattr(capture_module, "write_model", lambda *a: sent.append(a))
    monkeypatch.setattr(capture_module, "run_worker", lambda *a: one_shot.append(a))
    cap = model.capture(seed=1, runtime=runtime)
    assert sent == [] and one_shot == []  # the worker held the model: nothing was sent, no other process ran
    assert capture_module.warm_worker() is warm
    monkeypatch.undo()
    monkeypatch.setenv("SCATTER_MODELS_WARM_WORKER", "0")
    reference = _model(key).capture(seed=1, runtime=runtime)  # the same answer as a one-shot worker's
    node = model.nodes[0].name
    assert cap[node].output_source == reference[node].output_source
    np.testing.assert_array_equal(cap[node].output, reference[node].output)
    np.testing.assert_array_equal(cap[node].case.data, reference[node].case.data)
    np.testing.assert_array_equal(cap[node].case.indices, reference[node].case.indices)


def test_a_capture_asked_while_the_model_is_prepared_waits_for_the_warm_worker(monkeypatch):
    import scatter_models.capture as capture_module

    capture_module.stop_warm_worker()
    model = _model("index_put")
    one_shot = []
    real_run_worker = capture_module.run_worker
    monkeypatch.setattr(capture_module, "run_worker", lambda *a: (one_shot.append(a), real_run_worker(*a)))
    assert sm.prewarm("reference", model) is True
    warm = capture_module.warm_worker()
    cap = model.capture(seed=3, runtime="reference")  # at once: the preparation is still running
    assert one_shot == [] and capture_module.warm_worker() is warm
    assert len(cap) == 1 and next(iter(cap.values())).output_source == "onnx.reference"


def test_a_preparation_past_its_limit_stops_the_worker_quietly_and_the_capture_starts_another(monkeypatch):
    import scatter_models.capture as capture_module
    import scatter_models.limits as limits

    capture_module.stop_warm_worker()
    model = _model("kv_cache")
    monkeypatch.setattr(limits, "time_limit", lambda: 0.0)  # the preparation's watch: past its time at once
    assert sm.prewarm("reference", model) is True
    _wait_prepared(capture_module)
    assert capture_module.warm_worker() is None  # stopped, nothing raised (no one was waiting)
    monkeypatch.undo()
    cap = model.capture(seed=1)
    assert capture_module.warm_worker() is not None and cap["kv_write"].calls >= 1


def test_capture_job_folder_is_memory_backed_when_there_is_room(monkeypatch, tmp_path):
    import scatter_models.capture as capture_module

    monkeypatch.setenv("SCATTER_MODELS_JOB_DIR", str(tmp_path))
    assert capture_module.job_parent(10) == str(tmp_path)
    monkeypatch.delenv("SCATTER_MODELS_JOB_DIR")
    import os

    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        assert capture_module.job_parent(1) == "/dev/shm"
    assert capture_module.job_parent(2**62) is None  # no room: the system's temporary folder
    # a capture through a chosen folder leaves nothing behind there
    monkeypatch.setenv("SCATTER_MODELS_JOB_DIR", str(tmp_path))
    _model("kv_cache").capture(seed=1)
    assert list(tmp_path.iterdir()) == []


def test_input_files_npz_npy_and_refusals():
    import io

    model = _model("kv_cache")
    buf = io.BytesIO()
    np.savez(buf, p=np.array([1]), new_key=np.ones((2, 4), np.float32))
    got = sm.inputs_from_file("inputs.npz", buf.getvalue(), model)
    assert set(got) == {"p", "new_key"}
    cap = model.capture(got)
    np.testing.assert_array_equal(cap["kv_write"].output[:, 1], np.ones((2, 4), np.float32))
    one = io.BytesIO()
    np.save(one, np.array([2]))
    assert set(sm.inputs_from_file("p.npy", one.getvalue(), model)) == {"p"}
    with pytest.raises(sm.ModelError, match="name the file after an input"):
        sm.inputs_from_file("x.npy", one.getvalue(), model)
    pickled = io.BytesIO()
    np.save(pickled, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(sm.ModelError, match="never unpickled"):
        sm.inputs_from_file("p.npy", pickled.getvalue(), model)
    with pytest.raises(sm.ModelError, match="is not an .npz, an .npy"):
        sm.inputs_from_file("p.npy", b"garbage", model)


@pytest.mark.slow
def test_bug_report_zip_reproduces_the_node_without_the_model(tmp_path):
    import io
    import subprocess
    import sys
    import zipfile

    from scatter_models.report import bug_report

    model = _model("index_put")
    cap = model.capture(seed=0, runtime="reference")
    blob = bug_report(model, cap, "index_put_accumulate")
    with zipfile.ZipFile(io.BytesIO(blob)) as z:
        readme = z.read("README.md").decode()
        z.extractall(tmp_path)
    assert "ScatterND-18" in readme and "reduction='add'" in readme
    assert "written more than once" in readme  # the findings on the real data
    assert "The output from onnx.reference matches" in readme
    assert "runtime:        onnx.reference (onnx " in readme  # the runtime by its name, not the page's key
    with np.load(tmp_path / "tensors.npz") as npz:
        np.testing.assert_array_equal(npz["runtime_output"], cap["index_put_accumulate"].output)
        np.testing.assert_array_equal(npz["indices"], cap["index_put_accumulate"].case.indices)
    for test in ("test_case.py", "test_runtime_output.py"):
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
                             cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0 and "1 passed" in run.stdout, (test, run.stdout[-1500:])
    # the runtime's output is what test_runtime_output.py checks: a runtime that differed makes it fail
    with np.load(tmp_path / "tensors.npz") as npz:
        arrays = dict(npz)
    arrays["runtime_output"] = arrays["runtime_output"] + 1
    np.savez(tmp_path / "tensors.npz", **arrays)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_runtime_output.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "1 failed" in run.stdout, run.stdout[-1500:]


def test_a_bug_report_names_the_runtime_whose_output_differs_not_the_user():
    """OpenVINO CPU truncates a negative integer mean that the spec floors: each differing cell's chain says
    what the runtime gave (it is no one's expectation) and names its cell once."""
    require_or_skip("openvino")
    from scatter_models.report import summary

    model = _model("ov_mean")
    zero_point = 2  # the sample stores data and updates with it; the graph subtracts it before the scatter
    inputs = {"data": np.array([[0, 0, 0], [-4, -6, -1], [1, 1, 1], [2, 2, 2]], dtype=np.int32) + zero_point,
              "indices": np.array([[1, 1, 1], [1, 1, 1]], dtype=np.int64),
              "updates": np.array([[-2, -4, 0], [-2, -4, 1]], dtype=np.int32) + zero_point}
    cap = model.capture(inputs, runtime="openvino")
    text = summary(model, cap, "mean_update")
    assert ("output[1, 0] starts at -4 (data) and gets 2 updates in the spec's loop order: step 1 updates[0, 0] = -2, "
            "step 4 updates[1, 0] = -2. Reduction mean: the mean of data's value and every update aimed at the cell: "
            "their sum over their count, taken once after the last write, not two at a time. Sum -4 + -2 + -2 = -8 "
            "over count 3: -8/3 ≈ -2.667. Rounded down (toward −∞) as the spec says: -3; truncated toward zero, as "
            "the OpenVINO ") in text and "you expected" not in text
    assert "CPU plugin does: -2. Computed -3; OpenVINO CPU gave -2, which is -8/3 ≈ -2.667 truncated toward zero." in text
    assert text.index("differs from the spec's loop") < text.index("## The node")  # said first
    reference = summary(model, model.capture(inputs, runtime="reference"), "mean_update")  # an IR's "reference": OpenVINO's kernels
    assert "runtime:        OpenVINO reference kernels (the scatter nodes; the CPU plugin runs the rest)" in reference
    assert "output[1, 0]: output[1, 0]" not in text


def test_a_bug_report_where_scatter_core_stood_in_claims_no_runtime_agreement():
    """Scatter-9 on onnx.reference: no runtime output exists, so the report compares nothing (it said "matches")."""
    import io
    import zipfile

    from scatter_models.report import bug_report

    model = _model("scatter9")
    cap = model.capture(runtime="reference")
    assert cap["legacy_scatter"].stood_in
    with zipfile.ZipFile(io.BytesIO(bug_report(model, cap, "legacy_scatter"))) as z:
        readme = z.read("README.md").decode()
        names = z.namelist()
    assert "No runtime output to compare" in readme and "matches" not in readme
    assert "test_runtime_output.py" not in names


def test_bug_report_keeps_hostile_names_inside_code_blocks():
    from onnx import helper as h

    from scatter_models.report import summary
    from tests.support.model_builders import graph_model, value_infos, scatter_nd_node

    name = "```\n# injected heading"
    m = sm.open_model(graph_model([scatter_nd_node(name=name)], value_infos(), [h.make_tensor_value_info("o", 1, [4])])
                      .SerializeToString())
    text = summary(m, m.capture(), name)
    assert "\n# injected heading" not in text  # the newline is shown escaped, inside a fence
    assert "node:       ```\\n# injected heading" in text


def _if_model(op_type: str, attrs: dict, update):
    """A model whose If then-branch holds one scatter node reading the outer d, i and a constant update."""
    from onnx import TensorProto as T, helper as h, numpy_helper

    upd = h.make_node("Constant", [], ["u"], value=numpy_helper.from_array(np.asarray(update, np.float32)))
    then = h.make_graph([upd, h.make_node(op_type, ["d", "i", "u"], ["t"], name="in_then", **attrs)], "then", [],
                        [h.make_tensor_value_info("t", T.FLOAT, [4])])
    other = h.make_graph([h.make_node("Identity", ["d"], ["e"])], "else", [],
                         [h.make_tensor_value_info("e", T.FLOAT, [4])])
    graph = h.make_graph([h.make_node("If", ["c"], ["o"], name="branch", then_branch=then, else_branch=other)], "g", [
        h.make_tensor_value_info("c", T.BOOL, []), h.make_tensor_value_info("d", T.FLOAT, [4]),
        h.make_tensor_value_info("i", T.INT64, [1, 1] if op_type == "ScatterND" else [1])],
        [h.make_tensor_value_info("o", T.FLOAT, [4])])
    return sm.open_model(h.make_model(graph, opset_imports=[h.make_opsetid("", 18)], ir_version=8)
                         .SerializeToString())


def test_a_node_in_an_if_branch_gets_onnxruntimes_own_output_where_it_differs_from_the_reference():
    """A NaN update under max: onnxruntime lets it replace the cell, onnx.reference ignores it (runtime facts).
    The record of a node inside an If branch, captured on onnxruntime, holds onnxruntime's NaN."""
    require_or_skip("onnxruntime")
    m = _if_model("ScatterElements", {"reduction": "max"}, [np.nan])
    feeds = {"c": np.array(True), "d": np.array([1, 2, 3, 4], np.float32), "i": np.array([1])}
    ort_rec = m.capture(feeds, runtime="onnxruntime")["in_then"]
    ref_rec = m.capture(feeds, runtime="reference")["in_then"]
    assert ort_rec.output_source.startswith("onnxruntime, running the whole model once")
    assert np.isnan(ort_rec.output[1]) and ref_rec.output[1] == 2  # each runtime's own answer
    np.testing.assert_array_equal(ort_rec.output[[0, 2, 3]], [1, 3, 4])


@pytest.mark.parametrize("runtime", ["reference", "onnxruntime"])
def test_a_node_in_a_scan_body_is_listed_and_captured_with_its_first_call_and_count(runtime):
    if runtime == "onnxruntime":
        require_or_skip("onnxruntime")
    m = scan_model()
    node = m.node("count_row")
    assert node.op == "ScatterElements-18" and node.in_subgraph
    assert node.location == "main graph > Scan 'scan_rows' body"
    assert node.shapes == {"data": (4,), "indices": (1,), "updates": (1,)}
    start = np.array([0, 10, 20, 30], np.float32)
    rows = np.array([[2], [0], [2]])
    rec = m.capture({"start": start, "rows": rows}, runtime=runtime)["count_row"]
    assert rec.calls == 3
    data, indices, updates = rec.case.given()
    np.testing.assert_array_equal(data, start)  # the first call: the state as it entered the Scan
    np.testing.assert_array_equal(indices, [2])
    np.testing.assert_array_equal(rec.output, [0, 10, 21, 30])
    assert rec.output_source.startswith("onnx.reference" if runtime == "reference" else "onnxruntime, running")


def test_a_bug_report_writes_symbolic_dims_as_name_equals_value():
    from scatter_models.report import summary

    model = _model("kv_cache")
    cap = model.capture(seed=1, dims={"max_seq": 4})
    text = summary(model, cap, model.nodes[0].name)
    assert "symbolic dims:  max_seq=4" in text and "{" not in text.split("symbolic dims:")[1].splitlines()[0]
    assert "symbolic dims:  (none)" in summary(_model("index_put"), _model("index_put").capture(seed=1),
                                               "index_put_accumulate")


def test_node_attributes_are_read_by_their_codecs_and_a_wrong_kind_is_kept():
    """onnx_file reads a declared attribute by its codec (from_onnx); a FLOAT axis stays 1.5, for the check to
    name, never truncated to 1."""
    require_or_skip("onnx")
    from onnx import TensorProto as T, helper as h

    def model(**attrs):
        node = h.make_node("ScatterElements", ["d", "i", "u"], ["o"], name="n", **attrs)
        graph = h.make_graph([node], "g", [
            h.make_tensor_value_info("d", T.FLOAT, [4, 2]), h.make_tensor_value_info("i", T.INT64, [1, 2]),
            h.make_tensor_value_info("u", T.FLOAT, [1, 2])], [h.make_tensor_value_info("o", T.FLOAT, [4, 2])])
        return h.make_model(graph, opset_imports=[h.make_opsetid("", 18)]).SerializeToString()

    node = sm.open_model(model(axis=-1, reduction="add")).nodes[0]
    assert node.attrs == {"axis": -1, "reduction": "add"} and type(node.attrs["axis"]) is int
    node = sm.open_model(model(axis=1.5)).nodes[0]
    assert node.attrs == {"axis": 1.5, "reduction": "none"} and type(node.attrs["axis"]) is float
    with pytest.raises(sc.ScatterError, match="axis = 1.5 must be one integer"):
        sc.codec_of(node.spec, "axis").check(node.attrs["axis"], 2)


def test_runtime_words_come_from_one_table_and_their_examples_run():
    """The messages, the bug report and the runtime box name a capture runtime from support.RUNTIME_WORDS; its
    doctest examples pin the three forms, and every runtime has a name for both model kinds."""
    import doctest

    from scatter_models import support

    result = doctest.testmod(support)
    assert result.attempted >= 3 and result.failed == 0
    for kind in ("onnx", "openvino-ir"):
        for runtime in sm.RUNTIMES:
            short, full, choice = (sm.runtime_short(runtime, kind), sm.runtime_name(runtime, kind),
                                   sm.runtime_choice(runtime, kind))
            assert short and full.startswith(short) and choice.startswith(short), (kind, runtime)
    assert sm.runtime_choice("openvino") == "OpenVINO CPU (ONNX frontend)"
    assert sm.runtime_short("openvino") == "OpenVINO CPU"
