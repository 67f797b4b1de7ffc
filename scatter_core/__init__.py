"""scatter_core: exact, traced semantics of ONNX and OpenVINO scatter operators. Pure NumPy.

The public API (every name in ``__all__``; other packages import nothing else from here):

* ``OPERATORS`` (versioned name -> :class:`OpSpec`), ``FAMILIES`` (-> :class:`Family`), ``family_of(spec)``;
* ``case(op, data, indices, updates, **attrs)``: the checked, planned :class:`Case`; ``HoldsCase``,
  ``Unchecked``; ``sample_case(rng, op, ...)``: a random valid case from its family's ``sample`` hook;
* ``scatter(...)``: the result; ``trace(case)``: the result step by step, with findings;
* ``check_expected(case, expected)``, ``explain_cell(...)``, ``open_cells(trace)``, ``conforming(trace, expected)``;
* ``ScatterError``: raised for every invalid input;
* ``codec_of(spec, attr)`` / ``codecs_of(spec)``: an attribute's :class:`AttrCodec`;
* ``fmt_value``: the one number formatter; ``float_literal``, ``json_array_text``, ``from_json_values``:
  numbers written into files; ``release_buffers()``: empty the pool of freed large results.

Each name in a sentence: docs/architecture.md, scatter_core/__init__.py.
"""

from __future__ import annotations

from .attributes import AttrCodec, codec_of, codec_with_role, codecs_of, reduction_codec, translate_attrs
from .case import Case, HoldsCase, Unchecked, prepare
from .case import as_case as _as_case
from .checking import (DEFAULT_ATOL, DEFAULT_RTOL, CheckReport, Comparison, Diagnosis, alt_axis, alt_family,
                       alt_first_write_wins, alt_mean_truncated, alt_negative_indices, alt_reduction,
                       alt_use_init_val, alt_version, chain_of, check_expected, choices_accepting,
                       versions_accepting)
from .checks import MAX_ELEMENTS, UntypedArray, coerce_updates, is_typed, untyped
from .conformance import OpenCell, OpenCells, conforming, open_cells
from .describe import attr_text, fmt_attr, fmt_shape
from .engine import scatter
from .explaining import ChainStep, explain_cell, mean_roundings
from .errors import ScatterError, fmt_pos
from .families import FAMILIES, Family, family_by_slug, family_of
from .fast.buffers import release as release_buffers
from .findings import CLOSER_LOOKS as FINDING_CLOSER_LOOKS
from .findings import KINDS as FINDING_KINDS
from .findings import Finding, FindingKind
from .facts import FACT_BY_ID, FACTS, RUNTIME_NAMES, Fact, facts_for, verified_versions
from .facts import DISTRIBUTIONS as RUNTIME_DISTRIBUTIONS
from .facts import Source as FactSource
from .facts import pins_in as pins_in_text
from .facts import resolve as resolve_versions
from .formatting import fmt_value
from .literals import JSON_NONFINITE_NOTE, float_literal, from_json_values, json_array_text
from .parsing import MAX_TEXT, parse_tensor
from .sampling import Drawn, Lesson, Limits, sample_case
from .reductions import REDUCTIONS, Reduction, truncate_mean
from .registry import FAMILY_TITLES, OPERATORS, OPERATORS_LIST, family_members, get_spec, versions_of
from .spec import AttrSpec, IndexRule, OpSpec, RuntimeNote
from .tracing import CellWrites, Trace


def case(op, data, indices, updates, **attrs) -> Case:
    """Check the inputs of operator version ``op`` and plan its loop (raises :class:`ScatterError`)."""
    return prepare(op, data, indices, updates, attrs)


def trace(case: Case) -> Trace:
    """Run ``case`` step by step in the spec's loop order and record every write (``case.trace()``).

    >>> len(trace(case("ScatterND-18", [1, 2, 3, 4], [[0], [2]], [10, 20])))
    2
    """
    return _as_case(case, "trace").trace()


__all__ = [
    "DEFAULT_ATOL", "DEFAULT_RTOL", "FACTS", "FACT_BY_ID", "FAMILIES", "FAMILY_TITLES", "FINDING_CLOSER_LOOKS",
    "FINDING_KINDS", "JSON_NONFINITE_NOTE",
    "MAX_ELEMENTS", "MAX_TEXT", "OPERATORS", "OPERATORS_LIST", "REDUCTIONS", "RUNTIME_DISTRIBUTIONS", "RUNTIME_NAMES",
    "AttrCodec", "AttrSpec", "Case", "CellWrites", "ChainStep", "CheckReport", "Comparison", "Diagnosis", "Drawn", "Fact",
    "FactSource", "Family", "Finding", "FindingKind", "HoldsCase", "IndexRule", "Lesson", "Limits", "OpSpec", "OpenCell",
    "OpenCells", "Reduction", "RuntimeNote",
    "ScatterError",
    "Trace", "Unchecked", "UntypedArray", "alt_axis", "alt_family", "alt_first_write_wins", "alt_mean_truncated",
    "alt_negative_indices", "alt_reduction", "alt_use_init_val", "alt_version", "attr_text", "case", "chain_of", "check_expected", "choices_accepting", "codec_of",
    "codec_with_role", "codecs_of", "coerce_updates",
    "conforming", "explain_cell", "facts_for", "family_by_slug", "family_members", "family_of", "float_literal", "fmt_attr",
    "fmt_pos", "fmt_shape", "fmt_value", "from_json_values", "get_spec", "is_typed", "json_array_text", "mean_roundings", "open_cells",
    "parse_tensor", "verified_versions", "pins_in_text", "prepare", "reduction_codec", "release_buffers", "resolve_versions",
    "sample_case", "scatter", "trace", "translate_attrs", "truncate_mean", "untyped", "versions_accepting",
    "versions_of",
]
