"""SliceScatter (OpenVINO 15): updates replace a strided slice of data, one element per iteration.
Equivalent to this loop (``start``/``stop``/``step`` per sliced axis, read as Slice-8 and Python read them;
no indices, no reduction, no cell written twice; more in docs/architecture.md, scatter_core/slice_scatter.py)::

    out = data.copy()
    where = [slice(None)] * data.ndim
    for a, b, e, s in zip(axes, start, stop, step):
        where[a] = slice(b, e, s)
    view = out[tuple(where)]  # a view: writing it writes out
    for u in np.ndindex(updates.shape):
        view[u] = updates[u]

>>> import scatter_core as sc
>>> sc.scatter("SliceScatter-15", [0, 0, 0, 0, 0, 0], None, [1, 2, 3], start=[-1], stop=[-7], step=[-2]).tolist()
[0, 3, 0, 2, 0, 1]
"""

from __future__ import annotations

import numpy as np

from .checks import c_strides, prod
from .errors import ScatterError, fmt_pos
from .plan import Plan, PlanNote, iota
from .sample_limits import Drawn, Lesson, Limits, coin, pick, shape
from .spec import OpSpec


def slice_axes(spec: OpSpec, rank: int, start, stop, step, axes) -> tuple[int, ...]:
    """The sliced axes, normalised, after the rules on the lengths, ``step`` and ``axes``."""
    n = len(start)
    if not len(stop) == len(step) == n or (axes is not None and len(axes) != n):
        lengths = f"start {n}, stop {len(stop)}, step {len(step)}" + (f", axes {len(axes)}" if axes is not None else "")
        raise ScatterError(f"start, stop, step and axes must have one entry each per sliced axis; got {lengths}",
                           argument="start", rule="lengths")
    for j, v in enumerate(step):
        if v == 0:
            raise ScatterError(f"step[{j}] = 0; {_name(spec)} needs every step to be non-zero", argument="step",
                               rule="step-zero")
    if axes is None:
        if n > rank:
            raise ScatterError(
                f"start has {n} entries but data has rank {rank}; without axes the entries apply to axes 0..{n - 1}",
                argument="start", rule="lengths")
        return tuple(range(n))
    out = []
    for j, a in enumerate(axes):
        if not -rank <= a <= rank - 1:
            raise ScatterError(f"axes[{j}] = {a} is out of range for data of rank {rank} (allowed {-rank}..{rank - 1})",
                               argument="axes", rule="axis-range")
        a = a + rank if a < 0 else a
        if a in out:
            raise ScatterError(f"axes[{j}] = {axes[j]} names axis {a} again; {_name(spec)} needs unique axes",
                               argument="axes", rule="unique-axes")
        out.append(a)
    return tuple(out)


def _name(spec) -> str:
    return spec.name if spec is not None else "SliceScatter"


def positions(dim: int, start: int, stop: int, step: int) -> range:
    """The positions Slice-8 selects along an axis of size ``dim`` (Python's slice semantics)."""
    return range(*slice(start, stop, step).indices(dim))


def slice_ranges(spec: OpSpec, shape, start, stop, step, axes) -> list[range]:
    """One range of positions per axis of data: the sliced ones as Slice-8 selects them, the others whole."""
    sliced = slice_axes(spec, len(shape), start, stop, step, axes)
    ranges = [range(int(d)) for d in shape]
    for a, b, e, s in zip(sliced, start, stop, step):
        ranges[a] = positions(int(shape[a]), b, e, s)
    return ranges


def _slice_attrs(attrs) -> tuple:
    return tuple(attrs.get(name) for name in ("start", "stop", "step", "axes"))


def updates_shape(data_shape, indices_shape, attrs) -> tuple[int, ...] | None:
    """The slice's shape, when the attributes name a valid slice of ``data_shape``."""
    start, stop, step, axes = _slice_attrs(attrs)
    if start is None or stop is None or step is None:
        return None
    try:
        return tuple(len(r) for r in slice_ranges(None, data_shape, start, stop, step, axes))
    except ScatterError:
        return None


def plan(spec: OpSpec, data: np.ndarray, indices: None, updates: np.ndarray, attrs) -> Plan:
    if data.ndim < 1:
        raise ScatterError(f"data must have rank >= 1 for {spec.name}; got a 0-d tensor", argument="data", rule="rank")
    start, stop, step, axes = _slice_attrs(attrs)
    ranges = slice_ranges(spec, data.shape, start, stop, step, axes)
    want = tuple(len(r) for r in ranges)
    if updates.shape != want:
        raise ScatterError(
            f"updates has shape {updates.shape} but the slice start {list(start)}, stop {list(stop)}, step "
            f"{list(step)}" + (f", axes {list(axes)}" if axes is not None else "") + f" of data {data.shape} has "
            f"shape {want}; {spec.name} needs updates in the slice's shape", argument="updates", rule="shape")
    strides = c_strides(data.shape)
    flat = np.zeros(want, dtype=np.int64)
    for d, r in enumerate(ranges):  # broadcast each axis's positions over the slice's grid
        shape = [1] * data.ndim
        shape[d] = len(r)
        flat = flat + (np.arange(r.start, r.stop, r.step, dtype=np.int64) * strides[d]).reshape(shape)
    n = prod(want)
    notes = []
    sliced = slice_axes(spec, data.ndim, start, stop, step, axes)
    clamped = [(a, b, e, s) for a, b, e, s in zip(sliced, start, stop, step)
               if not (-data.shape[a] <= b <= data.shape[a]) or not (-data.shape[a] - 1 <= e <= data.shape[a])]
    if clamped:
        a, b, e, s = clamped[0]
        r = ranges[a]
        notes.append(PlanNote(
            "clamped-bounds", "info",
            f"start or stop beyond the end of the axis is clamped, as Slice-8 does: on axis {a} (size "
            f"{data.shape[a]}) {b}:{e}:{s} selects {_fmt_range(r)}.", topic="clamping"))
    if n == 0:
        notes.append(PlanNote(
            "empty-slice", "info",
            f"the slice selects no element (shape {want}): output == data.", topic="empty-slice"))
    return Plan(
        loop_shape=want,
        targets=flat.reshape(n, 1),
        sources=iota(n).reshape(n, 1),
        index_cells=np.zeros((n, 0), dtype=np.int64),
        index_raw=np.zeros((n, 0), dtype=np.int64),
        index_norm=np.zeros((n, 0), dtype=np.int64),
        target_free_axes=(),
        source_free_axes=(),
        updates_shape=tuple(updates.shape),
        notes=tuple(notes),
    )


def _fmt_range(r: range) -> str:
    items = list(r[:6])
    text = ", ".join(str(v) for v in items) + (", …" if len(r) > 6 else "")
    return f"positions [{text}]" if len(r) else "no position"


def export_loop(case) -> tuple[str, ...]:
    """The spec's NumPy description as export loop lines: the slice's positions, then one write per update."""
    start, stop, step, axes = _slice_attrs(case.resolved)
    sliced = slice_axes(case.spec, case.data.ndim, start, stop, step, axes)
    parts = [":"] * case.data.ndim
    for a, b, e, s in zip(sliced, start, stop, step):
        parts[a] = f"{b}:{e}:{s}"
    return (
        "# the flat position of every slice element, row-major like updates",
        f"positions = np.arange(data.size).reshape(data.shape)[{', '.join(parts)}]",
        "for u in np.ndindex(*updates.shape):",
        "    cell = np.unravel_index(int(positions[u]), data.shape)",
        "    apply(out, contributions, tuple(int(c) for c in cell), updates[u])")


def index_label(trace, i: int) -> str:
    """How step ``i``'s target follows from the slice: per sliced axis, start + position × step (after clamping)."""
    start, stop, step, axes = _slice_attrs(trace.resolved)
    ranges = slice_ranges(trace.spec, trace.data.shape, start, stop, step, axes)
    sliced = slice_axes(trace.spec, trace.data.ndim, start, stop, step, axes)
    u = trace.source_cells(i)[0]
    parts = [f"axis {a}: {ranges[a].start} + {int(u[a])}×{_signed(ranges[a].step)} = {ranges[a][int(u[a])]}" for a in sliced]
    return f"slice element {fmt_pos(u)}; " + ("; ".join(parts) if parts else "no sliced axis")


def _signed(v: int) -> str:
    return f"({v})" if v < 0 else str(v)


def sample(rng, spec: OpSpec, limits: Limits) -> Drawn:
    """A random valid draw: 1..rank sliced axes (leading, or named with either sign), bounds past both ends, steps
    of both signs; mostly non-empty slices."""
    if limits.data_shape is not None:
        return _fitted(rng, limits)
    rank = int(rng.integers(1, limits.max_rank + 1))
    data_shape = shape(rng, rank, hi=limits.max_dim)
    n = int(rng.integers(1, rank + 1))
    named = rng.random() < 0.5
    axes = [int(a) - rank * int(rng.integers(0, 2)) for a in rng.permutation(rank)[:n]] if named else list(range(n))
    start, stop, step, ushape = [], [], [], list(data_shape)
    for a in axes:
        size = data_shape[a]
        for _ in range(4):  # mostly non-empty slices; some stay empty
            b, e = (int(v) for v in rng.integers(-size - 2, size + 3, size=2))
            s = int(rng.choice([-3, -2, -1, 1, 2, 3]))
            if len(range(*slice(b, e, s).indices(size))):
                break
        start, stop, step = start + [b], stop + [e], step + [s]
        ushape[a] = len(range(*slice(b, e, s).indices(size)))
    attrs = {"start": start, "stop": stop, "step": step, "axes": axes if named else None}
    return Drawn(data_shape, None, tuple(ushape), attrs)


SPELLINGS = ("plain", "negative", "clamped")  # how a bound is written: 0..size, -size..-1, beyond either end


def _spelling(value: int, size: int) -> str:
    if 0 <= value <= size:
        return "plain"
    return "negative" if -size <= value < 0 else "clamped"


def _bounds(rng, size: int, first: int, step: int, count: int, allowed: tuple[str, ...]) -> tuple[int, int] | None:
    """A (start, stop) whose Slice-8 positions on an axis of ``size`` are first, first + step, ... (count of
    them), spelled in one of the ``allowed`` ways (each bound drawn among its valid spellings)."""
    want = range(first, first + count * step, step)
    far = int(rng.integers(1, 5))  # how far beyond the end a clamped bound lies
    starts = {first, first - size, -size - far if step > 0 else size + far}
    last = first + (count - 1) * step
    ends = range(last + 1, last + step + 1) if step > 0 else range(last + step, last)
    stops = {v for e in ends for v in (e, e - size if e >= 0 else -size - far, size + far if e >= size else e)}
    found = []
    for b in sorted(starts):
        for e in sorted(stops):
            if range(*slice(b, e, step).indices(size)) == want and {_spelling(b, size), _spelling(e, size)} <= \
                    set(allowed):
                found.append((b, e))
    return pick(rng, found) if found else None


def _fitted(rng, limits: Limits) -> Drawn | None:
    """A draw for ``limits.data_shape`` with the wished ``limits.features``: "plain" bounds, "negative" bounds,
    "other-axis" (the second axis), "negative-step", "clamped" bounds, or "mixed" (any of them on several axes);
    2..``limits.max_steps`` steps."""
    shape = limits.data_shape
    rank, f = len(shape), limits.features
    if "other-axis" in f:
        axes = [1]
    elif "mixed" in f:
        axes = sorted(int(a) for a in rng.permutation(rank)[:int(rng.integers(1, rank + 1))])
    else:
        axes = list(range(int(rng.integers(1, rank + 1))))
    if "negative" in f:
        spell = ("plain", "negative")
    elif "plain" in f or "other-axis" in f:
        spell = ("plain",)
    else:
        spell = SPELLINGS
    negative_steps = "negative-step" in f or ("mixed" in f and coin(rng, 40))
    start, stop, step, slice_shape = [], [], [], list(shape)
    for j, a in enumerate(axes):
        size = shape[a]
        s = int(rng.integers(1, 4 if len(axes) == 1 else 3))
        if negative_steps and (j == 0 or coin(rng, 50)):
            s = -s
        if "clamped" in f and j == 0:  # the first bound at the edge, so a clamped spelling selects it
            first = 0 if s > 0 else size - 1
        else:
            first = int(rng.integers(0, size))
        room = (size - 1 - first) // s + 1 if s > 0 else first // -s + 1
        count = int(rng.integers(2 if room >= 2 and coin(rng, 80) else 1, room + 1))  # mostly a real stride
        bounds = _bounds(rng, size, first, s, count, spell)
        if bounds is None:
            return None
        start.append(bounds[0])
        stop.append(bounds[1])
        step.append(s)
        slice_shape[a] = count
    spellings = [_spelling(v, shape[a]) for a, b, e in zip(axes, start, stop) for v in (b, e)]
    wanted = {"negative": "negative" in spellings, "clamped": "clamped" in spellings,
              "negative-step": any(s < 0 for s in step)}
    if not all(ok for name, ok in wanted.items() if name in f):
        return None
    if "plain" in f and any(sp != "plain" for sp in spellings):
        return None
    steps = int(np.prod(slice_shape))
    if not 2 <= steps <= limits.max_steps:
        return None
    leading = axes == list(range(len(axes)))
    if "other-axis" in f or "mixed" in f:
        axes_given = [a - rank if coin(rng, 40) else a for a in axes] if not leading or coin(rng, 50) else None
    else:
        axes_given = None if leading else axes
    attrs = {"start": start, "stop": stop, "step": step, "axes": axes_given}
    return Drawn(tuple(shape), None, tuple(slice_shape), attrs)


# -- Practice's curriculum for the strided slice (Family.lesson): what each level practises --------------------
def lesson(rng, level: int) -> Lesson:
    """Level 1: positive steps and plain bounds on the leading axis (or both axes). 2: negative bounds and other
    axes. 4: negative steps and clamped bounds. 5: rank 3, several axes, anything. (Level 3, reductions, has no
    slice exercise.)"""
    if level == 1:
        features, topic = ("plain",), "a strided slice with a positive step"
    elif level == 2:
        features = pick(rng, (("negative",), ("other-axis",), ("negative", "other-axis")))
        topic = "negative start or stop, and slices of another axis"
    elif level == 4:
        features = pick(rng, (("negative-step",), ("clamped",), ("negative-step", "clamped")))
        topic = "negative steps, or a start or stop beyond the ends (clamped to them)"
    else:
        features, topic = ("mixed",), "mixed: a slice of a rank-3 tensor along one or more axes"
    rank = 3 if level == 5 else int(rng.integers(1, 3))
    if "other-axis" in features:
        rank = 2
    return Lesson(rank, features=features, topic=topic)
