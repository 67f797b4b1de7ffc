"""Numbers written into files (the exports), so that they read back bit-exactly in their own dtype.

* :func:`float_literal`: a finite float as the shortest text that reads back as the same value in its
  own dtype (float32 ``1.1`` is ``1.1``, not ``1.100000023841858``; float32 ``1e20`` is ``1e+20``), always
  with a ``.`` or an exponent, so that ``-0.0`` keeps its sign and the text is a float in Python and JSON.
* :func:`json_array_text` / :func:`from_json_values`: an array as strict JSON (RFC 8259 has no NaN or
  Infinity: JavaScript's ``JSON.parse``, Go and serde_json refuse Python's ``NaN`` tokens) and back. A
  value JSON cannot hold is a string, :data:`JSON_NONFINITE_NOTE` says which.

Reading text back as float64 and rounding it to a narrower dtype gives the same bits as the shortest
text was made from (tests/export/test_export.py checks random float16/float32/float64 values, subnormals
included). Pure: NumPy only.
"""

from __future__ import annotations

import json

import numpy as np

from .formatting import fmt_value

NAN, INF, NEG_INF = "NaN", "Infinity", "-Infinity"
NAN_BITS = "NaN:0x"  # a NaN with another sign or payload than the dtype's usual one: its bits in hex
JSON_NONFINITE_NOTE = (
    "Strict JSON: every number is a plain JSON number. A float JSON cannot hold is a string: \"NaN\", "
    "\"Infinity\", \"-Infinity\", or \"NaN:0x<bits>\" (a NaN whose sign or payload differs from the dtype's "
    "usual quiet NaN, its bits in hex at the dtype's width). Floats are the shortest text that reads back as "
    "the same value in the tensor's dtype. spec_examples/loader.py reads all of it back bit-exactly.")


def float_literal(x) -> str:
    """A finite float (a NumPy floating scalar: its dtype decides the digits) as the shortest exact text."""
    text = fmt_value(x)
    if not any(c in text for c in ".e"):
        text += ".0"
    return text


def _bits_dtype(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}")


def _usual_nan_bits(dtype: np.dtype) -> int:
    return int(np.array(np.nan, dtype=dtype).view(_bits_dtype(dtype)))


def _json_scalar(x: np.generic) -> str:
    if isinstance(x, np.bool_):
        return "true" if x else "false"
    if isinstance(x, np.integer):
        return str(int(x))
    if np.isnan(x):
        bits = int(np.array(x).view(_bits_dtype(x.dtype)))
        if bits == _usual_nan_bits(x.dtype):
            return json.dumps(NAN)
        return json.dumps(f"{NAN_BITS}{bits:0{2 * x.dtype.itemsize}x}")
    if np.isinf(x):
        return json.dumps(INF if x > 0 else NEG_INF)
    return float_literal(x)


def json_array_text(arr) -> str:
    """``arr`` as a JSON nested list (one line), readable by strict parsers; see :data:`JSON_NONFINITE_NOTE`."""
    arr = np.asarray(arr)
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"cannot write a {arr.dtype} array as JSON numbers")

    def nested(a: np.ndarray) -> str:
        if a.ndim == 0:
            return _json_scalar(a[()])
        return "[" + ", ".join(nested(sub) for sub in a) + "]"

    return nested(arr)


def from_json_values(values, dtype) -> np.ndarray:
    """The array that :func:`json_array_text` wrote, from its parsed JSON (``json.loads``), bit-exactly.

    Plain numbers are read as Python does and cast to ``dtype``; the strings of
    :data:`JSON_NONFINITE_NOTE` are read only for a float dtype. Raises ValueError for any other string."""
    dt = np.dtype(dtype)
    marked: list[tuple[tuple[int, ...], int]] = []  # positions of NaNs given by their bits

    def plain(v, where: tuple[int, ...]):
        if isinstance(v, list):
            return [plain(x, where + (i,)) for i, x in enumerate(v)]
        if not isinstance(v, str):
            return v
        if dt.kind != "f":
            raise ValueError(f"{v!r} at {list(where)}: a string stands for a float only, and the dtype is {dt}")
        if v == NAN:
            return float("nan")
        if v in (INF, NEG_INF):
            return float("inf") if v == INF else float("-inf")
        if v.startswith(NAN_BITS):
            try:
                bits = int(v[len(NAN_BITS):], 16)
            except ValueError:
                bits = -1
            if 0 <= bits < 2 ** (8 * dt.itemsize) and len(v) - len(NAN_BITS) == 2 * dt.itemsize:
                marked.append((where, bits))
                return float("nan")
        raise ValueError(f"{v!r} at {list(where)} is not a number nor one of \"{NAN}\", \"{INF}\", \"{NEG_INF}\", "
                         f"\"{NAN_BITS}<{2 * dt.itemsize} hex digits>\"")

    arr = np.array(plain(values, ()), dtype=dt)
    if marked:
        view = arr.view(_bits_dtype(dt))
        for where, bits in marked:
            view[where] = bits
            if not np.isnan(arr[where]):
                raise ValueError(f"\"{NAN_BITS}{bits:x}\" at {list(where)} are not the bits of a NaN in {dt}")
    return arr
