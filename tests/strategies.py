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


@st.composite
def cases(draw, ops=None):
    """(op, data, indices, updates, attrs) valid for the chosen version."""
    op = draw(st.sampled_from(sorted(ops or OPERATORS)))
    spec = OPERATORS[op]
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
