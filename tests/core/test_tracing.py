"""trace(): step records, states, descriptions and findings on known cases."""

import numpy as np
import pytest

import scatter_core as sc
from scatter_core import ScatterError, trace


def kinds(t):
    return [f.kind for f in t.findings]


def test_step_records_for_the_openvino_sum_example():
    t = trace(sc.case("ScatterElementsUpdate-12", [2, 3, 4, 6], [1, 0, 0, -2, -1, 2], [10, 20, 30, 40, 70, 60],
                      axis=0, reduction="sum"))
    assert len(t) == 6
    assert t.output.tolist() == [52, 13, 104, 76]
    assert t.before[:, 0].tolist() == [3, 2, 22, 4, 6, 44]
    assert t.after[:, 0].tolist() == [13, 22, 52, 44, 76, 104]
    assert t.describe(3) == ("step 4 of 6: updates[3] = 40 goes to output[2] (indices[3] = -2 normalised "
                             "to 2); sum: 4 + 40 = 44")
    assert [t.state_at(k).tolist() for k in (0, 3, 6)] == [[2, 3, 4, 6], [52, 13, 4, 6], [52, 13, 104, 76]]
    table = t.step_table()
    assert table["step"] == [1, 2, 3, 4, 5, 6] and table["after"][5] == "104"
    dup = t.findings[0]
    assert dup.kind == "duplicate-index" and dup.severity == "info"
    assert dup.cells == ((0,), (2,)) and dup.update_positions == (((1,), (2,)), ((3,), (5,)))


def test_state_at_bounds_and_fresh_arrays():
    t = trace(sc.case("ScatterND-18", [1, 2], [[0]], [5]))
    with pytest.raises(IndexError):
        t.state_at(2)
    s = t.state_at(1)
    s[0] = 99
    assert t.state_at(1).tolist() == [5, 2] and t.output.tolist() == [5, 2]
    assert not t.output.flags.writeable and not t.after.flags.writeable


def test_use_init_val_false_steps_start_from_neutral():
    t = trace(sc.case("ScatterElementsUpdate-12", [2, 3, 4, 6], [1, 0, 0, 2, 3, 2], [10, 20, 30, 40, 70, 60],
                      axis=0, reduction="sum", use_init_val=False))
    assert t.output.tolist() == [50, 10, 100, 70]
    assert t.before[0, 0] == 3 and t.acc_before[0, 0] == 0  # shown 3, reduced from 0
    assert "starts from 0 instead of 3" in t.describe(0)


def test_mean_steps_show_the_running_mean():
    t = trace(sc.case("ScatterElementsUpdate-12", np.int32([0, 0]), [0, 0], np.int32([-1, -2]), axis=0,
                      reduction="mean", use_init_val=False))
    assert t.after[:, 0].tolist() == [-1, -2]  # -1/1, then floor(-3/2)
    assert t.output.tolist() == [-2, 0]
    assert "runtime-divergence" in kinds(t)
    msg = [f for f in t.findings if f.kind == "runtime-divergence"][0].message
    assert "floor -2, truncation -1" in msg and "CPU" in msg


def test_none_with_duplicates_reports_both_orders():
    t = trace(sc.case("ScatterND-16", [1, 2, 3, 4], [[0], [2], [0]], [10, 20, 30]))
    assert kinds(t)[:3] == ["duplicate-index", "order-dependent", "spec-disallows-duplicates"]
    order = t.findings[1]
    assert order.details["first_wins"].tolist() == [10] and order.details["last_wins"].tolist() == [30]
    assert t.output_in_order("reversed").tolist() == [10, 2, 20, 4]
    assert t.output.tolist() == [30, 2, 20, 4]


def test_equal_duplicate_values_are_not_order_dependent():
    t = trace(sc.case("ScatterElements-11", [0, 0], [1, 1], [5, 5]))
    order = [f for f in t.findings if f.kind == "order-dependent"][0]
    assert order.severity == "info" and order.details["n_differ"] == 0
    assert "spec-disallows-duplicates" not in kinds(t)  # ScatterElements-11's text is silent


def test_float_order_sensitivity_is_measured():
    t = trace(sc.case("ScatterElementsUpdate-12", np.float32([1e8, 0]), [0, 0, 0, 0], np.float32([1, 1, -1e8, 3]),
                      axis=0, reduction="sum"))
    f = [f for f in t.findings if f.kind == "float-order-sensitive"][0]
    assert t.output[0] == np.float32(3)  # ((1e8 + 1) + 1) - 1e8 + 3 in float32
    assert f.details["max_abs_diff"] > 0 and f.cells == ((0,),)


def test_integer_sums_are_not_order_sensitive():
    t = trace(sc.case("ScatterElementsUpdate-12", [1, 2], [0, 0, 0], [5, 6, 7], axis=0, reduction="sum"))
    assert "float-order-sensitive" not in kinds(t)


def test_nd_slice_steps():
    data = np.zeros((3, 2, 2), np.int64)
    t = trace(sc.case("ScatterND-18", data, [[2], [0]], np.arange(8).reshape(2, 2, 2), reduction="add"))
    assert len(t) == 2 and t.slice_size == 4
    assert t.target_cells(0).tolist() == [[2, 0, 0], [2, 0, 1], [2, 1, 0], [2, 1, 1]]
    assert t.describe(0).startswith("step 1 of 2: updates[0, :, :] (a 2×2 slice) goes to output[2, :, :] "
                                    "(indices[0] = [2])")


def test_k_zero_is_reported():
    t = trace(sc.case("ScatterNDUpdate-15", np.zeros(2), np.zeros((1, 0), np.int64), np.ones((1, 2))))
    assert t.output.tolist() == [1, 1]
    f = [f for f in t.findings if f.kind == "k-zero"][0]
    assert "CPU plugin" in f.message and "does nothing" in f.message


def test_scatter9_negative_indices_note_spec_silence():
    t = trace(sc.case("Scatter-9", [0, 0, 0], [-1], [4]))
    assert t.output.tolist() == [0, 0, 4]
    assert "spec-silent" in kinds(t)


def test_int64_outside_int32_is_flagged_for_openvino():
    t = trace(sc.case("ScatterNDUpdate-15", np.int64([2**40, 0]), [[1]], np.int64([3])))
    assert any(f.details.get("topic") == "int64" for f in t.findings)
    t = trace(sc.case("ScatterND-18", np.int64([2**40, 0]), [[1]], np.int64([3])))
    assert not any(f.details.get("topic") == "int64" for f in t.findings)


def test_empty_indices_give_an_empty_trace():
    t = trace(sc.case("ScatterElements-18", np.arange(3.0), np.zeros(0, np.int64), np.zeros(0)))
    assert len(t) == 0 and t.output.tolist() == [0, 1, 2] and t.findings == []


def test_trace_raises_the_same_errors():
    with pytest.raises(ScatterError):
        trace(sc.case("ScatterElements-18", [1, 2], [2], [1]))


def test_large_duplicate_groups_use_the_accumulate_path():
    rng = np.random.default_rng(0)
    vals = rng.standard_normal(5000).astype(np.float32)
    idx = np.zeros(5000, np.int64)
    idx[::7] = 1
    t = trace(sc.case("ScatterElements-18", np.float32([0.5, 0.25]), idx, vals, reduction="add"))
    expect = np.float32([0.5, 0.25])
    for i, v in zip(idx, vals):
        expect[i] = np.float32(expect[i] + v)
    assert t.output.tobytes() == expect.tobytes()
    assert t.state_at(2500).tobytes() != t.output.tobytes()


def test_trace_does_not_alias_the_callers_indices():
    for op, idx in (("ScatterND-18", np.array([[0], [2]])), ("ScatterElements-18", np.array([0, 2])),
                    ("ScatterUpdate-3", np.array([0, 2]))):
        attrs = {"axis": 0} if op != "ScatterND-18" else {}
        t = trace(sc.case(op, np.zeros(4), idx, np.ones(2), **attrs))
        label = t.index_label(1)
        idx[...] = 3
        assert t.index_label(1) == label and t.plan.index_norm.max() == 2


# -- the per-cell view and the NaN finding ------------------------------------------------------------------
def test_cell_writes_groups_writes_by_cell_in_loop_order():
    t = sc.trace(sc.case("ScatterElements-18", [0, 0, 0, 0], [2, 0, 2, 2], [1, 2, 3, 4], axis=0, reduction="add"))
    w = t.cell_writes
    assert w.cells.tolist() == [0, 2] and w.counts.tolist() == [1, 3]
    assert w.loop_positions[w.first[1]:w.first[1] + 3].tolist() == [0, 2, 3]
    assert w.values.tolist() == [2, 1, 3, 4] and w.last.tolist() == [0, 3] and w.duplicated().tolist() == [1]
    assert not w.values.flags.writeable
    cells, acc, count = t.mean_parts()
    assert cells.tolist() == [0, 2] and acc.tolist() == [2, 8] and count.tolist() == [2, 4]


@pytest.mark.parametrize("data,updates,use_init,cells", [
    ([5.0, 1.0, 2.0], [np.nan, 3.0, 1.0], True, ((0,),)),        # a NaN update
    ([5.0, 1.0, np.nan], [2.0, 3.0, 1.0], True, ((2,),)),         # a NaN in data that takes part
    ([5.0, 1.0, np.nan], [2.0, 3.0, 1.0], False, None),           # use_init_val=false: data takes no part
])
def test_nan_in_max_min_finding(data, updates, use_init, cells):
    t = sc.trace(sc.case("ScatterElementsUpdate-12", np.float32(data), [0, 0, 2], np.float32(updates), axis=0,
                         reduction="max", use_init_val=use_init))
    found = [f for f in t.findings if f.kind == "nan-in-max-min"]
    if cells is None:
        assert found == []
        return
    (f,) = found
    assert f.cells == cells and f.severity == "warning" and "Neither spec says" in f.message
    assert "Scatter Explorer keeps the NaN" in f.message
    for note in sc.OPERATORS["ScatterElementsUpdate-12"].notes_on("nan-max-min"):
        assert note.runtimes in f.message


def test_nan_finding_only_for_reductions_without_a_nan_rule():
    t = sc.trace(sc.case("ScatterElementsUpdate-12", np.float32([5, 1]), [0], np.float32([np.nan]), axis=0, reduction="sum"))
    assert "nan-in-max-min" not in [f.kind for f in t.findings]
    assert [r.name for r in sc.REDUCTIONS.values() if r.nan_undefined] == ["max", "min"]
