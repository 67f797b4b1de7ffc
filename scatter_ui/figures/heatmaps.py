"""Plotly figures built from a trace. Read-only: nothing here computes scatter semantics.

The main figure has three heatmaps (indices, updates, output) and one animation
frame per step (plus the initial state). Each frame carries the output values,
the highlight rectangles (orange: this step's source and target, the target with
a filled corner, :func:`now_marks`; grey outline: cells written so far), the
``×n`` marks of cells hit more than once, and the step's caption, so the
animation plays in the browser without a server round trip. Colours encode value on one fixed scale for every frame.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from scatter_core import family_of
from scatter_core import fmt_shape, fmt_value

from scatter_ui.figures.history import CellHistory
# The colours are defined once (palette.py); the player gets them as data (Payload.palette).
from scatter_ui.figures.palette import (APART, APART_BAND, DARK_APART, DARK_CELL_TEXT, DARK_VALUE_SCALE, DESTINATION,
                                        HIGHLIGHT, VALUE_SCALE, WRITTEN, banded)
from scatter_ui.figures.views import GAP, MAX_SIDE, MIN_COLUMNS, View, make_view, row_window

DARK_PAGE_TEXT, LIGHT_PAGE_TEXT = "#fafafa", "#31333f"  # Streamlit's text colours in its dark and light themes
TRANSPARENT = "rgba(0,0,0,0)"
INDEX_SCALE = [[0.0, "#f1f3f5"], [1.0, "#f1f3f5"]]
MAX_FRAMES = 300  # one frame per step up to this many steps; beyond, a window of frames around the step
MAX_BYTES = 3_500_000  # frames are cut to a window so one figure stays well under 5 MB
MIN_FRAMES = 21
MAX_SHAPES = 400  # outline rectangles per frame before falling back to bounding boxes only


def apart(values) -> np.ndarray:
    """Where ``values`` hold a value kept off the colour scale: ±inf, and the extremes of their dtype (float32's
    ±3.4028235e+38, int32's -2147483648 ...), which exporters write as the fill of a max or min and which would
    otherwise set the scale, leaving every real value one colour. Integers narrower than 32 bits keep theirs.

    >>> apart(np.array([1.5, -np.inf, np.finfo(np.float32).min], dtype=np.float32)).tolist()
    [False, True, True]
    """
    a = np.asarray(values)
    if a.dtype.kind == "f":
        info = np.finfo(a.dtype)
        return np.isinf(a) | (a == info.max) | (a == info.min)
    if a.dtype.kind in "iu" and a.dtype.itemsize >= 4:
        info = np.iinfo(a.dtype)
        return (a == info.max) | ((a == info.min) if a.dtype.kind == "i" else False)
    return np.zeros(a.shape, dtype=bool)


def value_range(trace, steps: int | None = None) -> tuple[float, float]:
    """One colour range over data, updates and every value the output takes (with ``steps``: in its first
    ``steps`` steps only, what a figure ending there shows; the Practice page's colour bar gives nothing away),
    without NaN and the values :func:`apart` keeps off the scale."""
    after = trace.after if steps is None else trace.after[:max(int(steps), 0)]
    lo, hi = np.inf, -np.inf
    for a in (trace.data, trace.updates, after):
        a = np.asarray(a).reshape(-1)
        p = a[~apart(a)].astype(np.float64)
        finite = p[np.isfinite(p)]
        if finite.size:
            lo, hi = min(lo, float(finite.min())), max(hi, float(finite.max()))
    if not np.isfinite(lo):
        return 0.0, 1.0
    if lo == hi:
        return lo - 1.0, hi + 1.0
    return lo, hi


def apart_floor(zmin: float, zmax: float, band: float = APART_BAND) -> float:
    """The colour axis's low end when values are kept apart: below ``zmin`` by ``band`` of the whole axis, so
    the cells set there take the band's grey (:func:`scatter_ui.player.contract.banded`) and the rest keep
    their colours. ``(zmax - floor) * band == zmin - floor``."""
    return zmin - band / (1 - band) * (zmax - zmin)


def apart_payload(note: str | None) -> dict | None:
    """The player's ``apart`` (its legend's words and the banded scale of each theme), None without ``note``."""
    if note is None:
        return None
    return {"note": note, "light": banded(VALUE_SCALE, APART), "dark": banded(DARK_VALUE_SCALE, DARK_APART)}


def scale_note(trace) -> str | None:
    """The colour scale's legend for what :func:`apart` keeps off it in this trace (data, updates, every output
    value), or None when nothing is: the values, named, and that their cells have no colour."""
    found = []
    for a in (trace.data, trace.updates, trace.after):
        a = np.asarray(a).reshape(-1)
        mask = apart(a)
        if mask.any():
            found += [v for v in np.unique(a[mask]).tolist() if v not in found]
    if not found:
        return None
    dtype = np.asarray(trace.data).dtype
    words = ", ".join(fmt_value(np.asarray(v, dtype=dtype)[()]) for v in sorted(found))
    return (f"grey: cells holding {words} (infinities, or the extremes of {dtype} that exporters write as the "
            f"fill of a max or min), kept off the colour scale so it spans the other values")


@dataclass(frozen=True)
class FrameParts:
    traces: list  # three heatmap dicts
    shapes: list
    annotations: list
    axes: dict  # layout axis updates (ticks), per subplot
    views: tuple  # (indices view, updates view, output view)
    caption: str = ""  # the step in one sentence (shown above the panels as plain text)


class Formatter:
    """Cell text, memoised per value (a frame formats the same few values many times)."""

    def __init__(self):
        self.memo: dict = {}

    def value(self, v, digits: int = 4) -> str:
        """``v`` in at most ``digits`` significant digits and ``digits + 2`` characters (the cell's
        width); the hover has the exact text."""
        key = (type(v), v.item() if hasattr(v, "item") else v, digits)
        text = self.memo.get(key)
        if text is None:
            text = fmt_value(v, width=digits + 2, digits=digits)
            self.memo[key] = text
        return text

    def grid(self, values: np.ndarray, mask: np.ndarray, digits: int = 4) -> list[list[str]]:
        """Each cell's value text, row by row ('' outside ``mask``): plain text, no markup (the player adds the
        ``×n`` of a cell written more than once, from the trace's ``counts``)."""
        return [[self.value(values[r, c], digits) if mask[r, c] else "" for c in range(values.shape[1])]
                for r in range(values.shape[0])]


def density(view: View, units: int = 0) -> tuple[int, int]:
    """(significant digits, font size) for a panel: dense panels get shorter numbers in smaller type.

    ``units`` is the whole figure's width in columns (:func:`panel_units`): the three panels
    share one width, so many columns in all make every cell narrow. A panel narrower than its
    5-column minimum has correspondingly wider cells.
    """
    cols = view.canvas_shape[1]
    by_panel = (4, 12) if cols <= 8 else (3, 11) if cols <= 12 else (2, 9)
    crowd = units * cols / max(cols, MIN_COLUMNS)  # the figure's width in columns as wide as this panel's
    by_figure = (4, 12) if crowd <= 15 else (3, 11) if crowd <= 19 else (3, 10) if crowd <= 22 else (2, 9)
    return min(by_panel, by_figure)  # both tables shrink digits and type together


def panel_units(views) -> list[int]:
    """Each panel's share of the figure's width, in columns (at least MIN_COLUMNS: room for its title)."""
    return [max(v.canvas_shape[1], MIN_COLUMNS) for v in views]


def _fmt_grid(values: np.ndarray, mask: np.ndarray) -> list[list[str]]:
    return Formatter().grid(values, mask)


def _z(values: np.ndarray, mask: np.ndarray, floor: float | None = None) -> list:
    """The heatmap's values: None (no cell) outside the view and for NaN; what :func:`apart` keeps off the
    colour scale at ``floor`` (the grey band's value, :func:`apart_floor`; None: no cell either)."""
    values = np.asarray(values)
    kept = apart(values)
    z = np.where(mask & ~kept, values.astype(np.float64), np.nan)
    if floor is not None:
        z = np.where(mask & kept, floor, z)
    return [[v if v == v and abs(v) != float("inf") else None for v in row] for row in z.tolist()]


def _pos(view: View, flat: int) -> str:
    return ", ".join(str(int(p)) for p in np.unravel_index(int(flat), view.shape))


def _hover(view: View, cells: np.ndarray, name: str, values: np.ndarray | None = None) -> list[list[str]]:
    """Hover text of each cell: ``name[i, j] = value`` (the exact value, one formatter)."""
    out = []
    for r, row in enumerate(cells):
        line = []
        for c, flat in enumerate(row):
            if flat < 0:
                line.append("")
            elif values is None:
                line.append(f"{name}[{_pos(view, flat)}]")
            else:
                line.append(f"{name}[{_pos(view, flat)}] = {fmt_value(values[r, c])}")
        out.append(line)
    return out


def _chain_hover(view: View, cells: np.ndarray, values: np.ndarray, counts: np.ndarray, history: CellHistory,
                 k: int, updates: np.ndarray) -> list[list[str]]:
    """Hover text of each output cell after ``k`` steps: its value and its chain of writes so far."""
    base = _hover(view, cells, "output", values)
    for r, c in zip(*np.nonzero(counts > 0)):
        writes, total = history.chain(int(cells[r, c]), k)
        lines = [base[r][c]]
        if total > len(writes):
            lines.append(f"… {total - len(writes)} earlier write(s)")
        for step, src, after in writes:
            where = ", ".join(str(int(p)) for p in np.unravel_index(int(src), updates.shape))
            lines.append(f"step {step + 1}: updates[{where}] = {fmt_value(updates.reshape(-1)[src])} → "
                         f"{fmt_value(after)}")
        base[r][c] = "<br>".join(lines)
    return base


def _outline_path(view: View, coords, sub: int, colour: str, width: float, dash: str = "solid") -> list[dict]:
    """One path shape outlining every visible cell at ``coords`` (compact for many cells)."""
    if coords is None or len(coords) == 0:
        return []
    rows, cols, visible = view.locate(np.asarray(coords))
    if not visible.any():
        return []
    ref = "" if sub == 1 else str(sub)
    path = "".join(f"M{c - 0.46:g},{r - 0.46:g}H{c + 0.46:g}V{r + 0.46:g}H{c - 0.46:g}Z"
                   for r, c in zip(rows[visible].tolist(), cols[visible].tolist()))
    return [dict(type="path", path=path, xref=f"x{ref}", yref=f"y{ref}",
                 line=_line(colour, width, dash), layer="above")]


def _line(colour: str, width: float, dash: str = "solid") -> dict:
    return dict(color=colour, width=width, **({} if dash == "solid" else {"dash": dash}))


def _rects(view: View, coords, sub: int, colour: str, width: float, limit: int = MAX_SHAPES,
           dash: str = "solid") -> list[dict]:
    """Rectangles around the visible cells at ``coords``; one bounding box per small multiple
    when the cells fill it (a slice), otherwise one rectangle per cell."""
    if coords is None or len(coords) == 0:
        return []
    rows, cols, visible = view.locate(np.asarray(coords))
    rows, cols = rows[visible], cols[visible]
    if rows.size == 0:
        return []
    ref = "" if sub == 1 else str(sub)
    base = dict(type="rect", xref=f"x{ref}", yref=f"y{ref}", line=_line(colour, width, dash),
                fillcolor="rgba(0,0,0,0)", layer="above")
    panel_width = view.col_len + 1
    boxes = []
    for p in np.unique(cols // panel_width):
        sel = (cols // panel_width) == p
        r, c = rows[sel], cols[sel]
        area = (r.max() - r.min() + 1) * (c.max() - c.min() + 1)
        if area == len(np.unique(r * 100000 + c)) and area > 1:
            boxes.append(dict(base, x0=c.min() - 0.5, x1=c.max() + 0.5, y0=r.min() - 0.5, y1=r.max() + 0.5))
        else:
            boxes.extend(dict(base, x0=cc - 0.5, x1=cc + 0.5, y0=rr - 0.5, y1=rr + 0.5) for rr, cc in zip(r, c))
    return boxes[:limit]


NOW_CORNER = 0.38  # the filled corner of this step's write, in cells


def now_marks(rects: list[dict], width: float = 1.0, height: float = 1.0) -> list[dict]:
    """The write's mark beyond its colour: a filled triangle in the top-left corner of each of its frames
    (``_rects``; one path for them all), so this step's write differs from the read's frames and the
    written cells' by shape too (WCAG 1.4.1). ``width``, ``height``: a cell's size in axis units."""
    if not rects:
        return []
    w, h = NOW_CORNER * width, NOW_CORNER * height
    path = "".join(f"M{r['x0']:g},{r['y0']:g}L{r['x0'] + w:g},{r['y0']:g}L{r['x0']:g},{r['y0'] + h:g}Z" for r in rects)
    colour = rects[0]["line"]["color"]
    return [dict(type="path", path=path, xref=rects[0]["xref"], yref=rects[0]["yref"], fillcolor=colour,
                 line=dict(color=colour, width=0), layer="above")]


def _axes(view: View, sub: int) -> dict:
    ref = "" if sub == 1 else str(sub)
    xt, xl = [], []
    for p, _ in enumerate(view.panels or (None,)):
        off = view.panel_offset(p)
        for c in range(view.col_len):
            xt.append(off + c)
            xl.append(str(view.col_start + c))
    yt = list(range(view.row_len))
    yl = [str(view.row_start + r) for r in yt] if view.row_axis is not None else [""]
    return {f"xaxis{ref}": dict(tickmode="array", tickvals=xt, ticktext=xl),
            f"yaxis{ref}": dict(tickmode="array", tickvals=yt, ticktext=yl)}


def _panel_labels(view: View, name: str, sub: int) -> list[dict]:
    if not view.panels and not view.windowed:
        return []
    ref = "" if sub == 1 else str(sub)
    labels = []
    for p, panel in enumerate(view.panels or (None,)):
        off = view.panel_offset(p)
        text = view.label(name, panel)
        # name: the short form the player shows when the full label is wider than the panel
        labels.append(dict(x=off + (view.col_len - 1) / 2, y=view.row_len - 0.5, xref=f"x{ref}", yref=f"y{ref}",
                           text=text, name=short_label(text), showarrow=False, yanchor="top", yshift=-4,
                           font=dict(size=11)))
    return labels


def short_label(label: str) -> str:
    """``output[2, :, :]`` -> ``[2]``: the fixed coordinates of a small multiple's label."""
    inner = label[label.index("[") + 1:-1] if "[" in label else label
    return "[" + ", ".join(p.strip() for p in inner.split(",") if p.strip() != ":") + "]"


def _wrap_arrow(trace, step: int, view: View) -> list[dict]:
    """For a step whose write wrapped around (``trace.wrapped``: TensorScatter's circular mode), an
    arrow up the target's right edge from below the panel's last row: the position ran past the
    end and came back to the start."""
    if not trace.wrapped(step):
        return []
    rows, cols, visible = view.locate(trace.target_cells(step))
    if not visible.any():
        return []
    r, c = int(rows[visible].min()), int(cols[visible].max())
    x = c + 0.42
    return [dict(x=x, y=r, ax=x, ay=view.row_len - 0.2, xref="x3", yref="y3", axref="x3", ayref="y3", text="",
                 showarrow=True, arrowhead=2, arrowsize=1.2, arrowwidth=2.5, arrowcolor=HIGHLIGHT,
                 hovertext=f"the write wrapped around to row {r + view.row_start}")]


class StepFigure:
    """Builds the animated figure (and single frames) for one trace."""

    def __init__(self, trace, history: CellHistory | None = None, pinned: dict | None = None, follow: bool = True,
                 panel_axis: int | None = None, tall: bool = False):
        self.trace = trace
        self.tall = bool(tall)  # for a window over 820 px tall: an input's long row axis shows MAX_SIDE rows
        self.history = history or CellHistory(trace)
        self.pinned = dict(pinned or {})
        self.follow = follow
        self.panel_axis = panel_axis
        self.zmin, self.zmax = value_range(trace)
        self.scale_note = scale_note(trace)
        self.floor = None if self.scale_note is None else apart_floor(self.zmin, self.zmax)  # grey cells' value
        self.index_shape = trace.indices.shape or (1,)
        self.update_shape = trace.updates.shape or (1,)
        self.data_shape = trace.data.shape
        self.fmt = Formatter()
        self._statics: dict = {}
        self._frames: dict = {}
        self._budget: int | None = None
        # the indices panel is left out when the operator reads no indices (SliceScatter: attributes place it)
        self.hidden = [not trace.indices_given and trace.indices.size == 0, False, False]
        # the drawn panels' width in columns (the canvas shapes are the same in every frame)
        self.units = sum(u for u, hidden in zip(panel_units(self.views_for(0)), self.hidden) if not hidden)
        # an input's row axis over MAX_SIDE long: its window's rows follow the screen (views.row_window, ``tall``)
        self.rows_windowed = any(not hidden and v.row_axis is not None and v.shape[v.row_axis] > MAX_SIDE
                                 for v, hidden in zip(self.views_for(0)[:2], self.hidden))
        self.names = (trace.spec.input_name("indices"), "updates", "output")  # as the captions name them
        # when the attributes (not index values) place every write, the whole destination is known at
        # step 0 (SliceScatter's strided slice): drawn dotted in every frame, the current cell on top
        placed = family_of(trace.spec).indices == "unused" and len(trace) > 0
        self.destination = np.stack(np.unravel_index(trace.write_counts()[0], trace.data.shape), axis=-1) \
            if placed and trace.data.ndim else None

    # -- one frame ---------------------------------------------------------------
    def _focus_step(self, k: int) -> int | None:
        n = len(self.trace)
        if n == 0:
            return None
        return min(max(k - 1, 0), n - 1)

    def views_for(self, k: int) -> tuple[View, View, View]:
        """The indices', updates' and output's views at frame ``k``: an input's long row axis shows the rows a
        projector has room for over the output's (views.row_window; MAX_SIDE when ``tall``), around the step's cell."""
        t = self.trace
        step = self._focus_step(k)
        if step is None:
            out = make_view(self.data_shape, pinned=self.pinned, panel_axis=self.panel_axis)
            rows = row_window(out.row_len, self.tall)
            return make_view(self.index_shape, rows=rows), make_view(self.update_shape, rows=rows), out
        idx_cells = t.index_cells(step)
        idx_focus = tuple(idx_cells[0]) if len(idx_cells) and t.indices.ndim else None
        src_focus = tuple(t.source_cells(step)[0]) if t.updates.ndim else None
        out_focus = tuple(t.target_cells(step)[0]) if self.follow else None
        out = make_view(self.data_shape, out_focus, pinned=None if self.follow else self.pinned,
                        panel_axis=self.panel_axis)
        rows = row_window(out.row_len, self.tall)
        return make_view(self.index_shape, idx_focus, rows=rows), make_view(self.update_shape, src_focus, rows=rows), out

    def _static(self, which: int, view: View) -> dict:
        """Per-view parts that do not change from frame to frame (cells, hover text, input panels)."""
        key = (which, view)
        hit = self._statics.get(key)
        if hit is not None:
            return hit
        cells = view.cells()
        mask = cells >= 0
        part = dict(cells=cells, mask=mask, customdata=_hover(view, cells, self.names[which]))
        source = (self.trace.indices, self.trace.updates)[which] if which < 2 else None
        if source is not None:
            vals = np.asarray(source).reshape(-1)[np.where(mask, cells, 0)] if source.size else np.zeros(cells.shape)
            part["customdata"] = _hover(view, cells, self.names[which], vals)
            part["text"] = self.fmt.grid(vals, mask, digits=density(view, self.units)[0])
            part["z"] = ([[0 if m else None for m in row] for row in mask.tolist()] if which == 0
                         else _z(vals, mask, self.floor))
        self._statics[key] = part
        return part

    def frame(self, k: int, exact: bool = False) -> FrameParts:
        """Frame ``k`` (the output after k steps). ``exact`` reads the output values from
        ``trace.state_at(k)`` itself (used for the server-side step); animation frames read
        the same values through the CellHistory index (tested equal), one cell at a time."""
        t = self.trace
        views = self.views_for(k)
        iv, uv, ov = views
        traces, shapes, annotations, axes = [], [], [], {}
        for which in (0, 1):
            st_ = self._static(which, views[which])
            traces.append(dict(type="heatmap", z=st_["z"], text=st_["text"], customdata=st_["customdata"]))
        out = self._static(2, ov)
        cells_o, mask_o = out["cells"], out["mask"]
        out_vals, counts = self.history.at(cells_o, k)
        if exact:
            out_vals = t.state_at(k).reshape(-1)[np.where(mask_o, cells_o, 0)]
        traces.append(dict(type="heatmap", z=_z(out_vals, mask_o, self.floor),
                           text=self.fmt.grid(out_vals, mask_o, digits=density(ov, self.units)[0]),
                           counts=np.where(mask_o, counts, 0).tolist(),
                           customdata=_chain_hover(ov, cells_o, out_vals, np.where(mask_o, counts, 0), self.history, k,
                                                   self.trace.updates)))
        written = (counts > 0) & mask_o
        if self.destination is not None:
            shapes += _outline_path(ov, self.destination, 3, DESTINATION, 1.5, dash="dot")
        if written.any():
            written_coords = np.stack(np.unravel_index(cells_o[written], ov.shape), axis=-1)
            shapes += _outline_path(ov, written_coords, 3, WRITTEN, 1.2)
        caption = "initial state: output is a copy of data" if k == 0 else t.describe(k - 1)
        if k == 0 and self.destination is not None:
            caption += " (dotted outline: every cell the updates go to)"
        if k > 0:
            step = k - 1
            shapes += _rects(iv, t.index_cells(step), 1, HIGHLIGHT, 3)
            shapes += _rects(uv, t.source_cells(step), 2, HIGHLIGHT, 3)
            target = t.target_cells(step)
            written_now = _rects(ov, target, 3, HIGHLIGHT, 3)
            shapes += written_now + now_marks(written_now)
            annotations += _wrap_arrow(t, step, ov)
            if not ov.locate(target)[2].any():
                caption += f"  [target not in the shown view {ov.label('output')}]"
        for sub, (view, name) in enumerate(zip(views, self.names), start=1):
            axes.update(_axes(view, sub))
            annotations += _panel_labels(view, name, sub)
        return FrameParts(traces, shapes, annotations, axes, views, caption)

    # -- the whole figure -----------------------------------------------------------
    def figure(self, active: int, window: tuple[int, int] | None = None) -> dict:
        """What the player draws for step ``active``, as plain JSON-ready dicts.

        ``data`` and ``layout``: the three heatmaps at step ``active`` (theme colours and panel
        domains are applied by the player in the browser); ``frames``: one per step of the
        window ``k0..k1`` (values, text, hover, highlight shapes, ticks); ``captions``: each
        step in one sentence; ``units``/``rows``: each panel's width and height in cells;
        ``multiples``: each panel's [number of small multiples, their columns, their rows], side by
        side ``gap`` columns apart (the player wraps them into more rows when cells would be small);
        ``hidden``: panels the player leaves out (the indices of an operator that reads none).
        Plain dicts, not graph objects: validating hundreds of frames through plotly's Python
        classes takes seconds; the browser validates anyway. Frames are built once per window
        and reused for every step inside it.
        """
        n = len(self.trace)
        active = min(max(int(active), 0), n)
        k0, k1 = window or self.window_for(active)
        k0, k1 = min(k0, active), max(k1, active)
        first = self.frame(active, exact=True)
        frames, captions = self.frames(k0, k1)
        return {"data": [self._trace_dict(sub, tr, view)
                         for sub, (tr, view) in enumerate(zip(first.traces, first.views), start=1)],
                "layout": self._layout(first), "frames": frames, "captions": captions,
                "k0": k0, "k1": k1, "n": n, "active": active,
                "units": panel_units(first.views), "rows": [v.canvas_shape[0] for v in first.views],
                "panel_cols": [v.col_len for v in first.views],
                "multiples": [[len(v.panels), v.col_len, v.row_len] for v in first.views], "gap": GAP,
                "hidden": self.hidden, "apart": apart_payload(self.scale_note),
                "tall": self.tall if self.rows_windowed else None}

    def window_for(self, active: int) -> tuple[int, int]:
        """Frames sent for step ``active``: all of them when they fit the budget, else a window.

        Windows are aligned to half their length, so neighbouring steps share one
        (and its cached frames)."""
        n = len(self.trace)
        if self._budget is None:
            self._budget = self.frame_budget(min(1, n))
        size = self._budget
        if n + 1 <= size:
            return 0, n
        half = max(size // 2, 1)
        k0 = (active // half) * half - half // 2
        k0 = min(max(k0, 0), n + 1 - size)
        return k0, k0 + size - 1

    def frames(self, k0: int, k1: int) -> tuple[list[dict], dict[str, str]]:
        """The frames of steps k0..k1 and their captions ({"k": sentence})."""
        key = (k0, k1)
        hit = self._frames.get(key)
        if hit is not None:
            return hit
        parts = {k: self.frame(k) for k in range(k0, k1 + 1)}
        views0 = parts[k0].views
        moving = {i for i in range(3) if any(p.views[i] != views0[i] for p in parts.values())}
        send = sorted(moving | {2})
        keys = {i: ("z", "text", "counts", "customdata") if i == 2 else ("z", "text", "customdata") if i in moving
                else ("z", "text") for i in send}
        frames = [dict(name=str(k), traces=send,
                       data=[{key: p.traces[i][key] for key in keys[i]} for i in send],
                       layout=dict(shapes=p.shapes, annotations=p.annotations,
                                   **{name: dict(val) for name, val in p.axes.items()}))
                  for k, p in parts.items()]
        captions = {str(k): p.caption for k, p in parts.items()}
        if len(self._frames) >= 8:
            self._frames.pop(next(iter(self._frames)))
        self._frames[key] = (frames, captions)
        return frames, captions

    def frame_budget(self, k: int) -> int:
        """How many frames fit the byte budget, judged by the size of one frame."""
        part = self.frame(k)
        size = len(json.dumps([part.traces, part.shapes, part.annotations, part.axes]))  # worst case: every panel moves
        return int(min(MAX_FRAMES, max(MIN_FRAMES, MAX_BYTES // max(size, 1))))

    def _trace_dict(self, sub: int, tr: dict, view: View) -> dict:
        ref = "" if sub == 1 else str(sub)
        extra = (dict(colorscale=INDEX_SCALE, zmin=0, zmax=1, showscale=False) if sub == 1
                 else dict(coloraxis="coloraxis"))
        return dict(tr, xaxis=f"x{ref}", yaxis=f"y{ref}", texttemplate="%{text}",
                    hovertemplate="%{customdata}<extra></extra>", xgap=2, ygap=2,
                    textfont=dict(size=density(view, self.units)[1]), **extra)

    def _layout(self, first: FrameParts) -> dict:
        """Axes (row 0 at the top, integer ticks, square cells), panel titles as axis titles above
        the column numbers, one colour axis for every frame. The player sets domains and colours."""
        t = self.trace
        arrays = (t.indices, t.updates, t.data)
        layout = dict(
            coloraxis=dict(colorscale=VALUE_SCALE if self.floor is None else banded(VALUE_SCALE, APART),
                           cmin=self.zmin if self.floor is None else self.floor, cmax=self.zmax,
                           colorbar=dict(title=dict(text="value"), thickness=12, len=0.8)),
            shapes=first.shapes, annotations=first.annotations,
            font=dict(family="DejaVu Sans, Arial, sans-serif"), dragmode=False, showlegend=False)
        for sub, (name, arr) in enumerate(zip(self.names, arrays), start=1):
            ref = "" if sub == 1 else str(sub)
            layout[f"xaxis{ref}"] = dict(anchor=f"y{ref}", side="top", showgrid=False, zeroline=False, ticks="",
                                         fixedrange=True, constrain="domain", automargin=False,
                                         title=dict(text=self._title(name, arr), font=dict(size=13), standoff=4),
                                         **first.axes[f"xaxis{ref}"])
            layout[f"yaxis{ref}"] = dict(anchor=f"x{ref}", autorange="reversed", showgrid=False,
                                         zeroline=False, ticks="", fixedrange=True, scaleanchor=f"x{ref}",
                                         scaleratio=1, constrain="domain", automargin=False,
                                         **first.axes[f"yaxis{ref}"])
        return layout

    def _title(self, name: str, arr: np.ndarray) -> str:
        left_out = " (left out)" if name == self.names[0] and not self.trace.indices_given else ""
        return f"<b>{name}</b>{left_out} {arr.dtype} · {fmt_shape(arr.shape)}"


def short_lines(text: str, width: int = 18) -> str:
    """``text`` word-wrapped at ``width`` characters, lines joined by <br> (a word longer stays whole)."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "<br>".join(lines)


def comparison_figure(comparison, titles: tuple[str, str], dark: bool = False) -> go.Figure:
    """A :class:`scatter_core.Comparison` drawn: its two outputs side by side (``titles``: left, right), the
    differing cells outlined (a check's report: ``CheckReport.comparison``; a practice answer's feedback:
    ``Feedback.comparison``; first-write-wins vs last-write-wins).

    The differing cells whose value the spec allows too (``allowed_flat``: a conforming other winner of a
    duplicated cell) are outlined dashed, the others solid, so an allowed difference does not look like a
    real one (by the line's shape, not its colour).

    Colours follow the viewer's theme (``dark``: the page reads it, ``parts.controls.theme_is_dark``): a transparent
    background, the theme's text colour, the player's value scale for the theme with light cell text
    on the dark one (on the light scale, plotly picks the text colour that contrasts with each cell)."""
    trace, left, right = comparison.trace, comparison.left, comparison.right
    differ_flat, allowed_flat = comparison.differ_flat, comparison.allowed_flat
    zmin, zmax = value_range(trace)
    kept = bool(apart(left).any() or apart(right).any())
    floor = apart_floor(zmin, zmax) if kept else None
    scale = DARK_VALUE_SCALE if dark else VALUE_SCALE
    if kept:
        scale = banded(scale, DARK_APART if dark else APART)
    view = make_view(trace.data.shape, focus=tuple(np.unravel_index(int(differ_flat[0]), trace.data.shape))
                     if len(differ_flat) else None)
    cells = view.cells()
    mask = cells >= 0
    allowed = np.isin(np.asarray(differ_flat, dtype=np.int64), np.asarray(allowed_flat, dtype=np.int64))

    def coords_of(flat):
        return np.stack(np.unravel_index(np.asarray(flat, dtype=np.int64), trace.data.shape), axis=-1) \
            if len(flat) else np.zeros((0, trace.data.ndim), dtype=np.int64)

    differ, open_ = coords_of(np.asarray(differ_flat)[~allowed]), coords_of(np.asarray(differ_flat)[allowed])
    # titles in short lines so the two fit side by side on a phone
    fig = make_subplots(rows=1, cols=2, subplot_titles=[short_lines(t) for t in titles], horizontal_spacing=0.08)
    for sub, arr in enumerate((left, right), start=1):
        vals = np.asarray(arr).reshape(-1)[np.where(mask, cells, 0)]
        fig.add_trace(go.Heatmap(z=_z(vals, mask, floor), text=_fmt_grid(vals, mask), texttemplate="%{text}",
                                 customdata=_hover(view, cells, "output"), coloraxis="coloraxis", xgap=2, ygap=2,
                                 hovertemplate="%{customdata}: %{text}<extra></extra>",
                                 textfont=dict(size=12, color=DARK_CELL_TEXT if dark else None)), row=1, col=sub)
        fig.update_layout(_axes(view, sub))
        for shape in _rects(view, differ, sub, HIGHLIGHT, 3) + _rects(view, open_, sub, HIGHLIGHT, 2.5, dash="dash"):
            fig.add_shape(shape)
        for ann in _panel_labels(view, "output", sub):
            fig.add_annotation(ann)
    for title in fig.layout.annotations[:2]:  # subplot titles sit above the column numbers
        title.update(yshift=22)
    fig.update_layout(coloraxis=dict(colorscale=scale, cmin=zmin if floor is None else floor, cmax=zmax,
                                     showscale=False),
                      height=int(min(max(220 + 40 * view.canvas_shape[0], 280), 700)),
                      margin=dict(l=40, r=20, t=95, b=50), dragmode=False,
                      # the page shows through, and text in the theme's colour, also where a page draws
                      # it without Streamlit's theme (theme=None)
                      paper_bgcolor=TRANSPARENT, plot_bgcolor=TRANSPARENT,
                      font=dict(color=DARK_PAGE_TEXT if dark else LIGHT_PAGE_TEXT))
    fig.update_xaxes(side="top", showgrid=False, zeroline=False, fixedrange=True, ticks="")
    fig.update_yaxes(autorange="reversed", showgrid=False, zeroline=False, fixedrange=True, ticks="")
    for sub in (1, 2):
        ref = "" if sub == 1 else str(sub)
        fig.update_layout({f"yaxis{ref}": dict(scaleanchor=f"x{ref}", scaleratio=1, constrain="domain")})
    return fig


def overview_figure(trace, k: int, max_bins: int = 100, dark: bool = False) -> go.Figure:
    """Where the writes of the first k steps land, summed over all but the first two axes and binned.

    At step 0 nothing has been written yet, so it shows where all the steps will write. Drawn with
    Streamlit's theme; the scale is the player's for the theme (``dark``: the viewer's, read by the page)."""
    shape = trace.data.shape
    upto = k if k > 0 else len(trace)
    cells, counts = trace.write_counts(upto)
    lead = shape[:2] if len(shape) >= 2 else (1, shape[0])
    coords = np.unravel_index(cells, shape)
    r = coords[0] if len(shape) >= 2 else np.zeros_like(cells)
    c = coords[1] if len(shape) >= 2 else coords[0]
    br = max(1, -(-lead[0] // max_bins))
    bc = max(1, -(-lead[1] // max_bins))
    grid = np.zeros((-(-lead[0] // br), -(-lead[1] // bc)), dtype=np.int64)
    np.add.at(grid, (r // br, c // bc), counts)
    fig = go.Figure(go.Heatmap(z=grid, colorscale=DARK_VALUE_SCALE if dark else VALUE_SCALE,
                               colorbar=dict(title="writes"),
                               x=np.arange(grid.shape[1]) * bc, y=np.arange(grid.shape[0]) * br,
                               hovertemplate="rows %{y}.., cols %{x}..: %{z} writes<extra></extra>"))
    if k > 0:
        t = trace.target_cells(k - 1)[0]
        tr, tc = (t[0], t[1]) if len(shape) >= 2 else (0, t[0])
        box = dict(type="rect", x0=(tc // bc) * bc - bc / 2, x1=(tc // bc) * bc + bc / 2, xref="x", yref="y",
                   y0=(tr // br) * br - br / 2, y1=(tr // br) * br + br / 2, line=dict(color=HIGHLIGHT, width=3))
        for shape in [box] + now_marks([box], bc, br):  # the write's bin, by shape too
            fig.add_shape(shape)
    axis_names = ("axis 0", "axis 1") if len(shape) >= 2 else ("", "axis 0")
    what = (f"where the first {k} step(s) write (thick frame with a filled corner: step {k}'s)" if k > 0
            else f"where all {len(trace)} steps will write")
    fig.update_layout(height=380, margin=dict(l=50, r=20, t=90, b=20),  # the title above the top axis's title
                      title=dict(text=f"{what} (bins of {br}×{bc}, summed over the other axes)", font=dict(size=13),
                                 yref="container", y=1, yanchor="top", pad=dict(t=10)),
                      yaxis=dict(autorange="reversed", title=axis_names[0]), xaxis=dict(title=axis_names[1], side="top"))
    return fig
