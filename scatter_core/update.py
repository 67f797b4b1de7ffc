"""ScatterUpdate: one index per iteration, replacing a slice along ``axis``.

Equivalent to this loop (iteration ``j`` over ``indices.shape`` in row-major order; ``j`` spans
``indices.ndim`` axes of updates starting at ``axis``)::

    out = data.copy()
    before = (slice(None),) * axis
    for j in np.ndindex(indices.shape):
        out[before + (norm(indices[j]),)] = updates[before + j]

>>> import scatter_core as sc
>>> sc.scatter("ScatterUpdate-3", [[0, 0, 0], [0, 0, 0]], [2, 0], [[1, 2], [3, 4]], axis=1).tolist()
[[2, 0, 1], [4, 0, 3]]
"""

from __future__ import annotations

import numpy as np

from .checks import check_index_values, prod
from .errors import ScatterError
from .plan import Plan, PlanNote
from .sample_limits import Drawn, Limits, data_draw, force_duplicate, index_values, line_values, shape
from .spec import OpSpec


def expected_updates_shape(data_shape, indices_shape, axis: int) -> tuple[int, ...]:
    return tuple(data_shape[:axis]) + tuple(indices_shape) + tuple(data_shape[axis + 1:])


def updates_shape(data_shape, indices_shape, attrs) -> tuple[int, ...]:
    """The updates shape the family needs: data.shape[:axis] + indices.shape + data.shape[axis+1:]."""
    axis = int(attrs["axis"])
    return expected_updates_shape(data_shape, indices_shape, axis + len(data_shape) if axis < 0 else axis)


def plan(spec: OpSpec, data: np.ndarray, indices: np.ndarray, updates: np.ndarray, attrs) -> Plan:
    """The loop of one ScatterUpdate case; ``attrs`` is the resolved attributes (``attrs.axis``)."""
    axis = attrs.axis
    if data.ndim < 1:
        raise ScatterError(f"data must have rank >= 1 for {spec.name}; got a 0-d tensor",
                           argument="data", rule="rank")
    want = expected_updates_shape(data.shape, indices.shape, axis)
    if updates.shape != want:
        raise ScatterError(
            f"updates has shape {updates.shape} but {spec.name} needs data.shape[:axis] + indices.shape + "
            f"data.shape[axis+1:] = {data.shape[:axis]} + {indices.shape} + {data.shape[axis + 1:]} = {want} "
            f"(axis = {axis})", argument="updates", rule="shape")
    norm = check_index_values(spec, indices, data.shape[axis], axis, data.shape).reshape(-1)
    n = norm.size
    outer, dim, inner = prod(data.shape[:axis]), data.shape[axis], prod(data.shape[axis + 1:])
    a = np.arange(outer, dtype=np.int64)[:, None]
    b = np.arange(inner, dtype=np.int64)[None, :]
    target_base = (a * dim * inner + b).ravel()
    source_base = (a * n * inner + b).ravel()
    j = np.arange(n, dtype=np.int64)[:, None]
    notes = []
    if indices.ndim == 0:
        notes.append(PlanNote(
            "scalar-indices", "info",
            f"indices is 0-d: {spec.name}'s text allows it and the loop has one iteration.",
            topic="scalar-indices"))
    return Plan(
        loop_shape=tuple(indices.shape),
        targets=norm[:, None] * inner + target_base[None, :],
        sources=j * inner + source_base[None, :],
        index_cells=j.copy(),
        index_raw=indices.reshape(n, 1).astype(np.int64, copy=False),
        index_norm=norm.reshape(n, 1),
        target_free_axes=tuple(d for d in range(data.ndim) if d != axis),
        source_free_axes=tuple(range(axis)) + tuple(range(axis + indices.ndim, axis + indices.ndim + data.ndim - axis - 1)),
        updates_shape=tuple(updates.shape),
        notes=tuple(notes),
    )


def sample(rng, spec: OpSpec, limits: Limits) -> Drawn:
    """A random valid draw: an axis, 1-2 axes of indices (each a slice), updates around them."""
    if limits.data_shape is not None:
        return _fitted(rng, limits)
    lo, data_shape = data_draw(rng, limits)
    axis = int(rng.integers(0, len(data_shape)))
    ishape = shape(rng, int(rng.integers(lo, 3)), lo=lo, hi=3)
    indices = index_values(rng, spec, limits, data_shape[axis], ishape)
    return Drawn(data_shape, indices, data_shape[:axis] + ishape + data_shape[axis + 1:], {"axis": axis})


def shrink(shapes, attrs) -> tuple[tuple, tuple, tuple]:
    """The large-tensor stand-in: data and updates with every axis but ``axis`` 1 long (each index writes one
    cell instead of a slice), and the shape of one real write (the slice)."""
    data = tuple(shapes["data"])
    indices = tuple(shapes["indices"])
    axis = int(attrs.get("axis", 0)) % len(data)
    small_data = tuple(d if i == axis else 1 for i, d in enumerate(data))
    small_updates = (1,) * axis + indices + (1,) * (len(data) - axis - 1)
    return small_data, small_updates, data[:axis] + data[axis + 1:]


def _fitted(rng, limits: Limits) -> Drawn | None:
    """A draw for ``limits.data_shape`` along ``limits.axis``: 2..max_steps slice positions in one indices axis,
    distinct or repeating as ``limits.duplicates`` asks."""
    shape_, axis, wish = limits.data_shape, limits.axis, limits.duplicates
    size = shape_[axis]
    most = min(limits.max_steps, size) if wish == "no" else limits.max_steps
    if most < 2:
        return None
    m = int(rng.integers(2, most + 1))
    values = line_values(rng, size, m, wish).reshape(1, m)
    if wish == "yes":
        force_duplicate(rng, values)
    indices = values.reshape(m)
    sizes = np.full(m, size, dtype=np.int64)
    return Drawn(tuple(shape_), indices, tuple(shape_[:axis]) + (m,) + tuple(shape_[axis + 1:]), {"axis": axis}, sizes)
