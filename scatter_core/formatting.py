"""The one number formatter: every value the app prints goes through :func:`fmt_value`.

* Integers print as integers (never a decimal point), booleans as ``true``/``false``.
* Floats print as the shortest text that reads back as the same value *in their own
  dtype* (float32 ``1.1`` -> ``"1.1"``, not ``"1.10000002"``): NumPy's Dragon4 with
  ``unique=True`` on the typed scalar. Positional notation for magnitudes in
  [1e-4, 1e16) (``98765.43``, never ``1e+05``), scientific outside, as Python's ``repr``.
* ``width``: at most that many characters for a narrow cell. A float drops significant
  digits until it fits (the exact text belongs in the hover), the exponent written short
  if need be (``7e-4``); text that cannot fit
  (an integer too long, a float that fits in no precision) becomes ``""`` so that a cell
  never shows overlapping or misleading digits.

Pure: NumPy only.
"""

from __future__ import annotations

import re

import numpy as np

POSITIONAL_MIN = 1e-4
POSITIONAL_MAX = 1e16


def _typed(v, dtype=None):
    """``v`` as a NumPy scalar of ``dtype`` (or of its own type; Python floats are float64)."""
    if dtype is not None:
        return np.dtype(dtype).type(v)
    if isinstance(v, np.generic):
        return v
    if isinstance(v, bool):
        return np.bool_(v)
    if isinstance(v, int):
        return v  # Python ints may exceed int64; printed by str()
    if isinstance(v, float):
        return np.float64(v)
    return v


def _float_text(x: np.floating, precision: int | None = None) -> str:
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    mag = abs(float(x))
    positional = mag == 0 or POSITIONAL_MIN <= mag < POSITIONAL_MAX
    if precision is None:
        if positional:
            return np.format_float_positional(x, unique=True, trim="-")
        return np.format_float_scientific(x, unique=True, trim="-")
    if positional and (mag < 1 or precision >= int(np.floor(np.log10(mag))) + 1):
        # never round away integer digits: 98765.43 at 3 digits is 9.88e+04, not a false "98800"
        return np.format_float_positional(x, precision=precision, unique=False, fractional=False, trim="-")
    return np.format_float_scientific(x, precision=max(precision - 1, 0), unique=False, trim="-")


def _compact_exponent(sci: str) -> str:
    """``7e-04`` -> ``7e-4``, ``1.5e+05`` -> ``1.5e5``: the same number in fewer characters, for a narrow cell."""
    return re.sub(r"e([+-])0*(\d)", lambda m: "e" + ("-" if m.group(1) == "-" else "") + m.group(2), sci)


def _shorten(x: np.floating, width: int, digits: int | None = None) -> str:
    """``x`` in at most ``width`` characters and ``digits`` significant digits, as many as fit, else ''."""
    top = np.finfo(x.dtype).precision + 2
    for precision in range(min(top, digits or top), 0, -1):
        # positional text of a large or tiny number may fit only in scientific notation
        sci = np.format_float_scientific(x, precision=max(precision - 1, 0), unique=False, trim="-")
        for text in (_float_text(x, precision), sci, _compact_exponent(sci)):
            if len(text) <= width and np.isfinite(float(text)):  # 1.5e308 never rounds to "2e+308"
                return text
    return ""


def fmt_value(v, dtype=None, width: int | None = None, digits: int | None = None) -> str:
    """One value as text (see the module docstring). ``dtype`` types a plain Python value first;
    ``width`` and ``digits`` (significant digits of a float) shorten it for a narrow cell."""
    x = _typed(v, dtype)
    if isinstance(x, np.bool_):
        text = "true" if x else "false"
    elif isinstance(x, (int, np.integer)):
        text = str(int(x))
    elif isinstance(x, np.floating):
        text = _float_text(x)
        if np.isfinite(x) and ((width is not None and len(text) > width) or digits is not None):
            short = _shorten(x, width or len(text), digits)
            # keep the exact text when it is no longer than the digits allow
            return text if len(text) <= len(short) and (width is None or len(text) <= width) else short
    elif isinstance(x, np.complexfloating):
        text = f"{_float_text(x.real)}{'+' if not np.signbit(x.imag) else '-'}{_float_text(abs(x.imag))}j"
    else:
        text = str(x)
    if width is not None and len(text) > width:
        return ""
    return text


def fmt_values(values, limit: int = 16) -> str:
    """Up to ``limit`` values of an array, each in its dtype: ``[1.1, 2.2, … (40 values)]``."""
    vals = np.asarray(values).reshape(-1)
    shown = ", ".join(fmt_value(v) for v in vals[:limit])
    if vals.size > limit:
        shown += f", … ({vals.size} values)"
    return "[" + shown + "]" if vals.size != 1 else shown
