"""A differing output cell in words, as the spec defines the node's reduction, and what a capture says at its top.

:func:`cell_words` is scatter_core's one text for a cell (``Chain.explain``, from
``scatter_core.explaining``): the writes in the spec's loop order, then the reduction's definition with the
cell's numbers; a mean as the sum over the count, taken once, then the rounding the spec and each runtime apply,
and which rounding the runtime's value is. :func:`mean_facts` gives the runtime facts about integer means that
name the runtime, said once under the cells.
"""

from __future__ import annotations

import numpy as np

import scatter_core as sc

MEAN_TOPICS = {"integer-mean": (), "integer-mean-int16": ("int16",)}  # topic -> the dtypes it is about (any)


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
    whose value ``chain.expected`` is, e.g. "OpenVINO CPU gave"): scatter_core's text, the same on every page."""
    return chain.explain(gave)


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
