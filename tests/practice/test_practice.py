"""scatter_practice: exercise generation, grading, the misconception catalogue, hints, choices, worksheets."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import scatter_core as sc
import scatter_practice as sp
import spec_examples
from scatter_practice.exercises import COMBINING, practised
from tests.support.exercises import summary

ROOT = Path(__file__).resolve().parents[2]
LEVELS = tuple(sp.LEVELS)
SEEDS = range(200)
NEW_FAMILIES = ("cache", "slice")  # the KV cache and the strided slice: no duplicates, no reduction
NEW_OPS = tuple(s.name for s in sc.OPERATORS_LIST if s.family in NEW_FAMILIES)
VOCABULARY = ("reduction", "use_init_val", "axis", "first-write-wins", "negative-index", "family", "version",
              "mean-truncated", "slice-as-element")


def canonical(ex) -> str:
    return ex.trace.reduction.name


def has_duplicates(ex) -> bool:
    return ex.trace.duplicate_groups().size > 0


# -- generation ------------------------------------------------------------------------------------
LEVEL_CHECKS = {
    1: lambda ex: (ex.data.ndim in (1, 2) and sc.family_of(ex.spec).practice_from == 1 and canonical(ex) == "none"
                   and not has_duplicates(ex) and (ex.indices >= 0).all() and ex.attrs.get("axis", 0) == 0),
    2: lambda ex: (ex.data.ndim in (1, 2) and canonical(ex) == "none" and not has_duplicates(ex)
                   and ((ex.indices < 0).any() or ex.attrs.get("axis", 0) != 0)),
    3: lambda ex: ex.data.ndim in (1, 2) and canonical(ex) in COMBINING and has_duplicates(ex),
    4: lambda ex: ((ex.attrs.get("use_init_val") is False and canonical(ex) in COMBINING)
                   or (canonical(ex) == "mean" and ex.data.dtype.kind == "i")
                   or ex.trace.slice_size > 1),
    5: lambda ex: (ex.data.ndim == 3 and (has_duplicates(ex) or canonical(ex) != "none"
                                          or "none" in ex.spec.duplicates_forbidden_with
                                          or ex.spec.family in NEW_FAMILIES)),  # no duplicates can occur there
}


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_gives_valid_exercises_within_bounds(level):
    ops = Counter()
    for seed in SEEDS:
        ex = sp.make_exercise(seed, level)
        ops[ex.op] += 1
        assert ex.seed == seed and ex.level == level
        assert 1 <= ex.steps <= sp.MAX_STEPS == 8 and ex.answer.size <= sp.MAX_CELLS == 24
        computed = sc.scatter(ex.op, ex.data, ex.indices, ex.updates, **ex.attrs)
        assert computed.dtype == ex.answer.dtype and np.array_equal(computed, ex.answer)
        assert isinstance(ex.trace, sc.Trace) and np.array_equal(ex.trace.output, ex.answer)
        assert LEVEL_CHECKS[level](ex), (seed, summary(ex))
        assert not np.array_equal(ex.answer, ex.data), "every exercise changes at least one cell"
        again = sp.make_exercise(seed, level)
        assert summary(again) == summary(ex)
    assert len(ops) >= (6 if level == 1 else 6), ops  # the level draws from its whole pool


def test_levels_have_their_features():
    """Level 2 has both negative indices and other axes, level 4 all three kinds, level 5 the order question."""
    two = [sp.make_exercise(s, 2) for s in range(60)]
    assert any((e.indices < 0).any() for e in two) and any(e.attrs.get("axis", 0) != 0 for e in two)
    four = [sp.make_exercise(s, 4) for s in range(60)]
    assert any(e.attrs.get("use_init_val") is False for e in four)
    assert any(canonical(e) == "mean" for e in four) and any(e.trace.slice_size > 1 for e in four)
    five = [sp.make_exercise(s, 5) for s in range(60)]
    order = [e for e in five if e.order_question]
    assert order and all(has_duplicates(e) and canonical(e) == "none" for e in order)
    assert all(not np.array_equal(e.trace.output_in_order("reversed"), e.answer) for e in order)
    assert "which one stays" in order[0].prompt


SUBPROCESS = """
import json, sys
import scatter_practice as sp
from tests.support.exercises import summary
print(json.dumps([summary(sp.make_exercise(s, lv, op)) for s, lv, op in json.loads(sys.argv[1])]))
"""


def test_same_seed_same_exercise_in_another_process():
    cases = [(s, lv, None) for lv in LEVELS for s in (0, 1, 17, 123456789)] + [(5, 3, "ScatterND-18"),
                                                                                 (9, 4, "ScatterElementsUpdate-12")]
    cases += [(s, lv, op) for op in NEW_OPS for lv in (2, 4, 5) for s in (3, 98765)]
    here = [summary(sp.make_exercise(s, lv, op)) for s, lv, op in cases]
    for hashseed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        out = subprocess.run([sys.executable, "-c", SUBPROCESS, json.dumps(cases)], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120, check=True)
        assert json.loads(out.stdout) == json.loads(json.dumps(here))


def test_different_seeds_give_different_exercises():
    seen = {json.dumps(summary(sp.make_exercise(s, 3))) for s in range(40)}
    assert len(seen) == 40


@pytest.mark.parametrize("op", list(sc.OPERATORS))
def test_op_restricts_the_exercise_to_that_version(op):
    allowed = sp.levels_for(op)
    if not practised(sc.OPERATORS[op]):  # a family practice does not draw yet
        assert allowed == ()
        with pytest.raises(ValueError, match=re.escape(op)):
            sp.make_exercise(0, 1, op)
        return
    assert 1 in allowed and 5 in allowed
    for level in LEVELS:
        if level not in allowed:
            with pytest.raises(ValueError, match=re.escape(op)):
                sp.make_exercise(0, level, op)
            continue
        for seed in range(6):
            ex = sp.make_exercise(seed, level, op)
            assert ex.op == op and ex.answer.size <= 24 and ex.steps <= 8
            assert np.array_equal(ex.answer, sc.scatter(op, ex.data, ex.indices, ex.updates, **ex.attrs))


def test_levels_for_reads_the_registry():
    assert sp.levels_for("ScatterND-11") == (1, 2, 4, 5)  # no reduction: no level 3
    assert sp.levels_for("ScatterNDUpdate-3") == (1, 4, 5)  # no negatives, no axis
    assert sp.levels_for("ScatterElementsUpdate-12") == (1, 2, 3, 4, 5)


@pytest.mark.parametrize("args, name", [((-1, 1), "seed"), ((1.5, 1), "seed"), ((0, 0), "level"), ((0, 6), "level"),
                                        ((0, True), "level"), ((0, 1, "ScatterND-99"), "op")])
def test_bad_arguments_name_the_argument(args, name):
    with pytest.raises(ValueError, match=name):
        sp.make_exercise(*args)


def test_exercise_sets_are_shared_and_bounded():
    a = sp.exercise_set(7, 3, 4)
    b = sp.exercise_set(7, 3, 4)
    assert [summary(x) for x in a] == [summary(x) for x in b]
    assert [x.seed for x in a] == [7000, 7001, 7002, 7003]
    assert summary(a[2]) == summary(sp.make_exercise(7002, 3))
    with pytest.raises(ValueError, match="n = 0"):
        sp.exercise_set(7, 3, 0)
    with pytest.raises(ValueError, match="n = 31"):
        sp.exercise_set(7, 3, sp.MAX_SET + 1)


# -- grading a whole output --------------------------------------------------------------------------
@pytest.mark.parametrize("level", LEVELS)
def test_right_answer_is_graded_correct(level):
    for seed in SEEDS:
        ex = sp.make_exercise(seed, level)
        fb = sp.grade_output(ex, ex.answer)
        assert fb.correct and fb.wrong_cells == () and fb.misconceptions == ()
        assert sp.grade_output(ex, ex.answer.tolist()).correct  # typed as lists
        assert sp.grade_output(ex, ex.answer.astype(np.float64)).correct  # or as floats from a grid


def _explained_otherwise(ex, out, fb) -> bool:
    """The output of another version is named by another kind that reproduces it whole (checked by the diagnosis
    engine itself), so "Another version's rules" is left out as redundant."""
    report = sc.check_expected(ex.case, out)
    whole = {d.kind for d in report.diagnoses} - {"version"}
    return "version" not in fb.kinds and bool(whole & set(fb.kinds))


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_each_misconception_output_is_wrong_and_named(level):
    applied, same = Counter(), Counter()
    for seed in range(120):
        ex = sp.make_exercise(seed, level)
        for m in sp.MISCONCEPTIONS:
            out = m.student(ex)
            if out is None:
                continue
            applied[m.kind] += 1
            if np.array_equal(out, ex.answer):
                same[m.kind] += 1  # the exercise doesn't tell this misconception apart: skipped
                continue
            fb = sp.grade_output(ex, out)
            assert not fb.correct, (m.kind, seed)
            if m.kind == "first-write-wins":  # another winner where writes compete: the spec allows it (issue 22)
                assert fb.conforms and fb.wrong_cells == () and fb.misconceptions == (), (seed, fb)
                assert {n.cell for n in fb.allowed} == {tuple(int(v) for v in c)
                                                        for c in np.argwhere(out != ex.answer)}
                assert fb.explanation.startswith("Allowed by the spec")
                continue
            if m.kind == "version" and _explained_otherwise(ex, out, fb):
                continue  # a neighbouring version that differs in just what another kind names: that one is named
            assert not fb.conforms and m.kind in fb.kinds, (m.kind, seed, fb.kinds)
            # every differing cell is wrong, or holds another write the spec allows there (a duplicated cell)
            assert fb.wrong_cells and not set(fb.wrong_cells) & {n.cell for n in fb.allowed}
            assert set(fb.wrong_cells) | {n.cell for n in fb.allowed} == {
                tuple(int(v) for v in c) for c in np.argwhere(out != ex.answer)}
            named = next(n for n in fb.misconceptions if n.kind == m.kind)
            assert named.message and named.title == m.title
    assert applied, "some misconception applies at every level"
    for kind, n in applied.items():
        assert same[kind] <= max(2, 0.15 * n), f"{kind}: its output equals the answer in {same[kind]} of {n}"


@pytest.mark.slow
def test_every_misconception_applies_at_some_level():
    kinds = set()
    for level in LEVELS:
        for seed in range(80):
            kinds |= set(sp.student_outputs(sp.make_exercise(seed, level)))
    for op in NEW_OPS:  # op=None reaches these only at level 5
        for level in sp.levels_for(op):
            for seed in range(40):
                kinds |= set(sp.student_outputs(sp.make_exercise(seed, level, op)))
    assert kinds == {m.kind for m in sp.MISCONCEPTIONS}


@pytest.mark.parametrize("level", LEVELS)
def test_a_random_wrong_cell_gets_no_false_misconception(level):
    rng = np.random.default_rng(level)
    for seed in range(80):
        ex = sp.make_exercise(seed, level)
        out = ex.answer.copy()
        cell = tuple(int(rng.integers(0, n)) for n in out.shape)
        out[cell] += int(rng.integers(100, 1000))
        fb = sp.grade_output(ex, out)
        assert not fb.correct and fb.wrong_cells == (cell,)
        assert fb.misconceptions == (), (seed, fb.kinds)
        (note,) = fb.cells
        assert note.cell == cell and note.kinds == () and note.expected == ex.answer[cell]
        assert f"you wrote {out[cell]}" in note.chain and f"output[{', '.join(map(str, cell))}]" in note.chain


def test_explanation_follows_the_chain_of_writes():
    ex = next(e for e in (sp.make_exercise(s, 3) for s in range(50)) if e.data.ndim == 1)
    flat, counts = ex.trace.write_counts()
    cell = tuple(int(v) for v in np.unravel_index(int(flat[counts >= 2][0]), ex.answer.shape))
    out = ex.answer.copy()
    out[cell] = ex.trace.data[cell]  # the student forgot every write to this cell
    fb = sp.grade_output(ex, out)
    writes = [k for k in range(ex.steps) if cell in [tuple(map(int, c)) for c in ex.trace.target_cells(k)]]
    assert len(writes) >= 2
    text = fb.explanation
    assert text.startswith("1 of ") and f"starts at {ex.data[cell]} (data)" in text
    for k in writes:
        assert f"step {k + 1} applies" in text
    assert f"Computed {ex.answer[cell]}; you wrote {ex.data[cell]}" in text  # the reduction's definition, then yours


def test_a_non_integer_in_an_integer_output_is_wrong():
    ex = sp.make_exercise(0, 1)
    out = ex.answer.astype(np.float64)
    out.reshape(-1)[0] += 0.5
    fb = sp.grade_output(ex, out)
    assert not fb.correct and len(fb.wrong_cells) == 1


def test_grade_output_refuses_another_shape():
    ex = sp.make_exercise(0, 1)
    with pytest.raises(ValueError, match="output has shape"):
        sp.grade_output(ex, np.zeros(ex.answer.size + 1))


# -- grading one step ---------------------------------------------------------------------------------
def cells_of(ex, k):
    return [tuple(int(v) for v in c) for c in ex.trace.target_cells(k)]


@pytest.mark.parametrize("level", LEVELS)
def test_step_right_prediction_is_correct_for_any_cell_of_a_slice(level):
    for seed in range(30):
        ex = sp.make_exercise(seed, level)
        for k in range(ex.steps):
            cells = cells_of(ex, k)
            for slot in (0, len(cells) - 1):
                fb = sp.grade_step(ex, k, cells[slot], ex.trace.after[k][slot])
                assert fb.correct and fb.target_correct and fb.value_correct and fb.misconceptions == ()
                assert ex.trace.describe(k) in fb.explanation


def _own_coords(ex, k):
    return [int(v) for v in np.unravel_index(k, ex.indices.shape)]


def test_step_target_from_an_unnormalised_negative_index_is_named():
    found = 0
    for seed in range(80):
        ex = sp.make_exercise(seed, 2)
        if ex.spec.family != "elements" or not (ex.indices < 0).any():
            continue
        axis = ex.attrs["axis"]
        for k in range(ex.steps):
            raw = int(ex.indices.reshape(-1)[k])
            if raw >= 0 or -raw >= ex.data.shape[axis]:
                continue
            wrong = _own_coords(ex, k)
            wrong[axis] = -raw  # the minus sign dropped
            if tuple(wrong) in cells_of(ex, k):
                continue  # -1 on a size-2 axis: dropping the sign lands on the right cell
            fb = sp.grade_step(ex, k, wrong, ex.trace.after[k][0])
            assert not fb.correct and fb.target_correct is False and fb.value_correct is True
            assert "negative-index" in fb.kinds, fb
            found += 1
    assert found >= 10


def test_step_target_on_the_wrong_axis_is_named():
    found = 0
    for seed in range(80):
        ex = sp.make_exercise(seed, 2)
        if ex.spec.family != "elements" or ex.data.ndim != 2:
            continue
        axis = ex.attrs["axis"]
        other = 1 - axis
        for k in range(ex.steps):
            norm = int(ex.indices.reshape(-1)[k])
            if not 0 <= norm < ex.data.shape[other]:
                continue
            wrong = _own_coords(ex, k)
            wrong[other] = norm  # the index put on the other axis
            if tuple(wrong) in cells_of(ex, k):
                continue
            fb = sp.grade_step(ex, k, wrong, ex.trace.after[k][0])
            assert fb.target_correct is False and "axis" in fb.kinds, (seed, k, fb)
            found += 1
    assert found >= 10


def test_step_value_replaced_instead_of_combined_is_named_reduction():
    found = 0
    for seed in range(40):
        ex = sp.make_exercise(seed, 3)
        t = ex.trace
        for k in range(ex.steps):
            if t.values[k][0] == t.after[k][0]:
                continue
            fb = sp.grade_step(ex, k, cells_of(ex, k)[0], t.values[k][0])
            assert fb.target_correct is True and fb.value_correct is False
            assert "reduction" in fb.kinds and "replaced" in fb.misconceptions[0].message
            found += 1
    assert found >= 40


def test_step_keeping_the_earlier_write_is_named_first_write_wins_or_allowed_at_the_last_write():
    """Keeping the earlier write at a cell's last write gives a final value the spec allows (the winner is open);
    at an earlier step it is the first-write-wins misreading."""
    found, allowed = 0, 0
    for seed in range(60):
        ex = sp.make_exercise(seed, 5)
        if not ex.order_question:
            continue
        t = ex.trace
        for k in range(ex.steps):
            if t.first_write[k][0] or t.before[k][0] == t.after[k][0]:
                continue
            cell = cells_of(ex, k)[0]
            fb = sp.grade_step(ex, k, cell, t.before[k][0])
            later = any(cell in cells_of(ex, j) for j in range(k + 1, ex.steps))
            if later:
                assert "first-write-wins" in fb.kinds and not fb.conforms
                found += 1
            else:
                assert fb.conforms and not fb.correct and fb.target_correct and not fb.value_correct
                assert fb.kinds == () and fb.wrong_cells == ()
                (note,) = fb.allowed
                assert note.cell == cell and "so your answer is allowed" in note.chain
                assert f"the cell holds {sc.fmt_value(t.after[k][0])} after it" in note.chain
                allowed += 1
    assert allowed >= 5 and found >= 1


def test_step_value_no_write_brings_is_not_allowed():
    for seed in range(60):
        ex = sp.make_exercise(seed, 5)
        if not ex.order_question:
            continue
        t = ex.trace
        k = max(k for k in range(ex.steps) if not t.first_write[k][0])
        fb = sp.grade_step(ex, k, cells_of(ex, k)[0], t.after[k][0] + 1000)
        assert not fb.conforms and fb.allowed == () and fb.wrong_cells


def test_step_random_wrong_value_names_nothing():
    for seed in range(30):
        ex = sp.make_exercise(seed, 3)
        fb = sp.grade_step(ex, 0, cells_of(ex, 0)[0], ex.trace.after[0][0] + 500)
        assert fb.target_correct and not fb.value_correct and fb.misconceptions == ()
        assert "You wrote" in fb.explanation


@pytest.mark.parametrize("k, target, value, match", [(-1, (0,), 1, "k = -1"), (99, (0,), 1, "k = 99"),
                                                    (0, (99,), 1, "target"), (0, (0, 0, 0, 0), 1, "target"),
                                                    (0, "ab", 1, "target"), (0, (0,), "x", "value")])
def test_grade_step_refuses_bad_arguments(k, target, value, match):
    ex = next(e for e in (sp.make_exercise(s, 1) for s in range(20)) if e.data.ndim == 1)
    with pytest.raises(ValueError, match=match):
        sp.grade_step(ex, k, target, value)


# -- the catalogue ----------------------------------------------------------------------------------------
def test_catalogue_is_data_with_one_row_per_kind():
    kinds = [m.kind for m in sp.MISCONCEPTIONS]
    assert len(kinds) == len(set(kinds))
    assert set(VOCABULARY) <= set(kinds)
    assert set(sp.BY_KIND) == set(kinds)
    for m in sp.MISCONCEPTIONS:
        assert m.title and callable(m.student)
        sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z])", m.explanation.strip())
        assert len(sentences) == 2, (m.kind, sentences)
        ex = spec_examples.by_id(m.example)  # the explorer example exists
        assert ex.op in sc.OPERATORS


@pytest.mark.slow
def test_catalogue_kinds_match_check_expected_diagnoses():
    """Where check_expected has a kind, its engine names the catalogue's output the same way."""
    engine = set(VOCABULARY) - {"slice-as-element"}
    seen = set()
    for level in LEVELS:
        for seed in range(60):
            ex = sp.make_exercise(seed, level)
            for kind, out in sp.student_outputs(ex).items():
                if kind not in engine:
                    continue
                report = sc.check_expected(ex.case, out)
                assert kind in {d.kind for d in report.diagnoses}, (level, seed, kind)
                seen.add(kind)
    assert seen == engine


# -- hints and multiple choice ------------------------------------------------------------------------
def test_step_hints_grow_stronger():
    ex = sp.make_exercise(4, 3)
    for k in range(ex.steps):
        touch, compete, answer = sp.step_hints(ex, k)
        first = cells_of(ex, k)[0]
        assert f"output[{', '.join(map(str, first))}]" in touch
        assert str(ex.trace.values[k][0]) in compete and str(ex.trace.before[k][0]) in compete
        assert answer == ex.trace.describe(k) + "."
    with pytest.raises(ValueError, match="k = 99"):
        sp.step_hints(ex, 99)


def test_output_hints():
    ex = next(e for e in (sp.make_exercise(s, 3) for s in range(20)))
    written, compete, steps = sp.output_hints(ex)
    assert "cells are written" in written and "writes)" in compete
    assert all(ex.trace.describe(k) in steps for k in range(ex.steps))


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_choices_have_one_right_answer_and_catalogue_distractors(level):
    for seed in range(40):
        ex = sp.make_exercise(seed, level)
        options = sp.choices(ex)
        assert len(options) == 4
        assert sum(c.correct for c in options) == 1
        right = next(c for c in options if c.correct)
        assert np.array_equal(right.output, ex.answer)
        for i, a in enumerate(options):
            for b in options[i + 1:]:
                assert not np.array_equal(a.output, b.output)
        own = sp.student_outputs(ex)
        for c in options:
            if not c.correct:
                assert not sp.grade_output(ex, c.output).conforms  # no distractor is an output the spec allows
                if c.kind in own:
                    assert np.array_equal(c.output, own[c.kind])
                else:
                    assert c.kind == "slip" and (c.output != ex.answer).sum() == 1
        again = sp.choices(ex)
        assert [c.kind for c in again] == [c.kind for c in options]
        distinct = {o.tobytes() for o in own.values() if not sp.grade_output(ex, o).conforms}  # wrong by the spec
        if len(distinct) >= 3:
            assert all(c.kind != "slip" for c in options)


# -- the worksheet ---------------------------------------------------------------------------------------------
class Blocks(HTMLParser):
    def __init__(self):
        super().__init__()
        self.classes = Counter()
        self.blank_cells = 0
        self.in_blank = False
        self.styles = ""
        self._style = False

    def handle_starttag(self, tag, attrs):
        cls = dict(attrs).get("class") or ""
        for c in cls.split():
            self.classes[c] += 1
        if tag == "table":
            self.in_blank = "blank" in cls.split()
        if tag == "td" and self.in_blank:
            self.blank_cells += 1
        self._style = tag == "style"

    def handle_data(self, data):
        if self._style:
            self.styles += data

    def handle_endtag(self, tag):
        self._style = False


def test_worksheet_student_sheet_and_answer_key_hold_n_exercises_each():
    exercises = sp.exercise_set(3, 5, 4)
    title = "Set 3 <b>level 5</b>"
    sheet = sp.student_html(exercises, title, link="https://x.example/practice?set=3&level=5&n=4")
    key = sp.answer_key_html(exercises, title)
    parsed_sheet, parsed_key = Blocks(), Blocks()
    parsed_sheet.feed(sheet)
    parsed_key.feed(key)
    assert parsed_sheet.classes["exercise"] == 4 and parsed_sheet.classes["answer"] == 0  # no answers on the sheet
    assert parsed_key.classes["answer"] == 4 and parsed_key.classes["exercise"] == 0
    assert parsed_sheet.blank_cells == sum(e.answer.size for e in exercises) and parsed_key.blank_cells == 0
    assert "@media print" in parsed_sheet.styles
    for doc in (sheet, key):
        assert "<b>level 5</b>" not in doc and "&lt;b&gt;level 5&lt;/b&gt;" in doc  # escaped
    for i, ex in enumerate(exercises, 1):
        assert f'id="exercise-{i}"' in sheet and f'id="answer-{i}"' in key
        last = ex.trace.describe(ex.steps - 1).replace("'", "&#x27;")
        assert last in key and last not in sheet


def test_feedback_never_says_the_student_chose_what_the_exercise_fixed():
    """check_expected speaks to someone who chose the operator and attributes; an exercise fixed them. And a
    neighbouring version is not named beside a misconception that already explains the same output."""
    seen = Counter()
    for level in (2, 3, 4, 5):
        for seed in range(12):
            ex = sp.make_exercise(seed, level)
            for out in sp.student_outputs(ex).values():
                fb = sp.grade_output(ex, out)
                for m in fb.misconceptions:
                    assert "you chose" not in m.message, (seed, level, m.message)
                    seen[m.kind] += "this exercise uses" in m.message
                assert "version" not in fb.kinds or fb.kinds == ("version",), (seed, level, fb.kinds)
                assert all("version" not in c.kinds for c in fb.cells) or fb.kinds == ("version",)
    assert seen["reduction"] and seen["axis"]  # the sentences that named a choice now name the exercise's


def test_in_exercise_words_names_the_exercises_version():
    from types import SimpleNamespace

    from scatter_practice.misconceptions import in_exercise_words

    ex = sp.make_exercise(0, 3)  # ScatterND-18, reduction min
    d = SimpleNamespace(message="Your expected output is what X gives (you chose Y).",
                        change={"op": "ScatterND-16", "indices_shape": (2, 1)})
    assert in_exercise_words(d, ex) == f"Your output is what ScatterND-16 gives; this exercise uses {ex.op}."
    d = SimpleNamespace(message="Your expected output is what reduction='none' gives (you chose 'min').",
                        change={"reduction": "none"})
    assert in_exercise_words(d, ex) == "Your output is what reduction='none' gives; this exercise uses reduction='min'."


def test_the_package_is_pure():
    code = ("import sys, scatter_practice; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]"


def test_step_question_does_not_give_the_target_away():
    for seed in range(40):
        ex = sp.make_exercise(seed, 2)
        for k in range(ex.steps):
            q = sp.step_question(ex, k)
            assert q.startswith(f"Step {k + 1} of {ex.steps} reads indices")
            assert "normalised" not in q and "output[" not in q
            raw = ex.trace.plan.index_raw[k]
            assert all(str(int(v)) in q for v in raw)


def test_exercises_are_read_only():
    ex = sp.make_exercise(0, 3)
    with pytest.raises(ValueError):
        ex.data[...] = 0
    with pytest.raises(AttributeError):
        ex.op = "ScatterND-11"


def test_each_misconceptions_explorer_example_shows_it():
    """The example a misconception links to is one where that misconception gives a wrong output."""
    for m in sp.MISCONCEPTIONS:
        example = spec_examples.by_id(m.example)
        ex = sp.Exercise.of(example.case, seed=0, level=5)  # a left-out input stays left out
        t = ex.trace
        out = m.student(ex)
        assert out is not None and not np.array_equal(out, t.output), m.kind
        fb = sp.grade_output(ex, out)
        if m.kind == "first-write-wins":  # it shows the other winner, which the spec allows in the end
            assert fb.conforms and not fb.correct and "the last write stays" in fb.explanation
        else:
            assert m.kind in fb.kinds or (m.kind == "version" and _explained_otherwise(ex, out, fb)), m.kind


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_no_exercise_draws_more_cells_than_a_projector_shows(level):
    """Every kind of exercise (any version, and each version offering the level) over 200 seeds draws at most
    MAX_DRAWN cells of indices, updates and output (what a 1280x720 projector shows whole with the answer under
    it, and a size worked by hand); at levels 4-5, where rank-3 slices are written, some reach the bound."""
    most = 0
    for op in [None] + [name for name in sc.OPERATORS if level in sp.levels_for(name)]:
        for seed in SEEDS:
            ex = sp.make_exercise(seed, level, op)
            drawn = sp.drawn_cells(ex.indices, ex.updates, ex.answer)
            assert drawn == sum(a.size for _, a in ex.inputs) - ex.data.size + ex.answer.size
            assert drawn <= sp.MAX_DRAWN == 64, (seed, op, summary(ex))
            most = max(most, drawn)
    assert (most == sp.MAX_DRAWN) == (level >= 4), most


# -- issue 33: feedback that teaches on every wrong answer -----------------------------------------------------
def _none_steps(levels=(1, 2), seeds=range(40)):
    """(exercise, step) pairs under reduction none whose one cell held a non-zero value before the step."""
    for level in levels:
        for seed in seeds:
            ex = sp.make_exercise(seed, level)
            t = ex.trace
            if t.reduction.ufunc is not None or t.slice_size != 1:
                continue
            for k in range(ex.steps):
                if t.before[k][0] != 0:
                    yield ex, k


def test_step_value_combined_under_reduction_none_is_named_combined():
    """Under reduction none, old 9 + update 62 = 71 instead of 62: "you added; with reduction none the update
    replaces the cell", with the chain of writes to that cell."""
    found = 0
    for ex, k in _none_steps():
        t = ex.trace
        before, value, right = t.before[k][0], t.values[k][0], t.after[k][0]
        cell = cells_of(ex, k)[0]
        fb = sp.grade_step(ex, k, cell, before + value)
        assert fb.target_correct is True and fb.value_correct is False, (ex.seed, k)
        assert "combined" in fb.kinds, (ex.seed, k, fb.kinds)
        named = next(m for m in fb.misconceptions if m.kind == "combined")
        assert f"if you added ({before} + {value} = {before + value})" in named.message
        assert f"With reduction {t.resolved.reduction} the update replaces the cell, so it holds {right}" \
            in named.message
        # the chain: data's value, then each write to the cell up to this step
        assert named.chain[0] == f"output[{', '.join(map(str, cell))}] starts at {ex.data[cell]} (data)"
        assert named.chain[-1] == t.describe(k)
        found += 1
        if max(before, value) != value and before + value != before:  # kept the larger: named too
            fb = sp.grade_step(ex, k, cell, max(before, value))
            assert "combined" in fb.kinds and "kept the larger" in fb.misconceptions[0].message
    assert found >= 30


def test_whole_output_combined_under_reduction_none_is_named_combined_not_replaced():
    """The engine finds "what reduction add gives" for such an output: the catalogue names it combined (the
    student combined where the exercise replaces), never "replaced instead of combined"."""
    seen = 0
    for level in (1, 2):
        for seed in range(40):
            ex = sp.make_exercise(seed, level)
            out = sp.BY_KIND["combined"].student(ex)
            if out is None or np.array_equal(out, ex.answer):
                continue
            fb = sp.grade_output(ex, out)
            assert "combined" in fb.kinds and "reduction" not in fb.kinds, (level, seed, fb.kinds)
            named = next(m for m in fb.misconceptions if m.kind == "combined")
            assert named.chain and all("starts at" in c and "you wrote" in c for c in named.chain)
            assert {n.cell for n in fb.cells} == set(fb.wrong_cells)
            seen += 1
    assert seen >= 40


def test_step_target_at_the_updates_own_position_is_named():
    found = 0
    for level in (1, 2):
        for seed in range(40):
            ex = sp.make_exercise(seed, level)
            t = ex.trace
            if t.updates.ndim != t.data.ndim or ex.indices is None:
                continue
            for k in range(ex.steps):
                own = tuple(int(v) for v in t.source_cells(k)[0])
                if own in cells_of(ex, k) or any(o >= s for o, s in zip(own, ex.answer.shape)):
                    continue
                fb = sp.grade_step(ex, k, own, t.after[k][0])
                assert fb.target_correct is False and "update-position" in fb.kinds, (level, seed, k, fb.kinds)
                named = next(m for m in fb.misconceptions if m.kind == "update-position")
                assert "the update's own position" in named.message
                right = cells_of(ex, k)[0]
                assert named.chain[0].startswith(f"output[{', '.join(map(str, right))}] starts at")
                found += 1
    assert found >= 30


def test_every_diagnosis_keeps_its_chain_of_writes():
    for level in LEVELS:
        for seed in range(15):
            ex = sp.make_exercise(seed, level)
            for kind, out in sp.student_outputs(ex).items():
                fb = sp.grade_output(ex, out)
                for m in fb.misconceptions:
                    assert m.chain, (level, seed, m.kind)
                    cells = {f"output[{', '.join(map(str, n.cell))}]" for n in fb.cells}
                    assert all(any(cell in c for cell in cells) for c in m.chain)


def test_an_answer_after_the_reveal_is_recorded_as_such_and_scores_nothing():
    ex = sp.make_exercise(3, 1)
    fb = sp.grade_output(ex, ex.answer.copy(), after_reveal=True)  # the spec's result pasted back
    assert fb.after_reveal and not fb.correct and not fb.conforms and fb.matches_answer
    assert "scores nothing" in fb.explanation and "All" in fb.explanation
    wrong = ex.answer.copy()
    wrong.reshape(-1)[0] += 500
    fb = sp.grade_output(ex, wrong, after_reveal=True)
    assert fb.after_reveal and not fb.conforms and not fb.matches_answer and fb.wrong_cells
    t = ex.trace
    fb = sp.grade_step(ex, 0, cells_of(ex, 0)[0], t.after[0][0], after_reveal=True)
    assert fb.after_reveal and not fb.correct and not fb.conforms and fb.matches_answer
    assert sp.grade_step(ex, 0, cells_of(ex, 0)[0], t.after[0][0]).conforms  # before the reveal it scores
    assert sp.grade_output(ex, ex.answer).conforms


def test_the_hint_after_a_first_wrong_try_never_gives_the_answer_away():
    for level in LEVELS:
        for seed in range(20):
            ex = sp.make_exercise(seed, level)
            t = ex.trace
            for k in range(ex.steps):
                right = cells_of(ex, k)
                wrong_cell = next((c for c in np.ndindex(ex.answer.shape) if c not in right), None)
                value = t.after[k][0]
                if wrong_cell is not None:
                    fb = sp.grade_step(ex, k, wrong_cell, value)
                    hint = sp.retry_hint(ex, k, fb)
                    assert hint.startswith("Not that cell")
                    assert not any(f"output[{', '.join(map(str, c))}]" in hint for c in right), hint
                fb = sp.grade_step(ex, k, right[0], value + 1000)
                head = sp.retry_hint(ex, k, fb).split(" It looks like")[0]  # the catalogue's words follow
                assert head.startswith("The target is right; the value is not")
                # the only numbers: the step's and the value the cell held before it (not the one after)
                assert set(re.findall(r"-?\d+(?:\.\d+)?", head)) <= {str(k + 1), fmt(t.before[k][0])}, head
            wrong = ex.answer.copy()
            cell = tuple(s - 1 for s in ex.answer.shape)
            wrong[cell] += 1000
            fb = sp.grade_output(ex, wrong)
            assert sp.output_retry_hint(ex, fb) == (
                f"1 cell is not right yet: output[{', '.join(map(str, cell))}]. Follow the writes to it in loop "
                f"order, starting from data's value.")


def fmt(v) -> str:
    return sc.fmt_value(v.item() if hasattr(v, "item") else v)


def test_attributes_that_do_not_apply_are_not_printed():
    """use_init_val plays no part under reduction none: the prompt and the worksheet leave it out."""
    seen = 0
    for level in (1, 2, 5):
        for seed in range(40):
            ex = sp.make_exercise(seed, level)
            if "use_init_val" not in ex.attrs:
                continue
            if ex.trace.reduction.ufunc is None:
                assert "use_init_val" not in ex.attrs_text and "use_init_val" not in ex.prompt
                seen += 1
            else:
                assert "use_init_val=" in ex.attrs_text
    assert seen >= 5
