"""scatter_models on bad files and hostile models: each gets a ModelError naming the file and the rule."""

from __future__ import annotations

import numpy as np
import pytest

import scatter_models as sm
from scatter_models.samples import sample_path
from tests.support.model_builders import graph_model, value_infos, scatter_nd_node


def test_empty_file(tmp_path):
    path = tmp_path / "empty.onnx"
    path.write_bytes(b"")
    with pytest.raises(sm.ModelError) as info:
        sm.open_model(path)
    assert info.value.rule == "empty" and "empty.onnx" in str(info.value)
    with pytest.raises(sm.ModelError, match="empty"):
        sm.open_model(b"")


def test_truncated_file():
    data = sample_path("kv_cache").read_bytes()
    with pytest.raises(sm.ModelError) as info:
        sm.open_model(data[: len(data) // 2], name="cut.onnx")
    assert info.value.rule == "not-onnx" and "cut.onnx" in str(info.value)


@pytest.mark.parametrize("payload", [b"hello world, not a model", b"\x89PNG\r\n\x1a\n" + bytes(range(200)),
                                     bytes(1000)])
def test_non_onnx_files(payload):
    with pytest.raises(sm.ModelError) as info:
        sm.open_model(payload)
    assert info.value.rule in ("not-onnx", "empty", "not-ir")


def test_size_limit_is_stated_and_configurable(tmp_path, monkeypatch):
    path = sample_path("kv_cache")
    with pytest.raises(sm.ModelError) as info:
        sm.open_model(path, max_bytes=100)
    assert info.value.rule == "size-limit" and "100 bytes" in str(info.value)
    monkeypatch.setenv("SCATTER_MODELS_MAX_BYTES", "200")
    assert sm.max_model_bytes() == 200
    with pytest.raises(sm.ModelError, match="SCATTER_MODELS_MAX_BYTES"):
        sm.open_model(path.read_bytes())
    assert sm.open_model(path, max_bytes=10_000).nodes


def test_external_data_is_refused_without_opening_the_path(tmp_path):
    from onnx import TensorProto, helper as h, numpy_helper

    t = numpy_helper.from_array(np.zeros(4, np.float32), "weights")
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    secret = tmp_path / "secret.bin"
    t.external_data.add(key="location", value=str(secret))
    model = graph_model([scatter_nd_node(data="weights")], value_infos()[1:], [h.make_tensor_value_info("o", 1, [4])], [t])
    with pytest.raises(sm.ModelError) as info:
        sm.open_model(model.SerializeToString())
    text = str(info.value)
    assert info.value.rule == "external-data" and "'weights'" in text and str(secret) in text
    assert "onnx.save" in text and "save_as_external_data=False" in text
    assert not secret.exists()


def test_custom_op_lists_scatter_nodes_but_capture_names_op_and_domain():
    from onnx import helper as h

    custom = h.make_node("FancyNorm", ["o"], ["y"], name="fancy", domain="com.example")
    model = graph_model([scatter_nd_node(), custom], value_infos(), [h.make_tensor_value_info("y", 1, [4])])
    model.opset_import.append(h.make_opsetid("com.example", 1))
    m = sm.open_model(model.SerializeToString())
    assert [n.op for n in m.nodes] == ["ScatterND-18"]
    with pytest.raises(sm.ModelError) as info:
        m.capture()
    assert "FancyNorm" in str(info.value) and "com.example" in str(info.value)


def test_huge_symbolic_dims_are_refused_before_running():
    m = sm.open_model(sample_path("kv_cache"))
    need, unknown = sm.estimate_bytes(m, {"max_seq": 10 ** 9})
    assert need > 10 ** 10 and not unknown
    with pytest.raises(sm.ModelError) as info:
        m.capture(dims={"max_seq": 10 ** 9})
    assert info.value.rule == "byte-budget" and "budget" in str(info.value)


def test_huge_declared_shape_is_refused_before_running():
    from onnx import TensorProto as T, helper as h

    inputs = [h.make_tensor_value_info("d", T.FLOAT, [100000, 100000]),
              h.make_tensor_value_info("i", T.INT64, [1, 1]), h.make_tensor_value_info("u", T.FLOAT, [100000])]
    model = graph_model([scatter_nd_node()], inputs, [h.make_tensor_value_info("o", T.FLOAT, [100000, 100000])])
    m = sm.open_model(model.SerializeToString())
    with pytest.raises(sm.ModelError, match="capture budget"):
        m.capture()


def test_markdown_html_and_control_names_are_kept_as_text():
    from onnx import helper as h

    name = "**bold** <script>alert(1)</script>\x07 [x](javascript:1)"
    model = graph_model([scatter_nd_node(name=name)], value_infos(), [h.make_tensor_value_info("o", 1, [4])])
    m = sm.open_model(model.SerializeToString())
    assert m.nodes[0].name == name
    assert name in m.capture()


def test_unnamed_and_repeated_names_get_stable_generated_keys():
    from onnx import helper as h

    nodes = [scatter_nd_node(name="", out="o1"), scatter_nd_node(name="same", out="o2"), scatter_nd_node(name="same", out="o3"),
             scatter_nd_node(name="", out="o4"), scatter_nd_node(name="ScatterND#1", out="o5")]
    outs = [h.make_tensor_value_info(f"o{k}", 1, [4]) for k in range(1, 6)]
    data = graph_model(nodes, value_infos(), outs).SerializeToString()
    keys = [n.name for n in sm.open_model(data).nodes]
    assert keys == [n.name for n in sm.open_model(data).nodes]  # stable
    assert len(set(keys)) == 5 and "ScatterND#1" in keys and "same#1" in keys and "same#2" in keys
    cap = sm.open_model(data).capture()
    assert set(cap) == set(keys)


def test_ten_thousand_nodes_are_listed():
    from onnx import helper as h

    n = 10_000
    nodes = [scatter_nd_node(name=f"s{k}", out=f"t{k}", data="d" if k == 0 else f"t{k - 1}") for k in range(n)]
    model = graph_model(nodes, value_infos(), [h.make_tensor_value_info(f"t{n - 1}", 1, [4])])
    m = sm.open_model(model.SerializeToString())
    assert len(m.nodes) == n and m.nodes[-1].name == f"s{n - 1}" and m.nodes[-1].op == "ScatterND-18"


def test_time_limit_is_named():
    from onnx import TensorProto as T, helper as h

    body = h.make_graph([h.make_node("Identity", ["c"], ["c2"]), h.make_node("Identity", ["v"], ["v2"])], "b",
                        [h.make_tensor_value_info("it", T.INT64, []), h.make_tensor_value_info("c", T.BOOL, []),
                         h.make_tensor_value_info("v", T.FLOAT, [4])],
                        [h.make_tensor_value_info("c2", T.BOOL, []), h.make_tensor_value_info("v2", T.FLOAT, [4])])
    nodes = [h.make_node("Constant", [], ["m"], value=h.make_tensor("m", T.INT64, [], [10 ** 9])),
             h.make_node("Constant", [], ["t"], value=h.make_tensor("t", T.BOOL, [], [True])),
             h.make_node("Loop", ["m", "t", "d"], ["dl"], body=body), scatter_nd_node(data="dl")]
    m = sm.open_model(graph_model(nodes, value_infos(), [h.make_tensor_value_info("o", T.FLOAT, [4])]).SerializeToString())
    with pytest.raises(sm.ModelError) as info:
        m.capture(time_limit=3)
    assert info.value.rule == "time-limit" and "3 s" in str(info.value)


def test_memory_limit_is_named():
    from onnx import TensorProto as T, helper as h

    nodes = [h.make_node("Constant", [], ["shape"], value=h.make_tensor("s", T.INT64, [2], [12000, 12000])),
             h.make_node("ConstantOfShape", ["shape"], ["big"]),
             h.make_node("ReduceSum", ["big"], ["total"], keepdims=0),
             scatter_nd_node()]
    outs = [h.make_tensor_value_info("o", T.FLOAT, [4]), h.make_tensor_value_info("total", T.FLOAT, [])]
    m = sm.open_model(graph_model(nodes, value_infos(), outs).SerializeToString())
    with pytest.raises(sm.ModelError) as info:
        m.capture(memory_limit=400 * 2 ** 20, time_limit=60)
    assert info.value.rule == "memory-limit" and "400 MiB" in str(info.value)


def test_ir_hostile_files(tmp_path):
    xml = b'<?xml version="1.0"?><!DOCTYPE net [<!ENTITY a "aaaa">]><net><layers/></net>'
    with pytest.raises(sm.ModelError) as info:
        sm.open_model(xml, weights=b"")
    assert info.value.rule == "not-ir"
    with pytest.raises(sm.ModelError, match="not an OpenVINO IR"):
        sm.open_model(b"<?xml version='1.0'?><html><body/></html>", weights=b"")
    lonely = tmp_path / "m.xml"
    lonely.write_bytes(sample_path("ov_mean").read_bytes())
    with pytest.raises(sm.ModelError) as info:
        sm.open_model(lonely)
    assert info.value.rule == "missing-weights" and "m.bin" in str(info.value)


def test_not_a_path_or_bytes():
    with pytest.raises(sm.ModelError, match="path or the bytes"):
        sm.open_model(12)
    with pytest.raises(sm.ModelError, match="cannot be read"):
        sm.open_model("/nonexistent/model.onnx")


def test_big_initializers_are_not_model_inputs():
    from onnx import TensorProto as T, helper as h, numpy_helper

    weights = numpy_helper.from_array(np.ones((64, 64), np.float32), "W")  # over infer's BIG_INITIALIZER
    nodes = [h.make_node("MatMul", ["x", "W"], ["d"]), scatter_nd_node()]
    inputs = [h.make_tensor_value_info("x", T.FLOAT, [1, 64])] + value_infos()[1:]
    model = graph_model(nodes, inputs, [h.make_tensor_value_info("o", T.FLOAT, [1, 64])], [weights])
    m = sm.open_model(model.SerializeToString())
    assert [i.name for i in m.inputs] == ["x", "i", "u"]
    assert m.nodes[0].shapes["data"] == (1, 64)
