"""A safe parser for tensors typed by people.

Accepts JSON (``[[1, 2], [3, 4]]``), Python lists (with ``True``/``False`` and trailing commas), NumPy's repr
(``array([[1, 2]], dtype=int32)``) and NumPy's str form (``[[1 2] [3 4]]``). Nothing is evaluated: a small
tokenizer and a recursive-descent reader with a depth bound. Every rejection is a :class:`ScatterError`
naming the problem and where in the text it is.

The work is bounded, not only the result: the text's length, each number's length, the nesting depth, the
count of numbers and of tokens (at most ``TOKENS_PER_ELEMENT`` per allowed number). Every pass is linear in
the tokens read; :func:`parse_work` reports a parse's operations (tests/core/test_parsing.py holds it to
``WORK_PER_CHARACTER``). Why: docs/architecture.md, scatter_core/parsing.py.
"""

from __future__ import annotations

import math
import re

import numpy as np

from .checks import UntypedArray
from .errors import ScatterError

MAX_TEXT = 2_000_000  # characters
MAX_DEPTH = 32
DEFAULT_MAX_ELEMENTS = 1_000_000
MAX_NUMBER_CHARS = 400  # float64 tops out near 1.8e308 (309 digits); no supported dtype holds a longer number
TOKENS_PER_ELEMENT = 8  # "[[[1]]]," is 8 tokens: room for unit axes, not for pages of empty lists
WORK_PER_CHARACTER = 6  # the stated bound on parse_work(text) / len(text), checked by the tests

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)(?![A-Za-z_0-9.]))
  | (?P<word>[A-Za-z_][A-Za-z_0-9.]*)
  | (?P<str>'[^'\n]*'|"[^"\n]*")
  | (?P<punct>[\[\](),=])
""", re.VERBOSE | re.IGNORECASE)

DTYPE_NAMES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float16", "float32", "float64", "float", "int", "double", "half", "single"}
_ALIASES = {"float": "float64", "int": "int64", "double": "float64", "half": "float16", "single": "float32"}
_BOOLS = {"true": True, "false": False}


def _where(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line}, column {col}"


class _Reader:
    def __init__(self, text: str, name: str, max_elements: int):
        self.text = text
        self.name = name
        self.max_elements = max_elements
        self.count = 0
        self.tokens: list = []
        self._pos = 0
        self.i = 0
        self.max_tokens = TOKENS_PER_ELEMENT * max(max_elements, 1) + 4 * MAX_DEPTH + 16
        self.ops = 0  # operations done: tokens read plus nodes built and visited (see parse_work)

    def fail(self, message: str, pos: int | None = None, rule: str = "syntax") -> ScatterError:
        where = f" at {_where(self.text, pos)}" if pos is not None else ""
        return ScatterError(f"{self.name}: {message}{where}", argument=self.name, rule=rule)

    def _scan(self):
        """Read the next token (lazily, so the first problem in the text is the one reported)."""
        n = len(self.text)
        while self._pos < n:
            m = _TOKEN.match(self.text, self._pos)
            if m is None:
                raise self.fail(f"unexpected character {self.text[self._pos]!r}", self._pos)
            self._pos = m.end()
            self.ops += 1
            if m.lastgroup != "ws":
                if len(self.tokens) >= self.max_tokens:
                    raise self.fail(
                        f"the text has more than {self.max_tokens:,} brackets, commas and numbers, more than a "
                        f"tensor of at most {self.max_elements:,} numbers ever needs", m.start(), rule="size")
                return (m.lastgroup, m.group(), m.start())
        return ("end", "", n)

    def peek(self):
        while len(self.tokens) <= self.i:
            self.tokens.append(self._scan())
        return self.tokens[self.i]

    def take(self, value=None):
        tok = self.peek()
        if value is not None and tok[1] != value:
            shown = repr(tok[1]) if tok[0] != "end" else "the end of the text"
            raise self.fail(f"expected {value!r} but found {shown}", tok[2])
        self.i += 1
        return tok

    # value := number | bool | '[' items ']' | '(' items ')'
    def value(self, depth: int):
        kind, text, pos = self.peek()
        self.ops += 1
        if depth > MAX_DEPTH:
            raise self.fail(f"nesting deeper than {MAX_DEPTH} levels", pos, rule="depth")
        if text in ("[", "("):
            close = "]" if text == "[" else ")"
            self.take()
            items = []
            while True:
                kind, tok, pos2 = self.peek()
                if tok == close:
                    self.take()
                    break
                if kind == "end":
                    raise self.fail(f"missing {close!r} for the bracket opened", pos, rule="syntax")
                items.append((self.value(depth + 1), pos2))
                if self.peek()[1] == ",":
                    self.take()
            return ("list", items, pos)
        if kind == "num":
            self.take()
            if len(text) > MAX_NUMBER_CHARS:
                digits = sum(c.isdigit() for c in text)
                raise self.fail(f"a number written with {digits:,} digits is too long (at most "
                                f"{MAX_NUMBER_CHARS} characters per number; no supported dtype holds more than "
                                f"309 digits)", pos, rule="range")
            self.count += 1
            if self.count > self.max_elements:
                raise self.fail(f"more than {self.max_elements:,} numbers", pos, rule="size")
            return ("num", text, pos)
        if kind == "word" and text.lower() in _BOOLS:
            self.take()
            self.count += 1
            return ("bool", _BOOLS[text.lower()], pos)
        if kind == "end":
            raise self.fail("the text ended where a value was expected", pos)
        raise self.fail(f"{text!r} is not a number", pos, rule="not-numeric")


def _shape_of(node, reader: _Reader, depth=0):
    kind, payload, pos = node
    reader.ops += 1
    if kind != "list":
        return ()
    if not payload:
        return (0,)
    shapes = [(_shape_of(child, reader, depth + 1), cpos) for child, cpos in payload]
    first = shapes[0][0]
    for shape, cpos in shapes[1:]:
        if shape != first:
            raise reader.fail(
                f"ragged nesting: an element has shape {shape} where its siblings have {first}", cpos,
                rule="ragged")
    return (len(payload),) + first


def _flatten(node, out: list, reader: _Reader | None = None):
    kind, payload, _ = node
    if reader is not None:
        reader.ops += 1
    if kind == "list":
        for child, _ in payload:
            _flatten(child, out, reader)
    else:
        out.append(node)


def _number(kind, payload):
    if kind == "bool":
        return payload
    low = payload.lower().lstrip("+")
    if re.fullmatch(r"-?\d+", low):
        return int(low)
    return float(low)


def _dtype_from_word(reader: _Reader, word: str, pos: int) -> np.dtype:
    name = word.split(".")[-1].strip("'\"").lower()
    if name not in DTYPE_NAMES:
        raise reader.fail(f"dtype {word!r} is not one of {', '.join(sorted(DTYPE_NAMES))}", pos, rule="dtype")
    return np.dtype(_ALIASES.get(name, name))


def parse_tensor(text: str, dtype=None, max_elements: int = DEFAULT_MAX_ELEMENTS, name: str = "tensor") -> np.ndarray:
    """Parse ``text`` into an ndarray without evaluating anything.

    ``dtype`` forces the result's dtype (values must convert exactly); otherwise a
    ``dtype=`` in the text is used, else bool / int64 / float64 by the values.
    ``name`` is the input's name in error messages (``"data"``, ``"indices"`` ...).
    """
    _check_text(text, name)
    return _parse(_Reader(text, name, max_elements), dtype)


def parse_work(text: str, dtype=None, max_elements: int = DEFAULT_MAX_ELEMENTS) -> int:
    """The operations :func:`parse_tensor` does on ``text`` (tokens read, nodes built and visited),
    whether it succeeds or fails: the measure the work bound is stated in."""
    _check_text(text, "tensor")
    reader = _Reader(text, "tensor", max_elements)
    try:
        _parse(reader, dtype)
    except ScatterError:
        pass
    return reader.ops


def _check_text(text, name: str) -> None:
    if not isinstance(text, str):
        raise ScatterError(f"{name}: expected text, got {type(text).__name__}", argument=name, rule="type")
    if len(text) > MAX_TEXT:
        raise ScatterError(f"{name}: the text has {len(text):,} characters; the limit is {MAX_TEXT:,}",
                           argument=name, rule="size")
    if not text.strip():
        raise ScatterError(f"{name}: the text is empty; type a number or a nested list like [[1, 2], [3, 4]]",
                           argument=name, rule="empty")


def _explicit_shape(reader: _Reader, kpos: int) -> tuple:
    """The ``shape=(...)`` of NumPy's repr of an empty array, bounded like the elements themselves."""
    reader.take()
    reader.take("=")
    shape_node = reader.value(1)
    kind, payload, _ = shape_node
    if kind != "list" or any(child[0] != "num" for child, _ in payload):
        raise reader.fail("shape= needs a tuple of non-negative integers", kpos, rule="shape")
    dims = tuple(_number(k, p) for (k, p, _), _ in payload)
    if not all(isinstance(d, int) and d >= 0 for d in dims):
        raise reader.fail("shape= needs a tuple of non-negative integers", kpos, rule="shape")
    if len(dims) > MAX_DEPTH:
        raise reader.fail(f"shape= has {len(dims)} dimensions; at most {MAX_DEPTH} are allowed", kpos, rule="shape")
    # an empty array still gets drawn, windowed and checked along each axis: its other axes obey the
    # element limit as if they held values
    spread = math.prod(d for d in dims if d)
    if spread > reader.max_elements:
        raise reader.fail(f"shape={dims}: the dimensions other than 0 multiply to {spread:,}, more than the "
                          f"{reader.max_elements:,} elements allowed", kpos, rule="size")
    return dims


def _parse(reader: _Reader, dtype) -> np.ndarray:
    text_dtype = None
    explicit_shape = None
    kind, word, pos = reader.peek()
    wrapped = kind == "word" and word.split(".")[-1].lower() == "array"
    if wrapped:
        reader.take()
        reader.take("(")
    node = reader.value(0)
    if wrapped:
        while reader.peek()[1] == ",":
            reader.take()
            kind, key, kpos = reader.peek()
            if key == ")":
                break
            if key == "shape":  # NumPy's repr of an empty array: array([], shape=(0, 3), dtype=...)
                explicit_shape = _explicit_shape(reader, kpos)
                continue
            if key != "dtype":
                raise reader.fail(f"only dtype= or shape= may follow the values in array(...), not {key!r}", kpos)
            reader.take()
            reader.take("=")
            kind, value, vpos = reader.take()
            if kind not in ("word", "str"):
                raise reader.fail("dtype= needs a name such as int32", vpos, rule="dtype")
            text_dtype = _dtype_from_word(reader, value, vpos)
        reader.take(")")
    kind, rest, rpos = reader.peek()
    if kind != "end":
        raise reader.fail(f"unexpected {rest!r} after the value", rpos)
    shape = _shape_of(node, reader)
    if explicit_shape is not None:
        if shape != (0,) or math.prod(explicit_shape) != 0:
            raise reader.fail(f"shape={explicit_shape} does not match the values (shape {shape})", rule="shape")
        shape = explicit_shape
    leaves: list = []
    _flatten(node, leaves, reader)
    values = [_number(k, p) for k, p, _ in leaves]
    reader.ops += len(leaves)
    for v, (k, p, pos) in zip(values, leaves):
        if isinstance(v, float) and math.isinf(v) and "inf" not in p.lower():
            raise reader.fail(f"{p} is too large for a float", pos, rule="range")
    target = np.dtype(dtype) if dtype is not None else text_dtype
    if target is None:
        if values and all(isinstance(v, bool) for v in values):
            target = np.dtype(bool)
        elif all(isinstance(v, int) for v in values):
            target = np.dtype(np.int64)
        else:
            target = np.dtype(np.float64)
    arr = _convert(reader, values, leaves, shape, target)
    # no dtype= in the text and none forced: the dtype came from the values, so the tensor may take
    # data's dtype where a rule binds them (scatter_core.checks.coerce_updates)
    return arr.view(UntypedArray) if dtype is None and text_dtype is None else arr


def _convert(reader: _Reader, values, leaves, shape, target: np.dtype) -> np.ndarray:
    reader.ops += len(values)
    if target.kind not in "biuf":
        raise reader.fail(f"dtype {target} is not supported (use bool, integer or float types)", rule="dtype")
    for v, (_, _, pos) in zip(values, leaves):
        if target.kind in "iu":
            if isinstance(v, float):
                if not math.isfinite(v) or v != int(v):
                    raise reader.fail(f"{v!r} is not an integer, but the dtype is {target}", pos, rule="lossy")
                v = int(v)
            info = np.iinfo(target)
            if not info.min <= int(v) <= info.max:
                raise reader.fail(f"{v} does not fit in {target} ({info.min}..{info.max})", pos, rule="range")
        elif target.kind == "b" and not isinstance(v, bool) and v not in (0, 1):
            raise reader.fail(f"{v!r} is not a bool (use true/false or 0/1)", pos, rule="lossy")
        elif target.kind == "f" and isinstance(v, int) and abs(v) > 2 ** 1023:
            raise reader.fail(f"{v} is too large for {target}", pos, rule="range")
    with np.errstate(over="ignore"):
        arr = np.array(values, dtype=target if target.kind != "f" else np.float64)
        if target.kind == "f":
            narrowed = arr.astype(target)
            overflow = np.isinf(narrowed) & np.isfinite(arr)
            if overflow.any():
                pos = leaves[int(np.flatnonzero(overflow)[0])][2]
                raise reader.fail(f"{arr[overflow][0]!r} overflows {target}", pos, rule="range")
            arr = narrowed
    try:
        return arr.reshape(shape)
    except ValueError as exc:  # defensive: the shape checks above should leave nothing for NumPy to refuse
        raise reader.fail(f"cannot make an array of shape {shape} ({exc})", rule="shape") from None
