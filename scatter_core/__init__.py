"""scatter_core: exact, traced semantics of ONNX and OpenVINO scatter operators.

Pure NumPy. The public API:

* ``OPERATORS``: versioned name -> spec record (:class:`OpSpec`).
* ``FAMILIES``: family name -> :class:`Family` record (planner, updates-shape rule,
  reading, export loop, title, URL slug); ``family_of(spec)``.
* ``case(op, data, indices, updates, **attrs)``: the checked, planned :class:`Case`
  (``run()``, ``trace()``, ``replace()``, ``for_version()``, ``attr_text()``, ``key``); ``HoldsCase``: the
  inputs of a record that holds a Case (an exercise, a stand-in ...), read from it; ``Unchecked``: inputs and
  attributes as given where the core refuses them (what a runtime was given), never run.
* ``sample_case(rng, op, ...)``: a random valid :class:`Case`, drawn by its family's ``sample`` hook.
* ``scatter(op, data, indices, updates, **attrs)``: the result.
* ``trace(op, data, indices, updates, **attrs)``: the result step by step, with findings.
* ``check_expected(...)``: compare a hand-written output and diagnose the mistake; ``explain_cell(...)``: a
  cell's writes and its reduction as the spec defines it (a mean: sum over count, then each rounding), as
  ``chain_of(trace, cell).explain()`` says any cell.
* ``open_cells(trace)``, ``conforming(trace, expected)``: what the spec leaves open (a duplicated cell's
  winner under reduction none, a float reduction's rounding), and whether an output is one it allows.
* ``ScatterError``: raised for every invalid input.
* ``codec_of(spec, attr)`` / ``codecs_of(spec)``: the :class:`AttrCodec` of an attribute, which reads, writes
  and checks each of its forms (URL text, session value, JSON, ONNX, OpenVINO, display text).
* ``fmt_value(v, dtype=None, width=None)``: the one number formatter for every label.
* ``release_buffers()``: empty the pool of freed large results (``scatter_core.fast``), returning the bytes freed.
* ``float_literal``, ``json_array_text``, ``from_json_values``: numbers written into files (exports)
  as the shortest exact text, and arrays as strict JSON read back bit-exactly.
"""

from __future__ import annotations

from .attributes import AttrCodec, codec_of, codec_with_role, codecs_of, reduction_codec, translate_attrs
from .case import Case, HoldsCase, Unchecked, prepare
from .checking import (DEFAULT_ATOL, DEFAULT_RTOL, CheckReport, Diagnosis, alt_axis, alt_family,
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
from .findings import Finding
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


def trace(op, data, indices, updates, **attrs) -> Trace:
    """Run ``op`` step by step in the spec's loop order and record every write."""
    return Trace(prepare(op, data, indices, updates, attrs))


__all__ = [
    "DEFAULT_ATOL", "DEFAULT_RTOL", "FACTS", "FACT_BY_ID", "FAMILIES", "FAMILY_TITLES", "JSON_NONFINITE_NOTE",
    "MAX_ELEMENTS", "MAX_TEXT", "OPERATORS", "OPERATORS_LIST", "REDUCTIONS", "RUNTIME_DISTRIBUTIONS", "RUNTIME_NAMES",
    "AttrCodec", "AttrSpec", "Case", "CellWrites", "ChainStep", "CheckReport", "Diagnosis", "Drawn", "Fact", "FactSource", "Family",
    "Finding", "HoldsCase", "IndexRule", "Lesson", "Limits", "OpSpec", "OpenCell", "OpenCells", "Reduction", "RuntimeNote",
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
