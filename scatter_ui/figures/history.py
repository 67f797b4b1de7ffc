"""Values and write counts of chosen output cells after any step, read off a trace.

The figures show a few hundred cells per frame, so instead of materialising
``trace.state_at(k)`` for every frame (a full tensor copy each), this index
answers "what does cell c show after k steps, and how often was it written"
for just the cells on screen: one sort of the trace's writes, then binary
searches. The same index lists every step that writes one cell (:func:`cell_writes`,
"Go to a cell" on the model page).
"""

from __future__ import annotations

import numpy as np

from scatter_core import fmt_pos, fmt_shape, fmt_value


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


def parse_cell(text: str, shape: tuple) -> tuple[int, ...]:
    """An output cell typed as its coordinates ("2, 0", "[2, 0]" or "(2 0)"), checked against ``shape``;
    a ValueError naming the rule otherwise.

    >>> parse_cell("[2, 0]", (4, 3))
    (2, 0)
    """
    import re

    words = [w for w in re.split(r"[\s,()\[\]]+", str(text).strip()) if w]
    if not words or len(words) > max(len(shape), 1) + 4:
        raise ValueError(f"type the cell's {len(shape)} coordinate(s), e.g. {', '.join('0' * len(shape)) or '()'}")
    try:
        coords = tuple(int(w) for w in words)
    except ValueError:
        raise ValueError(f"{text.strip()!r} is not {len(shape)} whole number(s) separated by commas") from None
    if len(coords) != len(shape):
        raise ValueError(f"the output has {len(shape)} axes ({fmt_shape(shape)}), so a cell has {len(shape)} "
                         f"coordinate(s), not {len(coords)}")
    for axis, (c, n) in enumerate(zip(coords, shape)):
        if not 0 <= c < n:
            raise ValueError(f"coordinate {c} on axis {axis} is outside 0..{n - 1} (the output is {fmt_shape(shape)})")
    return coords


def cell_writes(trace, history: CellHistory, cell: tuple[int, ...]) -> list[dict]:
    """Every step that writes output ``cell``, in order: the player's step number (the output after it), the
    updates position it reads, the value before, the update and the value after (each formatted by fmt_value)."""
    flat = int(np.ravel_multi_index(cell, trace.data.shape))
    writes, _ = history.chain(flat, len(trace), limit=len(trace))
    before = trace.data.reshape(-1)[flat]
    updates = trace.updates.reshape(-1)
    rows = []
    for step, source, after in writes:
        pos = tuple(int(v) for v in np.unravel_index(int(source), trace.updates.shape)) if trace.updates.ndim else ()
        rows.append({"step": int(step) + 1, "reads": f"updates{fmt_pos(pos)}", "before": fmt_value(before),
                     "value read": fmt_value(updates[int(source)]), "after": fmt_value(after)})
        before = after
    return rows
