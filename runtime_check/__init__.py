"""runtime_check: run scatter operators on real runtimes and compare them with scatter_core.

Runtimes: ``RUNTIMES`` ("onnxruntime", "onnx.reference", "openvino-onnx": the CPU plugin through OpenVINO's
ONNX frontend, "openvino-cpu", "openvino-reference": ``Node.evaluate``).

* :func:`available`, :func:`pretend_installed` - installed versions, and the hook that fakes them;
* :func:`runtimes_for`, :func:`run`, :func:`run_guarded` - who runs an operator version; one single-node
  model in this process, or in a child with a timeout (crashes and hangs become errors);
* :func:`compare` - scatter_core beside every available runtime, known divergences named;
* :func:`verified_versions`, :func:`version_skew` - the versions the runtime facts were verified on;
* :mod:`runtime_check.fact_checks` - each fact's check (``scatter-explorer verify-facts``);
* :func:`save_openvino_ir` - an OpenVINO operator version as a one-node IR.

Importing this package never imports onnx, onnxruntime or openvino.
"""

from ._common import FRONTEND_RUNTIMES, RUNTIME_FRAMEWORK, RUNTIME_TITLES, RUNTIMES, RunResult
from .compare import Comparison, compare, differing_cells
from .core import available, not_runnable_reason, pretend_installed, run, runtimes_for, stand_in
from .divergences import DOCUMENTED, KNOWN_DIVERGENCES, OBSERVED, Divergence, RuntimeCase
from .guarded import is_crash, run_guarded
from .pins import VERIFY_COMMAND, pins_in, verified_versions, version_skew


def save_openvino_ir(op, data, indices, updates, xml_path, **attrs) -> list[str]:
    """``op`` (an OpenVINO version) on these tensors as a one-node IR at ``xml_path`` (its ``.bin`` beside it),
    the node built as the "openvino-cpu" runtime builds it; returns the parameters' names in input order."""
    from scatter_core import get_spec

    from .compare import _runtime_attrs
    from .openvino_backend import save_ir

    spec = get_spec(op)
    return save_ir(spec, data, indices, updates, _runtime_attrs(spec, attrs), xml_path)


__all__ = [
    "DOCUMENTED", "FRONTEND_RUNTIMES", "VERIFY_COMMAND", "KNOWN_DIVERGENCES", "OBSERVED", "RUNTIMES", "RUNTIME_FRAMEWORK",
    "RUNTIME_TITLES", "Comparison", "Divergence", "RunResult", "RuntimeCase",
    "available", "compare", "differing_cells", "is_crash", "not_runnable_reason", "pretend_installed", "run", "run_guarded",
    "pins_in", "runtimes_for", "save_openvino_ir", "stand_in", "verified_versions", "version_skew",
]
