"""The public case object: one operator version with its inputs and attributes, checked and planned.

``scatter_core.case(op, data, indices, updates, **attrs)`` checks everything (raising :class:`ScatterError`)
and returns an immutable :class:`Case`: ``run(out=None)`` (what ``scatter()`` returns), ``trace()``,
``replace(**changes)`` (``None`` drops an attribute back to its default), ``for_version(other_op)`` (the same
case in another version's names and spellings, or a ScatterError saying what it cannot express),
``attr_text()``, ``given()`` / ``given_attrs`` (as given; ``attrs`` after the version's defaults and rules)
and ``key`` (stable and hashable: equal keys mean equal cases).

The arrays a Case holds are read-only views of the inputs, not copies: a caller who changes its own arrays
afterwards changes what a later ``run`` reads. The trace copies what it keeps.
More: docs/architecture.md, scatter_core/case.py.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Mapping

import numpy as np

from .attributes import Resolved, resolve_attrs, translate_attrs
from .checks import as_tensor, check_index_dtype, coerce_updates, is_typed
from .describe import attr_text
from .errors import ScatterError
from .families import family_of
from .fast import buffers
from .fast.copying import copy_into
from .fast.kernel import apply_fast
from .plan import Plan
from .reductions import Reduction
from .registry import get_spec
from .spec import OpSpec
from .tracing import Trace

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
    resolved: Resolved  # the attributes after defaults and the version's rules
    reduction: Reduction
    plan: Plan
    indices_given: bool = True  # False: the optional indices input was left out (None)
    updates_given_shape: tuple[int, ...] | None = None  # updates' shape as given (the plan may reshape it)
    # the attributes as passed to build the case (its names and spellings, no defaults added); None: as ``attrs``
    given_attrs: Mapping[str, object] | None = dataclasses.field(default=None, repr=False)

    def __post_init__(self):
        for name in INPUT_NAMES:
            object.__setattr__(self, name, _read_only(getattr(self, name)))
        if self.updates_given_shape is None:
            object.__setattr__(self, "updates_given_shape", tuple(self.updates.shape))
        if self.given_attrs is None:
            object.__setattr__(self, "given_attrs", self.attrs)

    # -- what it is ---------------------------------------------------------------
    @property
    def op(self) -> str:
        return self.spec.name

    @property
    def family(self):
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
        return self.data, self.indices if self.indices_given else None, self._updates_as_given

    @cached_property
    def _updates_as_given(self) -> np.ndarray:
        # one array, the same on every call: a record holding the Case reads its updates here each time
        u = self.updates
        return u if u.shape == self.updates_given_shape else u.reshape(self.updates_given_shape)

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

    def trace(self) -> Trace:
        """The recorded run, step by step (a new :class:`~scatter_core.Trace`)."""
        return Trace(self)

    # -- variations -----------------------------------------------------------------
    def replace(self, **changes) -> "Case":
        """The case with some inputs (``data``, ``indices``, ``updates``) or attributes changed, checked again.

        An attribute set to None goes back to the version's default.
        """
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


@dataclass(frozen=True)
class Unchecked:
    """A version's inputs and attributes exactly as given, which the core refuses (or has not checked): what a
    runtime or a model was given. It is never run; :func:`scatter_core.case` of the same arguments is the
    checked :class:`Case` where the core accepts them. A runtime comparison holds one only where the core
    refuses its inputs, since its point is then the runtime's own reaction; a spec example printed by its
    shapes only holds one with no input values (None), its values being generated when read."""

    spec: OpSpec
    data: object  # None only where no values were given at all (a shapes-only spec example)
    indices: object  # None: left out (TensorScatter) or absent (SliceScatter), or no values given
    updates: object
    attrs: Mapping[str, object] = dataclasses.field(default_factory=lambda: MappingProxyType({}))


class HoldsCase:
    """For a record that holds a :class:`Case` as ``self.case`` plus fields of its own (an exercise, a framework
    differential case, a large example's stand-in): the case's version and inputs, as given, read from it."""

    case: Case

    @property
    def op(self) -> str:
        return self.case.op

    @property
    def spec(self) -> OpSpec:
        return self.case.spec

    @property
    def data(self) -> np.ndarray:
        return self.case.data

    @property
    def indices(self) -> np.ndarray | None:
        """None when the case leaves an optional indices input out, or the version reads none."""
        return self.case.given()[1]

    @property
    def updates(self) -> np.ndarray:
        return self.case.given()[2]


def as_case(value, taker: str) -> Case:
    """``value`` when it is a :class:`Case`; else a ScatterError naming ``taker`` and how to build one."""
    if isinstance(value, Case):
        return value
    raise ScatterError(f"{taker} takes a scatter_core.Case, built by scatter_core.case(op, data, indices, updates, "
                       f"**attrs); got {type(value).__name__}", argument="case", rule="case")


def _plain(value):
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (tuple, list)):
        return tuple(_plain(v) for v in value)
    return value


def prepare(op, data, indices, updates, attrs: Mapping) -> Case:
    """Check every input of ``op`` and plan its loop: the :class:`Case` (raises ScatterError)."""
    spec = get_spec(op)
    family = family_of(spec)
    data = as_tensor(spec.input_name("data"), data)  # the spec's names: past_cache, update, write_indices ...
    if indices is None:
        if family.indices == "required":
            raise ScatterError(f"indices is a required input of {spec.name}", argument="indices", rule="required")
    else:
        if family.indices == "unused":
            raise ScatterError(f"{spec.name} reads no indices tensor (pass None); its slice comes from the "
                               f"attributes", argument="indices", rule="unused")
        indices = as_tensor(spec.input_name("indices"), indices)
        check_index_dtype(spec, indices)
    typed = is_typed(updates)
    updates = as_tensor(spec.input_name("updates"), updates)
    resolved = resolve_attrs(spec, attrs, max(data.ndim, 1))
    reduction = spec.reduction(resolved.reduction)
    reduction.check_dtype(data.dtype, resolved.reduction, spec.name)
    given_shape = tuple(updates.shape)
    updates, cast_note = coerce_updates(spec, data, updates, typed=typed)
    plan = family.plan(spec, data, indices, updates, resolved)
    if cast_note is not None:
        plan = dataclasses.replace(plan, notes=plan.notes + (cast_note,))
    loop_indices = plan.indices if plan.indices is not None else indices
    if loop_indices is None:
        loop_indices = NO_INDICES
    return Case(spec, data, loop_indices, updates.reshape(plan.updates_shape), resolved, reduction, plan,
                indices_given=indices is not None, updates_given_shape=given_shape,
                given_attrs=MappingProxyType(dict(attrs)))


NO_INDICES = np.zeros((0,), dtype=np.int64)
NO_INDICES.flags.writeable = False
