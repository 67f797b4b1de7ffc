"""From your code: one PyTorch, TensorFlow, JAX or NumPy scatter call, read (never run) as an ONNX / OpenVINO
operator or a composition of them.

* ``from_call(text, dtype=None, tensors=None)`` -> :class:`Translation` (translate.py);
* with tensors, the call as a :class:`scatter_core.Case` (case.py), a small ONNX graph where one operator is not
  enough (graph.py), and a guarded run in the call's own framework with its exports (run.py).

Above :mod:`framework_map` (the framework records) and :mod:`scatter_export` (the model builders); nothing below
imports this package (tests/project/test_imports.py checks the package order).
"""

from .translate import Translation, from_call

__all__ = ["Translation", "from_call"]
