"""Values and write counts of chosen output cells after any step, read off a trace.

The figures show a few hundred cells per frame, so instead of materialising
``trace.state_at(k)`` for every frame (a full tensor copy each), this index
answers "what does cell c show after k steps, and how often was it written"
for just the cells on screen: one sort of the trace's writes, then binary
searches.
"""

from __future__ import annotations

import numpy as np


class CellHistory:
    def __init__(self, trace):
        self.trace = trace
        n, s = trace.plan.targets.shape
        targets = trace.plan.targets.reshape(-1)
        steps = np.repeat(np.arange(n, dtype=np.int64), s)
        self._base = np.int64(n + 1)
        key = targets * self._base + steps
        order = np.argsort(key, kind="stable")
        self._key = key[order]
        self._after = trace.after.reshape(-1)[order]
        self._sources = trace.plan.sources.reshape(-1)[order]

    def at(self, flat_cells, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(values, write counts) of ``flat_cells`` after the first ``k`` steps (-1 cells give 0)."""
        flat = np.asarray(flat_cells, dtype=np.int64)
        shape = flat.shape
        flat = flat.reshape(-1)
        valid = flat >= 0
        cells = np.where(valid, flat, 0)
        values = self.trace.data.reshape(-1)[cells].copy()  # the trace holds the case's data: no copy of its own
        lo = np.searchsorted(self._key, cells * self._base, side="left")
        hi = np.searchsorted(self._key, cells * self._base + int(k), side="left")
        count = np.where(valid, hi - lo, 0)
        written = count > 0
        values[written] = self._after[hi[written] - 1]
        return values.reshape(shape), count.reshape(shape)

    def chain(self, flat_cell: int, k: int, limit: int = 6) -> tuple[list[tuple[int, int, object]], int]:
        """The writes to one cell in the first ``k`` steps: the last ``limit`` of them as
        (step index, flat source position in updates, value after the write), and how many in all."""
        cell = int(flat_cell)
        lo = int(np.searchsorted(self._key, cell * self._base, side="left"))
        hi = int(np.searchsorted(self._key, cell * self._base + int(k), side="left"))
        first = max(lo, hi - limit)
        steps = (self._key[first:hi] - cell * self._base).tolist()
        return list(zip(steps, self._sources[first:hi].tolist(), self._after[first:hi])), hi - lo
