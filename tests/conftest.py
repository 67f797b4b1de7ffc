"""Shared test helpers.

``require_or_skip(name)``: skip a test whose optional dependency is missing; when
the environment variable ``CI`` is ``"true"`` the missing dependency is a
failure instead (CI installs every extra, so a skip there would hide a broken
setup).
"""

from __future__ import annotations

import importlib.util

import pytest

from tests.support.skipping import skip_or_fail


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


@pytest.fixture(scope="module")
def server():
    """The app served by `streamlit run` on a free localhost port (browser tests), its players checking the
    contract (scatter_ui/player/contract.py): a payload or report off it is a console error, which the tests see."""
    from tests.support.browser_support import AppServer, require_browser

    require_browser()
    from scatter_ui.player.component import CHECK_ENV

    import shutil
    import tempfile

    data = tempfile.mkdtemp(prefix="scatter-data-")  # the class store's SQLite file: never the user's own
    srv = AppServer(env={CHECK_ENV: "1", "SCATTER_EXPLORER_DATA": data}).start()  # players check the contract
    srv.data_dir = data
    yield srv
    srv.stop()
    shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright (skips locally without it, fails under CI=true)."""
    from tests.support.browser_support import launch, require_browser

    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()
