"""scatter_practice on the two newest operators: TensorScatter-24 (the KV cache) and SliceScatter-15 (the strided
slice). Generation, grading, the catalogue's new kinds, step questions, choices and worksheets."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

import scatter_core as sc
import scatter_practice as sp
from tests.support.exercises import summary

CACHE, SLICE = "TensorScatter-24", "SliceScatter-15"
NEW_OPS = (CACHE, SLICE)
SEEDS = range(200)
CASES = [(op, level) for op in NEW_OPS for level in sp.levels_for(op)]
CACHE_KINDS = ("no-wrap", "one-write-index", "write-index-ignored")
SLICE_KINDS = ("stop-inclusive", "step-ignored", "negative-step-forward", "bound-wrapped")


def exercise_of(op, data, indices, updates, **attrs) -> sp.Exercise:
    """A hand-made exercise (the catalogue and grading read any Exercise)."""
    case = sc.case(op, np.array(data), None if indices is None else np.array(indices), np.array(updates), **attrs)
    return sp.Exercise.of(case, seed=0, level=5)


# -- what each level asks for, read from the exercise (not from the generator's recipe) ----------------------------
def cache_wraps(ex) -> bool:
    axis = ex.attrs["axis"]
    length, seq = ex.data.shape[axis], ex.updates.shape[axis]
    w = np.zeros(ex.data.shape[0], dtype=np.int64) if ex.indices is None else ex.indices
    return bool(((w % length) + seq > length).any())


def slice_bounds(ex):
    """(axis, size, start, stop, step) per sliced axis."""
    a = ex.attrs
    axes = a["axes"] if a.get("axes") is not None else range(len(a["start"]))
    return [(int(x) % ex.data.ndim, ex.data.shape[int(x) % ex.data.ndim], b, e, s)
            for x, b, e, s in zip(axes, a["start"], a["stop"], a["step"])]


def spelled(v, size) -> str:
    return "plain" if 0 <= v <= size else "negative" if -size <= v < 0 else "clamped"


LEVEL_CHECKS = {
    (CACHE, 1): lambda ex: (ex.data.ndim == 2 and ex.attrs["mode"] == "linear" and ex.indices is not None
                            and ex.indices.any()),
    (CACHE, 2): lambda ex: ex.data.ndim == 3 and ex.attrs["mode"] == "linear",
    (CACHE, 4): lambda ex: ex.attrs["mode"] == "circular" and cache_wraps(ex),
    (CACHE, 5): lambda ex: ex.data.ndim == 3,
    (SLICE, 1): lambda ex: (ex.data.ndim <= 2 and all(s > 0 and spelled(b, n) == spelled(e, n) == "plain"
                                                      for _, n, b, e, s in slice_bounds(ex))),
    (SLICE, 2): lambda ex: (ex.data.ndim <= 2 and all(s > 0 for *_, s in slice_bounds(ex))
                            and (any("negative" in (spelled(b, n), spelled(e, n)) for _, n, b, e, s in slice_bounds(ex))
                                 or any(a != 0 for a, *_ in slice_bounds(ex)))),
    (SLICE, 4): lambda ex: any(s < 0 or "clamped" in (spelled(b, n), spelled(e, n)) for _, n, b, e, s in
                               slice_bounds(ex)),
    (SLICE, 5): lambda ex: ex.data.ndim == 3,
}


def test_levels_for_the_new_operators():
    assert sp.levels_for(CACHE) == (1, 2, 4, 5)  # no reduction: no level 3
    assert sp.levels_for(SLICE) == (1, 2, 4, 5)
    with pytest.raises(ValueError, match=re.escape(CACHE)):
        sp.make_exercise(0, 3, CACHE)


@pytest.mark.parametrize("op, level", CASES)
def test_new_operators_give_valid_exercises_within_bounds(op, level):
    for seed in SEEDS:
        ex = sp.make_exercise(seed, level, op)
        assert ex.op == op and ex.seed == seed and ex.level == level
        assert 2 <= ex.steps <= sp.MAX_STEPS and ex.answer.size <= sp.MAX_CELLS
        computed = sc.scatter(op, ex.data, ex.indices, ex.updates, **ex.attrs)
        assert computed.dtype == ex.answer.dtype and np.array_equal(computed, ex.answer)
        assert not np.array_equal(ex.answer, ex.data)
        assert LEVEL_CHECKS[op, level](ex), (seed, summary(ex))
        assert summary(sp.make_exercise(seed, level, op)) == summary(ex)
        assert ex.topic  # the family's recipe says what the exercise practises


def test_new_operators_levels_have_their_variety():
    cache5 = [sp.make_exercise(s, 5, CACHE) for s in range(80)]
    assert {e.attrs["mode"] for e in cache5} == {"linear", "circular"}
    assert {e.attrs["axis"] % 3 for e in cache5} == {1, 2}
    assert {e.attrs["axis"] for e in [sp.make_exercise(s, 2, CACHE) for s in range(20)]} == {-1, -2}  # as spelled
    assert any(e.indices is None for e in cache5) and any(cache_wraps(e) for e in cache5)
    cache2 = [sp.make_exercise(s, 2, CACHE) for s in range(40)]
    left_out = [e for e in cache2 if e.indices is None]
    assert left_out and "write_indices is left out" in left_out[0].prompt
    slice4 = [sp.make_exercise(s, 4, SLICE) for s in range(80)]
    assert any(s < 0 for e in slice4 for *_, s in slice_bounds(e))
    assert any("clamped" in (spelled(b, n), spelled(e_, n)) for e in slice4 for _, n, b, e_, s in slice_bounds(e))
    slice5 = [sp.make_exercise(s, 5, SLICE) for s in range(80)]
    assert any(len(slice_bounds(e)) >= 2 for e in slice5) and any(e.attrs["axes"] is not None for e in slice5)
    slice2 = [sp.make_exercise(s, 2, SLICE) for s in range(40)]
    assert any(a == 1 for e in slice2 for a, *_ in slice_bounds(e))


def test_op_none_picks_the_new_operators_only_at_the_mixed_level():
    five = Counter(sp.make_exercise(s, 5).spec.family for s in range(200))
    assert five["cache"] and five["slice"]
    for level in (1, 2, 4):
        assert not {sp.make_exercise(s, level).spec.family for s in range(60)} & {"cache", "slice"}


# -- grading ------------------------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("op, level", CASES)
def test_new_operators_right_answer_and_each_misconception(op, level):
    applied = Counter()
    for seed in SEEDS:
        ex = sp.make_exercise(seed, level, op)
        fb = sp.grade_output(ex, ex.answer)
        assert fb.correct and fb.misconceptions == ()
        for kind, out in sp.student_outputs(ex).items():
            applied[kind] += 1
            fb = sp.grade_output(ex, out)
            assert not fb.correct and kind in fb.kinds, (kind, seed, fb.kinds)
            assert set(fb.wrong_cells) == {tuple(int(v) for v in c) for c in np.argwhere(out != ex.answer)}
    own = CACHE_KINDS if op == CACHE else SLICE_KINDS
    assert set(applied) & set(own), applied  # the family's own misconceptions show at every level


def test_each_new_misconception_applies_somewhere():
    seen = set()
    for op, level in CASES:
        for seed in range(100):
            seen |= set(sp.student_outputs(sp.make_exercise(seed, level, op)))
    assert set(CACHE_KINDS + SLICE_KINDS) <= seen


@pytest.mark.parametrize("op, level", CASES)
def test_new_operators_random_wrong_cell_gets_no_false_misconception(op, level):
    rng = np.random.default_rng(level)
    for seed in SEEDS:
        ex = sp.make_exercise(seed, level, op)
        out = ex.answer.copy()
        cell = tuple(int(rng.integers(0, n)) for n in out.shape)
        out[cell] += int(rng.integers(100, 1000))
        fb = sp.grade_output(ex, out)
        assert fb.wrong_cells == (cell,) and fb.misconceptions == (), (seed, fb.kinds)


def test_no_wrap_loses_the_wrapped_writes_and_stays_valid():
    ex = exercise_of(CACHE, [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], [3, 1], [[-1, -2, -3], [-4, -5, -6]],
                     axis=1, mode="circular")
    assert ex.answer.tolist() == [[-3, 2, 3, -1, -2], [6, -4, -5, -6, 10]]
    out = sp.BY_KIND["no-wrap"].student(ex)
    assert out.tolist() == [[1, 2, 3, -1, -2], [6, -4, -5, -6, 10]]  # position 5 is past the end: not written
    fb = sp.grade_output(ex, out)
    assert fb.kinds == ("no-wrap",)  # the one reading that gives the whole output
    with pytest.raises(sc.ScatterError, match="linear"):  # why the distractor cannot be linear mode itself
        sc.scatter(CACHE, ex.data, ex.indices, ex.updates, axis=1, mode="linear")


def test_one_write_index_and_ignored_write_indices():
    ex = exercise_of(CACHE, np.zeros((3, 4), dtype=np.int64), [1, 2, 0], [[1, 2], [3, 4], [5, 6]], axis=1)
    assert sp.BY_KIND["one-write-index"].student(ex).tolist() == [[0, 1, 2, 0], [0, 3, 4, 0], [0, 5, 6, 0]]
    assert sp.BY_KIND["write-index-ignored"].student(ex).tolist() == [[1, 2, 0, 0], [3, 4, 0, 0], [5, 6, 0, 0]]
    left_out = exercise_of(CACHE, np.zeros((3, 4), dtype=np.int64), None, [[1, 2], [3, 4], [5, 6]], axis=1)
    assert sp.BY_KIND["one-write-index"].student(left_out) is None  # nothing given to misread
    assert sp.BY_KIND["write-index-ignored"].student(left_out) is None
    # on another family, "one write index for the batch" means nothing
    elements = exercise_of("ScatterElements-18", np.zeros((2, 3), dtype=np.int64), [[0], [2]], [[5], [6]], axis=1)
    assert sp.BY_KIND["one-write-index"].student(elements) is None


def test_slice_misconceptions_move_the_writes():
    data = np.zeros(7, dtype=np.int64)
    ex = exercise_of(SLICE, data, None, [1, 2, 3], start=[1], stop=[7], step=[2])  # positions 1, 3, 5
    assert ex.answer.tolist() == [0, 1, 0, 2, 0, 3, 0]
    assert sp.BY_KIND["step-ignored"].student(ex).tolist() == [0, 1, 2, 3, 0, 0, 0]
    assert sp.BY_KIND["stop-inclusive"].student(ex) is None  # counting stop 7 in would leave the axis
    even = exercise_of(SLICE, data, None, [1, 2, 3], start=[0], stop=[6], step=[2])  # positions 0, 2, 4
    assert sp.BY_KIND["stop-inclusive"].student(even).tolist() == [0, 0, 1, 0, 2, 0, 3]  # ends at 6
    back = exercise_of(SLICE, data, None, [1, 2, 3], start=[5], stop=[-8], step=[-2])  # 5, 3, 1; stop clamped
    assert back.answer.tolist() == [0, 3, 0, 2, 0, 1, 0]
    assert sp.BY_KIND["negative-step-forward"].student(back).tolist() == [0, 1, 0, 2, 0, 3, 0]
    assert sp.BY_KIND["stop-inclusive"].student(back) is None  # a clamped stop: nothing to count in
    far = exercise_of(SLICE, data, None, [1, 2, 3, 4], start=[100], stop=[-100], step=[-2])  # 6, 4, 2, 0
    assert sp.BY_KIND["bound-wrapped"].student(far).tolist() == [2, 0, 1, 4, 0, 3, 0]  # 100 % 7 = 2, 0, 5, 3
    negative = exercise_of(SLICE, data, None, [1, 2], start=[-2], stop=[7], step=[1])  # 5, 6
    assert sp.BY_KIND["negative-index"].student(negative).tolist() == [0, 0, 1, 2, 0, 0, 0]  # -2 read as 2


def test_misconception_outputs_never_leave_the_tensor():
    """Every new kind's output is a valid picture: data's shape and dtype, values from data or updates."""
    for op, level in CASES:
        for seed in range(60):
            ex = sp.make_exercise(seed, level, op)
            allowed = set(ex.data.reshape(-1).tolist()) | set(ex.updates.reshape(-1).tolist())
            for kind, out in sp.student_outputs(ex).items():
                assert out.shape == ex.answer.shape and out.dtype == ex.answer.dtype
                if kind in CACHE_KINDS + SLICE_KINDS:
                    assert set(out.reshape(-1).tolist()) <= allowed, kind


# -- one step -----------------------------------------------------------------------------------------------------
def cells_of(ex, k):
    return [tuple(int(v) for v in c) for c in ex.trace.target_cells(k)]


@pytest.mark.parametrize("op, level", CASES)
def test_new_operators_step_targets(op, level):
    """grade_step's target is the cell step k writes (any cell of a cache row); a misconception's target is named."""
    named = Counter()
    for seed in range(60):
        ex = sp.make_exercise(seed, level, op)
        for k in range(ex.steps):
            cells = cells_of(ex, k)
            for slot in (0, len(cells) - 1):
                assert sp.grade_step(ex, k, cells[slot], ex.trace.after[k][slot]).correct
            for m in sp.MISCONCEPTIONS:
                wrong = [c for c in m.step_cells(ex, k) if c not in cells]
                if wrong:
                    fb = sp.grade_step(ex, k, wrong[0], ex.trace.after[k][0])
                    assert fb.target_correct is False and fb.value_correct is True
                    assert m.kind in fb.kinds and "would write under this misreading" in fb.explanation + \
                        " ".join(n.message for n in fb.misconceptions)
                    named[m.kind] += 1
    assert named, "some misconception moves a step at this level"


def test_step_question_of_the_new_operators_keeps_the_target_hidden():
    for op, level in CASES:
        for seed in range(20):
            ex = sp.make_exercise(seed, level, op)
            for k in range(ex.steps):
                q = sp.step_question(ex, k)
                assert q.startswith(f"Step {k + 1} of {ex.steps}")
                assert "output[" not in q and "cache position" not in q
                if op == SLICE:
                    assert "the slice's element" in q
                elif ex.indices is None:
                    assert "write_indices[" in q and "= 0 (write_indices is left out: its default)" in q
                else:
                    b = int(ex.trace.plan.index_cells[k][0])
                    assert f"write_indices[{b}] = {int(ex.indices[b])}" in q


# -- distractors and worksheets -------------------------------------------------------------------------------------
def test_choices_put_the_family_s_own_misconceptions_first():
    for op, level in CASES:
        own = CACHE_KINDS + SLICE_KINDS + ("negative-index",)
        for seed in range(30):
            ex = sp.make_exercise(seed, level, op)
            kinds = [c.kind for c in sp.choices(ex)]
            available = [k for k in sp.student_outputs(ex) if k in own]
            assert sum(c.correct for c in sp.choices(ex)) == 1
            if available:
                assert set(kinds) & set(available), (op, level, seed, kinds)


def test_worksheet_names_the_inputs_and_prints_rank3_grids_per_leading_index():
    exs = [sp.make_exercise(s, 5, op) for op in NEW_OPS for s in range(4)]
    html = sp.student_html(exs, "set")
    assert "past_cache · " in html and "update · " in html and "write_indices · " in html
    for ex in exs:
        for name, arr in ex.inputs:
            for lead in range(arr.shape[0] if arr.ndim == 3 else 0):
                assert f"{name}[{lead}, :, :]" in html
        assert f"your output[{ex.answer.shape[0] - 1}, :, :]" in html
    left_out = next(e for e in (sp.make_exercise(s, 5, CACHE) for s in range(60)) if e.indices is None)
    page = sp.student_html([left_out], "one")
    assert "write_indices is left out" in page and "write_indices · " not in page  # no grid for a left-out input
    sliced = next(e for e in exs if e.op == SLICE)
    assert [n for n, _ in sliced.inputs] == ["data", "updates"]
