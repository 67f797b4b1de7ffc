"""scatter_export: turn one scatter case into a test, an example, a NumPy loop or an ONNX model.

Pure functions of a :class:`scatter_core.Case` and an expected output (None: the case's own):

* ``pytest_case(...)``: a pytest module in plain NumPy that does not import this project;
* ``example_json(...)``: a ``spec_examples`` data file holding the case (``"ours": true``);
* ``numpy_loop(...)``: a short self-contained script reproducing the output;
* ``onnx_model(...)`` / ``onnx_test_case(...)``: the case as an ONNX model, or a zip in ONNX's test-data layout;
* ``graph_model(nodes, inputs, ...)`` / ``model_pytest(...)``: a model of several ``GraphNode`` records and a
  pytest running it on onnxruntime and onnx.reference (graphs.py: From your code's compositions);
* ``framework_snippet(framework, ...)``: the case as a PyTorch, TensorFlow or JAX script (frameworks.py).

Generated text never contains user text: only numbers formatted from parsed arrays, dtype names, and names
from the operator registry. More: docs/architecture.md, scatter_export.
"""

from __future__ import annotations

from .builders import (ExportError, example_json, numpy_loop, onnx_model, onnx_test_case, pytest_case,
                       single_node_model)
from .frameworks import SNIPPET_FRAMEWORKS, framework_snippet, framework_unavailable_reason
from .graphs import GraphNode, graph_model, model_pytest

__all__ = ["ExportError", "GraphNode", "SNIPPET_FRAMEWORKS", "example_json", "framework_snippet",
           "framework_unavailable_reason", "graph_model", "model_pytest", "numpy_loop", "onnx_model", "onnx_test_case",
           "pytest_case", "single_node_model"]
