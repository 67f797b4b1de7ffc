"""Plain-text rendering of values, positions and steps (no UI code here)."""

from __future__ import annotations

import numpy as np


def fmt_value(v) -> str:
    """A value as the printed specs show it: shortest round-trip for floats, no SI suffixes."""
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (np.floating, float)):
        if np.isnan(v):
            return "nan"
        if np.isinf(v):
            return "inf" if v > 0 else "-inf"
        text = np.format_float_positional(v, trim="-")
        if len(text) > 12:
            text = np.format_float_scientific(v, trim="-", precision=6)
        return text
    return str(int(v)) if isinstance(v, (np.integer, int)) else str(v)


def fmt_values(values, limit: int = 16) -> str:
    vals = np.asarray(values).reshape(-1)
    shown = ", ".join(fmt_value(v) for v in vals[:limit])
    if vals.size > limit:
        shown += f", … ({vals.size} values)"
    return "[" + shown + "]" if vals.size != 1 else shown


def fmt_index(pos, free_axes=(), shape=None) -> str:
    """``[2, :, :]``: fixed coordinates from ``pos``, ':' on the free axes."""
    parts = [":" if d in free_axes else str(int(p)) for d, p in enumerate(pos)]
    return "[" + ", ".join(parts) + "]"


def fmt_shape(shape) -> str:
    return "×".join(str(int(s)) for s in shape) if len(shape) else "scalar"


def fmt_attr(name: str, value) -> str:
    """One attribute as the pages and exports write it: ``axis=0``, ``reduction='add'``, ``use_init_val=false``."""
    if isinstance(value, (bool, np.bool_)):
        return f"{name}={'true' if value else 'false'}"
    if isinstance(value, str):
        return f"{name}={value!r}"
    if isinstance(value, (tuple, list, np.ndarray)):
        return f"{name}=[{', '.join(str(int(v)) for v in np.asarray(value).reshape(-1))}]"
    return f"{name}={int(value)}" if isinstance(value, (int, np.integer)) else f"{name}={value}"


def attr_text(attrs) -> str:
    """``axis=0, reduction='add'`` for a mapping of attributes (None values left out); ``no attributes``."""
    return ", ".join(fmt_attr(k, v) for k, v in attrs.items() if v is not None) or "no attributes"
