"""ScatterND and ScatterNDUpdate: one k-tuple per iteration, writing a slice.

Equivalent to this loop (k = ``indices.shape[-1]``; ``f`` the reduction, elementwise; ``none`` replaces;
``updates[idx]`` has shape ``data.shape[k:]``)::

    out = data.copy()
    for idx in np.ndindex(indices.shape[:-1]):
        where = tuple(norm(indices[idx]))  # k coordinates: a cell (k = rank) or a slice
        out[where] = f(out[where], updates[idx])

>>> import scatter_core as sc
>>> sc.scatter("ScatterND-16", [1, 2, 3, 4, 5, 6, 7, 8], [[4], [3], [1], [7]], [9, 10, 11, 12]).tolist()
[1, 11, 3, 10, 9, 6, 7, 12]
>>> sc.scatter("ScatterND-18", [[1, 2], [3, 4]], [[0], [0]], [[10, 10], [5, 5]], reduction="add").tolist()
[[16, 17], [3, 4]]
"""

from __future__ import annotations

import numpy as np

from .checks import c_strides, check_index_values, prod
from .errors import ScatterError
from .plan import Plan, PlanNote, iota
from .sample_limits import Drawn, Limits, data_draw, force_duplicate, index_values, line_values, shape
from .spec import OpSpec


def expected_updates_shape(data_shape, indices_shape) -> tuple[int, ...]:
    k = indices_shape[-1]
    return tuple(indices_shape[:-1]) + tuple(data_shape[k:])


def updates_shape(data_shape, indices_shape, attrs) -> tuple[int, ...]:
    """The updates shape the family needs: indices.shape[:-1] + data.shape[k:]."""
    return expected_updates_shape(data_shape, indices_shape)


def check_shapes(spec: OpSpec, data: np.ndarray, indices: np.ndarray, updates: np.ndarray) -> tuple[np.ndarray, list]:
    notes = []
    if data.ndim < 1:
        raise ScatterError(f"data must have rank >= 1 for {spec.name}; got a 0-d tensor",
                           argument="data", rule="rank")
    if indices.ndim < 1:
        raise ScatterError(f"indices must have rank q >= 1 for {spec.name}; got a 0-d tensor",
                           argument="indices", rule="rank")
    k = indices.shape[-1]
    if k > data.ndim:
        raise ScatterError(
            f"indices.shape[-1] = {k} is larger than the rank of data ({data.ndim}, shape {data.shape}); "
            f"{spec.name} needs k <= rank(data)", argument="indices", rule="k")
    want = expected_updates_shape(data.shape, indices.shape)
    if updates.shape != want:
        if spec.one_element_for_scalar_updates and want == () and updates.shape == (1,):
            notes.append(PlanNote(
                "one-element-updates", "info",
                f"updates has shape (1,) where a 0-d update is expected; {spec.name}'s text accepts a "
                f"one-element tensor here.", topic="scalar-updates"))
            return updates.reshape(()), notes
        raise ScatterError(
            f"updates has shape {updates.shape} but {spec.name} needs indices.shape[:-1] + data.shape[k:] = "
            f"{indices.shape[:-1]} + {data.shape[k:]} = {want} (k = {k})", argument="updates", rule="shape")
    return updates, notes


def rows_if_all_in_range(tuples: np.ndarray, dims: tuple[int, ...]) -> np.ndarray | None:
    """The slice number of every k-tuple (C order over ``dims``) when all its values are in 0..size-1.

    ``numpy.ravel_multi_index`` checks and combines the columns in one compiled pass, the common
    case for valid inputs. None for anything else (negative or out-of-range values, unsigned
    dtypes, k == 0, no tuples), which the full per-value check then handles.
    """
    if tuples.dtype.kind != "i" or tuples.size == 0:
        return None
    try:
        rows = np.ravel_multi_index(tuple(tuples.T), dims)
    except ValueError:
        return None
    return rows.astype(np.int64, copy=False)


def plan(spec: OpSpec, data: np.ndarray, indices: np.ndarray, updates: np.ndarray, attrs=None) -> Plan:
    updates, notes = check_shapes(spec, data, indices, updates)
    k = indices.shape[-1]
    loop_shape = tuple(indices.shape[:-1])
    n = prod(loop_shape)
    tuples = indices.reshape(n, k)
    slice_size = prod(data.shape[k:])
    rows = rows_if_all_in_range(tuples, data.shape[:k])
    if rows is not None:  # every index in 0..size-1: nothing to normalise
        norm = tuples.astype(np.int64, copy=False)
    else:  # negative or out-of-range values: the full check normalises or names the first bad one
        sizes = np.asarray(data.shape[:k], dtype=np.int64)
        norm = check_index_values(spec, tuples, sizes, np.arange(k), data.shape).reshape(n, k)
        row_strides = c_strides(data.shape[:k]) if k else np.zeros(0, dtype=np.int64)
        rows = norm @ row_strides if k else np.zeros(n, dtype=np.int64)
    targets = np.add.outer(rows * slice_size, iota(slice_size))  # (n, slice_size): each slice's cells
    sources = iota(n * slice_size).reshape(n, slice_size)
    if k == 0 and n:
        notes.append(PlanNote(
            "k-zero", "warning",
            f"indices.shape[-1] == 0: every one of the {n} empty tuples addresses the whole tensor, so each "
            f"iteration updates all of data. Scatter Explorer follows the text (and onnxruntime, "
            f"onnx.reference, the OpenVINO reference).", topic="k-zero"))
    return Plan(
        loop_shape=loop_shape,
        targets=targets.astype(np.int64, copy=False),
        sources=sources,
        index_cells=iota(n * k).reshape(n, k),
        index_raw=tuples.astype(np.int64, copy=False),
        index_norm=norm,
        target_free_axes=tuple(range(k, data.ndim)),
        source_free_axes=tuple(range(len(loop_shape), len(loop_shape) + data.ndim - k)),
        updates_shape=tuple(updates.shape),
        notes=tuple(notes),
    )


def sample(rng, spec: OpSpec, limits: Limits) -> Drawn:
    """A random valid draw: k-tuples (k <= rank) in a batch of 1-2 axes, updates of the batch and the slice."""
    if limits.data_shape is not None:
        return _fitted(rng, limits)
    lo, data_shape = data_draw(rng, limits)
    k = int(rng.integers(1, len(data_shape) + 1))
    batch = shape(rng, int(rng.integers(lo, 3)), lo=lo, hi=limits.max_dim)
    indices = index_values(rng, spec, limits, data_shape[:k], batch + (k,))
    return Drawn(data_shape, indices, batch + data_shape[k:])


def _fitted(rng, limits: Limits) -> Drawn | None:
    """A draw for ``limits.data_shape``: 2..max_steps k-tuples (k = ``limits.k``, else the rank) in one batch axis,
    distinct or repeating as ``limits.duplicates`` asks."""
    shape_, wish = limits.data_shape, limits.duplicates
    k = min(limits.k if limits.k is not None else len(shape_), len(shape_))
    head = shape_[:k]
    cells = int(np.prod(head))
    most = min(limits.max_steps, cells) if wish == "no" else limits.max_steps
    low = 2 if wish != "no" else 1
    if most < max(low, 2):
        return None
    n = int(rng.integers(max(low, 2), most + 1))
    flat = line_values(rng, cells, n, wish).reshape(1, n)
    if wish == "yes":
        force_duplicate(rng, flat)
    tuples = np.stack(np.unravel_index(flat.reshape(-1), head), axis=-1).astype(np.int64)
    sizes = np.broadcast_to(np.array(head, dtype=np.int64), tuples.shape).copy()
    return Drawn(tuple(shape_), tuples, (n,) + tuple(shape_[k:]), {}, sizes)
