"""TensorScatter-24 (scatter_core/tensor_scatter.py): the KV-cache write, its steps and its rules."""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scatter_core as sc
import spec_examples as se
from scatter_core import ScatterError
from scatter_core.tensor_scatter import cache_positions
from tests.support.reference_loop import reference
from tests.support.strategies import cases
from tests.support.profiles import examples

OP = "TensorScatter-24"
CACHE = np.arange(16, dtype=np.float32).reshape(2, 4, 2)  # batch 2, max_sequence_length 4, 2 values
UPDATE = -np.arange(1, 9, dtype=np.float32).reshape(2, 2, 2)  # sequence_length 2


def test_calling_convention_and_defaults():
    out = sc.scatter(OP, CACHE, np.array([1, 2]), UPDATE, axis=-2, mode="linear")
    assert out.tolist() == [[[0, 1], [-1, -2], [-3, -4], [6, 7]], [[8, 9], [10, 11], [-5, -6], [-7, -8]]]
    # axis -2 and linear are the defaults; write_indices None means zeros
    assert np.array_equal(sc.scatter(OP, CACHE, np.array([1, 2]), UPDATE), out)
    assert np.array_equal(sc.scatter(OP, CACHE, None, UPDATE), sc.scatter(OP, CACHE, np.zeros(2, np.int64), UPDATE))
    assert sc.scatter(OP, CACHE, None, UPDATE)[:, :2].tolist() == UPDATE.tolist()


def test_circular_wraps_to_position_zero():
    out = sc.scatter(OP, CACHE, np.array([3, 9]), UPDATE, mode="circular")
    # entry 0: positions 3 and (3 + 1) mod 4 = 0; entry 1: 9 mod 4 = 1, then 2
    assert out[0].tolist() == [[-3, -4], [2, 3], [4, 5], [-1, -2]]
    assert out[1].tolist() == [[8, 9], [-5, -6], [-7, -8], [14, 15]]


def test_steps_follow_the_spec_loop_and_show_the_wrap():
    t = sc.trace(sc.case(OP, CACHE, np.array([3, 0]), UPDATE, mode="circular"))
    assert len(t) == 4 and t.plan.loop_shape == (2, 2)  # (prefix = batch, sequence position)
    # step (b, s) writes the row update[b, s, :] to present_cache[b, p, :]
    assert [tuple(t.target_cells(i)[0][:2]) for i in range(4)] == [(0, 3), (0, 0), (1, 0), (1, 1)]
    assert [tuple(t.source_cells(i)[0][:2]) for i in range(4)] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert t.slice_size == 2 and t.target_label(1) == "output[0, 0, :]"
    assert "(3 + 1) mod 4 = 0, wrapped around" in t.describe(1)
    assert "write_indices[0] = 3, sequence position 0: cache position 3 + 0 = 3" in t.describe(0)
    assert [tuple(c) for c in t.index_cells(2)] == [(1,)]  # step 3 reads write_indices[1]
    assert [f.kind for f in t.findings] == ["circular-wrap"]
    assert np.array_equal(t.state_at(1)[0, 3], [-1, -2]) and np.array_equal(t.state_at(1)[0, 0], [0, 1])
    assert np.array_equal(t.state_at(2)[0, 0], [-3, -4])  # the second step wrapped to position 0
    assert [t.wrapped(i) for i in range(4)] == [False, True, False, False]  # what the views draw the arrow from


def test_a_write_index_past_the_end_wraps_from_its_first_step_and_linear_mode_never_wraps():
    t = sc.trace(sc.case(OP, CACHE, np.array([5, 1]), UPDATE, mode="circular"))  # 5 mod 4 = 1
    assert [t.wrapped(i) for i in range(4)] == [True, True, False, False]
    assert "(5 + 0) mod 4 = 1, wrapped around" in t.describe(0)
    linear = sc.trace(sc.case(OP, CACHE, np.array([1, 2]), UPDATE, mode="linear"))
    assert linear.plan.wrapped is None and not any(linear.wrapped(i) for i in range(len(linear)))


def test_prefix_axes_before_the_sequence_axis_loop_outside():
    cache = np.zeros((2, 3, 4, 1), np.int32)  # batch, heads, sequence, values; axis 2
    update = np.arange(2 * 3 * 2, dtype=np.int32).reshape(2, 3, 2, 1) + 1
    t = sc.trace(sc.case(OP, cache, np.array([1, 2]), update))
    assert t.plan.loop_shape == (2, 3, 2)
    # every head of batch entry b starts at write_indices[b]
    assert [tuple(t.target_cells(i)[0][:3]) for i in range(4)] == [(0, 0, 1), (0, 0, 2), (0, 1, 1), (0, 1, 2)]
    assert [int(t.plan.index_cells[i][0]) for i in range(12)] == [0] * 6 + [1] * 6


def test_write_index_arithmetic_never_overflows():
    big = np.array([np.iinfo(np.int64).max], np.int64)
    pos = cache_positions(big, np.array([0]), 3, 5, "circular")
    assert pos.tolist() == [[(big[0] % 5 + s) % 5 for s in range(3)]]
    with pytest.raises(ScatterError, match="would run past the end"):
        sc.scatter(OP, np.zeros((1, 5)), big, np.zeros((1, 3)), axis=1)


@pytest.mark.parametrize("args,kwargs,argument,rule,words", [
    ((CACHE, np.array([3, 0]), UPDATE), {}, "write_indices", "index-range", "3 + 2 > 4"),
    ((CACHE, np.array([0, 0]), np.zeros((2, 5, 2), np.float32)), {}, "update", "sequence-length", "at most 4"),
    ((CACHE, np.array([0, 0]), UPDATE[:1]), {"axis": 0}, "axis", "batch-axis", "batch axis"),
    ((CACHE, np.array([0, 0]), UPDATE), {"axis": -3}, "axis", "batch-axis", "batch axis"),
    ((CACHE, np.array([0, 0, 0]), UPDATE), {}, "write_indices", "shape", "one write index per batch entry"),
    ((CACHE, np.array([[0], [0]]), UPDATE), {}, "write_indices", "shape", "shape (2,)"),
    ((CACHE, np.array([-1, 0]), UPDATE), {"mode": "circular"}, "write_indices", "negative-index", "negative"),
    ((CACHE, np.array([0, 0], np.int32), UPDATE), {}, "write_indices", "index-dtype", "allows only int64"),
    ((CACHE, np.array([0, 0]), np.zeros((2, 2, 3), np.float32)), {}, "update", "shape", "update.shape[2] = 3"),
    ((CACHE, np.array([0, 0]), np.zeros((2, 2), np.float32)), {}, "update", "rank", "rank"),
    ((CACHE, np.array([0, 0]), UPDATE), {"mode": "Linear"}, "mode", "mode", "allowed: 'linear', 'circular'"),
    ((CACHE, np.array([0, 0]), UPDATE), {"axis": 3}, "axis", "axis-range", "out of range"),
    ((np.zeros(4, np.float32), np.array([0]), np.zeros(2, np.float32)), {}, "axis", "axis-range", "rank 1"),
    ((CACHE, np.array([7, 0]), np.zeros((2, 0, 2), np.float32)), {}, "write_indices", "index-range", "7 + 0 > 4"),
])
def test_invalid_inputs_name_the_input_and_the_rule(args, kwargs, argument, rule, words):
    with pytest.raises(ScatterError, match=re.escape(words)) as info:
        sc.scatter(OP, *args, **kwargs)
    assert (info.value.argument, info.value.rule) == (argument, rule)
    with pytest.raises(ScatterError):  # trace and check_expected check the same rules
        sc.trace(sc.case(OP, *args, **kwargs))
    with pytest.raises(ScatterError):
        sc.check_expected(sc.case(OP, *args, **kwargs), args[0])


def test_check_expected_takes_the_same_arguments():
    good = sc.scatter(OP, CACHE, None, UPDATE, axis=-2, mode="linear")
    assert sc.check_expected(sc.case(OP, CACHE, None, UPDATE, axis=-2, mode="linear"), good).matches
    bad = good.copy()
    bad[1, 3] = 99
    report = sc.check_expected(sc.case(OP, CACHE, None, UPDATE, axis=-2, mode="linear"), bad)
    assert not report.matches and report.mismatches[:2] == [(1, 3, 0), (1, 3, 1)]


def test_examples_reproduce_their_printed_outputs():
    examples = se.examples_for(OP)
    assert {ex.label for ex in examples} >= {"export_tensorscatter", "export_tensorscatter_circular",
                                              "export_tensorscatter_3d"}
    for ex in examples:
        assert np.array_equal(sc.scatter(OP, ex.data, ex.indices, ex.updates, **ex.attrs), ex.expected), ex.id


def test_record_declares_the_inputs_and_attributes_the_ui_renders():
    spec = sc.OPERATORS[OP]
    assert [(i.role, i.name) for i in spec.inputs] == [
        ("data", "past_cache"), ("updates", "update"), ("indices", "write_indices")]
    assert sc.families.family_of(spec).indices == "optional"
    mode = spec.attribute("mode")
    assert (mode.kind, mode.default, mode.choices) == ("str", "linear", ("linear", "circular"))
    assert (spec.attribute("axis").kind, spec.attribute("axis").default) == ("int", -2)


@settings(max_examples=examples(150), deadline=None)
@given(cases(ops=[OP]))
def test_random_cases_match_the_pseudocode_loop(case):
    op, data, indices, updates, attrs = case
    assert np.array_equal(sc.scatter(op, data, indices, updates, **attrs),
                          reference(op, data, indices, updates, **attrs), equal_nan=data.dtype.kind == "f")
    t = sc.trace(sc.case(op, data, indices, updates, **attrs))
    axis = attrs["axis"] % data.ndim
    assert len(t) == int(np.prod(data.shape[:axis])) * updates.shape[axis]
    assert t.findings == [] or {f.kind for f in t.findings} == {"circular-wrap"}
    assert len(np.unique(t.plan.targets)) == t.plan.targets.size  # no cell is written twice


@given(st.integers(1, 6), st.integers(0, 30))
def test_circular_positions_are_the_pseudocode_modulo(max_len, w):
    seq = min(max_len, 4)
    pos = cache_positions(np.array([w]), np.array([0]), seq, max_len, "circular")
    assert pos.tolist() == [[(w + s) % max_len for s in range(seq)]]
