"""AppTest: every page and every spec example renders; frames, warnings and deep links work."""

from __future__ import annotations

import numpy as np
import pytest

import spec_examples
from scatter_core import OPERATORS
from scatter_core.families import FAMILIES
from tests.support.apptest_helpers import figures, open_expander, open_page, shown, texts
from tests.support.markdown_checks import example_page_shows_its_source_strings_as_written

FAMILY_PAGE = {name: family.slug for name, family in FAMILIES.items()}  # apptest_helpers.PAGES names them by slug
TOO_LARGE = 50_000_000  # scatter_core.checks.MAX_ELEMENTS


@pytest.mark.parametrize("page", ["home", "nd", "elements", "update"])
def test_every_page_runs_without_exception(page):
    at = open_page(page)
    assert not at.exception, [e.value for e in at.exception]
    assert at.title


def test_home_gallery_lists_every_example_with_status():
    at = open_page("home")
    body = texts(at)
    for ex in spec_examples.load_all():
        assert ex.title in body, ex.id
    assert "reproduces the spec" in body and "erratum" in body


@pytest.mark.slow
@pytest.mark.parametrize("example", spec_examples.load_all(), ids=lambda e: e.id)
def test_every_spec_example_can_be_selected_and_renders(example):
    """One page run per example checks everything an example's page must show: the pickers, the player's
    figure (or the stand-in's), and the example's own words as written (tests/ui/test_ui_markdown.py)."""
    page = FAMILY_PAGE[OPERATORS[example.op].family]
    at = open_page(page, op=example.op, example=example.id)
    assert not at.exception, [e.value for e in at.exception]
    example_page_shows_its_source_strings_as_written(at, example)
    assert at.selectbox[0].value == example.op and at.selectbox[1].value == example.id
    too_large = max(int(np.prod(s)) for s in example.shapes.values()) > TOO_LARGE
    if too_large:  # its shapes, why it can't run, and a labelled reduced stand-in in the player
        assert "Too large to run in full" in texts(at) and "reduced stand-in" in texts(at)
        assert any("above the limit" in t.value for t in at.text)
        (fig,) = figures(at)
        assert fig["view"].startswith("stand-in:") and fig["n"] == example.indices.size
        return
    assert not [e.value for e in at.error if e.icon == "🛑"]  # input/trace errors carry the stop icon
    figs = figures(at)
    assert len(figs) == 1
    assert [t["type"] for t in figs[0]["data"]] == ["heatmap"] * 3


def _small_example(op_prefix: str):
    return next(e for e in spec_examples.load_all() if e.op.startswith(op_prefix) and not e.shapes_only)


@pytest.mark.parametrize("example_id", ["ov-scatter-elements-update-12-example-1", "onnx-scatternd-18-example-2"])
def test_animation_has_one_frame_per_step_plus_the_initial_state(example_id):
    ex = spec_examples.by_id(example_id)
    page = FAMILY_PAGE[OPERATORS[ex.op].family]
    at = open_page(page, op=ex.op, example=ex.id)
    fig = figures(at)[0]
    n_steps = int(np.prod(ex.indices.shape[:-1])) if OPERATORS[ex.op].family == "nd" else ex.indices.size
    assert [f["name"] for f in fig["frames"]] == [str(k) for k in range(n_steps + 1)]
    assert (fig["k0"], fig["k1"], fig["n"]) == (0, n_steps, n_steps)
    assert sorted(fig["captions"], key=int) == [str(k) for k in range(n_steps + 1)]
    assert fig["captions"]["1"].startswith(f"step 1 of {n_steps}: ")
    # one fixed colour scale for every frame
    axis = fig["layout"]["coloraxis"]
    assert axis["cmin"] <= float(np.min(ex.data)) and axis["cmax"] >= float(np.max(ex.updates))


def test_duplicate_examples_show_their_warning():
    at = open_page("elements", op="ScatterElementsUpdate-12", example="ov-scatter-elements-update-12-example-1")
    assert any("Duplicate indices" in shown(i.value) and "output[0]" in shown(i.value) for i in at.info)
    dup_none = next(e for e in spec_examples.load_all()
                    if e.ours and "duplicate" in e.title.lower() and e.attrs.get("reduction", "none") == "none")
    page = FAMILY_PAGE[OPERATORS[dup_none.op].family]
    at = open_page(page, op=dup_none.op, example=dup_none.id)
    warnings = " ".join(shown(w.value) for w in at.warning)
    assert "depends on the loop order" in warnings and "last write wins" in warnings
    assert warnings.count("result depends on the") == 1  # the title does not say what the message says next
    assert not at.get("plotly_chart")  # one click away: its expander builds it when opened
    at.session_state[f"{OPERATORS[dup_none.op].family}:findings:order_open"] = True
    at.run()
    assert any("first write wins" in str(el.proto) for el in at.get("plotly_chart"))


def test_deep_link_restores_the_view():
    at = open_page("elements", op="ScatterElementsUpdate-12", example="ov-scatter-elements-update-12-example-2",
                   reduction="max", use_init_val="false", step="3", axis="0")
    assert not at.exception
    assert [s.value for s in at.selectbox][:3] == ["ScatterElementsUpdate-12", "ov-scatter-elements-update-12-example-2",
                                                   "max"]
    assert at.checkbox[0].value is False
    assert at.session_state["elements:step"] == 3
    fig = figures(at)[0]
    assert fig["step"] == 3 and fig["active"] == 3
    assert fig["captions"]["3"].startswith("step 3 of 6: ")
    assert at.query_params["reduction"] == "max" and at.query_params["step"] == "3"


def test_bad_text_input_shows_a_clear_error_and_keeps_the_text():
    at = open_page("nd", op="ScatterND-18", example="onnx-scatternd-18-example-1")
    bad = "[[4], [3], [1], [9]]"
    assert not at.text_area, "the editor's boxes are built only while it is open"
    open_expander(at, "Edit inputs")
    at.text_area(key="nd:text_indices").set_value(bad).run()
    assert not at.exception
    assert any("indices[3, 0] = 9 is out of range" in shown(e.value) for e in at.error)
    assert at.text_area(key="nd:text_indices").value == bad
    editor = next(e for e in at.expander if e.label == "Edit inputs")
    assert editor.proto.expanded  # stays open while its text has an error, the error beside the text
    assert any("out of range" in shown(e.value) for e in editor.error)
    at.text_area(key="nd:text_indices").set_value("[[4], [3], [1], [x]]").run()
    assert any("'x' is not a number" in shown(e.value) for e in at.error)
    assert at.text_area(key="nd:text_indices").value == "[[4], [3], [1], [x]]"


@pytest.mark.slow
def test_an_edit_outlives_closing_the_editor():
    at = open_page("nd", op="ScatterND-18", example="onnx-scatternd-18-example-1")
    open_expander(at, "Edit inputs")
    at.text_area(key="nd:text_updates").set_value("[90, 100, 110, 120]").run()
    editor = next(e for e in at.expander if e.label == "Edit inputs")
    at.session_state[editor.key] = False  # closed: its boxes are not built
    at.run()
    assert not at.text_area and not at.exception
    assert at.query_params["updates"] == "[90, 100, 110, 120]"  # the case shown is still the edited one
    at.run()
    open_expander(at, "Edit inputs")
    assert at.text_area(key="nd:text_updates").value == "[90, 100, 110, 120]"


def test_the_sidebar_keeps_its_order_though_drawn_after_the_figure():
    at = open_page("nd", op="ScatterND-18", example="onnx-scatternd-18-example-2")
    labels = [w.label for w in at.sidebar if hasattr(w, "label") and w.label and w.type != "page_link"]  # not the page list
    assert labels[:2] == ["Operator version", "Example"], labels
    assert labels.index("reduction") < labels.index("Output: small multiples over axis"), labels
    assert "Share this view" in " ".join(c.value for c in at.sidebar.caption)
    assert "Share this view" in at.sidebar.caption[-1].value  # after the widgets, as before


def test_small_multiples_axis_can_be_chosen():
    at = open_page("nd", op="ScatterND-18", example="onnx-scatternd-18-example-2")
    fig = figures(at)[0]
    labels = [a["text"] for a in fig["layout"]["annotations"] if a["text"].startswith("output[")]
    assert labels == [f"output[{i}, :, :]" for i in range(4)]
    at.selectbox(key="nd:panel_axis").set_value(2).run()
    fig = figures(at)[0]
    labels = [a["text"] for a in fig["layout"]["annotations"] if a["text"].startswith("output[")]
    assert labels == [f"output[:, :, {i}]" for i in range(4)]


@pytest.mark.slow
def test_a_link_followed_later_in_the_session_reopens_its_view():
    at = open_page("nd", op="ScatterND-18", example="onnx-scatternd-18-example-1", step="1")
    assert at.session_state["nd:step"] == 1
    at.run()  # the page's own URL (with step=1) must not reset anything
    assert at.session_state["nd:step"] == 1 and at.selectbox[1].value == "onnx-scatternd-18-example-1"
    at.query_params.clear()
    at.query_params.update({"op": "ScatterND-16", "example": "onnx-scatternd-16-example-2", "step": "2"})
    at.run()
    assert at.selectbox[0].value == "ScatterND-16" and at.selectbox[1].value == "onnx-scatternd-16-example-2"
    assert at.session_state["nd:step"] == 2


def test_a_rerun_carrying_the_pages_own_older_url_changes_nothing():
    """Stepping fast: a rerun the browser asked for before it applied the page's newest URL carries the
    one before. It is an echo of the page, not a link: the step stays and no value is named as ignored."""
    at = open_page("elements", op="ScatterElementsUpdate-12", example="ov-scatter-elements-update-12-example-1",
                   step="1")
    older = dict(at.query_params)
    at.session_state["elements:step"] = 4  # what the player's step report does
    at.run()
    assert at.query_params["step"] == "4"
    at.query_params.clear()
    at.query_params.update(older)  # the stale echo: step=1, which this page wrote itself
    at.run()
    assert at.session_state["elements:step"] == 4
    assert not [w for w in at.warning if "was ignored" in w.value]


@pytest.mark.slow
def test_a_step_sends_the_player_the_same_data_while_its_frames_hold_it():
    """The browser owns the step: a step's rerun sends the player exactly what it had (Streamlit then sends
    a reference, not the figure), until the step leaves the frames sent, when a new window comes."""
    at = open_page("elements", op="ScatterElementsUpdate-12", example="ov-scatter-elements-update-12-example-1",
                   step="1")
    player_json = lambda: next(e.proto.bytes for e in at.get("bidi_component")  # noqa: E731
                               if e.proto.component_name.endswith(".player"))
    first = player_json()
    data = figures(at)[0]
    assert data["report"] is True and data["url_param"] == "step" and data["step"] == 1
    at.session_state["elements:step"] = 5  # what the player's step report does
    at.run()
    assert player_json() == first and at.query_params["step"] == "5"
    # a case longer than one window of frames: a step outside it brings the frames around it
    indices = str([i % 4 for i in range(700)])
    updates = str(list(range(700)))
    at = open_page("elements", op="ScatterElements-18", example="__custom__", data="[0, 0, 0, 0]",
                   indices=indices, updates=updates, reduction="add")
    k0, k1 = figures(at)[0]["k0"], figures(at)[0]["k1"]
    assert (k0, figures(at)[0]["n"]) == (0, 700) and k1 < 700
    first = player_json()
    at.session_state["elements:step"] = k1  # still inside
    at.run()
    assert player_json() == first
    at.session_state["elements:step"] = 650
    at.run()
    fig = figures(at)[0]
    assert fig["k0"] <= 650 <= fig["k1"] and fig["step"] == 650 and fig["k1"] > k1


def test_step_log_and_warnings_show_the_players_step():
    at = open_page("elements", op="ScatterElementsUpdate-12", example="ov-scatter-elements-update-12-example-1",
                   step="2")
    assert figures(at)[0]["step"] == 2
    assert any(e.label == "Step log (6 steps)" for e in at.expander)
    assert not [df for df in at.dataframe if "now" in df.value.columns]  # closed: not built (a fast first draw)
    at.session_state["elements:step_log_open"] = True  # what opening it does
    at.run()
    assert "Now at step 2: its row is marked ▶ and highlighted." in [c.value for c in at.caption]
    log = next(df for df in at.dataframe if "now" in df.value.columns)
    assert log.value.loc[log.value["now"] == "▶", "step"].tolist() == [2]
    dup = next(shown(i.value) for i in at.info if "Duplicate indices" in shown(i.value))
    assert "At step 2: this step writes output[0], one of these cells." in dup
    at = open_page("elements", op="ScatterElementsUpdate-12", example="ov-scatter-elements-update-12-example-1",
                   step="5")  # step 5 writes output[3], written once
    dup = next(shown(i.value) for i in at.info if "Duplicate indices" in shown(i.value))
    assert "At step" not in dup


def test_the_rules_panel_is_built_when_opened():
    at = open_page("nd", op="ScatterND-18", example="onnx-scatternd-18-example-1")
    label = "About ScatterND-18: the rules this page follows"
    assert any(e.label == label for e in at.expander) and not [c for c in at.code if "indices" in c.value]
    at.session_state["nd:spec_facts_open"] = True
    at.run()
    assert [c.value for c in at.code] == [OPERATORS["ScatterND-18"].formula]
    share = next(c.value for c in at.sidebar.caption if c.value.startswith("Share this view"))
    assert "`/nd?op=ScatterND-18&example=onnx-scatternd-18-example-1&" in share  # inline code: no highlighter


def test_a_windowed_examples_overview_is_built_when_opened():
    at = open_page("elements", op="ScatterElementsUpdate-12", example="ov-scatter-elements-update-12-example-6")
    assert any(e.label.startswith("Which slice is shown") for e in at.expander)
    assert any(e.label.startswith("Overview: where the writes land") for e in at.expander)
    assert not at.get("plotly_chart")
    at.session_state["elements:overview_open"] = True
    at.run()
    assert len(at.get("plotly_chart")) == 1 and not at.exception


def test_example_menus_show_readable_titles_not_test_function_names():
    """The explorer's and the check page's example menus: "ONNX node test: add with a duplicate index", never the
    test function's name (`export_scatter_elements_with_d…`)."""
    from tests.support.apptest_helpers import app_on

    op = "ScatterElements-18"
    node = spec_examples.by_id("onnx-node-scatter-elements-with-duplicate-indices")
    assert node.label.startswith("export_") and node.menu_title == "ONNX node test: add with a duplicate index"
    explorer = open_page("elements", op=op)
    check = app_on("app_pages/check_expected.py")
    check.run()
    check.selectbox(key=next(s.key for s in check.selectbox if s.label == "Operator version")).set_value(op).run()
    for at, label in ((explorer, "Example"), (check, "Start from an example")):
        (menu,) = [s for s in at.selectbox if s.label == label]
        assert node.menu_title in menu.options, menu.options
        assert not [o for o in menu.options if "export_" in o or "_" in o.split(":")[0]], menu.options
        assert "teaching case: float32 sum that depends on the order of the updates (1 last) (ours)" in menu.options


@pytest.mark.parametrize("change", ["axis", "text"])
def test_a_changed_example_is_called_the_users_and_its_description_goes(change):
    """#22: beside an axis=1 case, "No axis is given, so the default axis 0 applies" and the menu's "Example 1"."""
    ex = spec_examples.by_id("onnx-scatterelements-18-example-1")
    assert "default axis 0 applies" in ex.notes
    at = open_page("elements", op=ex.op, example=ex.id)
    menu = next(s for s in at.selectbox if s.label == "Example")
    assert menu.format_func(ex.id) == ex.menu_title  # the example as it is: its own title and description
    assert any("default axis 0 applies" in c.value for c in at.caption)
    if change == "axis":
        at.number_input(key="elements:axis").set_value(1).run()
    else:
        open_expander(at, "Edit inputs")
        at.text_area(key="elements:text_updates").set_value("[[9, 9, 9], [8, 8, 8]]").run()
    assert not at.exception and not at.error
    what = "attributes" if change == "axis" else "inputs"
    assert not [c for c in at.caption if "default axis 0 applies" in c.value]  # not beside the user's case
    assert not [m for m in at.markdown if f"**{ex.title}**" in m.value]
    assert any(f"**Your {what}**, started from" in m.value for m in at.markdown)
    menu = next(s for s in at.selectbox if s.label == "Example")
    assert menu.format_func(ex.id) == f"✎ your {what}, started from {ex.menu_title}"
    next(b for b in at.button if b.label == "Back to the example").click().run()
    assert any("default axis 0 applies" in c.value for c in at.caption)
    assert next(s for s in at.selectbox if s.label == "Example").format_func(ex.id) == ex.menu_title


@pytest.mark.parametrize("family", sorted(FAMILIES.values(), key=lambda f: f.name), ids=lambda f: f.slug)
def test_the_editor_shows_a_box_only_for_inputs_the_family_reads(family):
    """SliceScatter never reads indices (its record says "unused"): no empty "indices" box to type into."""
    at = open_page(family.slug)
    open_expander(at, "Edit inputs")
    assert not at.exception
    wanted = ["data", "updates"] if family.indices == "unused" else ["data", "indices", "updates"]
    assert [t.label for t in at.text_area] == wanted
