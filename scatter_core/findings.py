"""Findings: what a user should know about one run, in plain words.

Each check is a small function ``(trace) -> Finding | None``; ``CHECKS`` lists
them in the order they are shown. Checks read the trace and the spec record,
never an operator name. ``KINDS`` holds each kind's words (its title), so a
view reads ``finding.title`` and never branches on a kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

import numpy as np

from .describe import fmt_value
from .errors import fmt_pos
from .plan import unravel
from .reductions import truncate_mean

ORDERS_SIDE_BY_SIDE = "orders side by side"  # closer looks a view may offer (Finding.closer_look)
FLOAT_ORDER_SPREAD = "float order spread"
CLOSER_LOOKS = (ORDERS_SIDE_BY_SIDE, FLOAT_ORDER_SPREAD)  # in the order a view shows them
MAX_LISTED = 1000  # cells carried in a finding; the message and details give the full count
MAX_IN_MESSAGE = 4


@dataclass(frozen=True)
class FindingKind:
    """What every finding of one kind shares: its name and its title as the pages show it."""

    name: str
    title: str


KINDS: Mapping[str, FindingKind] = MappingProxyType({k.name: k for k in (
    FindingKind("duplicate-index", "Duplicate indices"),
    FindingKind("order-dependent", "Write order"),  # its message says whether the result depends on it (no repeat)
    FindingKind("float-order-sensitive", "Float result depends on the order"),
    FindingKind("spec-disallows-duplicates", "The spec forbids these duplicates"),
    FindingKind("runtime-divergence", "Runtimes differ here"),
    FindingKind("k-zero", "Empty index tuples (k = 0)"),
    FindingKind("spec-silent", "The spec is silent here"),
    FindingKind("one-element-updates", "One-element updates"),
    FindingKind("scalar-indices", "0-d indices"),
    FindingKind("no-effect", "No effect"),
    FindingKind("circular-wrap", "Circular mode wraps around"),  # TensorScatter-24
    FindingKind("clamped-bounds", "Slice bounds clamped to the axis"),  # SliceScatter-15
    FindingKind("empty-slice", "The slice is empty"),  # SliceScatter-15
    FindingKind("updates-dtype", "Updates take data's type"),
    FindingKind("nan-in-max-min", "NaN in max/min"),
)})


@dataclass(frozen=True)
class Finding:
    """One thing to know about a run. ``kind`` names a record of :data:`KINDS` (anything else is refused);
    ``closer_look`` names a closer look a view may offer (ORDERS_SIDE_BY_SIDE, FLOAT_ORDER_SPREAD or "")."""

    kind: str
    severity: str  # "info" | "warning" | "error"
    message: str
    cells: tuple[tuple[int, ...], ...] = ()  # output cells concerned (at most MAX_LISTED)
    update_positions: tuple[tuple[tuple[int, ...], ...], ...] = ()  # per cell, the updates that reach it
    details: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    closer_look: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"Finding kind {self.kind!r} has no record in scatter_core.findings.KINDS (its "
                             f"title and words); add one (known: {', '.join(KINDS)})")

    @property
    def title(self) -> str:
        """The kind's title, as the pages show it before the message."""
        return KINDS[self.kind].title


def _cells(trace, flat) -> tuple[tuple[int, ...], ...]:
    flat = np.asarray(flat)[:MAX_LISTED]
    if flat.size == 0:
        return ()
    coords = unravel(flat, trace.data.shape)
    return tuple(tuple(row) for row in coords.tolist())


def _dup_detail(trace):
    """Per duplicated cell: its flat position, the update positions and values reaching it."""
    w = trace.cell_writes
    dup = trace.duplicate_groups()[:MAX_LISTED]
    sizes = w.counts[dup]
    ends = np.cumsum(sizes)
    within = np.arange(int(ends[-1]) if len(ends) else 0) - np.repeat(ends - sizes, sizes)
    sorted_pos = np.repeat(w.first[dup], sizes) + within  # every write to a duplicated cell, grouped by cell
    loop_pos = w.loop_positions[sorted_pos]
    coords = [tuple(row) for row in unravel(trace.plan.sources.reshape(-1)[loop_pos], trace.updates.shape).tolist()]
    vals = w.values[sorted_pos].tolist()
    steps = (loop_pos // max(trace.slice_size, 1)).tolist()
    bounds = list(zip((ends - sizes).tolist(), ends.tolist()))
    positions = tuple(tuple(coords[a:b]) for a, b in bounds)
    values = tuple(tuple(vals[a:b]) for a, b in bounds)
    step_groups = tuple(tuple(steps[a:b]) for a, b in bounds)
    return w.cells[dup], positions, values, step_groups


def _list_cells(cells, positions, values, dtype=None) -> str:
    """``dtype``: the updates' dtype (values arrive as Python numbers from ``tolist``)."""
    parts = []
    for cell, pos, val in list(zip(cells, positions, values))[:MAX_IN_MESSAGE]:
        srcs = ", ".join(f"updates{fmt_pos(p)}" for p in pos)
        parts.append(f"output{fmt_pos(cell)} ← {srcs} ({', '.join(fmt_value(v, dtype) for v in val)})")
    return "; ".join(parts)


def duplicate_index(trace):
    dup = trace.duplicate_groups()
    if dup.size == 0:
        return None
    flat, positions, values, steps = _dup_detail(trace)
    cells = _cells(trace, flat)
    total = int(dup.size)
    more = f"; and {total - MAX_IN_MESSAGE} more" if total > MAX_IN_MESSAGE else ""
    red = trace.reduction
    spelling = trace.resolved.reduction
    if red.ufunc is None:
        tail = ("With reduction none only one of the competing values survives, and which one depends "
                "on the order the writes run in.")
    else:
        tail = f"With reduction {spelling} the competing values are combined ({red.describe(trace.data.dtype)})."
    note = trace.spec.note_text("duplicates")
    msg = (f"{total} output cell{'s are' if total != 1 else ' is'} written more than once: "
           f"{_list_cells(cells, positions, values, trace.updates.dtype)}{more}. {tail}")
    return Finding("duplicate-index", "warning" if red.ufunc is None else "info", msg, cells, positions,
                   MappingProxyType({"count": total, "values": values, "steps": steps,
                                     "runtime_note": note}))


def _differs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "f":
        same = (a.view(np.uint8).reshape(a.size, -1) == b.view(np.uint8).reshape(b.size, -1)).all(axis=1)
        return ~same
    return a != b


def order_dependent(trace):
    if trace.reduction.ufunc is not None or trace.duplicate_groups().size == 0:
        return None
    cells_flat, first = trace.final_values_in_order("reversed")
    last = trace.output.reshape(-1)[cells_flat]
    differ = _differs(first, last)
    n_diff = int(differ.sum())
    cells = _cells(trace, cells_flat)
    if n_diff:
        picked = np.flatnonzero(differ)[:MAX_IN_MESSAGE]
        shown = [f"output{fmt_pos(cells[i])}: first wins → {fmt_value(first[i])}, last wins → {fmt_value(last[i])}"
                 for i in picked.tolist()]
        msg = (f"The result depends on the loop order: {n_diff} cell{'s differ' if n_diff != 1 else ' differs'} "
               f"between first-write-wins and last-write-wins ({'; '.join(shown)}). The spec leaves the "
               f"order unspecified; the runtimes tried apply the writes in row-major loop order, so the "
               f"last write wins. Scatter Explorer shows last-write-wins.")
        parallel = trace.spec.note_text("duplicates-parallel")
        if parallel:
            msg += f" Observed: {parallel}."
    else:
        msg = ("Duplicate writes carry equal values here, so first-write-wins and last-write-wins give "
               "the same output; with other values the result would depend on the order.")
    return Finding("order-dependent", "warning" if n_diff else "info", msg, cells, (),
                   MappingProxyType({"cells_flat": cells_flat, "first_wins": first, "last_wins": last,
                                     "differs": differ, "n_differ": n_diff,
                                     "runtime_note": trace.spec.note_text("duplicates")}),
                   ORDERS_SIDE_BY_SIDE if n_diff else "")


def float_order_sensitive(trace):
    red = trace.reduction
    if trace.data.dtype.kind != "f" or not red.order_sensitive_for_floats or trace.duplicate_groups().size == 0:
        return None
    forward_cells, _ = trace.final_values_in_order("reversed")
    forward = trace.output.reshape(-1)[forward_cells]
    best = None
    for order in ("reversed", "ascending"):
        cells_flat, alt = trace.final_values_in_order(order)
        differ = _differs(alt, forward)
        if not differ.any():
            continue
        with np.errstate(all="ignore"):
            diff = np.abs(alt.astype(np.float64) - forward.astype(np.float64))
        diff = np.where(np.isnan(diff), np.inf, diff)
        k = int(np.argmax(np.where(differ, diff, -1)))
        if best is None or diff[k] > best["max_abs_diff"]:
            best = {"order": order, "max_abs_diff": float(diff[k]), "cell_flat": int(cells_flat[k]),
                    "loop_value": forward[k], "other_value": alt[k], "n_cells": int(differ.sum()),
                    "cells_flat": cells_flat[differ]}
    if best is None:
        return None
    cell = _cells(trace, [best["cell_flat"]])[0]
    msg = (f"The float result depends on the order the {trace.resolved.reduction} runs in: applying the "
           f"duplicated updates in {best['order']} order changes {best['n_cells']} cell(s); the largest "
           f"change is at output{fmt_pos(cell)}: {fmt_value(best['loop_value'])} in loop order vs "
           f"{fmt_value(best['other_value'])} (difference {fmt_value(best['max_abs_diff'], width=9)}). A kernel that "
           f"accumulates in parallel can legitimately produce either.")
    return Finding("float-order-sensitive", "warning", msg, _cells(trace, best["cells_flat"]), (),
                   MappingProxyType(best), FLOAT_ORDER_SPREAD)


def spec_disallows_duplicates(trace):
    canonical = trace.reduction.name
    if canonical not in trace.spec.duplicates_forbidden_with or trace.duplicate_groups().size == 0:
        return None
    flat, positions, _, _ = _dup_detail(trace)
    msg = (f"{trace.spec.name}'s text does not allow duplicate indices here: {trace.spec.duplicate_policy} "
           f"The input has {trace.duplicate_groups().size} duplicated cell(s); the output shown follows the "
           f"loop order (last write wins), as the runtimes do, but a conforming kernel may give any of them.")
    return Finding("spec-disallows-duplicates", "warning", msg, _cells(trace, flat), positions,
                   MappingProxyType({"policy": trace.spec.duplicate_policy}))


def integer_mean_rounding(trace):
    notes = trace.spec.notes_on("integer-mean", trace.data.dtype)
    if not (trace.reduction.divides and trace.data.dtype.kind == "i" and notes) or len(trace) == 0:
        return None
    written, acc, count = trace.mean_parts()
    trunc = truncate_mean(acc, count)
    floor = np.floor_divide(acc, count)
    differ = trunc != floor
    if not differ.any():
        return None
    cells_flat = written[differ]
    cells = _cells(trace, cells_flat)
    example = (f"output{fmt_pos(cells[0])}: floor {int(floor[differ][0])}, truncation {int(trunc[differ][0])}")
    msg = (f"Integer mean: {int(differ.sum())} cell(s) have a negative, inexact mean, where rounding down "
           f"(the spec) and rounding toward zero differ ({example}). "
           + " ".join(f"{n.runtimes} {n.text}." for n in notes))
    return Finding("runtime-divergence", "warning", msg, cells, (),
                   MappingProxyType({"topic": "integer-mean", "floor": floor[differ], "trunc": trunc[differ]}))


def int64_narrowing(trace):
    notes = trace.spec.notes_on("int64")
    if trace.data.dtype != np.int64 or not notes:
        return None
    lo, hi = np.iinfo(np.int32).min, np.iinfo(np.int32).max
    out_of_range = [name for name, arr in (("data", trace.data), ("updates", trace.updates),
                                          ("output", trace.output))
                    if arr.size and (arr.min() < lo or arr.max() > hi)]
    if not out_of_range:
        return None
    return Finding("runtime-divergence", "warning",
                   f"int64 values outside the int32 range in {', '.join(out_of_range)}: "
                   + " ".join(f"{n.runtimes} {n.text}." for n in notes),
                   details=MappingProxyType({"topic": "int64"}))


def plan_notes(trace):
    found = []
    for note in trace.plan.notes:
        observed = trace.spec.note_text(note.topic) if note.topic else ""
        found.append(Finding(note.kind, note.severity,
                             note.message + (f" Observed: {observed}" if observed else ""),
                             details=MappingProxyType({"topic": note.topic})))
    return found


def dtype_notes(trace):
    """Runtime notes that apply to this dtype and reduction (bool, float16)."""
    if trace.reduction.ufunc is None or len(trace) == 0:
        return None
    topic = {"b": "bool", "f": "float16" if trace.data.dtype == np.float16 else None}.get(trace.data.dtype.kind)
    notes = trace.spec.notes_on(topic) if topic else ()
    if not notes:
        return None
    return Finding("runtime-divergence", "info",
                   f"{trace.data.dtype} data with reduction {trace.resolved.reduction}: "
                   + " ".join(f"{n.runtimes} {n.text}." for n in notes),
                   details=MappingProxyType({"topic": topic}))


def nan_in_max_min(trace):
    """A NaN takes part in a max/min: neither spec defines the result, and the runtimes disagree."""
    red = trace.reduction
    if not red.nan_undefined or trace.data.dtype.kind != "f" or len(trace) == 0:
        return None
    w = trace.cell_writes
    nan_taking_part = np.logical_or.reduceat(np.isnan(w.values), w.first)
    if trace.use_init:
        nan_taking_part |= np.isnan(trace.data.reshape(-1)[w.cells])
    if not nan_taking_part.any():
        return None
    flat = w.cells[nan_taking_part]
    cells = _cells(trace, flat)
    n = int(flat.size)
    shown = ", ".join(f"output{fmt_pos(c)}" for c in cells[:MAX_IN_MESSAGE]) + (" …" if n > MAX_IN_MESSAGE else "")
    notes = trace.spec.notes_on("nan-max-min")
    msg = (f"A NaN takes part in the {trace.resolved.reduction} of {n} cell{'s' if n != 1 else ''} ({shown}). Neither "
           f"spec says what {red.name} gives with a NaN, and the runtimes disagree. Scatter Explorer keeps the NaN "
           f"(NumPy {red.ufunc.__name__}: any NaN that takes part makes the cell NaN), as PyTorch's scatter_reduce "
           f"does (torch 2.13.0+cpu, probed by scripts/verify_frameworks.py); TensorFlow's tensor_scatter_nd_max "
           f"and _min ignore a NaN update instead (tensorflow-cpu 2.21.0; the framework map says so)."
           + (" Observed: " + " ".join(f"{x.runtimes} {x.text}." for x in notes) if notes else ""))
    return Finding("nan-in-max-min", "warning", msg, cells, (),
                   MappingProxyType({"topic": "nan-max-min", "count": n, "cells_flat": flat}))


def use_init_val_no_effect(trace):
    if trace.spec.attribute("use_init_val") is None or trace.use_init or trace.reduction.ufunc is not None:
        return None
    return Finding("no-effect", "info", "use_init_val=false has no effect with reduction none.")


CHECKS = (duplicate_index, order_dependent, float_order_sensitive, spec_disallows_duplicates,
          integer_mean_rounding, int64_narrowing, plan_notes, dtype_notes, nan_in_max_min, use_init_val_no_effect)


def collect(trace) -> list[Finding]:
    found: list[Finding] = []
    for check in CHECKS:
        result = check(trace)
        if result is None:
            continue
        found.extend(result if isinstance(result, list) else [result])
    return found
