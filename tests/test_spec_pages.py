"""The spec pages (one per family): timeline, version comparison, ONNX vs OpenVINO, errata, runtime notes.

Everything the pages show is derived from the registry; these tests check the
pages against the records, so a new version or note shows up without a test edit.
"""

from __future__ import annotations

import re

import pytest

import runtime_check as rc
import scatter_core as sc
import spec_examples
from scatter_core.registry import OPERATORS_LIST
from scatter_ui import specdiff
from tests.apptest_helpers import open_page, texts

FAMILIES = tuple(sc.families.FAMILIES)  # every family record has its spec page


@pytest.fixture(scope="module")
def pages():
    return {f: open_page(f"spec-{sc.families.FAMILIES[f].slug}") for f in FAMILIES}


def _frames(at):
    return [d.value for d in at.dataframe]


def _frame_with(at, column: str):
    found = [df for df in _frames(at) if column in df.columns]
    assert found, f"no table with a column {column!r}"
    return found


# ------------------------------------------------------------------------------ rendering
@pytest.mark.parametrize("family", FAMILIES)
def test_spec_page_renders_for_every_family(pages, family):
    at = pages[family]
    assert not at.exception
    assert not [e for e in at.error if "Something went wrong" in str(e.value)]
    assert at.title[0].value == f"Spec: {sc.FAMILY_TITLES[family]}"
    body = texts(at)
    for spec in sc.family_members(family):  # every version, with a link to its official page
        assert f"[{spec.name} ↗]({spec.url})" in body


# ------------------------------------------------------------------------------ timeline
@pytest.mark.parametrize("spec", OPERATORS_LIST, ids=lambda s: s.name)
def test_every_declared_change_appears_on_the_timeline(pages, spec):
    body = texts(pages[spec.family])
    heading = body.index(f"#### {spec.name} ")
    block = body[heading:body.find("#### ", heading + 5) if "#### " in body[heading + 5:] else None]
    assert spec.changes
    for change in spec.changes:
        assert f"- {change}" in block, (spec.name, change)
    if spec.deprecated:
        assert f"deprecated → {spec.deprecated}" in block
    assert spec.formula in block


@pytest.mark.parametrize("family", FAMILIES)
def test_timeline_lists_versions_in_order(pages, family):
    body = texts(pages[family])
    for op_type in dict.fromkeys(s.op_type for s in sc.family_members(family)):
        positions = [body.index(f"#### {s.name} ") for s in sc.versions_of(op_type)]
        assert positions == sorted(positions), op_type


def test_timeline_computes_reduction_and_rule_changes_from_the_records():
    assert specdiff.reduction_changes(sc.OPERATORS["ScatterND-16"], sc.OPERATORS["ScatterND-18"]) == [
        "reductions gained: max, min"]
    assert specdiff.reduction_changes(sc.OPERATORS["ScatterND-13"], sc.OPERATORS["ScatterND-16"]) == [
        "reductions gained: add, mul"]
    assert specdiff.reduction_changes(sc.OPERATORS["ScatterNDUpdate-3"], sc.OPERATORS["ScatterNDUpdate-15"]) == [
        "reductions gained: sum, sub, prod, min, max"]
    entries = dict(specdiff.timeline("nd"))["ScatterNDUpdate"]
    fields = {r.field for r in entries[1].computed}
    assert {"negative indices", "reductions (spelling = meaning)", "duplicates forbidden with"} <= fields
    # ScatterElements-11 follows Scatter-9 across the rename; Scatter-11 is marked deprecated
    elements = dict(specdiff.timeline("elements"))
    assert elements["ScatterElements"][0].spec.previous == "Scatter-9"
    assert elements["Scatter"][1].spec.deprecated == "ScatterElements-11"


def test_timeline_shows_the_computed_rule_differences(pages):
    at = pages["nd"]
    labels = [e.label for e in at.expander]
    assert "Rule differences ScatterND-16 → ScatterND-18 (" + str(
        len(dict(specdiff.timeline("nd"))["ScatterND"][3].computed)) + ")" in labels
    tables = [df for df in _frames(at) if list(df.columns) == ["rule", "ScatterND-16", "ScatterND-18"]]
    assert len(tables) == 1
    row = tables[0].set_index("rule").loc["reductions (spelling = meaning)"]
    assert "max" not in row["ScatterND-16"] and "max (= max)" not in row["ScatterND-18"]
    assert row["ScatterND-18"].endswith("max, min")


# ------------------------------------------------------------------------------ comparison
def test_diff_marks_exactly_the_fields_that_differ():
    rows = {r.field: r for r in specdiff.diff("ScatterND-16", "ScatterND-18")}
    assert rows["reductions (spelling = meaning)"].differs
    assert "min" in rows["reductions (spelling = meaning)"].b and "min" not in rows["reductions (spelling = meaning)"].a
    for same in ("loop", "formula", "negative indices", "index types", "shape rules", "data types"):
        assert not rows[same].differs, same
    assert not specdiff.differences("ScatterND-18", "ScatterND-18")
    ov = {r.field for r in specdiff.differences("ScatterElementsUpdate-3", "ScatterElementsUpdate-12")}
    assert {"negative indices", "attributes", "indices axis dim may exceed data's"} <= ov


def test_comparison_view_marks_max_min_between_nd_16_and_18():
    at = open_page("spec-nd", a="ScatterND-16", b="ScatterND-18")
    assert not at.exception
    df = _frame_with(at, "ScatterND-16")[-1]
    assert list(df.columns) == ["", "rule", "ScatterND-16", "ScatterND-18"]
    red = df[df["rule"] == "reductions (spelling = meaning)"].iloc[0]
    assert red[""] == "≠" and "max" in red["ScatterND-18"] and "max" not in red["ScatterND-16"]
    assert df[df["rule"] == "loop"].iloc[0][""] == ""
    n = int((df[""] == "≠").sum())
    assert n == len(specdiff.differences("ScatterND-16", "ScatterND-18"))
    assert f"{n} of {len(df)} rules differ" in texts(at)
    # pick another pair in the widgets: the table follows
    at.selectbox(key="spec-nd:a").set_value("ScatterNDUpdate-3").run()
    df = _frame_with(at, "ScatterNDUpdate-3")[-1]
    neg = df[df["rule"] == "negative indices"].iloc[0]
    assert neg[""] == "≠" and "forbidden" in neg["ScatterNDUpdate-3"] and "allowed" in neg["ScatterND-18"]



def test_a_single_version_family_compares_with_another_family_by_default():
    at = open_page("spec-update")
    assert at.selectbox(key="spec-update:a").value == "ScatterNDUpdate-3"
    assert at.selectbox(key="spec-update:b").value == "ScatterUpdate-3"
    assert at.selectbox(key="spec-update:a").options[0] == "ScatterUpdate-3"
    assert set(at.selectbox(key="spec-update:a").options) == set(sc.OPERATORS)
    df = _frame_with(at, "ScatterNDUpdate-3")[-1]
    assert df[df["rule"] == "formula"].iloc[0][""] == "≠"


# ------------------------------------------------------------------------------ cross-framework
def _cross(at, a, b):
    df = [d for d in _frames(at) if list(d.columns) == ["topic", a, b]]
    assert len(df) == 1
    return df[0].set_index("topic")


def test_cross_framework_elements(pages):
    df = _cross(pages["elements"], "ScatterElements-18", "ScatterElementsUpdate-12")
    assert df.loc["reduction meaning sum"].tolist() == ["✔ add", "✔ sum"]
    assert df.loc["reduction meaning prod"].tolist() == ["✔ mul", "✔ prod"]
    assert df.loc["reduction meaning mean"].tolist() == ["✘ not available", "✔ mean"]
    assert df.loc["mean available"].tolist() == ["no", "yes"]
    assert df.loc["sub available"].tolist() == ["no", "no"]
    assert "reduction meaning sub" not in df.index
    assert df.loc["use_init_val", "ScatterElements-18"].startswith("✘")
    assert df.loc["use_init_val", "ScatterElementsUpdate-12"] == "✔ attribute, default true"
    assert df.loc["negative indices"].tolist() == [specdiff.NEGATIVE_WORDS["allowed"]] * 2
    assert df.loc["duplicates forbidden with"].tolist() == ["none", "(never)"]
    assert df.loc["duplicate policy", "ScatterElementsUpdate-12"] == \
        sc.OPERATORS["ScatterElementsUpdate-12"].duplicate_policy


def test_cross_framework_nd(pages):
    df = _cross(pages["nd"], "ScatterND-18", "ScatterNDUpdate-15")
    assert df.loc["reduction meaning sum"].tolist() == ["✔ add", "✔ sum"]
    assert df.loc["reduction meaning sub"].tolist() == ["✘ not available", "✔ sub"]
    assert df.loc["sub available"].tolist() == ["no", "yes"]
    assert df.loc["mean available"].tolist() == ["no", "no"]
    assert df.loc["use_init_val"].map(lambda v: v.startswith("✘")).all()
    assert df.loc["axis"].map(lambda v: v.startswith("no axis")).all()


def test_cross_framework_pairs_are_registry_versions_and_the_update_page_says_there_is_none(pages):
    for a, b in specdiff.CROSS_PAIRS:
        assert sc.OPERATORS[a].framework == "ONNX" and sc.OPERATORS[b].framework == "OpenVINO"
        assert sc.OPERATORS[a].family == sc.OPERATORS[b].family
    assert specdiff.pairs_for("update") == []
    assert "no ONNX counterpart" in texts(pages["update"])


# ------------------------------------------------------------------------------ errata
def test_every_erratum_is_listed_on_the_page_it_concerns_and_only_there(pages):
    errata = spec_examples.load_errata()
    assert errata
    for er in errata:
        families = {sc.OPERATORS[op].family for op in er.ops}
        for family in FAMILIES:
            body = texts(pages[family])
            if family in families:
                assert f"**{er.id}**" in body, (er.id, family)
                assert er.explanation in body
                if er.evidence:
                    assert f"Evidence: {er.evidence}" in body
            else:
                assert f"**{er.id}**" not in body, (er.id, family)
    # an example's erratum links to that example in the explorer
    for family in FAMILIES:
        links = {p.proto.query_string for p in pages[family].get("page_link") if p.proto.label.startswith("Open ")}
        want = {f"op={spec_examples.by_id(er.example_id).op}&example={er.example_id}" for er in errata
                if er.example_id and sc.OPERATORS[spec_examples.by_id(er.example_id).op].family == family}
        assert links == want


# ------------------------------------------------------------------------------ runtime notes
@pytest.mark.parametrize("family", FAMILIES)
def test_every_runtime_note_is_shown_with_its_runtime_and_source(pages, family):
    tables = _frame_with(pages[family], "runtime (version)")
    shown = {(r["topic"], r["runtime (version)"], r["what it does"], r["source"])
             for df in tables for r in df.to_dict("records")}
    for spec in sc.family_members(family):
        for n in spec.runtime_notes:
            source = "../shared/semantics.md" if n.documented else "NEW: runtime_check tests, not in semantics.md"
            assert (n.topic, n.runtimes, n.text, source) in shown


def test_every_runtime_note_names_its_runtimes_with_versions():
    names = ("onnxruntime", "onnx.reference", "onnx ", "OpenVINO")
    for spec in OPERATORS_LIST:
        for n in spec.runtime_notes:
            for name in names:
                for m in re.finditer(re.escape(name), n.runtimes):
                    assert re.match(r"\s*\d+\.\d+", n.runtimes[m.end():]), (spec.name, n.runtimes)
            assert any(name in n.runtimes for name in names)


def _notes(op, topic, documented=True):
    return [n for n in sc.OPERATORS[op].notes_on(topic) if n.documented == documented]


def test_the_issue_runtime_behaviours_are_in_the_registry():
    ov_ops = [s.name for s in OPERATORS_LIST if s.framework == "OpenVINO"]
    # who wins on duplicates: every version
    assert all(s.notes_on("duplicates") and "last write" in s.note_text("duplicates") for s in OPERATORS_LIST
               if "cannot occur" not in s.duplicate_policy)  # (TensorScatter and SliceScatter never write twice)
    # integer mean: CPU truncates, the reference floors
    mean = _notes("ScatterElementsUpdate-12", "integer-mean")
    assert any("CPU plugin" in n.runtimes and "truncates" in n.text and "floors" in n.text for n in mean)
    # onnxruntime: max/min at opset 16, unknown strings ignored
    for op in ("ScatterND-16", "ScatterElements-16"):
        text = sc.OPERATORS[op].note_text("reduction")
        assert "onnxruntime 1.31.1" in text and "max and min at opset 16" in text and "unknown strings" in text
    # OV CPU: nothing for k = 0
    for op in ("ScatterNDUpdate-3", "ScatterNDUpdate-15"):
        assert any("CPU plugin" in n.runtimes and "does nothing" in n.text for n in _notes(op, "k-zero"))
    # negative indices accepted although the v3 texts forbid them
    for op in ("ScatterElementsUpdate-3", "ScatterNDUpdate-3"):
        assert sc.OPERATORS[op].index_rule.negative == "forbidden"
        assert any("accept negative indices" in n.text for n in _notes(op, "negative-index"))
    # int64 computed as int32 on the CPU plugin: every OpenVINO version
    for op in ov_ops:
        assert any("CPU plugin" in n.runtimes and "int32" in n.text for n in _notes(op, "int64"))
    # out-of-range lower bounds crash the CPU plugin (Elements ops)
    for op in ("ScatterElementsUpdate-3", "ScatterElementsUpdate-12"):
        assert any("crashes" in n.text for n in _notes(op, "index-range"))


def test_new_runtime_behaviours_are_marked_as_not_in_semantics_md():
    new = {(s.name, n.topic) for s in OPERATORS_LIST for n in s.runtime_notes if not n.documented}
    expected = {
        ("ScatterElementsUpdate-12", "reference-kernels"), ("ScatterNDUpdate-15", "reference-kernels"),
        ("ScatterElementsUpdate-12", "float64"), ("ScatterElementsUpdate-12", "uint64"),
        ("ScatterElementsUpdate-12", "integer-mean-int16"), ("ScatterUpdate-3", "updates-offsets"),
        ("ScatterElementsUpdate-3", "index-range-silent"),
        ("ScatterNDUpdate-15", "bool"), ("ScatterElementsUpdate-12", "bool"),
        ("ScatterUpdate-3", "negative-index"), ("ScatterND-18", "signed-zero"),
        ("ScatterElementsUpdate-12", "signed-zero"),
    }
    assert expected <= new
    # every behaviour runtime_check observed beyond semantics.md is a registry note flagged new
    assert all(not d.documented for d in rc.OBSERVED)
    assert all(d.documented for d in rc.DOCUMENTED)
    offsets = _notes("ScatterUpdate-3", "updates-offsets", documented=False)[0]
    assert "[[1, 2], [2, 3], [3, 4]]" in offsets.text and "reference" in offsets.runtimes
    assert all(n.documented for s in OPERATORS_LIST for n in s.runtime_notes if n.topic == "duplicates")


# ------------------------------------------------------------------------------ in a real browser
@pytest.fixture(scope="module")
def browser_page(server, browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1400})
    pg = ctx.new_page()
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(f"pageerror: {e}"))
    pg.base_url = server.url
    yield pg
    ctx.close()


def _settle(pg, text: str):
    pg.get_by_text(text, exact=False).first.wait_for(timeout=60_000)
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=60_000)


@pytest.mark.browser
@pytest.mark.parametrize("family,link", [("nd", "ScatterND specs"), ("elements", "Elements specs"),
                                         ("update", "ScatterUpdate spec")])
def test_spec_pages_in_chromium(browser_page, family, link):
    from tests.browser_support import SCREENSHOTS, real_errors

    pg = browser_page
    pg.goto(pg.base_url)
    _settle(pg, "Every worked example")
    pg.locator("[data-testid=stSidebarNav] a", has_text=link).click()
    _settle(pg, f"Spec: {sc.FAMILY_TITLES[family]}")
    newest = max(sc.family_members(family), key=lambda s: (s.framework == "ONNX", s.version))
    assert pg.get_by_text(f"{newest.name} (", exact=False).first.is_visible()
    pg.get_by_role("tab", name="Compare versions").click()
    pg.get_by_text("rules differ", exact=False).first.wait_for(timeout=30_000)
    pg.locator("[data-testid=stDataFrame]:visible").first.wait_for(timeout=30_000)
    pg.wait_for_timeout(2000)  # the grid draws its cells on a canvas
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / f"spec-{family}-compare-browser.png"))
    pg.get_by_role("tab", name="ONNX vs OpenVINO").click()
    _settle(pg, "ONNX vs OpenVINO")
    if specdiff.pairs_for(family):
        a, b = specdiff.pairs_for(family)[0]
        pg.get_by_text(f"{a.name} vs {b.name}").first.wait_for(timeout=30_000)
    else:
        pg.get_by_text("no ONNX counterpart", exact=False).first.wait_for(timeout=30_000)
    assert real_errors(pg.console_errors) == []
