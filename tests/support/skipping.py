"""One rule for tests that can't run here: skip on a developer's machine, fail under CI=true.

``require_or_skip(name)`` applies it to a missing runtime or module, ``require_framework`` to a framework.

CI installs every extra and runs on the project's own Linux machine, so a skip there would
hide a broken setup or a part of the project that went untested.
"""

from __future__ import annotations

import importlib.util
import os

import pytest


def skip_or_fail(message: str) -> None:
    """Skip the calling test with ``message``; when the environment has CI=true, fail it instead."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {message}", pytrace=False)
    pytest.skip(message)


def _is_available(name: str) -> bool:
    try:
        from runtime_check import RUNTIMES, available
    except ImportError:  # pragma: no cover - the package is part of this repository
        RUNTIMES, available = (), None
    if name in RUNTIMES:
        return available()[name] is not None
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def require_or_skip(*names: str) -> None:
    """Skip (or, under CI=true, fail) unless every named runtime or module is installed.

    Names are runtime_check runtimes ("onnxruntime", "onnx.reference",
    "openvino-cpu", "openvino-reference") or importable module names.
    """
    missing = [n for n in names if not _is_available(n)]
    if not missing:
        return
    skip_or_fail(f"not installed: {', '.join(missing)} (pip install -e '.[runtimes,frameworks]')")


FRAMEWORK_MODULES = {"PyTorch": "torch", "TensorFlow": "tensorflow", "JAX": "jax"}
OPTIONAL_FRAMEWORKS = ("PyTorch", "TensorFlow")  # no project extra installs them (issue #17: a script checks them)


def require_framework(framework: str) -> None:
    """JAX is required (the `frameworks` extra: fails under CI=true when missing); PyTorch and
    TensorFlow are optional: skipped where absent, checked by scripts/verify_frameworks.py where present."""
    module = FRAMEWORK_MODULES[framework]
    if framework not in OPTIONAL_FRAMEWORKS:
        require_or_skip(module)
    elif not _is_available(module):
        pytest.skip(f"{framework} is not installed (scripts/verify_frameworks.py covers it where it is)")
