"""How an N-d tensor is laid out as a 2-d grid of cells on screen.

* rank 1: one row;
* rank 2: a matrix, row 0 at the top;
* rank 3 and up: the last two axes form a matrix; the axis before them is shown
  as small multiples side by side when it is short, every other axis is fixed at
  one index (a slider in the page, or the current step's cell when following).
Long axes are windowed around the focus cell so a panel stays readable (an input's long row
axis to the rows a projector has room for, all MAX_SIDE in a taller window: row_window); windows follow the step.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_PANELS = 8  # small multiples shown side by side before the panel axis becomes a slider
MAX_SIDE = 24  # cells along one displayed axis before it is windowed
FIGURE_ROWS = 12  # rows of 28 px cells a 1280x720 projector shows of an input's window and the output under it
MIN_ROW_WINDOW = 4  # the fewest rows a windowed row axis shows
GAP = 1  # empty columns between small multiples
MIN_COLUMNS = 5  # the fewest columns a panel is wide (room for its title): the player's MIN_COLUMNS, tested equal


@dataclass(frozen=True)
class View:
    shape: tuple[int, ...]
    row_axis: int | None  # None for rank 1
    col_axis: int
    panel_axis: int | None
    panels: tuple[int, ...]  # indices along panel_axis, one small multiple each
    fixed: tuple[tuple[int, int], ...]  # (axis, index) for every other axis
    row_start: int = 0
    row_len: int = 1
    col_start: int = 0
    col_len: int = 1

    @property
    def canvas_shape(self) -> tuple[int, int]:
        n_panels = max(len(self.panels), 1)
        return self.row_len, n_panels * self.col_len + (n_panels - 1) * GAP

    def panel_offset(self, p: int) -> int:
        return p * (self.col_len + GAP)

    def slices(self, panel_index: int | None = None) -> tuple:
        """The subscript that picks this view's cells (for one small multiple)."""
        sub: list = [slice(None)] * len(self.shape)
        for axis, idx in self.fixed:
            sub[axis] = idx
        if self.panel_axis is not None:
            sub[self.panel_axis] = panel_index
        if self.row_axis is not None:
            sub[self.row_axis] = slice(self.row_start, self.row_start + self.row_len)
        sub[self.col_axis] = slice(self.col_start, self.col_start + self.col_len)
        return tuple(sub)

    def cells(self) -> np.ndarray:
        """Flat positions (in the tensor) of every canvas cell; -1 in gaps. Shape = canvas_shape."""
        rows, cols = self.canvas_shape
        out = np.full((rows, cols), -1, dtype=np.int64)
        strides = np.ones(len(self.shape), dtype=np.int64)
        for d in range(len(self.shape) - 2, -1, -1):
            strides[d] = strides[d + 1] * self.shape[d + 1]
        base = sum(int(idx) * int(strides[axis]) for axis, idx in self.fixed)
        r = np.arange(self.row_start, self.row_start + self.row_len, dtype=np.int64)
        c = np.arange(self.col_start, self.col_start + self.col_len, dtype=np.int64)
        block = (r[:, None] * (strides[self.row_axis] if self.row_axis is not None else 0)
                 + c[None, :] * strides[self.col_axis])
        for p, panel in enumerate(self.panels or (None,)):
            off = self.panel_offset(p)
            extra = int(panel) * int(strides[self.panel_axis]) if self.panel_axis is not None else 0
            out[:, off:off + self.col_len] = base + extra + block
        return out

    def locate(self, coords: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Canvas (row, col) of tensor coordinates (m, rank), and which of them are visible."""
        coords = np.asarray(coords, dtype=np.int64).reshape(-1, len(self.shape))
        visible = np.ones(len(coords), dtype=bool)
        for axis, idx in self.fixed:
            visible &= coords[:, axis] == idx
        panel_pos = np.zeros(len(coords), dtype=np.int64)
        if self.panel_axis is not None:
            lookup = {v: i for i, v in enumerate(self.panels)}
            panel_pos = np.array([lookup.get(int(v), -1) for v in coords[:, self.panel_axis]], dtype=np.int64)
            visible &= panel_pos >= 0
        rows = coords[:, self.row_axis] - self.row_start if self.row_axis is not None else np.zeros(len(coords), np.int64)
        cols = coords[:, self.col_axis] - self.col_start
        visible &= (rows >= 0) & (rows < self.row_len) & (cols >= 0) & (cols < self.col_len)
        return rows, cols + panel_pos * (self.col_len + GAP), visible

    def label(self, name: str, panel_index: int | None = None) -> str:
        """``output[3, :, :]``-style label of one small multiple (or the whole view)."""
        parts = []
        fixed = dict(self.fixed)
        for axis in range(len(self.shape)):
            if axis in fixed:
                parts.append(str(fixed[axis]))
            elif axis == self.panel_axis and panel_index is not None:
                parts.append(str(panel_index))
            elif axis in (self.row_axis, self.col_axis):
                start = self.row_start if axis == self.row_axis else self.col_start
                length = self.row_len if axis == self.row_axis else self.col_len
                parts.append(":" if length == self.shape[axis] else f"{start}:{start + length}")
            else:
                parts.append(":")
        return f"{name}[{', '.join(parts)}]"

    @property
    def windowed(self) -> bool:
        return bool(self.fixed) or self.row_len < (self.shape[self.row_axis] if self.row_axis is not None else 1) \
            or self.col_len < self.shape[self.col_axis]


def _window(size: int, focus: int, length: int = MAX_SIDE) -> tuple[int, int]:
    """(start, length) of an axis of ``size`` shown around ``focus``: all of it up to MAX_SIDE, else ``length``."""
    if size <= MAX_SIDE:
        return 0, size
    start = min(max(focus - length // 2, 0), size - length)
    return start, length


def row_window(beside: int, tall: bool = False) -> int:
    """Rows an input's row axis over MAX_SIDE long shows in a figure whose output panel has ``beside`` rows: the two
    stacked fit FIGURE_ROWS (a projector's room), at least MIN_ROW_WINDOW; MAX_SIDE in a ``tall`` window (over
    820 px: the player sizes cells by the width there, and the page scrolls)."""
    return MAX_SIDE if tall else max(MIN_ROW_WINDOW, FIGURE_ROWS - int(beside))


def make_view(shape, focus=None, pinned: dict[int, int] | None = None, panel_axis: int | None = None,
              rows: int = MAX_SIDE) -> View:
    """Lay out ``shape``; ``focus`` (a coordinate tuple) picks fixed indices and windows;
    ``pinned`` {axis: index} overrides fixed axes chosen by the user; ``panel_axis`` picks the
    axis shown as small multiples (rank >= 3; default: the one before the last two); ``rows``: the rows
    shown of a row axis over MAX_SIDE long (:func:`row_window`)."""
    shape = tuple(int(s) for s in shape)
    rank = len(shape)
    if rank == 0:
        shape, rank, focus = (1,), 1, (0,)
    focus = tuple(int(f) for f in focus) if focus is not None and len(focus) == rank else (0,) * rank
    pinned = dict(pinned or {})
    chosen = panel_axis if panel_axis is not None and rank >= 3 and 0 <= panel_axis < rank else None
    if chosen is None:
        col_axis = rank - 1
        row_axis = rank - 2 if rank >= 2 else None
        candidate = rank - 3 if rank >= 3 else None
    else:
        rest = [a for a in range(rank) if a != chosen]
        row_axis, col_axis = rest[-2], rest[-1]
        candidate = chosen
    panel_axis, panels = None, ()
    if candidate is not None and shape[candidate] <= MAX_PANELS and candidate not in pinned:
        panel_axis = candidate
        panels = tuple(range(shape[panel_axis]))
    fixed = []
    for axis in range(rank):
        if axis in (row_axis, col_axis, panel_axis):
            continue
        idx = pinned.get(axis, focus[axis])
        fixed.append((axis, min(max(int(idx), 0), shape[axis] - 1)))
    col_start, col_len = _window(shape[col_axis], focus[col_axis])
    row_start, row_len = (0, 1) if row_axis is None else _window(shape[row_axis], focus[row_axis], min(rows, MAX_SIDE))
    return View(shape, row_axis, col_axis, panel_axis, panels, tuple(fixed), row_start, row_len, col_start, col_len)
