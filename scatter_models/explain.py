"""A differing output cell in words, as the spec defines the node's reduction.

scatter_core's chain (``Chain.explain``) tells a cell's writes in loop order, one running value after each:
that is the spec's definition of none (the last write stays), sum, prod, sub, max and min. A mean is not a
running pair: the spec sums every contribution (data's value too with ``use_init_val``) and divides once by
their count, then rounds an integer result down. :func:`cell_words` says a mean that way, and which rounding
of that one quotient the runtime's value is (floored, truncated toward zero, rounded); :func:`mean_facts`
gives the runtime facts about integer means that name the runtime, said once under the cells.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

import scatter_core as sc

MEAN_TOPICS = {"integer-mean": (), "integer-mean-int16": ("int16",)}  # topic -> the dtypes it is about (any)


def _roundings(q: Fraction) -> dict:
    """The integer readings of quotient ``q``: words -> value (first match wins when several agree).

    >>> list(_roundings(Fraction(-1, 3)).values())
    [-1, 0, 0, 0]
    """
    return {"floored (the spec's rounding)": math.floor(q), "truncated toward zero": math.trunc(q),
            "rounded to the nearest": round(q), "rounded up": math.ceil(q)}


def _number(q: Fraction) -> str:
    if q.denominator == 1:
        return sc.fmt_value(q.numerator)
    return f"{q.numerator}/{q.denominator} ≈ {float(q):.4g}"


def mean_facts(case, fact_runtime: str | None) -> list[str]:
    """The runtime facts about integer means that hold for ``fact_runtime`` (a ``scatter_core.RUNTIME_NAMES``
    name) on the case's operator and dtype, each as "<runtimes>: <what it does>."."""
    if fact_runtime is None or not case.reduction.divides:
        return []
    dtype = case.given()[0].dtype.name
    return [f"{f.runtimes_label()}: {f.text.rstrip('.')}." for f in sc.facts_for(case.spec.name)
            if f.topic in MEAN_TOPICS and fact_runtime in f.runtimes and f.status == "holds"
            and dtype in (f.dtypes or MEAN_TOPICS[f.topic] or (dtype,))]


def cell_words(chain, case, gave: str) -> str:
    """One differing cell of ``case`` in words (``chain`` from ``scatter_core.check_expected``; ``gave`` names
    whose value ``chain.expected`` is, e.g. "OpenVINO CPU gave"). A mean: the sum over the count, then the
    rounding; any other reduction: scatter_core's chain, which is the spec's own loop."""
    if not case.reduction.divides or not chain.steps:
        return chain.explain(gave)
    dtype = case.given()[0].dtype
    where = f"output{sc.fmt_pos(chain.cell)}"
    with_data = bool(case.resolved.use_init_val)
    values = ([chain.initial] if with_data else []) + [s.value for s in chain.steps]
    named = ([f"data's {sc.fmt_value(chain.initial)}"] if with_data else []) + [
        f"updates{sc.fmt_pos(s.source)} = {sc.fmt_value(s.value)}" for s in chain.steps]
    n = len(values)
    head = (f"{where} is the mean of {n} contribution{'s' if n != 1 else ''} ({', '.join(named)}): the spec "
            f"sums them and divides once by their count, not two at a time.")
    if dtype.kind in "iu":
        exact = sum(int(v) for v in values)
        wrapped = int(np.array(values, dtype=dtype).sum(dtype=dtype))
        total = wrapped
        sum_text = sc.fmt_value(exact) if exact == wrapped else (
            f"{sc.fmt_value(exact)}, which wraps to {sc.fmt_value(wrapped)} in {dtype}")
        q = Fraction(total, n)
        text = (f"{head} Sum {sum_text} over count {n} = {_number(q)}; the spec rounds an integer mean down: "
                f"{sc.fmt_value(math.floor(q))}.")
        try:
            given = int(chain.expected)
        except (TypeError, ValueError):
            return f"{text} {gave} {sc.fmt_value(chain.expected)}."
        how = next((w for w, v in _roundings(q).items() if v == given), None)
        if how is None and exact != wrapped:
            how = next((f"{w}, from the unwrapped sum" for w, v in _roundings(Fraction(exact, n)).items()
                        if v == given), None)
        text += f" {gave} {sc.fmt_value(given)}" + (f": {_number(q)} {how}." if how else
                                                     ", which is no rounding of that quotient.")
    else:
        total = np.array(values, dtype=dtype).sum(dtype=dtype)
        text = (f"{head} Sum {sc.fmt_value(total)} over count {n}, in {dtype}: {sc.fmt_value(chain.final)}. "
                f"{gave} {sc.fmt_value(chain.expected)} (a sum taken in another order or precision rounds "
                f"differently).")
    return text


def differing_cells(record) -> int:
    """How many cells of a captured node's output differ from scatter_core's exact result (NaN equals NaN;
    0 where scatter_core stood in for the runtime, which has no output of its own then)."""
    if record.stood_in:
        return 0
    out, exact = np.asarray(record.output), np.asarray(record.exact)
    if out.shape != exact.shape:
        return int(exact.size)
    same = out == exact
    if exact.dtype.kind in "fc":
        same |= np.isnan(out) & np.isnan(exact)
    return int(same.size - np.count_nonzero(same))


def differs_text(runtime_words: str, counts: dict, sizes: dict | None = None, shown: int = 4) -> str:
    """Said at the top of a capture: which nodes' outputs from ``runtime_words`` differ from the spec's loop
    (``counts``: node name -> differing cells; ``sizes``: node name -> cells), "" when none does.

    >>> differs_text("OpenVINO CPU", {"mean_update": 2, "other": 0}, {"mean_update": 12})
    "OpenVINO CPU differs from the spec's loop on 2 cells: node mean_update (2 of 12 cells)."
    """
    differ = {n: c for n, c in counts.items() if c}
    if not differ:
        return ""
    sizes = sizes or {}
    parts = [f"{n} ({c:,}" + (f" of {sizes[n]:,}" if n in sizes else "") + f" cell{'s' if c != 1 else ''})"
             for n, c in list(differ.items())[:shown]]
    if len(differ) > shown:
        parts.append(f"and {len(differ) - shown} more node{'s' if len(differ) - shown != 1 else ''}")
    total = sum(differ.values())
    return (f"{runtime_words} differs from the spec's loop on {total:,} cell{'s' if total != 1 else ''}: node"
            f"{'s' if len(differ) != 1 else ''} " + ", ".join(parts) + ".")


def repeats_seen_text(node, trace) -> str:
    """The static verdict on a node's indices beside what this run's values did (cells written twice or not)."""
    seen = int(trace.duplicate_groups().size)
    ran = ("no cell was written twice in this run" if not seen else
           f"{seen:,} cell{'s were' if seen != 1 else ' was'} written more than once in this run")
    verdict = {"unique": "unique by construction", "may-repeat": "may repeat", "repeats": "repeat"}
    return f"Indices: {verdict.get(node.index_verdict, node.index_verdict)} (from the graph); {ran}."
