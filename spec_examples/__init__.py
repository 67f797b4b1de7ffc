"""spec_examples: the worked examples printed in the ONNX and OpenVINO scatter specs.

Every example printed on the spec pages, the ONNX node-test cases, and a few
teaching cases of our own, transcribed as data (``spec_examples/data``), plus
the spec errata found while checking them against ``scatter_core``.

* ``load_all()``: every example, in file order (the same objects on every call).
* ``by_id(id)``, ``examples_for(op)``: look-ups.
* ``load_errata()``, ``errata_for(example_id_or_op)``: the errata.

Examples that print only shapes get deterministic generated values (see
``Example.generation``); those arrays are built on first access. Nothing here
imports a runtime (onnx, onnxruntime, openvino).
"""

from __future__ import annotations

from .loader import TEACHING_SOURCE, CatalogueError, catalogue
from .model import Erratum, Example, Source


def load_all() -> list[Example]:
    """Every example: spec pages, ONNX node tests, teaching cases (a new list of the cached objects)."""
    return list(catalogue().examples.values())


def by_id(example_id: str) -> Example:
    """The example with this id; LookupError naming the id if there is none."""
    try:
        return catalogue().examples[example_id]
    except (KeyError, TypeError):
        raise LookupError(f"no spec example with id {example_id!r}") from None


def examples_for(op: str) -> list[Example]:
    """The examples of one operator version, e.g. ``examples_for("ScatterND-16")``."""
    from scatter_core import OPERATORS

    if op not in OPERATORS:
        raise LookupError(f"{op!r} is not a known operator version; known: {', '.join(OPERATORS)}")
    return catalogue().by_op(op)


def load_errata() -> list[Erratum]:
    """Every erratum record."""
    return list(catalogue().errata.values())


def erratum(erratum_id: str) -> Erratum:
    """The erratum with this id; LookupError naming the id if there is none."""
    try:
        return catalogue().errata[erratum_id]
    except (KeyError, TypeError):
        raise LookupError(f"no erratum with id {erratum_id!r}") from None


def errata_for(key: str) -> list[Erratum]:
    """The errata about an example (by example id) or about an operator version (by name)."""
    cat = catalogue()
    if key in cat.examples:
        return [cat.errata[e] for e in cat.examples[key].errata]
    from scatter_core import OPERATORS

    if key in OPERATORS:
        return [er for er in cat.errata.values() if key in er.ops]
    raise LookupError(f"{key!r} is neither an example id nor an operator version")


__all__ = [
    "TEACHING_SOURCE", "CatalogueError", "Erratum", "Example", "Source", "by_id", "erratum", "errata_for",
    "examples_for", "load_all", "load_errata",
]
