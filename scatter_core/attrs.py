"""Attribute values checked by kind, as data: one small checker per ``AttrSpec.kind``.

``axis``, ``reduction`` and ``use_init_val`` have their own rules in
:mod:`scatter_core.engine` (normalised axis, reduction spellings). Every other
attribute a record declares is checked here from its :class:`AttrSpec` alone, so
a new operator with an enum (TensorScatter's ``mode``) or integer lists
(SliceScatter's ``start``/``stop``/``step``/``axes``) needs no new code:

========  ==============================================  ====================
kind      accepted                                        resolved value
========  ==============================================  ====================
``int``   a Python or NumPy integer, or a 1-element        ``int``
          integer tensor
``ints``  a list, tuple or 1-D integer array of at most    ``tuple[int, ...]``
          ``MAX_LIST`` integers, each within int64
``str``   one of ``AttrSpec.choices`` (exact spelling)     ``str``
``bool``  true/false (or 0/1)                              ``bool``
========  ==============================================  ====================

An attribute left out takes its default; a required one left out is an error;
an optional one without a default resolves to None.
"""

from __future__ import annotations

import numpy as np

from .errors import ScatterError
from .spec import AttrSpec, OpSpec

MAX_LIST = 64  # more entries than any tensor rank scatter_core accepts
INT64 = np.iinfo(np.int64)


def _fail(spec: OpSpec, attr: AttrSpec, value, rule: str, want: str) -> ScatterError:
    return ScatterError(f"{attr.name} = {value!r} must be {want} for {spec.name}", argument=attr.name, rule=rule)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _int(spec: OpSpec, attr: AttrSpec, value) -> int:
    if _is_int(value):
        return int(value)
    arr = np.asarray(value) if isinstance(value, np.ndarray) else None
    if arr is not None and arr.dtype.kind in "iu" and arr.size == 1 and arr.ndim <= 1:
        return int(arr.reshape(()))
    raise _fail(spec, attr, value, "int", "one integer")


def _ints(spec: OpSpec, attr: AttrSpec, value) -> tuple[int, ...]:
    if isinstance(value, np.ndarray):
        if value.ndim != 1 or (value.size and value.dtype.kind not in "iu"):
            raise _fail(spec, attr, value, "ints", "a list of integers (a 1-D integer tensor)")
        items = value.tolist()
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise _fail(spec, attr, value, "ints", "a list of integers, e.g. [0, 2]")
    if len(items) > MAX_LIST:
        raise ScatterError(f"{attr.name} has {len(items)} entries; {spec.name} takes at most {MAX_LIST} (one per axis)",
                           argument=attr.name, rule="ints")
    for j, v in enumerate(items):
        if not _is_int(v):
            raise ScatterError(f"{attr.name}[{j}] = {v!r} must be an integer for {spec.name}",
                               argument=attr.name, rule="ints")
        if not INT64.min <= int(v) <= INT64.max:
            raise ScatterError(f"{attr.name}[{j}] = {v} does not fit in int64 ({INT64.min}..{INT64.max})",
                               argument=attr.name, rule="ints")
    return tuple(int(v) for v in items)


def _str(spec: OpSpec, attr: AttrSpec, value) -> str:
    if isinstance(value, str) and (not attr.choices or value in attr.choices):
        return value
    allowed = ", ".join(repr(c) for c in attr.choices)
    hint = ""
    if isinstance(value, str) and value.lower() in attr.choices:
        hint = f" (spellings are lower case: did you mean {value.lower()!r}?)"
    raise ScatterError(f"{attr.name} = {value!r} is not allowed by {spec.name}; allowed: {allowed}{hint}",
                       argument=attr.name, rule="choice")


def _bool(spec: OpSpec, attr: AttrSpec, value) -> bool:
    if isinstance(value, (bool, np.bool_)) or (_is_int(value) and value in (0, 1)):
        return bool(value)
    raise _fail(spec, attr, value, "bool", "true or false")


KINDS = {"int": _int, "ints": _ints, "str": _str, "bool": _bool}


def resolve(spec: OpSpec, attr: AttrSpec, attrs) -> object:
    """The value of ``attr`` in the caller's ``attrs`` mapping, checked by its kind (default when absent)."""
    value = attrs.get(attr.name)
    if value is None:
        if attr.required:
            what = "input" if attr.is_input else "attribute"
            raise ScatterError(f"{attr.name} is a required {what} of {spec.name}", argument=attr.name,
                               rule="required")
        return attr.default
    return KINDS[attr.kind](spec, attr, value)
