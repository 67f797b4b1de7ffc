"""The live cross-check panel: the current case on real runtimes, next to scatter_core.

``crosscheck_panel(case, key)`` (a Case, or the Unchecked inputs the core refuses) draws an expander
that, on a button press, runs the case on every installed runtime that can
execute ``op`` (onnxruntime, onnx.reference and the OpenVINO CPU plugin through
OpenVINO's ONNX frontend for ONNX versions; the OpenVINO CPU plugin and OpenVINO's
reference evaluation for OpenVINO versions), each in
a guarded child process with a timeout (:func:`runtime_check.compare`), and
shows each result beside scatter_core's, cell by cell. A crash or a hang comes
back as a message; the panel itself never raises.

Results are cached per case (operator, input bytes, attributes), so reruns of
the page do not start runtimes again. Without the ``runtimes`` extra the panel
says how to install it.
"""

from __future__ import annotations

import hashlib
from types import MappingProxyType

import numpy as np
import pandas as pd
import streamlit as st

import runtime_check as rc
from runtime_check.divergences import BY_LABEL
import scatter_core as sc
from scatter_core import fmt_pos, fmt_value

from scatter_ui.parts.controls import lazy_expander

MAX_CROSSCHECK_ELEMENTS = 1_000_000  # per tensor; larger cases are not sent to the runtimes
MAX_SHOWN_CELLS = 12  # differing cells listed per runtime
MAX_CELL_TABLE = 400  # outputs up to this many cells are also shown cell by cell, every runtime beside scatter_core
TIMEOUT_S = 30.0
INSTALL = 'python -m pip install -e ".[runtimes]"'
TITLE = "Cross-check against real runtimes"




def verified_versions() -> dict[str, str]:
    """Runtime -> the version the runtime facts were verified on (:func:`runtime_check.verified_versions`)."""
    return rc.verified_versions()


def skew(runtime: str, version: str | None) -> str:
    """'' when ``version`` is the one the facts were verified on, else what to do (:func:`runtime_check.version_skew`)."""
    return rc.version_skew(runtime, version, verified_versions())


def attr_items(op: str, attrs) -> tuple:
    """The attributes given (None: left out) as sorted (name, value) pairs of plain, hashable Python, each value
    by its codec (an attribute ``op`` does not declare goes by the base codec's rule: the runtime names it)."""
    spec = sc.OPERATORS.get(op)
    declared = {c.name: c for c in sc.codecs_of(spec)} if spec is not None else {}
    items = attrs.items() if hasattr(attrs, "items") else attrs  # a mapping, or (name, value) pairs
    out = []
    for name, value in items:
        if value is None:
            continue
        codec = declared.get(name) or sc.AttrCodec(spec, sc.AttrSpec(str(name), "str"))
        out.append((str(name), codec.plain(value)))
    return tuple(sorted(out))


def _digest(op: str, arrays, attrs: tuple) -> str:
    h = hashlib.sha256(op.encode())
    for a in arrays:
        h.update(f"|{a.dtype.str}|{a.shape}|".encode())
        h.update(a.tobytes())
    h.update(repr(attrs).encode())
    return h.hexdigest()[:20]


def fmt(value, dtype=None) -> str:
    """One cell's value in its own dtype, by the app's one formatter (sc.fmt_value): float32 1e20 is 1e+20, as
    everywhere else, not 1.0000000200408773e+20."""
    x = np.asarray(value, dtype=dtype) if dtype is not None else np.asarray(value)
    return fmt_value(x[()])


def _cell_text(c) -> str:
    if not c.cells:
        return ""
    cd = c.core_output.dtype if c.core_output is not None else None
    rd = c.runtime_output.dtype if c.runtime_output is not None else None
    shown = [f"output{fmt_pos(cell)}: scatter_core {fmt(cv, cd)}, {c.runtime} {fmt(rv, rd)}"
             for cell, cv, rv in zip(c.cells[:MAX_SHOWN_CELLS], c.core_values, c.runtime_values)]
    more = c.n_cells - len(shown)
    return "; ".join(shown) + (f"; … and {more} more" if more > 0 else "")


def _verdict(c) -> str:
    if c.agree:
        return "agree (both refuse)" if not c.core_ok else "agree (bit-identical)"
    return {"value": "differ: other values", "refused": "differ: the runtime refuses",
            "accepted": "differ: the runtime accepts what the text forbids",
            "crash": "differ: the runtime crashed or hung"}.get(c.outcome, f"differ: {c.outcome}")


def _explained(c) -> str:
    if c.agree:
        return ""
    if c.known_divergence:
        d = BY_LABEL[c.known_divergence]
        return f"known divergence `{d.label}`: {d.text} (source: {d.source})"
    if c.divergence:  # a fact of the table explains it, seen by this project's tests (docs/semantics.md does not yet)
        what = f": {c.divergence_text}" if c.divergence_text else ""
        return (f"explained by runtime fact `{c.divergence}`, observed by this project's tests, not (yet) in "
                f"docs/semantics.md{what}")
    return "NEW: no runtime fact of this project describes this difference"


def rows_from(comparisons) -> list[dict]:
    """Plain table rows from runtime_check comparisons (one per runtime)."""
    rows = []
    for c in comparisons:
        rows.append({
            "runtime": c.runtime, "version": c.version or "?", "ran": c.op, "result": _verdict(c),
            "differing cells": (f"{c.n_cells}: " if c.n_cells else "") + _cell_text(c),
            "runtime error": c.runtime_error or "", "explanation": _explained(c),
            "new": bool(c.new and not c.agree and not c.divergence),  # NEW: no fact of the table explains it
            "version skew": skew(c.runtime, c.version), "note": c.note or "",
        })
    return rows


@st.cache_data(max_entries=64, show_spinner=False)
def cached_run(op: str, digest: str, _data: np.ndarray, _indices: np.ndarray, _updates: np.ndarray,
               attrs: tuple) -> dict:
    """The cached cross-check of one case (keyed on ``op``, ``digest`` of the inputs and ``attrs``)."""
    comparisons = rc.compare(op, _data, _indices, _updates, guarded=True, timeout=TIMEOUT_S, **dict(attrs))
    core = comparisons[0] if comparisons else None
    core_summary = ""
    if core is not None:
        core_summary = (f"scatter_core refuses: {core.core_error}" if not core.core_ok else
                        f"scatter_core computes an output of shape {tuple(core.core_output.shape)} "
                        f"({core.core_output.dtype})")
    return {"rows": rows_from(comparisons), "core": core_summary, "cells": cell_table(comparisons)}


def cell_table(comparisons, limit: int = MAX_CELL_TABLE) -> list[dict]:
    """Every output cell: scatter_core's value beside each runtime's, ≠ where they differ (small outputs only)."""
    core = next((c.core_output for c in comparisons if c.core_output is not None), None)
    if core is None or core.size > limit:
        return []
    rows = []
    for pos in np.ndindex(core.shape):
        row = {"cell": f"output{fmt_pos(pos)}", "scatter_core": fmt(core[pos])}
        for c in comparisons:
            out = c.runtime_output
            if out is None or out.shape != core.shape:
                row[c.runtime] = "—"
                continue
            value = fmt(out[pos])
            differs = bool(rc.differing_cells(core[pos].reshape(1), out[pos].reshape(1))[0])
            row[c.runtime] = f"≠ {value}" if differs else value
        rows.append(row)
    return rows


def _install_message() -> None:
    st.info("The live cross-check needs the optional runtimes (onnx, onnxruntime, OpenVINO). Install them "
            f"with\n\n```\n{INSTALL}\n```\n\nand restart the app.", icon="🧩")


def crosscheck_panel(case: sc.Case | sc.Unchecked, key: str) -> None:
    """Draw the cross-check expander for one case; never raises.

    ``case``: the core's Case, or the Unchecked inputs where the core refuses them (the runtimes get the inputs
    and attributes as given either way). ``key``: a widget key prefix unique on the page.
    """
    try:
        box = lazy_expander(TITLE, f"{key}:open")  # built only while open
        if box is not None:
            with box:
                if isinstance(case, sc.Case):
                    _panel(case.op, *case.given(), case.given_attrs, key)
                else:
                    _panel(case.spec.name, case.data, case.indices, case.updates, case.attrs, key)
    except Exception as exc:  # noqa: BLE001 - a message, never a traceback
        st.error(f"The cross-check could not run ({type(exc).__name__}: {exc}).", icon="🛑")


def crosscheck_refused(op: str, load, attrs, key: str) -> None:
    """The panel for a case scatter_core refuses: ``load()`` gives (data, indices, updates), ``attrs`` a dict or
    (name, value) pairs as given; when even that fails (the text does not parse), there is nothing to send and
    nothing is drawn."""
    try:
        data, indices, updates = load()
    except Exception:  # noqa: BLE001 - unparsable inputs: the page already says why
        return
    crosscheck_panel(sc.Unchecked(sc.OPERATORS[op], data, indices, updates, MappingProxyType(dict(attrs))), key)


def run_label(runtimes) -> str:
    """The run button's label: exactly the runtimes that will run the case."""
    return "Run on " + " / ".join(runtimes)


def runtime_words(runtime: str) -> str:
    """A runtime's name with what it is where the name alone does not say it ("openvino-onnx (OpenVINO CPU
    (ONNX frontend))")."""
    title = rc.RUNTIME_TITLES.get(runtime, runtime)
    return runtime if title in (runtime, f"{runtime} (CPU)") else f"{runtime} ({title})"


def _panel(op, data, indices, updates, attrs, key) -> None:
    installed = rc.available()
    if not any(installed.values()):
        _install_message()
        return
    wanted = rc.runtimes_for(op) or (rc.runtimes_for(rc.stand_in(op)) if rc.stand_in(op) else [])
    verified = verified_versions()
    st.caption("Runs this case on " + (", ".join(runtime_words(r) for r in wanted) or "no runtime")
               + ", each in its own process "
               f"with a {TIMEOUT_S:g} s time limit, and compares every output cell with scatter_core's. "
               "Installed: " + ", ".join(f"{r} {v}" if v else f"{r} (not installed)" for r, v in installed.items())
               + ". The runtime facts were verified on: " + ", ".join(f"{r} {v}" for r, v in verified.items()) + ".")
    target = op if rc.runtimes_for(op) else (rc.stand_in(op) or op)
    unused = [r for r, v in installed.items() if v and r not in wanted]
    if wanted and unused:  # e.g. OpenVINO for an ONNX operator: why it does not run, so the button is no promise
        framework = sc.OPERATORS[target].framework
        other = [r for r in unused if rc.RUNTIME_FRAMEWORK[r] != framework]
        parts = [rc.not_runnable_reason(target, r) or r for r in unused if r not in other]
        if other:
            frontend = [r for r in wanted if r in rc.FRONTEND_RUNTIMES.get(framework, ())]
            parts.insert(0, f"{', '.join(other)} (they run {rc.RUNTIME_FRAMEWORK[other[0]]} models, and {target} is "
                            f"an {framework} operator: the cross-check runs a one-node model in the operator's own "
                            f"format and does not convert it"
                            + (f"; OpenVINO runs it as {', '.join(runtime_words(r) for r in frontend)}, which reads "
                               f"the ONNX model)" if frontend else ")"))
        st.caption("Not used: " + "; ".join(parts) + ".")
    skewed = [(r, skew(r, installed.get(r))) for r in wanted if skew(r, installed.get(r))]
    if skewed:
        st.warning("Version skew: " + "; ".join(f"{r}: {t}" for r, t in skewed)
                   + ". Differences may come from the version rather than the operator.", icon="⚠️")
    if not wanted:
        st.info(rc.not_runnable_reason(op) or f"No runtime runs {op}.", icon="ℹ️")
        return
    missing = [r for r in wanted if not installed.get(r)]
    if missing:
        st.caption(f"Not installed: {', '.join(missing)}; install them with `{INSTALL}`.")
    arrays = [np.asarray(a) for a in (data, indices, updates)]
    big = max(a.size for a in arrays)
    if big > MAX_CROSSCHECK_ELEMENTS:
        st.info(f"The cross-check runs only on inputs of up to {MAX_CROSSCHECK_ELEMENTS:,} elements per tensor; "
                f"this case has {big:,}. The differential tests cover the large spec examples.", icon="📏")
        return
    items = attr_items(op, attrs)
    digest = _digest(op, arrays, items)
    done_key = f"{key}-done"
    if st.button(run_label(wanted), key=f"{key}-run"):
        st.session_state[done_key] = digest
    if st.session_state.get(done_key) != digest:
        st.caption("Press the button to run the current case (results are kept for this case).")
        return
    with st.spinner("Running the runtimes…"):
        result = cached_run(op, digest, arrays[0], arrays[1], arrays[2], items)
    show(result)


def show(result: dict) -> None:
    rows = result["rows"]
    if result.get("core"):
        st.caption(result["core"])
    if not rows:
        st.info("No installed runtime can run this case.", icon="ℹ️")
        return
    for r in rows:
        head = f"**{r['runtime']} {r['version']}**" + (f" (ran {r['ran']})" if r["note"] else "")
        if r["result"].startswith("agree"):
            st.success(f"{head}: {r['result']}." + (f" ({r['version skew']})" if r.get("version skew") else ""),
                       icon="✅")
            continue
        lines = [f"{head}: {r['result']}."]
        if r["differing cells"]:
            lines.append(f"- Differing cells ({r['differing cells']})")
        if r["runtime error"]:
            error = r["runtime error"].split("; stderr:", 1)[0]  # the child's traceback stays in the table
            lines.append("- Runtime error: " + " ".join(error[:600].replace("`", "'").split()))
        lines.append(f"- {'🆕 ' if r['new'] else ''}{r['explanation']}")
        if r.get("version skew"):
            lines.append(f"- ⚠ {r['version skew']}: the difference may come from the version")
        box = st.error if "crash" in r["result"] or r["new"] else st.warning
        box("\n".join(lines), icon="🆕" if r["new"] else "⚠️")
    notes = sorted({r["note"] for r in rows if r["note"]})
    for n in notes:
        st.caption(n)
    st.dataframe(pd.DataFrame(rows).drop(columns=["note"]), hide_index=True)
    cells = result.get("cells")
    if cells:
        st.caption("Cell by cell (≠: the runtime's value differs from scatter_core's; —: no output):")
        st.dataframe(pd.DataFrame(cells), hide_index=True)
