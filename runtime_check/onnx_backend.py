"""ONNX runtimes: onnxruntime (CPUExecutionProvider) and ``onnx.reference``.

One single-node model per call, built by :func:`scatter_export.single_node_model`: the version's tensor
inputs as graph inputs (never initializers, so nothing is folded away) with their exact dtypes and shapes,
one node, exactly the version's default-domain opset, the smallest IR that supports it, and the attributes
as given (a value of the declared kind in its codec's ONNX form). The ONNX checker is deliberately not run:
the point is what the runtime does.

onnxruntime runs it with one intra-op thread; errors come back with the runtime's own message.
``onnx.reference.ReferenceEvaluator`` runs the same model in Python.
More: docs/architecture.md, runtime_check/onnx_backend.py.
"""

from __future__ import annotations

import numpy as np

from scatter_core import OpSpec, codec_of
from scatter_export import single_node_model

from ._common import input_arrays, int_list, node_inputs, python_scalar


def attribute_value(spec: OpSpec, name, value):
    """What ``onnx.helper.make_attribute`` gets: a value of the kind ``spec`` declares for ``name`` in its codec's
    ONNX form; anything else (a value of another kind, a name ``spec`` lacks) written as given, so onnxruntime's
    and onnx.reference's own reactions to it show."""
    declared = spec.attribute(name)
    if declared is not None:
        codec = codec_of(spec, declared)
        if codec.of_kind(value):
            return codec.to_onnx(value)
    scalar = python_scalar(value)
    if scalar is not None:
        return int(scalar) if isinstance(scalar, bool) else scalar  # ONNX has no bool attributes
    arr = np.asarray(value)
    if arr.dtype.kind in "iu" and arr.size == 1:  # a one-element axis array
        return int(arr.reshape(()))
    if int_list(name, value) is not None:
        return int_list(name, value)
    raise TypeError(f"attribute {name} = {value!r} cannot be written into an ONNX model")


def build_model(spec: OpSpec, data: np.ndarray, indices: np.ndarray | None, updates: np.ndarray, attrs: dict):
    """The single-node ``onnx.ModelProto`` for ``spec`` at opset ``spec.version``: scatter_export's one builder
    (:func:`scatter_export.single_node_model`), with the attributes written exactly as given."""
    node_attrs = {k: attribute_value(spec, k, v) for k, v in attrs.items() if v is not None}  # None: left out
    return single_node_model(spec, node_inputs(spec, data, indices, updates), node_attrs,
                             producer="scatter-explorer runtime_check")


def _feeds(spec: OpSpec, data, indices, updates):
    return dict(node_inputs(spec, data, indices, updates))


def run_onnxruntime(spec: OpSpec, data, indices, updates, attrs: dict) -> np.ndarray:
    import onnxruntime as ort

    data, indices, updates = input_arrays(data, indices, updates)
    model = build_model(spec, data, indices, updates, attrs)
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1  # one thread: quick session start-up, deterministic loop order
    options.inter_op_num_threads = 1
    options.log_severity_level = 4  # errors come back as exceptions; keep stderr quiet
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    run_options = ort.RunOptions()
    run_options.log_severity_level = 4
    return np.asarray(session.run(None, _feeds(spec, data, indices, updates), run_options)[0])


def run_onnx_reference(spec: OpSpec, data, indices, updates, attrs: dict) -> np.ndarray:
    from onnx.reference import ReferenceEvaluator

    data, indices, updates = input_arrays(data, indices, updates)
    model = build_model(spec, data, indices, updates, attrs)
    evaluator = ReferenceEvaluator(model)
    with np.errstate(all="ignore"):  # integer wrap-around and float overflow are results, not warnings
        return np.asarray(evaluator.run(None, _feeds(spec, data, indices, updates))[0])
