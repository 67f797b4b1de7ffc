"""The home page: scatter in a few sentences, then a gallery of every spec example."""

from __future__ import annotations

import numpy as np
import streamlit as st

import scatter_core as sc
import spec_examples

from scatter_ui.pages import explorer
from scatter_ui.figures.text import md

# URL parameters and the widgets' keys: a copied link reopens the same gallery view (the filter and the versions
# are bound to the query string; the tab is written there by render(), since the page may choose it itself)
FILTER, OPS, TAB = "q", "ops", "family"
SEEN = "home:_seen_filter"

INTRO = """
A **scatter** operator copies a tensor `data` and then writes the values of `updates` into the
copy at positions that `indices` names. The families below differ in what one index addresses.

Newer versions can combine instead of replace (`reduction`: add / mul / max / min, OpenVINO's
sum / prod / sub / mean). When two updates hit the same cell, the result can depend on the order
of the writes, which the specs leave open. Scatter Explorer runs each spec's loop step by step and
shows every write, every duplicate and every place where the texts and real runtimes disagree.
"""
CARDS_PER_ROW = 3


@st.cache_data(show_spinner=False)
def gallery_rows() -> list[dict]:
    rows = []
    for ex in spec_examples.load_all():
        errata = spec_examples.errata_for(ex.id)
        if ex.shapes_only:
            status = "🎲 shapes only: values generated"
        elif ex.expected is None:
            status = "— no printed output"
        else:
            out = sc.scatter(ex.op, ex.data, ex.indices, ex.updates, **ex.attrs)
            ok = np.array_equal(np.asarray(ex.expected).astype(out.dtype), out)
            status = "✅ reproduces the spec" if ok else "📕 erratum: the printed output is wrong"
        if errata and not status.startswith("📕"):
            status += f" · 📕 {len(errata)} " + ("errata" if len(errata) > 1 else "erratum")
        rows.append(dict(id=ex.id, op=ex.op, title=ex.title, label=ex.label, ours=ex.ours,
                         page=ex.source.page_title, url=ex.source.url, status=status,
                         family=sc.OPERATORS[ex.op].family))
    return rows


def render() -> None:
    st.title("Scatter Explorer")
    st.markdown(INTRO)
    families = list(sc.FAMILIES.values())  # one card per family record: a new family gets its card
    for start in range(0, len(families), CARDS_PER_ROW):
        cols = st.columns(CARDS_PER_ROW)
        for col, family in zip(cols, families[start:start + CARDS_PER_ROW]):
            with col.container(border=True):
                st.markdown(f"**{md(family.title)}**")
                st.caption(md(f"Reads {family.reading}.  \nVersions: "
                              + ", ".join(s.name for s in sc.family_members(family.name))))
                st.page_link(explorer.page(family), label="Open the explorer", icon="▶️")
    rows = gallery_rows()
    st.header(f"Every worked example ({len(rows)})")
    st.caption("Each example as printed in the spec pages or the ONNX node tests, plus a few teaching cases of "
               "our own. The status says whether Scatter Explorer's exact implementation of the spec reproduces "
               "the printed output.")
    query = st.text_input("Filter", key=FILTER, bind="query-params",
                          placeholder="operator, title or status, e.g. ScatterND-16, duplicate, erratum")
    ops = sorted({r["op"] for r in rows}, key=lambda n: (sc.OPERATORS[n].framework, n))
    chosen = st.multiselect("Operator versions", ops, placeholder="all operator versions", key=OPS,
                            bind="query-params")
    shown = filter_rows(rows, query, chosen)
    families = list(sc.FAMILY_TITLES)
    counts = {f: sum(r["family"] == f for r in shown) for f in families}
    labels = {f: sc.FAMILY_TITLES[f] for f in families}
    _follow_matches(counts, labels, (query, tuple(chosen)))
    st.caption("Matches: " + " · ".join(f"{labels[f]} {counts[f]}" for f in families))
    tabs = st.tabs([labels[f] for f in families], key=TAB, on_change="rerun")
    if st.query_params.get(TAB) != st.session_state.get(TAB):
        st.query_params[TAB] = st.session_state.get(TAB) or labels[families[0]]
    for tab, family in zip(tabs, families):
        with tab:
            if not counts[family]:
                st.caption("No example of this family matches the filter.")
            for row in (r for r in shown if r["family"] == family):
                _card(row)


def filter_rows(rows: list[dict], query: str, chosen: list[str]) -> list[dict]:
    return [r for r in rows
            if not (query and query.lower() not in " ".join(str(v) for v in r.values()).lower())
            and not (chosen and r["op"] not in chosen)]


def _follow_matches(counts: dict, labels: dict, signature: tuple) -> None:
    """Choose the tab before it is drawn: the URL's on a session's first run; then, whenever the filter
    changes and leaves the chosen tab empty, the first tab with matches."""
    ss = st.session_state
    if TAB not in ss and st.query_params.get(TAB) in labels.values():
        ss[TAB] = st.query_params.get(TAB)
    if ss.get(SEEN) == signature:
        return
    ss[SEEN] = signature
    current = ss.get(TAB) or next(iter(labels.values()))
    family = next((f for f, label in labels.items() if label == current), None)
    if family is not None and counts[family] == 0:
        best = next((f for f, n in counts.items() if n), None)
        if best is not None:
            ss[TAB] = labels[best]


def _card(row: dict) -> None:
    with st.container(border=True):
        left, right = st.columns([5, 2], vertical_alignment="center")
        origin = ("Scatter Explorer teaching case" if row["ours"]
                  else f"[{row['page']} ↗]({row['url']}), {row['label']}")
        left.markdown(f"**{row['title']}**  \n`{row['op']}` · {origin}  \n{row['status']}")
        right.page_link(explorer.page(row["family"]), label="Explore step by step", icon="▶️",
                        query_params={"op": row["op"], "example": row["id"]})
