"""scatter_ui/parts/attribute_inputs.py and the pages of the newest operators (AppTest)."""

from __future__ import annotations

import numpy as np
import pytest

import scatter_core as sc
import spec_examples
from scatter_ui.parts import attribute_inputs as ai
from scatter_ui.state.cache import parse_input
from scatter_ui.parts import controls
from scatter_ui.parts import session
from tests.support.apptest_helpers import open_page, shown

SS, TS = sc.OPERATORS["SliceScatter-15"], sc.OPERATORS["TensorScatter-24"]


@pytest.mark.parametrize("text,want", [("0, -1", (0, -1)), ("[2]", (2,)), (" 3 ", (3,)), ("", None), ("  ", None),
                                       ([1, 2], (1, 2)), (None, None)])
def test_integer_lists_are_read_without_eval(text, want):
    assert sc.codec_of(SS, "start").from_text(text) == want


@pytest.mark.parametrize("text,words", [("0.5", "list of integers"), ("x", "not a number"), ("[[1]]", "list of integers"),
                                        ("__import__('os')", "start")])
def test_bad_integer_lists_name_the_attribute(text, words):
    with pytest.raises(sc.ScatterError, match=words) as info:
        sc.codec_of(SS, "start").from_text(text)
    assert info.value.argument == "start"


def test_session_values_round_trip_through_their_text():
    step, axes = sc.codec_of(SS, "step"), sc.codec_of(SS, "axes")
    assert step.to_session((2, -1)) == "2, -1" and step.from_session("2, -1") == (2, -1)
    assert axes.to_session(None) == "" and axes.from_session("") is None
    assert sc.codec_of(TS, "mode").to_session("circular") == "circular"


def test_attribute_names_that_clash_with_page_state_get_their_own_key():
    assert ai.state_name("step") == "attr_step"  # SliceScatter's step, not the step shown
    assert [ai.state_name(n) for n in ("axis", "reduction", "mode", "start", "axes")] == [
        "axis", "reduction", "mode", "start", "axes"]
    assert {"mode", "start", "stop", "attr_step", "axes"} <= set(session.URL_KEYS)
    assert len(set(session.URL_KEYS)) == len(session.URL_KEYS)


def test_empty_indices_text_is_none_only_where_the_family_allows_it():
    def parse(role, text):
        return sc.parse_tensor(text, name=role)

    assert parse_input(TS, "indices", " ", parse) is None  # write_indices left out
    assert parse_input(SS, "indices", "", parse) is None  # SliceScatter reads none
    with pytest.raises(sc.ScatterError):
        parse_input(sc.OPERATORS["ScatterND-18"], "indices", "", parse)
    assert parse_input(TS, "indices", "[1, 2]", parse).tolist() == [1, 2]
    assert controls.tensor_text(None) == "" and controls.tensor_text(np.array([1])) == "array([1])"


def test_examples_without_indices_are_editable():
    ex = spec_examples.by_id("ov-slice-scatter-15-example-1")
    assert ex.indices is None and ai.editable(ex, 10_000)
    assert not ai.editable(spec_examples.by_id("ov-scatter-nd-update-3-layer-example"), 10_000)


def test_every_kind_a_record_declares_has_a_widget():
    plain = [a for s in sc.OPERATORS_LIST for a in s.attributes if not sc.codec_of(s, a).role]  # beyond axis,
    kinds = {a.kind for a in plain}  # reduction and use_init_val, whose codecs name their role
    assert kinds <= {"str", "ints", "int", "bool"}
    assert all(a.choices for a in plain if a.kind == "str")
    # each codec names the widget drawn for it, and the page has a drawer for each one named
    widgets = {(c.attr.codec or c.attr.kind, c.widget) for s in sc.OPERATORS_LIST for c in sc.codecs_of(s)}
    assert widgets == {("axis", "axis"), ("reduction", "select"), ("init", "switch"), ("str", "select"),
                       ("ints", "list")}
    # the kinds no record declares today get theirs too (a string without choices is typed)
    extra = {k: sc.codec_of(TS, sc.AttrSpec("x", k)).widget for k in ("int", "bool", "str")}
    assert extra == {"int": "number", "bool": "switch", "str": "text"}
    assert {w for _, w in widgets} | set(extra.values()) == set(ai.DRAWERS)


# ---------------------------------------------------------------- the pages (AppTest)
def _stops(at):
    """The stop-icon errors as shown (Markdown escapes removed)."""
    return [shown(e.value) for e in at.error if e.icon == "🛑"]


def test_slice_scatter_explorer_edits_list_attributes_and_keeps_them_in_the_url():
    at = open_page("slice_scatter", example="teach-slice-scatter-negative-step")
    assert not at.exception and not _stops(at)
    boxes = {w.label.split(" ")[0]: w for w in at.sidebar.text_input}
    assert {n: w.value for n, w in boxes.items()} == {"start": "100", "stop": "-100", "step": "-2", "axes": "-1"}
    boxes["step"].set_value("0").run()
    assert any("step[0] = 0" in e for e in _stops(at))  # the core's message, the text kept
    assert [w.value for w in at.sidebar.text_input if w.label.startswith("step")] == ["0"]
    [w for w in at.sidebar.text_input if w.label.startswith("step")][0].set_value("-2").run()
    assert not _stops(at)
    assert at.query_params["attr_step"] == "-2" and at.query_params["start"] == "100"
    assert at.query_params["step"] == "0"  # the step shown is still its own parameter


def test_slice_scatter_deep_link_restores_the_attributes():
    at = open_page("slice_scatter", op="SliceScatter-15", example="ov-slice-scatter-15-example-2", start="0",
                   stop="5", attr_step="2", axes="1", step="2")
    assert not at.exception and not _stops(at)
    assert {w.label.split(" ")[0]: w.value for w in at.sidebar.text_input}["start"] == "0"


def test_tensor_scatter_explorer_offers_the_modes_and_reports_a_linear_overrun():
    at = open_page("tensor_scatter", example="onnx-node-tensorscatter-circular")
    assert not at.exception and not _stops(at)
    mode = next(s for s in at.sidebar.selectbox if s.label == "mode")
    assert list(mode.options) == ["linear", "circular"] and mode.value == "circular"
    mode.set_value("linear").run()
    assert any("3 + 2 > 4" in e for e in _stops(at))
    assert at.query_params["mode"] == "linear"


def test_check_page_runs_the_new_operators_without_indices():
    for op, ex_id in (("SliceScatter-15", "ov-slice-scatter-15-example-3"),
                      ("TensorScatter-24", "teach-tensorscatter-prefill")):
        at = open_page("check", op=op, example=ex_id)
        assert not at.exception and not _stops(at), op
        assert any("matches" in s.value for s in at.success), op


@pytest.mark.parametrize("page", ["spec-tensor_scatter", "spec-slice_scatter"])
def test_spec_pages_of_the_new_families_render(page):
    at = open_page(page)
    assert not at.exception and at.title


# ------------------------------------------------------------- one attribute-loading path (issue 25)
LINK = {"op": "ScatterElementsUpdate-12", "example": "__custom__", "data": "[1, 2, 3]", "indices": "[0, 0]",
        "updates": "[5, 6]", "axis": "-1", "reduction": "mean", "use_init_val": "false"}


@pytest.mark.parametrize("page,prefix", [("elements", "elements"), ("check", "check")])
def test_explorer_and_check_page_read_a_link_through_the_codecs(page, prefix):
    """The same link gives both pages the same session values, each read by its attribute's codec, and the
    explorer writes the same texts back into its URL."""
    at = open_page(page, **LINK)
    assert not at.exception
    ss = at.session_state
    assert (ss[f"{prefix}:axis"], ss[f"{prefix}:reduction"], ss[f"{prefix}:use_init_val"]) == (-1, "mean", False)
    spec = sc.OPERATORS[LINK["op"]]
    with_state = {n: ss[f"{prefix}:{ai.state_name(n)}"] for n in spec.attribute_names}
    assert {n: sc.codec_of(spec, n).from_session(v) for n, v in with_state.items()} == {
        "axis": -1, "reduction": "mean", "use_init_val": False}
    if page == "elements":
        assert {n: at.query_params[n] for n in ("axis", "reduction", "use_init_val")} == {
            "axis": "-1", "reduction": "mean", "use_init_val": "false"}
    checkbox = next(c for c in at.sidebar.checkbox if c.label == "use_init_val")
    assert not checkbox.disabled and checkbox.value is False  # it counts with mean
    next(s for s in at.sidebar.selectbox if s.label == "reduction").set_value("none").run()
    assert next(c for c in at.sidebar.checkbox if c.label == "use_init_val").disabled  # not with none
