"""Attributes: one codec per kind, each version's checks, and one version's attributes in another's spellings.

Every attribute of a registry record has one codec (:func:`codec_of`), chosen by its ``AttrSpec``: its
``codec`` field when set (``"axis"``, ``"reduction"``, ``"init"``), else its ``kind`` (``"int"``, ``"ints"``,
``"str"`` with ``choices``, ``"bool"``). A codec checks the attribute (``resolve``) and reads and writes every
form it takes in the project: URL text, session value, JSON, ONNX, OpenVINO, what a runtime gets, display text
and the widget a page draws. Nothing outside this module branches on an attribute's name.

:func:`resolve_attrs` turns the attributes a user passes into :class:`Resolved` by asking each codec (axis,
reduction, init, then the others as declared); a version that declares no reduction still reads ``'none'``
(``IMPLIED``). :func:`translate_attrs` carries attributes from one version to another by meaning (ONNX ``add``
is OpenVINO ``sum``).

The table of forms and methods: docs/architecture.md, scatter_core/attributes.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

import numpy as np

from .checks import normalize_axis
from .describe import fmt_attr
from .errors import ScatterError
from .formatting import fmt_value
from .parsing import parse_tensor
from .reductions import REDUCTIONS
from .registry import versions_of
from .spec import AttrSpec, OpSpec

MAX_LIST_TEXT = 400  # characters of an integer list read from text (a box, a link)
MAX_LIST_ITEMS = 64
_INT_TEXT = re.compile(r"[+-]?[0-9]{1,30}")
# what every version reads even when its record declares no such attribute: the reduction (its only spelling,
# 'none'), so reduction='none' is accepted by any version and reduction='add' names the version that has it
IMPLIED = (AttrSpec("reduction", "str", codec="reduction"),)


@dataclass(frozen=True)
class Resolved:
    """Attributes after applying defaults and the version's rules.

    ``axis``, ``reduction`` and ``use_init_val`` are fields (the values of the attributes whose
    codec is "axis", "reduction" and "init"); any other attribute a version declares (``mode``,
    ``start`` ...) is in ``others`` and reads as ``resolved["mode"]`` or ``resolved.get("axes")``.
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


def _shown(text) -> str:
    text = str(text)
    return repr(text if len(text) <= 40 else text[:40] + "…")


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


@dataclass(frozen=True)
class AttrCodec:
    """How one attribute of one version reads, writes and checks itself (see the module docstring).

    The base class passes values through; each kind's subclass says its own forms."""

    spec: OpSpec
    attr: AttrSpec
    order = 3  # resolve_attrs checks axis, reduction and init first, then the others as declared
    unreadable = "not a value of its kind"  # why a link's text is not used, when from_text refuses it
    # the widget a page draws for the kind (scatter_ui.parts.attribute_inputs keys its drawers by it): "axis" (a number
    # within the data's rank), "number", "select" (one of ``choices``), "list" (integers as text), "switch", "text"
    widget = "text"
    replaced = "not a value the operator shown offers"  # why, when the page shows another value

    def absent_from(self, op: str) -> str:
        """Why a link's value for this attribute is not used by the version ``op``, which has no such attribute."""
        return f"{op} has no {self.name} attribute"

    @property
    def name(self) -> str:
        return self.attr.name

    @property
    def role(self) -> str:
        """The record's ``codec`` field ("axis", "reduction", "init"), or "" for a plain kind."""
        return self.attr.codec

    @property
    def choices(self) -> tuple[str, ...]:
        """The values a choice attribute may take (a reduction: the version's spellings); () otherwise."""
        return ()

    @property
    def default(self):
        return self.attr.default

    def error(self, text: str, rule: str) -> ScatterError:
        return ScatterError(text, argument=self.name, rule=rule)

    # -- scatter_core ------------------------------------------------------------------------------
    def check(self, raw, rank: int):
        """The kind's rule on a given value (not None): the value normalised, or ScatterError."""
        return raw

    def resolve(self, raw, rank: int):
        """What :func:`resolve_attrs` keeps for a value given or defaulted (None: left out)."""
        if raw is None:
            if self.attr.required:
                raise self.error(f"{self.name} is a required {'input' if self.attr.is_input else 'attribute'} of "
                                 f"{self.spec.name}", "required")
            return None
        return self.check(raw, rank)

    def applies(self, values: Mapping) -> bool:
        """Whether the value changes anything, given the other attributes' ``values`` (core or session)."""
        return True

    # -- URL text ----------------------------------------------------------------------------------
    def from_text(self, text: str):
        return str(text)

    def to_text(self, value) -> str:
        return "" if value is None else str(value)

    # -- session and widgets -----------------------------------------------------------------------
    def start(self, value=None):
        """The value a page starts from when an example gives ``value`` (None: the record's default)."""
        return self.default if value is None else value

    def to_session(self, value):
        return value

    def from_session(self, value):
        """A session (widget) value as scatter_core takes it; raises ScatterError naming the attribute."""
        return value

    def session_from_text(self, text: str):
        """A link's text as the session keeps it; None when it cannot be used (the link names it ignored)."""
        try:
            return self.to_session(self.from_text(text))
        except ScatterError:
            return None

    def session_text(self, value) -> str | None:
        """The URL text of a session value (None: nothing to write)."""
        if value is None:
            return None
        try:
            return self.to_text(self.from_session(value))
        except (ScatterError, TypeError, ValueError):
            return str(value)

    def fits(self, value, rank: int) -> bool:
        """Whether the attribute's widget can show the session value ``value`` for data of ``rank``."""
        return True

    def settled(self, value, rank: int):
        """``value`` made one the widget can show."""
        return value

    def bounds(self, rank: int) -> tuple[int, int] | None:
        """The lowest and highest value its widget offers for data of ``rank``; None: unbounded."""
        return None

    def refusal(self, value, rank: int | None) -> str | None:
        """Why a link's value can't be used on data of ``rank`` (None: unknown rank, or it can)."""
        return None

    # -- files and runtimes --------------------------------------------------------------------------
    def of_kind(self, value) -> bool:
        """Whether ``value`` is a value of the attribute's kind (one integer, a list of integers, true or false,
        a string), whatever the version's own rules say of it (an axis out of range, a spelling it lacks): what
        a runtime may be given in the codec's forms, where a value of another kind is passed on as given."""
        return True

    def plain(self, value):
        """``value`` as plain, hashable Python: NumPy bools and integers become Python's (an integer list a
        tuple); anything else as given (a value of another kind is for the check to name)."""
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        if isinstance(value, (int, np.integer)):
            return int(value)
        return value

    def to_json(self, value):
        return value

    def from_json(self, value):
        return value

    def to_onnx(self, value):
        return value

    def from_onnx(self, value):
        return value.decode("utf-8") if isinstance(value, bytes) else value

    def to_openvino(self, value):
        if self.attr.is_input:
            return np.asarray(value, dtype=np.int64)
        return self.to_text(value)

    def from_openvino(self, value):
        return value

    # -- display -------------------------------------------------------------------------------------
    def display(self, value) -> str:
        return fmt_attr(self.name, value)


class IntCodec(AttrCodec):
    """One integer."""

    unreadable = "not an integer"
    widget = "number"

    def check(self, raw, rank: int):
        arr = np.asarray(raw)
        if arr.dtype.kind not in "iu" or arr.size != 1 or arr.ndim > 1:
            raise self.error(f"{self.name} = {raw!r} must be one integer for {self.spec.name}", "int")
        return int(arr.reshape(()))

    def from_text(self, text: str) -> int:
        body = str(text).strip()
        if not _INT_TEXT.fullmatch(body):
            raise self.error(f"{self.name} = {_shown(text)} must be one integer", "int")
        return int(body)

    def to_text(self, value) -> str:
        return "" if value is None else fmt_value(int(np.asarray(value).reshape(())))

    def to_session(self, value):
        return None if value is None else int(np.asarray(value).reshape(()))

    def from_session(self, value):
        return None if value is None else int(value)

    def of_kind(self, value) -> bool:
        try:
            IntCodec.check(self, value, 0)  # the kind's rule only (an axis's range is the version's)
        except ScatterError:
            return False
        return True

    def to_json(self, value):
        return int(value)

    def from_json(self, value):
        if not _is_int(value):
            raise self.error(f"{self.name} = {value!r} must be one integer", "int")
        return int(value)

    def to_onnx(self, value):
        return int(np.asarray(value).reshape(()))

    def from_onnx(self, value):
        return int(value) if _is_int(value) else value  # another type (a FLOAT axis) as given: the check names it

    def from_openvino(self, value):
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                return value  # kept as written: the check names it
        arr = np.asarray(value)
        return int(arr.reshape(-1)[0]) if arr.size == 1 else tuple(int(v) for v in arr.reshape(-1).tolist())

    def display(self, value) -> str:
        return f"{self.name}={fmt_value(int(value))}" if _is_int(value) else fmt_attr(self.name, value)


class AxisCodec(IntCodec):
    """An axis of the data: one integer in [-rank, rank-1], negative counting from the back."""

    order = 0
    replaced = "outside the data's axes"
    widget = "axis"

    def check(self, raw, rank: int):
        return normalize_axis(self.spec, raw, rank)

    def resolve(self, raw, rank: int):
        if raw is None:  # even where the record has a default: None is no axis
            raise self.error(f"{self.name} is a required {'input' if self.attr.is_input else 'attribute'} of "
                             f"{self.spec.name}", "required")
        return self.check(raw, rank)

    def start(self, value=None):
        value = self.default if value is None else value
        return 0 if value is None else int(value)

    def bounds(self, rank: int) -> tuple[int, int]:
        """The values its widget offers for data of ``rank`` (any rank up to 8 before the data is known)."""
        return (-rank, rank - 1) if rank else (-8, 7)

    def fits(self, value, rank: int) -> bool:
        lo, hi = self.bounds(rank)
        return lo <= int(value or 0) <= hi

    def settled(self, value, rank: int):
        return value if self.fits(value, rank) else 0

    def refusal(self, value, rank: int | None) -> str | None:
        if rank is None or not _is_int(value):
            return None
        lo, hi = -max(rank, 1), max(rank - 1, 0)
        return None if lo <= value <= hi else f"outside the data's axes ({lo}..{hi} for rank {rank})"


_FIRST_LINE_COLUMN = re.compile(r"(at line 1, column )(\d+)")  # parse_tensor's place in a message


class IntsCodec(AttrCodec):
    """A list of integers; as text ``0, -1`` (or ``[0, -1]``), read by ``parse_tensor``, never evaluated.

    The session (and so the URL) keeps it as its text; empty text is None (left out)."""

    max_text = MAX_LIST_TEXT
    widget = "list"

    def check(self, raw, rank: int):
        try:
            arr = np.asarray(raw)
        except (ValueError, TypeError):  # ragged
            arr = np.asarray(None)
        if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
            raise self.error(f"{self.name} = {raw!r} must be a list of integers for {self.spec.name}", "ints")
        return tuple(int(v) for v in arr)

    def from_text(self, text) -> tuple[int, ...] | None:
        if text is None or isinstance(text, (list, tuple, np.ndarray)):
            return None if text is None else tuple(int(v) for v in np.asarray(text).reshape(-1).tolist())
        body = str(text)
        if not body.strip():
            return None
        wrapped = not body.strip().startswith("[")
        if wrapped:
            body = f"[{body}]"  # the user's text as typed inside, so a column past the "[" is theirs plus one
        try:
            arr = parse_tensor(body[:MAX_LIST_TEXT + 2], name=self.name, max_elements=MAX_LIST_ITEMS)
        except ScatterError as exc:
            if not wrapped:
                raise
            message = _FIRST_LINE_COLUMN.sub(lambda m: f"{m[1]}{max(int(m[2]) - 1, 1)}", str(exc), count=1)
            raise ScatterError(message, argument=exc.argument, rule=exc.rule) from None
        if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
            raise self.error(f"{self.name} = {text!r} must be a list of integers, e.g. 0, -1", "ints")
        return tuple(int(v) for v in arr.tolist())

    def to_text(self, value) -> str:
        if value is None:
            return ""
        if isinstance(value, str):
            return value
        values = np.asarray(value).reshape(-1).tolist()
        return ", ".join(fmt_value(int(v)) for v in values) if values else "[]"  # empty text is None

    to_session = to_text

    def from_session(self, value):
        return self.from_text(value)

    def session_from_text(self, text: str):
        return str(text)  # kept as typed: a bad list shows in its box with the error beside it

    def session_text(self, value) -> str | None:
        return None if value is None else str(value)

    def of_kind(self, value) -> bool:
        try:
            IntsCodec.check(self, value, 0)
        except ScatterError:
            return False
        return True

    def plain(self, value):
        if isinstance(value, (list, tuple)):
            return tuple(AttrCodec.plain(self, v) for v in value)
        return super().plain(value)

    def to_json(self, value):
        return [int(v) for v in np.asarray(value).reshape(-1).tolist()]

    def from_json(self, value):
        if not isinstance(value, (list, tuple)) or not all(_is_int(v) for v in value):
            raise self.error(f"{self.name} = {value!r} must be a list of integers", "ints")
        return tuple(int(v) for v in value)

    to_onnx = to_json

    def from_onnx(self, value):
        if not isinstance(value, (list, tuple)):
            return value  # another type (one INT, a tensor) as given: the check names it
        return tuple(int(v) if _is_int(v) else v for v in value)

    def to_openvino(self, value):
        if self.attr.is_input:
            return np.asarray(self.to_json(value), dtype=np.int64).reshape(-1)
        return ",".join(str(v) for v in self.to_json(value))

    def from_openvino(self, value):
        if isinstance(value, str):
            try:
                return tuple(int(v) for v in value.split(",") if v.strip())
            except ValueError:
                return value  # kept as written: the check names it
        return tuple(int(v) for v in np.asarray(value).reshape(-1).tolist())


class BoolCodec(AttrCodec):
    """true or false (ONNX has no bool attributes: 1 or 0 there)."""

    unreadable = "not true or false"
    replaced = "not available here"
    widget = "switch"

    def check(self, raw, rank: int):
        if isinstance(raw, (bool, np.bool_)) or (_is_int(raw) and raw in (0, 1)):
            return bool(raw)
        raise self.error(f"{self.name} = {raw!r} must be true or false", "bool")

    def from_text(self, text: str) -> bool:
        word = str(text).strip().lower()
        if word not in ("true", "false"):
            raise self.error(f"{self.name} = {_shown(text)} must be true or false", "bool")
        return word == "true"

    def to_text(self, value) -> str:
        return "" if value is None else ("true" if value else "false")

    def to_session(self, value):
        return None if value is None else bool(value)

    def of_kind(self, value) -> bool:
        try:
            BoolCodec.check(self, value, 0)
        except ScatterError:
            return False
        return True

    def to_json(self, value):
        return bool(value)

    def from_json(self, value):
        return self.check(value, 0)

    def to_onnx(self, value):
        return int(bool(value))

    def from_onnx(self, value):
        return self.check(value, 0) if self.of_kind(value) else value  # another value as given: the check names it

    def from_openvino(self, value):
        if isinstance(value, str):
            return value.strip().lower() in ("true", "1", "yes")
        return self.check(value, 0)


class InitCodec(BoolCodec):
    """A bool that only counts with a reduction that combines (OpenVINO's use_init_val)."""

    order = 2

    def applies(self, values: Mapping) -> bool:
        reduction = reduction_codec(self.spec)
        spelling = values.get(reduction.name, reduction.default)
        return spelling in reduction.choices and self.spec.reduction(spelling).ufunc is not None

    def resolve(self, raw, rank: int):
        return self.check(raw, rank)  # None too is not true or false


class StrCodec(AttrCodec):
    """A string, one of ``AttrSpec.choices`` where the record lists them."""

    @property
    def choices(self) -> tuple[str, ...]:
        return self.attr.choices

    @property
    def widget(self) -> str:
        return "select" if self.choices else "text"

    def of_kind(self, value) -> bool:
        return isinstance(value, str)

    def check(self, raw, rank: int):
        choices = self.choices
        if not isinstance(raw, str) or (choices and raw not in choices):
            allowed = f"; allowed: {', '.join(repr(c) for c in choices)}" if choices else ""
            raise self.error(f"{self.name} = {raw!r} is not allowed by {self.spec.name}{allowed}", self.name)
        return raw

    def to_session(self, value):
        return value

    def fits(self, value, rank: int) -> bool:
        return not self.choices or value in self.choices

    def settled(self, value, rank: int):
        if self.fits(value, rank):
            return value
        return self.default if self.default in self.choices else self.choices[0]

    def from_json(self, value):
        if not isinstance(value, str):
            raise self.error(f"{self.name} = {value!r} must be a string", "str")
        return value

    def from_openvino(self, value):
        return str(value)

    def to_openvino(self, value):
        return str(value)


class ReductionCodec(StrCodec):
    """One of the version's reduction spellings (``OpSpec.reductions``)."""

    order = 1
    replaced = "not a reduction of the operator shown"

    @property
    def choices(self) -> tuple[str, ...]:
        return self.spec.reduction_spellings

    @property
    def default(self):
        return self.spec.default_reduction

    def check(self, raw, rank: int):
        if not isinstance(raw, str) or raw not in self.choices:
            raise _reduction_error(self.spec, raw)
        return raw

    def resolve(self, raw, rank: int):
        return self.check(raw, rank)  # None too is not a spelling

    def settled(self, value, rank: int):
        return value if self.fits(value, rank) else self.default

    def start(self, value=None):
        return value if value is not None and value in self.choices else self.default


# the codec of each AttrSpec: its ``codec`` field, else its ``kind``
CODECS = MappingProxyType({"int": IntCodec, "ints": IntsCodec, "bool": BoolCodec, "str": StrCodec,
                           "axis": AxisCodec, "reduction": ReductionCodec, "init": InitCodec})


def codec_of(spec: OpSpec, attr: AttrSpec | str) -> AttrCodec:
    """The codec of ``attr`` (a record or the name of one of ``spec``'s attributes) in version ``spec``."""
    if isinstance(attr, str):
        found = spec.attribute(attr) or next((a for a in IMPLIED if a.name == attr), None)
        if found is None:
            have = ", ".join(spec.attribute_names) or "no attributes"
            raise ScatterError(f"{attr!r} is not an attribute of {spec.name} (it has {have})", argument=attr,
                               rule="unknown-attribute")
        attr = found
    cls = CODECS.get(attr.codec or attr.kind)
    if cls is None:
        raise ScatterError(f"{spec.name}: attribute {attr.name} has an unknown kind {attr.codec or attr.kind!r}",
                           argument=attr.name, rule="kind")
    return cls(spec, attr)


def codecs_of(spec: OpSpec) -> tuple[AttrCodec, ...]:
    """The codecs of ``spec``'s attributes, in the record's order."""
    return tuple(codec_of(spec, a) for a in spec.attributes)


def reduction_codec(spec: OpSpec) -> ReductionCodec:
    """The codec of ``spec``'s reduction: its own attribute, or the implied one (spelling 'none' only)."""
    for c in codecs_of(spec):
        if isinstance(c, ReductionCodec):
            return c
    return codec_of(spec, IMPLIED[0])


def codec_with_role(spec: OpSpec, role: str) -> AttrCodec | None:
    """The codec of ``spec``'s attribute whose record names ``role`` ("axis", "reduction", "init"), or None."""
    return next((c for c in codecs_of(spec) if c.role == role), None)


def _checked(spec: OpSpec) -> list[AttrCodec]:
    """What resolve_attrs checks, in order: the declared attributes and the implied ones the version lacks."""
    codecs = list(codecs_of(spec))
    roles = {c.role for c in codecs}
    codecs += [codec_of(spec, a) for a in IMPLIED if a.codec not in roles]
    return sorted(codecs, key=lambda c: c.order)


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
    name = reduction_codec(spec).name
    note = spec.note_text(name)
    text = (f"{name} = {value!r} is not allowed by {spec.name}; allowed: {allowed}"
            + (f" ({'; '.join(hints)})" if hints else "") + (f". Observed: {note}" if note else ""))
    return ScatterError(text, argument=name, rule="reduction")


def resolve_attrs(spec: OpSpec, attrs: Mapping, rank: int) -> Resolved:
    checked = _checked(spec)
    known = {c.name for c in checked}
    for key in attrs:
        if key not in known:
            have = ", ".join(spec.attribute_names) if spec.attribute_names else "no attributes"
            raise ScatterError(f"{key!r} is not an attribute of {spec.name} (it has {have})",
                               argument=key, rule="unknown-attribute")
    by_role, others = {}, {}
    for c in checked:
        value = c.resolve(attrs.get(c.name, c.default), rank)
        if c.role:
            by_role[c.role] = value
        else:
            others[c.name] = value
    others = {a.name: others[a.name] for a in spec.attributes if a.name in others}  # the record's order
    return Resolved(by_role.get("axis"), by_role["reduction"], by_role.get("init", True), MappingProxyType(others))


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
    reduction_codec_ = reduction_codec(spec)
    reduction = attrs.get(reduction_codec_.name, spec.default_reduction)
    if isinstance(reduction, str) and reduction in spec.reduction_spellings:
        canonical = spec.reduction(reduction).name
    for name, value in attrs.items():
        if value is None:
            continue
        mine, theirs = spec.attribute(name), other.attribute(name)
        codec = codec_of(spec, mine) if mine is not None else None
        if name == reduction_codec_.name:
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
        elif isinstance(codec, InitCodec):  # a switch the other version lacks: lost only where it counts
            if not value and canonical is not None and codec.applies(attrs):
                dropped[name] = fmt_attr(name, value)
        elif mine is None or mine.default != value:
            dropped[name] = fmt_attr(name, value)
    return out, dropped
