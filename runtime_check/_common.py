"""Shared record types and small helpers (no runtime imports here)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# The five runtimes, in the order the app shows them. The registry's
# ``runnable_on`` names engines ("onnxruntime", "onnx.reference", "openvino");
# ENGINE_RUNTIMES says which runtimes of ours each engine name stands for
# (RUNTIME_FRAMEWORK then keeps those that load the operator's format: OpenVINO
# runs an ONNX operator as "openvino-onnx", its CPU plugin through its ONNX frontend).
RUNTIMES = ("onnxruntime", "onnx.reference", "openvino-onnx", "openvino-cpu", "openvino-reference")
ENGINE_RUNTIMES = {
    "onnxruntime": ("onnxruntime",),
    "onnx.reference": ("onnx.reference",),
    "openvino": ("openvino-onnx", "openvino-cpu", "openvino-reference"),
}
# Which framework's models each runtime loads (an ONNX model cannot go to
# OpenVINO's node builders and the other way round).
RUNTIME_FRAMEWORK = {
    "onnxruntime": "ONNX",
    "onnx.reference": "ONNX",
    "openvino-onnx": "ONNX",  # the CPU plugin, the model read by OpenVINO's ONNX frontend
    "openvino-cpu": "OpenVINO",
    "openvino-reference": "OpenVINO",
}

# Runtimes that load any model of a format through a frontend: they are tried on every version of that
# format some runtime runs (the registry's ``runnable_on`` names the runtimes of its own format only); where
# the frontend has no conversion rule, the run is the frontend's refusal (a ``runnable`` runtime fact).
FRONTEND_RUNTIMES = {"ONNX": ("openvino-onnx",)}
# How each runtime is named in words (the panel's captions; the runtime names above are the keys and columns)
RUNTIME_TITLES = {
    "onnxruntime": "onnxruntime (CPU)",
    "onnx.reference": "onnx.reference",
    "openvino-onnx": "OpenVINO CPU (ONNX frontend)",
    "openvino-cpu": "OpenVINO CPU plugin",
    "openvino-reference": "OpenVINO reference",
}

MAX_ERROR_CHARS = 4000


@dataclass(frozen=True)
class RunResult:
    """What one runtime did with one case.

    ``ok`` is True when the runtime produced an output; otherwise ``error``
    says why (the runtime's own message, a crash or a timeout).
    """

    runtime: str
    version: str | None
    ok: bool
    output: np.ndarray | None = field(default=None, compare=False)
    error: str | None = None


def check_runtime_name(runtime: str) -> None:
    if runtime not in RUNTIMES:
        raise ValueError(f"unknown runtime {runtime!r}; known: {', '.join(RUNTIMES)}")


def error_text(exc: BaseException) -> str:
    """``Type: message``, whitespace-trimmed and bounded in length."""
    msg = str(exc).strip()
    text = f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__
    if len(text) > MAX_ERROR_CHARS:
        text = text[:MAX_ERROR_CHARS] + " …(truncated)"
    return text


def as_array(name: str, value) -> np.ndarray:
    """``np.asarray`` that refuses object arrays (never run arbitrary Python objects)."""
    arr = np.asarray(value)
    if arr.dtype.kind in "OV":
        raise TypeError(f"{name} has dtype {arr.dtype}; runtime checks take bool, integer and float tensors")
    if not arr.flags.c_contiguous:
        arr = arr.copy(order="C")  # (np.ascontiguousarray would turn a 0-d array into 1-d)
    return arr


def input_arrays(data, indices, updates) -> tuple:
    """:func:`as_array` on the three inputs; an indices left out (None) stays None."""
    return (as_array("data", data), None if indices is None else as_array("indices", indices),
            as_array("updates", updates))


def node_inputs(spec, data, indices, updates) -> list[tuple[str, np.ndarray]]:
    """(name in the spec, array) for each tensor input of the node, in the node's order (``spec.inputs``);
    an optional input left out (None) is skipped."""
    arrays = {"data": data, "indices": indices, "updates": updates}
    return [(i.name, arrays[i.role]) for i in spec.inputs if arrays[i.role] is not None]


def int_list(name: str, value) -> list[int] | None:
    """A list of Python ints from a list, tuple or 1-D integer array (SliceScatter's start ...); None otherwise."""
    if isinstance(value, np.ndarray):
        return [int(v) for v in value.tolist()] if value.ndim == 1 and value.dtype.kind in "iu" else None
    if isinstance(value, (list, tuple)) and all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                                                for v in value):
        return [int(v) for v in value]
    return None


def axis_array(axis) -> np.ndarray:
    """OpenVINO's axis input: integers become an int64 scalar; arrays keep their dtype."""
    if isinstance(axis, (bool, np.bool_)):
        raise TypeError(f"axis = {axis!r} must be an integer")
    if isinstance(axis, (int, np.integer)):
        return np.asarray(axis, dtype=np.int64)
    return as_array("axis", axis)


def python_scalar(value):
    """A bool, int, float or str attribute value as the plain Python scalar; None for anything else."""
    for kind, convert in ((bool, bool), (np.bool_, bool), (int, int), (np.integer, int), (float, float),
                          (np.floating, float), (str, str)):
        if isinstance(value, kind):
            return convert(value)
    return None
