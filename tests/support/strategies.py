"""Hypothesis strategies: valid random cases for any registered operator version.

The shapes, indices and the family's own attributes come from the family record's ``sample`` hook
(``sc.sample_case``, seeded by Hypothesis); the values are drawn by Hypothesis in any dtype.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import scatter_core as sc
from scatter_core import OPERATORS

DTYPES = ["int8", "int32", "int64", "uint8", "float16", "float32", "float64", "bool"]
# rank 1-4, index axes that may be empty, negative indices wherever the version does not forbid them
LIMITS = sc.Limits(max_rank=4, max_dim=4, empty=True, unstated_negatives=True)


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


@st.composite
def cases(draw, ops=None):
    """(op, data, indices, updates, attrs) valid for the chosen version."""
    op = draw(st.sampled_from(sorted(ops or OPERATORS)))
    spec = sc.get_spec(op)
    attrs = {}
    canonical = dict(spec.reductions)[spec.default_reduction]
    if spec.attribute("reduction") is not None:
        attrs["reduction"] = draw(st.sampled_from(spec.reduction_spellings))
        canonical = dict(spec.reductions)[attrs["reduction"]]
    if spec.attribute("use_init_val") is not None:
        attrs["use_init_val"] = draw(st.booleans())
    dtype = draw(st.sampled_from([d for d in DTYPES if not (d == "bool" and canonical == "mean")]))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    case = sc.sample_case(rng, op, dtype=dtype, attrs=attrs, limits=LIMITS)
    data, indices, updates = case.given()
    attrs = dict(case.attrs)
    if case.resolved.axis is not None and draw(st.booleans()):  # the axis counted from the end, too
        attrs["axis"] = case.resolved.axis - data.ndim
    return op, _values(draw, data.shape, dtype), indices, _values(draw, updates.shape, dtype), attrs
