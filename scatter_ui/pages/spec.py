"""The spec page of one operator family, generated from the registry.

Tabs: the version timeline (what changed in each version), a side-by-side comparison of
any two versions with the differing rows marked and the differing words highlighted,
the cross-framework view (ONNX vs OpenVINO), the errata as visual diffs with their
evidence, the framework map (PyTorch, TensorFlow, JAX, WebNN) and what real runtimes do.

The chosen tab, versions A and B and every filter live in the URL (``bind="query-params"``),
so a copied link reopens exactly that view. Tables are Markdown built from escaped text
(:func:`specdiff.md_escape`): cells wrap, nothing is clipped, and no computed text is read
as Markdown. The app's navigation (``scatter_ui.pages.navigation.family_pages``) makes one page per family record
calling :func:`render` with the family's name.
"""

from __future__ import annotations

from urllib.parse import urlencode

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

import framework_map as fm
import runtime_check as rc
import scatter_core as sc
import spec_examples
from from_code.translate import reverse_link
from framework_map.verified import VERIFIED
from scatter_core import fmt_value

from scatter_ui.pages import explorer
from scatter_ui.parts import session
from scatter_ui.parts.attribute_inputs import url_params
from scatter_ui.parts.controls import tensor_text
from scatter_ui.figures.heatmaps import HIGHLIGHT, VALUE_SCALE
from scatter_ui.pages.from_code import CALL, ENTRY, FROM_CODE_PAGE
from scatter_ui.figures.specdiff import LiveCase, breakable, compare_cases, cross_framework, diff, marked, md_escape, pairs_for, \
    row_cases, runtime_rows, timeline, tracker_rows, word_diff

MARK = "≠"
DIFFERS = "differs"  # the header of the column of marks (a header cell is never empty: axe empty-table-header)
TABS = ("Timeline", "Compare versions", "ONNX vs OpenVINO", "Errata", "Framework map", "Runtimes")
# URL parameters (each is also the widget's key: st.tabs / widgets bound to the query string)
TAB, A, B, ERRATA_FILTER, VERSION, CONFIG = "tab", "a", "b", "errata", "version", "config"
PAGE_SEEN = "spec:_family"


def _explorer_href(family: str, op: str, example: str, reduction: str) -> str:
    """A relative link to the family's explorer page (its record's URL path) with an example."""
    params = {"op": op, "example": example}
    if reduction and reduction != "none":
        params["reduction"] = reduction
    return f"{sc.family_of(family).slug}?{urlencode(params)}"


def _errata_of(family: str) -> list:
    names = {s.name for s in sc.family_members(family)}
    return [er for er in spec_examples.load_errata() if names & set(er.ops)]


def header(family: str) -> None:
    members = sc.family_members(family)
    st.title(f"Spec: {sc.FAMILY_TITLES[family]}")
    st.caption("Every version of this family, from the registry: what changed, how two versions differ, how "
               "ONNX and OpenVINO compare, the errata we found, the same operation in other frameworks, and what "
               "real runtimes do. The address bar keeps the tab, the versions and the filters: copy it to share "
               "this view.")
    links = " · ".join(f"[{s.name} ↗]({s.url})" for s in members)
    st.markdown(f"**Official pages:** {links}")
    st.page_link(explorer.page(family), label="Explore these versions step by step", icon="▶️")


# ---------------------------------------------------------------------------- tables
def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table; ``header`` is escaped here, ``rows`` must already be Markdown-safe."""
    head = "| " + " | ".join(md_escape(h) if h else " " for h in header) + " |"
    rule = "|" + "|".join(" --- " for _ in header) + "|"
    body = ["| " + " | ".join(cell or " " for cell in row) + " |" for row in rows]
    return "\n".join([head, rule, *body])


def diff_cells(a: str, b: str) -> tuple[str, str, str]:
    """(mark, a, b) as Markdown: a differing row gets the mark and its differing words highlighted."""
    a, b = breakable(a), breakable(b)
    if a == b:
        return "", md_escape(a), md_escape(b)
    ta, tb = word_diff(a, b)
    return f":orange[**{MARK}**]", marked(ta), marked(tb)


def case_href(live: LiveCase) -> str:
    """A relative link to the explorer showing ``live``: its example, or the generated case in full (typed inputs
    and every attribute in the URL, as the explorer's share link carries them)."""
    op = live.case.op
    family = sc.OPERATORS[op].family
    if live.example is not None:
        return _explorer_href(family, op, live.example, str(live.case.attrs.get("reduction", "none")))
    params = {"op": op, "example": session.CUSTOM}
    for role, arr in zip(("data", "indices", "updates"), live.case.given()):
        params[role] = tensor_text(arr)
    params.update(url_params(live.case.spec, live.case.attrs))  # each attribute's URL text, by its codec
    return f"{sc.family_of(family).slug}?{urlencode(params)}"


def row_cell(topic: str, a: str, b: str, cases=row_cases) -> str:
    """A row's links: each opens a case showing that row's difference (``cases``: specdiff.row_cases for the ONNX
    vs OpenVINO table, specdiff.compare_cases for Compare versions)."""
    links = []
    for live in cases(topic, a, b):
        ex = spec_examples.by_id(live.base)
        if ex.op == live.case.op:
            label = f"{live.case.op} {ex.short_label}" + (f", {live.change}" if live.change else "")
        else:  # the other version's case, translated: say whose inputs these are
            label = f"{live.case.op} with the inputs of {ex.op} {ex.short_label}"
        links.append(f"[▶ {md_escape(breakable(label))}]({case_href(live)})")
    return " · ".join(links)


def compare_cell(topic: str, a: str, b: str) -> str:
    """A Compare versions row's links (specdiff.compare_cases)."""
    return row_cell(topic, a, b, compare_cases)


def comparison_rows(rows: list[tuple[str, str, str]], a: str, b: str, links=compare_cell) -> list[list[str]]:
    out = []
    for topic, x, y in rows:
        mark, cx, cy = diff_cells(x, y)
        out.append([mark, md_escape(topic), cx, cy, links(topic, a, b) if mark else ""])
    return out


# ---------------------------------------------------------------------------- timeline
def timeline_section(family: str) -> None:
    st.header("Timeline")
    st.caption("Each version in order. “Changes” are the registry's own notes; “Rule differences” are "
               "computed by comparing the record with the one it replaces.")
    for op_type, entries in timeline(family):
        st.subheader(op_type)
        for e in entries:
            s = e.spec
            badge = f" · deprecated → {s.deprecated}" if s.deprecated else ""
            prev = f" (after {s.previous})" if s.previous else " (first version)"
            lines = [f"#### {s.name}{prev}{badge}",
                     f"{s.framework} · [official page ↗]({s.url}) · {s.summary}",
                     "", f"`{s.formula}`", "", "**Changes:**"]
            lines += [f"- {c}" for c in e.declared]
            if e.reduction_notes:
                lines += [f"- *{n}*" for n in e.reduction_notes]
            lines.append("")
            lines.append(f"**Rules:** reductions {', '.join(s.reduction_spellings)}; attributes "
                         f"{', '.join(s.attribute_names) or '(none)'}; negative indices {s.index_rule.negative}; "
                         f"index types {', '.join(s.index_rule.dtypes)}; types: {s.data_types}")
            st.markdown("\n".join(lines))
            if e.computed:
                with st.expander(f"Rule differences {s.previous} → {s.name} ({len(e.computed)})"):
                    rows = [[md_escape(r.field), *diff_cells(r.a, r.b)[1:]] for r in e.computed]
                    st.markdown(markdown_table(["rule", s.previous, s.name], rows))


# ---------------------------------------------------------------------------- compare two versions
def _default_pair(family: str) -> tuple[str, str]:
    """Newest ONNX version vs the version before it, else the two newest."""
    members = sc.family_members(family)
    onnx = [s for s in members if s.framework == "ONNX"] or list(members)
    newest = max(onnx, key=lambda s: s.version)
    other = newest.previous if newest.previous in sc.OPERATORS else next(
        (s.name for s in members if s.name != newest.name),
        next((s.name for s in sc.OPERATORS.values() if s.framework == newest.framework and s.name != newest.name),
             newest.name))
    return other, newest.name


def comparison_section(family: str) -> None:
    st.header("Compare two versions")
    st.caption(f"Pick any two operator versions (this family's come first). {MARK} marks the rules that differ, "
               "the differing words are highlighted, and each “see it live” link opens a case showing its row's "
               "difference: an example, or one made from an example (the link says what changed), and the same "
               "inputs under the other version where it takes them.")
    own = [s.name for s in sc.family_members(family)]
    names = own + [n for n in sc.OPERATORS if n not in own]  # this family first; any version may be picked
    default = _default_pair(family)
    cols = st.columns(2)
    a = cols[0].selectbox("Version A", names, index=names.index(default[0]), key=A, bind="query-params")
    b = cols[1].selectbox("Version B", names, index=names.index(default[1]), key=B, bind="query-params")
    rows = diff(a, b)
    n = sum(r.differs for r in rows)
    st.caption(f"{n} of {len(rows)} rules differ ({MARK} marks them)." if a != b else "The same version twice.")
    table = [(r.field, r.a, r.b) for r in rows if r.field != "official page"]
    body = comparison_rows(table, a, b)
    url_mark = diff_cells(sc.OPERATORS[a].url, sc.OPERATORS[b].url)[0]
    body.insert(0, [url_mark, "official page", f"[{md_escape(a)} ↗]({sc.OPERATORS[a].url})",
                    f"[{md_escape(b)} ↗]({sc.OPERATORS[b].url})", ""])
    with st.container(key="spec-compare-table"):
        st.markdown(markdown_table([DIFFERS, "rule", a, b if b != a else f"{b} (again)", "see it live"], body))


# ---------------------------------------------------------------------------- ONNX vs OpenVINO
def cross_framework_section(family: str) -> None:
    st.header("ONNX vs OpenVINO")
    pairs = pairs_for(family)
    if not pairs:
        st.info("This family has no ONNX counterpart to compare with: ScatterUpdate-3 exists only in OpenVINO. "
                "Its closest ONNX relatives are ScatterND (whole slices along the leading axes) and "
                "ScatterElements (single elements).", icon="ℹ️")
        return
    for a, b in pairs:
        st.subheader(f"{a.name} vs {b.name}")
        rows = cross_framework(a, b)
        n = sum(x != y for _, x, y in rows)
        st.caption(f"Reductions are matched by what they compute (add in ONNX is sum in OpenVINO). {n} of "
                   f"{len(rows)} topics differ ({MARK} marks them). Each “see it live” link opens a case showing "
                   "its row's difference: an example, or one made from an example (the link says what changed).")
        with st.container(key=f"spec-cross-{a.name}"):
            st.markdown(markdown_table([DIFFERS, "topic", a.name, b.name, "see it live"],
                                       comparison_rows(rows, a.name, b.name, row_cell)))


# ---------------------------------------------------------------------------- errata
def _matches(er, query: str) -> bool:
    hay = " ".join(str(v) for v in (er.id, er.kind, " ".join(er.ops), er.where, er.says, er.should_say,
                                    er.explanation, er.evidence, er.runtimes)).lower()
    return all(word in hay for word in query.lower().split())


def _erratum_arrays(er):
    if er.printed is None or er.spec_rules_give is None or not er.example_id:
        return None
    printed, gives = np.asarray(er.printed), np.asarray(er.spec_rules_give)
    if printed.shape != gives.shape:
        return None
    return printed.astype(gives.dtype), gives


def _evidence(er, gives) -> None:
    st.markdown("**Evidence**")
    lines = []
    for runtime, out in (er.runtime_outputs or {}).items():
        same = gives is not None and np.array_equal(np.asarray(out), gives)
        lines.append(f"- {'✔' if same else '✘'} {md_escape(runtime)} "
                     + ("gives what the operator gives" if same else "gives something else"))
    if lines:
        st.markdown("\n".join(lines))
    if er.runtimes:
        st.caption(f"Runtimes: {er.runtimes}")
    if er.evidence:
        st.caption(f"Evidence: {er.evidence}")


def _slices(shape: tuple[int, ...], differ: np.ndarray, limit: int = 2) -> list[tuple[tuple[int, ...], str]]:
    """The 2-D slices to draw: the whole matrix, or (for 3-D and more) the leading positions whose slice differs."""
    if len(shape) <= 2:
        return [((), "")]
    lead = shape[:-2]
    hits = [tuple(int(i) for i in pos) for pos in np.argwhere(differ.reshape(*lead, -1).any(axis=-1))]
    return [(pos, "[" + ", ".join(map(str, pos)) + ", :, :]") for pos in hits[:limit]]


def erratum_figure(printed: np.ndarray, gives: np.ndarray, differ: np.ndarray) -> go.Figure:
    """'The page prints' and 'the operator gives' as aligned heatmaps (one fixed colour scale, a value in each
    cell, row 0 at the top), the differing cells outlined."""
    slices = _slices(gives.shape, differ)
    titles = [f"{side} {label}".strip() for _, label in slices for side in ("the page prints", "the operator gives")]
    fig = make_subplots(rows=len(slices), cols=2, subplot_titles=titles, horizontal_spacing=0.08,
                        vertical_spacing=0.12)
    finite = np.concatenate([printed.reshape(-1), gives.reshape(-1)]).astype(float)
    finite = finite[np.isfinite(finite)]
    zmin, zmax = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    for r, (pos, _) in enumerate(slices, start=1):
        for c, arr in enumerate((printed, gives), start=1):
            m = np.atleast_2d(arr[pos] if pos else arr)
            d = np.atleast_2d(differ[pos] if pos else differ)
            fig.add_trace(go.Heatmap(z=m.astype(float), text=[[fmt_value(v) for v in row] for row in m],
                                     texttemplate="%{text}", coloraxis="coloraxis", xgap=2, ygap=2,
                                     hovertemplate="row %{y}, column %{x}: %{text}<extra></extra>",
                                     textfont=dict(size=13, color="#212529")), row=r, col=c)
            for y, x in np.argwhere(d):
                fig.add_shape(type="rect", x0=x - 0.4, x1=x + 0.4, y0=y - 0.4, y1=y + 0.4, row=r, col=c,
                              line=dict(color=HIGHLIGHT, width=3))
    rows = np.atleast_2d(gives[slices[0][0]] if slices[0][0] else gives).shape[0]
    for title in fig.layout.annotations:  # subplot titles sit above the column numbers
        title.update(yshift=18)
    fig.update_layout(coloraxis=dict(colorscale=VALUE_SCALE, cmin=zmin, cmax=zmax, showscale=False),
                      height=int(len(slices) * (80 + 34 * rows) + 40), margin=dict(l=30, r=10, t=60, b=10),
                      plot_bgcolor="white", paper_bgcolor="white", dragmode=False)
    fig.update_xaxes(side="top", dtick=1, showgrid=False, zeroline=False, fixedrange=True)
    fig.update_yaxes(autorange="reversed", dtick=1, showgrid=False, zeroline=False, fixedrange=True)
    return fig


def erratum_card(er) -> None:
    with st.container(border=True):
        st.markdown(f"📕 **{md_escape(er.id)}** · {md_escape(', '.join(er.ops))} · {md_escape(er.kind)}")
        st.markdown(md_escape(er.explanation))
        st.caption(f"Where: {er.where}")
        st.markdown(f"[the page ↗]({er.page_url})")
        arrays = _erratum_arrays(er)
        left, right = st.columns([3, 2], gap="medium")
        with left:
            if arrays is not None:
                printed, gives = arrays
                differ = printed != gives
                if printed.dtype.kind == "f":
                    differ &= ~(np.isnan(printed) & np.isnan(gives))  # NaN printed where NaN is given agrees
                st.caption(f"{int(differ.sum())} of {gives.size} cells differ (outlined)"
                           + (f"; the slices that differ, of {printed.shape}" if printed.ndim > 2 else "") + ".")
                st.plotly_chart(erratum_figure(printed, gives, differ), key=f"erratum-{er.id}",
                                config={"displayModeBar": False})
            else:
                ta, tb = word_diff(er.says, er.should_say)
                st.markdown(markdown_table(["the page prints", "it should say"], [[marked(ta), marked(tb)]]))
        with right:
            _evidence(er, arrays[1] if arrays is not None else None)
            if er.example_id:
                example = spec_examples.by_id(er.example_id)
                st.page_link(explorer.page(sc.OPERATORS[example.op].family), icon="▶️",
                             label="Open the example in the explorer", help=f"{er.example_id}: printed vs computed output",
                             query_params={"op": example.op, "example": example.id})


def errata_section(family: str) -> None:
    st.header("Errata")
    errata = _errata_of(family)
    if not errata:
        st.success("No errata found on these pages.", icon="✅")
        return
    query = st.text_input("Filter errata", key=ERRATA_FILTER, bind="query-params",
                          placeholder="a version, a kind (example-output, prose, formula, code) or a word")
    shown = [er for er in errata if _matches(er, query)]
    st.caption(f"{len(errata)} errata on this family's pages" + (f", {len(shown)} match the filter" if query else "")
               + ". An erratum is a finding about the published text, with the evidence beside it; the explorer "
                 "shows an example's erratum next to the example.")
    for er in shown:
        erratum_card(er)


# ---------------------------------------------------------------------------- framework map
def _verified_line(entry) -> str:
    if not entry.executable:
        return "⚠ never executed here (no WebNN implementation in this sandbox): taken from the WebNN draft"
    res = VERIFIED.get(entry.framework, {})
    rec = res.get("entries", {}).get(entry.id)
    if not rec:
        return (f"⚠ never executed: {entry.framework} was not installed when scripts/verify_frameworks.py "
                "last ran")
    ok = "all equal to scatter_core" if not rec["failures"] else f"{len(rec['failures'])} DISAGREE"
    other = f" ({rec['other_winner']} with another duplicate winning)" if rec["other_winner"] else ""
    return (f"✔ executed on {res['version']} ({res['date']}): {rec['cases']} random cases over "
            f"{rec['configurations']} configurations, {rec['duplicates']} with duplicate indices; {ok}{other}")


def framework_entry(entry, config) -> None:
    with st.container(border=True):
        kind = fm.KINDS[entry.kind]
        st.markdown(f"**{md_escape(entry.framework)}** · {md_escape(entry.operation)} · *{md_escape(kind)}* · "
                    f"[docs ↗]({entry.docs})")
        st.code(entry.call, language="python", wrap_lines=True)
        link = reverse_link(entry, config)
        if link is not None:  # the reverse view: this entry's call (or the same operation's, explained there)
            st.page_link(FROM_CODE_PAGE, icon="↩️", label="Open the same operation in From your code" if
                         link.stand_in else "Open this call in From your code",
                         help="Its ONNX / OpenVINO operator, caveats and an equivalence test" + (
                             "; the view explains this entry and opens the same operation as a call it reads"
                             if link.stand_in else ""),
                         query_params={CALL: link.call, **({ENTRY: entry.id} if link.stand_in else {})})
        if entry.condition:
            st.markdown(f"Faithful {md_escape(entry.condition)}.")
        kw = fm.call_kwargs(entry, config, "float32", 0)
        if kw:
            st.caption("With " + ", ".join(f"{k}={v!r}" for k, v in kw.items() if k != "axis") + " for this "
                       "configuration." if any(k != "axis" for k in kw) else "Called with the axis.")
        st.caption(_verified_line(entry))
        if entry.executable:
            with st.expander("The function, exactly as checked and exported"):
                st.code(fm.source_of(entry), language="python")
        said = fm.divergences(entry, config)
        rows = [[md_escape(topic), md_escape(said[topic])] for topic in fm.TOPICS]
        st.markdown(markdown_table(["where it differs", f"{entry.framework}"], rows))


def config_labels(op: str) -> list[str]:
    """The framework map's choices for ``op`` (its reductions), as its selectbox and the URL's ``config`` say them."""
    return [c.label.removeprefix(f"{op} ") or "(no attributes)" for c in fm.configurations(op)]


def framework_section(family: str) -> None:
    st.header("Framework map")
    st.caption("How each configuration is written in PyTorch, TensorFlow, JAX and WebNN, and where the semantics "
               "differ. Every PyTorch, TensorFlow and JAX entry is run on random cases (duplicates included) against "
               "Scatter Explorer's core: JAX in the test suite, all three by scripts/verify_frameworks.py "
               "(docs/frameworks.md). The check page exports the same code.")
    names = [s.name for s in sc.family_members(family)]
    cols = st.columns(2)
    op = cols[0].selectbox("Operator version", names, index=len(names) - 1, key=VERSION, bind="query-params")
    configs = fm.configurations(op)
    labels = config_labels(op)
    label = cols[1].selectbox("Reduction", labels, key=CONFIG, bind="query-params")
    config = configs[labels.index(label)] if label in labels else configs[0]
    for framework, entries in fm.by_framework(config).items():
        if not entries:
            st.markdown(f"**{framework}**: no direct equivalent and no faithful composition in the map.")
        for entry in entries:
            framework_entry(entry, config)


# ---------------------------------------------------------------------------- runtime notes
NOTE_COLUMNS = {"topic": st.column_config.TextColumn(width="small"),
                "runtime (version)": st.column_config.TextColumn(width="medium"),
                "what it does": st.column_config.TextColumn(width="large"),
                "source": st.column_config.TextColumn(width="medium"),
                "installed version": st.column_config.TextColumn(width="medium")}


def _source_markdown(fact: sc.Fact) -> str:
    """A report's source as Markdown: the issue or spec page as a link, then the test that checked it."""
    what = "upstream issue" if fact.source.kind == "issue" else "spec page"
    test = f", checked by this project's test {md_escape(fact.source.test)}" if fact.source.test else ""
    return f"[{what}]({fact.source.where}){test}; verified on {md_escape(fact.verified_words())}"


def runtime_section(family: str) -> None:
    st.header("What real runtimes do")
    st.caption("Observed behaviour, from the project's one table of runtime facts: each note names the runtime and "
               "the version it was verified on, and its source (a spec page, an upstream issue, or the test of this "
               "project that observed it). Notes marked NEW are not (yet) described in the project's "
               "docs/semantics.md.")
    installed = rc.available()
    skewed = sorted({t for r in rc.RUNTIMES if (t := rc.version_skew(r, installed.get(r)))})
    if skewed:
        st.warning("The installed runtimes are not the versions these facts were verified on: " + "; ".join(skewed)
                   + ". Each note says which facts this concerns.", icon="⚠️")
    for s in sc.family_members(family):
        rows = runtime_rows(s, installed)
        new = sum(r["source"].startswith("NEW") for r in rows)
        other = sum(bool(r.get("installed version")) for r in rows)
        with st.expander(f"{s.name}: {len(rows)} notes" + (f" ({new} new)" if new else "")
                         + (f", {other} verified on another version than the installed one" if other else "")):
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", column_config=NOTE_COLUMNS)
    reports = tracker_rows(family, installed)
    if reports:
        st.subheader("Reports from upstream issues and spec pages")
        st.caption("Each report was run on the verified runtimes by the project's tests: it holds, or it was not "
                   "reproduced.")
        st.markdown("".join(
            f"- **{md_escape(r['on the verified runtimes'])}** · *{md_escape(r['runtime (version)'])}*: "
            f"{md_escape(r['report'])}."
            + (f" {md_escape(r['versions'][:1].upper() + r['versions'][1:])}." if r["versions"] else "")
            + f" Source: {_source_markdown(sc.FACT_BY_ID[r['fact']])}."
            + (f" ⚠ {md_escape(r['installed version'])}." if r["installed version"] else "") + "\n"
            for r in reports))


SECTIONS = (timeline_section, comparison_section, cross_framework_section, errata_section, framework_section,
            runtime_section)


def _forget_other_page(family: str) -> None:
    """The spec pages share their URL names (tab, a, b ...); coming from another spec page, drop its choices so
    this page starts from its own URL (or its defaults), as a fresh link would."""
    ss = st.session_state
    if ss.get(PAGE_SEEN) != family:
        for k in (TAB, A, B, ERRATA_FILTER, VERSION, CONFIG):
            ss.pop(k, None)
        ss[PAGE_SEEN] = family


def url_refusals(family: str, params) -> dict[str, str]:
    """The link's values this page cannot use (its widgets would fall back to their defaults without a word),
    each with the reason."""
    out = {}
    if TAB in params and params[TAB] not in TABS:
        out[TAB] = f"not a tab of this page ({', '.join(TABS)})"
    for name in (A, B):
        if name in params and params[name] not in sc.OPERATORS:
            out[name] = "not an operator version"
    names = [s.name for s in sc.family_members(family)]
    version = params.get(VERSION, names[-1])
    if VERSION in params and version not in names:
        out[VERSION] = f"not a version of this family ({', '.join(names)})"
        version = names[-1]
    if CONFIG in params and params[CONFIG] not in config_labels(version):
        out[CONFIG] = f"not a choice of {version} ({', '.join(config_labels(version))})"
    return out


def check_url(family: str) -> None:
    """When the address is new to this page: name the values it cannot use in the shared link notice
    (session.url_notice, as the explorer and Practice pages do) and drop them from the address bar."""
    ss = st.session_state
    prefix = f"spec-{family}"
    params = st.query_params
    sig = tuple(sorted((name, params[name]) for name in (TAB, A, B, ERRATA_FILTER, VERSION, CONFIG) if name in params))
    if ss.get(session.key(prefix, "_url_sig")) == sig:
        return
    refused = url_refusals(family, params)
    if refused:
        ss[session.key(prefix, "_url_given")] = {name: str(params[name]) for name in refused}
        ss[session.key(prefix, "_url_ignored")] = refused
        ss[session.key(prefix, "_url_checked")] = True
        for name in refused:
            del st.query_params[name]
    ss[session.key(prefix, "_url_sig")] = tuple(x for x in sig if x[0] not in refused)


def render_page(family: str) -> None:
    _forget_other_page(family)
    check_url(family)
    header(family)
    session.url_notice(f"spec-{family}")
    tabs = st.tabs(list(TABS), key=TAB, bind="query-params", on_change="rerun")
    for tab, section in zip(tabs, SECTIONS):
        if tab.open is not False:  # only the chosen tab's section runs (None: state not tracked, run all)
            with tab:
                section(family)


def render(family: str) -> None:
    """Render the spec page of ``family``; never lets an exception reach the user as a traceback."""
    try:
        render_page(family)
    except Exception as exc:  # noqa: BLE001 - last line of defence: a message, never a traceback
        st.error(f"Something went wrong while drawing this page ({type(exc).__name__}: {exc}).", icon="🛑")
