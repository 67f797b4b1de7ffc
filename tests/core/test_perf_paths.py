"""The fast paths behind scatter() and trace() (see bench/bench_core.py) against plain versions.

* grouping writes by target: composite-key sort vs NumPy's stable argsort, and its fallback;
* counting writes per cell vs ``np.unique``;
* running reductions (rounds and accumulate) vs a loop;
* every per-step record of a trace (before, after, acc_*, counts, first_write) vs a plain
  loop over the steps, on the small property cases and on larger tensors with many writes.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scatter_core as sc
from scatter_core import OPERATORS, scatter, trace
from scatter_core import prepare
from scatter_core.fast.kernel import values_in_loop_order
from scatter_core.plan import IOTA_CACHE_ELEMENTS, iota, is_iota
from scatter_core.reductions import divide_mean
from scatter_core.fast.segmented import count_by_target, group_by_target, running, stable_sort_by_key
from tests.support.reference_loop import reference
from tests.support.strategies import cases
from tests.support.profiles import examples

SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# -- grouping and counting ------------------------------------------------------------------------
@pytest.mark.parametrize("radix", [True, False])
@pytest.mark.parametrize("n, top", [(0, 1), (1, 5), (2, 1), (1000, 7), (5000, 10**6), (3000, 2**40),
                                    (40_000, 60_000), (40_000, 13_000_000), (40_000, 2**32 - 1), (40_000, 2**33)])
def test_stable_sort_by_key_matches_stable_argsort(monkeypatch, radix, n, top):
    """Both sorts (the composite-key one and the 16-bit radix one the import probe may pick) are stable."""
    import scatter_core.fast.segmented as segmented
    monkeypatch.setattr(segmented, "RADIX_IS_FASTER", radix)
    monkeypatch.setattr(segmented, "RADIX_MIN", 2)
    keys = np.random.default_rng(n).integers(0, top, size=n, dtype=np.int64)
    order, sorted_keys = stable_sort_by_key(keys)
    want = np.argsort(keys, kind="stable")
    assert same_bits(order, want.astype(np.int64)) and same_bits(sorted_keys, keys[want])


def test_stable_sort_by_key_falls_back_when_composite_keys_overflow():
    keys = np.array([2**62, 3, 2**62, 0, 3, 2**62 - 1], dtype=np.int64)  # (2**62 + 1) * 6 > int64 max
    order, sorted_keys = stable_sort_by_key(keys)
    assert order.tolist() == [3, 1, 4, 5, 0, 2]
    assert sorted_keys.tolist() == [0, 3, 3, 2**62 - 1, 2**62, 2**62]


def test_group_by_target_fields():
    targets = np.array([5, 2, 5, 9, 2, 5], dtype=np.int64)
    g = group_by_target(targets)
    assert g.order.tolist() == [1, 4, 0, 2, 5, 3]
    assert g.targets.tolist() == [2, 2, 5, 5, 5, 9]
    assert g.start.tolist() == [0, 2, 5] and g.size.tolist() == [2, 3, 1] and g.last.tolist() == [1, 4, 5]
    assert g.gid.tolist() == [0, 0, 1, 1, 1, 2] and g.occ.tolist() == [0, 1, 0, 1, 2, 0]
    empty = group_by_target(np.zeros(0, dtype=np.int64))
    assert empty.order.size == empty.start.size == empty.gid.size == empty.occ.size == 0


@pytest.mark.parametrize("n", [0, 1, 17, 20000])
def test_count_by_target_matches_unique(n):
    targets = np.random.default_rng(n).integers(0, max(n // 3, 1), size=n, dtype=np.int64)
    cells, counts = count_by_target(targets)
    want_cells, want_counts = np.unique(targets, return_counts=True)
    assert same_bits(cells, want_cells) and same_bits(counts, want_counts)


def test_values_in_loop_order_gathers_only_when_needed():
    updates = np.arange(6.0).reshape(2, 3)
    in_order = values_in_loop_order(updates, np.arange(6).reshape(6, 1))
    assert np.shares_memory(in_order, updates) and in_order.tolist() == [0, 1, 2, 3, 4, 5]
    assert values_in_loop_order(updates, np.array([[3, 4], [0, 1]])).tolist() == [3, 4, 0, 1]
    assert values_in_loop_order(updates, np.zeros((0, 1), np.int64)).size == 0


def test_plans_share_one_read_only_iota_for_in_order_reads():
    a = iota(6)
    assert a.tolist() == [0, 1, 2, 3, 4, 5] and a.dtype == np.int64 and not a.flags.writeable
    assert iota(6) is a and is_iota(a.reshape(3, 2)) and not is_iota(np.arange(6))
    big = iota(IOTA_CACHE_ELEMENTS + 1)  # above the cap: made fresh, still read-only and right
    assert big is not iota(IOTA_CACHE_ELEMENTS + 1) and not big.flags.writeable and int(big[-1]) == IOTA_CACHE_ELEMENTS
    assert not is_iota(big)
    for op, indices, updates in [("ScatterElements-18", [[1, 0]], [[5.0, 6.0]]),
                                 ("ScatterND-18", [[1], [0]], [[5.0, 6.0], [7.0, 8.0]])]:
        p = prepare(op, np.zeros((2, 2)), np.array(indices), np.array(updates), {})
        assert is_iota(p.plan.sources) and not p.plan.sources.flags.writeable
        assert np.shares_memory(values_in_loop_order(p.updates, p.plan.sources), p.updates)


@pytest.mark.parametrize("fancy", [True, False])
@pytest.mark.parametrize("n, cells", [(1, 1), (50, 3), (200_000, 1000), (1_000_000, 7)])
def test_assign_in_order_lets_the_last_write_win(monkeypatch, fancy, n, cells):
    """The none kernel's assignment (and its np.put fallback) against last occurrences found by sorting."""
    import scatter_core.fast.kernel as engine
    monkeypatch.setattr(engine, "FANCY_ASSIGNMENT_IN_ORDER", fancy)
    rng = np.random.default_rng(n)
    targets = rng.integers(0, cells, size=n, dtype=np.int64)
    values = np.arange(n, dtype=np.float64)
    out = np.full(cells + 2, -1.0)
    engine.assign_in_order(out, targets, values)
    want = np.full(cells + 2, -1.0)
    reversed_first = np.unique(targets[::-1], return_index=True)
    want[reversed_first[0]] = n - 1 - reversed_first[1]  # the last position writing each cell
    assert same_bits(out, want)
    assert engine.FANCY_ASSIGNMENT_IN_ORDER == fancy


def test_nd_rows_fast_path_only_answers_for_in_range_tuples():
    from scatter_core.nd import rows_if_all_in_range
    dims = (4, 5, 6)
    tuples = np.array([[0, 0, 0], [3, 4, 5], [1, 2, 3]], dtype=np.int64)
    assert rows_if_all_in_range(tuples, dims).tolist() == [0, 3 * 30 + 4 * 6 + 5, 1 * 30 + 2 * 6 + 3]
    assert rows_if_all_in_range(tuples.astype(np.int32), dims).dtype == np.int64
    for bad in ([[0, 0, -1]], [[4, 0, 0]], [[0, 5, 0]]):
        assert rows_if_all_in_range(np.array(bad, dtype=np.int64), dims) is None
    assert rows_if_all_in_range(tuples.astype(np.uint64), dims) is None
    assert rows_if_all_in_range(np.zeros((3, 0), np.int64), ()) is None
    # negative tuples still come out normalised, through the full check
    assert scatter("ScatterND-18", np.zeros((2, 3)), [[-1, -3]], [5.0]).tolist() == [[0, 0, 0], [5, 0, 0]]


# -- running reductions ----------------------------------------------------------------------------
def loop_running(ufunc, start_values, values, start, size):
    out = np.empty_like(values)
    with np.errstate(all="ignore"):
        for g, (s, z) in enumerate(zip(start, size)):
            acc = start_values[g]
            for i in range(s, s + z):
                acc = ufunc(acc, values[i]) if ufunc is not None else values[i]
                out[i] = acc
    return out


@pytest.mark.parametrize("dtype, ufunc", [("float32", np.add), ("float16", np.multiply), ("int8", np.add),
                                          ("int64", np.maximum), ("bool", np.logical_xor), ("float64", None)])
def test_running_matches_a_loop_with_small_and_big_groups(dtype, ufunc):
    rng = np.random.default_rng(1)
    size = np.concatenate([rng.integers(1, 6, size=300), [400, 1], [250]])  # three groups above sqrt(n)
    rng.shuffle(size)
    start = np.concatenate([[0], np.cumsum(size)[:-1]])
    n = int(size.sum())
    if dtype == "bool":
        values, start_values = rng.random(n) < 0.5, rng.random(size.size) < 0.5
    else:
        values = (rng.standard_normal(n) * 50).astype(dtype)
        start_values = (rng.standard_normal(size.size) * 50).astype(dtype)
    got = running(ufunc, start_values, values, start, size)
    assert same_bits(got, loop_running(ufunc, start_values, values, start, size))


# -- trace records vs a plain loop over the steps -------------------------------------------------------
def loop_records(t) -> dict[str, np.ndarray]:
    """Every record of ``t``, recomputed by walking its plan one write at a time, in loop order."""
    dtype = t.data.dtype
    red = t.reduction
    ufunc = red.combiner(dtype)
    neutral = red.neutral_for(dtype)
    acc = {}  # cell -> (accumulator, contributions so far)
    shown = t.data.reshape(-1).copy()
    values = t.updates.reshape(-1)[t.plan.sources.reshape(-1)]
    names = ("before", "after", "acc_before", "acc_after", "counts", "first_write")
    rec = {k: [] for k in names}
    with np.errstate(all="ignore"):
        for cell, v in zip(t.plan.targets.reshape(-1), values):
            first = cell not in acc
            a0, c0 = (shown[cell] if t.use_init else dtype.type(neutral), int(t.use_init)) if first else acc[cell]
            a1 = v if ufunc is None else ufunc(a0, v)
            a1 = np.asarray(a1).astype(dtype)[()]
            c1 = c0 + 1
            after = divide_mean(np.array([a1]), np.array([c1]), dtype)[0] if red.divides else a1
            for k, x in zip(names, (shown[cell], after, a0, a1, c1, first)):
                rec[k].append(x)
            acc[cell] = (a1, c1)
            shown[cell] = after
    shape = t.plan.targets.shape
    out = {k: np.array(rec[k], dtype=dtype).reshape(shape) for k in names[:4]}
    out["counts"] = np.array(rec["counts"], dtype=np.int64).reshape(shape) if red.divides else None
    out["first_write"] = np.array(rec["first_write"], dtype=bool).reshape(shape)
    out["output"] = shown.reshape(t.data.shape)
    return out


def check_records(t):
    want = loop_records(t)
    for name, expected in want.items():
        got = getattr(t, name)
        if expected is None:
            assert got is None, name
        else:
            assert same_bits(got, expected), name
            assert not got.flags.writeable, name


@SETTINGS
@given(cases())
def test_trace_records_equal_a_loop_over_the_steps(case):
    op, data, indices, updates, attrs = case
    check_records(trace(sc.case(op, data, indices, updates, **attrs)))


@st.composite
def large_cases(draw):
    """Elements and ND cases on tensors of 10^4..10^5 cells with thousands of (often repeated) writes."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    dtype = draw(st.sampled_from(["float32", "int32", "float16"]))
    family = draw(st.sampled_from(["elements", "nd"]))
    if family == "elements":
        op = "ScatterElementsUpdate-12"
        reduction = draw(st.sampled_from(OPERATORS[op].reduction_spellings))
        data_shape = (draw(st.integers(100, 400)), 30, 8)
        ishape = (draw(st.integers(20, 60)), draw(st.integers(5, 20)), 8)
        indices = rng.integers(-data_shape[0], data_shape[0], size=ishape)
        attrs = {"axis": 0, "reduction": reduction, "use_init_val": draw(st.booleans())}
        upd_shape = ishape
    else:
        op = "ScatterND-18"
        reduction = draw(st.sampled_from(OPERATORS[op].reduction_spellings))
        data_shape = (draw(st.integers(10, 50)), 40, 25)
        steps = draw(st.integers(50, 600))
        indices = np.stack([rng.integers(0, data_shape[0], steps), rng.integers(0, 40, steps)], axis=-1)
        attrs = {"reduction": reduction}
        upd_shape = (steps, 25)
    data = (rng.standard_normal(data_shape) * 20).astype(dtype)
    updates = (rng.standard_normal(upd_shape) * 20).astype(dtype)
    return op, data, indices.astype(np.int64), updates, attrs


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(large_cases())
def test_large_traces_equal_the_spec_loop(case):
    op, data, indices, updates, attrs = case
    t = trace(sc.case(op, data, indices, updates, **attrs))
    want = reference(op, data, indices, updates, **attrs)
    assert same_bits(t.output, want)
    assert same_bits(scatter(op, data, indices, updates, **attrs), want)
    check_records(t)
    records = loop_records(t)
    for k in (1, len(t) // 2, len(t) - 1):
        assert same_bits(t.state_at(k), loop_state(t, records["after"], k)), k


def loop_state(t, after, k):
    """The output after the first k steps: each written cell shows its last write's value."""
    out = t.data.copy()
    flat = out.reshape(-1)
    for cell, value in zip(t.plan.targets[:k].reshape(-1), after[:k].reshape(-1)):
        flat[cell] = value
    return out


def test_state_at_end_and_start_are_fresh_copies():
    t = trace(sc.case("ScatterElements-18", np.zeros(5, np.float32), [1, 1, 3], np.float32([1, 2, 3]), reduction="add"))
    end, start = t.state_at(len(t)), t.state_at(0)
    assert same_bits(end, t.output) and same_bits(start, t.data)
    assert end.flags.writeable and not np.shares_memory(end, t.output)
    assert start.flags.writeable and not np.shares_memory(start, t.data)
