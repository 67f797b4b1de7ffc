"""scatter_models: the scatter nodes of a real model, listed statically and captured from one run.

Pure (no streamlit, no plotly); uses scatter_core's public API. The public API:

* ``open_model(source)`` -> :class:`Model` (a path to ``.onnx`` or ``.xml``, or ONNX bytes); listing never runs it;
* ``Model.nodes`` (:class:`ScatterNode`: op, attrs, findings, shapes, ``index_verdict`` and ``index_proof``),
  ``Model.inputs`` (:class:`ModelInput`);
* ``Model.capture(inputs=None, *, seed=0, dims=None, runtime=None)`` -> node name -> :class:`CapturedNode`, run
  in a guarded child process (``prewarm()`` starts it ahead); ``runtime`` None is :func:`default_runtime`;
* ``read_inputs(files, model)``: the arrays of uploaded inputs files, bounded before reading;
* ``ModelError``: the only exception a bad file or a failed run raises;
* ``audit(model, inputs=None, runtimes=None)``: one :class:`AuditRow` per scatter node;
* ``SAMPLES``: the sample models shipped with the package (:func:`sample_path`).

Each entry in full: docs/architecture.md, scatter_models/__init__.py.
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
