"""Attribute rules: defaults, each version's checks, and one version's attributes in another's spellings.

:func:`resolve_attrs` turns the attributes a user passes (the version's names and spellings)
into :class:`Resolved`: ``axis`` normalised within the rank, ``reduction`` one of the
version's spellings, ``use_init_val`` a bool, and every other attribute checked by its
``AttrSpec`` kind (``ATTRIBUTE_KINDS``). :func:`translate_attrs` carries attributes from one
version to another by meaning (ONNX ``add`` is OpenVINO ``sum``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

import numpy as np

from .checks import normalize_axis
from .describe import fmt_attr
from .errors import ScatterError
from .reductions import REDUCTIONS
from .registry import versions_of
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



def translate_attrs(spec: OpSpec, attrs: Mapping, other: OpSpec) -> tuple[dict, dict]:
    """``attrs`` (``spec``'s names and spellings) in ``other``'s: ``(translated, dropped)``.

    The reduction goes by its meaning (ONNX ``add`` is OpenVINO ``sum``); other
    attributes by name. ``dropped`` maps each attribute ``other`` cannot express
    to its text (``reduction='add'``): a reduction it cannot spell, or an attribute
    it lacks whose value is not ``spec``'s default (use_init_val=false only counts
    with a reduction that combines). A reduction spelling ``spec`` does not know
    is passed on as it is.
    """
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
