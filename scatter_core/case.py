"""The public case object: one operator version with its inputs and attributes, checked and planned.

``scatter_core.case(op, data, indices, updates, **attrs)`` checks everything
(raising :class:`ScatterError`) and returns an immutable :class:`Case`:

* ``run(out=None)``: the result (what ``scatter()`` returns);
* ``trace()``: the step-by-step :class:`~scatter_core.Trace`;
* ``replace(**changes)``: the same case with some inputs or attributes changed
  (``data=``, ``indices=``, ``updates=``, or attribute names; ``None`` drops an
  attribute back to its default);
* ``for_version(other_op)``: the same case in another version's names and
  spellings (ONNX ``add`` is OpenVINO ``sum``), or a ScatterError saying what the
  other version cannot express;
* ``attr_text()``: ``axis=0, reduction='add'`` (or ``no attributes``);
* ``key``: a stable hashable key (operator, attributes, and a digest of the
  tensors' dtypes, shapes and bytes); equal keys mean equal cases.

The arrays a Case holds are read-only views of the inputs (no copy): a caller
who changes its own arrays afterwards changes what a later ``run`` reads. The
trace copies what it keeps.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Mapping

import numpy as np

from . import buffers
from .copying import copy_into
from .describe import attr_text
from .errors import ScatterError
from .kernel import apply_fast
from .plan import Plan
from .reductions import Reduction
from .spec import OpSpec

INPUT_NAMES = ("data", "indices", "updates")


def _read_only(a: np.ndarray) -> np.ndarray:
    if not a.flags.writeable:
        return a
    view = a.view()
    view.flags.writeable = False
    return view


@dataclass(frozen=True, eq=False)
class Case:
    """One checked, planned scatter case (see the module docstring). Build it with ``scatter_core.case``."""

    spec: OpSpec
    data: np.ndarray
    indices: np.ndarray  # what the loop reads (the planner's own when an optional input was left out)
    updates: np.ndarray  # in data's dtype, in the shape the plan reads
    resolved: object  # engine.Resolved: the attributes after defaults and the version's rules
    reduction: Reduction
    plan: Plan
    indices_given: bool = True  # False: the optional indices input was left out (None)
    updates_given_shape: tuple[int, ...] | None = None  # updates' shape as given (the plan may reshape it)

    def __post_init__(self):
        for name in INPUT_NAMES:
            object.__setattr__(self, name, _read_only(getattr(self, name)))
        if self.updates_given_shape is None:
            object.__setattr__(self, "updates_given_shape", tuple(self.updates.shape))

    # -- what it is ---------------------------------------------------------------
    @property
    def op(self) -> str:
        return self.spec.name

    @property
    def family(self):
        from .families import family_of

        return family_of(self.spec)

    @property
    def use_init(self) -> bool:
        # use_init_val only matters for versions that have it; elsewhere data is always the start
        return self.resolved.use_init_val

    @cached_property
    def attrs(self) -> Mapping[str, object]:
        """The attributes as the version names and spells them, after defaults."""
        return MappingProxyType(self.resolved.as_attrs(self.spec))

    def given(self) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
        """(data, indices or None, updates) as given (updates in data's dtype)."""
        return (self.data, self.indices if self.indices_given else None,
                self.updates.reshape(self.updates_given_shape))

    def attr_text(self) -> str:
        """``axis=0, reduction='add', use_init_val=false``; ``no attributes`` when the version has none."""
        return attr_text(self.attrs)

    # -- running ------------------------------------------------------------------
    def run(self, out: np.ndarray | None = None) -> np.ndarray:
        """The result: a new array, or written into ``out`` (data's shape and dtype, C-contiguous)."""
        if out is None:
            result = buffers.empty(self.data.shape, self.data.dtype)  # a freed earlier result's memory if any
            copy_into(result, self.data)
            return apply_fast(self, result)
        if not isinstance(out, np.ndarray) or out.shape != self.data.shape or out.dtype != self.data.dtype \
                or not out.flags.c_contiguous or not out.flags.writeable:
            raise ScatterError(
                f"out must be a writeable C-contiguous array of data's shape {self.data.shape} and dtype "
                f"{self.data.dtype}; got {getattr(out, 'shape', type(out).__name__)} "
                f"{getattr(out, 'dtype', '')}".rstrip(), argument="out", rule="out")
        in_place = out.ctypes.data == self.data.ctypes.data and self.data.flags.c_contiguous  # out is data itself
        if not in_place:
            copy_into(out, self.data)
        return apply_fast(self, out)

    def trace(self):
        """The recorded run, step by step (a new :class:`~scatter_core.Trace`)."""
        from .tracing import Trace

        return Trace(self)

    # -- variations -----------------------------------------------------------------
    def replace(self, **changes) -> "Case":
        """The case with some inputs (``data``, ``indices``, ``updates``) or attributes changed, checked again.

        An attribute set to None goes back to the version's default.
        """
        from .engine import prepare

        data, indices, updates = self.given()
        inputs = {"data": data, "indices": indices, "updates": updates}
        for name in INPUT_NAMES:
            if name in changes:
                inputs[name] = changes.pop(name)
        attrs = {k: v for k, v in {**self.attrs, **changes}.items() if v is not None}
        return prepare(self.spec, inputs["data"], inputs["indices"], inputs["updates"], attrs)

    def for_version(self, other) -> "Case":
        """The same inputs under operator version ``other``, with the attributes in its names and spellings.

        Raises ScatterError when ``other`` cannot express an attribute this case sets
        (a reduction it lacks, use_init_val=false where it has no such switch, an axis
        where it has none ...), or when ``other`` refuses the inputs.
        """
        from .engine import prepare
        from .registry import get_spec

        other = get_spec(other)
        attrs, dropped = translate_attrs(self.spec, self.attrs, other)
        if dropped:
            raise ScatterError(
                f"{other.name} cannot express this {self.spec.name} case: it has no {', '.join(dropped.values())}",
                argument="op", rule="for-version")
        return prepare(other, *self.given(), attrs)

    # -- identity -----------------------------------------------------------------------
    @cached_property
    def key(self) -> tuple:
        """(op, attributes, digest of the tensors): stable across processes, hashable."""
        h = hashlib.sha256()
        for name, a in zip(INPUT_NAMES, self.given()):
            if a is None:
                h.update(f"{name}:absent|".encode())
                continue
            h.update(f"{name}:{a.dtype.str}:{a.shape}|".encode())
            h.update(np.ascontiguousarray(a).data)
        attrs = tuple((k, _plain(v)) for k, v in self.attrs.items())
        return (self.spec.name, attrs, h.hexdigest())

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other) -> bool:
        return isinstance(other, Case) and self.key == other.key

    def __repr__(self) -> str:
        shapes = ", ".join(f"{n} {tuple(a.shape)} {a.dtype}" if a is not None else f"{n} absent"
                           for n, a in zip(INPUT_NAMES, self.given()))
        return f"Case({self.spec.name}: {shapes}; {self.attr_text()})"


def _plain(value):
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (tuple, list)):
        return tuple(_plain(v) for v in value)
    return value


def translate_attrs(spec: OpSpec, attrs: Mapping, other: OpSpec) -> tuple[dict, dict]:
    """``attrs`` (``spec``'s names and spellings) in ``other``'s: ``(translated, dropped)``.

    The reduction goes by its meaning (ONNX ``add`` is OpenVINO ``sum``); other
    attributes by name. ``dropped`` maps each attribute ``other`` cannot express
    to its text (``reduction='add'``): a reduction it cannot spell, or an attribute
    it lacks whose value is not ``spec``'s default (use_init_val=false only counts
    with a reduction that combines). A reduction spelling ``spec`` does not know
    is passed on as it is.
    """
    from .describe import fmt_attr

    out, dropped = {}, {}
    canonical = None
    reduction = attrs.get("reduction", spec.default_reduction)
    if isinstance(reduction, str) and reduction in spec.reduction_spellings:
        canonical = spec.reduction(reduction).name
    for name, value in attrs.items():
        if value is None:
            continue
        mine, theirs = spec.attribute(name), other.attribute(name)
        if name == "reduction":
            if canonical is None:  # a spelling spec does not know: the other version judges it
                if theirs is not None:
                    out[name] = value
                else:
                    dropped[name] = fmt_attr(name, value)
                continue
            spelling = other.spelling_of(canonical)
            if spelling is None:  # every version spells none, so this is a combining reduction
                dropped[name] = fmt_attr(name, value)
            elif theirs is not None:
                out[name] = spelling
        elif theirs is not None:
            out[name] = value
        elif name == "use_init_val":
            if not value and canonical is not None and spec.reduction(reduction).ufunc is not None:
                dropped[name] = fmt_attr(name, value)
        elif mine is None or mine.default != value:
            dropped[name] = fmt_attr(name, value)
    return out, dropped
