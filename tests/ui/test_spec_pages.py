"""The spec pages (one per family): timeline, version comparison, ONNX vs OpenVINO, errata, runtime notes.

Everything the pages show is derived from the registry; these tests check the
pages against the records, so a new version or note shows up without a test edit.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import runtime_check as rc
import scatter_core as sc
import spec_examples
from scatter_core.registry import OPERATORS_LIST
from scatter_ui.figures import specdiff
from tests.support.apptest_helpers import open_page, sources as texts  # the spec pages' Markdown as written

pytestmark = pytest.mark.slow  # AppTest runs of every spec page: the full suite runs them, the fast loop does not

FAMILIES = tuple(sc.families.FAMILIES)  # every family record has its spec page


class _Pages(dict):
    """Spec pages opened on demand, one per (family, tab): only the chosen tab's section runs."""

    def __missing__(self, key):
        family, tab = key if isinstance(key, tuple) else (key, "Timeline")
        self[key] = at = open_page(f"spec-{sc.families.FAMILIES[family].slug}", **({} if tab == "Timeline" else {"tab": tab}))
        return at


@pytest.fixture(scope="module")
def pages():
    return _Pages()


_DIRECTIVE = re.compile(r":[a-z-]+\[\*\*(.*?)\*\*\]|:[a-z-]+\[(.*?)\]")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def unescape(md: str) -> str:
    """A table cell as the reader sees it: directives unwrapped, bold dropped, backslash escapes removed."""
    md = _DIRECTIVE.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), md)
    md = re.sub(r"(?<!\\)\*\*", "", md)
    return re.sub(r"\\(.)", r"\1", md).replace(specdiff.BREAK, "").strip()


def md_tables(at) -> list[pd.DataFrame]:
    """Every Markdown table on the page as a DataFrame of unescaped text ('' header cells become '')."""
    out = []
    for el in at.markdown:
        lines = [ln for ln in str(el.value).splitlines() if ln.startswith("|")]
        if len(lines) < 2 or not set(lines[1]) <= set("|- "):
            continue
        split = [[unescape(c) for c in _CELL_SPLIT.split(ln.strip()[1:-1])] for ln in lines]
        out.append(pd.DataFrame(split[2:], columns=split[0]))
    return out


def _frames(at):
    return [d.value for d in at.dataframe] + md_tables(at)


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
    assert {"negative indices", "reductions (spelling = meaning)", "duplicates forbidden"} <= fields
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


COMPARE = "Compare versions"


def _comparison(at, a, b):
    (df,) = [d for d in md_tables(at) if list(d.columns) == ["differs", "rule", a, b, "see it live"]]
    return df


def test_comparison_view_marks_max_min_between_nd_16_and_18():
    at = open_page("spec-nd", tab=COMPARE, a="ScatterND-16", b="ScatterND-18")
    assert not at.exception
    df = _comparison(at, "ScatterND-16", "ScatterND-18")
    red = df[df["rule"] == "reductions (spelling = meaning)"].iloc[0]
    assert red["differs"] == "≠" and "max" in red["ScatterND-18"] and "max" not in red["ScatterND-16"]
    assert df[df["rule"] == "loop"].iloc[0]["differs"] == ""
    n = int((df["differs"] == "≠").sum())
    assert n == len(specdiff.differences("ScatterND-16", "ScatterND-18"))
    assert f"{n} of {len(df)} rules differ" in texts(at)
    # the full text of every rule, never cut: each cell is the record's text
    rules = specdiff.rules(sc.OPERATORS["ScatterND-18"])
    for field in ("summary", "formula", "duplicates", "data types", "index range", "duplicates forbidden"):
        assert df[df["rule"] == field].iloc[0]["ScatterND-18"] == rules[field], field
    # pick another pair in the widgets: the table follows
    at.selectbox(key="a").set_value("ScatterNDUpdate-3").run()
    df = _comparison(at, "ScatterNDUpdate-3", "ScatterND-18")
    neg = df[df["rule"] == "negative indices"].iloc[0]
    assert neg["differs"] == "≠" and "forbidden" in neg["ScatterNDUpdate-3"] and "allowed" in neg["ScatterND-18"]


def _table_markdown(at, column):
    return [str(m.value) for m in at.markdown if f"| {specdiff.md_escape(column)} |" in str(m.value)][-1]


def test_differing_words_are_highlighted_and_equal_words_are_not():
    at = open_page("spec-nd", tab=COMPARE, a="ScatterNDUpdate-3", b="ScatterNDUpdate-15")
    md = _table_markdown(at, "ScatterNDUpdate-15")
    row = next(ln for ln in md.splitlines() if ln.startswith("| :orange[**≠**] | reductions"))
    cells = _CELL_SPLIT.split(row.strip()[1:-1])
    old, new = cells[2].strip(), cells[3].strip()
    assert old == "none"  # nothing of it differs from ScatterNDUpdate-15's text except what is added there
    assert ":orange-background[**" in new and "sub" in re.findall(r":orange-background\[\*\*(.*?)\*\*\]", new)[0]
    assert not new.startswith(":orange-background")  # "none" is shared, not highlighted
    loop = next(ln for ln in md.splitlines() if "| loop |" in ln)
    assert "orange" not in loop and loop.startswith("|   | loop")


def test_markdown_escaping_keeps_every_character_literal():
    tricky = "a*b*c _x_ [link](y) `code` $x$ :red[t] | 1 < 2 #3 ~~s~~"
    assert unescape(specdiff.md_escape(tricky)) == tricky
    a, b = specdiff.word_diff("x * y = 2", "x * y = 3")
    assert unescape(specdiff.marked(b)) == "x * y = 3"
    assert specdiff.marked(b).endswith(":orange-background[**3**]")


def test_word_diff_shows_a_change_hidden_by_stray_punctuation_matches():
    er = spec_examples.erratum("onnx-scatternd-updates-shape-off-by-one")  # ...[k:r-1] vs ...[k:r], i.e. [:-1] ...
    a, b = specdiff.word_diff(er.says, er.should_say)
    assert [t for t, d in a if d] == ["-", "1", "]"]
    assert "".join(t for t, d in b if d).startswith("],")
    same, _ = specdiff.word_diff("x + y", "x + y")
    assert not any(d for _, d in same)


def test_comparison_url_round_trips_tab_a_and_b():
    at = open_page("spec-elements", tab=COMPARE, a="ScatterElements-11", b="ScatterElementsUpdate-12")
    assert at.tabs[1].proto.label == COMPARE
    assert at.selectbox(key="a").value == "ScatterElements-11"
    assert at.selectbox(key="b").value == "ScatterElementsUpdate-12"
    assert dict(at.query_params) == {"tab": COMPARE, "a": "ScatterElements-11", "b": "ScatterElementsUpdate-12"}
    _comparison(at, "ScatterElements-11", "ScatterElementsUpdate-12")
    assert not md_tables(at)[0].columns.tolist() == ["topic"]  # only the chosen tab ran
    at.selectbox(key="b").set_value("Scatter-9").run()  # the widgets drive the view (the browser test checks
    _comparison(at, "ScatterElements-11", "Scatter-9")   # that the address bar follows them)
    again = open_page("spec-elements", **dict(at.query_params))  # the link reopens exactly that view
    assert [h.value for h in again.header] == ["Compare two versions"]
    _comparison(again, "ScatterElements-11", "ScatterElementsUpdate-12")


def test_a_hand_written_link_with_an_unknown_version_falls_back_to_the_default():
    at = open_page("spec-nd", tab=COMPARE, a="ScatterND-99", b="ScatterND-13")
    assert not at.exception
    assert at.selectbox(key="a").value == "ScatterND-16" and at.selectbox(key="b").value == "ScatterND-13"
    (notice,) = at.warning
    assert "a=ScatterND-99 `` was ignored: not an operator version" in notice.value


@pytest.mark.parametrize("page, params, ignored, reason, kept", [
    ("spec-elements", {"tab": COMPARE, "a": "NotAnOp-1", "b": "ScatterElements-18"}, "a", "not an operator version",
     {"tab": COMPARE}),
    ("spec-nd", {"tab": "NoSuchTab"}, "tab", "not a tab of this page (Timeline, Compare versions", {}),
    ("spec-update", {"tab": "Framework map", "version": "ScatterUpdate-99"}, "version",
     "not a version of this family (ScatterUpdate-3)", {"tab": "Framework map"}),
    ("spec-elements", {"tab": "Framework map", "version": "ScatterElements-18", "config": "reduction=sub"}, "config",
     "not a choice of ScatterElements-18 (reduction=none, reduction=add", {"tab": "Framework map",
                                                                          "version": "ScatterElements-18"}),
])
def test_a_link_value_the_spec_page_cannot_use_is_named_once_and_dropped_from_the_address(page, params, ignored,
                                                                                          reason, kept):
    at = open_page(page, **params)
    assert not at.exception and not at.error
    (notice,) = at.warning  # the explorer's and Practice's notice: the value, quoted, and why
    assert f"`` {ignored}={params[ignored]} `` was ignored: {reason}" in notice.value
    assert dict(at.query_params) == kept  # the address bar no longer carries it
    assert [h.value for h in at.header] == [{COMPARE: "Compare two versions", "Framework map": "Framework map"}
                                            .get(params["tab"], "Timeline")]
    next(b for b in at.button if b.label == "Dismiss").click().run()
    assert not at.warning and dict(at.query_params) == kept
    at.run()
    assert not at.warning  # named once


def test_a_valid_spec_link_gives_no_notice():
    at = open_page("spec-elements", tab="Framework map", version="ScatterElements-18", config="reduction=add")
    assert not at.warning and dict(at.query_params) == {"tab": "Framework map", "version": "ScatterElements-18",
                                                        "config": "reduction=add"}


@pytest.mark.slow
def test_every_pair_of_versions_renders():
    names = list(sc.OPERATORS)
    at = open_page("spec-update", tab=COMPARE)
    for a in names:
        at.selectbox(key="a").set_value(a)
        for b in names:
            at.selectbox(key="b").set_value(b).run()
            assert not at.exception and not at.error, (a, b)
            df = _comparison(at, a, b if b != a else f"{b} (again)")
            assert len(df) == len(specdiff.RULE_FIELDS)
            assert int((df["differs"] == "≠").sum()) == len(specdiff.differences(a, b)), (a, b)
            assert (df["see it live"] != "").sum() >= int((df["differs"] == "≠").sum()) - 1, (a, b)


def test_a_single_version_family_compares_with_another_family_by_default():
    at = open_page("spec-update", tab=COMPARE)
    assert at.selectbox(key="a").value == "ScatterNDUpdate-3"
    assert at.selectbox(key="b").value == "ScatterUpdate-3"
    assert at.selectbox(key="a").options[0] == "ScatterUpdate-3"
    assert set(at.selectbox(key="a").options) == set(sc.OPERATORS)
    df = _comparison(at, "ScatterNDUpdate-3", "ScatterUpdate-3")
    assert df[df["rule"] == "formula"].iloc[0]["differs"] == "≠"


@pytest.mark.parametrize("family,a,b", [("nd", "ScatterND-16", "ScatterNDUpdate-15"),
                                         ("elements", "ScatterElements-11", "ScatterElements-18"),
                                         ("elements", "Scatter-9", "ScatterElementsUpdate-12"),
                                         ("nd", "ScatterND-11", "ScatterND-18")])
def test_each_differing_compare_row_links_to_cases_showing_that_rows_difference(family, a, b):
    """Compare versions: each differing row's links open cases showing that row's difference (#22: they used
    to open whichever example of each version the old picker chose), read from the links as the explorer reads
    them; a row that does not differ has none."""
    at = open_page(f"spec-{family}", tab=COMPARE, a=a, b=b)
    md = _table_markdown(at, b)
    rows = {unescape(ln.split("|")[2]).strip(): ln for ln in md.splitlines()[2:]}
    differing = {r.field for r in specdiff.differences(a, b)} - {"official page"}  # the page links itself
    assert differing
    spec = {a: sc.OPERATORS[a], b: sc.OPERATORS[b]}
    other = {a: spec[b], b: spec[a]}
    for field, ln in rows.items():
        cases = [_linked_case(p, q) for p, q in _ANY_LINK.findall(ln)]
        if field not in differing:
            assert not cases, field
            continue
        assert cases and {c.op for c in cases} <= {a, b}, field
        if field == "reductions (spelling = meaning)":
            for c in cases:  # a reduction the other version lacks or spells otherwise, changing the result
                mine = spec[c.op]
                assert other[c.op].spelling_of(mine.reduction(c.attrs["reduction"]).name) != c.attrs["reduction"]
                assert not np.array_equal(c.run(), c.replace(reduction=mine.spelling_of("none")).run()), field
        elif field in ("duplicates forbidden", "duplicates"):
            assert all("duplicate-index" in {f.kind for f in c.trace().findings} for c in cases), field
        elif field in ("negative indices", "index range") and len({s.index_rule.negative for s in spec.values()}) > 1:
            (neg,) = [c for c in cases if (c.given()[1] < 0).any()]
            assert spec[neg.op].index_rule.negative == "allowed" != other[neg.op].index_rule.negative
        elif field not in ("attributes", "index types"):  # a rule no case shows alone: the same inputs on both sides
            if len(cases) == 2:
                x, y = cases
                assert x.op != y.op and all(np.array_equal(p, q) for p, q in zip(x.given(), y.given())
                                            if p is not None), field
    red = [_linked_case(p, q) for p, q in _ANY_LINK.findall(rows["reductions (spelling = meaning)"])]
    if (a, b) == ("ScatterND-16", "ScatterNDUpdate-15"):  # one that ScatterND-16 lacks (sub, min or max)
        assert {c.attrs["reduction"] for c in red if c.op == b} <= {"sub", "min", "max"}


# ------------------------------------------------------------------------------ cross-framework
CROSS = "ONNX vs OpenVINO"


def _cross(at, a, b):
    df = [d for d in md_tables(at) if list(d.columns) == ["differs", "topic", a, b, "see it live"]]
    assert len(df) == 1
    return df[0].set_index("topic")


def test_cross_framework_elements(pages):
    df = _cross(pages["elements", CROSS], "ScatterElements-18", "ScatterElementsUpdate-12")
    assert df.loc["reduction meaning sum", ["ScatterElements-18", "ScatterElementsUpdate-12"]].tolist() == [
        "✔ add", "✔ sum"]
    assert df.loc["reduction meaning prod", ["ScatterElements-18", "ScatterElementsUpdate-12"]].tolist() == [
        "✔ mul", "✔ prod"]
    assert df.loc["reduction meaning mean", ["ScatterElements-18", "ScatterElementsUpdate-12"]].tolist() == [
        "✘ not available", "✔ mean"]
    assert df.loc["mean available", ["ScatterElements-18", "ScatterElementsUpdate-12"]].tolist() == ["no", "yes"]
    assert df.loc["sub available", ["ScatterElements-18", "ScatterElementsUpdate-12"]].tolist() == ["no", "no"]
    assert "reduction meaning sub" not in df.index
    assert df.loc["use_init_val", "ScatterElements-18"].startswith("✘")
    assert df.loc["use_init_val", "ScatterElementsUpdate-12"] == "✔ attribute, default true"
    assert df.loc["negative indices", ["ScatterElements-18", "ScatterElementsUpdate-12"]].tolist() == [
        specdiff.NEGATIVE_WORDS["allowed"]] * 2
    assert df.loc["duplicates forbidden", ["ScatterElements-18", "ScatterElementsUpdate-12"]].tolist() == [
        "with reduction none", "never: the text allows duplicate indices"]  # not "none" vs "(never)"
    assert df.loc["duplicate policy", "ScatterElementsUpdate-12"] == \
        sc.OPERATORS["ScatterElementsUpdate-12"].duplicate_policy
    # differing rows are marked, equal rows are not
    for topic, row in df.iterrows():
        assert (row["differs"] == "≠") == (row["ScatterElements-18"] != row["ScatterElementsUpdate-12"]), topic
    assert df.loc["mean available", "differs"] == "≠" and df.loc["sub available", "differs"] == ""


def test_cross_framework_nd(pages):
    df = _cross(pages["nd", CROSS], "ScatterND-18", "ScatterNDUpdate-15")
    assert df.loc["reduction meaning sum", ["ScatterND-18", "ScatterNDUpdate-15"]].tolist() == ["✔ add", "✔ sum"]
    assert df.loc["reduction meaning sub", ["ScatterND-18", "ScatterNDUpdate-15"]].tolist() == [
        "✘ not available", "✔ sub"]
    assert df.loc["sub available", ["ScatterND-18", "ScatterNDUpdate-15"]].tolist() == ["no", "yes"]
    assert df.loc["mean available", ["ScatterND-18", "ScatterNDUpdate-15"]].tolist() == ["no", "no"]
    assert df.loc["use_init_val", ["ScatterND-18", "ScatterNDUpdate-15"]].map(lambda v: v.startswith("✘")).all()
    assert df.loc["axis", ["ScatterND-18", "ScatterNDUpdate-15"]].map(lambda v: v.startswith("no axis")).all()
    assert df.loc["reduction meaning sub", "differs"] == "≠" and "▶" in df.loc["reduction meaning sub", "see it live"]


_ANY_LINK = re.compile(r"\[▶ [^\]]+?\]\(([a-z_-]+)\?([^)]*)\)")


def _linked_case(page: str, query: str) -> sc.Case:
    """The case a "see it live" link opens, read from the link as the explorer reads it: an example (with the
    link's reduction), or typed inputs and attributes (a generated case)."""
    from urllib.parse import parse_qs

    q = {k: v[0] for k, v in parse_qs(query).items()}
    spec = sc.OPERATORS[q["op"]]
    assert page == sc.family_of(spec).slug
    if q["example"] != "__custom__":
        ex = spec_examples.by_id(q["example"])
        assert ex.op == q["op"] and set(q) <= {"op", "example", "reduction"}
        return sc.case(spec, ex.data, ex.indices, ex.updates, **{**ex.attrs, **{k: q[k] for k in q if k == "reduction"}})
    inputs = [sc.parse_tensor(q[r]) if q.get(r) else None for r in ("data", "indices", "updates")]
    attrs = {}
    for a in spec.attributes:
        if a.name in q:
            attrs[a.name] = {"true": True, "false": False}[q[a.name]] if a.kind == "bool" else (
                int(q[a.name]) if a.kind == "int" else q[a.name])
    return sc.case(spec, *inputs, **attrs)


def _row_links(family):
    for a, b in specdiff.pairs_for(family):
        at = open_page(f"spec-{family}", tab=CROSS)
        md = _table_markdown(at, b.name)
        rows = {unescape(ln.split("|")[2]): ln for ln in md.splitlines()[2:]}
        for topic, x, y in specdiff.cross_framework(a, b):
            if x != y:
                yield a, b, topic, [_linked_case(p, q) for p, q in _ANY_LINK.findall(rows[topic])]


def _runs(case: sc.Case, other, any_index_type: bool = False) -> np.ndarray | None:
    """``case`` run under ``other`` (None: it refuses it); ``any_index_type``: with the indices in a type it takes."""
    if any_index_type and case.given()[1].dtype.name not in other.index_rule.dtypes:
        case = case.replace(indices=case.given()[1].astype(other.index_rule.dtypes[-1]))
    try:
        return case.for_version(other).run()
    except sc.ScatterError:
        return None


@pytest.mark.parametrize("family", sorted({sc.OPERATORS[a].family for a, _ in specdiff.CROSS_PAIRS}))
def test_each_cross_framework_row_links_to_cases_showing_that_rows_difference(family):
    """Run each link's case on both versions: it shows the difference its row states (#22: "sum", "prod", "sub",
    "mean" and "use_init_val" all opened one example)."""
    seen = {}
    for a, b, topic, cases in _row_links(family):
        assert cases, topic
        other = {a.name: b, b.name: a}
        seen.setdefault(tuple((c.op, c.key) for c in cases), []).append(topic)
        canon = next((c for c in sc.REDUCTIONS if topic in (f"reduction meaning {c}", f"{c} available")), None)
        if canon is not None:
            assert {c.op for c in cases} == {s.name for s in (a, b) if s.spelling_of(canon)}, topic
            for c in cases:
                spec = sc.OPERATORS[c.op]
                assert c.attrs["reduction"] == spec.spelling_of(canon), topic  # the row's own reduction
                assert not np.array_equal(c.run(), c.replace(reduction=spec.spelling_of("none")).run()), topic
                there = _runs(c, other[c.op], any_index_type=True)
                if other[c.op].spelling_of(canon):  # the same meaning under another spelling: the same result
                    assert there is not None and np.array_equal(there, c.run()), topic
                else:  # the other version cannot express it
                    assert there is None, topic
        elif topic == "use_init_val":
            (off,) = [c for c in cases if c.spec.attribute("use_init_val") is not None]
            (without,) = [c for c in cases if c.spec.attribute("use_init_val") is None]
            assert off.attrs["use_init_val"] is False
            on = off.replace(use_init_val=True)
            assert not np.array_equal(off.run(), on.run())  # the switch changes the result ...
            assert np.array_equal(without.run(), on.run())  # ... and without it the cell's value always takes part
            assert [np.array_equal(x, y) for x, y in zip(without.given(), off.given())] == [True] * 3
        elif topic == "index types":
            for c in cases:
                assert c.given()[1].dtype.name in c.spec.index_rule.dtypes
                assert c.given()[1].dtype.name not in other[c.op].index_rule.dtypes
                assert _runs(c, other[c.op]) is None, topic
        elif topic in ("duplicates forbidden", "duplicate policy"):
            kinds = {c.op: {f.kind for f in c.trace().findings} for c in cases}
            assert all("duplicate-index" in k for k in kinds.values()), topic
            (reduction,) = {c.attrs["reduction"] for c in cases}  # the same case on both sides
            forbids = {s.name for s in (a, b) if reduction in s.duplicates_forbidden_with}
            assert forbids and forbids != {a.name, b.name}
            for op, k in kinds.items():
                assert ("spec-disallows-duplicates" in k) == (op in forbids), (topic, op)
        elif topic == "axis":
            for c in cases:
                assert c.attrs["axis"] != 0
                attr = c.spec.attribute("axis")
                dropped = {k: v for k, v in c.attrs.items() if k != "axis"}
                if attr.required:
                    with pytest.raises(sc.ScatterError):
                        sc.case(c.spec, *c.given(), **dropped)
                else:  # left out, the default axis 0 reads the inputs otherwise (or refuses them)
                    try:
                        assert not np.array_equal(sc.case(c.spec, *c.given(), **dropped).run(), c.run())
                    except sc.ScatterError:
                        pass
    # rows about different things open different cases ("reduction meaning mean" and "mean available" are one)
    by_subject = {}
    for links, topics in seen.items():
        for t in topics:
            subject = next((c for c in sc.REDUCTIONS if t in (f"reduction meaning {c}", f"{c} available")), t)
            subject = "duplicates" if t in ("duplicates forbidden", "duplicate policy") else subject
            by_subject.setdefault(subject, set()).add(links)
    owners = {}
    for subject, links in by_subject.items():
        assert len(links) == 1, subject
        owners.setdefault(next(iter(links)), []).append(subject)
    assert all(len(subjects) == 1 for subjects in owners.values()), owners


@pytest.mark.slow
@pytest.mark.parametrize("family,params", [(f, {"tab": CROSS}) for f in sorted(
    {sc.OPERATORS[a].family for a, _ in specdiff.CROSS_PAIRS})] + [
    ("elements", {"tab": COMPARE, "a": "ScatterElements-11", "b": "ScatterElements-18"}),
    ("elements", {"tab": COMPARE, "a": "Scatter-9", "b": "ScatterElementsUpdate-12"})])
def test_each_generated_row_case_opens_in_the_explorer_as_linked(family, params):
    """A generated case travels in full in its link; the explorer takes every value (no link notice)."""
    at = open_page(f"spec-{family}", **params)
    md = "\n".join(str(m.value) for m in at.markdown)
    generated = [(p, q) for p, q in _ANY_LINK.findall(md) if "__custom__" in q]
    assert generated
    from urllib.parse import parse_qs

    for page, query in sorted(set(generated)):
        ex = open_page(page, **{k: v[0] for k, v in parse_qs(query).items()})
        assert not ex.exception and not ex.error, query
        assert not [w for w in ex.warning if "could not use" in w.value], query


def test_cross_framework_pairs_are_registry_versions_and_the_update_page_says_there_is_none(pages):
    for a, b in specdiff.CROSS_PAIRS:
        assert sc.OPERATORS[a].framework == "ONNX" and sc.OPERATORS[b].framework == "OpenVINO"
        assert sc.OPERATORS[a].family == sc.OPERATORS[b].family
    assert specdiff.pairs_for("update") == []
    assert "no ONNX counterpart" in texts(pages["update", CROSS])


# ------------------------------------------------------------------------------ errata
def test_every_erratum_is_listed_on_the_page_it_concerns_and_only_there(pages):
    errata = spec_examples.load_errata()
    assert errata
    for family in FAMILIES:
        at = pages[family, "Errata"]
        body = texts(at)
        assert not at.error  # a finding about the text is a calm card, not an app error
        mine = [er for er in errata if family in {sc.OPERATORS[op].family for op in er.ops}]
        for er in errata:
            if er in mine:
                assert f"**{specdiff.md_escape(er.id)}**" in body, (er.id, family)
                assert specdiff.md_escape(er.explanation) in body
                if er.evidence:
                    assert f"Evidence: {er.evidence}" in body
            else:
                assert f"**{specdiff.md_escape(er.id)}**" not in body, (er.id, family)
        if mine:
            assert f"{len(mine)} errata on this family's pages" in body
        # tensors as two aligned heatmaps, the differing cells outlined; text errata as a word diff
        charts = at.get("plotly_chart")
        with_arrays = [er for er in mine if er.printed is not None and er.spec_rules_give is not None]
        assert len(charts) == len(with_arrays)
        tables = [d for d in md_tables(at) if list(d.columns) == ["the page prints", "it should say"]]
        assert len(tables) == len(mine) - len(with_arrays)
        # an example's erratum links to that example in the explorer
        links = {p.proto.query_string for p in at.get("page_link") if p.proto.label.startswith("Open ")}
        want = {f"op={spec_examples.by_id(er.example_id).op}&example={er.example_id}" for er in mine
                if er.example_id}
        assert links == want


def test_erratum_figure_outlines_exactly_the_differing_cells():
    from scatter_ui.pages.spec import erratum_figure

    er = spec_examples.erratum("onnx-node-scatternd-add-output")
    printed, gives = np.asarray(er.printed), np.asarray(er.spec_rules_give)
    differ = printed != gives
    fig = erratum_figure(printed, gives, differ)
    assert [t.text for t in fig.layout.annotations] == ["the page prints [2, :, :]", "the operator gives [2, :, :]"]
    assert np.array_equal(np.array(fig.data[0].z), printed[2]) and np.array_equal(np.array(fig.data[1].z), gives[2])
    assert [list(r) for r in fig.data[1].text] == [[sc.describe.fmt_value(v) for v in row] for row in gives[2]]
    assert len(fig.layout.shapes) == 2 * int(differ[2].sum())
    centres = {(round((s.x0 + s.x1) / 2), round((s.y0 + s.y1) / 2)) for s in fig.layout.shapes}
    assert centres == {(int(x), int(y)) for y, x in np.argwhere(differ[2])}
    assert fig.layout.yaxis.autorange == "reversed" and fig.layout.coloraxis.cmin == float(min(printed.min(),
                                                                                                gives.min()))


def test_errata_filter_lives_in_the_url_and_counts_what_it_shows():
    at = open_page("spec-nd", tab="Errata", errata="example-output")
    mine = [er for er in spec_examples.load_errata() if "nd" in {sc.OPERATORS[op].family for op in er.ops}]
    shown = [er for er in mine if "example-output" in er.kind]
    assert f"{len(mine)} errata on this family's pages, {len(shown)} match the filter" in texts(at)
    assert at.text_input(key="errata").value == "example-output"
    assert dict(at.query_params)["errata"] == "example-output"
    at.text_input(key="errata").set_value("zzz-nothing").run()
    assert "0 match the filter" in texts(at) and not [m for m in at.markdown if "📕" in str(m.value)]


# ------------------------------------------------------------------------------ framework map
def test_framework_map_tab_shows_every_framework_with_its_verification(pages):
    import framework_map as fm

    at = open_page("spec-elements", tab="Framework map", version="ScatterElementsUpdate-12",
                   config="reduction=mean, use_init_val=false")
    assert not at.exception and not at.error
    body = texts(at)
    config = fm.Config("ScatterElementsUpdate-12", "mean", False)
    found = fm.by_framework(config)
    assert not found["WebNN"] and "**WebNN**: no direct equivalent" in body  # WebNN has no scatter mean
    for framework, entries in found.items():
        assert entries or framework == "WebNN", framework
        for e in entries:
            assert f"**{framework}** · {specdiff.md_escape(e.operation)}" in body
            for topic in fm.TOPICS:
                assert specdiff.md_escape(e.divergences[topic]) in body
    assert "include_self=False" in body
    assert "✔ executed on" in body or "⚠ never executed: PyTorch" in body
    none = open_page("spec-elements", tab="Framework map", version="ScatterElements-18", config="reduction=none")
    assert "**WebNN** · " + specdiff.md_escape("MLGraphBuilder.scatterElements") in texts(none)
    assert "⚠ never executed here (no WebNN implementation" in texts(none)
    codes = [c.value for c in at.code]
    assert "data.scatter_reduce(axis, indices, updates, reduce, include_self=...)" in codes
    assert any("def scatter_elements_reduce(" in c for c in codes)


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


def test_new_runtime_behaviours_are_marked_as_not_in_docs_semantics_md():
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
    # every behaviour runtime_check observed beyond docs/semantics.md is a registry note flagged new
    assert all(not d.documented for d in rc.OBSERVED)
    assert all(d.documented for d in rc.DOCUMENTED)
    offsets = _notes("ScatterUpdate-3", "updates-offsets", documented=False)[0]
    assert "[[1, 2], [2, 3], [3, 4]]" in offsets.text and "reference" in offsets.runtimes
    assert all(n.documented for s in OPERATORS_LIST for n in s.runtime_notes if n.topic == "duplicates")


def test_runtime_notes_name_their_source_and_the_versions_they_were_verified_on():
    for spec in OPERATORS_LIST:
        for row in specdiff.runtime_rows(spec):
            assert re.match(r"(NEW: )?(this project's test test_\w+::test_\w+|upstream issue https://|spec page "
                            r"https://)", row["source"]), (spec.name, row["source"])
            assert "; verified on " in row["source"] and "installed version" not in row, spec.name
            assert "shared" not in row["source"] and "semantics.md" not in row["source"]


def test_runtimes_tab_says_when_the_installed_runtime_is_not_the_verified_version():
    """The installed version faked through runtime_check's public hook: the tab warns, and each note about
    onnxruntime says it was verified on another version and what to run."""
    verified = sc.verified_versions()["onnxruntime"]
    want = f"verified on onnxruntime {verified}; installed 1.32.0: run `scatter-explorer verify-facts`"
    with rc.pretend_installed({"onnxruntime": "1.32.0"}):
        at = open_page("spec-elements", tab="Runtimes")
    assert any(want in str(w.value) for w in at.warning), [w.value for w in at.warning]
    frames = [d.value for d in at.dataframe if "installed version" in d.value.columns]
    assert frames, "no runtime note says the installed version"
    rows = pd.concat(frames)
    about_ort = rows["runtime (version)"].str.contains("onnxruntime")
    assert about_ort.any() and (rows[about_ort]["installed version"] == want).all()
    assert (rows[~about_ort]["installed version"] == "").all()
    at = open_page("spec-elements", tab="Runtimes")
    installed = rc.available()["onnxruntime"]
    if installed in (None, verified):  # the real installed version: no warning, no column
        assert not any("verify-facts" in str(w.value) for w in at.warning)
        assert not any("installed version" in d.value.columns for d in at.dataframe)


# ------------------------------------------------------------------------------ in a real browser
def _page(server, browser, width: int, height: int):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    pg = ctx.new_page()
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(f"pageerror: {e}"))
    pg.base_url = server.url
    return ctx, pg


@pytest.fixture(scope="module")
def browser_page(server, browser):
    ctx, pg = _page(server, browser, 1400, 1400)
    yield pg
    ctx.close()


def _settle(pg, text: str):
    pg.get_by_text(text, exact=False).first.wait_for(timeout=60_000)
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=60_000)


@pytest.mark.browser
@pytest.mark.parametrize("family,link", [("nd", "ScatterND specs"), ("elements", "Elements specs"),
                                         ("update", "ScatterUpdate spec")])
def test_spec_pages_in_chromium(browser_page, family, link):
    from tests.support.browser_support import SCREENSHOTS, real_errors

    pg = browser_page
    pg.goto(pg.base_url)
    _settle(pg, "Every worked example")
    pg.locator("[data-testid=stSidebar] [data-testid=stPageLink-NavLink]", has_text=link).click()
    _settle(pg, f"Spec: {sc.FAMILY_TITLES[family]}")
    newest = max(sc.family_members(family), key=lambda s: (s.framework == "ONNX", s.version))
    pg.get_by_text(f"{newest.name} (", exact=False).first.wait_for(state="visible", timeout=30_000)  # Timeline
    pg.get_by_role("tab", name="Compare versions").click()
    pg.get_by_text("rules differ", exact=False).first.wait_for(timeout=30_000)
    pg.locator(".st-key-spec-compare-table table").wait_for(timeout=30_000)
    pg.wait_for_function("() => location.search.includes('tab=Compare')", timeout=30_000)  # the tab is in the URL
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / f"spec-{family}-compare-browser.png"))
    pg.get_by_role("tab", name="ONNX vs OpenVINO").click()
    _settle(pg, "ONNX vs OpenVINO")
    if specdiff.pairs_for(family):
        a, b = specdiff.pairs_for(family)[0]
        pg.get_by_text(f"{a.name} vs {b.name}").first.wait_for(timeout=30_000)
        pg.locator(f".st-key-spec-cross-{a.name} table").wait_for(timeout=30_000)
    else:
        pg.get_by_text("no ONNX counterpart", exact=False).first.wait_for(timeout=30_000)
    assert real_errors(pg.console_errors) == []


CLIPPED_JS = """(sel) => {
  const table = document.querySelector(sel + ' table');
  const t = table.getBoundingClientRect();
  const main = document.querySelector('[data-testid=stMain]') || document.body;
  const m = main.getBoundingClientRect();
  const bad = [];
  if (t.right > Math.min(m.right, innerWidth) + 1 || t.left < m.left - 1) bad.push(['table', t.left, t.right, m.right]);
  const holder = table.parentElement;
  if (holder.scrollWidth > holder.clientWidth + 1) bad.push(['scrolls', holder.scrollWidth, holder.clientWidth]);
  let boxes = 0;
  for (const cell of table.querySelectorAll('th, td')) {
    const c = cell.getBoundingClientRect();
    if (c.right > t.right + 1 || c.left < t.left - 1) bad.push(['cell', cell.innerText.slice(0, 40)]);
    if (cell.scrollWidth > cell.clientWidth + 1) bad.push(['overflow', cell.innerText.slice(0, 40)]);
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim()) continue;
      const range = document.createRange(); range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        boxes++;
        if (r.right > c.right + 1 || r.left < c.left - 1) bad.push(['text', n.textContent.slice(0, 40), r.right, c.right]);
      }
    }
  }
  return {bad, boxes, cells: table.querySelectorAll('td').length};
}"""


@pytest.fixture(scope="module")
def projector(server, browser):
    ctx, pg = _page(server, browser, 1280, 720)
    pg.goto(server.url)
    _settle(pg, "Every worked example")
    yield pg
    ctx.close()


@pytest.mark.browser
@pytest.mark.parametrize("family,a,b", [("nd", "ScatterND-16", "ScatterNDUpdate-15"),
                                        ("elements", "Scatter-9", "ScatterElementsUpdate-12"),
                                        ("update", "ScatterUpdate-3", "ScatterElementsUpdate-12")])
def test_shared_comparison_link_reopens_the_tab_and_nothing_is_clipped_at_1280x720(projector, family, a, b):
    from tests.support.browser_support import SCREENSHOTS, real_errors

    pg = projector
    pg.goto(f"{pg.base_url}/spec-{family}?tab=Compare+versions&a={a}&b={b}")
    pg.locator(".st-key-spec-compare-table table").wait_for(timeout=60_000)
    _settle(pg, "rules differ")
    assert pg.get_by_role("tab", name="Compare versions").get_attribute("aria-selected") == "true"
    assert pg.locator(".st-key-spec-compare-table th").all_inner_texts()[2:4] == [a, b]
    assert pg.get_by_role("combobox", name="Version A").input_value() == a
    assert pg.get_by_role("combobox", name="Version B").input_value() == b
    pg.wait_for_timeout(500)
    result = pg.evaluate(CLIPPED_JS, ".st-key-spec-compare-table")
    assert result["cells"] == 5 * len(specdiff.RULE_FIELDS) and result["boxes"] > 60
    assert result["bad"] == []
    pg.locator(".st-key-spec-compare-table").scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / f"spec-{family}-compare-1280x720.png"))
    if specdiff.pairs_for(family):
        pg.get_by_role("tab", name="ONNX vs OpenVINO").click()
        x, _ = specdiff.pairs_for(family)[0]
        pg.locator(f".st-key-spec-cross-{x.name} table").wait_for(timeout=30_000)
        pg.wait_for_timeout(500)
        cross = pg.evaluate(CLIPPED_JS, f".st-key-spec-cross-{x.name}")
        assert cross["bad"] == [] and cross["boxes"] > 30
    assert real_errors(pg.console_errors) == []


@pytest.mark.browser
def test_choosing_versions_in_the_browser_writes_them_to_the_url(projector):
    pg = projector
    pg.goto(f"{pg.base_url}/spec-nd?tab=Compare+versions")
    pg.locator(".st-key-spec-compare-table table").wait_for(timeout=60_000)
    _settle(pg, "rules differ")
    assert pg.get_by_role("combobox", name="Version B").input_value() == "ScatterND-18"
    pg.get_by_role("combobox", name="Version B").click()
    pg.get_by_role("option", name="ScatterNDUpdate-3", exact=True).click()
    pg.wait_for_function("() => location.search.includes('b=ScatterNDUpdate-3')", timeout=30_000)
    pg.get_by_text("ScatterNDUpdate-3", exact=True).first.wait_for(timeout=30_000)
    link = pg.url
    assert "tab=Compare+versions" in link or "tab=Compare%20versions" in link
    other = pg.context.new_page()  # the copied link, opened afresh
    other.goto(link)
    other.locator(".st-key-spec-compare-table table").wait_for(timeout=60_000)
    assert other.get_by_role("tab", name="Compare versions").get_attribute("aria-selected") == "true"
    assert "ScatterNDUpdate-3" in other.locator(".st-key-spec-compare-table th").all_inner_texts()
    other.close()


def test_framework_map_initial_value_row_speaks_onnx_under_an_onnx_version():
    at = open_page("spec-elements", tab="Framework map", version="ScatterElements-18", config="reduction=add")
    assert not at.exception and not at.error
    rows = [r for m in at.markdown for r in str(m.value).splitlines() if r.startswith("| initial value |")]
    assert len(rows) >= 4  # PyTorch (2), TensorFlow, JAX, WebNN
    assert not [r for r in rows if "use\\_init\\_val" in r or "use_init_val" in r], rows
    assert all("ScatterElements-18 has no switch" in r for r in rows), rows
