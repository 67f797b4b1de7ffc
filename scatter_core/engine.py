"""Attribute resolution, input preparation (:func:`prepare` makes a :class:`Case`) and ``scatter``."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

import numpy as np

from .case import Case
from .checks import as_tensor, check_index_dtype, coerce_updates, is_typed, normalize_axis
from .errors import ScatterError
from .families import family_of
from .kernel import apply_fast, assign_in_order, values_in_loop_order  # noqa: F401 - re-exported
from .registry import get_spec, versions_of
from .spec import OpSpec

COMMON_ATTRIBUTES = ("axis", "reduction", "use_init_val")  # resolved by the rules below; others by kind


@dataclass(frozen=True)
class Resolved:
    """Attributes after applying defaults and the version's rules.

    ``axis``, ``reduction`` and ``use_init_val`` are fields; any other attribute a
    version declares (``mode``, ``start`` ...) is in ``others`` and reads as
    ``resolved["mode"]`` or ``resolved.get("axes")``.
    """

    axis: int | None
    reduction: str  # the version's own spelling
    use_init_val: bool
    others: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def _values(self) -> dict:
        return {"axis": self.axis, "reduction": self.reduction, "use_init_val": self.use_init_val, **self.others}

    def __getitem__(self, name: str):
        return self._values()[name]

    def get(self, name: str, default=None):
        return self._values().get(name, default)

    def as_attrs(self, spec: OpSpec) -> dict:
        """The attributes as the version names them (what a user would pass)."""
        values = self._values()
        return {name: values[name] for name in spec.attribute_names}


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
    others = {a.name: _resolve_other(spec, a, attrs.get(a.name, a.default))
              for a in spec.attributes if a.name not in COMMON_ATTRIBUTES}
    return Resolved(axis, reduction, use_init, MappingProxyType(others))


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _int_attr(spec: OpSpec, a, raw):
    arr = np.asarray(raw)
    if arr.dtype.kind not in "iu" or arr.size != 1 or arr.ndim > 1:
        raise ScatterError(f"{a.name} = {raw!r} must be one integer for {spec.name}", argument=a.name, rule="int")
    return int(arr.reshape(()))


def _ints_attr(spec: OpSpec, a, raw):
    try:
        arr = np.asarray(raw)
    except (ValueError, TypeError):  # ragged
        arr = np.asarray(None)
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        raise ScatterError(f"{a.name} = {raw!r} must be a list of integers for {spec.name}", argument=a.name,
                           rule="ints")
    return tuple(int(v) for v in arr)


def _bool_attr(spec: OpSpec, a, raw):
    if isinstance(raw, (bool, np.bool_)) or (_is_int(raw) and raw in (0, 1)):
        return bool(raw)
    raise ScatterError(f"{a.name} = {raw!r} must be true or false", argument=a.name, rule="bool")


def _str_attr(spec: OpSpec, a, raw):
    if not isinstance(raw, str) or (a.choices and raw not in a.choices):
        allowed = f"; allowed: {', '.join(repr(c) for c in a.choices)}" if a.choices else ""
        raise ScatterError(f"{a.name} = {raw!r} is not allowed by {spec.name}{allowed}", argument=a.name,
                           rule=a.name)
    return raw


# How an attribute of each AttrSpec kind is checked and normalised (beyond axis / reduction / use_init_val).
ATTRIBUTE_KINDS = MappingProxyType({"int": _int_attr, "ints": _ints_attr, "bool": _bool_attr, "str": _str_attr})


def _resolve_other(spec: OpSpec, a, raw):
    """One attribute beyond axis / reduction / use_init_val, checked by its kind (None: left out)."""
    if raw is None:
        if a.required:
            raise ScatterError(f"{a.name} is a required {'input' if a.is_input else 'attribute'} of {spec.name}",
                               argument=a.name, rule="required")
        return None
    check = ATTRIBUTE_KINDS.get(a.kind)
    if check is None:
        raise ScatterError(f"{spec.name}: attribute {a.name} has an unknown kind {a.kind!r}", argument=a.name,
                           rule="kind")
    return check(spec, a, raw)


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
                indices_given=indices is not None, updates_given_shape=given_shape)


NO_INDICES = np.zeros((0,), dtype=np.int64)
NO_INDICES.flags.writeable = False


def scatter(op, data, indices, updates, *, out: np.ndarray | None = None, **attrs) -> np.ndarray:
    """Run operator version ``op`` on the inputs; returns a new array (or ``out``).

    ``attrs`` use the spec's names and spellings: ``axis``, ``reduction``,
    ``use_init_val`` (and any other attribute the version declares). ``out``, if
    given, must have data's shape and dtype; it receives the result, as with a
    NumPy ufunc. Invalid inputs raise :class:`ScatterError` before ``out`` is
    written.

    A new result of 8 MB or more may be built on the memory of an earlier result
    that is no longer used (:mod:`scatter_core.buffers`), which spares the kernel's
    page faults; such an array reports ``owndata`` false.
    """
    return prepare(op, data, indices, updates, attrs).run(out=out)  # validates everything before touching out
