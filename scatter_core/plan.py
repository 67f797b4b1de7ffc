"""The loop plan every family reduces to.

A family module turns (data, indices, updates, axis) into a :class:`Plan`: for
each iteration of its spec's loop, in row-major order, the flat positions it
writes in the output and the flat positions it reads in updates. Everything
after that (the fast kernel, the trace, the findings) is shared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np


@dataclass(frozen=True)
class PlanNote:
    """Something the planner noticed that deserves a finding (e.g. k == 0)."""

    kind: str
    severity: str
    message: str
    topic: str = ""  # runtime-note topic in the spec record, if any


@dataclass(frozen=True)
class Plan:
    loop_shape: tuple[int, ...]  # the spec loop's domain; len(trace) == prod(loop_shape)
    targets: np.ndarray  # (n, S) int64 flat positions in output, S = cells written per iteration
    sources: np.ndarray  # (n, S) int64 flat positions in updates, aligned with targets
    index_cells: np.ndarray  # (n, k) int64 flat positions in indices read by each iteration
    index_raw: np.ndarray  # (n, k) index values as given
    index_norm: np.ndarray  # (n, k) index values after normalising negatives
    target_free_axes: tuple[int, ...]  # output axes a slice write spans (":" in a label)
    source_free_axes: tuple[int, ...]  # updates axes a slice read spans
    updates_shape: tuple[int, ...]  # shape of updates as used (after accepting a 1-element 0-d slice)
    notes: tuple[PlanNote, ...] = field(default=())
    # the indices the loop reads, when the planner made them (an optional indices input left out, e.g.
    # zeros); None: the given indices (or none at all, for a family that reads no indices)
    indices: np.ndarray | None = None
    # (n,) bool: the step's position ran past the end of its axis and came back to the start
    # (TensorScatter's circular mode); None: no step of this plan wraps
    wrapped: np.ndarray | None = None

    @property
    def n_steps(self) -> int:
        return int(self.targets.shape[0])

    @property
    def slice_size(self) -> int:
        return int(self.targets.shape[1])


def unravel(flat, shape) -> np.ndarray:
    """(len(flat), len(shape)) coordinates of flat C-order positions (0-d shapes give no columns)."""
    flat = np.asarray(flat, dtype=np.int64).reshape(-1)
    if len(shape) == 0:
        return np.zeros((flat.size, 0), dtype=np.int64)
    return np.stack(np.unravel_index(flat, shape), axis=-1)


# Plans read updates and indices in order far more often than not: their "sources" and
# "index_cells" are 0, 1, ..., n - 1. One shared read-only copy per size saves allocating
# and filling a fresh int64 array on every call (a fresh array also pays page faults).
IOTA_CACHE_ELEMENTS = 1 << 21  # 16 MB of int64 at most per cached size; larger ones are made fresh


@lru_cache(maxsize=8)
def _cached_iota(n: int) -> np.ndarray:
    a = np.arange(n, dtype=np.int64)
    a.flags.writeable = False
    return a


def iota(n: int) -> np.ndarray:
    """``numpy.arange(n)`` as read-only int64, shared between calls for sizes up to the cap."""
    if n <= IOTA_CACHE_ELEMENTS:
        return _cached_iota(n)
    a = np.arange(n, dtype=np.int64)
    a.flags.writeable = False
    return a


def is_iota(a: np.ndarray) -> bool:
    """True when ``a`` is (a reshape of) the shared :func:`iota` array of its size: no scan needed."""
    n = a.size
    if n > IOTA_CACHE_ELEMENTS:
        return False
    cached = _cached_iota(n)
    return a is cached or a.base is cached
