"""scatter_core: exact, traced semantics of ONNX and OpenVINO scatter operators.

Pure NumPy. The public API:

* ``OPERATORS``: versioned name -> spec record (:class:`OpSpec`).
* ``scatter(op, data, indices, updates, **attrs)``: the result.
* ``trace(op, data, indices, updates, **attrs)``: the result step by step, with findings.
* ``ScatterError``: raised for every invalid input.
* ``fmt_value(v, dtype=None, width=None)``: the one number formatter for every label.
"""

from __future__ import annotations

from .checking import CheckReport, Diagnosis, check_expected
from .engine import prepare, scatter
from .errors import ScatterError
from .findings import Finding
from .formatting import fmt_value
from .parsing import parse_tensor
from .reductions import REDUCTIONS, Reduction
from .registry import FAMILY_TITLES, OPERATORS, OPERATORS_LIST, family_members, get_spec, versions_of
from .spec import AttrSpec, IndexRule, OpSpec, RuntimeNote
from .tracing import Trace


def trace(op, data, indices, updates, **attrs) -> Trace:
    """Run ``op`` step by step in the spec's loop order and record every write."""
    return Trace(prepare(op, data, indices, updates, attrs))


__all__ = [
    "CheckReport", "Diagnosis", "OPERATORS", "OPERATORS_LIST", "FAMILY_TITLES", "REDUCTIONS", "AttrSpec", "Finding", "IndexRule",
    "OpSpec", "Reduction", "parse_tensor", "RuntimeNote", "ScatterError", "Trace", "family_members", "get_spec",
    "check_expected", "fmt_value", "scatter", "trace", "versions_of",
]
