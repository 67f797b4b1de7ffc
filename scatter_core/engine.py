"""Attribute resolution, input preparation and the fast ``scatter`` kernel."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import numpy as np

from . import attrs as attr_kinds
from . import buffers, elements, nd, slice_scatter, tensor_scatter, update
from .checks import as_tensor, check_index_dtype, coerce_updates, normalize_axis
from .copying import copy_into
from .errors import ScatterError
from .plan import Plan, is_iota
from .reductions import Reduction, divide_mean
from .registry import get_spec, versions_of
from .segmented import count_by_target
from .spec import OpSpec

# Which module plans the loop of each family: data, not a branch. Every planner is called as
# plan(spec, data, indices, updates, resolved); the first three families read only the axis.
PLANNERS = MappingProxyType({
    "elements": lambda spec, data, indices, updates, r: elements.plan(spec, data, indices, updates, r.axis),
    "nd": lambda spec, data, indices, updates, r: nd.plan(spec, data, indices, updates, r.axis),
    "update": lambda spec, data, indices, updates, r: update.plan(spec, data, indices, updates, r.axis),
    "cache": tensor_scatter.plan,
    "slice": slice_scatter.plan,
})
# The indices a family reads when the optional (or absent) indices input is None.
DEFAULT_INDICES = MappingProxyType({
    "cache": tensor_scatter.default_indices,
    "slice": slice_scatter.default_indices,
})
# attributes with rules of their own in resolve_attrs; every other one is checked by its kind
SPECIAL_ATTRS = ("axis", "reduction", "use_init_val")


@dataclass(frozen=True)
class Resolved:
    """Attributes after applying defaults and the version's rules."""

    axis: int | None
    reduction: str  # the version's own spelling
    use_init_val: bool
    others: tuple[tuple[str, object], ...] = ()  # every other attribute, checked by its kind (scatter_core.attrs)

    def get(self, name: str, default=None):
        """The resolved value of any attribute by name."""
        if name in SPECIAL_ATTRS:
            return getattr(self, name)
        return dict(self.others).get(name, default)

    def as_attrs(self, spec: OpSpec) -> dict:
        """The attributes as the version names them (what a user would pass); optional ones left out are omitted."""
        values = {"axis": self.axis, "reduction": self.reduction, "use_init_val": self.use_init_val,
                  **dict(self.others)}
        return {name: values[name] for name in spec.attribute_names if values.get(name) is not None}


def _reduction_error(spec: OpSpec, value) -> ScatterError:
    allowed = ", ".join(repr(s) for s in spec.reduction_spellings)
    hints = []
    if isinstance(value, str):
        lower = value.lower()
        if lower != value and lower in spec.reduction_spellings:
            hints.append(f"spellings are lower case: did you mean {lower!r}?")
        from .reductions import REDUCTIONS  # canonical names, e.g. 'sum' for ONNX 'add'
        if lower in REDUCTIONS and spec.spelling_of(lower) not in (None, lower):
            hints.append(f"{spec.framework} spells it {spec.spelling_of(lower)!r}")
        later = [s.name for s in versions_of(spec.op_type) if s.version > spec.version and lower in s.reduction_spellings]
        if later and lower not in spec.reduction_spellings:
            hints.append(f"{lower!r} arrives in {later[0]}")
    note = spec.note_text("reduction")
    text = (f"reduction = {value!r} is not allowed by {spec.name}; allowed: {allowed}"
            + (f" ({'; '.join(hints)})" if hints else "") + (f". Observed: {note}" if note else ""))
    return ScatterError(text, argument="reduction", rule="reduction")


def resolve_attrs(spec: OpSpec, attrs: Mapping, rank: int) -> Resolved:
    names = spec.attribute_names
    for key in attrs:
        if key not in names and key != "reduction":  # reduction is checked against the spellings below
            have = ", ".join(names) if names else "no attributes"
            raise ScatterError(f"{key!r} is not an attribute of {spec.name} (it has {have})",
                               argument=key, rule="unknown-attribute")
    axis = None
    axis_spec = spec.attribute("axis")
    if axis_spec is not None:
        raw = attrs.get("axis", axis_spec.default)
        if raw is None:
            raise ScatterError(f"axis is a required {'input' if axis_spec.is_input else 'attribute'} of {spec.name}",
                               argument="axis", rule="required")
        axis = normalize_axis(spec, raw, rank)
    reduction = attrs.get("reduction", spec.default_reduction)
    if not isinstance(reduction, str) or reduction not in spec.reduction_spellings:
        raise _reduction_error(spec, reduction)
    use_init = attrs.get("use_init_val", True)
    if isinstance(use_init, (bool, np.bool_)) or (isinstance(use_init, (int, np.integer)) and use_init in (0, 1)):
        use_init = bool(use_init)
    else:
        raise ScatterError(f"use_init_val = {use_init!r} must be true or false", argument="use_init_val",
                           rule="bool")
    others = tuple((a.name, attr_kinds.resolve(spec, a, attrs)) for a in spec.attributes
                   if a.name not in SPECIAL_ATTRS)
    return Resolved(axis, reduction, use_init, others)


def _indices_input(spec: OpSpec, indices):
    """The indices as given, or None where this version's indices are optional or absent."""
    role = spec.input("indices")
    if indices is None and (role is None or role.optional):
        return None
    if role is None:
        raise ScatterError(
            f"{spec.name} has no indices input: pass None (its inputs are "
            f"{', '.join(i.name for i in spec.inputs)}; {', '.join(a.name for a in spec.attributes if a.is_input)} "
            f"are given as attributes)", argument="indices", rule="no-indices")
    return as_tensor(role.name, indices)


@dataclass(frozen=True)
class Prepared:
    spec: OpSpec
    data: np.ndarray
    indices: np.ndarray
    updates: np.ndarray  # in data's dtype, in the shape the plan reads
    resolved: Resolved
    reduction: Reduction
    plan: Plan

    @property
    def use_init(self) -> bool:
        # use_init_val only matters for versions that have it; elsewhere data is always the start
        return self.resolved.use_init_val


def prepare(op, data, indices, updates, attrs: Mapping) -> Prepared:
    spec = get_spec(op)
    data = as_tensor(spec.input_name("data"), data)
    indices = _indices_input(spec, indices)
    updates = as_tensor(spec.input_name("updates"), updates)
    if indices is not None:
        check_index_dtype(spec, indices)
    resolved = resolve_attrs(spec, attrs, max(data.ndim, 1))
    if indices is None:  # the family says what an absent input means (TensorScatter: zeros)
        indices = DEFAULT_INDICES[spec.family](spec, data, updates, resolved)
    reduction = spec.reduction(resolved.reduction)
    reduction.check_dtype(data.dtype, resolved.reduction, spec.name)
    updates = coerce_updates(spec, data, updates)
    plan = PLANNERS[spec.family](spec, data, indices, updates, resolved)
    return Prepared(spec, data, indices, updates.reshape(plan.updates_shape), resolved, reduction, plan)


def apply_fast(p: Prepared, out: np.ndarray) -> np.ndarray:
    """Write the scatter result into ``out`` (already holding a copy of data)."""
    flat_out = out.reshape(-1)
    targets = p.plan.targets.reshape(-1)
    if targets.size == 0:
        return out
    values = values_in_loop_order(p.updates, p.plan.sources)
    ufunc = p.reduction.combiner(out.dtype)
    if ufunc is None:
        assign_in_order(flat_out, targets, values)
        return out
    touched = counts = None
    if not p.use_init or p.reduction.divides:
        touched, counts = count_by_target(targets)
    if not p.use_init:
        flat_out[touched] = p.reduction.neutral_for(out.dtype)
    with np.errstate(over="ignore", invalid="ignore"):  # float overflow to inf is the defined result
        ufunc.at(flat_out, targets, values)
    if p.reduction.divides:
        flat_out[touched] = divide_mean(flat_out[touched], counts + int(p.use_init), out.dtype)
    return out


def _fancy_assignment_is_in_order() -> bool:
    """Does ``a[idx] = v`` with a flat int64 ``idx`` apply the writes in order (the last one wins)?

    NumPy's documentation leaves the order of repeated writes in an advanced assignment open;
    its implementation for one flat index array writes them in order, and twice as fast as
    ``np.put`` (which spends a function call on every element). This probe, run once at import,
    and the duplicate-heavy tests against the spec loop keep that assumption checked.
    """
    n, cells = 8192, 61  # write i goes to cell (i * 7919) % 61: every cell is hit 134 times
    writes = np.arange(n, dtype=np.int64)
    targets = (writes * 7919) % cells
    probe = np.full(cells, -1, dtype=np.int64)
    probe[targets] = writes
    last = np.empty(cells, dtype=np.int64)
    last[targets[-cells:]] = writes[-cells:]  # 7919 and 61 are coprime: the last 61 writes hit every cell once
    return bool(np.array_equal(probe, last))


FANCY_ASSIGNMENT_IN_ORDER = _fancy_assignment_is_in_order()


def assign_in_order(flat_out: np.ndarray, targets: np.ndarray, values: np.ndarray) -> None:
    """``flat_out[targets[i]] = values[i]`` for i = 0, 1, ...: where a cell is written twice the last write wins."""
    if FANCY_ASSIGNMENT_IN_ORDER:
        flat_out[targets] = values
    else:
        np.put(flat_out, targets, values)


def values_in_loop_order(updates: np.ndarray, sources: np.ndarray) -> np.ndarray:
    """The update value of every write, flat, in loop order (``updates.flat[sources]``).

    Most plans read updates in order (sources 0, 1, 2, ...): then this is a view of
    updates and no gather is made.
    """
    flat = updates.reshape(-1)
    sources = sources.reshape(-1)
    if sources.size == 0:
        return flat[:0]
    if is_iota(sources) or _is_identity(sources):
        return flat[:sources.size]
    return flat[sources]


def _is_identity(sources: np.ndarray) -> bool:
    # n strictly increasing integers from 0 to n - 1 are exactly 0, 1, ..., n - 1; the check
    # makes one bool temporary, not the int64 one of np.diff
    flat = sources.reshape(-1)
    return bool(flat[0] == 0 and flat[-1] == flat.size - 1 and np.all(flat[1:] > flat[:-1]))


def scatter(op, data, indices, updates, *, out: np.ndarray | None = None, **attrs) -> np.ndarray:
    """Run operator version ``op`` on the inputs; returns a new array (or ``out``).

    ``attrs`` use the spec's names and spellings: ``axis``, ``reduction``,
    ``use_init_val``. ``out``, if given, must have data's shape and dtype; it
    receives the result, as with a NumPy ufunc. Invalid inputs raise
    :class:`ScatterError` before ``out`` is written.

    A new result of 8 MB or more may be built on the memory of an earlier result
    that is no longer used (:mod:`scatter_core.buffers`), which spares the kernel's
    page faults; such an array reports ``owndata`` false.
    """
    p = prepare(op, data, indices, updates, attrs)  # validate everything before touching out
    if out is None:
        out = buffers.empty(p.data.shape, p.data.dtype)  # a freed earlier result's memory if any
        copy_into(out, p.data)
        return apply_fast(p, out)
    if not isinstance(out, np.ndarray) or out.shape != p.data.shape or out.dtype != p.data.dtype \
            or not out.flags.c_contiguous or not out.flags.writeable:
        raise ScatterError(
            f"out must be a writeable C-contiguous array of data's shape {p.data.shape} and dtype "
            f"{p.data.dtype}; got {getattr(out, 'shape', type(out).__name__)} "
            f"{getattr(out, 'dtype', '')}".rstrip(), argument="out", rule="out")
    in_place = out.ctypes.data == p.data.ctypes.data and p.data.flags.c_contiguous  # out is data itself
    if not in_place:
        copy_into(out, p.data)
    return apply_fast(p, out)
