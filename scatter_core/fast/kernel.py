"""The fast kernel: write a prepared case's result into an output array.

Shared by :meth:`scatter_core.Case.run` (and so ``scatter()``) and the trace
(which reads ``values_in_loop_order``). Never branches on an operator or family:
it reads the plan and the reduction row.
"""

from __future__ import annotations

import numpy as np

from ..plan import is_iota
from ..reductions import divide_mean
from .segmented import count_by_target


def apply_fast(p, out: np.ndarray) -> np.ndarray:
    """Write the scatter result into ``out`` (already holding a copy of data)."""
    flat_out = out.reshape(-1)
    targets = p.plan.targets.reshape(-1)
    if targets.size == 0:
        return out
    values = values_in_loop_order(p.updates, p.plan.sources)
    ufunc = p.reduction.combiner(out.dtype)
    if ufunc is None:
        assign_in_order(flat_out, targets, values)
        return out
    touched = counts = None
    if not p.use_init or p.reduction.divides:
        touched, counts = count_by_target(targets)
    if not p.use_init:
        flat_out[touched] = p.reduction.neutral_for(out.dtype)
    with np.errstate(over="ignore", invalid="ignore"):  # float overflow to inf is the defined result
        ufunc.at(flat_out, targets, values)
    if p.reduction.divides:
        flat_out[touched] = divide_mean(flat_out[touched], counts + int(p.use_init), out.dtype)
    return out


def _fancy_assignment_is_in_order() -> bool:
    """Does ``a[idx] = v`` with a flat int64 ``idx`` apply the writes in order (the last one wins)?

    NumPy's documentation leaves the order of repeated writes in an advanced assignment open;
    its implementation for one flat index array writes them in order, and twice as fast as
    ``np.put`` (which spends a function call on every element). This probe, run once at import,
    and the duplicate-heavy tests against the spec loop keep that assumption checked.
    """
    n, cells = 8192, 61  # write i goes to cell (i * 7919) % 61: every cell is hit 134 times
    writes = np.arange(n, dtype=np.int64)
    targets = (writes * 7919) % cells
    probe = np.full(cells, -1, dtype=np.int64)
    probe[targets] = writes
    last = np.empty(cells, dtype=np.int64)
    last[targets[-cells:]] = writes[-cells:]  # 7919 and 61 are coprime: the last 61 writes hit every cell once
    return bool(np.array_equal(probe, last))


FANCY_ASSIGNMENT_IN_ORDER = _fancy_assignment_is_in_order()


def assign_in_order(flat_out: np.ndarray, targets: np.ndarray, values: np.ndarray) -> None:
    """``flat_out[targets[i]] = values[i]`` for i = 0, 1, ...: where a cell is written twice the last write wins."""
    if FANCY_ASSIGNMENT_IN_ORDER:
        flat_out[targets] = values
    else:
        np.put(flat_out, targets, values)


def values_in_loop_order(updates: np.ndarray, sources: np.ndarray) -> np.ndarray:
    """The update value of every write, flat, in loop order (``updates.flat[sources]``).

    Most plans read updates in order (sources 0, 1, 2, ...): then this is a view of
    updates and no gather is made.
    """
    flat = updates.reshape(-1)
    sources = sources.reshape(-1)
    if sources.size == 0:
        return flat[:0]
    if is_iota(sources) or _is_identity(sources):
        return flat[:sources.size]
    return flat[sources]


def _is_identity(sources: np.ndarray) -> bool:
    # n strictly increasing integers from 0 to n - 1 are exactly 0, 1, ..., n - 1; the check
    # makes one bool temporary, not the int64 one of np.diff
    flat = sources.reshape(-1)
    return bool(flat[0] == 0 and flat[-1] == flat.size - 1 and np.all(flat[1:] > flat[:-1]))
