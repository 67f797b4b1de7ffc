"""The step trace: what each iteration of the spec's loop read and wrote.

One step per loop iteration, in row-major order. Per step the trace keeps the
output cells written, the update cells read, the index values (as given and
normalised) and, per cell, the value before and after the step. ``before`` and
``after`` are what the output shows: ``state_at(k)[cell]`` and
``state_at(k + 1)[cell]``. For ``mean`` that is the running mean (the output
the loop would give if it stopped there); the accumulated sums are kept too.
Records few callers read (``acc_before``, ``counts``, ``first_write``) are
computed on first use.

Memory is O(data + steps x slice): per-step records, never a tensor per step.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .fast import buffers
from .fast.copying import copy_later
from .describe import fmt_index, fmt_shape, fmt_value, fmt_values
from .errors import fmt_pos
from .explaining import mean_step
from .families import family_of
from .fast.kernel import assign_in_order, values_in_loop_order
from .plan import unravel  # noqa: F401 - re-exported: tracing.unravel is older than plan.unravel
from .reductions import divide_mean
from .fast.segmented import count_by_target, group_by_target, running


@dataclass(frozen=True)
class CellWrites:
    """The trace's writes grouped by output cell: cells ascending, each cell's writes in loop order.

    ``cells[g]`` (a flat output position) is written ``counts[g]`` times; its writes
    are entries ``first[g] .. first[g] + counts[g] - 1`` of the per-write arrays
    ``loop_positions`` (where the write sits in ``plan.targets.reshape(-1)``, i.e.
    step * slice_size + slot) and ``values`` (the update value it applies).
    """

    cells: np.ndarray
    counts: np.ndarray
    first: np.ndarray
    loop_positions: np.ndarray
    values: np.ndarray

    @property
    def last(self) -> np.ndarray:
        """Per cell: the entry of its last write."""
        return self.first + self.counts - 1

    def duplicated(self) -> np.ndarray:
        """Ids (into ``cells``) of the cells written more than once."""
        return np.flatnonzero(self.counts > 1)


def _own_plan(plan, callers_indices: np.ndarray, own_indices: np.ndarray):
    """The plan with no array that is a view of the caller's indices (the fast path may keep views):
    a reshaped view of all of them becomes the same view of ``own_indices`` (the trace's copy), any
    other a copy."""
    def own(a):
        if not np.may_share_memory(a, callers_indices):
            return a
        if (a.size == callers_indices.size and a.dtype == callers_indices.dtype and a.flags.c_contiguous
                and callers_indices.flags.c_contiguous and a.ctypes.data == callers_indices.ctypes.data):
            return own_indices.reshape(a.shape)
        return np.array(a, copy=True)

    return dataclasses.replace(plan, index_raw=own(plan.index_raw), index_norm=own(plan.index_norm))


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _shifted(a: np.ndarray, group_start: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Per sorted position, the value before it: the previous entry of its group, or ``first[g]``."""
    res = np.empty_like(a)
    res[1:] = a[:-1]
    res[group_start] = first
    return res


class Trace:
    """The recorded run of one operator version on one set of inputs."""

    def __init__(self, p):
        """``p``: a :class:`scatter_core.Case` (use ``case.trace()`` or ``scatter_core.trace``)."""
        self.spec = p.spec
        self.op = p.spec.name
        self.resolved = p.resolved
        self.attrs = p.resolved.as_attrs(p.spec)
        self.reduction = p.reduction
        self.use_init = p.use_init
        # data is copied twice (the trace's own data, and the output's start) on the copy pool
        # while the records below are computed from the caller's data, which holds the same values
        self.data = buffers.empty(p.data.shape, p.data.dtype)
        output = buffers.empty(p.data.shape, p.data.dtype)
        finish_copies = copy_later([(self.data, p.data), (output, p.data)])
        try:
            self.indices = _frozen(np.array(p.indices, copy=True))
            # False: the caller left indices out (None) and ``indices`` is what the loop read instead
            # (TensorScatter's zero write indices; an empty tensor for SliceScatter, which reads none)
            self.indices_given = bool(getattr(p, "indices_given", True))
            self.plan = _own_plan(p.plan, p.indices, self.indices)
            self.updates = _frozen(np.array(p.updates, copy=True))
            self._record_steps(p.plan, p.data)
        finally:
            finish_copies()
        _frozen(self.data)
        # each written cell ends with the value after its last write: in loop order, the last write wins
        assign_in_order(output.reshape(-1), self.plan.targets.reshape(-1), self.after.reshape(-1))
        self.output = _frozen(output)

    def _record_steps(self, plan, data: np.ndarray) -> None:
        """The per-write records, computed for all steps at once (no loop over steps).

        Writes are grouped by target cell ("sorted" order below: by cell, then loop
        order); each cell's writes are folded in loop order, and the results are
        scattered back to loop order. ``data``: the values the cells start from.
        """
        dtype = data.dtype
        values = values_in_loop_order(self.updates, plan.sources)
        g = group_by_target(plan.targets.reshape(-1))
        self._groups = g
        us = values[g.order]
        init = data.reshape(-1)[g.targets[g.start]]
        start = init if self.use_init else np.full(g.start.size, self.reduction.neutral_for(dtype), dtype=dtype)
        acc_after = running(self.reduction.combiner(dtype), start, us, g.start, g.size)
        if self.reduction.divides:
            after = divide_mean(acc_after, g.occ + self._first_count, dtype)
            before = _shifted(after, g.start, init)
        elif self.use_init:
            after = acc_after
            before = _shifted(acc_after, g.start, start)  # the accumulator before each write, as shown
        else:
            # the shown value before a write is the accumulator's, except where use_init_val=false
            # replaced the cell's first value by the neutral one
            after = acc_after
            before = _shifted(after, g.start, init)
        self._sorted_after = _frozen(after)
        self._sorted_steps = g.order // plan.slice_size if plan.slice_size > 1 else g.order
        self._sorted_targets = g.targets
        self._start_values = start
        self._sorted_values = us

        # where two records hold the same values (no mean, use_init_val), they share one array
        self.before = self._loop_order(before)
        self.after = self._loop_order(after)
        self.acc_after = self.after if acc_after is after else self._loop_order(acc_after)
        if self.use_init and not self.reduction.divides:
            self.__dict__["acc_before"] = self.before  # the cached property's value, known already
        self.values = _frozen(values.reshape(plan.targets.shape))

    @property
    def _first_count(self) -> int:
        """A mean's contributions to a cell once its first write is applied: that write, and data's value
        with use_init_val."""
        return 1 + int(self.use_init)

    def _loop_order(self, a: np.ndarray) -> np.ndarray:
        """A per-write array in sorted order (by cell) put back in loop order, read-only."""
        res = np.empty_like(a)
        res[self._groups.order] = a
        return _frozen(res.reshape(self.plan.targets.shape))

    # -- records few callers read: computed on first use -----------------------------------------
    @cached_property
    def acc_before(self) -> np.ndarray:
        """Per write (loop order): the accumulator before it, the cell's start value for its first write
        (it differs from ``before`` for mean, and where use_init_val=false). Computed on first use."""
        g = self._groups
        sorted_acc_after = self.acc_after.reshape(-1)[g.order]
        return self._loop_order(_shifted(sorted_acc_after, g.start, self._start_values))

    @cached_property
    def counts(self) -> np.ndarray | None:
        """For a mean, per write (loop order): the contributions to its cell once it is applied (writes so
        far, plus data's value with use_init_val); None for other reductions. Computed on first use."""
        if not self.reduction.divides:
            return None
        return self._loop_order(self._groups.occ + self._first_count)

    @cached_property
    def first_write(self) -> np.ndarray:
        """Per written cell (loop order, like ``after``): whether it is the first write to that cell.

        Computed on first use; few callers need it.
        """
        g = self._groups
        first = np.zeros(self.plan.targets.size, dtype=bool)
        first[g.order[g.start]] = True
        return _frozen(first.reshape(self.plan.targets.shape))

    # -- size and states ----------------------------------------------------
    def __len__(self) -> int:
        return self.plan.n_steps

    @property
    def slice_size(self) -> int:
        return self.plan.slice_size

    def state_at(self, k: int) -> np.ndarray:
        """The output after the first ``k`` steps (a fresh array; 0 <= k <= len(self))."""
        k = int(k)
        if not 0 <= k <= len(self):
            raise IndexError(f"step {k} is outside 0..{len(self)}")
        if k == len(self):
            return self.output.copy()
        out = self.data.copy()
        if k == 0:
            return out
        done = self._sorted_steps < k
        g = self._groups
        nxt = np.zeros_like(done)
        nxt[:-1] = done[1:] & (g.gid[1:] == g.gid[:-1])
        last = done & ~nxt
        out.reshape(-1)[self._sorted_targets[last]] = self._sorted_after[last]
        return out

    def write_counts(self, k: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(flat cells, number of writes) for the writes of steps < k (all steps when k is None)."""
        k = len(self) if k is None else int(k)
        return count_by_target(self.plan.targets[:k])

    # -- positions ------------------------------------------------------------
    def target_cells(self, i: int) -> np.ndarray:
        """(S, rank) output positions written by step i."""
        return unravel(self.plan.targets[i], self.data.shape)

    def source_cells(self, i: int) -> np.ndarray:
        """(S, rank) updates positions read by step i."""
        return unravel(self.plan.sources[i], self.updates.shape)

    def index_cells(self, i: int) -> np.ndarray:
        """(k, rank) indices positions read by step i."""
        return unravel(self.plan.index_cells[i], self.indices.shape)

    def wrapped(self, i: int) -> bool:
        """Whether step i's position ran past the end of its axis and came back to the start (a circular write)."""
        return self.plan.wrapped is not None and bool(self.plan.wrapped[i])

    def loop_position(self, i: int) -> tuple[int, ...]:
        return tuple(int(x) for x in np.unravel_index(i, self.plan.loop_shape)) if self.plan.loop_shape else ()

    # -- words ----------------------------------------------------------------
    def target_label(self, i: int) -> str:
        return "output" + fmt_index(self.target_cells(i)[0], self.plan.target_free_axes)

    def source_label(self, i: int) -> str:
        return "updates" + fmt_index(self.source_cells(i)[0], self.plan.source_free_axes)

    def index_label(self, i: int) -> str:
        custom = family_of(self.spec).index_label
        if custom is not None:  # a family whose steps read their index in a way of its own
            return custom(self, i)
        raw = self.plan.index_raw[i]
        norm = self.plan.index_norm[i]
        cells = self.index_cells(i)
        if self.indices.ndim == len(self.plan.loop_shape) and raw.size == 0:  # a family that reads no indices
            return "no index: the attributes place it"
        if self.indices.ndim == len(self.plan.loop_shape):  # one index value per step
            text = f"indices{fmt_pos(cells[0])} = {int(raw[0])}"
            if raw[0] != norm[0]:
                text += f" normalised to {int(norm[0])}"
            return text
        text = f"indices{fmt_pos(self.loop_position(i))} = [{', '.join(str(int(v)) for v in raw)}]"
        if len(raw) == 0:
            return text + ", the empty tuple: the whole tensor"
        if (raw != norm).any():
            text += f" normalised to [{', '.join(str(int(v)) for v in norm)}]"
        return text

    def describe(self, i: int) -> str:
        """One sentence for step i (0-based): what was read, where it went, what it did."""
        n = len(self)
        spelling = self.resolved.reduction
        vals = self.values[i]
        size = self.slice_size
        src = self.source_label(i)
        dst = self.target_label(i)
        head = f"step {i + 1} of {n}: "
        if size == 1:
            head += f"{src} = {fmt_value(vals[0])} goes to {dst} ({self.index_label(i)})"
        else:
            shape = tuple(self.data.shape[d] for d in self.plan.target_free_axes)
            what = f"a {fmt_shape(shape)} slice" if len(shape) > 1 else f"{size} values"
            head += f"{src} ({what}) goes to {dst} ({self.index_label(i)})"
        return head + "; " + self._effect(i, spelling)

    def _effect(self, i: int, spelling: str) -> str:
        red = self.reduction
        b, a = self.before[i], self.after[i]
        if self.slice_size != 1:
            if red.ufunc is None:
                return f"{spelling}: the slice's {self.slice_size} cells are replaced"
            return f"{spelling}: each of the slice's {self.slice_size} cells is combined with its update ({red.describe(self.data.dtype)})"
        before, after, value = b[0], a[0], self.values[i][0]
        start = self.acc_before[i][0]
        fresh = bool(self.first_write[i][0]) and not self.use_init and red.ufunc is not None
        prefix = (f"use_init_val=false, so the cell starts from {fmt_value(start)} instead of "
                  f"{fmt_value(before)}; ") if fresh else ""
        if red.ufunc is None:
            return f"{spelling}: {fmt_value(before)} is replaced by {fmt_value(after)}"
        if red.divides:
            return prefix + mean_step(spelling, red, self.data.dtype, start, value, self.acc_after[i][0],
                                      int(self.counts[i][0]), after)
        if red.symbol in "+-*":
            return prefix + f"{spelling}: {fmt_value(start)} {red.symbol} {fmt_value(value)} = {fmt_value(after)}"
        return prefix + f"{spelling}: {red.symbol}({fmt_value(start)}, {fmt_value(value)}) = {fmt_value(after)}"

    # -- tables -----------------------------------------------------------------
    def step_table(self, start: int = 0, stop: int | None = None) -> dict[str, list]:
        """One row per step in [start, stop): plain columns a UI turns into a table or CSV."""
        stop = len(self) if stop is None else min(int(stop), len(self))
        rows = range(max(int(start), 0), stop)
        scalar = self.slice_size == 1
        cols = {
            "step": [i + 1 for i in rows],
            "update": [self.source_label(i) for i in rows],
            "index": [self.index_label(i) for i in rows],
            "target": [self.target_label(i) for i in rows],
            "value": [fmt_value(self.values[i][0]) if scalar else fmt_values(self.values[i], 8) for i in rows],
            "before": [fmt_value(self.before[i][0]) if scalar else fmt_values(self.before[i], 8) for i in rows],
            "after": [fmt_value(self.after[i][0]) if scalar else fmt_values(self.after[i], 8) for i in rows],
            "reduction": [self.resolved.reduction] * len(rows),
        }
        return cols

    # -- per cell ------------------------------------------------------------------
    @cached_property
    def cell_writes(self) -> CellWrites:
        """The writes grouped by output cell (see :class:`CellWrites`)."""
        g = self._groups
        return CellWrites(_frozen(g.targets[g.start]), _frozen(g.size), _frozen(g.start), _frozen(g.order),
                          _frozen(self._sorted_values))

    def mean_parts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For a mean: per written cell (ascending), the final accumulated sum (int64 for integer data)
        and the number of contributions (writes + use_init_val)."""
        w = self.cell_writes
        acc = self.acc_after.reshape(-1)[w.loop_positions[w.last]]
        if self.data.dtype.kind in "iub":
            acc = acc.astype(np.int64)
        return w.cells, acc, w.counts + int(self.use_init)

    # -- alternative orders -------------------------------------------------------
    def duplicate_groups(self) -> np.ndarray:
        """Ids of target groups written more than once."""
        return np.flatnonzero(self._groups.size > 1)

    def final_values_in_order(self, order: str) -> tuple[np.ndarray, np.ndarray]:
        """(flat cells, final values) of the duplicated cells if their writes ran in another order.

        ``order``: ``"reversed"`` (so with reduction none the first write wins) or
        ``"ascending"`` (each cell's updates sorted by value).
        """
        g = self._groups
        dup = self.duplicate_groups()
        if dup.size == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=self.data.dtype)
        sizes = g.size[dup]
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        pos = np.repeat(g.start[dup], sizes) + (np.arange(sizes.sum()) - np.repeat(starts, sizes))
        vals = self._sorted_values[pos]
        local_gid = np.repeat(np.arange(dup.size), sizes)
        if order == "reversed":
            occ = np.arange(sizes.sum()) - np.repeat(starts, sizes)
            perm = np.repeat(starts, sizes) + (np.repeat(sizes, sizes) - 1 - occ)
        elif order == "ascending":
            perm = np.lexsort((vals, local_gid))
        else:
            raise ValueError(f"unknown order {order!r}")
        vals = vals[perm]
        acc = running(self.reduction.combiner(self.data.dtype), self._start_values[dup], vals, starts, sizes)
        final = acc[starts + sizes - 1]
        if self.reduction.divides:
            final = divide_mean(final, sizes + int(self.use_init), self.data.dtype)
        return g.targets[g.start[dup]], final

    def output_in_order(self, order: str) -> np.ndarray:
        cells, values = self.final_values_in_order(order)
        out = self.output.copy()
        out.reshape(-1)[cells] = values
        return out

    @cached_property
    def findings(self) -> list:
        from .findings import collect

        return collect(self)
