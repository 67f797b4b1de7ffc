"""AppTest: the "Check expected output" page and the export buttons on the explorer pages."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from streamlit.testing.v1 import AppTest

from tests.support.apptest_helpers import app_on, figures, open_expander, shown, texts

pytestmark = pytest.mark.slow  # AppTest runs of the whole check page: the full suite runs them, the fast loop does not

PAGE = "app_pages/check_expected.py"


def open_check(timeout: float = 120, **params) -> AppTest:
    at = app_on(PAGE, timeout)
    if params:
        at.query_params.update({k: str(v) for k, v in params.items()})
    at.run()
    assert not at.exception, at.exception
    return at


def set_case(at: AppTest, op: str | None = None, **tensors) -> AppTest:
    if op is not None:
        at.selectbox(key="check:op").set_value(op).run()
    for role, text in tensors.items():
        at.text_area(key=f"check:text_{role}").set_value(text)
    at.run()
    assert not at.exception, at.exception
    return at


def chain_of(at: AppTest, where: str) -> str:
    """The markdown source of the chain of writes shown for cell ``where`` (e.g. "output[0]")."""
    return next(m.value for m in at.markdown if "replay in the explorer" in m.value
                and shown(m.value).split(": ", 1)[-1].startswith(where) or shown(m.value).startswith(where))


def downloads(at: AppTest) -> list[str]:
    return [el.proto.label for el in at.get("download_button")]


def test_matching_case_shows_success_with_the_tolerance_figure_and_exports():
    at = open_check()
    assert at.title[0].value == "Check an expected output"
    (ok,) = at.success
    assert "matches ScatterElements-18" in shown(ok.value) and "rtol = 1e-06" in shown(ok.value)
    assert not at.error
    assert len(at.get("plotly_chart")) == 1
    assert downloads(at) == ["pytest test (.py)", "spec_examples JSON", "NumPy loop (.py)",
                             "ONNX model + tensors (.zip)", "as PyTorch (.py)", "as TensorFlow (.py)", "as JAX (.py)"]


ISSUE_DATA = "[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]"
ISSUE_UPDATES = "[[100, 101, 102, 103], [104, 105, 106, 107], [108, 109, 110, 111]]"
ISSUE_FIRST_WINS = "[[100, 101, 102, 103], [4, 5, 6, 7], [104, 105, 106, 107], [12, 13, 14, 15]]"


def test_the_issue_scenario_a_first_write_kept_is_accepted_and_outside_the_spec():
    """Issue 22: ScatterND-18, reduction none, rows [[0], [2], [0]], the duplicated row keeping its first write.
    ScatterND-18's text does not allow duplicates under none: the verdict accepts the output (a kernel may give it)
    and says the inputs are outside the spec, never that the spec leaves the winner open."""
    at = open_check()
    set_case(at, "ScatterND-18", data=ISSUE_DATA, indices="[[0], [2], [0]]", updates=ISSUE_UPDATES,
             expected=ISSUE_FIRST_WINS)
    assert at.selectbox(key="check:reduction").value == "none"
    assert not at.error and not at.success
    (verdict,) = at.info[:1]
    text = shown(verdict.value)
    assert verdict.proto.icon == ":material/alt_route:"
    assert text.startswith("Outside the spec, accepted: ScatterND-18's text does not allow these duplicate indices.")
    assert "has a different winner in 4 duplicated cells" in text and "defines no output for them" in text
    assert "output[0, 0] holds 100 (writes: 100 at step 1, 108 at step 3)" in text
    assert "keeps the last write" in text and "any one of the values written to it" in text
    assert "leaves open" not in text and "Conforms: allowed by the spec" not in text
    assert "✘" not in text and "differ from" not in text
    subheaders = [s.value for s in at.header]
    assert "Why it differs from the loop order" in subheaders and "Likely mistake" not in subheaders
    assert "Each differing cell (4 cells, all allowed)" in subheaders
    body = texts(at)
    assert "explanations, not mistakes" in body and "names no winner" in body
    chain = next(shown(m.value) for m in at.markdown if "output[0, 1]" in shown(m.value) and "allowed:" in
                 shown(m.value))
    assert chain.startswith("≈ allowed: output[0, 1]") and "A kernel may give 101 here: step 1 writes it" in chain
    assert any("your value is one a kernel may give in all of them" in shown(c.value) for c in at.caption)
    assert any("the pytest test passes with it too" in shown(c.value) for c in at.caption)


def test_a_first_write_kept_conforms_where_the_version_allows_duplicates():
    """ScatterNDUpdate-15 allows duplicates under none and leaves their order open: the output conforms."""
    at = open_check()
    set_case(at, "ScatterNDUpdate-15", data="[1, 2, 3, 4]", indices="[[0], [2], [0]]", updates="[10, 20, 30]",
             expected="[10, 2, 20, 4]")
    assert not at.error and not at.success
    text = shown(at.info[0].value)
    assert text.startswith("Conforms: allowed by the spec, not the loop-order result.")
    assert "conforms to ScatterNDUpdate-15, with a different winner in 1 duplicated cell" in text
    assert "does not allow" not in text and "✔" not in text and "≈" not in text
    assert any("the spec allows your value in all of them" in shown(c.value) for c in at.caption)


def test_each_verdict_shows_one_mark_its_icon():
    """The verdict's icon is its one mark: no ✔ / ≈ / ✘ glyph doubling it in the text."""
    at = open_check()
    (ok,) = at.success
    assert ok.proto.icon == ":material/check_circle:" and shown(ok.value).startswith("Matches the loop-order result.")
    set_case(at, expected="[[9, 9, 9], [9, 9, 9], [9, 9, 9]]")
    (bad,) = at.error
    assert bad.proto.icon == ":material/cancel:" and shown(bad.value).startswith("Differs.")


def test_an_empty_expected_box_is_a_prompt_and_a_wrong_one_an_error():
    """A case linked without an expected output (From your code's "Check it"): what to type, not an error."""
    at = open_check(op="ScatterElements-18", data="[[1, 2], [3, 4]]", indices="[[1, 0]]", updates="[[5, 6]]",
                    axis="0")
    assert at.text_area(key="check:text_expected").value == ""
    assert not at.error and not at.success
    (prompt,) = at.info
    assert prompt.proto.icon == ":material/edit:"
    assert "Type the output you computed by hand in the expected output box" in shown(prompt.value)
    assert "data's shape, 2×2" in shown(prompt.value)
    set_case(at, expected="[[1, 2], oops]")
    assert at.error and "expected output" in shown(at.error[0].value)
    assert at.text_area(key="check:text_expected").value == "[[1, 2], oops]"  # what was typed stays
    set_case(at, expected="[[1, 6], [5, 4]]")
    assert not at.error and shown(at.success[0].value).startswith("Matches the loop-order result.")


def test_a_value_no_write_brings_differs_and_the_allowed_cells_are_told_apart():
    at = open_check()
    wrong = ISSUE_FIRST_WINS.replace("[100, 101,", "[104, 101,")  # 104 is written to row 2 only
    set_case(at, "ScatterND-18", data=ISSUE_DATA, indices="[[0], [2], [0]]", updates=ISSUE_UPDATES, expected=wrong)
    (verdict,) = at.error
    text = shown(verdict.value)
    assert text.startswith("Differs.") and "4 of 16 cells differ" in text and "3 of them are duplicated cells" in text
    assert "Why each cell differs (4 cells: 1 not allowed, 3 allowed)" in [s.value for s in at.header]
    marks = [shown(m.value)[:40] for m in at.markdown if "replay in the explorer" in m.value]
    assert marks[0].startswith("✘ not allowed: output[0, 0]") and marks[1].startswith("≈ allowed: output[0, 1]")


def test_mismatching_case_explains_diagnoses_and_links_each_cell_to_the_explorer():
    at = open_check()
    set_case(at, "ScatterND-16", data="[1, 2, 3, 4]", indices="[[0], [2], [0]]", updates="[10, 20, 30]",
             expected="[10, 2, 30, 4]")
    (verdict,) = at.error
    assert "2 of 4 cells differ" in shown(verdict.value) and "exact comparison" in shown(verdict.value)
    body = texts(at)
    assert "Likely mistake" in [s.value for s in at.header]
    assert "No alternative reading reproduces" in body
    source = chain_of(at, "output[0]")
    chain = shown(source)
    assert "step 3 applies updates[2] = 30" in chain and "you expected 10" in chain
    link = source.split("](")[1].split(")")[0]
    url = urlparse(link)
    assert url.path.endswith("/nd")
    q = parse_qs(url.query)
    assert q["op"] == ["ScatterND-16"] and q["example"] == ["__custom__"] and q["step"] == ["1"]
    assert q["data"] == ["[1, 2, 3, 4]"] and q["reduction"] == ["none"]
    # the exports offer both expected outputs
    assert at.radio(key="check:export_choice").value.startswith("the computed output")


def test_replay_link_opens_the_explorer_at_that_step():
    at = open_check()
    set_case(at, "ScatterND-16", data="[1, 2, 3, 4]", indices="[[0], [2], [0]]", updates="[10, 20, 30]",
             expected="[10, 2, 20, 4]")
    source = chain_of(at, "output[0]")
    chain = shown(source)
    q = {k: v[0] for k, v in parse_qs(urlparse(source.split("](")[1].split(")")[0]).query).items()}
    ex = app_on("nd")
    ex.query_params.update(q)
    ex.run()
    assert not ex.exception
    assert ex.title[0].value == "ScatterND-16"
    (fig,) = figures(ex)  # the explorer's player opens at the linked step
    assert fig["step"] == 1 and "updates[0] = 10 goes to output[0]" in fig["captions"]["1"]


def test_example_case_links_by_example_id():
    at = open_check()
    at.selectbox(key="check:op").set_value("ScatterND-16").run()
    at.selectbox(key="check:example").set_value("teach-duplicates-none").run()
    at.text_area(key="check:text_expected").set_value("[10, 2, 20, 4]").run()
    source = chain_of(at, "output[0]")
    chain = shown(source)
    q = parse_qs(urlparse(source.split("](")[1].split(")")[0]).query)
    assert q["example"] == ["teach-duplicates-none"] and "data" not in q


@pytest.mark.parametrize("role,text,needle", [
    ("expected", "[[1, 2], [3]", "expected output"),
    ("data", "[1, 2, __import__('os')]", "data"),
    ("indices", "", "indices"),
])
def test_malformed_input_gives_a_clear_error_and_keeps_the_text(role, text, needle):
    at = open_check()
    set_case(at, **{role: text})
    assert not at.exception
    assert not at.success
    (err,) = at.error
    assert err.value.startswith(f"**{needle}**")
    assert "Something went wrong" not in err.value
    assert at.text_area(key=f"check:text_{role}").value == text


def test_expected_output_of_the_wrong_shape_is_an_error_naming_expected():
    at = open_check()
    set_case(at, "ScatterND-16", data="[1, 2, 3, 4]", indices="[[0]]", updates="[10]", expected="[10, 2, 3]")
    (err,) = at.error
    assert err.value.startswith("**expected**") and "shape" in err.value


def test_nothing_reproduces_is_said():
    at = open_check()
    set_case(at, "ScatterND-16", data="[1, 2, 3, 4]", indices="[[0]]", updates="[10]", expected="[99, 98, 97, 96]")
    assert "No alternative reading reproduces your expected output" in texts(at)


def test_integer_mean_truncation_is_diagnosed_for_openvino():
    at = open_check()
    at.selectbox(key="check:op").set_value("ScatterElementsUpdate-12").run()
    at.selectbox(key="check:reduction").set_value("mean")
    set_case(at, data="[0, 5]", indices="[0]", updates="[-3]", expected="[-1, 5]")
    assert "rounded toward zero" in texts(at)
    assert any("OpenVINO operator" in shown(c.value) for c in at.caption)  # no ONNX export for it


def test_lossy_cast_is_warned():
    at = open_check()
    set_case(at, "ScatterND-16", data="array([1, 2], dtype=int32)", indices="[[0]]",
             updates="array([5], dtype=int32)", expected="[5.5, 2]")
    assert any("changes 1 value" in shown(w.value) for w in at.warning)


def test_grid_edit_becomes_the_text():
    at = open_check()
    set_case(at, "ScatterND-16", data="[1, 2, 3, 4]", indices="[[0]]", updates="[10]", expected="[10, 2, 3, 4]")
    assert at.success
    at.session_state["check:pending_expected"] = "[11, 2, 3, 4]"
    at.run()
    assert at.text_area(key="check:text_expected").value == "[11, 2, 3, 4]"
    assert at.error and "1 of 4 cells differs" in shown(at.error[0].value)


def test_explorer_pages_offer_the_exports():
    at = app_on("elements")
    at.run()
    assert not at.exception and not downloads(at)  # built only when opened
    open_expander(at, "Export this case")
    assert "pytest test (.py)" in downloads(at) and "NumPy loop (.py)" in downloads(at)


def test_refused_inputs_point_to_a_version_that_accepts_them():
    at = open_check()
    at.selectbox(key="check:op").set_value("ScatterElementsUpdate-3").run()
    set_case(at, data="[1, 2, 3, 4]", indices="[-1]", updates="[9]", expected="[1, 2, 3, 9]")
    (err,) = at.error
    assert err.value.startswith("**indices**") and "negative" in err.value
    assert any("ScatterElementsUpdate-12" in shown(i.value) and "accepts them" in shown(i.value) for i in at.info)


def test_refused_inputs_point_to_the_other_mode_that_accepts_them():
    at = open_check()
    set_case(at, "TensorScatter-24", data="[[[0], [1], [2], [3]], [[4], [5], [6], [7]]]", indices="[3, 1]",
             updates="[[[10], [11]], [[20], [21]]]", expected="[[[11], [1], [2], [10]], [[4], [20], [21], [7]]]")
    (err,) = at.error  # linear mode (the default): batch entry 0 would write past the end
    assert "past the end" in shown(err.value)
    hints = [shown(i.value) for i in at.info]
    assert any("refuses these inputs with mode='linear', but mode='circular' accepts them" in h for h in hints), hints


def test_explorer_says_a_huge_case_is_too_large_to_export():
    at = app_on("elements", 300)
    at.query_params.update({"op": "ScatterElementsUpdate-12", "example": "ov-scatter-elements-update-12-example-6"})
    at.run()
    assert not at.exception
    open_expander(at, "Export this case")
    assert "pytest test (.py)" not in downloads(at)
    assert any("too large to export" in shown(c.value) and "12,544,000" in shown(c.value) for c in at.caption)


def test_a_diagnosis_links_to_its_reading_in_the_explorer():
    at = open_check()
    at.selectbox(key="check:op").set_value("ScatterElements-18").run()
    set_case(at, data="[1, 2, 3, 4]", indices="[0, 0, 2]", updates="[10, 20, 30]", expected="[31, 2, 33, 4]")
    item = next(m.value for m in at.markdown if shown(m.value).startswith("reduction"))
    q = parse_qs(urlparse(item.split("](")[1].split(")")[0]).query)
    assert q["reduction"] == ["add"] and q["op"] == ["ScatterElements-18"] and q["axis"] == ["0"]
    assert q["indices"] == ["[0, 0, 2]"]


def test_tolerance_is_shown_and_editable():
    at = open_check()
    set_case(at, "ScatterElements-18", data="[0.0, 0.0]", indices="[0, 0]", updates="[0.1, 0.2]",
             expected="[0.3, 0.0]")
    at.selectbox(key="check:reduction").set_value("add").run()
    (ok,) = at.success
    assert "rtol = 1e-06, atol = 1e-09" in shown(ok.value)
    at.text_input(key="check:rtol_text").set_value("0")
    at.text_input(key="check:atol_text").set_value("0").run()
    assert not at.success and not at.error  # 0.1 + 0.2 is 0.30000000000000004 bit-exactly, yet another order
    text = shown(at.info[0].value)  # of the add may round to 0.3: the spec allows it
    assert "bit-exact" in text and "with different rounding in 1 duplicated cell" in text and "γ(n)" in text
    at.text_area(key="check:text_expected").set_value("[0.31, 0.0]").run()
    assert "bit-exact" in shown(at.error[0].value) and "1 of 2 cells differs" in shown(at.error[0].value)


def test_starting_from_an_erratum_example_shows_the_printed_output_as_a_mismatch():
    at = open_check()
    at.selectbox(key="check:op").set_value("ScatterNDUpdate-15").run()
    at.selectbox(key="check:example").set_value("ov-scatter-nd-update-15-example-1").run()
    assert at.text_area(key="check:text_expected").value.startswith("array([ 1, 11,  3, 10,  4")
    assert "1 of 8 cells differs" in shown(at.error[0].value)
    assert "Computed 14; you expected 4" in texts(at)


def test_url_opens_a_version_and_example():
    at = open_check(op="ScatterND-16", example="teach-duplicates-none")
    assert at.selectbox(key="check:op").value == "ScatterND-16"
    assert at.selectbox(key="check:example").value == "teach-duplicates-none"
    assert "matches ScatterND-16" in at.success[0].value


def test_versions_with_huge_examples_say_they_open_only_in_the_explorer():
    at = open_check()
    at.selectbox(key="check:op").set_value("ScatterUpdate-3").run()
    assert any("open only in the explorer" in shown(c.value) for c in at.sidebar.caption)


def test_start_from_an_example_names_the_users_inputs_once_they_are_edited():
    """#22: after the inputs are edited, "Start from an example" still named the example."""
    import spec_examples

    ex = spec_examples.by_id("teach-duplicates-none")
    at = open_check(op="ScatterND-16", example=ex.id)
    assert at.selectbox(key="check:example").format_func(ex.id) == ex.menu_title
    at.text_area(key="check:text_expected").set_value("[30, 2, 20, 5]").run()  # the expected output is the user's to type
    assert at.selectbox(key="check:example").format_func(ex.id) == ex.menu_title
    at.text_area(key="check:text_updates").set_value("[10, 20, 31]").run()
    assert not at.exception
    assert at.selectbox(key="check:example").format_func(ex.id) == f"✎ your inputs, started from {ex.menu_title}"
    at.selectbox(key="check:example").set_value("__custom__").run()
    at.selectbox(key="check:example").set_value(ex.id).run()  # loading it again: the example as it is
    assert at.selectbox(key="check:example").format_func(ex.id) == ex.menu_title
    at.selectbox(key="check:reduction").set_value("add").run()
    assert at.selectbox(key="check:example").format_func(ex.id) == f"✎ your attributes, started from {ex.menu_title}"


def test_export_file_names_say_which_expected_output_they_carry(monkeypatch):
    """#22: the ONNX zip (and every export) had one file name whether it held the computed or your expected output."""
    from streamlit.delta_generator import DeltaGenerator

    names = {}
    original = DeltaGenerator.download_button

    def recording(self, label, *args, **kwargs):
        names[label] = kwargs.get("file_name")
        return original(self, label, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", recording)
    at = open_check()
    set_case(at, "ScatterND-16", data="[1, 2, 3, 4]", indices="[[0], [2], [0]]", updates="[10, 20, 30]",
             expected="[10, 2, 20, 4]")
    computed = dict(names)
    at.radio(key="check:export_choice").set_value("your expected output").run()
    yours = dict(names)
    assert computed["ONNX model + tensors (.zip)"] != yours["ONNX model + tensors (.zip)"]
    assert "computed" in computed["ONNX model + tensors (.zip)"] and "your_expected" in yours["ONNX model + tensors (.zip)"]
    for label in ("pytest test (.py)", "spec_examples JSON"):
        assert computed[label] != yours[label], label
    assert computed["pytest test (.py)"].startswith("test_") and computed["pytest test (.py)"].endswith(".py")


@pytest.mark.parametrize("op, who", [
    ("ScatterNDUpdate-15", "the spec allows your value"),  # its text allows duplicates and leaves the winner open
    ("ScatterND-18", "your value is one a kernel may give"),  # its text forbids them: outside the spec, accepted
])
def test_allowed_cells_are_dashed_and_cells_that_really_differ_solid(op, who):
    """Issue 22: a conforming other winner must not look like a real difference on the heatmaps."""
    import json

    at = open_check()
    wrong = ISSUE_FIRST_WINS.replace("[100, 101,", "[104, 101,")  # output[0, 0] really differs, 3 cells allowed
    set_case(at, op, data=ISSUE_DATA, indices="[[0], [2], [0]]", updates=ISSUE_UPDATES, expected=wrong)
    (chart,) = at.get("plotly_chart")
    shapes = json.loads(chart.proto.spec)["layout"]["shapes"]
    frames = sorted((s["xref"], s["x0"] + 0.5, s["x1"] - 0.5, s["y0"] + 0.5, s["line"].get("dash", "solid"))
                    for s in shapes)
    # output[0, 0] solid; output[0, 1..3] in one dashed frame (a run of cells gets one box); in both panels
    assert frames == sorted([(ref, 0, 0, 0, "solid") for ref in ("x", "x2")]
                            + [(ref, 1, 3, 0, "dash") for ref in ("x", "x2")])
    legend = next(shown(c.value) for c in at.caption if "Outlined" in c.value)
    assert f"Solid frame: differs (1); dashed frame: differs, but {who} there (3)" in legend


def _verdict(at: AppTest) -> str:
    """The verdict box's text, whichever kind it is."""
    boxes = [b for b in list(at.success) + list(at.info) + list(at.error)
             if b.proto.icon in (":material/check_circle:", ":material/alt_route:", ":material/cancel:")]
    assert boxes, "no verdict shown"
    return shown(boxes[0].value)


def test_the_check_lives_in_its_url_and_the_link_reopens_the_same_verdict():
    """Issue 35 §2: operator, attributes, typed inputs, expected output and tolerance travel in the URL;
    a fresh session opened on that URL shows the same inputs and the same verdict."""
    at = open_check()
    set_case(at, "ScatterND-18", data=ISSUE_DATA, indices="[[0], [2], [0]]", updates=ISSUE_UPDATES,
             expected=ISSUE_FIRST_WINS)
    at.text_input(key="check:rtol_text").set_value("0.001").run()
    params = {k: at.query_params[k] for k in at.query_params}
    assert params["op"] == "ScatterND-18" and params["example"] == "__custom__"
    assert params["data"] == ISSUE_DATA and params["expected"] == ISSUE_FIRST_WINS
    assert params["reduction"] == "none" and float(params["rtol"]) == 0.001
    verdict = _verdict(at)
    assert verdict.startswith("Outside the spec, accepted")
    link = next(shown(c.value) for c in at.sidebar.caption if "Share this check" in shown(c.value))
    assert "expected=" in link and "op=ScatterND-18" in link
    again = open_check(**params)  # the link, in a new session
    assert again.selectbox(key="check:op").value == "ScatterND-18"
    assert again.text_area(key="check:text_expected").value == ISSUE_FIRST_WINS
    assert again.text_area(key="check:text_indices").value == "[[0], [2], [0]]"
    assert again.text_input(key="check:rtol_text").value == "0.001"
    assert _verdict(again) == verdict


def test_an_example_with_a_changed_expected_output_and_attribute_links_by_example_id():
    at = open_check()  # the page's first example
    ex = at.selectbox(key="check:example").value
    op = at.selectbox(key="check:op").value
    at.text_area(key="check:text_expected").set_value("[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]").run()
    params = {k: at.query_params[k] for k in at.query_params}
    assert params["example"] == ex and "data" not in params  # the example's inputs travel as its id
    assert params["expected"].startswith("[[1.0, 2.0")
    again = open_check(**params)
    assert again.selectbox(key="check:op").value == op and again.selectbox(key="check:example").value == ex
    assert again.text_area(key="check:text_expected").value == params["expected"]
    assert _verdict(again) == _verdict(at) and _verdict(at).startswith("Differs")


def test_a_case_too_large_for_a_link_says_so_and_points_to_the_json_export():
    at = open_check()
    big = "[" + ", ".join(str(i) for i in range(600)) + "]"
    set_case(at, "ScatterElements-18", data=big, indices="[0]", updates="[7]",
             expected="[7, " + big[1:].split(", ", 1)[1])
    (warning,) = [w for w in at.sidebar.warning if "too large for a link" in shown(w.value)]
    assert "at most 1,500" in shown(warning.value) and "spec_examples JSON" in shown(warning.value)
    params = {k: at.query_params[k] for k in at.query_params}
    assert params["op"] == "ScatterElements-18" and "data" not in params and "expected" not in params
    assert "spec_examples JSON" in downloads(at)
    assert _verdict(at).startswith("Matches")


def test_a_links_bad_tolerance_is_named_and_the_default_kept():
    at = open_check(op="ScatterND-16", example="teach-duplicates-none", rtol="nan")
    assert at.text_input(key="check:rtol_text").value == "1e-06"
    assert any("rtol=nan" in shown(w.value) for w in at.warning)


def test_a_mean_is_explained_as_the_sum_over_the_count_then_each_rounding():
    """Issue 32 §6: the CPU plugin's truncated means typed as the expected output. Each cell says the mean as the
    spec defines it (the sum of data's value and every update aimed at the cell over their count, once) and the
    rounding the spec and the runtime apply, never a running pair ("-3 → -1")."""
    at = open_check(op="ScatterElementsUpdate-12", example="teach-mean-negative-int")
    assert at.selectbox(key="check:reduction").value == "mean"
    at.text_area(key="check:text_expected").set_value("[-1, -1, -1, 3]").run()
    assert not at.exception, at.exception
    assert "2 of 4 cells differ" in shown(at.error[0].value)
    first = shown(chain_of(at, "output[0]"))
    assert "gets 1 update in the spec's loop order: step 1 updates[0] = -3" in first
    assert "Sum 0 + -3 = -3 over count 2: -3/2 ≈ -1.5" in first
    assert "Rounded down (toward −∞) as the spec says: -2" in first
    assert "truncated toward zero, as the OpenVINO 2026" in first and "CPU plugin does: -1" in first
    assert "Computed -2; you expected -1, which is -3/2 ≈ -1.5 truncated toward zero" in first
    third = shown(chain_of(at, "output[2]"))
    assert "Sum 1 + -6 + 0 = -5 over count 3: -5/3 ≈ -1.667" in third and "as the spec says: -2" in third
    assert all("→" not in c for c in (first, third))  # no running value after each write
    assert "mean-truncated" in texts(at)  # and the diagnosis names the rounding
