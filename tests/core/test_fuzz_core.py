"""Hostile inputs to scatter() and trace(): the only exception that may escape is ScatterError."""

from __future__ import annotations

import pytest
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scatter_core as sc
from scatter_core import OPERATORS, ScatterError, scatter, trace
from tests.support.profiles import examples

pytestmark = pytest.mark.slow  # tests/README.md: the fast loop leaves it out

FUZZ = settings(max_examples=examples(600), deadline=None, suppress_health_check=list(HealthCheck))

scalars = st.one_of(
    st.integers(-2**70, 2**70), st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
    st.complex_numbers(max_magnitude=10), st.text(max_size=3), st.none(), st.binary(max_size=3))


def nested(leaf, depth=3):
    return st.recursive(leaf, lambda inner: st.lists(inner, max_size=4), max_leaves=24)


arrays = st.one_of(
    nested(scalars),
    st.builds(lambda shape, dt: np.zeros(shape, dtype=dt),
              st.lists(st.integers(0, 4), max_size=4).map(tuple),
              st.sampled_from(["int8", "int32", "int64", "uint8", "uint64", "float16", "float32", "bool",
                               "complex64", "object", "U2", "datetime64[s]"])),
    st.builds(lambda v: np.array(v, dtype=object), st.lists(scalars, max_size=4)),
)
attr_values = st.one_of(st.none(), st.integers(-10, 10), st.text(max_size=6), st.booleans(),
                        st.sampled_from(["none", "add", "mul", "max", "min", "sum", "prod", "sub", "mean",
                                         "SUM", "bogus"]), st.lists(st.integers(-3, 3), max_size=3),
                        st.floats(allow_nan=True))


@st.composite
def hostile_calls(draw):
    op = draw(st.sampled_from(sorted(OPERATORS) + ["Nope-1", "", None]))
    attrs = draw(st.dictionaries(st.sampled_from(["axis", "reduction", "use_init_val", "bogus"]), attr_values,
                                 max_size=3))
    return op, draw(arrays), draw(arrays), draw(arrays), attrs


@FUZZ
@given(hostile_calls())
def test_scatter_and_trace_raise_only_scatter_error(call):
    op, data, indices, updates, attrs = call
    for fn in (scatter, lambda *pieces, **kw: trace(sc.case(*pieces, **kw))):
        try:
            result = fn(op, data, indices, updates, **attrs)
        except ScatterError as exc:
            assert str(exc) and (exc.argument is None or isinstance(exc.argument, str))
        else:
            out = result if isinstance(result, np.ndarray) else result.output
            assert out.shape == np.asarray(data).shape


@FUZZ
@given(st.sampled_from(sorted(OPERATORS)), st.data())
def test_valid_shapes_with_extreme_values_never_crash(op, data):
    """NaN, inf and extreme integers in otherwise valid inputs compute (or are refused) cleanly."""
    spec = OPERATORS[op]
    dtype = data.draw(st.sampled_from(["float16", "float32", "float64", "int8", "int64", "uint8", "bool"]))
    vals = data.draw(st.lists(st.sampled_from([0, 1, -1, 127, -128, 255, 2**62, -2**63, float("nan"),
                                                float("inf"), -float("inf"), 1e38, -0.0]),
                              min_size=4, max_size=4))
    with np.errstate(all="ignore"):
        d = np.array(vals, dtype=np.float64).astype(dtype)
    reduction = data.draw(st.sampled_from(spec.reduction_spellings))
    attrs = {"reduction": reduction} if spec.attribute("reduction") else {}
    if spec.attribute("axis"):
        attrs["axis"] = 0
    if spec.family == "nd":
        idx, upd = np.array([[1], [1], [3]]), d[:3]
    elif spec.family == "update":
        idx, upd = np.array([1, 1]), d[:2]
    else:
        idx, upd = np.array([1, 1, 3]), d[:3]
    try:
        t = trace(sc.case(op, d, idx, upd, **attrs))
    except ScatterError:
        return
    assert t.output.dtype == d.dtype
    assert t.output.tobytes() == scatter(op, d, idx, upd, **attrs).tobytes()
    for f in t.findings:
        assert f.message
