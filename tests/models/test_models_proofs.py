"""ScatterNode.index_verdict / .index_proof: the static proof about repeated indices, on hand-built graphs."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

import scatter_models as sm
from scatter_models.samples import sample_path
from tests.support.skipping import skip_or_fail
h = onnx.helper
T = onnx.TensorProto



def _openvino():
    """OpenVINO, a required test dependency (the runtimes extra): skipped on a laptop without it, failed under CI."""
    try:
        import openvino
    except ImportError:
        skip_or_fail("openvino is not installed (the runtimes extra)")
    return openvino

def _const(name, values, dtype=np.int64):
    arr = np.asarray(values, dtype=dtype)
    return h.make_node("Constant", [], [name], name=name, value=onnx.numpy_helper.from_array(arr, name + "_v"))


def _open(nodes, inputs, outputs, opset=18, initializers=(), value_info=()):
    graph = h.make_graph(nodes, "g", [h.make_tensor_value_info(*i) for i in inputs],
                         [h.make_tensor_value_info(*o) for o in outputs], initializer=list(initializers),
                         value_info=[h.make_tensor_value_info(*v) for v in value_info])
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
        _openvino()
    node = sm.open_model(sample_path(key)).nodes[0]
    assert node.index_verdict == verdict
    assert origin in node.index_proof


def _ir(tmp_path, build):
    ov = _openvino()
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


def test_ir_index_copy_broadcast_of_arange_plus_first_position_is_unique(tmp_path):
    """convert_model's index_copy_ on a static cache: ScatterElementsUpdate on axis 2 whose indices are
    Broadcast(arange(L) + cache_position[0:1]) mapped to axis 2 alone: every line along the axis holds them once."""
    def build(ov, ops):
        cache = ops.parameter([1, 2, 8, 4], np.float32, name="cache")
        new = ops.parameter([1, 2, -1, 4], np.float32, name="new")
        position = ops.parameter([-1], np.int64, name="cache_position")
        first = ops.slice(position, ops.constant(np.array([0])), ops.constant(np.array([1])),
                          ops.constant(np.array([1])), name="first_position")
        length = ops.gather(ops.shape_of(new), ops.constant(np.int64(2)), ops.constant(np.int64(0)))
        steps = ops.range(ops.constant(np.int64(0)), length, ops.constant(np.int64(1)), output_type="i64",
                          name="arange")
        at = ops.add(steps, first, name="positions")
        spread = ops.broadcast(at, ops.shape_of(new), ops.constant(np.array([2])), "explicit", name="spread")
        node = ops.scatter_elements_update(cache, spread, new, ops.constant(np.int64(2)), name="index_copy")
        return ov.Model([node], [cache, new, position], "kv")

    node = _ir(tmp_path, build).nodes[0]
    assert node.index_verdict == "unique", node.index_proof
    for part in ("Broadcast 'spread' copies Add 'positions' along the other axes only", "axis 2",
                 "Slice 'first_position', one element", "Range 'arange'"):
        assert part in node.index_proof, (part, node.index_proof)


def test_expand_that_copies_along_the_scatter_axis_may_repeat():
    """The same arange spread along the scatter axis itself puts one value many times on a line."""
    nodes = [_const("zero", 0), _const("four", 4), _const("one", 1), _const("shape", [4, 4]),
             _const("col", [-1, 1]),
             h.make_node("Range", ["zero", "four", "one"], ["steps"], name="arange"),
             h.make_node("Reshape", ["steps", "col"], ["steps_col"], name="as_column"),
             h.make_node("Expand", ["steps_col", "shape"], ["idx"], name="spread"),
             h.make_node("ScatterElements", ["data", "idx", "upd"], ["out"], name="along_rows", axis=1)]
    m = _open(nodes, [("data", T.FLOAT, [4, 4]), ("upd", T.FLOAT, [4, 4])], [("out", T.FLOAT, [4, 4])])
    assert m.node("along_rows").index_verdict == "may-repeat"
    nodes[-1] = h.make_node("ScatterElements", ["data", "idx", "upd"], ["out"], name="along_columns", axis=0)
    m = _open(nodes, [("data", T.FLOAT, [4, 4]), ("upd", T.FLOAT, [4, 4])], [("out", T.FLOAT, [4, 4])])
    node = m.node("along_columns")
    assert node.index_verdict == "unique", node.index_proof
    assert "Expand 'spread' copies Reshape 'as_column' along the other axes only" in node.index_proof


@pytest.mark.parametrize("steps_dim, verdict", [("boxes", "unique"), ("other", "may-repeat")])
def test_an_expand_to_its_own_shape_copies_nothing(steps_dim, verdict):
    """out[labels, arange(n)] = v: the arange is expanded to Max(Shape(labels), Shape(arange)), the same shape (the
    exporter records the arange's length as the labels' symbolic dim, as torch.onnx does)."""
    nodes = [_const("zero", 0), _const("one", 1), _const("last", [-1]),
             h.make_node("Shape", ["labels"], ["n_vec"], name="n_vec"),
             h.make_node("Squeeze", ["n_vec"], ["n"], name="n"),
             h.make_node("Range", ["zero", "n", "one"], ["steps"], name="arange"),
             h.make_node("Shape", ["labels"], ["s1"], name="s1"), h.make_node("Shape", ["steps"], ["s2"], name="s2"),
             h.make_node("Max", ["s1", "s2"], ["target"], name="target"),
             h.make_node("Expand", ["steps", "target"], ["cols"], name="cols"),
             h.make_node("Unsqueeze", ["labels", "last"], ["rows_t"], name="rows_t"),
             h.make_node("Unsqueeze", ["cols", "last"], ["cols_t"], name="cols_t"),
             h.make_node("Concat", ["rows_t", "cols_t"], ["idx"], name="pairs", axis=-1),
             h.make_node("ScatterND", ["data", "idx", "upd"], ["out"], name="put")]
    m = _open(nodes, [("data", T.FLOAT, [3, "boxes"]), ("labels", T.INT64, ["boxes"]),
                      ("upd", T.FLOAT, ["boxes"])], [("out", T.FLOAT, [3, "boxes"])],
              value_info=[("steps", T.INT64, [steps_dim])])
    node = m.node("put")
    assert node.index_verdict == verdict, node.index_proof
    assert ("Expand 'cols' broadcasts to its source's own shape, copying nothing" in node.index_proof) == \
        (verdict == "unique")


def test_empty_coordinate_tuples_are_never_proved_unique():
    """ScatterND with k = 0: each empty tuple names the whole tensor, so two updates always meet."""
    nodes = [_const("zero", 0), _const("one", 1), _const("shape", [2, 0]),
             h.make_node("Range", ["zero", "zero", "one"], ["steps"], name="arange"),  # no values: reshaped to 2×0
             h.make_node("Reshape", ["steps", "shape"], ["idx"], name="as_empty", allowzero=1),
             h.make_node("ScatterND", ["data", "idx", "upd"], ["out"], name="whole")]
    m = _open(nodes, [("data", T.FLOAT, [3]), ("upd", T.FLOAT, [2, 3])], [("out", T.FLOAT, [3])])
    node = m.node("whole")
    assert node.index_verdict == "may-repeat" and "empty coordinate tuples" in node.index_proof


def test_constant_indices_of_unknown_shapes_are_judged_by_what_each_write_addresses():
    """Data of a symbolic shape: scatter_core cannot check the constant against the shapes, so the proof reads it
    as the family does: an index per update repeats only on one line along the axis; coordinate tuples as rows."""
    def verdict(op, values, **attrs):
        init = onnx.numpy_helper.from_array(np.asarray(values, dtype=np.int64), "idx")
        m = _open([h.make_node(op, ["data", "idx", "upd"], ["out"], name="n", **attrs)],
                  [("data", T.FLOAT, ["rows", "cols"]), ("upd", T.FLOAT, list(np.shape(values))[:1] + [2]
                    if op == "ScatterND" else list(np.shape(values)))], [("out", T.FLOAT, ["rows", "cols"])],
                  initializers=[init])
        node = m.node("n")
        assert "checked at capture" in " ".join(f.short for f in node.findings)  # scatter_core could not check it
        return node.index_verdict

    assert verdict("ScatterElements", [[1, 0], [1, 3]], axis=1) == "unique"  # 1 twice, on different lines
    assert verdict("ScatterElements", [[1, 0], [1, 3]], axis=0) == "repeats"  # 1 twice on column 0
    assert verdict("ScatterND", [[0], [0]]) == "repeats"
    assert verdict("ScatterND", [[0, 1], [0, 2]]) == "unique"  # 0 twice, but the tuples differ


@pytest.mark.parametrize("key", ["kv_cache", "circular_cache", "index_put", "scatter_amax", "loop_body", "ov_mean"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_node_proved_unique_never_repeats_in_a_capture(key, seed):
    if key == "ov_mean":
        _openvino()
    model = sm.open_model(sample_path(key))
    cap = model.capture(seed=seed, runtime="reference")
    for name, rec in cap.items():
        if model.node(name).index_verdict == "unique":
            assert rec.case.trace().duplicate_groups().size == 0, (key, name)
