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

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

INT64_MAX = np.iinfo(np.int64).max


@dataclass(frozen=True)
class Groups:
    order: np.ndarray  # positions (in loop order) sorted by target, stable
    targets: np.ndarray  # targets in sorted order
    start: np.ndarray  # start of each group in sorted order
    size: np.ndarray  # size of each group

    @property
    def last(self) -> np.ndarray:
        return self.start + self.size - 1

    # computed on first use: not every trace needs them
    @cached_property
    def gid(self) -> np.ndarray:
        """Group id of each sorted position."""
        return np.repeat(np.arange(self.size.size, dtype=np.int64), self.size)

    @cached_property
    def occ(self) -> np.ndarray:
        """Occurrence number of each sorted position (0 = the first write to its cell)."""
        # a running sum of 1 per position that drops back by the previous group's size at each start
        # (np.repeat of the starts, without its per-group loop)
        occ = np.ones(self.targets.size, dtype=np.int64)
        if occ.size:
            occ[0] = 0
            occ[self.start[1:]] = 1 - self.size[:-1]
        return np.cumsum(occ, out=occ)


def stable_sort_by_key(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(order, keys[order]) with ``order`` the stable argsort of non-negative int64 ``keys``.

    NumPy's stable argsort of int64 is a timsort, ~20x slower than its (SIMD)
    plain sort. When ``key * n + position`` fits in int64 (always, for tensors
    within ``checks.MAX_ELEMENTS``), those composite keys are all distinct, so a
    plain sort of them gives the stable order; key and position are then read
    back by division.
    """
    n = keys.size
    if n < 2:
        return np.arange(n, dtype=np.int64), keys.astype(np.int64, copy=True)
    top = int(keys.max())
    if RADIX_IS_FASTER and n >= RADIX_MIN and top < 2 ** 32:
        return _radix_sort_by_key(keys, top)
    if (top + 1) * n - 1 > INT64_MAX:  # out of int64: fall back to the merge sort
        order = np.argsort(keys, kind="stable")
        return order, keys[order]
    composite = keys.astype(np.int64, copy=False) * n
    composite += np.arange(n, dtype=np.int64)
    composite.sort()
    sorted_keys = composite // n
    np.remainder(composite, n, out=composite)  # now the positions (np.divmod is several times slower)
    return composite, sorted_keys


def _radix_sort_by_key(keys: np.ndarray, top: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`stable_sort_by_key` for keys below 2**32 as a least-significant-digit radix sort: one or
    two stable argsorts of 16-bit digits (NumPy sorts uint16 stably with a counting sort, O(n))."""
    keys = keys.astype(np.int64, copy=False)
    order = np.argsort(keys.astype(np.uint16), kind="stable")  # the low digit (the cast keeps key mod 2**16)
    if top >= 1 << 16:
        high = keys[order]
        np.right_shift(high, 16, out=high)
        order = order[np.argsort(high.astype(np.uint16), kind="stable")]
    return order, keys[order]


def _radix_probe() -> bool:
    """Is the radix sort faster than the composite-key sort on this machine? (Measured once, at import.)

    Where NumPy's sort of int64 runs on SIMD (x86-simd-sort) the composite sort wins; where it
    does not, two counting-sort passes take about half its time. Both give the same order.
    """
    import time

    keys = np.random.default_rng(0).integers(0, 1 << 24, RADIX_MIN * 4, dtype=np.int64)
    candidates = {"radix": lambda: _radix_sort_by_key(keys, (1 << 24) - 1),
                  "composite": lambda: _composite_sort(keys)}
    best = dict.fromkeys(candidates, float("inf"))
    # taken in turn, best of 5: on a loaded machine a burst of other work slows a few runs, not all of one kind
    for _ in range(5):
        for name, fn in candidates.items():
            t = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t)
    return best["radix"] < best["composite"]


def _composite_sort(keys: np.ndarray):
    n = keys.size
    composite = keys.astype(np.int64, copy=False) * n
    composite += np.arange(n, dtype=np.int64)
    composite.sort()
    return composite


RADIX_MIN = 1 << 14  # below this many writes either sort takes microseconds
RADIX_IS_FASTER = _radix_probe()


def group_by_target(flat_targets: np.ndarray) -> Groups:
    n = flat_targets.size
    order, ts = stable_sort_by_key(flat_targets)
    new = np.empty(n, dtype=bool)
    if n:
        new[0] = True
        np.not_equal(ts[1:], ts[:-1], out=new[1:])
    start = np.flatnonzero(new)
    return Groups(order, ts, start, _sizes(start, n))


def _sizes(start: np.ndarray, n: int) -> np.ndarray:
    """Sizes of the runs starting at ``start`` in n items (np.diff(start, append=n), one temporary less)."""
    size = np.empty_like(start)
    if start.size:
        np.subtract(start[1:], start[:-1], out=size[:-1])
        size[-1] = n - start[-1]
    return size


def count_by_target(flat_targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct targets ascending, writes to each): ``np.unique(..., return_counts=True)``, faster.

    Only the counts are needed, not the order of the writes, so a plain
    (unstable, SIMD) sort does.
    """
    ts = np.sort(flat_targets.reshape(-1))
    n = ts.size
    if n == 0:
        return ts, np.zeros(0, dtype=np.intp)
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(ts[1:], ts[:-1], out=new[1:])
    start = np.flatnonzero(new)
    return ts[start], _sizes(start, n)


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
    threshold = max(8, math.isqrt(n))
    big = size > threshold
    # Small groups advance together: each round folds in the next write of every group that
    # still has one. Groups drop out as they run out, so the rounds touch each write once
    # (O(n) in all) and their number is the largest small group's size (<= threshold).
    if big.any():
        small = ~big
        prev, pos, left = start_values[small], start[small], size[small]
    else:  # the usual case: skip three copies (nothing below writes to these arrays)
        prev, pos, left = start_values, start, size
    prev = prev.astype(dtype, copy=False)
    # The first round folds in the first write of every small group; most cells are written once,
    # so only the groups with more writes go on (one selection of the few, not of all).
    if pos.size:
        val = ufunc(prev, values[pos]).astype(dtype, copy=False)
        out[pos] = val
        more = np.flatnonzero(left > 1)
        prev, pos, left = val[more], pos[more] + 1, left[more] - 1
    # pos: sorted position of each active group's next write; left: writes it has still to fold in
    while pos.size:
        val = ufunc(prev, values[pos]).astype(dtype, copy=False)
        out[pos] = val
        more = left > 1
        prev, pos, left = val[more], pos[more] + 1, left[more] - 1
    for g in np.flatnonzero(big):
        s, z = int(start[g]), int(size[g])
        seq = np.empty(z + 1, dtype=dtype)
        seq[0] = start_values[g]
        seq[1:] = values[s:s + z]
        out[s:s + z] = ufunc.accumulate(seq, dtype=dtype)[1:]
    return out
