"""Running the real app and Debian's Chromium for the browser tests.

On a laptop without Chromium these tests skip; under CI=true a missing
browser is a failure, since CI installs it (scripts/install-test-deps.sh).
The server and browser helpers themselves are in devtools/browser.py (bench/ and scripts/ use them too).
"""

from __future__ import annotations

from pathlib import Path

from devtools.browser import (BENIGN, CHROMIUM, LAUNCH_ARGS, ROOT, SCREENSHOTS, AppServer, free_port, launch,
                              real_errors)
from tests.support.skipping import skip_or_fail

__all__ = ["BENIGN", "CHROMIUM", "LAUNCH_ARGS", "ROOT", "SCREENSHOTS", "AppServer", "free_port", "launch",
           "real_errors", "require_browser", "watched_page"]


def require_browser():
    if not Path(CHROMIUM).exists():
        skip_or_fail(f"Chromium not found at {CHROMIUM} (install Debian's chromium: scripts/install-test-deps.sh)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        skip_or_fail("playwright is not installed (pip install -e '.[test]')")


def watched_page(browser, **context_options):
    """A new browser context and page whose console errors and uncaught page errors collect in ``pg.errors``."""
    ctx = browser.new_context(**context_options)
    pg = ctx.new_page()
    pg.errors = []
    pg.on("console", lambda m: pg.errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.errors.append(f"pageerror: {e}"))
    return ctx, pg
