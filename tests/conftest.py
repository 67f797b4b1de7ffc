"""The suite's fixtures (a served app, a browser) and its Hypothesis profiles.

Helpers shared by test modules live in tests/support/ (require_or_skip, require_framework: support/skipping.py);
test modules never import each other or this file (tests/project/test_layout.py checks it).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from tests.support.profiles import QUICK, THOROUGH, chosen

# Hypothesis profiles: "quick" for the contributors' loop, "thorough" (every example CI ran before the profiles) under
# CI=true. HYPOTHESIS_PROFILE or pytest's --hypothesis-profile picks one by hand. A test's own count scales with
# the profile through tests/support/profiles.examples.
settings.register_profile("thorough", max_examples=THOROUGH)
settings.register_profile("quick", max_examples=QUICK)
settings.load_profile(chosen(os.environ))


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
