"""scatter_models: the scatter nodes of a real model, listed statically and captured from one run.

Pure (no streamlit, no plotly); uses scatter_core's public API. The public API:

* ``open_model(source)``: a path (``.onnx``, or ``.xml`` with its ``.bin`` beside it) or the raw bytes of an
  ONNX model -> :class:`Model`. Listing never runs the model.
* ``Model.nodes``: one :class:`ScatterNode` per scatter node (subgraphs and local functions included):
  ``.name``, ``.op`` (``"ScatterND-18"``), ``.attrs``, ``.findings``, shapes known from the model, and
  ``.index_verdict`` (``"unique"`` | ``"may-repeat"`` | ``"repeats"``) with ``.index_proof`` (the chain, in words).
* ``Model.inputs``: the declared inputs (:class:`ModelInput`: name, dtype, shape; symbolic dims as strings).
* ``Model.capture(inputs=None, *, seed=0, dims=None, runtime=None)``: node name ->
  :class:`CapturedNode` (``.case``, ``.output``, ``.calls``, ``.output_source``), run in a guarded child
  process with time and memory limits (``prewarm()`` starts that process ahead, e.g. when a model opens).
  ``inputs`` is a dict name -> array, or a path: a ``test_data_set_N`` folder of ``input_K.pb`` or an inputs file.
* ``read_inputs(files, model)``: the arrays in uploaded ``.npz``/``.npy``/``.pb``/zip files, bounded before reading.
  ``runtime`` None is :func:`default_runtime`: what gets deployed (an IR's CPU plugin; onnxruntime for ONNX
  where installed, else onnx.reference).
* ``ModelError``: the only exception a bad file or a failed run raises (a ``scatter_core.ScatterError``).
* ``audit(model, inputs=None, runtimes=None)``: one :class:`AuditRow` per scatter node, each runtime's output
  against the exact result and the facts that explain a difference (``scatter-explorer audit``; :mod:`.auditing`).
* ``SAMPLES``: the sample models shipped with the package (:func:`sample_path`).
"""

from __future__ import annotations

from .auditing import AuditRow, audit
from .capture import (RUNTIMES, Capture, CapturedNode, default_runtime, estimate_bytes, prewarm,
                      runtime_available, runtime_note, runtime_problem)
from .draws import default_dims, explained as explained_draws
from .errors import ModelError
from .inputs import dims_from_inputs, given_dims, inputs_from_file, inputs_from_path, read_inputs
from .limits import max_capture_bytes, max_model_bytes, memory_limit, shape_text, time_limit
from .model import Model, ModelInput, ScatterNode, open_model
from .samples import SAMPLES, Sample, sample_path
from .static import Finding
from .support import runtime_choice, runtime_name, runtime_short

__all__ = [
    "RUNTIMES", "SAMPLES", "AuditRow", "Capture", "CapturedNode", "Finding", "Model", "ModelError", "ModelInput", "Sample",
    "ScatterNode", "audit", "default_dims", "default_runtime", "dims_from_inputs", "estimate_bytes", "explained_draws", "given_dims",
    "inputs_from_file", "inputs_from_path", "max_capture_bytes", "max_model_bytes", "memory_limit", "open_model",
    "prewarm", "read_inputs", "runtime_available", "runtime_choice", "runtime_name", "runtime_short", "runtime_note",
    "runtime_problem",
    "sample_path", "shape_text", "time_limit",
]
