"""The first visit after a server start: a deep link opens its page with no "Page not found".

Each test starts its own `streamlit run` server, because the bug lived in what Streamlit decides
when the first session of a process starts (see app.py's docstring).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser_support import SCREENSHOTS, AppServer, launch, require_browser

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]


def test_no_pages_directory_beside_the_entry_point():
    # a pages/ directory next to app.py makes Streamlit treat the first session as an old-style
    # multipage app; page files live in app_pages/
    assert not (ROOT / "pages").exists()
    assert (ROOT / "app_pages").is_dir()


@pytest.mark.parametrize("path,title", [
    ("nd?op=ScatterND-16&example=onnx-scatternd-16-example-1&step=2", "ScatterND-16"),
    ("check?op=ScatterElements-18", "Check an expected output"),
])
def test_deep_link_as_the_first_session_of_a_fresh_server(path, title):
    require_browser()
    from playwright.sync_api import sync_playwright

    srv = AppServer().start()
    try:
        with sync_playwright() as p:
            browser = launch(p)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{srv.url}/{path}")
            page.get_by_role("heading", name=title).first.wait_for(timeout=90_000)
            page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')",
                                   timeout=90_000)
            page.wait_for_timeout(1500)  # the dialog, when it came, came with the first run's messages
            body = page.inner_text("body")
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"first-visit-{path.split('?')[0]}.png"))
            browser.close()
    finally:
        srv.stop()
    assert "Page not found" not in body
    assert "does not seem to exist" not in body
