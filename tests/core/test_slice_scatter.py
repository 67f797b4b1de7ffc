"""SliceScatter-15 (scatter_core/slice_scatter.py): Slice-8 bounds, steps in updates' order, and its rules."""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scatter_core as sc
import spec_examples as se
from scatter_core import ScatterError
from scatter_core.slice_scatter import positions
from tests.support.reference_loop import reference
from tests.support.strategies import cases
from tests.support.profiles import examples

OP = "SliceScatter-15"
D35 = np.arange(15, dtype=np.float32).reshape(3, 5)


def test_calling_convention():
    out = sc.scatter(OP, D35, None, np.array([[50, 60], [70, 80]], np.float32), start=[0, 1], stop=[3, 5],
                     step=[2, 2], axes=[0, 1])
    assert out.tolist() == [[0, 50, 2, 60, 4], [5, 6, 7, 8, 9], [10, 70, 12, 80, 14]]
    # axes left out: the leading axes in order
    assert np.array_equal(out, sc.scatter(OP, D35, None, np.array([[50, 60], [70, 80]], np.float32),
                                          start=[0, 1], stop=[3, 5], step=[2, 2]))
    # the bounds may be given as 1-D integer arrays, of any integer type
    assert np.array_equal(out, sc.scatter(OP, D35, None, np.array([[50, 60], [70, 80]], np.float32),
                                          start=np.array([0, 1], np.int32), stop=np.array([3, 5]),
                                          step=np.array([2, 2], np.int8)))


def test_negative_step_and_clamped_bounds_follow_python_slicing():
    upd = np.arange(9, dtype=np.float32).reshape(3, 3) + 100
    out = sc.scatter(OP, D35, None, upd, start=[100], stop=[-100], step=[-2], axes=[-1])
    want = D35.copy()
    want[:, 100:-100:-2] = upd
    assert np.array_equal(out, want)
    assert out[0].tolist() == [102, 1, 101, 3, 100]


def test_steps_run_in_updates_row_major_order_over_the_strided_slice():
    upd = np.array([[50, 60], [70, 80]], np.float32)
    t = sc.trace(sc.case(OP, D35, None, upd, start=[0, 1], stop=[3, 5], step=[2, 2]))
    assert len(t) == 4 and t.plan.loop_shape == (2, 2) and t.slice_size == 1
    assert [tuple(t.target_cells(i)[0]) for i in range(4)] == [(0, 1), (0, 3), (2, 1), (2, 3)]
    assert [tuple(t.source_cells(i)[0]) for i in range(4)] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert t.describe(3) == ("step 4 of 4: updates[1, 1] = 80 goes to output[2, 3] (slice element [1, 1]; "
                             "axis 0: 0 + 1×2 = 2; axis 1: 1 + 1×2 = 3); none: 13 is replaced by 80")
    assert t.indices.shape == (0,) and t.plan.index_cells.shape == (4, 0)  # no indices input
    assert t.findings == []
    assert t.attrs == {"start": (0, 1), "stop": (3, 5), "step": (2, 2), "axes": None}  # axes left out


def test_backward_step_is_described_with_its_sign_and_clamping_is_a_finding():
    upd = np.arange(9, dtype=np.float32).reshape(3, 3) + 100
    t = sc.trace(sc.case(OP, D35, None, upd, start=[100], stop=[-100], step=[-2], axes=[-1]))
    assert "axis 1: 4 + 2×(-2) = 0" in t.describe(2)
    (finding,) = t.findings
    assert finding.kind == "clamped-bounds" and "100:-100:-2 selects positions [4, 2, 0]" in finding.message


def test_empty_slice_changes_nothing():
    t = sc.trace(sc.case(OP, D35, None, np.zeros((3, 0), np.float32), start=[3], stop=[1], step=[1], axes=[1]))
    assert len(t) == 0 and np.array_equal(t.output, D35)
    assert [f.kind for f in t.findings] == ["empty-slice"]


@pytest.mark.parametrize("kwargs,argument,rule,words", [
    (dict(start=[0], stop=[5], step=[0], axes=[1]), "step", "step-zero", "step[0] = 0"),
    (dict(start=[0, 0], stop=[5, 5], step=[1, 1], axes=[1, -1]), "axes", "unique-axes", "names axis 1 again"),
    (dict(start=[0, 0], stop=[5], step=[1]), "start", "lengths", "start 2, stop 1, step 1"),
    (dict(start=[0], stop=[5], step=[1], axes=[2]), "axes", "axis-range", "allowed -2..1"),
    (dict(start=[0, 0, 0], stop=[1, 1, 1], step=[1, 1, 1]), "start", "lengths", "rank 2"),
    (dict(start=[0], stop=[5], step=[2], axes=[1]), "updates", "shape", "has shape (3, 3)"),
    (dict(stop=[5], step=[1]), "start", "required", "start is a required input"),
    (dict(start=0, stop=[5], step=[1]), "start", "ints", "a list of integers"),
    (dict(start=[0.5], stop=[5], step=[1]), "start", "ints", "start = [0.5] must be a list of integers"),
    (dict(start=[0], stop=[5], step=[1], mode="linear"), "mode", "unknown-attribute", "not an attribute"),
])
def test_invalid_inputs_name_the_input_and_the_rule(kwargs, argument, rule, words):
    upd = np.zeros((3, 2), np.float32)
    with pytest.raises(ScatterError, match=re.escape(words)) as info:
        sc.scatter(OP, D35, None, upd, **kwargs)
    assert (info.value.argument, info.value.rule) == (argument, rule)
    with pytest.raises(ScatterError):
        sc.trace(sc.case(OP, D35, None, upd, **kwargs))
    with pytest.raises(ScatterError):
        sc.check_expected(sc.case(OP, D35, None, upd, **kwargs), D35)


def test_an_indices_tensor_is_refused_with_the_reason():
    with pytest.raises(ScatterError, match=re.escape("reads no indices tensor (pass None)")) as info:
        sc.scatter(OP, D35, [0], np.zeros((1, 5), np.float32), start=[0], stop=[1], step=[1])
    assert (info.value.argument, info.value.rule) == ("indices", "unused")


def test_check_expected_takes_the_same_arguments():
    upd = np.array([[50, 60], [70, 80]], np.float32)
    attrs = dict(start=[0, 1], stop=[3, 5], step=[2, 2])
    good = sc.scatter(OP, D35, None, upd, **attrs)
    assert sc.check_expected(sc.case(OP, D35, None, upd, **attrs), good).matches
    report = sc.check_expected(sc.case(OP, D35, None, upd, **attrs), D35)  # forgot to write the slice
    assert report.mismatches == [(0, 1), (0, 3), (2, 1), (2, 3)]


def test_examples_reproduce_their_printed_outputs():
    examples = se.examples_for(OP)
    assert {"Example 1", "Example 2", "Example 3"} <= {ex.label for ex in examples}
    for ex in examples:
        assert ex.indices is None
        assert np.array_equal(sc.scatter(OP, ex.data, ex.indices, ex.updates, **ex.attrs), ex.expected), ex.id


def test_record_declares_list_inputs_the_ui_renders():
    spec = sc.OPERATORS[OP]
    assert [i.role for i in spec.inputs] == ["data", "updates"] and spec.input("indices") is None
    assert sc.families.family_of(spec).indices == "unused"
    got = [(a.name, a.kind, a.required, a.is_input, a.default) for a in spec.attributes]
    assert got == [("start", "ints", True, True, None), ("stop", "ints", True, True, None),
                   ("step", "ints", True, True, None), ("axes", "ints", False, True, None)]


@given(st.integers(0, 9), st.integers(-12, 12), st.integers(-12, 12), st.sampled_from([-3, -2, -1, 1, 2, 3]))
def test_positions_are_pythons_slice(dim, start, stop, step):
    assert list(positions(dim, start, stop, step)) == list(range(dim))[start:stop:step]


@settings(max_examples=examples(150), deadline=None)
@given(cases(ops=[OP]))
def test_random_cases_match_the_numpy_description(case):
    op, data, indices, updates, attrs = case
    assert np.array_equal(sc.scatter(op, data, indices, updates, **attrs),
                          reference(op, data, indices, updates, **attrs), equal_nan=data.dtype.kind == "f")
    t = sc.trace(sc.case(op, data, indices, updates, **attrs))
    assert len(t) == updates.size
    assert len(np.unique(t.plan.targets)) == t.plan.targets.size  # a slice never names a cell twice
