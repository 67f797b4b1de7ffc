"""How one output cell gets its value, said as the spec defines its reduction: the one text every view shows.

:func:`explain_cell` tells a cell's writes (data's value, then each update aimed at it, in the spec's loop
order) and then the reduction's definition with the cell's numbers: none, the last write stays; a fold (add or
sum, mul or prod, sub, max, min), the fold of data's value (unless ``use_init_val=false``) and every update; a
mean, their sum over their count, taken once after the last write (never a running pair), then for an integer
dtype the spec's rounding and each runtime's, from the table of runtime facts (:func:`mean_roundings`).
:func:`mean_step` says one step of a mean (the explorer's caption). Every number goes through ``fmt_value``.
The reduction row (:mod:`scatter_core.reductions`) holds the words; nothing here branches on a name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from .errors import fmt_pos
from .facts import facts_for
from .formatting import fmt_value
from .reductions import Reduction

# how an integer quotient is rounded: key -> (words, function of a Fraction); the spec's rule is a
# reduction row's ``integer_rounding``, a runtime's a fact's ``rounding``
ROUNDINGS = {
    "down": ("rounded down (toward −∞)", math.floor),
    "toward zero": ("truncated toward zero", math.trunc),
    "to nearest": ("rounded to the nearest (ties to even)", round),
    "up": ("rounded up (toward +∞)", math.ceil),
}
MAX_TERMS = 12  # writes listed, and terms written out in a cell's sum (the rest counted)


@dataclass(frozen=True)
class ChainStep:
    """One write that reached a cell."""

    step: int  # 0-based loop iteration
    source: tuple[int, ...]  # position in updates
    value: object  # the update value
    before: object  # the cell as shown before the write
    after: object  # and after it

    def text(self, reduction: str) -> str:
        return (f"step {self.step + 1} applies updates{fmt_pos(self.source)} = {fmt_value(self.value)} "
                f"({reduction}): {fmt_value(self.before)} → {fmt_value(self.after)}")


def quotient_text(q: Fraction) -> str:
    """An exact quotient as a fraction and its value to 4 digits.

    >>> quotient_text(Fraction(-1, 3)), quotient_text(Fraction(6, 3))
    ('-1/3 ≈ -0.3333', '2')
    """
    if q.denominator == 1:
        return fmt_value(q.numerator)
    return f"{fmt_value(q.numerator)}/{fmt_value(q.denominator)} ≈ {fmt_value(float(q), digits=4)}"


def mean_roundings(op_name: str, dtype) -> tuple[tuple[str, str], ...]:
    """(runtime label, rounding key) for every runtime fact on ``op_name`` that says how it rounds an integer
    mean of ``dtype`` (empty for a float dtype, or an operator with no such fact).

    >>> [r for _, r in mean_roundings("ScatterElementsUpdate-12", np.int32)]
    ['toward zero']
    >>> mean_roundings("ScatterElementsUpdate-12", np.float32), mean_roundings("ScatterND-18", np.int32)
    ((), ())
    """
    dt = np.dtype(dtype)
    if dt.kind not in "iu":
        return ()
    return tuple((f.runtimes_label(), f.rounding) for f in facts_for(op_name)
                 if f.rounding and f.status == "holds" and (not f.dtypes or dt.name in f.dtypes))


def _terms(values, joiner: str, symbol: str) -> str:
    shown = [fmt_value(v) for v in values[:MAX_TERMS]]
    if len(values) > MAX_TERMS:
        shown.append(f"… ({len(values)} terms)")
    return joiner.join(shown) if joiner else f"{symbol}({', '.join(shown)})"


def _exact(reduction: Reduction, values, dtype: np.dtype):
    """The fold of integer ``values`` in Python integers (no wrapping)."""
    return reduction.combiner(dtype).reduce(np.array([int(v) for v in values], dtype=object))


def _loop_sum(values, dtype: np.dtype):
    """The sum of ``values`` in ``dtype``, added in order (as the spec's loop does: integers wrap)."""
    acc = dtype.type(0)
    with np.errstate(all="ignore"):
        for v in values:
            acc = np.add(acc, dtype.type(v), dtype=dtype)
    return acc


def _mean(reduction: Reduction, spelling: str, dtype: np.dtype, values, taking_part: str,
          roundings, final, expected) -> tuple[str, str]:
    """(the definition with the cell's sum, count and rounding, what ``expected`` is) for a mean."""
    n = len(values)
    terms = _terms(values, reduction.joiner, reduction.symbol)
    head = (f"Reduction {spelling}: {reduction.total.format(taking_part)}, taken once after the last write, not "
            f"two at a time. Sum {terms}")
    total = _loop_sum(values, dtype)
    if dtype.kind not in "iu":
        return (f"{head}{f' = {fmt_value(total)}' if n > 1 else ''} over count {n}: {fmt_value(final)} in {dtype} (the "
                f"sum taken in the spec's loop order, then one division).", "")
    exact, wrapped = sum(int(v) for v in values), int(total)
    q = Fraction(wrapped, n)
    if n > 1:
        head += (f" = {fmt_value(exact)}" if exact == wrapped else
                 f" = {fmt_value(exact)}, which wraps to {fmt_value(wrapped)} in {dtype},")
    rule = ROUNDINGS[reduction.integer_rounding]
    said = [f"{rule[0]} as the spec says: {fmt_value(rule[1](q))}"]
    said += [f"{ROUNDINGS[r][0]}, as the {label} does: {fmt_value(ROUNDINGS[r][1](q))}" for label, r in roundings]
    said_text = "; ".join(said) if q.denominator != 1 else "an exact quotient, so no rounding"
    text = f"{head} over count {n}: {quotient_text(q)}. {said_text[:1].upper()}{said_text[1:]}."
    if expected is None or isinstance(expected, (bool, np.bool_)):
        return text, ""
    try:
        given = int(expected)
    except (TypeError, ValueError, OverflowError):
        return text, ""
    if given != expected:  # 2.5 typed into an integer output is no rounding of anything
        return text, ""
    how = next((f"{quotient_text(q)} {w}" for w, f in ROUNDINGS.values() if f(q) == given), "")
    if not how and exact != wrapped:
        how = next((f"{quotient_text(Fraction(exact, n))} {w}, from the unwrapped sum" for w, f in ROUNDINGS.values()
                    if f(Fraction(exact, n)) == given), "")
    if not how and q.denominator == 1 and exact == wrapped:  # an exact quotient: nothing was rounded
        return text, ""
    return text, (f", which is {how}" if how else ", which is no rounding of that quotient")


def explain_cell(where: str, reduction: Reduction, spelling: str, dtype, initial, writes: Sequence[ChainStep], *,
                 final, use_init: bool = True, init_words: str = "use_init_val=false", roundings=(),
                 expected=None, expected_by: str = "you expected") -> str:
    """One output cell (``where``, e.g. "output[0]") in words, as the spec defines ``reduction``.

    ``writes``: the updates aimed at the cell, in the spec's loop order; ``final``: the cell's value; ``roundings``:
    (runtime, rounding key) pairs (:func:`mean_roundings`); ``expected``: someone's value for the cell, said after
    the computed one (``expected_by``: whose: "you expected", "OpenVINO CPU gave"). Equivalent to this loop::

        acc = initial if use_init else neutral(dtype)
        for w in writes:                   # none: acc = w.value, so the last write stays
            acc = combine(acc, w.value)    # add, mul, sub, max, min; a mean adds, and counts
        # a mean: acc / count, once, an integer quotient rounded as the spec says

    >>> from scatter_core.reductions import REDUCTIONS
    >>> ws = [ChainStep(0, (0,), np.int32(1), np.int32(-1), np.int32(0)),
    ...       ChainStep(2, (2,), np.int32(-1), np.int32(0), np.int32(-1))]
    >>> print(explain_cell("output[0]", REDUCTIONS["mean"], "mean", np.int32, np.int32(-1), ws, final=np.int32(-1),
    ...                    roundings=[("OpenVINO CPU plugin", "toward zero")], expected=0, expected_by="it gave"))
    output[0] starts at -1 (data) and gets 2 updates in the spec's loop order: step 1 updates[0] = 1, step 3 \
updates[2] = -1. Reduction mean: the mean of data's value and every update aimed at the cell: their sum over their \
count, taken once after the last write, not two at a time. Sum -1 + 1 + -1 = -1 over count 3: -1/3 ≈ -0.3333. \
Rounded down (toward −∞) as the spec says: -1; truncated toward zero, as the OpenVINO CPU plugin does: 0. \
Computed -1; it gave 0, which is -1/3 ≈ -0.3333 truncated toward zero.
    >>> i8 = np.int8
    >>> print(explain_cell("output[1]", REDUCTIONS["sum"], "add", i8, i8(100), [ChainStep(1, (1,), i8(100), i8(100),
    ...                    i8(-56))], final=i8(-56), expected=i8(127)))
    output[1] starts at 100 (data); step 2 applies updates[1] = 100 (add): 100 → -56. Reduction add: the sum of \
data's value and every update aimed at the cell: 100 + 100 = 200, which wraps to -56 in int8. Computed -56; you \
expected 127.
    """
    dtype = np.dtype(dtype)
    if not writes:
        text = f"No update reaches {where}, so it keeps data's value {fmt_value(initial)}"
        return text + (f"; {expected_by} {fmt_value(expected)}." if expected is not None else ".")
    values = ([initial] if use_init else []) + [w.value for w in writes]
    taking_part = ("data's value and every update aimed at the cell" if use_init else
                   f"every update aimed at the cell ({init_words}: data's value takes no part)")
    how = ""
    k = len(writes)
    shown = list(writes) if k <= MAX_TERMS else list(writes[:MAX_TERMS - 1])
    more = f"… {k - len(shown) - 1} more" if k > MAX_TERMS else ""  # then the last write
    if reduction.divides:
        listed = ", ".join([f"step {w.step + 1} updates{fmt_pos(w.source)} = {fmt_value(w.value)}" for w in shown]
                           + ([more, f"step {writes[-1].step + 1} updates{fmt_pos(writes[-1].source)} = "
                                     f"{fmt_value(writes[-1].value)}"] if more else []))
        text = (f"{where} starts at {fmt_value(initial)} (data) and gets {k} update{'s' if k != 1 else ''} in the "
                f"spec's loop order: {listed}. ")
        definition, how = _mean(reduction, spelling, dtype, values, taking_part, roundings, final, expected)
        text += definition
    else:
        text = "; ".join([f"{where} starts at {fmt_value(initial)} (data)"] + [w.text(spelling) for w in shown]
                         + ([more, writes[-1].text(spelling)] if more else []))
        text += ". " + _definition(reduction, spelling, dtype, values, taking_part, len(writes), final)
    text += f" Computed {fmt_value(final)}"
    return text + (f"; {expected_by} {fmt_value(expected)}{how}." if expected is not None else ".")


def _definition(reduction: Reduction, spelling: str, dtype: np.dtype, values, taking_part: str, n: int,
                final) -> str:
    """The definition of a reduction that is not a mean, with the cell's numbers."""
    if reduction.combiner(dtype) is None:
        if n == 1:
            return f"Reduction {spelling}: the update replaces the cell."
        return (f"Reduction {spelling}: each write replaces the cell, so the last of the {n} in the spec's loop "
                f"order stays: {fmt_value(final)}.")
    boolean = dtype == np.bool_
    total = (reduction.bool_total if boolean else reduction.total) or reduction.total
    joiner = reduction.bool_joiner if boolean else reduction.joiner
    result = fmt_value(final)
    if dtype.kind in "iu":
        exact = _exact(reduction, values, dtype)
        if int(exact) != int(final):
            result = f"{fmt_value(int(exact))}, which wraps to {fmt_value(final)} in {dtype}"
    elif dtype.kind == "f" and reduction.order_sensitive_for_floats and len(values) > 2:
        result += f" in {dtype}, rounded after each step of the spec's loop order"
    return f"Reduction {spelling}: {total.format(taking_part)}: {_terms(values, joiner, reduction.symbol)} = {result}."


def mean_step(spelling: str, reduction: Reduction, dtype, start, value, acc, count: int, after) -> str:
    """One step of a mean: the running sum and count, and the mean the cell shows so far.

    >>> from scatter_core.reductions import REDUCTIONS
    >>> mean_step("mean", REDUCTIONS["mean"], np.int32, np.int64(-1), np.int32(1), np.int64(0), 2, np.int32(0))
    "mean: running sum -1 + 1 = 0 over 2 contributions; the cell shows their mean so far, 0 / 2 = 0 (the spec \
divides once, after the cell's last write)"
    """
    mean = fmt_value(after)
    if np.dtype(dtype).kind in "iu":
        q = Fraction(int(acc), max(int(count), 1))
        words, _ = ROUNDINGS[reduction.integer_rounding]
        mean = quotient_text(q) + (f", {words}: {fmt_value(after)}" if q.denominator != 1 else "")
    shown = f"{fmt_value(acc)} / {count} = {mean}"
    return (f"{spelling}: running sum {fmt_value(start)} + {fmt_value(value)} = {fmt_value(acc)} over {count} "
            f"contribution{'s' if count != 1 else ''}; the cell shows their mean so far, {shown} (the spec divides "
            f"once, after the cell's last write)")
