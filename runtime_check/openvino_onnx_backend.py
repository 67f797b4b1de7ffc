""""openvino-onnx": the OpenVINO CPU plugin running the ONNX one-node model through OpenVINO's ONNX frontend.

This is what a user who deploys an ONNX model with OpenVINO gets: ``openvino.Core().read_model`` reads the
model's bytes (the ONNX frontend converts each ONNX node into OpenVINO operations: ``ScatterND`` into
``ScatterNDUpdate``, ``ScatterElements`` and ``Scatter`` into ``ScatterElementsUpdate``), and the result is
compiled for ``"CPU"`` and run with one infer request. The model is the very one onnxruntime and
onnx.reference run (:func:`runtime_check.onnx_backend.build_model`, scatter_export's one ONNX builder), so the
three ONNX runtimes see the same bytes.

Where the frontend has no conversion rule for the node (``TensorScatter-24`` in the pinned OpenVINO; the fact
``ov-onnx-frontend-no-tensor-scatter``), ``read_model`` raises; that refusal is given back in plain words
(:func:`frontend_refusal`), without OpenVINO's C++ source locations.
"""

from __future__ import annotations

import re

import numpy as np

from scatter_core import OpSpec

from ._common import input_arrays, node_inputs
from .onnx_backend import build_model
from .openvino_backend import _core

_UNCONVERTED = re.compile(r"No conversion rule found for operations:\s*([^\n]+)")


class FrontendRefusal(RuntimeError):
    """OpenVINO's ONNX frontend would not convert the model (no conversion rule for an operation)."""


_FAILED = re.compile(r"Conversion is failed for:\s*([^\n]+)")
_WHY = re.compile(r"While validating ONNX node [^\n]*\n([^\n]+)")


def frontend_refusal(message: str) -> str | None:
    """The frontend's refusal to convert the model in plain words (no conversion rule for an operation, or a
    conversion rule that refused the node, with its reason); None when ``message`` is another error."""
    found = _UNCONVERTED.search(message or "")
    if found:
        ops = " ".join(found.group(1).split()).rstrip(".")
        return f"OpenVINO's ONNX frontend has no conversion rule for {ops}, so read_model refuses the model"
    found = _FAILED.search(message or "")
    if found:
        ops = " ".join(found.group(1).split()).rstrip(".")
        why = _WHY.search(message)
        reason = f": {' '.join(why.group(1).split())}" if why else ""
        return f"OpenVINO's ONNX frontend could not convert {ops}{reason}"
    return None


def converted_ops(spec: OpSpec, data, indices, updates, attrs: dict) -> list[str]:
    """The OpenVINO operations the frontend makes of the one-node model ("ScatterNDUpdate-opset15" ...)."""
    data, indices, updates = input_arrays(data, indices, updates)
    model = _core().read_model(build_model(spec, data, indices, updates, attrs).SerializeToString())
    return [f"{op.get_type_name()}-{op.get_type_info().version_id}" for op in model.get_ordered_ops()
            if op.get_type_name() not in ("Parameter", "Result", "Constant")]


def run_cpu_onnx(spec: OpSpec, data, indices, updates, attrs: dict) -> np.ndarray:
    import openvino as ov

    data, indices, updates = input_arrays(data, indices, updates)
    model_bytes = build_model(spec, data, indices, updates, attrs).SerializeToString()
    try:
        model = _core().read_model(model_bytes)
    except Exception as exc:  # noqa: BLE001 - said plainly when it is the frontend's refusal
        plain = frontend_refusal(str(exc))
        if plain is None:
            raise
        raise FrontendRefusal(plain) from None
    compiled = _core().compile_model(model, "CPU")
    request = compiled.create_infer_request()
    feeds = {name: ov.Tensor(array) for name, array in node_inputs(spec, data, indices, updates)}
    request.infer(feeds)
    return np.array(request.get_output_tensor(0).data, copy=True)
