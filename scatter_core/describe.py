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
