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


def iterations(spec, data, indices, updates, axis):
    """Yield (target, source) subscripts in the spec's loop order."""
    if spec.family == "elements":
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


def reference(op, data, indices, updates, axis=None, reduction=None, use_init_val=True):
    spec = OPERATORS[op]
    data = np.asarray(data)
    updates = np.asarray(updates).astype(data.dtype)
    indices = np.asarray(indices)
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
        for tgt, src in iterations(spec, data, indices, updates, axis):
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
