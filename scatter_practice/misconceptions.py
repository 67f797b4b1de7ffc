"""The misconception catalogue, as data.

One row per kind: the kind (``check_expected``'s diagnosis vocabulary, plus
``slice-as-element`` and ``start-from-zeros``), a title, two sentences a
student can read, a spec example that shows it in the explorer, and a function
giving the output a student holding that misconception would write for an
exercise (None where the misconception cannot show: no negative index, no
duplicates, no axis ...).

The outputs of the kinds ``check_expected`` knows come from its own diagnosis
engine (``scatter_core.checking.ALTERNATIVES``), so grading and the catalogue
never disagree about what a reading gives. Readings with several variants
(negative indices, family, version) give the first variant, in the engine's
order, whose output differs from the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Iterator

import numpy as np

import scatter_core as sc
from scatter_core.checking import (
    alt_axis, alt_family, alt_first_write_wins, alt_mean_truncated, alt_negative_indices, alt_reduction,
    alt_use_init_val, alt_version,
)

from .exercises import Exercise


@dataclass(frozen=True)
class Misconception:
    kind: str
    title: str
    explanation: str  # two sentences, our words
    student: Callable[[Exercise], np.ndarray | None]  # the output a student holding it writes; None: can't show
    example: str  # a spec_examples id the explorer opens to show it


def case_of(ex: Exercise) -> sc.Case:
    """The exercise as check_expected's diagnosis engine sees it (scatter_core's public Case)."""
    return sc.case(ex.op, ex.data, ex.indices, ex.updates, **ex.attrs)


def _outputs(ex: Exercise, generator, attrs: dict | None = None) -> Iterator[np.ndarray]:
    """Outputs of one engine alternative's candidates that run (same shape and dtype as the answer); with
    ``attrs``, only the candidate reading with exactly those attributes."""
    for _kind, reading, _message, compute in generator(case_of(ex), ex.trace):
        if attrs is not None and dict(reading) != attrs:
            continue
        try:
            with np.errstate(all="ignore"):
                out = compute()
        except sc.ScatterError:
            continue
        if out is not None and out.shape == ex.answer.shape and out.dtype == ex.answer.dtype:
            yield np.asarray(out)


def _first(ex: Exercise, generator, attrs: dict | None = None) -> np.ndarray | None:
    return next(_outputs(ex, generator, attrs), None)


def _first_different(ex: Exercise, generator) -> np.ndarray | None:
    return next((o for o in _outputs(ex, generator) if not np.array_equal(o, ex.answer)), None)


# -- the students' outputs ------------------------------------------------------------------------
def replaced(ex: Exercise) -> np.ndarray | None:
    """Every write replaces the cell (reduction none) although the exercise's reduction combines."""
    if ex.trace.reduction.ufunc is None:
        return None
    return _first(ex, alt_reduction, {"reduction": ex.spec.spelling_of("none")})


def flipped_init(ex: Exercise) -> np.ndarray | None:
    return _first(ex, alt_use_init_val)


def other_axis(ex: Exercise) -> np.ndarray | None:
    return _first(ex, alt_axis)


def first_write_wins(ex: Exercise) -> np.ndarray | None:
    return _first(ex, alt_first_write_wins)


def negative_misread(ex: Exercise) -> np.ndarray | None:
    return _first_different(ex, alt_negative_indices)


def other_family(ex: Exercise) -> np.ndarray | None:
    return _first_different(ex, alt_family)


def other_version(ex: Exercise) -> np.ndarray | None:
    return _first_different(ex, alt_version)


def truncated_mean(ex: Exercise) -> np.ndarray | None:
    return _first(ex, alt_mean_truncated)


def slice_as_element(ex: Exercise) -> np.ndarray | None:
    """Only the first cell of each slice is written (each step treated as one element)."""
    t = ex.trace
    if t.slice_size <= 1:
        return None
    first_cells = t.plan.targets[:, 0]
    first_values = t.values[:, 0]
    if t.reduction.ufunc is None:
        out = t.data.copy()
        out.reshape(-1)[first_cells] = first_values  # loop order: the last write to a cell stays
        return out
    # with a reduction: the same version on element tuples, i.e. one k = rank tuple per step
    tuples = np.stack(np.unravel_index(first_cells, t.data.shape), axis=-1).astype(t.indices.dtype)
    tuples = tuples.reshape(tuple(t.plan.loop_shape) + (t.data.ndim,))
    try:
        return sc.scatter(ex.op, t.data, tuples, first_values.reshape(t.plan.loop_shape), **ex.attrs)
    except sc.ScatterError:
        return None


def from_zeros(ex: Exercise) -> np.ndarray | None:
    """The output starts empty (zeros) instead of as a copy of data: untouched cells become 0."""
    t = ex.trace
    untouched = np.ones(t.data.size, dtype=bool)
    untouched[t.plan.targets.reshape(-1)] = False
    untouched = untouched.reshape(t.data.shape)
    if not (untouched & (t.data != 0)).any():
        return None
    return np.where(untouched, np.zeros((), dtype=t.data.dtype), ex.answer).astype(t.data.dtype)


MISCONCEPTIONS: tuple[Misconception, ...] = (
    Misconception(
        "reduction", "Replaced instead of combined",
        "With a reduction such as add, mul, max or min, a write combines the update with what the cell already "
        "holds. Only reduction none replaces the cell, so with duplicates every update counts, not just the last.",
        replaced, "onnx-node-scatter-elements-with-duplicate-indices"),
    Misconception(
        "use_init_val", "use_init_val read the wrong way",
        "With use_init_val=true the cell's data value takes part in the reduction; with false, every targeted "
        "cell starts from the reduction's neutral value (0 for sum, 1 for prod, the extreme for max and min). "
        "Cells that no update reaches keep data's value either way.",
        flipped_init, "ov-scatter-elements-update-12-example-2"),
    Misconception(
        "axis", "Index applied on the wrong axis",
        "An Elements index replaces only the coordinate along axis; the update's own position gives every other "
        "coordinate. Putting the index on another axis moves the write to a different cell.",
        other_axis, "onnx-scatterelements-18-example-1"),
    Misconception(
        "first-write-wins", "The first write kept",
        "With reduction none, each write replaces the cell, and the spec's loop runs in row-major order. So when "
        "two updates hit one cell, the later one in loop order stays.",
        first_write_wins, "teach-duplicates-none"),
    Misconception(
        "negative-index", "Negative index misread",
        "A negative index counts from the end of the dimension it indexes: -1 is the last position, v means "
        "v + size. It is neither skipped nor read without its minus sign.",
        negative_misread, "onnx-node-scatter-elements-with-negative-indices"),
    Misconception(
        "family", "Indices read as another family reads them",
        "ScatterElements takes one index per update for one axis, ScatterND takes a tuple from the last indices "
        "axis that addresses an element or a slice, and ScatterUpdate takes each index as a whole slice. The "
        "same numbers address different cells in each family.",
        other_family, "onnx-scatternd-18-example-2"),
    Misconception(
        "version", "Another version's rules",
        "Versions of one operator differ in the reductions, attributes and index ranges they allow. The output "
        "matches a neighbouring version, not the one the exercise names.",
        other_version, "onnx-node-scatter-elements-with-reduction-min"),
    Misconception(
        "mean-truncated", "Integer mean rounded toward zero",
        "The spec divides an integer mean's sum by the count and rounds down, toward minus infinity. For a "
        "negative, inexact mean that is one less than rounding toward zero (-7 / 2 gives -4, not -3).",
        truncated_mean, "teach-mean-negative-int"),
    Misconception(
        "slice-as-element", "Only the first element of a slice written",
        "When an index addresses fewer dimensions than data has, one step writes a whole slice: every cell along "
        "the dimensions the index leaves open. Each cell of the slice gets its own update value.",
        slice_as_element, "onnx-scatternd-18-example-2"),
    Misconception(
        "start-from-zeros", "Output started empty",
        "The output starts as a copy of data, so every cell no update reaches keeps data's value. It does not "
        "start from zeros.",
        from_zeros, "onnx-scatternd-18-example-1"),
)

BY_KIND = MappingProxyType({m.kind: m for m in MISCONCEPTIONS})


def student_outputs(ex: Exercise) -> dict[str, np.ndarray]:
    """Kind -> the output its misconception gives for ``ex``, where it applies and differs from the answer."""
    found = {}
    for m in MISCONCEPTIONS:
        out = m.student(ex)
        if out is not None and not np.array_equal(out, ex.answer):
            found[m.kind] = out
    return found
