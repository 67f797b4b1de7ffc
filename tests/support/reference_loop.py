"""A plain, slow transcription of each family's spec loop, for comparison.

Independent of scatter_core's planners: it walks np.ndindex exactly as the
spec texts do and applies the update rule cell by cell. Used by the property
tests as the oracle for the vectorised fast path.
"""

from __future__ import annotations

import numpy as np

from scatter_core import OPERATORS

COMBINE = {
    "none": lambda a, b: b,
    "sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum, "sub": np.subtract,
    "mean": np.add,
}
BOOL_COMBINE = {"sum": np.logical_or, "prod": np.logical_and, "max": np.logical_or,
                "min": np.logical_and, "sub": np.logical_xor, "none": lambda a, b: b}


def neutral(canonical, dtype):
    if canonical in ("sum", "mean", "sub", "none"):
        return np.zeros((), dtype)[()]
    if canonical == "prod":
        return np.ones((), dtype)[()]
    if dtype == np.bool_:
        return np.bool_(canonical == "min")
    if dtype.kind == "f":
        return dtype.type(np.inf if canonical == "min" else -np.inf)
    info = np.iinfo(dtype)
    return info.max if canonical == "min" else info.min


def _norm(v, size):
    v = int(v)
    return v + size if v < 0 else v


def _cache_iterations(data, write_indices, updates, axis, mode="linear"):
    """TensorScatter's pseudocode: prefixes (batch first) outside, sequence positions inside."""
    if write_indices is None:
        write_indices = np.zeros(data.shape[:1], dtype=np.int64)
    for prefix in np.ndindex(*data.shape[:axis]):
        for s in range(updates.shape[axis]):
            p = int(write_indices[prefix[0]]) + s
            if mode == "circular":
                p %= data.shape[axis]
            yield prefix + (p,), prefix + (s,)


def _slice_iterations(data, updates, start, stop, step, axes=None):
    """SliceScatter's NumPy description: the element positions of out[slices], row-major."""
    slices = [slice(None)] * data.ndim
    for a, b, e, s in zip(axes if axes is not None else range(len(start)), start, stop, step):
        slices[a] = slice(b, e, s)
    positions = np.arange(data.size).reshape(data.shape)[tuple(slices)]
    for u in np.ndindex(*updates.shape):
        yield np.unravel_index(int(positions[u]), data.shape), u


def iterations(spec, data, indices, updates, axis, **attrs):
    """Yield (target, source) subscripts in the spec's loop order."""
    if spec.family == "cache":
        yield from _cache_iterations(data, indices, updates, axis, **attrs)
    elif spec.family == "slice":
        yield from _slice_iterations(data, updates, **attrs)
    elif spec.family == "elements":
        for idx in np.ndindex(*indices.shape):
            tgt = list(idx)
            tgt[axis] = _norm(indices[idx], data.shape[axis])
            yield tuple(tgt), idx
    elif spec.family == "nd":
        for idx in np.ndindex(*indices.shape[:-1]):
            tup = tuple(_norm(v, data.shape[j]) for j, v in enumerate(indices[idx]))
            yield tup, idx
    else:
        for j in np.ndindex(*indices.shape):
            tgt = (slice(None),) * axis + (_norm(indices[j], data.shape[axis]),)
            src = (slice(None),) * axis + j
            yield tgt, src


def reference(op, data, indices, updates, axis=None, reduction=None, use_init_val=True, **attrs):
    spec = OPERATORS[op]
    data = np.asarray(data)
    updates = np.asarray(updates).astype(data.dtype)
    indices = None if indices is None else np.asarray(indices)
    if axis is None and spec.attribute("axis") is not None:
        axis = spec.attribute("axis").default
    canonical = dict(spec.reductions)[reduction or spec.default_reduction]
    if axis is not None and axis < 0:
        axis += data.ndim
    if spec.family == "nd" and updates.shape != tuple(indices.shape[:-1]) + data.shape[indices.shape[-1]:]:
        updates = updates.reshape(tuple(indices.shape[:-1]) + data.shape[indices.shape[-1]:])
    f = (BOOL_COMBINE if data.dtype == np.bool_ else COMBINE)[canonical]
    acc = data.copy()
    count = np.zeros(data.shape, dtype=np.int64)
    touched = np.zeros(data.shape, dtype=bool)
    with np.errstate(all="ignore"):
        for tgt, src in iterations(spec, data, indices, updates, axis, **attrs):
            if not use_init_val:
                acc[tgt] = np.where(touched[tgt], acc[tgt], neutral(canonical, data.dtype))
            touched[tgt] = True
            acc[tgt] = f(acc[tgt], updates[src])
            count[tgt] += 1
        out = data.copy()
        if canonical == "mean":
            n = count + (1 if use_init_val else 0)
            if data.dtype.kind in "iu":
                mean = np.floor_divide(acc.astype(np.int64), np.maximum(n, 1)).astype(data.dtype)
            else:
                mean = (acc / np.maximum(n, 1).astype(data.dtype)).astype(data.dtype)
            out[touched] = mean[touched]
        else:
            out[touched] = acc[touched]
    return out
