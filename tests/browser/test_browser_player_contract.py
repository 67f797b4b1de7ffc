"""The player's script in real Chromium against its contract (scatter_ui/player/contract.py), without Streamlit.

A bare page (served by Playwright's routing, not a server) imports the joined script (player.js) as Streamlit does
and mounts it with a payload built by Python (scatter_ui.player.component.payload): the player validates the payload
against the shipped JSON Schema, checks its own step reports, and colours the cells with the palette Python
sent (change the scale in the payload and the drawn colours follow). The app's own players are checked the
same way in every browser test (tests/conftest.py's server sets SCATTER_PLAYER_CHECK=1).
"""

from __future__ import annotations

import base64
import io
import json

import numpy as np
import pytest

import scatter_core as sc
from scatter_ui.player import component as player_mod
from scatter_ui.player import contract as pc
from scatter_ui.figures.heatmaps import StepFigure
from scatter_ui.player.component import ASSET_DIR
from tests.support.browser_support import SCREENSHOTS, real_errors

pytestmark = pytest.mark.browser

HOST = "http://player.test"
PLAYER = "[data-testid=scatter-player]"
FIGURE = "[data-testid=scatter-figure]"
DARK_THEME = "--st-background-color:#0e1117;--st-text-color:#fafafa;--st-secondary-background-color:#262730;"
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>player</title>
<link rel="stylesheet" href="/assets/player.css"></head>
<body style="margin:0;background:%(bg)s"><div id="root" style="width:1000px;%(theme)s"></div>
<script type="module">
import mount from "/assets/player.js";
const raw = Uint8Array.from(atob(%(payload)s), (c) => c.charCodeAt(0));
window.sent = [];
mount({ data: raw, parentElement: document.getElementById("root"),
        setStateValue: (name, value) => window.sent.push(["state", name, value]),
        setTriggerValue: (name, value) => window.sent.push(["trigger", name, value]) });
</script></body></html>"""


def the_payload(change=None, trace=None, **options) -> bytes:
    """A payload as the explorer sends it (checking on), for a case with a duplicate index; ``change`` edits
    the data before it is sent (a palette of our own, or a breach of the contract)."""
    t = sc.trace(sc.case("ScatterElements-18", np.arange(8, dtype=np.float64).reshape(2, 4), [[1, 0, 1, 1]],
                         [[10.0, 20.0, 30.0, 40.0]]))
    opts = {"view": "case", "step": 1, "name": "case", "report": True, "url_param": None,
            "plotly_url": "/assets/plotly-cartesian.min.js", "contract_url": "/assets/player-contract.json",
            "check": True, "controls": None, "room_below": None, **options}
    raw = player_mod.payload(StepFigure(t).figure(1) if trace is None else StepFigure(trace).figure(len(trace)), opts)
    if change is None:
        return raw
    data = player_mod.read_payload(raw)
    change(data)
    return f"{player_mod.PAYLOAD_MARK}9:0\n".encode() + json.dumps(data).encode()


def mount(browser, payload: bytes, dark: bool = False, plotly: bool = True):
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = ctx.new_page()
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(f"pageerror: {e}"))
    html = PAGE % {"payload": json.dumps(base64.b64encode(payload).decode()), "bg": "#0e1117" if dark else "#ffffff",
                   "theme": DARK_THEME if dark else ""}

    def serve(route):
        path = route.request.url[len(HOST):].split("?")[0]
        if path == "/":
            return route.fulfill(status=200, content_type="text/html", body=html)
        name = path.removeprefix("/assets/")
        if name.startswith("plotly-cartesian.min.js") and not plotly:
            return route.abort()  # plotly.js never comes (plain or gzipped): the player's own SVG drawing stays
        if name == "player.js":  # the player's modules joined into one, as Streamlit is sent it (player_mod.JS)
            return route.fulfill(status=200, content_type="text/javascript", body=player_mod.JS)
        file = ASSET_DIR / name
        if "/" in name or not file.is_file():
            return route.fulfill(status=404, body="")
        kind = {"js": "text/javascript", "css": "text/css", "json": "application/json",
                "gz": "application/gzip"}[file.suffix[1:]]  # plotly.js comes gzipped (the player unpacks it)
        return route.fulfill(status=200, content_type=kind, body=file.read_bytes())

    pg.route(f"{HOST}/**", serve)
    pg.goto(HOST + "/")
    return ctx, pg


def test_a_payload_on_the_contract_draws_and_the_reports_it_sends_are_on_it(browser):
    ctx, pg = mount(browser, the_payload())
    try:
        pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=60_000)
        pg.wait_for_selector(f"{PLAYER}[data-contract='ok']", timeout=10_000)
        pg.get_by_test_id("player-next").click()
        pg.wait_for_function("() => window.sent.some(([kind, name]) => kind === 'state' && name === 'step')")
        (report,) = [value for kind, name, value in pg.evaluate("window.sent") if name == "step"]
        assert pc.read_step_report(report) == {"step": 2, "view": "case", "n": 1}  # Python reads it as sent
        assert pg.locator(PLAYER).get_attribute("data-contract") == "ok"
        assert pg.locator(".sx-msg").inner_text() == "" and real_errors(pg.console_errors) == []
    finally:
        ctx.close()


@pytest.mark.parametrize("breach, where", [
    (lambda d: d["units"].pop(), "$.units: 2 item(s), fewer than 3"),
    (lambda d: d["palette"].update(highlight=7), "$.palette.highlight: 7 is not of type string"),
    (lambda d: d.update(speed=2), "$: the key 'speed' is not in the contract"),
])
def test_a_payload_off_the_contract_is_flagged_where_it_breaks(browser, breach, where):
    ctx, pg = mount(browser, the_payload(breach))
    try:
        pg.wait_for_selector(f"{PLAYER}[data-contract='invalid']", timeout=60_000)
        message = pg.locator(".sx-msg").inner_text()
        assert message.startswith("the player's data is off its contract") and where in message
        assert any(where in e for e in pg.console_errors)
    finally:
        ctx.close()


def fills(pg, panel: int) -> set:
    """The fill colours of the cells the player's own SVG drew in ``panel`` (before plotly.js)."""
    return set(pg.evaluate(f"""() => [...document.querySelectorAll(
        '[data-testid=scatter-preview] g[data-panel="{panel}"] rect')]
        .map(r => r.getAttribute('fill'))"""))


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_cells_take_the_scale_python_sent(browser, dark):
    """The player has no colour scale of its own: it draws with the payload's, for the page's theme."""
    theme = "dark" if dark else "light"
    expected = pc.DARK_VALUE_SCALE if dark else pc.VALUE_SCALE
    ctx, pg = mount(browser, the_payload(), dark=dark, plotly=False)
    try:
        pg.wait_for_selector("[data-testid=scatter-preview] svg", timeout=60_000)
        ends = {f"rgb({','.join(str(int(c[i:i + 2], 16)) for i in (1, 3, 5))})"
                for c in (expected[0][1], expected[-1][1])}
        assert ends <= fills(pg, 1) | fills(pg, 2)  # the lowest value (data) and the highest (updates): its two ends
    finally:
        ctx.close()

    def red(data):
        data["palette"][theme]["value"] = [[0, "#ff0000"], [1, "#ff0000"]]
        data["palette"]["highlight"] = "#00aa00"

    ctx, pg = mount(browser, the_payload(red), dark=dark, plotly=False)
    try:
        pg.wait_for_selector("[data-testid=scatter-preview] svg", timeout=60_000)
        assert fills(pg, 2) == {"rgb(255,0,0)"} and fills(pg, 1) == {"rgb(255,0,0)"}
        border = pg.evaluate("() => getComputedStyle(document.querySelector('.sx-mark-now')).borderTopColor")
        assert border == "rgb(0, 170, 0)"  # the legend's mark takes the palette's highlight
    finally:
        ctx.close()


@pytest.mark.parametrize("plotly", [False, True], ids=["svg", "plotly"])
def test_a_cell_written_twice_shows_its_count_under_its_value(browser, plotly):
    """Python sends the value and the write count (data, not markup); the player draws "×2" under the value, in its
    own SVG first and with plotly.js, and says it in the table view."""
    t = sc.trace(sc.case("ScatterElements-18", np.zeros((2, 3)), [[1, 0, 1]], [[1.0, 2.0, 3.0]], axis=1))  # output[0, 1] twice
    ctx, pg = mount(browser, the_payload(trace=t, step=3), plotly=plotly)
    try:
        if plotly:
            pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=60_000)
            drawn = pg.evaluate(f"() => document.querySelector('{FIGURE}').data[2].text[0]")
            assert drawn == ["2", "3<br><span>×2</span>", "0"]
            assert pg.evaluate(f"() => document.querySelector('{FIGURE}').textContent").count("×2") == 1  # on screen
        else:
            pg.wait_for_selector("[data-testid=scatter-preview] svg", timeout=60_000)
            lines = pg.evaluate("""() => [...document.querySelector('[data-testid=scatter-preview] rect[data-cell="0,1"]')
                .parentNode.querySelectorAll('text')].map((t) => t.textContent)""")
            assert lines == ["3", "×2"]
        pg.locator("[data-testid=player-table] summary").click()
        cell = pg.locator('[data-testid=player-table] table[data-panel="2"] td').nth(1).inner_text()
        assert cell == "3 ×2: written 2 times ← written this step"
        if plotly:  # (without it, the aborted loads of plotly.js are logged)
            assert real_errors(pg.console_errors) == []
    finally:
        ctx.close()


def red_pixels(pg) -> int:
    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(pg.locator(FIGURE).screenshot())).convert("RGB")).astype(int)
    return int(((pixels[..., 0] > 240) & (pixels[..., 1] < 20) & (pixels[..., 2] < 20)).sum())


def test_plotly_draws_with_the_scale_python_sent(browser):
    def red(data):
        data["palette"]["light"]["value"] = [[0, "#ff0000"], [1, "#ff0000"]]

    for change, reds in ((None, False), (red, True)):
        ctx, pg = mount(browser, the_payload(change))
        try:
            pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=60_000)
            pg.wait_for_selector(f"{PLAYER}[data-contract='ok']", timeout=10_000)
            scale = pg.evaluate(f"() => document.querySelector('{FIGURE}')._fullLayout.coloraxis.colorscale")
            sent = [[0, "#ff0000"], [1, "#ff0000"]] if reds else pc.VALUE_SCALE
            assert [[p, c] for p, c in scale] == [[p, c] for p, c in sent]
            assert (red_pixels(pg) > 2000) is reds  # the cells (and the colour bar) are drawn red, or not at all
            if reds:
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                pg.locator(FIGURE).screenshot(path=str(SCREENSHOTS / "player-contract-red-scale.png"))
        finally:
            ctx.close()
