"""Reusable page sections: findings, spec facts, errata, step log. Pure rendering."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import streamlit as st

import scatter_core as sc
import spec_examples
from scatter_core import fmt_pos, fmt_value

from scatter_ui.parts.controls import lazy_expander, md
from scatter_ui.figures.heatmaps import comparison_figure
from scatter_ui.parts.controls import theme_is_dark

LOG_ROWS = 400  # step-log rows shown around the current step (the CSV has all of them)


def at_this_step(trace: sc.Trace, finding, step: int) -> str:
    """What a finding means at the shown step: whether this step's write lands in its cells."""
    if step <= 0 or not finding.cells:
        return ""
    concerned = set(finding.cells)
    hit = [tuple(int(v) for v in c) for c in trace.target_cells(step - 1) if tuple(int(v) for v in c) in concerned]
    if not hit:
        return ""
    return (f"At step {step}: this step writes output{fmt_pos(hit[0])}"
            + (f" and {len(hit) - 1} more of these cells." if len(hit) > 1 else ", one of these cells."))


def findings(trace: sc.Trace, step: int = 0, key: str = "findings") -> None:
    """Every finding, most important first, in plain words (and what it means at ``step``);
    the order comparison when it matters, one click away (``key`` names its expander's state)."""
    found = sorted(trace.findings, key=lambda f: {"error": 0, "warning": 1, "info": 2}.get(f.severity, 3))
    if not found:
        st.success("No warnings: every targeted cell is written once, and nothing here depends on the "
                   "iteration order or on the runtime.", icon="✅")
        return
    for f in found:
        box = st.warning if f.severity in ("warning", "error") else st.info
        now = at_this_step(trace, f, step)
        box(f"**{md(f.title)}.** {md(f.message)}" + (f"\n\n**{md(now)}**" if now else ""),
            icon="⚠️" if box is st.warning else "ℹ️")
    for look in sc.FINDING_CLOSER_LOOKS:
        first = next((f for f in found if f.closer_look == look), None)
        if first is not None:
            CLOSER_LOOKS[look](trace, first, key)


def order_comparison(trace: sc.Trace, finding, key: str) -> None:
    """Both orders' outputs side by side; built only while its expander is open (a plotly chart; ``key``
    names the findings panel, whose expander state this keys)."""
    box = lazy_expander("First-write-wins vs last-write-wins, side by side", f"{key}:order_open")
    if box is None:
        return
    with box:
        cells = finding.details["cells_flat"][finding.details["differs"]]
        st.caption("The spec does not fix the order of the writes. The runtimes we tried (onnxruntime, "
                   "onnx.reference, OpenVINO CPU and reference) keep the last write in row-major loop order, "
                   "except that OpenVINO's CPU plugin, which splits ScatterND and ScatterUpdate writes across "
                   "threads, now and then keeps an earlier one; any parallel kernel may. Cells that differ are "
                   "outlined.")
        fig = comparison_figure(sc.Comparison(trace, trace.output_in_order("reversed"), trace.output, cells),
                                ("first write wins", "last write wins (loop order, what runtimes do)"),
                                dark=theme_is_dark())
        st.plotly_chart(fig, theme="streamlit", key=f"cmp-{id(trace)}")
        rows = [{"cell": f"output{fmt_pos(np.unravel_index(int(c), trace.data.shape))}",
                 "first write wins": fmt_value(f), "last write wins": fmt_value(l)}
                for c, f, l, d in zip(finding.details["cells_flat"], finding.details["first_wins"],
                                      finding.details["last_wins"], finding.details["differs"]) if d][:200]
        st.dataframe(pd.DataFrame(rows), hide_index=True)


def float_order(trace: sc.Trace, finding, key: str = "") -> None:
    """How far the float result moves with the order (``key`` unused: every closer look takes one)."""
    d = finding.details
    with st.expander("How much the float result moves with the order"):
        cell = np.unravel_index(d["cell_flat"], trace.data.shape)
        st.markdown(f"Largest change: **{md(fmt_value(d['max_abs_diff']))}** at {md(f'output{fmt_pos(cell)}')} "
                    + md(f"({fmt_value(d['loop_value'])} in loop order, {fmt_value(d['other_value'])} in "
                         f"{d['order']} order); {d['n_cells']} cell(s) change in all."))


# what each closer look a finding offers (scatter_core.FINDING_CLOSER_LOOKS) draws
CLOSER_LOOKS = {"orders side by side": order_comparison, "float order spread": float_order}


def spec_facts(spec: sc.OpSpec, key: str) -> None:
    box = lazy_expander(f"About {spec.name}: the rules this page follows", key)
    if box is None:
        return
    with box:
        st.markdown(f"**{md(spec.name)}** ({md(spec.framework)}) · [official page ↗]({spec.url})")
        st.text(spec.summary)
        st.code(spec.formula, language=None)
        st.markdown(f"- **Loop:** {md(spec.loop)}\n- **Index values:** {md(spec.index_rule.text)} "
                    f"(index dtypes: {md(', '.join(spec.index_rule.dtypes))})\n"
                    + "".join(f"- **Shape:** {md(r)}\n" for r in spec.shape_rules)
                    + f"- **Duplicates:** {md(spec.duplicate_policy)}\n"
                    + f"- **Reductions:** {md(', '.join(spec.reduction_spellings))}\n"
                    + (f"- **Changed from {md(spec.previous)}:** " + md(" ".join(spec.changes)) + "\n"
                       if spec.previous else f"- **History:** {md(' '.join(spec.changes))}\n"))
        if spec.runtime_notes:
            st.markdown("**What real runtimes do** (observed):\n" + "".join(
                f"- *{md(n.runtimes)}*: {md(n.text)}\n" for n in spec.runtime_notes))


def example_header(example, trace: sc.Trace | None, edited, on_reset=None) -> None:
    """The example's title, source and notes; whether its printed output is reproduced (given a trace).

    ``edited`` (what the user changed: ``"inputs"``, ``"attributes"``; falsy: nothing): the case shown is the
    user's, so the example's description and printed output, written for its own case, are not shown."""
    src = example.source
    origin = ("a Scatter Explorer teaching case" if example.ours
              else f"[{md(src.page_title)} ↗]({src.url}), {md(src.label)}")
    if edited:
        what = edited if isinstance(edited, str) else "inputs"
        st.markdown(f"**Your {md(what)}**, started from {md(example.menu_title)} · {origin}")
        st.caption(f"You changed the example's {md(what)}: its description and printed output are about its own "
                   "case, so they are not shown here.")
        if on_reset is not None:
            st.button("Back to the example", key=f"example-reset:{example.id}", on_click=on_reset)
        return
    st.markdown(f"**{md(example.title)}** · {origin}")
    if example.notes:
        st.caption(md(example.notes))
    if example.shapes_only:
        st.info(f"The spec gives only the shapes here; the values are **generated**: {md(example.generation)}",
                icon="🎲")
    if example.expected is not None and trace is not None:
        expected = np.asarray(example.expected)
        same = expected.shape == trace.output.shape and np.array_equal(
            expected.astype(trace.output.dtype), trace.output, equal_nan=trace.output.dtype.kind == "f")
        if same:
            st.success("Matches the expected output given with this teaching case." if example.ours
                       else "The spec's printed output is reproduced exactly.", icon="✅")
    errata = spec_examples.errata_for(example.id)
    for er in errata:
        if er.kind == "example-output" and er.example_id == example.id:
            erratum_box(er)
    others = [er for er in errata if not (er.kind == "example-output" and er.example_id == example.id)]
    if others:
        with st.expander(f"📕 {len(others)} more spec {'errata' if len(others) > 1 else 'erratum'} on this page"):
            for er in others:
                erratum_box(er)


def erratum_box(er) -> None:
    st.error(f"**Spec erratum ({md(er.kind)}).** {md(er.explanation)}\n\n"
             f"- **Where:** {md(er.where)} ([page ↗]({er.page_url}))\n"
             f"- **The page says:** {inline_code(er.says)}\n- **It should say:** {inline_code(er.should_say)}\n"
             + (f"- **Real runtimes:** {md(er.runtimes)}\n" if er.runtimes else ""), icon="📕")


def inline_code(text) -> str:
    """An inline code span that holds any text (a fence longer than its longest run of backticks)."""
    text = str(text)
    longest = max([len(m) for m in re.findall(r"`+", text)] or [0])
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def step_log(trace: sc.Trace, step: int, csv_source, key: str) -> None:
    """Every step's row; the shown step's row highlighted (the player's step). Built only while open."""
    n = len(trace)
    # the label stays the same from step to step: a new label would be a new expander, closed again
    box = lazy_expander(f"Step log ({n} step{'s' if n != 1 else ''})", key)
    if box is None:
        return
    with box:
        st.caption(f"Now at step {step}: its row is marked ▶ and highlighted.")
        lo = max(0, min(step - LOG_ROWS // 2, n - LOG_ROWS))
        hi = min(n, lo + LOG_ROWS)
        if n > LOG_ROWS:
            st.caption(f"Showing steps {lo + 1}–{hi} around the current step; the CSV has all {n}.")
        table = pd.DataFrame(trace.step_table(lo, hi))
        table.insert(0, "now", ["▶" if s == step else "" for s in table["step"]])
        styled = table.style.apply(
            lambda row: ["background-color: rgba(255, 75, 75, 0.22)" if row["step"] == step else ""] * len(row),
            axis=1)
        st.dataframe(styled, hide_index=True, height=min(38 + 35 * (hi - lo), 420))
        st.download_button("Download the step log (CSV)", data=csv_source, file_name="scatter_steps.csv",
                           mime="text/csv", on_click="ignore")
