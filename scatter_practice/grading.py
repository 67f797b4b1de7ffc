"""Grading a student's whole output or one predicted step, with feedback in plain words.

``grade_output`` compares the output with the answer through ``scatter_core.check_expected`` and names the
misconceptions that explain it; ``grade_step`` checks one step's target cell and value against the same step
under other readings, each traced by scatter_core, never recomputed here.

Both grade by the spec, not by one loop order: a student who keeps another write to a duplicated cell under
reduction none is not wrong (``correct`` False, the cell ``allowed``, ``conforms`` True when nothing else is
wrong), and the feedback says why. Each named misconception keeps the chain of writes that explains it
(``Named.chain``); an answer given after the answer was shown (``after_reveal=True``) scores nothing;
``TRIES``: checks before the reveal. The rules in full: docs/architecture.md, scatter_practice/grading.py.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

import scatter_core as sc
from scatter_core import fmt_pos, fmt_value

from .exercises import Exercise
from .misconceptions import BY_KIND, MISCONCEPTIONS, in_exercise_words, retrace, student_outputs

MAX_EXPLAINED = 12  # wrong cells explained one by one in Feedback.explanation (all are listed)
TRIES = 2  # checks of one answer before the answer is shown: the first wrong one gets a hint, the second the answer
AFTER_REVEAL = ("Given after the answer was shown, so it is recorded as answered after the reveal and scores "
                "nothing.")
# what a student who combined a write with the cell did, by canonical reduction (reduction none replaces it)
COMBINED_WORDS = {"sum": "added", "prod": "multiplied", "max": "kept the larger", "min": "kept the smaller"}


@dataclass(frozen=True)
class Named:
    """A misconception named in feedback."""

    kind: str
    message: str
    chain: tuple[str, ...] = ()  # the writes that explain it: a wrong cell's chain each, or a step's cell's writes

    @property
    def title(self) -> str:
        row = BY_KIND.get(self.kind)
        return row.title if row else self.kind


@dataclass(frozen=True)
class CellNote:
    """One wrong cell: where, the right value, the student's, how it got its value, the kinds matching there."""

    cell: tuple[int, ...]
    expected: object
    got: object
    chain: str
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class Feedback:
    correct: bool
    wrong_cells: tuple[tuple[int, ...], ...] = ()
    misconceptions: tuple[Named, ...] = ()
    explanation: str = ""
    target_correct: bool | None = None  # grade_step only
    value_correct: bool | None = None  # grade_step only
    cells: tuple[CellNote, ...] = ()  # grade_output: one note per wrong cell
    # cells whose value differs from the loop-order answer but is one the spec allows (another write kept where
    # several reach one cell under reduction none); each note's chain says why, and why the loop order differs
    allowed: tuple[CellNote, ...] = ()
    # given after the answer was shown: graded (wrong_cells, the notes), recorded as such, never scored
    after_reveal: bool = False

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(m.kind for m in self.misconceptions)

    @property
    def conforms(self) -> bool:
        """Right by the spec: the loop-order answer, or another answer the spec allows (nothing wrong); never for
        an answer given after the reveal."""
        return not self.after_reveal and (self.correct or (not self.wrong_cells and bool(self.allowed)))

    def comparison(self, ex: Exercise, student) -> sc.Comparison:
        """A graded whole output beside the answer (what a side-by-side figure draws): the wrong cells, then the
        allowed ones, as flat indices, the allowed ones also on their own."""
        shape = ex.answer.shape
        flat = np.array([np.ravel_multi_index(c, shape) for c in (*self.wrong_cells, *(n.cell for n in self.allowed))],
                        dtype=np.int64)
        return sc.Comparison(ex.trace, np.asarray(student, dtype=np.float64), ex.answer, flat,
                             flat[len(self.wrong_cells):])

    @property
    def matches_answer(self) -> bool:
        """Nothing wrong, whether or not it scores (an answer after the reveal that repeats the answer)."""
        return not self.wrong_cells and self.target_correct is not False and self.value_correct is not False


def _revealed(fb: Feedback) -> Feedback:
    """``fb`` for an answer given after the answer was shown: the same grading, recorded as such, no score."""
    return replace(fb, correct=False, after_reveal=True, explanation=AFTER_REVEAL + "\n" + fb.explanation)


def _student_array(ex: Exercise, output) -> np.ndarray:
    try:
        arr = np.asarray(output)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"output could not be read as an array: {exc}") from None
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"output has dtype {arr.dtype}; give numbers")
    if arr.shape != ex.answer.shape:
        raise ValueError(f"output has shape {arr.shape} but the exercise's output has data's shape "
                         f"{ex.answer.shape}")
    return arr


def _equal_cells(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cell-wise agreement of ``a`` with the reference ``b``: exact for an integer or bool reference (a typed
    2.5 never equals 2), within rtol 1e-6 / atol 1e-9 for a float one."""
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if np.asarray(b).dtype.kind in "biu":
        return x == y
    return np.isclose(x, y, rtol=1e-6, atol=1e-9, equal_nan=True)


def _chain_text(chain) -> str:
    """A wrong or allowed cell as the spec defines its reduction (scatter_core's text: a mean as the sum over the
    count, then the rounding), with the student's value."""
    return chain.explain("you wrote")


def grade_output(exercise: Exercise, output, *, after_reveal: bool = False) -> Feedback:
    """Grade the student's whole output; see the module docstring (``after_reveal``: the answer was shown
    before this one was given, so it scores nothing)."""
    fb = _grade_output(exercise, output)
    return _revealed(fb) if after_reveal else fb


def _grade_output(exercise: Exercise, output) -> Feedback:
    ex = exercise
    student = _student_array(ex, output)
    wrong_mask = ~_equal_cells(student, ex.answer)
    wrong = tuple(tuple(int(v) for v in np.unravel_index(f, ex.answer.shape))
                  for f in np.flatnonzero(wrong_mask.reshape(-1)))
    if not wrong:
        n = ex.answer.size
        return Feedback(True, explanation=f"All {n} cell{'s' if n != 1 else ''} are right.")
    with np.errstate(all="ignore"):
        cast = student.astype(ex.answer.dtype) if student.dtype.kind == "f" and ex.answer.dtype.kind != "f" \
            and np.all(np.isfinite(student)) and np.all(student == np.round(student)) else student
    report = sc.check_expected(ex.case, cast)
    typed = _equal_cells(student, report.expected)  # the cast kept the value (a typed 2.5 stays wrong in ints)
    chains = {c.cell: c for c in report.chains}
    allowed = tuple(c for c in report.allowed if typed[c] and c in chains)
    if allowed:
        allowed_notes = tuple(
            CellNote(c, ex.answer[c], student[c], _chain_text(chains[c]))
            for c in allowed)
        wrong = tuple(c for c in wrong if c not in set(allowed))
        if not wrong:
            return _conforming_feedback(ex, allowed_notes)
    else:
        allowed_notes = ()
    found: dict[str, str] = {}
    replaces = ex.trace.reduction.ufunc is None
    for d in report.diagnoses:  # the engine reproduces the whole output (its sentences address a checked output)
        # another reduction where the exercise's replaces: the student combined (the catalogue's "reduction" is
        # the other way round, replacing where the exercise combines)
        kind = "combined" if d.kind == "reduction" and replaces else d.kind
        found.setdefault(kind, in_exercise_words(d, ex))  # the exercise fixed the op: no "you chose"
    per_cell: dict[tuple, list[str]] = {c: [] for c in wrong}
    partial: dict[str, str] = {}  # kinds whose output agrees with the student at every wrong cell
    exact = bool(found)  # the diagnosis engine reproduces the student's whole output
    outs = student_outputs(ex)
    whole = {kind for kind, out in outs.items() if _equal_cells(student, out).all()}
    for kind, out in outs.items():
        if whole and kind not in whole:  # a reading that explains everything beats ones that explain the errors
            continue
        agrees = _equal_cells(student, out)
        differs_there = ~_equal_cells(out, ex.answer)
        for c in wrong:
            if agrees[c] and differs_there[c]:
                per_cell[c].append(kind)
        if all(agrees[c] for c in wrong):
            partial.setdefault(kind, BY_KIND[kind].explanation)
    for kind, text in partial.items():
        if not exact or kind in whole:
            found.setdefault(kind, text)
    if len(found) > 1 and found.pop("version", None):  # a neighbouring version differs in just what another
        for kinds in per_cell.values():  # kind names: one misconception, not two
            kinds[:] = [kind for kind in kinds if kind != "version"]
    notes = []
    for c in wrong:
        if c in chains:  # what the student typed, not its cast (2.5 typed into an integer output)
            chain = _chain_text(chains[c] if typed[c] else replace(chains[c], expected=student[c]))
        else:
            chain = f"output{fmt_pos(c)} is {fmt_value(ex.answer[c])}."
        notes.append(CellNote(c, ex.answer[c], student[c], chain, tuple(per_cell[c])))
    order = [m.kind for m in MISCONCEPTIONS]
    named = tuple(Named(k, found[k], _chains_for(k, notes)) for k in
                  sorted(found, key=lambda k: order.index(k) if k in order else 99))
    n, size = len(wrong), ex.answer.size
    lines = [f"{n} of {size} cell{'s' if size != 1 else ''} {'are' if n != 1 else 'is'} wrong."]
    lines += [note.chain for note in notes[:MAX_EXPLAINED]]
    if n > MAX_EXPLAINED:
        lines.append(f"… and {n - MAX_EXPLAINED} more wrong cell(s).")
    if allowed_notes:
        k = len(allowed_notes)
        lines.append(f"{k} other cell{'s' if k != 1 else ''} {'differ' if k != 1 else 'differs'} from the loop-order "
                     f"answer but {'are' if k != 1 else 'is'} not wrong: the spec allows {'them' if k != 1 else 'it'}.")
        lines += [note.chain for note in allowed_notes[:MAX_EXPLAINED]]
    return Feedback(False, wrong, named, "\n".join(lines), cells=tuple(notes), allowed=allowed_notes)


def _chains_for(kind: str, notes: list[CellNote]) -> tuple[str, ...]:
    """The chains of writes of the wrong cells ``kind`` explains: the cells where its output matches the student's,
    or every wrong cell when it was found reproducing the whole output (at most MAX_EXPLAINED)."""
    mine = [n.chain for n in notes if kind in n.kinds] or [n.chain for n in notes]
    return tuple(mine[:MAX_EXPLAINED])


def _conforming_feedback(ex: Exercise, allowed: tuple[CellNote, ...]) -> Feedback:
    """The student's output is not the loop-order answer but one the spec allows."""
    k = len(allowed)
    lines = [f"Allowed by the spec: in {k} cell{'s' if k != 1 else ''} that several writes reach you kept another "
             f"write than the loop order's last one. The spec leaves open which write wins there, so a conforming "
             f"runtime may return your output. The spec's loop runs in row-major order and each write replaces the "
             f"cell, so the last write stays: that is the output every runtime tried returns."]
    lines += [note.chain for note in allowed[:MAX_EXPLAINED]]
    if k > MAX_EXPLAINED:
        lines.append(f"… and {k - MAX_EXPLAINED} more such cell(s).")
    return Feedback(False, (), (), "\n".join(lines), allowed=allowed)


# -- one step ------------------------------------------------------------------------------------------
def _check_step(ex: Exercise, k, target) -> tuple[int, tuple[int, ...]]:
    n = ex.steps
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= int(k) < n:
        raise ValueError(f"k = {k!r} must be a step number in 0..{n - 1} (0-based)")
    shape = ex.answer.shape
    try:
        cell = tuple(int(v) for v in target)
    except (TypeError, ValueError):
        raise ValueError(f"target = {target!r} must be a sequence of {len(shape)} integers") from None
    if len(cell) != len(shape) or any(not 0 <= c < s for c, s in zip(cell, shape)):
        ranges = ", ".join(f"0..{s - 1}" for s in shape)
        raise ValueError(f"target = {list(cell)} must be an output position of {len(shape)} coordinates in "
                         f"({ranges})")
    return int(k), cell


def _cells(t: sc.Trace, k: int) -> list[tuple[int, ...]]:
    """The cells step k of ``t`` writes (none when another reading has fewer steps)."""
    return [tuple(int(v) for v in row) for row in t.target_cells(k)] if k < len(t) else []


def _only_step(ex: Exercise, k: int, values=None) -> np.ndarray:
    """Indices with step k's entries kept (or replaced by ``values``) and every other entry 0, so a reading
    that puts another step's index out of range still shows where step k's goes."""
    idx = np.zeros_like(ex.indices)
    cells = ex.trace.plan.index_cells[k]
    idx.reshape(-1)[cells] = ex.indices.reshape(-1)[cells] if values is None else values
    return idx


def _target_readings(ex: Exercise, k: int) -> list[tuple[str, sc.Trace, str]]:
    """(kind, trace, how) for the readings that move step k's target by reading its index differently."""
    out = []
    if ex.indices is None:  # no index given: the catalogue's own readings (step_cells) say where it would go
        return out
    raw = ex.indices.reshape(-1)[ex.trace.plan.index_cells[k]].astype(np.int64)
    if (raw < 0).any():
        t = retrace(ex, indices=_only_step(ex, k, np.abs(raw)))
        if t is not None:
            out.append(("negative-index", t, "if the minus sign of its negative index is dropped"))
        sizes = sorted(set(ex.data.shape) | set(ex.indices.shape) | set(ex.updates.shape))
        for s in sizes:
            t = retrace(ex, indices=_only_step(ex, k, np.where(raw < 0, raw + s, raw)))
            if t is not None:
                out.append(("negative-index", t, f"if its negative index counts from the end of a size-{s} dimension"))
    axis = ex.attrs.get("axis")
    if axis is not None:
        axis = int(axis) % ex.data.ndim  # as the exercise spells it (-1) or normalised
        for a in range(ex.data.ndim):
            if a != axis:
                t = retrace(ex, indices=_only_step(ex, k), axis=a)
                if t is not None:
                    out.append(("axis", t, f"if its index is put on axis {a} instead of axis {axis}"))
    return out


def _value_readings(ex: Exercise, k: int, slot: int) -> list[tuple[str, object, str]]:
    """(kind, the value after step k at the slot, how) under other readings of the values."""
    t = ex.trace
    out = []
    spec = ex.spec
    if t.reduction.ufunc is not None:
        out.append(("reduction", t.values[k][slot],
                    "if the update replaced the cell instead of being combined with it"))
        for spelling in spec.reduction_spellings:
            if spelling != ex.attrs.get("reduction") and spec.reduction(spelling).ufunc is not None:
                other = retrace(ex, reduction=spelling)
                if other is not None:
                    out.append(("reduction", other.after[k][slot], f"with reduction {spelling!r}"))
        init = sc.codec_with_role(spec, "init")  # use_init_val: read the other way
        if init is not None and ex.attrs.get(init.name) is not None:
            flipped = not ex.attrs[init.name]
            other = retrace(ex, **{init.name: flipped})
            if other is not None:
                out.append(("use_init_val", other.after[k][slot], f"with {init.display(flipped)}"))
        if t.reduction.divides and t.data.dtype.kind in "iu":
            trunc = int(sc.truncate_mean(t.acc_after[k][slot], t.counts[k][slot]))
            out.append(("mean-truncated", trunc, "if the running mean were rounded toward zero"))
    else:
        out += _combined_readings(t, k, slot)
        if not t.first_write[k][slot]:
            out.append(("first-write-wins", t.before[k][slot], "if the earlier write were kept"))
    return out


def _combined_readings(t: sc.Trace, k: int, slot: int) -> list[tuple[str, object, str]]:
    """Under reduction none: the values a student who combined the update with the cell's old value would write
    (scatter_core's reductions fold it in), each saying how: "if you added (3 + 85)"."""
    before, value, dtype = t.before[k][slot], t.values[k][slot], t.data.dtype
    out = []
    for name, words in COMBINED_WORDS.items():
        red = sc.REDUCTIONS[name]
        fold = red.combiner(dtype)
        if fold is None:
            continue
        with np.errstate(all="ignore"):
            combined = fold(np.asarray(before, dtype=dtype), np.asarray(value, dtype=dtype))[()]
        how = (f"{fmt_value(before)} {red.symbol} {fmt_value(value)}" if red.symbol in "+-*" else
               f"{red.symbol}({fmt_value(before)}, {fmt_value(value)})")
        out.append(("combined", combined, f"if you {words} ({how} = {fmt_value(combined)})"))
    return out


def _same(a, b, dtype) -> bool:
    if dtype.kind == "f":
        return bool(np.isclose(float(a), float(b), rtol=1e-6, atol=1e-9))
    return float(a) == float(b)


def grade_step(exercise: Exercise, k: int, target, value, *, after_reveal: bool = False) -> Feedback:
    """Grade the prediction of step ``k`` (0-based): the cell it writes (any cell of a slice) and its value after
    (``after_reveal``: the step was shown before this answer was given, so it scores nothing)."""
    fb = _grade_step(exercise, k, target, value)
    return _revealed(fb) if after_reveal else fb


def _step_chain(t: sc.Trace, k: int, cell: tuple[int, ...]) -> tuple[str, ...]:
    """The writes to ``cell`` up to and including step ``k``, in loop order, from data's value."""
    lines = [f"output{fmt_pos(cell)} starts at {fmt_value(t.data[cell])} (data)"]
    for i in range(k + 1):
        if cell in _cells(t, i):
            lines.append(t.describe(i))
    return tuple(lines)


def _grade_step(exercise: Exercise, k: int, target, value) -> Feedback:
    ex = exercise
    k, cell = _check_step(ex, k, target)
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"value = {value!r} must be a number") from None
    t = ex.trace
    cells = _cells(t, k)
    dtype = ex.answer.dtype
    target_ok = cell in cells
    slot = cells.index(cell) if target_ok else 0
    right = t.after[k][slot]
    value_ok = _same(value, right, dtype) if target_ok else any(_same(value, v, dtype) for v in t.after[k])
    if target_ok and not value_ok:
        allowed = _allowed_final_value(ex, k, cell, value)
        if allowed is not None:
            return Feedback(False, (), (), t.describe(k) + ".\n" + allowed.chain, target_correct=True,
                            value_correct=False, allowed=(allowed,))
    found: dict[str, str] = {}
    if not target_ok:
        writes = f"it writes output{fmt_pos(cells[0])}" + (" (a slice)" if len(cells) > 1 else "")
        for kind, other, how in _target_readings(ex, k):
            if cell in _cells(other, k):
                found.setdefault(kind, f"output{fmt_pos(cell)} is where step {k + 1} would write {how}; {writes}. "
                                       + BY_KIND[kind].explanation)
        for m in MISCONCEPTIONS:  # the catalogue's readings that move whole writes
            if cell in m.step_cells(ex, k):
                found.setdefault(m.kind, f"output{fmt_pos(cell)} is where step {k + 1} would write {m.step_words}; "
                                         f"{writes}. " + m.explanation)
    if not value_ok:
        for kind, other_value, how in _value_readings(ex, k, slot):
            if _same(value, other_value, dtype) and not _same(other_value, right, dtype):
                if kind == "combined":  # said as the student did it: "you added; ..."
                    then = f". With reduction {t.resolved.reduction} the update replaces the cell, so it holds "
                else:
                    then = "; it holds "
                found.setdefault(kind, f"{fmt_value(other_value)} is what the cell would hold {how}{then}"
                                       f"{fmt_value(right)}. " + BY_KIND[kind].explanation)
    where = f"output{fmt_pos(cells[0])}" if len(cells) == 1 else \
        f"{len(cells)} cells, output{fmt_pos(cells[0])} to output{fmt_pos(cells[-1])}"
    lines = [t.describe(k) + "."]
    if not target_ok:
        lines.append(f"You chose output{fmt_pos(cell)}; step {k + 1} writes {where}.")
    if not value_ok:
        lines.append(f"You wrote {fmt_value(value if dtype.kind == 'f' else _int_or(value))}; "
                     f"output{fmt_pos(cells[slot])} holds {fmt_value(right)} after the step.")
    chain = _step_chain(t, k, cells[slot])  # the cell the step writes: how it comes to hold its value
    named = tuple(Named(kind, msg, chain) for kind, msg in found.items())
    return Feedback(target_ok and value_ok, () if target_ok and value_ok else (cells[slot],), named, "\n".join(lines),
                    target_correct=target_ok, value_correct=value_ok)


def _allowed_final_value(ex: Exercise, k: int, cell: tuple[int, ...], value: float) -> CellNote | None:
    """When step ``k`` is the last write to ``cell`` (so the value after it is the cell's final one) and the spec
    allows ``value`` as that final value (another of its writes, under reduction none): a note saying so and why
    the loop order gives another value. Else None."""
    t = ex.trace
    opened = sc.open_cells(t)
    flat = int(np.ravel_multi_index(cell, t.data.shape)) if t.data.ndim else 0
    ids = np.flatnonzero(opened.cells == flat)
    if opened.kind != "winner" or not ids.size:
        return None
    oc = opened.cell(int(ids[0]))
    if oc.steps[-1] != k:
        return None
    if ex.answer.dtype.kind != "f" and not float(value).is_integer():
        return None
    final = ex.answer.copy()
    with np.errstate(all="ignore"):
        final[cell] = value
    if final[cell] != value or not sc.conforming(t, final, opened=opened)[cell]:
        return None
    writers = [s + 1 for s, v in zip(oc.steps, oc.candidates) if _same(value, v, ex.answer.dtype)]
    where = f"output{fmt_pos(cell)}"
    shown = fmt_value(final[cell])
    text = (f"You wrote {shown}, the value step {writers[0]} wrote to {where}. Step {k + 1} is the last of the "
            f"{len(oc.steps)} writes to {where}, so the value after it is the cell's final one, and the spec leaves "
            f"open which write to a cell wins under reduction none: a conforming runtime may end with {shown} here, "
            f"so your answer is allowed. In the spec's loop order, though, step {k + 1} runs last and its write "
            f"replaces the cell, so the cell holds {fmt_value(oc.loop_value)} after it, as on every runtime tried.")
    return CellNote(cell, oc.loop_value, final[cell], text)


def _int_or(v: float):
    return int(v) if float(v).is_integer() else v
