"""Property tests: the fast path equals the plain spec loop; the trace invariants hold."""

from __future__ import annotations

import pytest
import numpy as np
from hypothesis import HealthCheck, given, settings

import scatter_core as sc
from scatter_core import scatter, trace
from tests.support.reference_loop import reference
from tests.support.strategies import cases
from tests.support.profiles import examples

pytestmark = pytest.mark.slow  # tests/README.md: the fast loop leaves it out

SETTINGS = settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@SETTINGS
@given(cases())
def test_fast_path_equals_spec_loop(case):
    op, data, indices, updates, attrs = case
    got = scatter(op, data, indices, updates, **attrs)
    want = reference(op, data, indices, updates, **attrs)
    assert same_bits(got, want), (op, attrs, got, want)


@SETTINGS
@given(cases())
def test_trace_invariants(case):
    op, data, indices, updates, attrs = case
    t = trace(sc.case(op, data, indices, updates, **attrs))
    out = scatter(op, data, indices, updates, **attrs)
    assert same_bits(t.output, out)
    n = len(t)
    assert n == t.plan.n_steps
    assert same_bits(t.state_at(0), np.asarray(data))
    assert same_bits(t.state_at(n), out)
    prev = t.state_at(0)
    for k in range(n):
        cur = t.state_at(k + 1)
        cells = tuple(t.target_cells(k).T)
        assert same_bits(prev[cells], t.before[k])
        assert same_bits(cur[cells], t.after[k])
        changed = np.zeros(prev.shape, dtype=bool)
        changed[cells] = True
        assert same_bits(prev[~changed], cur[~changed])
        prev = cur
    assert isinstance(t.describe(0) if n else "", str)
