"""What a first visit fetches (issue #26 §1.2): plotly.js comes as the gzip file the package ships, which the
server sends as it is (Streamlit would gzip the plain 1.5 MB file again on every request), and the player
unpacks it; the figure is drawn by plotly as before."""

from __future__ import annotations

import pytest

from tests.support.browser_pages import FIGURE, SEU1, page_context, errors

pytestmark = pytest.mark.browser


def test_plotly_arrives_gzipped_and_unpacked_in_the_browser(server, browser):
    ctx, pg = page_context(browser)
    try:
        seen = []
        pg.on("response", lambda r: seen.append(r) if "plotly-cartesian" in r.url else None)
        pg.goto(server.url + SEU1)
        pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=90_000)
        names = [r.url.rsplit("/", 1)[-1] for r in seen]
        assert names == ["plotly-cartesian.min.js.gz"], names  # never the plain file
        headers = seen[0].all_headers()
        assert seen[0].status == 200 and headers.get("content-type") == "application/gzip"
        assert "content-encoding" not in headers  # sent as it is, not compressed by the server again
        assert pg.evaluate("() => document.querySelector('script[data-plotly]').dataset.plotly") == "gzip"
        assert pg.evaluate("() => typeof window.Plotly.react") == "function"
        assert errors(pg) == []
    finally:
        ctx.close()
