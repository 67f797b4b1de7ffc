"""A repeated capture (issue #32, Speed): what the warm worker and the model keep between captures changes no
result and no check. The time itself is measured by bench/bench_models_small.py, never here."""

from __future__ import annotations

import numpy as np
import pytest

import scatter_models as sm
import scatter_models.capture as capture_module
from scatter_models import tensor_file
from scatter_models.samples import sample_path
from tests.support.skipping import require_or_skip


def _model(key):
    return sm.open_model(sample_path(key))


def _same(a: sm.Capture, b: sm.Capture) -> None:
    assert set(a) == set(b) and a.missing == b.missing and a.version == b.version
    for name in a:
        x, y = a[name], b[name]
        assert (x.op, x.calls, x.output_source) == (y.op, y.calls, y.output_source)
        assert x.output.dtype == y.output.dtype
        np.testing.assert_array_equal(x.output, y.output)
        for role in ("data", "indices", "updates"):
            np.testing.assert_array_equal(getattr(x.case, role), getattr(y.case, role))
    for name, value in a.feeds.items():
        assert value.dtype == b.feeds[name].dtype
        np.testing.assert_array_equal(value, b.feeds[name])


def test_tensor_file_gives_back_every_array_exactly_and_refuses_what_is_not_a_plain_tensor(tmp_path):
    arrays = {"f16": np.arange(6, dtype=np.float16).reshape(2, 3), "scalar": np.array(True),
              "empty": np.zeros((0, 3), np.int64), "0-d int": np.int32(-5),
              "fortran": np.asfortranarray(np.arange(6.0).reshape(2, 3)), "strided": np.arange(8)[::3],
              "big-endian": np.arange(3, dtype=">i4"), "u64": np.array([2**64 - 1], np.uint64)}
    index = tensor_file.write(tmp_path / "t.bin", arrays)
    back = tensor_file.read(tmp_path / "t.bin", index)
    assert list(back) == list(arrays)
    for name, value in arrays.items():
        value = np.asarray(value)
        assert back[name].dtype == value.dtype and back[name].shape == value.shape, name
        np.testing.assert_array_equal(back[name], value)
        assert back[name].flags.writeable and back[name].flags.owndata, name
    with pytest.raises(TypeError, match="'names' has dtype"):
        tensor_file.write(tmp_path / "o.bin", {"names": np.array(["a"], dtype=object)})
    with pytest.raises(ValueError, match="not a plain numeric or bool dtype"):
        tensor_file.read(tmp_path / "t.bin", [["x", "|O", [1], 0]])
    with pytest.raises(ValueError, match="the file ends before"):
        tensor_file.read(tmp_path / "t.bin", [["x", "<f8", [1000], 0]])


@pytest.mark.parametrize("key, runtime", [("kv_cache", "openvino"), ("ov_mean", "openvino"),
                                          ("ov_mean", "reference")])
def test_the_warm_worker_keeps_the_openvino_compiled_model_and_a_repeated_capture_is_the_same(monkeypatch, key,
                                                                                               runtime):
    """The first capture compiles the model on OpenVINO and the worker holds it: the next capture sends no
    model file and its result is a one-shot worker's, to the bit."""
    require_or_skip("openvino")
    model = _model(key)
    model.capture(seed=3, runtime=runtime)
    warm = capture_module.warm_worker()
    assert warm is not None and (model.digest, "openvino") in warm.prepared
    sent = []
    real_write = capture_module.write_model
    monkeypatch.setattr(capture_module, "write_model", lambda *a: (sent.append(a), real_write(*a)))
    again = model.capture(seed=4, runtime=runtime)
    assert sent == [] and capture_module.warm_worker() is warm
    monkeypatch.setenv("SCATTER_MODELS_WARM_WORKER", "0")
    _same(again, model.capture(seed=4, runtime=runtime))


def test_switching_runtimes_on_one_model_keeps_what_the_worker_built_for_each():
    """onnxruntime, OpenVINO, onnx.reference, then each again: the model is sent once, plus once for OpenVINO
    to compile from; the worker keeps all three built, and each capture agrees with a fresh model's."""
    require_or_skip("onnxruntime", "openvino")
    capture_module.stop_warm_worker()
    model = _model("kv_cache")
    first = {rt: model.capture(seed=1, runtime=rt) for rt in ("onnxruntime", "openvino", "reference")}
    warm = capture_module.warm_worker()
    assert warm.prepared == {(model.digest, rt) for rt in ("onnxruntime", "openvino", "reference")}
    for rt, cap in first.items():
        _same(model.capture(seed=1, runtime=rt), cap)
        _same(_model("kv_cache").capture(seed=1, runtime=rt), cap)  # another Model object: nothing kept on it
    assert capture_module.warm_worker() is warm


def test_a_repeated_capture_still_checks_its_budget_its_runtime_and_its_inputs():
    model = _model("kv_cache")
    model.capture(seed=0, runtime="reference")
    with pytest.raises(sm.ModelError) as info:
        model.capture(seed=0, runtime="reference", dims={"max_seq": 4096}, max_bytes=10_000)
    assert info.value.rule == "byte-budget"
    big = model.capture(seed=0, runtime="reference", dims={"max_seq": 9})
    assert big["kv_write"].case.data.shape == (2, 9, 4) and big.dims == {"max_seq": 9}
    with pytest.raises(sm.ModelError, match="not one of"):
        model.capture(runtime="tvm")
    other = model.capture(seed=5, runtime="reference")
    given = {name: value + 1 if value.dtype.kind == "f" else value for name, value in other.feeds.items()}
    mine = model.capture(given, runtime="reference")
    np.testing.assert_array_equal(mine.feeds["new_key"], other.feeds["new_key"] + 1)
    np.testing.assert_array_equal(mine["kv_write"].case.updates, mine.feeds["new_key"].reshape(
        mine["kv_write"].case.updates.shape))
    ir = _model("ov_mean")
    if sm.runtime_available("openvino"):
        ir.capture(runtime="openvino")
    with pytest.raises(sm.ModelError, match="onnxruntime runs ONNX models only"):
        ir.capture(runtime="onnxruntime")


def _fed_index_model(reduction: str = "none") -> bytes:
    """ScatterND on data (4, 2) with its indices a model input: a capture can be fed a bad index."""
    from onnx import TensorProto as T, helper as h

    node = h.make_node("ScatterND", ["d", "idx", "u"], ["o"], name="fed", reduction=reduction)
    graph = h.make_graph([node], "g", [
        h.make_tensor_value_info("d", T.FLOAT, [4, 2]), h.make_tensor_value_info("idx", T.INT64, [2, 1]),
        h.make_tensor_value_info("u", T.FLOAT, [2, 2])], [h.make_tensor_value_info("o", T.FLOAT, [4, 2])])
    return h.make_model(graph, opset_imports=[h.make_opsetid("", 18)]).SerializeToString()


@pytest.mark.parametrize("bad", [[[7], [0]], [[0], [-5]]])
def test_an_onnx_model_on_openvino_stops_at_a_bad_index_before_openvino_runs(bad):
    """Before OpenVINO's CPU plugin runs an ONNX model (it may crash on a bad index), the worker checks the scatter
    nodes' inputs (onnxruntime's held session where installed, else a reference run): an index out of range is
    refused naming the node and the rule, as on onnx.reference, on the first capture and on a repeated one; good
    indices still capture exactly."""
    require_or_skip("openvino", "onnxruntime")
    model = sm.open_model(_fed_index_model())
    feeds = {"d": np.zeros((4, 2), np.float32), "idx": np.array(bad, np.int64), "u": np.ones((2, 2), np.float32)}
    with pytest.raises(sm.ModelError) as on_reference:
        model.capture(dict(feeds), runtime="reference")
    for _ in range(2):
        with pytest.raises(sm.ModelError) as on_openvino:
            model.capture(dict(feeds), runtime="openvino")
        assert on_openvino.value.node == on_reference.value.node == "fed"
        assert on_openvino.value.rule == on_reference.value.rule
    good = dict(feeds, idx=np.array([[3], [1]], np.int64))
    cap = model.capture(dict(good), runtime="openvino")
    want = np.zeros((4, 2), np.float32)
    want[[3, 1]] = 1
    assert np.array_equal(next(iter(cap.values())).case.trace().output, want)
