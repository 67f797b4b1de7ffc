"""The spec page of one operator family, generated from the registry.

Sections: the version timeline (what changed in each version), a side-by-side
comparison of any two versions with the differences marked, the
cross-framework view (ONNX vs OpenVINO), the errata with their evidence, and
what real runtimes do (the records' runtime notes, with runtime and version).
Pages call :func:`render` with a family name ("nd", "elements", "update").
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import scatter_core as sc
import spec_examples

from . import panels, session
from .home import FAMILY_PAGES
from .specdiff import cross_framework, diff, pairs_for, runtime_rows, timeline

MARK = "≠"


def _key(family: str, name: str) -> str:
    return session.key(f"spec-{family}", name)


def _errata_of(family: str) -> list:
    names = {s.name for s in sc.family_members(family)}
    return [er for er in spec_examples.load_errata() if names & set(er.ops)]


def header(family: str) -> None:
    members = sc.family_members(family)
    st.title(f"Spec: {sc.FAMILY_TITLES[family]}")
    st.caption("Every version of this family, from the registry: what changed, how two versions differ, how "
               "ONNX and OpenVINO compare, the errata we found, and what real runtimes do.")
    links = " · ".join(f"[{s.name} ↗]({s.url})" for s in members)
    st.markdown(f"**Official pages:** {links}")
    st.page_link(FAMILY_PAGES[family], label="Explore these versions step by step", icon="▶️")


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
                    st.dataframe(pd.DataFrame([{"rule": r.field, s.previous: r.a, s.name: r.b} for r in e.computed]),
                                 hide_index=True)


def _highlight(row):
    color = "background-color: rgba(255, 196, 0, 0.28)" if row.iloc[0] == MARK else ""
    return [color] * len(row)


def comparison_section(family: str) -> None:
    st.header("Compare two versions")
    st.caption("Pick any two operator versions (this family's come first); rules that differ are marked.")
    own = [s.name for s in sc.family_members(family)]
    names = own + [n for n in sc.OPERATORS if n not in own]  # this family first; any version may be picked
    ka, kb = _key(family, "a"), _key(family, "b")
    ss = st.session_state
    default = _default_pair(family)
    for k, param, fallback in ((ka, "a", default[0]), (kb, "b", default[1])):
        if ss.get(k) not in names:
            wanted = st.query_params.get(param)  # ?a=ScatterND-16&b=ScatterND-18 opens that comparison
            ss[k] = wanted if wanted in names else fallback
    cols = st.columns(2)
    a = cols[0].selectbox("Version A", names, key=ka)
    b = cols[1].selectbox("Version B", names, key=kb)
    rows = diff(a, b)
    n = sum(r.differs for r in rows)
    st.caption(f"{n} of {len(rows)} rules differ ({MARK} marks them)." if a != b else "The same version twice.")
    df = pd.DataFrame([{"": MARK if r.differs else "", "rule": r.field, a: r.a, (b if b != a else f"{b} "): r.b}
                       for r in rows])
    st.dataframe(df.style.apply(_highlight, axis=1), hide_index=True, width="stretch", height=38 + 35 * len(df))


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
        st.caption("Reductions are matched by what they compute (add in ONNX is sum in OpenVINO).")
        rows = cross_framework(a, b)
        st.dataframe(pd.DataFrame([{"topic": t, a.name: x, b.name: y} for t, x, y in rows]), hide_index=True,
                     width="stretch", height=38 + 35 * len(rows))


def errata_section(family: str) -> None:
    st.header("Errata")
    errata = _errata_of(family)
    if not errata:
        st.success("No errata found on these pages.", icon="✅")
        return
    st.caption(f"{len(errata)} errata on this family's pages, each with its evidence; the explorer shows an "
               "example's erratum next to the example.")
    for er in errata:
        ops = ", ".join(er.ops)
        st.markdown(f"**{er.id}** · {ops}")
        panels.erratum_box(er)
        if er.evidence:
            st.caption(f"Evidence: {er.evidence}")
        if er.example_id:
            example = spec_examples.by_id(er.example_id)
            st.page_link(FAMILY_PAGES[sc.OPERATORS[example.op].family], icon="▶️",
                         label=f"Open {er.example_id} in the explorer (printed vs computed output)",
                         query_params={"op": example.op, "example": example.id})


def runtime_section(family: str) -> None:
    st.header("What real runtimes do")
    st.caption("Observed behaviour, as data from the registry: each note names the runtime and its version. "
               "Notes marked NEW were found by runtime_check's tests and are not (yet) in ../shared/semantics.md.")
    for s in sc.family_members(family):
        rows = runtime_rows(s)
        new = sum(r["source"].startswith("NEW") for r in rows)
        with st.expander(f"{s.name}: {len(rows)} notes" + (f" ({new} new)" if new else "")):
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def render_page(family: str) -> None:
    header(family)
    tabs = st.tabs(["Timeline", "Compare versions", "ONNX vs OpenVINO", "Errata", "Runtimes"])
    with tabs[0]:
        timeline_section(family)
    with tabs[1]:
        comparison_section(family)
    with tabs[2]:
        cross_framework_section(family)
    with tabs[3]:
        errata_section(family)
    with tabs[4]:
        runtime_section(family)


def render(family: str) -> None:
    """Render the spec page of ``family``; never lets an exception reach the user as a traceback."""
    try:
        render_page(family)
    except Exception as exc:  # noqa: BLE001 - last line of defence: a message, never a traceback
        st.error(f"Something went wrong while drawing this page ({type(exc).__name__}: {exc}).", icon="🛑")
