"""scatter_core.explaining: every reduction of a cell said as the spec defines it, in one place for every view."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import numpy as np
import pytest

import scatter_core as sc
from scatter_core import explaining  # its doctests, and ROUNDINGS

ROOT = Path(__file__).resolve().parents[2]


def chain(op, data, indices, updates, expected, rtol=sc.DEFAULT_RTOL, atol=sc.DEFAULT_ATOL, **attrs):
    r = sc.check_expected(sc.case(op, np.asarray(data), indices, np.asarray(updates), **attrs), expected, rtol=rtol,
                          atol=atol)
    return r.chains[0]


def test_the_doctests_run():
    result = doctest.testmod(explaining)
    assert result.attempted >= 5 and result.failed == 0


def test_the_issue_mean_states_the_sum_the_count_and_each_rounding():
    """Issue 32: data -1 with updates 1 and -1 on one cell: (-1 + 1 - 1) / 3 = -1/3, floored -1, truncated 0."""
    c = chain("ScatterElementsUpdate-12", np.array([-1, 5], np.int32), [0, 0], np.array([1, -1], np.int32), [0, 5],
              axis=0, reduction="mean")
    text = c.explain("OpenVINO CPU gave")
    assert "Sum -1 + 1 + -1 = -1 over count 3: -1/3 ≈ -0.3333." in text
    assert "Rounded down (toward −∞) as the spec says: -1" in text
    assert re.search(r"truncated toward zero, as the OpenVINO \d{4}\.\S+ CPU plugin does: 0\.", text)
    assert text.endswith("Computed -1; OpenVINO CPU gave 0, which is -1/3 ≈ -0.3333 truncated toward zero.")
    assert "→" not in text and "(mean): " not in text  # never a running pair
    # the expected value floored (the spec) is named as such
    c = chain("ScatterElementsUpdate-12", np.array([-1, 5], np.int32), [0, 0], np.array([1, -1], np.int32), [9, 5],
              axis=0, reduction="mean")
    assert c.explain().endswith("you expected 9, which is no rounding of that quotient.")


def test_a_mean_without_data_counts_the_updates_only_and_a_wrapped_sum_is_said():
    c = chain("ScatterElementsUpdate-12", np.array([7, 0], np.int32), [0, 0], np.array([-1, -2], np.int32), [-1, 0],
              axis=0, reduction="mean", use_init_val=False)
    text = c.explain()
    assert "every update aimed at the cell (use_init_val=false: data's value takes no part)" in text
    assert "Sum -1 + -2 = -3 over count 2: -3/2 ≈ -1.5" in text and "as the spec says: -2" in text
    c = chain("ScatterElementsUpdate-12", np.array([120, 0], np.int8), [0, 0], np.array([120, 120], np.int8),
              [120, 0], axis=0, reduction="mean")
    text = c.explain()
    assert "Sum 120 + 120 + 120 = 360, which wraps to 104 in int8, over count 3: 104/3 ≈ 34.67" in text
    assert "Rounded down (toward −∞) as the spec says: 34; truncated toward zero" in text
    assert text.endswith("Computed 34; you expected 120, which is 120 rounded down (toward −∞), from the unwrapped "
                         "sum.")  # what a runtime that does not wrap (the CPU plugin on int16) would give
    c = chain("ScatterElementsUpdate-12", np.array([-2, 0], np.int32), [0], np.array([-4], np.int32), [0, 0],
              axis=0, reduction="mean")
    assert "Sum -2 + -4 = -6 over count 2: -3. An exact quotient, so no rounding." in c.explain()


def test_an_int8_mean_names_no_runtime_rounding_the_facts_do_not_give():
    assert explaining.mean_roundings("ScatterElementsUpdate-12", np.int8) == explaining.mean_roundings(
        "ScatterElementsUpdate-12", np.int32)  # the CPU plugin truncates every integer dtype
    assert explaining.mean_roundings("ScatterND-18", np.int64) == ()


@pytest.mark.parametrize("op,reduction,dtype,data,updates,definition", [
    ("ScatterElements-18", "none", np.int64, [1, 5], [4, 7], "each write replaces the cell, so the last of the 2 in "
                                                              "the spec's loop order stays: 7."),
    ("ScatterElements-18", "add", np.int64, [1, 5], [4, 7], "the sum of data's value and every update aimed at the "
                                                            "cell: 1 + 4 + 7 = 12."),
    ("ScatterElements-18", "mul", np.int64, [2, 5], [4, 7], "the product of data's value and every update aimed at "
                                                            "the cell: 2 × 4 × 7 = 56."),
    ("ScatterElements-18", "max", np.int64, [1, 5], [4, 7], "the largest of data's value and every update aimed at "
                                                            "the cell: max(1, 4, 7) = 7."),
    ("ScatterElements-18", "min", np.int64, [9, 5], [4, 7], "the smallest of data's value and every update aimed at "
                                                            "the cell: min(9, 4, 7) = 4."),
    ("ScatterElements-18", "add", np.int8, [100, 5], [100, 100], "100 + 100 + 100 = 300, which wraps to 44 in int8."),
    ("ScatterElements-18", "add", np.bool_, [False, True], [False, True], "the logical OR of data's value and every "
                                                                          "update aimed at the cell: false or false "
                                                                          "or true = true."),
    ("ScatterElements-18", "add", np.float32, [0.0, 0.0], [0.1, 0.2], "0 + 0.1 + 0.2 = 0.3 in float32, rounded "
                                                                      "after each step of the spec's loop order."),
])
def test_every_reduction_is_said_as_the_spec_defines_it(op, reduction, dtype, data, updates, definition):
    d, u = np.array(data, dtype), np.array(updates, dtype)
    expected = np.array(data, dtype)  # no write: so output[0] differs
    c = chain(op, d, [0, 0], u, expected, reduction=reduction, rtol=0, atol=0)
    text = c.explain()
    assert f"Reduction {reduction}: " in text and definition in text, text
    assert text.startswith("output[0] starts at") and "step 2 applies updates[1]" in text  # the loop, then the rule


def test_sub_subtracts_every_update_from_data():
    c = chain("ScatterNDUpdate-15", np.array([1, 2, 3, 4]), [[0], [2], [-3], [-3], [0]], np.array([10, 20, 30, 40, 50]),
              [0, 2, 3, 4], reduction="sub")
    assert "the updates subtracted in turn: 1 - 10 - 50 = -59." in c.explain()


def test_the_explorer_caption_of_a_mean_step_is_a_running_sum_over_a_count():
    t = sc.trace(sc.case("ScatterElementsUpdate-12", np.array([0, 0], np.int32), [0, 0], np.array([-3, -1], np.int32),
                         axis=0, reduction="mean"))
    assert t.describe(0).endswith("mean: running sum 0 + -3 = -3 over 2 contributions; the cell shows their mean so "
                                  "far, -3 / 2 = -3/2 ≈ -1.5, rounded down (toward −∞): -2 (the spec divides once, "
                                  "after the cell's last write)")
    assert "-4 / 3 = -4/3 ≈ -1.333, rounded down (toward −∞): -2" in t.describe(1)


VIEWS = ("scatter_ui", "scatter_practice", "scatter_models", "scatter_export", "app_pages", "framework_map", "from_code",
         "runtime_check")
OWN_MEAN_TEXT = re.compile(r"Fraction\(|math\.(floor|trunc)\(|over count|running sum|divides once|"
                           r"rounds an integer mean|applies updates")


def test_no_view_builds_its_own_mean_or_chain_text():
    """Every cell explanation comes from scatter_core.explaining (through ``Chain.explain`` or ``Trace.describe``):
    no page, grader or report computes a quotient or words a cell's reduction itself."""
    found = []
    for package in VIEWS:
        for path in sorted((ROOT / package).rglob("*.py")):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if OWN_MEAN_TEXT.search(line) and not line.lstrip().startswith("#"):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)
    users = [p for pkg in VIEWS for p in (ROOT / pkg).rglob("*.py") if ".explain(" in p.read_text(encoding="utf-8")]
    assert {p.relative_to(ROOT).as_posix() for p in users} >= {"scatter_ui/pages/check_expected.py",
                                                                "scatter_practice/grading.py",
                                                                "scatter_models/explain.py"}


def test_any_cell_of_a_trace_is_said_and_a_long_list_of_writes_is_cut():
    """``chain_of``: "Go to a cell" on the model page says the cell the same way, with nobody's value to compare; a
    big node's cell lists its first writes and its last, and counts the rest."""
    t = sc.trace(sc.case("ScatterElementsUpdate-12", np.array([0, 0], np.int32), np.zeros(20, int),
                         np.arange(-10, 10, dtype=np.int32), axis=0, reduction="mean"))
    text = sc.chain_of(t, (0,)).explain()
    assert "gets 20 updates" in text and "step 11 updates[10] = 0, … 8 more, step 20 updates[19] = 9." in text
    assert "step 12 updates" not in text and "(21 terms) = -10 over count 21: -10/21 ≈ -0.4762" in text
    assert text.endswith("Computed -1.") and "expected" not in text
    t = sc.trace(sc.case("ScatterElements-18", np.array([0, 0], np.int32), np.zeros(14, int), np.arange(-7, 7, dtype=np.int32),
                         reduction="none"))
    text = sc.chain_of(t, (0,)).explain()
    assert "… 2 more; step 14 applies updates[13] = 6 (none): 5 → 6." in text and "stays: 6." in text
    assert sc.chain_of(t, (1,)).explain() == "No update reaches output[1], so it keeps data's value 0."


def test_practice_feedback_on_a_mean_says_the_sum_over_the_count():
    import scatter_practice as sp

    def inexact(e):  # the written cells whose mean is not a whole number
        cells, acc, count = e.trace.mean_parts()
        return cells[acc % count != 0]

    ex = next(e for e in (sp.make_exercise(s, 4) for s in range(400))
              if e.trace.reduction.divides and e.answer.dtype.kind == "i" and inexact(e).size)
    cell = tuple(int(v) for v in np.unravel_index(int(inexact(ex)[0]), ex.answer.shape))
    out = ex.answer.copy()
    out[cell] += 1  # the mean rounded up (or toward zero, where it is negative)
    fb = sp.grade_output(ex, out)
    (note,) = [n for n in fb.cells if n.cell == cell]
    assert "their sum over their count, taken once after the last write" in note.chain
    assert re.search(r"Sum .* over count \d+", note.chain) and "as the spec says" in note.chain
    assert re.search(rf"you wrote {out[cell]}, which is -?\d+/\d+ ≈ \S+ (rounded up|truncated toward zero)", note.chain)
    assert "→" not in note.chain
