"""The sidebar's page list (scatter_ui.pages.navigation): one link per st.Page the navigation routes, by section."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import scatter_core as sc
from tests.support.apptest_helpers import PAGES, open_page

ROOT = Path(__file__).resolve().parents[2]


def _sidebar_list(at) -> list[tuple[str, str]]:
    """The sidebar's page list as (section, link label) pairs, in order."""
    out, section = [], None
    for element in at.sidebar:
        if element.type == "caption":
            section = element.value
        elif element.type == "page_link":
            out.append((section, element.label))
    return out


def test_every_routed_page_has_one_sidebar_link_under_its_section():
    at = open_page("home")
    links = [e for e in at.sidebar if e.type == "page_link"]
    paths = [e.proto.page for e in links]
    assert len(paths) == len(set(paths)) and len({e.proto.page_script_hash for e in links}) == len(links)
    # every page the tests know (each family's explorer and spec page from its record), and Practice
    assert {p for p in PAGES if p != "home"} | {"practice"} <= set(paths), paths
    assert links[0].label == "Home" and links[0].proto.page == ""  # the default page, at the top
    listed = _sidebar_list(at)
    sections = [s for s, _ in listed]
    assert sections == sorted(sections, key=sections.index)  # each section's links together, under its caption
    by_label = dict((label, section) for section, label in listed)
    for family in sc.FAMILIES.values():  # explorer pages in one section, spec pages in another
        explorer = next(e.label for e in links if e.proto.page == family.slug)
        spec = next(e.label for e in links if e.proto.page == f"spec-{family.slug}")
        assert by_label[explorer] == by_label[links[1].label] != by_label[spec]


def test_the_page_list_comes_before_the_page_own_sidebar():
    at = open_page("nd")
    kinds = [e.type for e in at.sidebar]
    last_link = max(i for i, kind in enumerate(kinds) if kind == "page_link")
    first_widget = min(i for i, e in enumerate(at.sidebar) if getattr(e, "label", None) == "Operator version")
    assert last_link < first_widget
    assert at.main.children[0].proto.component_name.endswith(".warm")  # still the app's first element


def test_a_new_family_record_gets_its_explorer_and_spec_page_with_no_page_file(monkeypatch):
    """app.py builds each family's two pages from its record (callable st.Pages): a record is all it takes."""
    window = dataclasses.replace(sc.FAMILIES["update"], name="window", title="Window", slug="window", icon="crop")
    monkeypatch.setattr(sc, "FAMILIES", {**sc.FAMILIES, "window": window})
    at = open_page("home")
    links = {e.proto.page: e for e in at.sidebar if e.type == "page_link"}
    assert links["window"].label == "Window" and links["window"].proto.icon == ":material/crop:"
    assert links["spec-window"].label == "Window spec"
    assert not (ROOT / "app_pages" / "window_family.py").exists()


def test_the_family_pages_keep_their_titles_and_url_paths():
    """Links and the browser tests name these pages: the records keep today's titles and URL paths."""
    at = open_page("home")
    links = {e.proto.page: e.label for e in at.sidebar if e.type == "page_link"}
    assert {path: links[path] for path in ("nd", "elements", "update", "tensor_scatter", "slice_scatter")} == {
        "nd": "ScatterND family", "elements": "Elements family", "update": "ScatterUpdate",
        "tensor_scatter": "TensorScatter (KV cache)", "slice_scatter": "SliceScatter"}
    assert {path: links[path] for path in ("spec-nd", "spec-elements", "spec-update", "spec-tensor_scatter")} == {
        "spec-nd": "ScatterND specs", "spec-elements": "Elements specs", "spec-update": "ScatterUpdate spec",
        "spec-tensor_scatter": "TensorScatter (KV cache) spec"}
    assert links["spec-slice_scatter"] == "SliceScatter spec"


def test_the_navigation_helper_is_told_the_shown_page():
    """The helper marks the sidebar link of the page shown (aria-current="page"): it is sent that page's URL path."""
    import json

    for page, path, title in (("home", "", "Home"), ("nd", "nd", "ScatterND family"),
                              ("spec-elements", "spec-elements", "Elements specs"),
                              ("check", "check", "Check expected output")):
        at = open_page(page)
        (helper,) = [e for e in at.get("bidi_component") if e.proto.component_name.endswith(".nav_style")]
        assert json.loads(helper.proto.json) == {"current": path, "title": title}, page
        assert title in [e.label for e in at.sidebar if e.type == "page_link"]  # the link the helper marks


def test_the_kebab_case_spelling_of_a_path_reaches_the_same_page_with_its_query():
    """/slice-scatter (as /from-code and /spec-nd are spelled) opens /slice_scatter, keeping the link's values;
    the aliases are not listed in the sidebar."""
    from tests.support.apptest_helpers import app_on

    at = app_on("slice-scatter")
    at.query_params.update({"op": "SliceScatter-15", "step": "1"})
    at.run()
    assert not at.exception
    assert at.title[0].value == "SliceScatter-15" and not [e for e in at.error if "not found" in e.value.lower()]
    assert at.query_params["step"] == "1"
    at = app_on("spec-tensor-scatter").run()
    assert [h.value for h in at.title] == [t.value for t in open_page("spec-tensor_scatter").title]
    labels = [e.label for e in at.sidebar if e.type == "page_link"]
    assert not [label for label in labels if label.endswith(("(slice-scatter)", "(spec-tensor-scatter)"))], labels
    assert len(labels) == len(set(e.proto.page for e in at.sidebar if e.type == "page_link"))
