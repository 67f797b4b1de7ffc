"""Grouping writes by target cell, and exact per-cell running reductions.

The trace needs, for every write, the cell's value after it. Writes are
grouped by target (stable, so each group keeps loop order) and each group is
folded left to right with the reduction's ufunc, exactly as the spec's loop
would, so float results match the loop bit for bit.

Two vectorised strategies share the work: small groups advance together, one
"round" per occurrence number; large groups use ``ufunc.accumulate``. With the
threshold at sqrt(n) neither loop runs more than about sqrt(n) times.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Groups:
    order: np.ndarray  # positions (in loop order) sorted by target, stable
    targets: np.ndarray  # targets in sorted order
    start: np.ndarray  # start of each group in sorted order
    size: np.ndarray  # size of each group
    gid: np.ndarray  # group id of each sorted position
    occ: np.ndarray  # occurrence number (0 = first write to the cell) of each sorted position

    @property
    def last(self) -> np.ndarray:
        return self.start + self.size - 1


def group_by_target(flat_targets: np.ndarray) -> Groups:
    n = flat_targets.size
    order = np.argsort(flat_targets, kind="stable")
    ts = flat_targets[order]
    new = np.empty(n, dtype=bool)
    if n:
        new[0] = True
        np.not_equal(ts[1:], ts[:-1], out=new[1:])
    start = np.flatnonzero(new)
    size = np.diff(np.append(start, n))
    gid = np.cumsum(new) - 1
    occ = np.arange(n) - start[gid] if n else np.zeros(0, dtype=np.int64)
    return Groups(order, ts, start, size, gid, occ)


def running(ufunc, start_values: np.ndarray, values: np.ndarray, start: np.ndarray, size: np.ndarray) -> np.ndarray:
    """Per group g: out[start[g] + m] = ufunc(out[start[g] + m - 1] or start_values[g], values[...]).

    ``ufunc`` None means "replace": every write's result is its own value.
    """
    if ufunc is None:
        return values.copy()
    with np.errstate(over="ignore", invalid="ignore"):  # float overflow to inf is the defined result
        return _running(ufunc, start_values, values, start, size)


def _running(ufunc, start_values, values, start, size):
    out = np.empty_like(values)
    n = values.size
    if n == 0:
        return out
    dtype = values.dtype
    threshold = max(8, int(np.sqrt(n)))
    big = size > threshold
    small = np.flatnonzero(~big)
    if small.size:
        by_size = small[np.argsort(-size[small], kind="stable")]
        sizes = size[by_size]
        starts = start[by_size]
        prev = start_values[by_size].astype(dtype, copy=True)
        neg_sizes = -sizes
        for m in range(int(sizes[0])):
            count = int(np.searchsorted(neg_sizes, -m, side="left"))
            pos = starts[:count] + m
            val = ufunc(prev[:count], values[pos]).astype(dtype, copy=False)
            out[pos] = val
            prev[:count] = val
    for g in np.flatnonzero(big):
        s, z = int(start[g]), int(size[g])
        seq = np.empty(z + 1, dtype=dtype)
        seq[0] = start_values[g]
        seq[1:] = values[s:s + z]
        out[s:s + z] = ufunc.accumulate(seq, dtype=dtype)[1:]
    return out
