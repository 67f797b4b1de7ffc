"""The "Your model" page in AppTest: a sample opens, lists its node, captures; errors are messages."""

from __future__ import annotations

import pytest
import numpy as np

from scatter_ui.pages import model as model_page
from tests.support.apptest_helpers import app_on, figures
from tests.support.apptest_models import PAGE, model_page_with

pytestmark = pytest.mark.slow  # AppTest runs of Your model with real captures: the full suite runs them, the fast loop does not


def _open(sample: str | None = None):
    at = app_on(PAGE)
    if sample:
        at.query_params["sample"] = sample
    at.run()
    assert not at.exception
    return at


def test_page_without_a_model_says_what_to_do():
    at = _open()
    assert any("Upload a model" in i.value for i in at.info)


def test_sample_lists_node_with_symbolic_dim_field_and_captures():
    at = _open("kv_cache")
    table = at.dataframe[0].value
    assert list(table["node"]) == ["kv_write"] and list(table["operator"]) == ["ScatterND-18"]
    box = at.sidebar.number_input(key="model:dim:max_seq")
    assert box.value is None and box.proto.placeholder == "4 (default)"  # empty: the default, said in the box
    at.sidebar.number_input(key="model:dim:max_seq").set_value(6).run()
    at.button(key="model:capture").click().run()
    assert not at.exception and not at.error
    assert any("matches ScatterND-18" in s.value for s in at.success)
    figs = figures(at)
    assert len(figs) == 1 and figs[0]["n"] == 2  # two heads, one write each
    captions = " ".join(c.value for c in at.caption)
    # the runtime by its name, then its version; each symbolic dim as name=value (not a dict's repr)
    # the deployed runtime by default: onnxruntime for an ONNX model it reads
    assert "captured on onnxruntime (" in captions and "default) (" not in captions
    assert "dims max\\_seq=6." in captions


def test_invalid_draw_is_an_error_message_naming_the_node():
    at = _open("kv_cache")
    at.sidebar.number_input(key="model:dim:max_seq").set_value(0).run()
    at.button(key="model:capture").click().run()
    assert not at.exception
    assert any("kv\\_write" in e.value and "cannot run on these inputs" in e.value for e in at.error)


def test_a_failed_capture_is_not_followed_by_press_capture_to_open_the_linked_node():
    at = app_on(PAGE)
    at.query_params["sample"] = "kv_cache"
    at.query_params["node"] = "kv_write"
    at.run()
    assert any("The link names node kv\\_write: press Capture" in i.value for i in at.info)  # before a capture
    at.sidebar.number_input(key="model:dim:max_seq").set_value(0).run()
    at.button(key="model:capture").click().run()
    assert not at.exception and any("cannot run on these inputs" in e.value for e in at.error)
    assert not any("press Capture" in i.value for i in at.info)


def test_ir_sample_says_onnxruntime_cannot_run_it():
    at = _open("ov_mean")
    at.sidebar.selectbox(key="model:runtime").set_value("onnxruntime").run()
    assert any("cannot capture this model" in w.value for w in at.sidebar.warning)
    assert any("ONNX models only" in w.value for w in at.main.warning)
    assert at.button(key="model:capture").disabled


def test_tensor_scatter_on_openvino_names_the_node_and_the_runtimes_that_can_before_capture():
    at = _open("circular_cache")
    at.sidebar.selectbox(key="model:runtime").set_value("openvino").run()
    assert not at.exception
    text = next(w.value for w in at.main.warning if "TensorScatter-24" in w.value).replace("\\", "")
    assert "OpenVINO CPU cannot run TensorScatter-24, the operator of node 'cache_write'" in text
    assert "Choose onnx.reference or onnxruntime" in text
    assert at.button(key="model:capture").disabled


def test_loop_body_on_openvino_is_said_before_and_after_capture():
    at = _open("loop_body")
    at.sidebar.selectbox(key="model:runtime").set_value("openvino").run()
    assert not at.exception
    before = [i.value.replace("\\", "") for i in at.main.info if "will not capture" in i.value]
    assert len(before) == 1 and "'accumulate_row'" in before[0] and "onnx.reference" in before[0]
    assert not at.button(key="model:capture").disabled  # a note, not a refusal: the rest of a model still runs
    at.button(key="model:capture").click().run()
    assert not at.exception
    after = " ".join(i.value.replace("\\", "") for i in at.main.info)
    assert "cannot capture it: it is inside a subgraph" in after and "did not run" not in after


def test_loop_sample_shows_calls():
    at = _open("loop_body")
    at.button(key="model:capture").click().run()
    assert not at.exception
    assert any("ran 3 time(s)" in c.value for c in at.caption)


def test_a_lifted_loop_node_says_how_onnxruntime_ran_it_once_and_the_verdict_names_the_runtime():
    """The caption holds the long 'output from onnxruntime, running the whole model once, rewritten ...'; the
    comparison just below names the runtime, not that sentence again."""
    at = _open("loop_body")
    at.sidebar.selectbox(key="model:runtime").set_value("onnxruntime").run()
    at.button(key="model:capture").click().run()
    assert not at.exception
    captions = " ".join(c.value for c in at.caption)
    assert captions.count("rewritten so that") == 1
    verdict = next(s.value for s in at.success if "matches ScatterElements-18" in s.value)
    assert verdict.startswith("The output from onnxruntime matches") and "rewritten" not in verdict
    assert model_page.source_name("onnx.reference (the node is in a Loop body, whose tensors ...)") == "onnx.reference"


def test_a_captured_onnx_node_is_cross_run_on_openvino_cpu_through_its_onnx_frontend(monkeypatch):
    """The capture's runtime box and the captured node's cross-check name OpenVINO's CPU plugin reading the ONNX
    model (its ONNX frontend) for an ONNX node; the button names exactly the runtimes that run."""
    import runtime_check as rc
    from tests.support.apptest_helpers import open_expander, texts

    at = _open("scatter_amax")
    box = at.sidebar.selectbox(key="model:runtime")
    assert "OpenVINO CPU (ONNX frontend)" in box.options  # the options as shown
    monkeypatch.setattr(rc, "available", lambda: {r: "1.0" for r in rc.RUNTIMES})
    at.button(key="model:capture").click().run()
    assert not at.exception
    open_expander(at, "Cross-check against real runtimes")
    assert [b.label for b in at.button if b.label.startswith("Run on ")] == [
        "Run on onnxruntime / onnx.reference / openvino-onnx"]
    lines = texts(at).splitlines()
    assert any(c.startswith("Runs this case on onnxruntime, onnx.reference, openvino-onnx (OpenVINO CPU (ONNX "
                            "frontend))") for c in lines)


def test_names_are_shown_as_text():
    assert model_page.visible("a\x07b\nc") == "a\\x07b\\nc"
    from tests.support.model_builders import graph_model, value_infos, scatter_nd_node
    from onnx import helper as h
    import scatter_models as sm

    name = "**bold** <b>x</b>\x1b[31m"
    m = sm.open_model(graph_model([scatter_nd_node(name=name)], value_infos(), [h.make_tensor_value_info("o", 1, [4])])
                      .SerializeToString())
    row = model_page.node_rows(m, m.nodes)[0]
    assert row["node"] == "**bold** <b>x</b>\\x1b[31m"


def test_explorer_link_carries_typed_tensors():
    import scatter_models as sm
    from urllib.parse import parse_qs, urlparse

    rec = sm.open_model(sm.sample_path("scatter_amax")).capture(seed=1)["scatter_reduce_amax"]
    link = model_page.explorer_link(rec.case)
    q = parse_qs(urlparse(link).query)
    assert urlparse(link).path.endswith("/elements")
    assert q["op"] == ["ScatterElements-18"] and q["example"] == ["__custom__"] and q["reduction"] == ["max"]
    assert "dtype=float32" in q["data"][0] or "float32" in q["data"][0] or q["data"][0].startswith("array")
    assert np.array_equal(eval(q["indices"][0], {"array": np.array, "int64": np.int64}), rec.case.given()[1])  # noqa: S307 - test only


def test_huge_dims_warn_before_capture_and_the_capture_is_refused():
    at = _open("kv_cache")
    at.sidebar.number_input(key="model:dim:max_seq").set_value(10**9).run()
    assert any("over its budget" in w.value for w in at.warning)
    at.button(key="model:capture").click().run()
    assert not at.exception
    assert any("capture budget" in e.value for e in at.error)


def test_static_findings_are_listed_below_the_table_and_ir_runtimes_are_named():
    at = _open("ov_mean")
    assert at.dataframe[0].value["static findings"][0] == "OpenVINO CPU: an integer mean's rounding"
    assert any("Static findings of the nodes shown" in e.label for e in at.expander)
    text = next(m.value for m in at.markdown if "truncat" in m.value)
    # the runtime named as a user knows it, the source in words, a link to the operator's runtime facts
    assert "**Warning**: OpenVINO 2026.4.1 CPU plugin: divides an integer sum" in text.replace("\\", "")
    assert "Source: this project's test test_differential::" in text.replace("\\", "")
    assert "(spec-update?tab=Runtimes)" in text or "(spec-elements" in text
    for internal in ("openvino-cpu", "runtime-fact:", "semantics.md]", "[observed"):
        assert internal not in text, internal
    options = at.sidebar.selectbox(key="model:runtime").options
    assert options[0].startswith("OpenVINO reference kernels")


@pytest.mark.slow
def test_ten_thousand_nodes_page_and_filter():
    from onnx import helper as h

    import scatter_models as sm
    from tests.support.model_builders import graph_model, value_infos, scatter_nd_node

    n = 10_000
    nodes = [scatter_nd_node(name=f"s{k}", out=f"t{k}", data="d" if k == 0 else f"t{k - 1}") for k in range(n)]
    m = sm.open_model(graph_model(nodes, value_infos(), [h.make_tensor_value_info(f"t{n - 1}", 1, [4])])
                      .SerializeToString())
    at = model_page_with(m)
    assert len(at.dataframe[0].value) == model_page.PAGE_SIZE
    assert any("10,000 of 10,000 scatter nodes, page 1 of 200" in c.value for c in at.caption)
    at.number_input(key="model:page").set_value(200).run()
    assert list(at.dataframe[0].value["node"])[-1] == "s9999"
    at.text_input(key="model:filter").set_value("s9999").run()
    assert list(at.dataframe[0].value["node"]) == ["s9999"]


def test_hostile_node_name_is_escaped_in_the_page():
    from onnx import helper as h

    import scatter_models as sm
    from tests.support.model_builders import graph_model, value_infos, scatter_nd_node

    name = "**bold** <img src=x onerror=alert(1)> [link](javascript:alert(1))"
    m = sm.open_model(graph_model([scatter_nd_node(name=name)], value_infos(), [h.make_tensor_value_info("o", 1, [4])])
                      .SerializeToString())
    at = model_page_with(m)
    at.button(key="model:capture").click().run()
    assert not at.exception
    heading = next(md.value for md in at.markdown if md.value.startswith("### "))
    assert "\\*\\*bold\\*\\*" in heading and "\\[link\\]" in heading and "\\<img" in heading


def test_server_holds_tensors_only_of_the_nodes_opened():
    from onnx import helper as h

    import scatter_models as sm
    from scatter_ui.state import cache
    from tests.support.model_builders import graph_model, value_infos, scatter_nd_node

    nodes = [scatter_nd_node(name=f"n{j}", out=f"o{j}") for j in range(3)]
    m = sm.open_model(graph_model(nodes, value_infos(), [h.make_tensor_value_info(f"o{j}", 1, [4]) for j in range(3)])
                      .SerializeToString())

    def held():
        return sorted(key[2] for key in cache.STORE.keys()
                      if key[0] == model_page.node_capture.cache_name and key[1][0] == m.digest)

    at = model_page_with(m)
    at.button(key="model:capture").click().run()
    assert not at.exception and held() == ["n0"]
    summary = at.session_state["model:summary"]
    assert summary.names == ("n0", "n1", "n2")
    assert not any(isinstance(v, np.ndarray) for v in vars(summary).values())  # the session keeps no tensors
    at.selectbox(key="model:open").set_value("n2").run()
    assert not at.exception and held() == ["n0", "n2"]
    assert any("n2 · ScatterND-18" in md.value for md in at.markdown)


@pytest.mark.slow
def test_the_url_names_the_sample_and_the_open_node_and_a_new_session_reopens_it():
    """After a failover the page runs in a new session on another replica: the URL is all it has."""
    at = _open("scatter_amax")
    assert at.query_params["sample"] == "scatter_amax" and "node" not in at.query_params
    at.button(key="model:capture").click().run()
    assert not at.exception
    assert at.query_params["node"] == "scatter_reduce_amax"
    # a new session with that link: the sample opens, the node is named, and the capture reopens it
    again = app_on(PAGE)
    again.query_params.update({"sample": "scatter_amax", "node": "scatter_reduce_amax"})
    again.run()
    assert not again.exception
    assert any("press Capture" in i.value and "scatter_reduce_amax" in i.value.replace("\\", "") for i in again.info)
    again.button(key="model:capture").click().run()
    assert again.selectbox(key="model:open").value == "scatter_reduce_amax"
    # a node the model does not have is said, and dropped from the address bar
    other = app_on(PAGE)
    other.query_params.update({"sample": "scatter_amax", "node": "no_such_node"})
    other.run()
    assert any("does not have" in i.value for i in other.info) and "node" not in other.query_params


def test_an_upload_this_server_does_not_hold_asks_for_the_file_again():
    """The URL names an upload (file and digest) that is not in this session: the replica that held it is gone.
    The page says so plainly and asks for the file, instead of a blank page."""
    at = app_on(PAGE)
    at.query_params.update({"upload": "decoder<b>.onnx", "model": "0123456789abcdef", "node": "kv_write"})
    at.run()
    assert not at.exception
    text = at.warning[0].value
    assert "decoder" in text and "<b>" not in text  # the name is text, escaped
    assert "this server does not have it" in text and "cannot move" in text and "choose it again" in text
    assert "reopen node kv_write" in text.replace("\\", "")
    assert at.query_params["upload"] == "decoder<b>.onnx"  # kept until a file or a sample is chosen
    assert not any("Upload a model in the sidebar" in i.value for i in at.info)
    # choosing a sample instead: the message goes, the URL names the sample
    at.sidebar.selectbox(key="model:sample").set_value("kv_cache").run()
    assert not at.exception and not at.warning
    assert at.query_params["sample"] == "kv_cache" and "upload" not in at.query_params


def test_removing_an_upload_in_the_same_session_is_not_a_lost_upload():
    at = app_on(PAGE)
    held = model_page.sm.open_model(model_page.sm.sample_path("kv_cache"))
    at.session_state["model:model"] = ("upload:gone:1", held)  # this session held an upload, now removed
    at.query_params.update({"upload": "mine.onnx", "model": held.digest[:16]})
    at.run()
    assert not at.exception and not at.warning
    assert any("Upload a model in the sidebar" in i.value for i in at.info)
    assert "upload" not in at.query_params and "model" not in at.query_params


def test_files_a_stopped_replica_held_are_not_files_here(monkeypatch):
    """After a failover the browser still lists the files it sent to the stopped replica; the session state gives
    them as DeletedFile placeholders (no name, no bytes). The page holds no model from them and asks again."""
    from streamlit.runtime.uploaded_file_manager import DeletedFile, UploadedFile, UploadedFileRec

    live = UploadedFile(UploadedFileRec("f2", "inputs.npz", "application/octet-stream", b"PK"), None)
    state = {"model:upload": [DeletedFile("f1")], "model:input_files": [DeletedFile("f0"), live]}
    monkeypatch.setattr(model_page.st, "session_state", state)
    monkeypatch.setattr(model_page.st, "query_params", {"upload": "mine.onnx", "model": "0123456789abcdef"})
    assert model_page.files_held("upload") == [] and model_page.files_held("input_files") == [live]
    assert model_page.model_source_id() is None
    assert model_page.lost_upload() == "mine.onnx"


def test_sources_text_names_which_engine_gave_which_nodes():
    assert model_page.sources_text({"a": "onnxruntime", "b": "onnxruntime"}) == ""
    text = model_page.sources_text({"k": "onnxruntime", "v": "onnxruntime", "in_then": "onnxruntime, running the "
                                    "node alone on the inputs it received in main graph > If 'b' then_branch"})
    assert text.startswith("Where each output comes from: k, v: output from onnxruntime; in_then: output from "
                           "onnxruntime, running the node alone")


def test_the_run_caption_says_what_runs_an_ir_and_an_onnx_model():
    """An IR's default runtime is OpenVINO's CPU plugin, what ships; the reference kernels stay a choice, said in
    full (the scatter nodes on the kernels, the CPU plugin running the rest)."""
    at = _open("ov_mean")
    captions = " ".join(str(c.value) for c in at.caption)
    assert "Runs the model once on OpenVINO CPU in a separate process" in captions
    at.sidebar.selectbox(key="model:runtime").set_value("reference").run()
    captions = " ".join(str(c.value) for c in at.caption)
    assert ("Runs the model once on OpenVINO reference kernels (the scatter nodes; the CPU plugin runs the "
            "rest) in a separate process") in captions
    onnx_captions = " ".join(str(c.value) for c in _open("index_put").caption)
    assert "Runs the model once on onnxruntime in a separate process" in onnx_captions


def test_the_runtime_box_starts_on_what_ships_and_marks_it_default():
    at = _open("ov_mean")
    box = at.sidebar.selectbox(key="model:runtime")
    assert box.value == "openvino"
    assert "OpenVINO CPU (what ships, default)" in box.options
    at = _open("kv_cache")
    assert at.sidebar.selectbox(key="model:runtime").value == "onnxruntime"


def test_an_ir_capture_says_first_where_the_cpu_plugin_differs_and_explains_the_mean_as_sum_over_count():
    at = _open("ov_mean")
    at.button(key="model:capture").click().run()
    assert not at.exception
    first = at.main.error[0].value.replace("\\", "")
    assert first.startswith("OpenVINO CPU differs from the spec's loop on 2 cells: node mean_update (2 of 12 cells)")
    texts = " ".join(t.value for t in at.text)
    assert "their sum over their count, taken once after the last write, not two at a time" in texts
    assert "truncated toward zero" in texts and "→" not in texts  # no running pair
    assert any("may repeat (from the graph); 2 cells were written more than once" in c.value.replace("\\", "")
               for c in at.caption)


def test_the_node_table_gives_the_static_verdict_and_its_proof():
    at = _open("kv_cache")
    table = at.dataframe[0].value
    assert list(table["indices (from the graph)"]) == ["unique by construction"]
    assert "if indices repeat" not in table["static findings"][0]
    assert any("Can the indices repeat?" in e.label for e in at.expander)
    proof = next(t.value for t in at.text if t.value.startswith("kv_write · ScatterND-18: Unique by construction"))
    assert "\n    ← constant 'heads'" in proof  # one step of the chain a line


def test_a_hostile_name_in_a_proof_is_shown_as_text():
    """The proof names the graph input the indices come from: model-supplied text, shown by st.text only."""
    from onnx import TensorProto as T, helper as h

    import scatter_models as sm
    from tests.support.model_builders import graph_model

    hostile = "**b** <img src=x onerror=alert(1)> [x](javascript:alert(1))"
    node = h.make_node("ScatterND", ["d", hostile, "u"], ["o"], name="n")
    m = sm.open_model(graph_model([node], [h.make_tensor_value_info("d", T.FLOAT, [4]),
                                            h.make_tensor_value_info(hostile, T.INT64, [1, 1]),
                                            h.make_tensor_value_info("u", T.FLOAT, [1])],
                                   [h.make_tensor_value_info("o", T.FLOAT, [4])]).SerializeToString())
    assert hostile in m.nodes[0].index_proof
    at = model_page_with(m)
    assert any(f"graph input {hostile!r}" in t.value for t in at.text)
    assert not any(hostile in md.value for md in at.markdown)
