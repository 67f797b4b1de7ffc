"""scatter_export: turn one scatter case into a test, an example, a NumPy loop or an ONNX model.

Pure functions of a :class:`scatter_core.Case` and an expected output (None: the case's own):

* ``pytest_case(...)``: a pytest module in plain NumPy (the spec's loop inlined,
  the arrays and the expected output inlined); it does not import this project.
* ``example_json(...)``: a ``spec_examples`` data file holding the case as one of
  our teaching examples (``"ours": true``).
* ``numpy_loop(...)``: a short self-contained script reproducing the output.
* ``onnx_model(...)``: the case as an ONNX model (needs the ``runtimes`` extra);
  ``onnx_test_case(...)``: a zip with that model and its input and output
  tensors in ONNX's test-data layout (``test_data_set_0/input_0.pb`` ...).
* ``graph_model(nodes, inputs, ...)``: an ONNX model of several nodes (``GraphNode`` records), checked and
  serialized deterministically; ``model_pytest(model, feeds, case, ...)``: a pytest running such a model on
  onnxruntime and onnx.reference against the case's output, by the same conformance rule (graphs.py: the
  compositions From your code exports).
* ``framework_snippet(framework, ...)``: the case as a PyTorch, TensorFlow or JAX script,
  from framework_map's verified records (frameworks.py).

Generated text never contains user text: only numbers we format from parsed
arrays, dtype names, and names taken from the operator registry.
"""

from __future__ import annotations

from .builders import (ExportError, example_json, numpy_loop, onnx_model, onnx_test_case, pytest_case,
                       single_node_model)
from .frameworks import SNIPPET_FRAMEWORKS, framework_snippet, framework_unavailable_reason
from .graphs import GraphNode, graph_model, model_pytest

__all__ = ["ExportError", "GraphNode", "SNIPPET_FRAMEWORKS", "example_json", "framework_snippet",
           "framework_unavailable_reason", "graph_model", "model_pytest", "numpy_loop", "onnx_model", "onnx_test_case",
           "pytest_case", "single_node_model"]
