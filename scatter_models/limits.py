"""Sizes and times a model may cost, each configurable (argument, or environment variable)."""

from __future__ import annotations

import os

MiB = 1 << 20


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    try:
        return int(value) if value.strip() else default
    except ValueError:
        return default


def max_model_bytes() -> int:
    """The largest model file read (protobuf's own hard limit is 2 GiB); ``SCATTER_MODELS_MAX_BYTES``."""
    return _env_int("SCATTER_MODELS_MAX_BYTES", 512 * MiB)


def max_capture_bytes() -> int:
    """What a capture may allocate for the model's inputs and the scatter nodes' tensors, estimated from
    the shapes before running; ``SCATTER_MODELS_MAX_CAPTURE_BYTES``."""
    return _env_int("SCATTER_MODELS_MAX_CAPTURE_BYTES", 256 * MiB)


def time_limit() -> float:
    """Seconds a capture may run in its worker process; ``SCATTER_MODELS_TIME_LIMIT``."""
    return float(_env_int("SCATTER_MODELS_TIME_LIMIT", 60))


def memory_limit() -> int:
    """Resident bytes the capture's worker process may use; ``SCATTER_MODELS_MEMORY_LIMIT``."""
    return _env_int("SCATTER_MODELS_MEMORY_LIMIT", 2048 * MiB)


MAX_CONSTANT_ELEMENTS = 1_000_000  # constant indices larger than this are not read for static findings
MAX_STATIC_CHECK_ELEMENTS = 1_000_000  # data/updates larger than this are not traced for static findings
DEFAULT_DIM = 4  # a symbolic dim the user did not set
MAX_DIM = 1 << 31


def shape_text(shape) -> str:
    """A declared shape as text: ``2×max_seq×4`` (symbolic dims by name), "unknown" when the model gives none."""
    if shape is None:
        return "unknown"
    return "×".join(str(d) for d in shape) if len(shape) else "scalar"
