"""ScatterNode.index_verdict / .index_proof: the static proof about repeated indices, on hand-built graphs."""

from __future__ import annotations

import numpy as np
import pytest

import scatter_models as sm
from scatter_models.samples import sample_path

onnx = pytest.importorskip("onnx")
h = onnx.helper
T = onnx.TensorProto


def _const(name, values, dtype=np.int64):
    arr = np.asarray(values, dtype=dtype)
    return h.make_node("Constant", [], [name], name=name, value=onnx.numpy_helper.from_array(arr, name + "_v"))


def _open(nodes, inputs, outputs, opset=18, initializers=()):
    graph = h.make_graph(nodes, "g", [h.make_tensor_value_info(*i) for i in inputs],
                         [h.make_tensor_value_info(*o) for o in outputs], initializer=list(initializers))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    model.ir_version = 9
    return sm.open_model(model.SerializeToString())


def _kv_cache_step(shift_input_shape=(), with_range=True, cast_from_float=False):
    """past[:, pos + arange(2), :] = new (the KV-cache write): ScatterND on (Range + scalar) unsqueezed."""
    nodes = [_const("zero", 0), _const("two", 2), _const("one", 1), _const("last", [-1])]
    if with_range:
        nodes.append(h.make_node("Range", ["zero", "two", "one"], ["steps"], name="arange"))
    else:
        nodes.append(_const("steps", [0, 1]))
    src = "steps"
    if cast_from_float:
        nodes += [h.make_node("Cast", ["steps"], ["steps_f"], name="to_float", to=T.FLOAT),
                  h.make_node("Mul", ["steps_f", "half"], ["halves"], name="halve"),
                  _const("half", 0.5, np.float32),
                  h.make_node("Cast", ["halves"], ["steps_i"], name="to_int", to=T.INT64)]
        src = "steps_i"
    nodes += [
        h.make_node("Add", [src, "cache_position"], ["positions"], name="shift_by_position"),
        h.make_node("Unsqueeze", ["positions", "last"], ["write_at"], name="as_tuples"),
        h.make_node("ScatterND", ["past", "write_at", "new"], ["present"], name="kv_write"),
    ]
    return _open(nodes, [("past", T.FLOAT, [8, 4]), ("new", T.FLOAT, [2, 4]),
                         ("cache_position", T.INT64, list(shift_input_shape))],
                 [("present", T.FLOAT, [8, 4])])


def test_range_shifted_by_one_scalar_position_is_unique_with_its_chain():
    node = _kv_cache_step().node("kv_write")
    assert node.index_verdict == "unique"
    proof = node.index_proof
    for part in ("Unique by construction", "Unsqueeze 'as_tuples'", "Add 'shift_by_position'",
                 "graph input 'cache_position'", "Range 'arange'"):
        assert part in proof, (part, proof)
    assert proof.index("Add") < proof.index("Range")  # the chain runs from the node back to the Range


def test_constant_arange_shifted_by_a_scalar_is_unique():
    node = _kv_cache_step(with_range=False).node("kv_write")
    assert node.index_verdict == "unique"
    assert "constant 'steps' holds 2 distinct values [0, 1]" in node.index_proof


def test_shift_by_a_tensor_of_several_values_may_repeat_and_says_where_from():
    node = _kv_cache_step(shift_input_shape=(2,)).node("kv_write")
    assert node.index_verdict == "may-repeat"
    assert "neither one scalar" in node.index_proof and "graph input 'cache_position'" in node.index_proof


def test_integers_through_floats_are_not_proved_distinct():
    node = _kv_cache_step(cast_from_float=True).node("kv_write")
    assert node.index_verdict == "may-repeat"
    assert "Cast 'to_int'" in node.index_proof


def test_duplicate_facts_show_only_where_repeats_are_possible():
    unique = _kv_cache_step().node("kv_write")
    maybe = _kv_cache_step(shift_input_shape=(2,)).node("kv_write")
    words = lambda n: " ".join(f.short for f in n.findings)  # noqa: E731
    assert "if indices repeat" in words(maybe)
    assert "if indices repeat" not in words(unique)


def test_constant_indices_with_a_repeat_repeat_and_without_one_are_unique():
    def node(values):
        init = onnx.numpy_helper.from_array(np.asarray(values, dtype=np.int64), "idx")
        m = _open([h.make_node("ScatterElements", ["data", "idx", "upd"], ["out"], name="se", axis=0)],
                  [("data", T.FLOAT, [4, 2]), ("upd", T.FLOAT, [2, 2])], [("out", T.FLOAT, [4, 2])],
                  initializers=[init])
        return m.node("se")

    assert node([[1, 0], [1, 3]]).index_verdict == "repeats"
    unique = node([[1, 0], [2, 3]])
    assert unique.index_verdict == "unique" and "constant" in unique.index_proof


def test_coordinate_tuples_unique_through_a_concatenated_constant_column():
    """The kv_cache sample: tuples (head, p) with a distinct constant head column cannot repeat."""
    node = sm.open_model(sample_path("kv_cache")).nodes[0]
    assert node.index_verdict == "unique"
    assert "Concat 'write_at'" in node.index_proof and "(0), (1)" in node.index_proof


@pytest.mark.parametrize("key, verdict, origin", [
    ("index_put", "may-repeat", "ArgMax 'pick_rows' picks them from the data"),
    ("scatter_amax", "may-repeat", "graph input 'positions'"),
    ("loop_body", "may-repeat", "Expand 'row_index' copies values to many places"),
    ("circular_cache", "unique", "Unique by construction"),
    ("ov_mean", "may-repeat", "parameter 'indices'"),
])
def test_sample_verdicts(key, verdict, origin):
    if key == "ov_mean":
        pytest.importorskip("openvino")
    node = sm.open_model(sample_path(key)).nodes[0]
    assert node.index_verdict == verdict
    assert origin in node.index_proof


def _ir(tmp_path, build):
    ov = pytest.importorskip("openvino")
    model = build(ov, __import__("openvino.opset12", fromlist=["x"]))
    xml = tmp_path / "m.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return sm.open_model(xml)


def test_ir_kv_cache_arange_plus_position_is_unique(tmp_path):
    def build(ov, ops):
        cache = ops.parameter([2, 8, 4], np.float32, name="cache")
        new = ops.parameter([2, 2, 4], np.float32, name="new")
        pos = ops.parameter([], np.int64, name="cache_position")
        steps = ops.range(ops.constant(np.int64(0)), ops.constant(np.int64(2)), ops.constant(np.int64(1)),
                          output_type="i64", name="arange")
        at = ops.add(steps, pos, name="shift_by_position")
        node = ops.scatter_update(cache, at, new, ops.constant(np.int64(1)), name="kv_write")
        return ov.Model([node], [cache, new, pos], "kv")

    node = _ir(tmp_path, build).nodes[0]
    assert node.index_verdict == "unique", node.index_proof
    assert "Range 'arange'" in node.index_proof and "parameter 'cache_position'" in node.index_proof


def test_ir_indices_from_a_parameter_of_several_values_may_repeat(tmp_path):
    def build(ov, ops):
        cache = ops.parameter([2, 8, 4], np.float32, name="cache")
        new = ops.parameter([2, 2, 4], np.float32, name="new")
        at = ops.parameter([2], np.int64, name="write_at")
        node = ops.scatter_update(cache, at, new, ops.constant(np.int64(1)), name="kv_write")
        return ov.Model([node], [cache, new, at], "kv")

    node = _ir(tmp_path, build).nodes[0]
    assert node.index_verdict == "may-repeat"
    assert "parameter 'write_at'" in node.index_proof


def test_ir_constant_with_a_repeat_repeats(tmp_path):
    def build(ov, ops):
        data = ops.parameter([4, 3], np.float32, name="data")
        upd = ops.parameter([2, 3], np.float32, name="upd")
        node = ops.scatter_update(data, ops.constant(np.array([1, 1], dtype=np.int64), name="rows"), upd,
                                  ops.constant(np.int64(0)), name="rows_update")
        return ov.Model([node], [data, upd], "r")

    node = _ir(tmp_path, build).nodes[0]
    assert node.index_verdict == "repeats"
