"""AppTest: the From your code page (paste a call, see the answer; a bad call keeps its text) and the spec pages'
links to it."""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

import pytest
from streamlit.testing.v1 import AppTest

import from_code as fc
import framework_map as fm
import scatter_core as sc
from from_code.translate import MAX_CALL_TEXT
from scatter_ui.pages.from_code import EXAMPLES
from tests.support.apptest_helpers import app_on, open_page
from tests.support.skipping import require_framework

pytestmark = pytest.mark.slow  # AppTest runs of the whole page, exported pytests run in fresh interpreters: the full suite runs them, the fast loop does not

def open_from_code(**params) -> AppTest:
    at = open_page("from-code", **params)
    assert not at.exception and not [e.value for e in at.error if "went wrong" in e.value], at.exception
    return at


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def all_text(at: AppTest) -> str:
    parts = [e.value for kind in ("markdown", "caption", "info", "warning", "error", "success", "text", "header", "subheader",
                                  "code") for e in getattr(at, kind)]
    return unescape("\n".join(str(p) for p in parts))


def recorded_downloads(monkeypatch) -> dict:
    """{label: (data, file_name)} of every download button the page draws from now on."""
    from streamlit.delta_generator import DeltaGenerator

    downloads = {}
    original = DeltaGenerator.download_button

    def recording(self, label, data, *args, **kwargs):
        downloads[label] = (data, kwargs.get("file_name"))
        return original(self, label, data, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", recording)
    return downloads


def call_box(at: AppTest):
    return next(t for t in at.text_area if t.label == "Your call")


def test_pasting_a_call_shows_its_operators_composition_and_caveats():
    at = open_from_code()
    call_box(at).set_value('x.scatter_reduce(1, idx, src, reduce="amax", include_self=False)').run()
    assert not at.exception
    text = all_text(at)
    assert "PyTorch: torch.Tensor.scatter_reduce" in text
    assert at.query_params["call"] == 'x.scatter_reduce(1, idx, src, reduce="amax", include_self=False)'
    codes = [c.value for c in at.code]
    assert "ScatterElementsUpdate-12(axis=1, reduction='max', use_init_val=False)" in codes
    assert "include_self=False (use_init_val = false) has no ONNX attribute" in text
    assert fm.BY_ID["torch.scatter_reduce"].divergences["negative indices"] in text
    # one verdict per standard: OpenVINO has an exact operator, ONNX needs the composition (it said "Exact" once)
    assert "ONNX: no single operator; use the composition below. OpenVINO: one operator is exact." in text
    assert "Exact** on both" not in text
    assert "ScatterElementsUpdate-12 spec ↗](" in text and "· no older version computes it" in text  # not "can"
    older = all_text(open_from_code(call="x.scatter_add(0, idx, src)"))
    assert "· the oldest version that computes it: ScatterElements-16" in older


def test_a_bad_call_gets_a_message_and_keeps_its_text():
    at = open_from_code()
    bad = "x.scatter_reduce(1, idx, src, reduce='max')"
    call_box(at).set_value(bad).run()
    assert call_box(at).value == bad
    errors = unescape(" ".join(e.value for e in at.error))
    assert "reduce" in errors and "'amax'" in errors
    hostile = "__import__('os').system('echo <b>hi</b>')"
    call_box(at).set_value(hostile).run()
    assert call_box(at).value == hostile
    assert not at.exception
    errors = unescape(" ".join(e.value for e in at.error))
    assert "**__import__**: names with double underscores are never read" in errors
    assert "'__import__'" not in errors  # the name once, in bold (it once read "__import__: '__import__': ...")
    assert all("<b>" not in e.value for e in at.error)  # shown as text, never as HTML


def test_the_call_in_the_url_opens_the_view_filled_in_and_user_text_is_escaped():
    at = open_from_code(call="x[a*b] += v_*2")
    assert call_box(at).value == "x[a*b] += v_*2"
    markdown = " ".join(m.value for m in at.markdown)
    assert "a\\*b" in markdown or "a*b" not in markdown  # the user's expression never becomes emphasis
    assert "GatherND" in all_text(at)


def test_example_tensors_give_the_result_links_and_a_pytest_export():
    at = open_from_code(call="x.at[i, j].add(v)")
    at.text_input(key="fromcode:shape").set_value("3, 4")
    next(b for b in at.button if b.label == "Fill with example values").click().run()
    assert not at.exception
    text = all_text(at)
    assert "The translation's result" in text and "ScatterND-18" in text
    links = " ".join(m.value for m in at.markdown)
    assert "/nd?" in links and "op=ScatterND-18" in links and "example=__custom__" in links and "/check?" in links
    assert any(d.label == "Download the pytest (.py)" for d in at.get("download_button"))
    require_framework("JAX")
    next(b for b in at.button if b.label.startswith("Run the call in JAX")).click().run()
    assert "gives exactly the translation's result" in all_text(at)


def test_a_typed_tensor_with_an_error_names_it_and_keeps_the_text():
    at = open_from_code(call="np.add.at(a, idx, b)")
    boxes = [t for t in at.text_area if t.label != "Your call"]
    assert [b.label for b in boxes] == ["a: the tensor written into",
                                        "idx: integer indices or a boolean mask (its dtype decides)",
                                        "b: the values written"]
    boxes[0].set_value("[1, 2, 3]")
    boxes[1].set_value("[0, 0, -1]")
    boxes[2].set_value("[1, 2, oops]").run()
    assert any(unescape(e.value).startswith("**b, the values written**: ") for e in at.error), [e.value for e in at.error]
    assert [t for t in at.text_area if t.label != "Your call"][2].value == "[1, 2, oops]"
    [t for t in at.text_area if t.label != "Your call"][2].set_value("[1, 2, 3]").run()
    assert "[4, 2, 6]" in all_text(at).replace("array(", "").replace(")", "") or "[4 2 6]" in all_text(at)


@pytest.mark.parametrize("version", ["ScatterElementsUpdate-12", "ScatterND-18", "SliceScatter-15"])
def test_every_framework_map_entry_links_to_the_view(version):
    """Each entry's link, WebNN's and the compositions' included: its own call, or (entry= in the link) the same
    operation as another framework writes it, which the view explains."""
    from from_code.translate import integer_reading, reverse_link

    at = app_on("spec-" + sc.family_of(sc.OPERATORS[version]).slug)
    at.query_params.update({"tab": "Framework map", "version": version})
    at.run()
    assert not at.exception
    links = [p for p in at.get("page_link") if p.proto.label.endswith("in From your code")]
    config = fm.configurations(version)[0]
    entries = fm.entries_for(config)
    assert len(links) == len(entries) and {p.proto.page for p in links} == {"from-code"}
    want = sorted(f"call={reverse_link(e, config).call}" + (f"&entry={e.id}" if reverse_link(e, config).stand_in
                                                             else "") for e in entries)
    assert sorted(unquote_plus(p.proto.query_string) for p in links) == want
    assert any(e.framework == "WebNN" for e in entries)
    for e in entries:  # every linked call is one the view reads, with the configuration's reduction
        assert integer_reading(fc.from_call(reverse_link(e, config).call)).reading.canonical == config.canonical


def test_a_stand_in_link_opens_the_view_with_the_entry_explained():
    from from_code.translate import reverse_link

    config = fm.configurations("ScatterND-18")[0]
    link = reverse_link(fm.BY_ID["webnn.scatterND"], config)
    assert link.stand_in
    at = open_from_code(call=link.call, entry="webnn.scatterND")
    info = unescape(" ".join(i.value for i in at.info))
    assert "WebNN entry MLGraphBuilder.scatterND (webnn.scatterND)" in info and "not WebNN's JavaScript" in info
    assert "builder.scatterND(input, indices, updates)" in info
    assert at.query_params["entry"] == "webnn.scatterND"
    call_box(at).set_value("x.scatter_add(0, idx, src)").run()  # another call: the explanation goes
    assert not [i for i in at.info if "WebNN" in i.value] and "entry" not in at.query_params
    prod = fm.configurations("ScatterND-18")[[c.canonical for c in fm.configurations("ScatterND-18")].index("prod")]
    link = reverse_link(fm.BY_ID["tf.unsorted_segment_prod"], prod)
    at = open_from_code(call=link.call, entry="tf.unsorted_segment_prod")
    info = unescape(" ".join(i.value for i in at.info))
    assert "TensorFlow has no single call for this" in info and "ScatterND-18" in all_text(at)


def test_the_check_page_link_carries_the_case_and_its_attributes():
    from urllib.parse import parse_qsl

    at = open_from_code(call='x.scatter_reduce(0, idx, src, reduce="amax", include_self=False)')
    at.text_input(key="fromcode:shape").set_value("2, 3")
    next(b for b in at.button if b.label == "Fill with example values").click().run()
    links = " ".join(m.value for m in at.markdown)
    check = re.search(r"\]\(([^)]*/check\?[^)]*)\)", links).group(1)
    params = dict(parse_qsl(check.split("?", 1)[1]))
    assert params["op"] == "ScatterElementsUpdate-12" and params["use_init_val"] == "false"
    page = open_page("check", **params)
    assert not page.exception
    boxes = {t.label: t.value for t in page.text_area}
    assert boxes["data"] == params["data"] and boxes["indices"] == params["indices"]
    assert boxes["updates"] == params["updates"] and boxes["expected output"] == ""
    assert page.session_state["check:use_init_val"] is False and page.session_state["check:reduction"] == "max"
    assert page.session_state["check:op"] == "ScatterElementsUpdate-12"


def test_a_megabyte_pasted_gets_the_size_message_and_stays_out_of_the_url():
    at = open_from_code(call="x.scatter_add(0, i, s)")
    assert at.query_params["call"] == "x.scatter_add(0, i, s)"
    call_box(at).set_value("x" * 1_000_000).run()
    assert not at.exception
    assert any("1,000,000 characters; paste one call of at most 2,000" in e.value for e in at.error)
    assert len(call_box(at).value) == 1_000_000  # kept as pasted
    assert "call" not in at.query_params


def test_choosing_an_example_fills_the_box_and_answers_it():
    at = open_from_code()
    assert "Supported: PyTorch" in all_text(at)  # an empty box lists what is read
    at.selectbox(key="fromcode:example").select("x[idx] += v").run()
    assert call_box(at).value == "x[idx] += v"
    text = all_text(at)
    assert "No single operator is exact" in text and "GatherND" in text
    assert at.query_params["call"] == "x[idx] += v"


@pytest.mark.parametrize("call", ["x.at[::-2, 1].set(v)", "np.put(a, ind, v, mode='wrap')", "x.index_copy(1, idx, src)",
                                  "x[x > 0] = 0", "x[idx] += v"])
def test_the_explorer_link_of_every_form_opens_the_case_without_a_notice(call):
    from urllib.parse import parse_qsl

    at = open_from_code(call=call)
    at.text_input(key="fromcode:shape").set_value("3, 4")
    next(b for b in at.button if b.label == "Fill with example values").click().run()
    links = " ".join(m.value for m in at.markdown)
    href, slug = re.search(r"\]\(([^)]*/([\w-]+)\?[^)]*)\) ·", links).groups()
    params = dict(parse_qsl(href.split("?", 1)[1]))
    explorer = open_page(slug, **params)
    assert not explorer.exception
    family = sc.family_by_slug(slug).name  # the explorer's session keys carry the family's name
    assert explorer.session_state[f"{family}:op"] == params["op"]
    assert explorer.session_state[f"{family}:text_data"] == params["data"]
    assert not [w.value for w in explorer.warning if "could not use" in w.value]
    assert not explorer.error


def test_the_tensor_boxes_come_in_the_order_the_call_names_them():
    at = open_from_code(call="x.at[i, j].min(v)")
    boxes = [t.label.split(":")[0] for t in at.text_area if t.label != "Your call"]
    assert boxes == ["x", "i", "j", "v"]  # rows of three, not columns filled x, v | i | j


def test_an_out_of_range_index_is_named_in_the_users_tensor_first():
    at = open_from_code(call="x.at[idx].set(v)")
    boxes = [t for t in at.text_area if t.label != "Your call"]
    boxes[0].set_value("[1, 2, 3, 4]")
    boxes[1].set_value("[0, 9, 9]")
    boxes[2].set_value("[5, 6, 7]").run()
    errors = unescape(" ".join(e.value for e in at.error))
    assert "idx[1] = 9 is out of range for x's axis 0 of size 4 (allowed -4..3)" in errors, errors
    assert errors.index("idx[1]") < errors.index("indices[1, 0]")  # the ONNX-side wording follows


def test_the_caveats_are_those_of_the_data_typed():
    """The int8-only runtime fact (no int8 mean kernel in OpenVINO's reference) shows for int8 data and
    while no data is typed, and goes for float32 data."""
    (i8,) = [n for n in sc.OPERATORS["ScatterElementsUpdate-12"].notes_on("integer-mean") if n.dtypes]
    at = open_from_code()
    call_box(at).set_value("x.scatter_reduce(0, idx, src, 'mean')").run()
    assert i8.text in all_text(at)  # no data typed: every caveat
    data_box = next(t for t in at.text_area if "the tensor written into" in t.label)
    data_box.set_value("np.array([1, 2, 3], dtype=np.float32)").run()
    assert not at.exception and i8.text not in all_text(at) and "truncat" in all_text(at)
    data_box.set_value("np.array([1, 2, 3], dtype=np.int8)").run()
    assert not at.exception and i8.text in all_text(at)


@pytest.mark.parametrize("call", ['torch.scatter_reduce(x, 0, idx, src, reduce="amax", include_self=False)',
                                  EXAMPLES[0]])  # the brief's call, and the page's own first example
def test_a_composition_call_downloads_its_onnx_model_and_a_pytest_that_passes(call, monkeypatch, tmp_path):
    """A call no single ONNX operator computes (include_self=False) offers the composition's ONNX model (4 nodes,
    said and why) and a pytest running it on onnxruntime and onnx.reference; the downloaded pytest passes."""
    import subprocess
    import sys

    import onnx

    from tests.support.skipping import require_or_skip

    require_or_skip("onnxruntime", "onnx.reference")
    downloads = recorded_downloads(monkeypatch)
    at = open_from_code(call=call)
    assert "this composition downloads as an ONNX model" in all_text(at)
    at.text_input(key="fromcode:shape").set_value("3, 4")
    next(b for b in at.button if b.label == "Fill with example values").click().run()
    assert not at.exception
    text = all_text(at)
    assert ("**The composition as one ONNX model**: 4 nodes (Shape → Expand → ScatterElements → ScatterElements, "
            "opset 18)") in text and "The ONNX model is" not in text  # said once: not "ONNX model: The ONNX model"
    assert "neutral value -inf into every indexed cell" in text
    labels = [d.label for d in at.get("download_button")]
    assert "Download the ONNX model (4 nodes, .onnx)" in labels
    assert "Download the pytest (.py)" in labels
    model_bytes, name = downloads["Download the ONNX model (4 nodes, .onnx)"]
    assert name.endswith(".onnx")
    model = onnx.load_from_string(model_bytes)
    onnx.checker.check_model(model, full_check=True)
    assert [n.op_type for n in model.graph.node] == ["Shape", "Expand", "ScatterElements", "ScatterElements"]
    code, name = downloads["Download the pytest (.py)"]
    assert name == "test_from_your_code.py" and call not in code
    path = tmp_path / name
    path.write_text(code)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    # onnxruntime and onnx.reference, and the PyTorch call where torch is installed (skipped elsewhere)
    assert re.search(r"\b[23] passed", done.stdout) and "failed" not in done.stdout, done.stdout[-2000:]


def test_a_one_operator_call_downloads_its_one_node_model_and_a_pytest_that_needs_no_framework(monkeypatch):
    """Issue 31: a single-operator export was a pytest only, whose one test skipped without the framework."""
    import onnx

    downloads = recorded_downloads(monkeypatch)
    at = open_from_code(call="x.scatter_reduce(1, idx, src, 'amax')")
    at.text_input(key="fromcode:shape").set_value("3, 4")
    next(b for b in at.button if b.label == "Fill with example values").click().run()
    labels = [d.label for d in at.get("download_button")]
    assert labels == ["Download the ONNX model (1 node, .onnx)", "Download the pytest (.py)"]
    text = all_text(at)
    assert "**The ONNX model**: one ScatterElements-18 node (axis=1, reduction='max'), opset 18." in text
    assert "against Scatter Explorer's result (no framework needed)" in text
    assert "this composition downloads" not in text
    model, name = downloads["Download the ONNX model (1 node, .onnx)"]
    assert name == "from_your_code.onnx"
    onnx.checker.check_model(onnx.load_from_string(model), full_check=True)
    code, _ = downloads["Download the pytest (.py)"]
    assert "def test_onnxruntime_runs_the_model_to_the_expected_output" in code
    assert "def test_onnx_reference_runs_the_model_to_the_expected_output" in code
    assert 'pytest.importorskip(\'torch\')' in code


def test_a_call_the_text_cannot_decide_shows_both_readings_and_the_choice_or_a_bool_tensor_decides():
    """Issue 31: x[mask] = 0 once said "Exact on both: ScatterND-18(none)" for what is, with a bool mask, a Where."""
    at = open_from_code(call="x[mask] = 0")
    text = all_text(at)
    assert "2 readings, no answer yet" in text and "Exact** on both" not in text
    assert "Reading 1: mask holds integer indices" in text and "Reading 2: mask is a boolean mask" in text
    assert "Only if mask holds integer indices" in text and "Only if mask is a boolean mask" in text
    assert "ScatterND-18(reduction='none')" in [c.value for c in at.code]
    radio = next(r for r in at.radio if r.label == "mask")
    radio.set_value("a boolean mask").run()
    text = all_text(at)
    assert "No scatter needed" in text and "Reading 1" not in text and "Exact** on both" not in text
    radio = next(r for r in at.radio if r.label == "mask")
    radio.set_value("integer indices").run()
    assert "Exact** on both" in all_text(at)
    # the choice back to open; a bool tensor typed for mask decides instead
    next(r for r in at.radio if r.label == "mask").set_value("not said: show every reading").run()
    boxes = [t for t in at.text_area if t.label != "Your call"]
    assert [b.label for b in boxes] == ["x: the tensor written into",
                                        "mask: integer indices or a boolean mask (its dtype decides)"]
    boxes[0].set_value("[1, 2, 3]")
    boxes[1].set_value("[True, False, True]").run()
    text = all_text(at)
    assert "No scatter needed" in text and "2 readings" not in text
    assert "[0, 2, 0]" in text.replace("array(", "").replace(")", "") or "[0 2 0]" in text


CALL = "x.scatter_add(0, idx, src)"
HOSTILE_CALLS = [  # issue 35 §3: (text, what the message says); each keeps its text and names the call
    (CALL + " " * (MAX_CALL_TEXT - len(CALL) + 1), "2,001 characters; paste one call of at most 2,000"),
    ("x.scatter_add(0, " + "[" * 150 + "]" * 150 + ", src)", "nests deeper than 24 levels"),
    ("х.scatter_add(0, idx, src)", "'х' (U+0445 CYRILLIC SMALL LETTER HA), which looks like 'x'"),
    ("ｔｏｒｃｈ.scatter(x, 0, idx, src)", "'ｔ' (U+FF54 FULLWIDTH LATIN SMALL LETTER T), which looks like 't'"),
    ("x.scatter_add(0, idx, ѕrc)", "which looks like 's'"),
    ("x.scatter_add(0,\x1b[2J idx, src)", "control character, '\\x1b'"),
]


@pytest.mark.parametrize("text, says", HOSTILE_CALLS, ids=["size", "nesting", "cyrillic", "fullwidth", "greek-like",
                                                           "control"])
def test_hostile_call_text_gets_a_message_naming_the_call_and_keeps_the_text(text, says):
    at = open_from_code()
    call_box(at).set_value(text).run()
    assert not at.exception and call_box(at).value == text
    errors = unescape(" ".join(e.value for e in at.error))
    assert errors.startswith("**call**:") and says in errors, errors


def test_a_call_at_the_size_limit_is_read():
    text = CALL + " " * (MAX_CALL_TEXT - len(CALL) - 3) + "# z"
    assert len(text) == MAX_CALL_TEXT
    at = open_from_code()
    call_box(at).set_value(text).run()
    assert not at.error and "ScatterElements" in all_text(at)


def test_calls_inside_calls_become_inputs_named_by_their_text():
    at = open_from_code()
    call_box(at).set_value("torch.scatter(torch.scatter(x, 0, idx, src), 0, idx.long(), torch.ones_like(src))").run()
    assert not at.error and not at.exception
    labels = [t.label for t in at.text_area]
    assert "torch.scatter(x, 0, idx, src): the tensor written into" in labels
    assert "idx.long(): the indices" in labels
    assert any(lbl.startswith("torch.ones") and lbl.endswith(": the values written") for lbl in labels)


def test_strings_and_comments_may_hold_any_character():
    at = open_from_code()
    call_box(at).set_value('x.scatter_reduce(1, idx, src, reduce="amax", include_self=False)  # 最大値 ≥ 0').run()
    assert not at.error and "ScatterElements" in all_text(at)
