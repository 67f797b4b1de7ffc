"""Hints and multiple-choice questions made from an exercise's trace and the misconception catalogue."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import scatter_core as sc
from scatter_core import fmt_pos, fmt_value

from .exercises import Exercise
from .misconceptions import BY_KIND, student_outputs


def _cells_text(cells) -> str:
    cells = [tuple(int(v) for v in c) for c in cells]
    if len(cells) <= 6:
        return ", ".join(f"output{fmt_pos(c)}" for c in cells)
    return f"{len(cells)} cells from output{fmt_pos(cells[0])} to output{fmt_pos(cells[-1])}"


def step_hints(ex: Exercise, k: int) -> tuple[str, str, str]:
    """Three hints for step ``k`` (0-based), each stronger: the cells it touches, the competing values, the answer."""
    t = ex.trace
    if not 0 <= int(k) < len(t):
        raise ValueError(f"k = {k!r} must be a step number in 0..{len(t) - 1} (0-based)")
    k = int(k)
    cells = t.target_cells(k)
    touch = (f"Step {k + 1} reads {t.index_label(k)} and {t.source_label(k)}; it touches {_cells_text(cells)}.")
    first = tuple(int(v) for v in cells[0])
    before, value = t.before[k][0], t.values[k][0]
    words = t.reduction.describe(t.data.dtype)
    earlier = "" if t.first_write[k][0] else " (an earlier step already wrote it)"
    compete = (f"Before step {k + 1}, output{fmt_pos(first)} holds {fmt_value(before)}{earlier}; the update brings "
               f"{fmt_value(value)}. Reduction {t.resolved.reduction}: {words}.")
    if t.reduction.ufunc is not None and not t.use_init and t.first_write[k][0]:
        compete += (f" use_init_val is false, so this first write starts from "
                    f"{fmt_value(t.acc_before[k][0])}, not from {fmt_value(before)}.")
    answer = t.describe(k) + "."
    return touch, compete, answer


def retry_hint(ex: Exercise, k: int, fb) -> str:
    """The hint after a first wrong check of step ``k`` (``fb``: its Feedback): what is wrong and what to look at
    again, never the cell or the value (the second wrong check shows them). A wrong target gets the index to read
    again (the value hint would name the right cell); a wrong value at the right target, the values that meet."""
    t = ex.trace
    k = int(k)
    named = " ".join(f"It looks like: {BY_KIND[m.kind].title.lower()}. {BY_KIND[m.kind].explanation}"
                     for m in fb.misconceptions if m.kind in BY_KIND)
    if fb.target_correct is False:
        head = (f"Not that cell. Step {k + 1} reads {t.index_label(k)}: work out again which output cell it names "
                f"(and take {t.source_label(k)} along).") if t.plan.index_raw[k].size else \
            f"Not that cell. Work out again where the attributes put {t.source_label(k)}."
        if fb.value_correct is False:
            head += " The value is not right either."
        return " ".join(p for p in (head, named) if p)
    before = t.before[k][list(map(tuple, t.target_cells(k).tolist())).index(_first_wrong(fb, t, k))]
    head = (f"The target is right; the value is not. Before step {k + 1} that cell holds {fmt_value(before)} and the "
            f"update brings its own value. Reduction {t.resolved.reduction}: {t.reduction.describe(t.data.dtype)}.")
    return " ".join(p for p in (head, named) if p)


def _first_wrong(fb, t: sc.Trace, k: int) -> tuple[int, ...]:
    cells = [tuple(int(v) for v in c) for c in t.target_cells(k)]
    return fb.wrong_cells[0] if fb.wrong_cells and fb.wrong_cells[0] in cells else cells[0]


def output_retry_hint(ex: Exercise, fb) -> str:
    """The hint after a first wrong check of the whole output: how many and which cells are wrong (not their
    values), and the misconception its output shows, if one does."""
    n = len(fb.wrong_cells)
    where = _cells_text(fb.wrong_cells)
    head = (f"{n} cell{'s are' if n != 1 else ' is'} not right yet: {where}. Follow the writes to "
            f"{'them' if n != 1 else 'it'} in loop order, starting from data's value.")
    named = " ".join(f"It looks like: {BY_KIND[m.kind].title.lower()}. {BY_KIND[m.kind].explanation}"
                     for m in fb.misconceptions if m.kind in BY_KIND)
    return " ".join(p for p in (head, named) if p)


def output_hints(ex: Exercise) -> tuple[str, str, str]:
    """Three hints for the whole output: which cells are written, where writes compete, the step-by-step answer."""
    t = ex.trace
    flat, counts = t.write_counts()
    cells = np.stack(np.unravel_index(flat, t.data.shape), axis=-1) if flat.size else np.zeros((0, t.data.ndim))
    written = (f"{flat.size} of {t.data.size} cells are written ({_cells_text(cells)}); every other cell keeps "
               f"data's value.")
    many = [(tuple(int(v) for v in c), int(n)) for c, n in zip(cells, counts) if n > 1]
    if many:
        compete = "Written more than once: " + ", ".join(f"output{fmt_pos(c)} ({n} writes)" for c, n in many) + \
                  f". Reduction {t.resolved.reduction}: {t.reduction.describe(t.data.dtype)}."
    else:
        compete = f"No cell is written twice. Reduction {t.resolved.reduction}: {t.reduction.describe(t.data.dtype)}."
    steps = " ".join(t.describe(i) + "." for i in range(len(t)))
    return written, compete, steps


@dataclass(frozen=True)
class Choice:
    output: np.ndarray
    kind: str | None  # None: the right answer, or "slip" (one cell off)
    correct: bool

    @property
    def title(self) -> str:
        if self.correct:
            return "the spec's result"
        return BY_KIND[self.kind].title if self.kind in BY_KIND else "a slip in one cell"


def _slip(ex: Exercise, rng) -> np.ndarray:
    """The answer with one written cell off: data's value kept (a forgotten write) or off by one."""
    t = ex.trace
    flat = np.unique(t.plan.targets.reshape(-1))
    cell = int(flat[int(rng.integers(0, flat.size))])
    out = ex.answer.copy()
    old = out.reshape(-1)[cell]
    kept = t.data.reshape(-1)[cell]
    out.reshape(-1)[cell] = kept if kept != old else old + 1
    return out


def choices(ex: Exercise, n: int = 4) -> tuple[Choice, ...]:
    """The right answer and up to ``n - 1`` distinct wrong outputs, from the catalogue first (then one-cell slips),
    in a fixed order per exercise. No distractor is an output the spec allows (``sc.conforming``): keeping another
    of the writes to a duplicated cell under reduction none is not wrong, so it is never offered as a wrong answer."""
    rng = np.random.default_rng([ex.seed, ex.level, 7])
    found = [Choice(ex.answer, None, True)]

    def new(out) -> bool:  # and wrong by the spec: an output it allows (another winner) is no distractor
        return not any(np.array_equal(out, c.output) for c in found) and not sc.conforming(ex.trace, out).all()

    outs = student_outputs(ex)
    # the family's own readings (a KV cache's, a strided slice's) first: they teach that operator
    own = [kind for kind in outs if BY_KIND[kind].targets is not None and BY_KIND[kind].targets(ex) is not None]
    for kind in own + [kind for kind in outs if kind not in own]:
        out = outs[kind]
        if len(found) < n and new(out):
            found.append(Choice(out, kind, False))
    for _ in range(20):
        if len(found) >= n:
            break
        out = _slip(ex, rng)
        if new(out):
            found.append(Choice(out, "slip", False))
    order = rng.permutation(len(found))
    return tuple(found[int(i)] for i in order)


def step_question(ex: Exercise, k: int) -> str:
    """What step ``k`` (0-based) reads, without giving away where it writes (no normalised index)."""
    t = ex.trace
    if not 0 <= int(k) < len(t):
        raise ValueError(f"k = {k!r} must be a step number in 0..{len(t) - 1} (0-based)")
    k = int(k)
    raw = [int(v) for v in t.plan.index_raw[k]]
    name = ex.spec.input_name("indices")
    if t.slice_size == 1:
        what = f"{t.source_label(k)} = {fmt_value(t.values[k][0])}"
        ask = "Which output cell does it write, and what does that cell hold after the step?"
    else:
        what = f"{t.source_label(k)} ({t.slice_size} values)"
        ask = "Pick any cell of the slice it writes, and say what that cell holds after the step."
    if not raw:  # the step reads no index: the attributes place it (a strided slice)
        return f"Step {k + 1} of {len(t)} writes {what}, the slice's element {fmt_pos(t.source_cells(k)[0])}. {ask}"
    if ex.indices is None:  # an optional index left out: the loop reads its default (the player shows it too)
        index = f"{name}{fmt_pos(t.index_cells(k)[0])} = {raw[0]} ({name} is left out: its default)"
    elif ex.indices.ndim in (1, len(t.plan.loop_shape)):  # one index value per step
        index = f"{name}{fmt_pos(t.index_cells(k)[0])} = {raw[0]}"
    else:
        index = f"{name}{fmt_pos(t.loop_position(k))} = [{', '.join(str(v) for v in raw)}]"
    return f"Step {k + 1} of {len(t)} reads {index} and {what}. {ask}"
