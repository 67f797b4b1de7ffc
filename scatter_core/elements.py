"""Scatter, ScatterElements and ScatterElementsUpdate: one element per update.
Equivalent to this loop (``f`` the reduction, ``none`` replaces; row-major over ``indices.shape``)::

    out = data.copy()
    for i in np.ndindex(indices.shape):
        cell = list(i)
        cell[axis] = indices[i] + (data.shape[axis] if indices[i] < 0 else 0)
        out[tuple(cell)] = f(out[tuple(cell)], updates[i])

>>> import scatter_core as sc
>>> sc.scatter("ScatterElements-18", [[1, 2, 3, 4, 5]], [[1, 3]], [[11, 21]], axis=1).tolist()
[[1, 11, 3, 21, 5]]
>>> sc.scatter("ScatterElements-18", [[1, 2, 3]], [[0, 0, -1]], [[10, 20, 30]], axis=1, reduction="add").tolist()
[[31, 2, 33]]
"""

from __future__ import annotations

import numpy as np

from .checks import c_strides, check_index_values
from .errors import ScatterError
from .plan import Plan, PlanNote, iota
from .sample_limits import Drawn, Limits, data_draw, force_duplicate, index_values, line_values
from .spec import OpSpec


def check_shapes(spec: OpSpec, data: np.ndarray, indices: np.ndarray, updates: np.ndarray, axis: int) -> None:
    if data.ndim < 1:
        raise ScatterError(f"data must have rank >= 1 for {spec.name}; got a 0-d tensor",
                           argument="data", rule="rank")
    if indices.ndim != data.ndim:
        raise ScatterError(
            f"indices has rank {indices.ndim} (shape {indices.shape}) but {spec.name} needs the rank of "
            f"data, {data.ndim} (shape {data.shape})", argument="indices", rule="rank")
    if updates.shape != indices.shape:
        raise ScatterError(
            f"updates has shape {updates.shape} but {spec.name} needs the shape of indices, {indices.shape}",
            argument="updates", rule="shape")
    for d, (ni, nd) in enumerate(zip(indices.shape, data.shape)):
        if d == axis and spec.axis_dim_may_exceed:
            continue
        if ni > nd:
            where = "the axis" if d == axis else f"dimension {d}"
            note = spec.note_text("axis-dim" if d == axis else "dims")
            raise ScatterError(
                f"indices.shape[{d}] = {ni} exceeds data.shape[{d}] = {nd}; {spec.name} needs "
                f"indices.shape[{d}] <= data.shape[{d}] on {where}" + (f". Observed: {note}" if note else ""),
                argument="indices", rule="dims")


def updates_shape(data_shape, indices_shape, attrs) -> tuple[int, ...]:
    """The updates shape the family needs: the shape of indices."""
    return tuple(indices_shape)


def plan(spec: OpSpec, data: np.ndarray, indices: np.ndarray, updates: np.ndarray, attrs) -> Plan:
    """The loop of one Elements case; ``attrs`` is the resolved attributes (``attrs.axis``)."""
    axis = attrs.axis
    check_shapes(spec, data, indices, updates, axis)
    norm = check_index_values(spec, indices, data.shape[axis], axis, data.shape)
    strides = c_strides(data.shape)
    # Offsets of the coordinates an update keeps (every axis but `axis`), built on a grid that
    # is 1 long on `axis`, so only the final multiply-add runs over every update.
    offsets = np.zeros([1] * indices.ndim, dtype=np.int64)
    for d, n in enumerate(indices.shape):
        if d != axis:
            shape = [1] * indices.ndim
            shape[d] = n
            offsets = offsets + (np.arange(n, dtype=np.int64) * strides[d]).reshape(shape)
    flat = norm * strides[axis]
    flat += offsets
    n = indices.size
    loop = iota(n)
    notes = []
    if spec.index_rule.negative == "unstated" and (indices < 0).any():
        notes.append(PlanNote(
            "spec-silent", "info",
            f"{spec.name}'s text does not say whether negative indices are allowed; they were counted "
            f"from the end (v + size), as the next version and onnxruntime do.", topic="negative-index"))
    return Plan(
        loop_shape=tuple(indices.shape),
        targets=np.ascontiguousarray(flat, dtype=np.int64).reshape(n, 1),
        sources=loop.reshape(n, 1),
        index_cells=loop.reshape(n, 1),  # the same positions: update i and index i are one element
        index_raw=indices.reshape(n, 1),
        index_norm=norm.reshape(n, 1),
        target_free_axes=(),
        source_free_axes=(),
        updates_shape=tuple(updates.shape),
        notes=tuple(notes),
    )


def sample(rng, spec: OpSpec, limits: Limits) -> Drawn:
    """A random valid draw: an axis, indices no larger than data (longer on axis where the version allows)."""
    if limits.data_shape is not None:
        return _fitted(rng, limits)
    lo, data_shape = data_draw(rng, limits)
    axis = int(rng.integers(0, len(data_shape)))
    ishape = tuple(int(rng.integers(lo, n + 1)) for n in data_shape)
    if spec.axis_dim_may_exceed:
        ishape = ishape[:axis] + (int(rng.integers(lo, limits.max_dim + 2)),) + ishape[axis + 1:]
    return Drawn(data_shape, index_values(rng, spec, limits, data_shape[axis], ishape), ishape, {"axis": axis})


def _fitted(rng, limits: Limits) -> Drawn | None:
    """A draw for ``limits.data_shape`` along ``limits.axis``: 2..max_steps updates, at least 2 along the axis when
    repeats may occur, each line along the axis distinct or repeating as ``limits.duplicates`` asks."""
    shape_, axis, wish = limits.data_shape, limits.axis, limits.duplicates
    dims = []
    for d, n in enumerate(shape_):
        low = 2 if d == axis and wish != "no" else 1
        dims.append(int(rng.integers(low, n + 1)) if n >= low else n)
    ishape = tuple(dims)
    if not 2 <= int(np.prod(ishape)) <= limits.max_steps:
        return None
    moved = (*[n for d, n in enumerate(ishape) if d != axis], ishape[axis])
    lines = np.empty(moved, dtype=np.int64)
    for pos in np.ndindex(*moved[:-1]):
        lines[pos] = line_values(rng, shape_[axis], moved[-1], wish)
    if wish == "yes":
        force_duplicate(rng, lines)
    indices = np.moveaxis(lines, -1, axis)
    sizes = np.full(indices.shape, shape_[axis], dtype=np.int64)
    return Drawn(tuple(shape_), np.ascontiguousarray(indices), ishape, {"axis": axis}, sizes)
