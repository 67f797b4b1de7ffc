"""Models written by real exporters (tests/data/real_models/, made by scripts/make_real_models.py; torch and
transformers are not needed here): each runs on its first default capture, every captured scatter tensor equals
an independent capture (the node's tensors exposed by hand and run again), and every output equals the plain
spec loop of tests/support/reference_loop.py on the captured inputs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import scatter_core as sc
import scatter_models as sm
from scatter_models import draws
from tests.support.skipping import require_or_skip
from tests.support.reference_loop import reference

HERE = Path(__file__).resolve().parents[1] / "data" / "real_models"
ONNX_MODELS = ["llama_decode_static_cache", "qwen2_decode_static_cache", "pyg_sage_graphconv", "gnn_max_sum",
               "scripted_loop", "torch_cond", "masked_postprocess"]
IR_MODELS = ["ov_gnn_max_sum", "ov_llama_decode"]
MAX_FILE = 400 * 1024


def _path(name: str) -> Path:
    return HERE / (f"{name}.xml" if name.startswith("ov_") else f"{name}.onnx")


@pytest.fixture(scope="module")
def captures():
    """name -> (model, its first default capture), made once for the module."""
    out = {}
    for name in ONNX_MODELS + IR_MODELS:
        if name.startswith("ov_"):
            require_or_skip("openvino")
        model = sm.open_model(_path(name))
        out[name] = (model, model.capture())
    return out


def test_the_stored_models_are_small_and_say_how_they_were_made():
    versions = (HERE / "VERSIONS.txt").read_text(encoding="utf-8")
    assert "torch 2.13.0" in versions and "transformers " in versions and "openvino " in versions
    assert "torch_geometric " in versions
    for name in ONNX_MODELS + IR_MODELS:
        size = _path(name).stat().st_size + (_path(name).with_suffix(".bin").stat().st_size
                                             if name.startswith("ov_") else 0)
        assert 0 < size <= MAX_FILE, (name, size)


@pytest.mark.parametrize("name", ONNX_MODELS + IR_MODELS)
def test_each_real_model_runs_on_its_first_default_capture(captures, name):
    model, cap = captures[name]
    assert len(cap) >= 1, (name, cap.missing)
    assert set(cap) | set(cap.missing) == {n.name for n in model.nodes}


def _reference_of(rec) -> np.ndarray:
    case = rec.case
    data, indices, updates = case.given()
    attrs = dict(case.attrs)
    return reference(case.op, data, indices, updates, **attrs)


@pytest.mark.parametrize("name", ONNX_MODELS + IR_MODELS)
def test_every_captured_output_equals_the_spec_loop_on_its_captured_inputs(captures, name):
    _, cap = captures[name]
    for node_name, rec in cap.items():
        want = _reference_of(rec)
        np.testing.assert_array_equal(rec.output, want, err_msg=f"{name} {node_name}")
        np.testing.assert_array_equal(rec.exact, want, err_msg=f"{name} {node_name} (scatter_core)")


def _exposed_onnx(path: Path, node, feeds) -> dict:
    import onnx
    from onnx.reference import ReferenceEvaluator

    proto = onnx.load(str(path))
    found = next(n for n in proto.graph.node if n.name == node.original_name)
    names = list(found.input) + [found.output[0]]
    outputs = {o.name for o in proto.graph.output}
    proto.graph.output.extend(onnx.ValueInfoProto(name=n) for n in names if n and n not in outputs)
    evaluator = ReferenceEvaluator(proto)
    values = dict(zip(evaluator.output_names, evaluator.run(None, feeds)))
    return {pos: values[n] for pos, n in enumerate(names[:-1]) if n} | {"out": values[names[-1]]}


def _exposed_ir(path: Path, node, feeds) -> dict:
    """The node's inputs from a model cut just before it (so no kernel can write into them), its output from a
    model ending at it (an output added to the whole model was read back from the wrong port), both on OpenVINO CPU."""
    import openvino as ov

    core = ov.Core()
    model = core.read_model(str(path))
    op = next(o for o in model.get_ordered_ops() if o.get_friendly_name() == node.original_name)
    sources = [op.input(i).get_source_output() for i in range(op.get_input_size())]
    before = ov.Model([ov.opset13.result(s) for s in sources], model.get_parameters(), "before")
    used = {p.get_friendly_name() for p in before.get_parameters()}
    values = list(core.compile_model(before, "CPU")({k: v for k, v in feeds.items() if k in used}).values())
    through = ov.Model([ov.opset13.result(op.output(0))], model.get_parameters(), "through")
    used = {p.get_friendly_name() for p in through.get_parameters()}
    out = np.asarray(next(iter(core.compile_model(through, "CPU")({k: v for k, v in feeds.items() if k in used}).values())))
    return {k: np.asarray(v) for k, v in enumerate(values)} | {"out": out}


@pytest.mark.parametrize("name", ["llama_decode_static_cache", "qwen2_decode_static_cache", "pyg_sage_graphconv",
                                  "gnn_max_sum", "masked_postprocess"] + IR_MODELS)
def test_every_captured_tensor_equals_an_independent_capture(captures, name):
    require_or_skip("onnx.reference" if not name.startswith("ov_") else "openvino")
    model, cap = captures[name]
    for node_name, rec in cap.items():
        node = model.node(node_name)
        expose = _exposed_ir if name.startswith("ov_") else _exposed_onnx
        values = expose(_path(name), node, cap.feeds)
        spec = sc.get_spec(node.op)
        given = dict(zip(("data", "indices", "updates"), rec.case.given()))
        for pos, inp in enumerate(spec.inputs):
            if pos in values:
                np.testing.assert_array_equal(given[inp.role], values[pos], err_msg=f"{name} {node_name} {inp.role}")
        if not name.startswith("ov_") or rec.output_source.startswith("OpenVINO CPU"):
            np.testing.assert_array_equal(rec.output, values["out"], err_msg=f"{name} {node_name} output")


# -- what the draws derived, on the real models -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["gnn_max_sum", "pyg_sage_graphconv"])
def test_a_gnn_batch_is_drawn_sorted_inside_the_pooled_graphs_and_its_edges_inside_the_nodes(captures, name):
    model, cap = captures[name]
    batch, edges = cap.feeds["batch"], cap.feeds["edge_index"]
    assert np.all(np.diff(batch) >= 0) and batch.min() >= 0 and batch.max() < 2
    assert edges.min() >= 0 and edges.max() < cap.dims["num_nodes"]
    words = " ".join(sm.explained_draws(model, cap.dims))
    assert "batch: drawn sorted, in [0, 2)" in words and "ScatterElements" in words
    # the plain draw, [0, 4), broke it: a pooled table has 2 rows
    plain = dict(cap.feeds, batch=np.array([0, 1, 2, 3]))
    with pytest.raises(sm.ModelError, match="out of range"):
        model.capture(plain)


@pytest.mark.parametrize("name", ["llama_decode_static_cache", "qwen2_decode_static_cache"])
def test_a_cache_position_is_a_contiguous_run_inside_the_cache(captures, name):
    model, cap = captures[name]
    d = draws.derive(model)["cache_position"]
    assert d.kind == "run" and d.bound(cap.dims) == 8
    for seed in range(6):
        pos = model.capture(seed=seed).feeds["cache_position"]
        assert 0 <= pos.min() and pos.max() < 8 and np.array_equal(np.diff(pos), np.ones(pos.size - 1))
    words = " ".join(sm.explained_draws(model, cap.dims))
    assert "cache_position: drawn as a contiguous run inside [0, 8)" in words


def test_a_loop_trip_count_is_drawn_from_one_so_the_body_runs(captures):
    model, cap = captures["scripted_loop"]
    assert cap.feeds["steps"] >= 1 and len(cap) == 1
    assert "steps: drawn from 1 to 4, as it is the trip count of Loop" in " ".join(sm.explained_draws(model, {}))


def test_an_ir_gets_dims_it_accepts_and_a_refused_size_names_the_dim(captures):
    require_or_skip("openvino")
    model, cap = captures["ov_llama_decode"]
    assert len(model.symbolic_dims) == 11
    assert cap.dims["input_ids[1]"] == 1 and cap.dims["past_key[2]"] == 8 and cap.dims["past_key[3]"] == 8
    with pytest.raises(sm.ModelError) as info:
        model.capture(dims={"input_ids[1]": 4, "cache_position[0]": 4}, runtime="openvino")
    assert "input_ids[1] = 4 (accepted: 1)" in str(info.value)


def test_the_page_says_what_it_derived_and_the_sizes_an_ir_accepts():
    require_or_skip("openvino")
    from tests.support.apptest_helpers import app_on

    at = app_on("app_pages/model.py")
    at.run()
    files = [(p.name, p.read_bytes(), "application/octet-stream")
             for p in (_path("ov_llama_decode"), _path("ov_llama_decode").with_suffix(".bin"))]
    at.sidebar.file_uploader(key="model:upload").set_value(files).run()
    assert not at.exception and not at.error
    box = at.sidebar.number_input(key="model:dim:past_key[2]")
    assert box.value is None and box.proto.placeholder == "8 (a size the model accepts)"
    assert at.sidebar.number_input(key="model:dim:input_ids[1]").proto.placeholder == "1 (a size the model accepts)"
    words = " ".join(m.value for m in at.markdown).replace("\\", "")
    assert "cache_position: drawn as a contiguous run inside [0, 8)" in words, words[-2000:]
    at.button(key="model:capture").click().run()
    assert not at.exception and not at.error
    captions = " ".join(c.value for c in at.caption).replace("\\", "")
    assert "input_ids[1]=1" in captions and "past_key[2]=8" in captions


def test_an_irs_given_inputs_fix_their_dims_and_the_dims_the_graph_ties_to_them(captures):
    require_or_skip("openvino")
    model, _ = captures["ov_llama_decode"]
    cache = np.zeros((2, 1, 8, 8), np.float32)
    cap = model.capture({"past_key": cache, "past_value": cache})
    assert cap.dims["past_key[0]"] == 2 and cap.dims["input_ids[0]"] == 2  # the batch, tied by the graph
    assert cap.feeds["input_ids"].shape == (2, 1) and len(cap) == 2
