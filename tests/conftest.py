"""Shared test helpers.

``require_or_skip(name)``: skip a test whose optional dependency is missing; when
the environment variable ``CI`` is ``"true"`` the missing dependency is a
failure instead (CI installs every extra, so a skip there would hide a broken
setup).
"""

from __future__ import annotations

import importlib.util
import os

import pytest


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
    message = f"not installed: {', '.join(missing)} (pip install -e '.[runtimes]')"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {message}", pytrace=False)
    pytest.skip(message)
