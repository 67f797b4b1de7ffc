"""Hypothesis strategies: valid random cases for any registered operator version."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from scatter_core import OPERATORS

DTYPES = ["int8", "int32", "int64", "uint8", "float16", "float32", "float64", "bool"]


def _values(draw, shape, dtype):
    dtype = np.dtype(dtype)
    n = int(np.prod(shape))
    if dtype == np.bool_:
        vals = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    elif dtype.kind == "f":
        vals = draw(st.lists(st.floats(-100, 100, width=16 if dtype == np.float16 else 32,
                                       allow_nan=False), min_size=n, max_size=n))
    else:
        info = np.iinfo(dtype)
        vals = draw(st.lists(st.integers(max(info.min, -200), min(info.max, 200)), min_size=n, max_size=n))
    return np.array(vals, dtype=dtype).reshape(shape)


def _index_values(draw, shape, sizes, negative_ok):
    sizes = np.broadcast_to(np.asarray(sizes), shape)
    out = np.zeros(shape, dtype=np.int64)
    for pos in np.ndindex(*shape):
        s = int(sizes[pos])
        out[pos] = draw(st.integers(-s if negative_ok else 0, s - 1))
    return out


def _cache_case(draw, op, spec, dtype):
    """TensorScatter: a cache (batch first, rank 2-4), an update of sequence length <= the cache's, write indices
    that fit (linear) or any non-negative ones (circular), sometimes left out."""
    rank = draw(st.integers(2, 4))
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)))
    axis = draw(st.integers(1, rank - 1))
    max_len = shape[axis]
    seq = draw(st.integers(0, max_len))
    mode = draw(st.sampled_from(spec.attribute("mode").choices))
    top = max_len - seq if mode == "linear" else 3 * max_len
    write = np.array(draw(st.lists(st.integers(0, top), min_size=shape[0], max_size=shape[0])), dtype=np.int64)
    update_shape = shape[:axis] + (seq,) + shape[axis + 1:]
    attrs = {"axis": draw(st.sampled_from([axis, axis - rank])), "mode": mode}
    indices = None if not write.any() and draw(st.booleans()) else write  # left out: zeros
    return op, _values(draw, shape, dtype), indices, _values(draw, update_shape, dtype), attrs


def _slice_case(draw, op, spec, dtype):
    """SliceScatter: start/stop/step on some axes (negative, clamped and backward bounds included), updates of
    the slice's shape."""
    rank = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=rank, max_size=rank)))
    with_axes = draw(st.booleans())
    n = draw(st.integers(0, rank))
    axes = draw(st.permutations(range(rank)))[:n] if with_axes else list(range(n))
    bound = st.integers(-8, 8)
    start = [draw(bound) for _ in range(n)]
    stop = [draw(bound) for _ in range(n)]
    step = [draw(st.sampled_from([-3, -2, -1, 1, 2, 3])) for _ in range(n)]
    ranges = [range(d) for d in shape]
    for a, b, e, s in zip(axes, start, stop, step):
        ranges[a] = range(*slice(b, e, s).indices(shape[a]))
    attrs = {"start": start, "stop": stop, "step": step}
    if with_axes:
        attrs["axes"] = [a - rank if draw(st.booleans()) else a for a in axes]
    updates = _values(draw, tuple(len(r) for r in ranges), dtype)
    return op, _values(draw, shape, dtype), None, updates, attrs


# Families whose cases are drawn by a function of their own (the first three are drawn inline below).
FAMILY_CASES = {"cache": _cache_case, "slice": _slice_case}


@st.composite
def cases(draw, ops=None):
    """(op, data, indices, updates, attrs) valid for the chosen version."""
    op = draw(st.sampled_from(sorted(ops or OPERATORS)))
    spec = OPERATORS[op]
    if spec.family in FAMILY_CASES:
        return FAMILY_CASES[spec.family](draw, op, spec, draw(st.sampled_from(DTYPES)))
    reduction = draw(st.sampled_from(spec.reduction_spellings))
    canonical = dict(spec.reductions)[reduction]
    dtypes = [d for d in DTYPES if not (d == "bool" and canonical == "mean")]
    dtype = draw(st.sampled_from(dtypes))
    rank = draw(st.integers(1, 4))
    dims = st.integers(1, 4) if rank < 4 else st.integers(1, 3)
    data_shape = tuple(draw(st.lists(dims, min_size=rank, max_size=rank)))
    data = _values(draw, data_shape, dtype)
    negative_ok = spec.index_rule.negative != "forbidden"
    index_dtype = "int64" if "int64" in spec.index_rule.dtypes else spec.index_rule.dtypes[0]
    attrs = {}
    if spec.attribute("reduction") is not None:
        attrs["reduction"] = reduction
    if spec.attribute("use_init_val") is not None:
        attrs["use_init_val"] = draw(st.booleans())
    if spec.family == "elements":
        axis = draw(st.integers(-rank, rank - 1))
        a = axis % rank
        ishape = []
        for d in range(rank):
            if d == a:
                top = data_shape[d] + 2 if spec.axis_dim_may_exceed else data_shape[d]
                ishape.append(draw(st.integers(0, top)))
            else:
                ishape.append(draw(st.integers(1, data_shape[d])))
        ishape = tuple(ishape)
        indices = _index_values(draw, ishape, data_shape[a], negative_ok)
        updates = _values(draw, ishape, dtype)
        attrs["axis"] = axis
    elif spec.family == "nd":
        k = draw(st.integers(1, rank))
        lead = tuple(draw(st.lists(st.integers(0, 3), min_size=0, max_size=2)))
        indices = _index_values(draw, lead + (k,), np.asarray(data_shape[:k]), negative_ok)
        updates = _values(draw, lead + data_shape[k:], dtype)
    else:
        axis = draw(st.integers(-rank, rank - 1))
        a = axis % rank
        ishape = tuple(draw(st.lists(st.integers(0, 3), min_size=0, max_size=2)))
        indices = _index_values(draw, ishape, data_shape[a], negative_ok)
        updates = _values(draw, data_shape[:a] + ishape + data_shape[a + 1:], dtype)
        attrs["axis"] = axis
    return op, data, indices.astype(index_dtype), updates, attrs
