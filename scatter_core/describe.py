"""Plain-text rendering of values, positions and steps (no UI code here)."""

from __future__ import annotations

import numpy as np

from .formatting import fmt_value, fmt_values  # noqa: F401 - the one formatter, re-exported


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
