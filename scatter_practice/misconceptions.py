"""The misconception catalogue, as data.

One row per kind: the kind (``check_expected``'s diagnosis vocabulary plus this catalogue's own), a title, two
sentences a student can read, a spec example that shows it in the explorer, and a function giving the output
a student holding it would write (None where it cannot show). The kinds ``check_expected`` knows take their
outputs from its diagnosis engine (``scatter_core.checking.ALTERNATIVES``), so grading and the catalogue never
disagree; the kinds of the KV cache and the strided slice also say where each step writes (``targets``), which
``grade_step`` uses to name a wrong target. More: docs/architecture.md, scatter_practice/misconceptions.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Iterator

import numpy as np

import scatter_core as sc
from scatter_core import (
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
    # where a student holding it thinks each step writes: (steps, cells) flat output cells, -1 for a write the
    # student thinks is lost; None (the field, or its result): the misconception does not move whole writes
    targets: Callable[[Exercise], np.ndarray | None] | None = None
    step_words: str = "under this misreading"  # "output[c] is where step k would write <step_words>"

    def step_cells(self, ex: Exercise, k: int) -> tuple[tuple[int, ...], ...]:
        """The output cells a student holding this misconception thinks step ``k`` writes (none if it can't say)."""
        moved = self.targets(ex) if self.targets is not None else None
        if moved is None:
            return ()
        flat = moved[k][moved[k] >= 0]
        return tuple(tuple(int(v) for v in np.unravel_index(int(f), ex.answer.shape)) for f in flat)


def _outputs(ex: Exercise, generator, attrs: dict | None = None) -> Iterator[np.ndarray]:
    """Outputs of one engine alternative's candidates that run (same shape and dtype as the answer); with
    ``attrs``, only the candidate reading with exactly those attributes."""
    for _kind, reading, _message, compute in generator(ex.case, ex.trace):
        if attrs is not None and dict(reading) != attrs:
            continue
        try:
            with np.errstate(all="ignore"):
                out = compute()
        except sc.ScatterError:
            continue
        if out is not None and out.shape == ex.answer.shape and out.dtype == ex.answer.dtype:
            yield np.asarray(out)


def in_exercise_words(diagnosis, ex: Exercise) -> str:
    """A diagnosis's sentence said to a student: check_expected addresses someone who chose the operator and its
    attributes ("you chose 'add'"), but an exercise fixed them, so it names what the exercise uses instead."""
    msg = diagnosis.message.replace("Your expected output", "Your output", 1)
    if "you chose" not in msg:
        return msg
    msg = re.sub(r"; you chose ([\w.-]+), which ", r"; this exercise uses \1, which ", msg)  # a family's reading
    if "you chose" not in msg:
        return msg
    change = {k: v for k, v in diagnosis.change.items() if k not in ("indices_shape", "updates_shape")}
    other = change.pop("op", None)
    theirs = ", ".join(sc.fmt_attr(k, v) for k, v in change.items())
    ours = ", ".join(sc.fmt_attr(k, ex.attrs[k]) for k in change if ex.attrs.get(k) is not None)
    if other:
        return f"Your output is what {other}{f' ({theirs})' if theirs else ''} gives; this exercise uses {ex.op}."
    return f"Your output is what {theirs} gives; this exercise uses {ours or 'other values'}."


def retrace(ex: Exercise, indices=None, **change) -> sc.Trace | None:
    """The exercise traced again with other indices (default: its own) or changed attributes; None if invalid."""
    try:
        return sc.trace(ex.case.replace(**change) if indices is None else ex.case.replace(indices=indices, **change))
    except sc.ScatterError:
        return None


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
    found = _first_different(ex, alt_negative_indices)
    return found if found is not None else _moved(ex, negative_start_dropped(ex))


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


def combined(ex: Exercise) -> np.ndarray | None:
    """Reduction none read as add: every write is added to what the cell holds instead of replacing it (the
    engine's reading for versions with a reduction attribute; scatter_core's add folds each write in)."""
    t = ex.trace
    if t.reduction.ufunc is not None or t.data.dtype == np.bool_:
        return None
    out = t.data.copy().reshape(-1)
    sc.REDUCTIONS["sum"].combiner(t.data.dtype).at(out, t.plan.targets.reshape(-1), t.values.reshape(-1))
    return out.reshape(t.data.shape)


def from_zeros(ex: Exercise) -> np.ndarray | None:
    """The output starts empty (zeros) instead of as a copy of data: untouched cells become 0."""
    t = ex.trace
    untouched = np.ones(t.data.size, dtype=bool)
    untouched[t.plan.targets.reshape(-1)] = False
    untouched = untouched.reshape(t.data.shape)
    if not (untouched & (t.data != 0)).any():
        return None
    return np.where(untouched, np.zeros((), dtype=t.data.dtype), ex.answer).astype(t.data.dtype)


# -- students who move whole writes (reduction none): the new families' misreadings ---------------------------
def _moved(ex: Exercise, targets: np.ndarray | None) -> np.ndarray | None:
    """data with each step's values written to the student's ``targets`` in loop order (-1: the write is lost)."""
    t = ex.trace
    if targets is None or t.reduction.ufunc is not None:
        return None
    out = t.data.copy().reshape(-1)
    for cells, values in zip(targets, t.values):
        keep = cells >= 0
        out[cells[keep]] = values[keep]
    return out.reshape(t.data.shape)


def own_position(ex: Exercise) -> np.ndarray | None:
    """Each update written at its own position in updates (the index not read as the target): where updates has
    data's rank and an index is given per update; a position outside data is a lost write (-1)."""
    t = ex.trace
    if ex.indices is None or sc.family_of(ex.spec).indices != "required" or t.updates.ndim != t.data.ndim:
        return None
    coords = np.stack(np.unravel_index(t.plan.sources, t.updates.shape), axis=-1)  # (steps, slots, rank)
    inside = (coords < np.array(t.data.shape)).all(axis=-1)
    flat = np.ravel_multi_index(tuple(np.minimum(coords, np.array(t.data.shape) - 1).transpose(2, 0, 1)),
                                t.data.shape)
    targets = np.where(inside, flat, -1)
    return None if np.array_equal(targets, t.plan.targets) else targets


def _for_families(*families: str):
    """A reading that only the listed families' loops can hold (a table entry, as the drawers are)."""
    def wrap(reading):
        def only(ex: Exercise):
            return reading(ex) if ex.spec.family in families else None
        only.__name__, only.__doc__ = reading.__name__, reading.__doc__
        return only
    return wrap


def _targets_with(ex: Exercise, indices) -> np.ndarray | None:
    t = retrace(ex, indices=indices)
    return None if t is None else t.plan.targets


def unwrapped(ex: Exercise) -> np.ndarray | None:
    """Circular mode read as linear: a write whose position w + s runs past the end of the cache is lost (it
    cannot be written at w + s, and linear mode would refuse it), instead of wrapping to (w + s) mod length."""
    if ex.attrs.get("mode") != "circular":
        return None
    t = ex.trace
    plan = t.plan
    s = np.array([t.loop_position(i)[-1] for i in range(len(t))], dtype=np.int64)  # the sequence position
    wrapped = plan.index_raw[:, 0].astype(np.int64) + s != plan.index_norm[:, 0]
    if not wrapped.any():
        return None
    targets = plan.targets.copy()
    targets[wrapped] = -1
    return targets


@_for_families("cache")
def one_write_index(ex: Exercise) -> np.ndarray | None:
    """Every batch entry writes from batch entry 0's write index."""
    w = ex.indices
    if w is None or w.size < 2 or (w == w.reshape(-1)[0]).all():
        return None
    return _targets_with(ex, np.full_like(w, w.reshape(-1)[0]))


def index_ignored(ex: Exercise) -> np.ndarray | None:
    """The given optional indices ignored: the writes go where the input's default (left out) puts them."""
    if ex.indices is None or sc.family_of(ex.spec).indices != "optional":
        return None
    try:
        t = sc.trace(ex.case.replace(indices=None))
    except sc.ScatterError:
        return None
    return t.plan.targets


def _slice_reading(ex: Exercise, change) -> np.ndarray | None:
    """Targets when each sliced axis's positions are replaced by ``change(positions, size, start, stop, step)``
    (None: that axis is read right); None when no axis changes or a position falls off the axis. The true
    positions come from the trace (slice element u is written to output cell c)."""
    a = ex.attrs
    if any(a.get(name) is None for name in ("start", "stop", "step")):
        return None
    t, shape = ex.trace, ex.data.shape
    rank, slice_shape = len(shape), t.updates.shape
    cells = np.array([t.target_cells(i)[0] for i in range(len(t))], dtype=np.int64)  # (steps, rank)
    elements = np.array([t.source_cells(i)[0] for i in range(len(t))], dtype=np.int64)
    axes = a.get("axes") if a.get("axes") is not None else range(len(a["start"]))
    moved = cells.copy()
    changed = False
    for axis, b, e, st in zip(axes, a["start"], a["stop"], a["step"]):
        axis = int(axis) % rank
        positions = np.empty(slice_shape[axis], dtype=np.int64)
        positions[elements[:, axis]] = cells[:, axis]
        other = change(positions, shape[axis], int(b), int(e), int(st))
        if other is None:
            continue
        other = np.asarray(other, dtype=np.int64)
        if ((other < 0) | (other >= shape[axis])).any():
            return None
        moved[:, axis] = other[elements[:, axis]]
        changed = changed or not np.array_equal(other, positions)
    if not changed:
        return None
    return np.ravel_multi_index(tuple(moved.T), shape).reshape(-1, 1)


def _plain(v: int, size: int) -> int | None:
    """A bound's position when it is within the axis (a negative one counted from the end); None if clamped."""
    if -size <= v < 0:
        return v + size
    return v if 0 <= v <= size else None


def _run(first: int, step: int, n: int) -> np.ndarray:
    return first + step * np.arange(n, dtype=np.int64)


def stop_included(ex: Exercise) -> np.ndarray | None:
    """stop counted in: the slice ends at stop, one step later, so every write moves one step along."""
    def change(pos, size, start, stop, step):
        p = _plain(stop, size)
        return pos + step if p is not None and p < size and p == pos[-1] + step else None
    return _slice_reading(ex, change)


def step_ignored(ex: Exercise) -> np.ndarray | None:
    """The step read as 1 (its direction kept): neighbouring positions from the same first one."""
    def change(pos, size, start, stop, step):
        return _run(pos[0], 1 if step > 0 else -1, pos.size) if abs(step) > 1 and pos.size > 1 else None
    return _slice_reading(ex, change)


def walked_forwards(ex: Exercise) -> np.ndarray | None:
    """A negative step walked forwards from the lowest position: the same positions, the updates reversed."""
    def change(pos, size, start, stop, step):
        return pos[::-1] if step < 0 and pos.size > 1 else None
    return _slice_reading(ex, change)


def negative_start_dropped(ex: Exercise) -> np.ndarray | None:
    """A negative start read without its minus sign (-2 as 2)."""
    def change(pos, size, start, stop, step):
        return _run(-start, step, pos.size) if -size <= start < 0 else None
    return _slice_reading(ex, change)


def bound_wrapped(ex: Exercise) -> np.ndarray | None:
    """A start beyond either end wrapped around the axis instead of clamped: every position start + i·step is
    taken modulo the axis size (as a circular cache does)."""
    def change(pos, size, start, stop, step):
        return _run(start, step, pos.size) % size if _plain(start, size) is None else None
    return _slice_reading(ex, change)


def _moves(kind: str, title: str, explanation: str, reading, example: str, **more) -> Misconception:
    """A catalogue row whose misreading moves whole writes: its output and its step targets from one reading."""
    return Misconception(kind, title, explanation, _moving(reading), example, reading, **more)


def _moving(reading):
    """The student output of a reading that moves whole writes."""
    def student(ex: Exercise) -> np.ndarray | None:
        return _moved(ex, reading(ex))
    student.__name__, student.__doc__ = reading.__name__, reading.__doc__
    return student


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
        negative_misread, "onnx-node-scatter-elements-with-negative-indices", negative_start_dropped),
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
        "combined", "Combined instead of replaced",
        "With reduction none each write replaces the cell: the value it held before plays no part. Adding the "
        "update to it (or multiplying, or keeping the larger) is what a reduction such as add does.",
        combined, "onnx-scatterelements-18-example-2"),
    _moves(
        "update-position", "The update's own position used as the target",
        "The index, not the update's own position in updates, says where a write goes: it replaces the "
        "coordinate it indexes. Writing each update where it sits in updates ignores the index.",
        own_position, "onnx-scatterelements-18-example-2", step_words="if it went to the update's own position"),
    Misconception(
        "start-from-zeros", "Output started empty",
        "The output starts as a copy of data, so every cell no update reaches keeps data's value. It does not "
        "start from zeros.",
        from_zeros, "onnx-scatternd-18-example-1"),
    # the KV cache (TensorScatter)
    _moves(
        "no-wrap", "Circular write not wrapped around",
        "In circular mode a cache position is taken modulo the cache length, so a write that runs past the end "
        "continues at position 0. Those writes are not lost (and in linear mode such a write is an error).",
        unwrapped, "onnx-node-tensorscatter-circular"),
    _moves(
        "one-write-index", "One write index for the whole batch",
        "Each batch entry has its own write index: write_indices[b] says where entry b's new rows start. Using "
        "one entry's index for every entry puts the other entries' rows in the wrong place.",
        one_write_index, "onnx-node-tensorscatter-3d"),
    _moves(
        "write-index-ignored", "Write indices ignored",
        "write_indices[b] is the cache position where batch entry b's rows start. Only when write_indices is "
        "left out does every entry write from position 0.",
        index_ignored, "onnx-node-tensorscatter"),
    # the strided slice (SliceScatter)
    _moves(
        "stop-inclusive", "stop counted in",
        "stop is excluded: the slice ends one step before it, as Python's a[start:stop:step] does. Counting stop "
        "in ends the slice one step later, which moves every write along by one step.",
        stop_included, "ov-slice-scatter-15-example-1"),
    _moves(
        "step-ignored", "Step ignored",
        "The step is the distance between the slice's positions: step 2 takes every second position, step -1 "
        "walks backwards. Ignoring its size writes the updates to neighbouring positions instead.",
        step_ignored, "ov-slice-scatter-15-example-3"),
    _moves(
        "negative-step-forward", "Negative step read from the start",
        "With a negative step the slice walks backwards: the first update goes to start, the next one a step "
        "lower. Walking forwards from the lowest position writes the updates in reverse order.",
        walked_forwards, "teach-slice-scatter-negative-step"),
    _moves(
        "bound-wrapped", "Out-of-range bound wrapped instead of clamped",
        "A start or stop beyond either end of the axis is clamped to that end, as Python's slicing does: start "
        "100 with step -2 on an axis of size 7 begins at position 6. Positions are not wrapped around the axis.",
        bound_wrapped, "teach-slice-scatter-negative-step"),
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
