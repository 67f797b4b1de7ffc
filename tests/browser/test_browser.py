"""Real-browser tests: the app in Debian's Chromium, driven with Playwright."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.support.browser_support import SCREENSHOTS
from tests.support.browser_pages import FIGURE, PLAYER, SEU1, page_context, caption, errors, open_player, output_texts, player_step

pytestmark = pytest.mark.browser


@pytest.fixture()
def page(browser):
    ctx, pg = page_context(browser, height=2200)
    yield pg
    ctx.close()


def wait_app(pg, text: str, timeout: float = 60_000):
    pg.get_by_text(text, exact=False).first.wait_for(timeout=timeout)
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)


def wait_output_texts(pg, want: list, timeout: float = 10_000) -> list:
    """The output panel's first row of cell texts once plotly has drawn them as ``want`` (the player draws a step in the next
    animation frame, after its caption): waits up to ``timeout`` ms, then returns what is drawn, to compare."""
    import json

    try:
        pg.wait_for_function(f"""want => {{ const f = document.querySelector('{FIGURE}');
            return f && f.data && JSON.stringify(f.data[2].text[0].map(t => String(t).split('<br>')[0])) === want; }}""",
                             arg=json.dumps(want), timeout=timeout)
    except Exception:  # noqa: BLE001 - the comparison below says what differs
        pass
    return [t.split("<br>")[0] for t in output_texts(pg)[0]]


def wait_url_step(pg, k: int, timeout: float = 30_000) -> None:
    pg.wait_for_function(f"() => new URL(location.href).searchParams.get('step') === '{k}'", timeout=timeout)


def share_link(pg, step: int | None = None, timeout: float = 30_000) -> str:
    """The sidebar's share link; with ``step``, once the server has written it for that step (the URL can change a
    moment before the rerun's sidebar delta arrives)."""
    if step is not None:
        try:
            pg.wait_for_function("k => [...document.querySelectorAll('[data-testid=stSidebar] code')]"
                                 ".some(c => new RegExp('[?&]step=' + k + '(&|$)').test(c.innerText.trim()))", arg=str(step),
                                 timeout=timeout)
        except Exception:  # noqa: BLE001 - the caller's assertion says what the link holds
            pass
    return pg.locator("[data-testid=stSidebar] code").filter(has_text="step=").first.inner_text()


@pytest.mark.parametrize("path,text", [("", "Every worked example"), ("nd", "ScatterND-18"),
                                       ("elements", "ScatterElements-18"), ("update", "ScatterUpdate-3")])
def test_each_page_opens_without_console_errors(server, page, path, text):
    page.goto(f"{server.url}/{path}")
    wait_app(page, text)
    if path:
        page.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=60_000)
    else:
        page.locator("a[href*='example=']").first.wait_for(timeout=30_000)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"page-{path or 'home'}.png"), full_page=True)
    assert errors(page) == []


def test_pick_an_example_and_press_play(server, page):
    page.goto(server.url)
    wait_app(page, "Every worked example")
    page.get_by_placeholder("operator, title or status").fill("ScatterElementsUpdate-12")
    page.keyboard.press("Enter")
    wait_app(page, "Example 1")
    link = page.locator("a[href*='example=ov-scatter-elements-update-12-example-1']").first
    for _ in range(20):  # the filter's rerun can redraw the tabs; click until the card is on screen
        page.get_by_role("tab", name="Scatter / ScatterElements / ScatterElementsUpdate").click()
        if link.is_visible():
            break
        page.wait_for_timeout(500)
    link.click()
    wait_app(page, "sum with use_init_val true")
    page.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=60_000)
    before = output_texts(page)
    assert [t.split("<br>")[0] for t in before[0]] == ["2", "3", "4", "6"]  # initial state: a copy of data
    page.get_by_test_id("player-speed").select_option("4")
    page.get_by_test_id("player-play").click()
    page.wait_for_function(f"() => document.querySelector('{PLAYER}').dataset.step === '6' && "
                           f"document.querySelector('{PLAYER}').dataset.playing === '0'", timeout=30_000)
    after = output_texts(page)
    assert [t.split("<br>")[0] for t in after[0]] == ["52", "13", "104", "76"]
    assert caption(page).startswith("step 6 of 6: ")
    wait_url_step(page, 6)  # playing to the end reports the step
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "played-ScatterElementsUpdate-12-example-1.png"), full_page=True)
    assert errors(page) == []


def test_deep_link_opens_at_its_step_and_the_buttons_move_it(server, page):
    assert open_player(page, f"{server.url}/nd?op=ScatterND-16&example=onnx-scatternd-16-example-1&step=2") == 2
    assert caption(page).startswith("step 2 of 4")
    assert wait_output_texts(page, ["1", "2", "3", "10", "9", "6", "7", "8"]) == ["1", "2", "3", "10", "9", "6", "7", "8"]
    page.get_by_test_id("player-next").click()
    assert caption(page).startswith("step 3 of 4")
    assert wait_output_texts(page, ["1", "11", "3", "10", "9", "6", "7", "8"]) == ["1", "11", "3", "10", "9", "6", "7",
                                                                                   "8"]
    wait_url_step(page, 3)
    assert "step=3" in share_link(page, 3)
    page.get_by_test_id("player-first").click()
    wait_url_step(page, 0)
    page.get_by_test_id("player-goto").fill("4")
    page.get_by_test_id("player-goto").press("Enter")
    wait_url_step(page, 4)
    assert caption(page).startswith("step 4 of 4")
    assert errors(page) == []


def test_play_then_pause_and_the_link_reopens_that_step(server, browser):
    ctx, pg = page_context(browser)
    try:
        open_player(pg, server.url + SEU1)
        pg.get_by_test_id("player-play").click()
        pg.wait_for_function(f"() => Number(document.querySelector('{PLAYER}').dataset.step) >= 3", timeout=30_000)
        pg.get_by_test_id("player-play").click()  # pause
        k = player_step(pg)
        assert 3 <= k <= 6
        wait_url_step(pg, k)
        link = share_link(pg, k)
        assert f"step={k}" in link
        shown = caption(pg)
        assert shown.startswith(f"step {k} of 6")
        ctx2, pg2 = page_context(browser)
        try:
            assert open_player(pg2, link) == k  # a new browser context on the shared link
            assert caption(pg2) == shown
        finally:
            ctx2.close()
        assert errors(pg) == []
    finally:
        ctx.close()


def test_the_keyboard_steps_with_a_visible_focus_ring(server, browser):
    ctx, pg = page_context(browser)
    try:
        open_player(pg, server.url + SEU1 + "&step=2")
        box = pg.locator(PLAYER)
        box.focus()
        ring = pg.evaluate(f"() => getComputedStyle(document.querySelector('{PLAYER}')).boxShadow")
        assert ring not in ("", "none")
        pg.keyboard.press("ArrowRight")
        assert player_step(pg) == 3
        wait_url_step(pg, 3)
        pg.keyboard.press("ArrowLeft")
        pg.keyboard.press("ArrowLeft")
        assert player_step(pg) == 1
        wait_url_step(pg, 1)
        pg.keyboard.press("End")
        assert player_step(pg) == 6
        wait_url_step(pg, 6)
        pg.keyboard.press("Home")
        wait_url_step(pg, 0)
        pg.keyboard.press(" ")  # space plays
        pg.wait_for_function(f"() => Number(document.querySelector('{PLAYER}').dataset.step) >= 1", timeout=10_000)
        pg.keyboard.press(" ")  # and pauses
        assert box.get_attribute("data-playing") == "0"
        assert errors(pg) == []
    finally:
        ctx.close()


def _overlaps(pg) -> list:
    """Pairs of visible text boxes in the player that intersect (figure text, caption, controls)."""
    return pg.evaluate(f"""() => {{
        const root = document.querySelector('{PLAYER}');
        const boxes = [];
        const add = (el, label) => {{
            const r = el.getBoundingClientRect();
            if (r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden')
                boxes.push([label, r.left, r.top, r.right, r.bottom]);
        }};
        root.querySelectorAll('svg text').forEach(t => {{ if (t.textContent.trim()) add(t, t.textContent.trim()); }});
        root.querySelectorAll('.sx-caption, .sx-controls > button, .sx-controls > label, .sx-count, .sx-slider')
            .forEach(e => add(e, e.className || e.textContent));
        const out = [];
        const shrink = 1;  // glyph boxes touch at their edges; count real overlaps only
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {{
            const a = boxes[i], b = boxes[j];
            if (a[1] + shrink < b[3] && b[1] + shrink < a[3] && a[2] + shrink < b[4] && b[2] + shrink < a[4])
                out.push([a[0], b[0]]);
        }}
        return out;
    }}""")


def _clipped(pg) -> list:
    """Texts of the figure cut by its edges (outside the drawn figure), and a caption cut short."""
    return pg.evaluate(f"""() => {{
        const fig = document.querySelector('{FIGURE}').getBoundingClientRect();
        const svg = document.querySelector('{FIGURE} .main-svg').getBoundingClientRect();
        const out = [];
        document.querySelectorAll('{PLAYER} svg text').forEach(t => {{
            const r = t.getBoundingClientRect();
            if (!t.textContent.trim() || r.width === 0) return;
            if (r.left < svg.left - 1 || r.right > svg.right + 1 || r.top < svg.top - 1 || r.bottom > svg.bottom + 1
                || r.left < fig.left - 1)
                out.push(t.textContent.trim());
        }});
        const cap = document.querySelector('[data-testid=scatter-caption]');
        if (cap.scrollHeight > cap.clientHeight + 1 || cap.scrollWidth > cap.clientWidth + 1) out.push('caption');
        return out;
    }}""")


@pytest.mark.parametrize("width,height,scheme", [(390, 844, "light"), (390, 844, "dark"), (1400, 1000, "dark")])
@pytest.mark.parametrize("url", [SEU1 + "&step=3", "/nd?op=ScatterND-18&example=onnx-scatternd-18-example-2&step=1",
                                 "/nd?op=ScatterNDUpdate-3&example=ov-scatter-nd-update-3-example-2&step=2"])
def test_phone_and_dark_theme_render_without_overlap(server, browser, width, height, scheme, url):
    """Text boxes of the figure, caption and controls do not intersect, and none is cut by the figure's edges
    (including the rank-3 examples' small multiples, stacked and wrapped on a phone)."""
    ctx, pg = page_context(browser, width, height, scheme)
    try:
        open_player(pg, server.url + url)
        pg.wait_for_timeout(500)
        name = url.split("example=")[1].split("&")[0]
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SCREENSHOTS / f"player-{name}-{width}x{height}-{scheme}.png"))
        assert _overlaps(pg) == []
        assert _clipped(pg) == []
        if width < 700:  # legible cells on a phone: never shrunk towards 10 px
            assert min(min(c) for c in _cell_px(pg)) >= 20
        bg = pg.evaluate(f"() => document.querySelector('{FIGURE}').layout.paper_bgcolor")
        app_bg = pg.evaluate("() => getComputedStyle(document.querySelector('.stApp')).backgroundColor")
        dark_figure = pg.evaluate("""(c) => { const x = document.createElement('canvas').getContext('2d');
            x.fillStyle = c; const h = x.fillStyle; const v = parseInt(h.slice(1, 3), 16); return v < 128; }""", bg)
        assert dark_figure == (scheme == "dark"), (bg, app_bg)  # the figure follows the theme
        if width < 700:  # stacked: the output below the inputs
            top = pg.evaluate(f"() => [...document.querySelectorAll('{FIGURE} .xy, {FIGURE} .x2y2, {FIGURE} .x3y3')]"
                              ".map(e => e.getBoundingClientRect().top)")
            assert top[2] > max(top[0], top[1])
        assert errors(pg) == []
    finally:
        ctx.close()


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _svg_size(data: bytes) -> tuple[int, int]:
    root = ET.fromstring(data)
    assert root.tag.endswith("svg")
    return int(float(root.get("width"))), int(float(root.get("height")))


def test_frame_and_step_strip_downloads_are_images_of_the_expected_size(server, browser, tmp_path):
    ctx, pg = page_context(browser, accept_downloads=True)
    try:
        open_player(pg, server.url + SEU1 + "&step=2")
        pg.get_by_test_id("player-export").click()
        expected = {}
        for testid, fmt in (("export-png", "png"), ("export-svg", "svg")):
            with pg.expect_download() as dl:
                pg.get_by_test_id(testid).click()
            path = Path(dl.value.path())
            data = path.read_bytes()
            exported = pg.locator(PLAYER).get_attribute("data-exported")
            assert exported.startswith(f"{fmt}:")
            w, h = (int(v) for v in exported.split(":")[1].split("x"))
            expected[fmt] = (w, h)
            size = _png_size(data) if fmt == "png" else _svg_size(data)
            assert size == (w, h)
            assert dl.value.suggested_filename.endswith(f"-step-2.{fmt}")
            if fmt == "svg":
                assert b"step 2 of 6" in data  # the caption is in the image
        fig_w = pg.evaluate(f"() => document.querySelector('{FIGURE}').clientWidth")
        assert expected["png"][0] >= fig_w and expected["png"] == expected["svg"]
        pg.get_by_test_id("strip-from").fill("0")
        pg.get_by_test_id("strip-to").fill("6")
        for testid, fmt in (("export-strip-png", "png"), ("export-strip-svg", "svg")):
            with pg.expect_download(timeout=60_000) as dl:
                pg.get_by_test_id(testid).click()
            data = Path(dl.value.path()).read_bytes()
            exported = pg.locator(PLAYER).get_attribute("data-exported")
            w, h = (int(v) for v in exported.split(":")[1].split("x"))
            size = _png_size(data) if fmt == "png" else _svg_size(data)
            assert size == (w, h)
            tile_w = min(expected["png"][0], 640)
            assert w == 4 * tile_w  # seven steps: four tiles a row, two rows
            assert dl.value.suggested_filename.endswith(f"-steps-0-6.{fmt}")
            if fmt == "svg":
                assert data.count(b"<image ") == 7 and b"step 6 of 6" in data
        (tmp_path / "strip.png").write_bytes(data)
        assert errors(pg) == []
    finally:
        ctx.close()


def test_clicking_an_output_cell_shows_its_chain_of_writes(server, browser):
    ctx, pg = page_context(browser)
    try:
        open_player(pg, server.url + SEU1 + "&step=3")
        cell = pg.locator(f"{FIGURE} .x3y3 .nsewdrag")  # the output panel's plot area
        box = cell.bounding_box()
        pg.mouse.click(box["x"] + box["width"] / 8, box["y"] + box["height"] / 2)  # output[0], of four cells
        chain = pg.get_by_text("output[0] after step 3 = 52")
        chain.wait_for(timeout=30_000)
        text = chain.inner_text()
        assert "written 2 time(s) so far" in text  # steps 2 and 3 (data's 2 is no write)
        assert "step 2: updates[1] = 20 → 22" in text and "step 3: updates[2] = 30 → 52" in text
        assert errors(pg) == []
    finally:
        ctx.close()


def _cell_px(pg) -> list:
    """Each panel's rendered cell size in px (x and y), from plotly's laid-out axes."""
    return pg.evaluate(f"""() => {{
        const L = document.querySelector('{FIGURE}')._fullLayout;
        return ['', '2', '3'].map(ref => [L['xaxis' + ref], L['yaxis' + ref]].map(
            ax => ax._length / Math.abs(ax.range[1] - ax.range[0])));
    }}""")


def _rank3_url(panels: int, side: int) -> str:
    """A custom ScatterND-18 case whose output is ``panels`` small multiples of side x side."""
    from urllib.parse import urlencode

    data = [[[p * side * side + r * side + c for c in range(side)] for r in range(side)] for p in range(panels)]
    updates = [[[100 + r * side + c for c in range(side)] for r in range(side)]]
    return "/nd?" + urlencode({"op": "ScatterND-18", "example": "__custom__", "data": str(data).replace(" ", ""),
                               "indices": "[[3]]", "updates": str(updates).replace(" ", ""), "step": "1"})


@pytest.mark.parametrize("url,wraps", [("/nd?op=ScatterND-11&example=onnx-scatternd-11-example-2&step=1", False),
                                       (_rank3_url(8, 5), True)])
def test_rank3_small_multiples_keep_28px_cells_by_wrapping(server, browser, url, wraps):
    ctx, pg = page_context(browser, 1400, 1000)
    try:
        open_player(pg, server.url + url)
        cells = _cell_px(pg)
        assert min(cells[2]) >= 28, cells  # the output: every small multiple at least 28 px a cell
        shown = pg.evaluate(f"() => document.querySelector('{FIGURE}').data[2].z.length")
        assert (shown > 5) == wraps  # 8 multiples of 5 rows: wrapped into more rows of multiples
        labels = pg.evaluate(f"() => document.querySelector('{FIGURE}').layout.annotations.map(a => a.text)")
        assert sum(t.startswith("output[") for t in labels) == (8 if wraps else 4)  # every multiple labelled
        values = output_texts(pg)
        if wraps:  # multiple 5 (data 125..149) starts the second row of multiples, below multiple 0
            row = next(r for r in values if r and r[0] == "125")
            assert row[:5] == ["125", "126", "127", "128", "129"]
        assert errors(pg) == []
    finally:
        ctx.close()


def test_phone_wraps_small_multiples_instead_of_scrolling_sideways(server, browser):
    ctx, pg = page_context(browser, 390, 844)
    try:
        open_player(pg, server.url + _rank3_url(8, 5))
        cells = _cell_px(pg)
        assert min(cells[2]) >= 26, cells  # about 28 px a cell (95% of it before wrapping once more)
        fits = pg.evaluate(f"() => {{ const f = document.querySelector('{FIGURE}');"
                           "return f.scrollWidth <= f.clientWidth + 1; }")
        assert fits  # no sideways scrolling
        assert errors(pg) == []
    finally:
        ctx.close()


def _svg_texts(pg) -> list:
    return pg.evaluate(f"() => [...document.querySelectorAll('{FIGURE} svg text')].map(t => t.textContent.trim())"
                       ".filter(Boolean)")


def test_slice_scatter_outlines_its_strided_slice_without_an_indices_panel(server, browser):
    ctx, pg = page_context(browser)
    try:
        open_player(pg, server.url + "/slice_scatter?op=SliceScatter-15&example=ov-slice-scatter-15-example-3&step=2")
        texts = _svg_texts(pg)
        assert not any(t.startswith("indices") for t in texts) and any(t.startswith("updates") for t in texts)
        dotted = pg.evaluate(f"() => document.querySelector('{FIGURE}')._fullLayout.shapes"
                             ".filter(s => s.line.dash === 'dot').length")
        assert dotted == 1  # the whole slice, faint and dotted, under the current element's outline
        assert _overlaps(pg) == [] and _clipped(pg) == []
        assert errors(pg) == []
    finally:
        ctx.close()


def test_tensor_scatter_circular_step_that_wraps_gets_an_arrow(server, browser):
    ctx, pg = page_context(browser)
    try:
        open_player(pg, server.url + "/tensor_scatter?op=TensorScatter-24&example=onnx-node-tensorscatter-circular"
                                     "&step=3")
        arrows = f"() => document.querySelectorAll('{FIGURE} .annotation-arrow-g').length"
        assert pg.evaluate(arrows) == 0
        pg.get_by_test_id("player-next").click()
        pg.wait_for_function(f"() => document.querySelector('{FIGURE}').dataset.step === '4'")
        assert "wrapped around" in caption(pg)
        assert pg.evaluate(arrows) == 1
        assert _overlaps(pg) == [] and _clipped(pg) == []
        assert errors(pg) == []
    finally:
        ctx.close()


def test_the_figure_is_drawn_and_steps_before_plotly_arrives(server, browser):
    """The player draws each frame as SVG at once; plotly.js (1.5 MB) replaces it when loaded, with the same
    cells: a held plotly download must not keep the figure or the step buttons from working."""
    ctx, pg = page_context(browser)
    held = []
    pg.route("**/plotly-cartesian.min.js*", lambda route: held.append(route))  # (and .gz) answered only at the end
    try:
        pg.goto(server.url + SEU1)
        preview = "[data-testid=scatter-preview]"
        pg.wait_for_selector(f"{preview} svg", timeout=90_000)

        def shown(panel):
            return pg.evaluate(f"""() => [...document.querySelectorAll("{preview} g[data-panel='{panel}'] text")]
                                         .map((t) => t.textContent)""")

        assert shown(2) == ["2", "3", "4", "6"]  # step 0: a copy of data (row 0 at the top, one text a cell)
        assert shown(0) == ["1", "0", "0", "-2", "-1", "2"] and shown(1) == ["10", "20", "30", "40", "70", "60"]
        assert pg.locator(PLAYER).get_attribute("data-drawn") == "1"
        for _ in range(300):  # the player asks for plotly.js once its first drawing is on screen
            if held:
                break
            pg.wait_for_timeout(100)
        assert pg.locator(f"{FIGURE}[data-ready='1']").count() == 0 and held  # plotly.js is still held back
        pg.get_by_test_id("player-next").click()
        pg.wait_for_selector(f"{preview}[data-step='1']")
        assert shown(2) == ["2", "13", "4", "6"] and caption(pg).startswith("step 1 of 6")  # output[1] += 10
        outlined = pg.evaluate(f"() => document.querySelectorAll('{preview} rect[stroke], {preview} path[stroke]').length")
        assert outlined >= 3  # the current write, in the indices, updates and output panels
        hover = pg.evaluate(f"""() => document.querySelector("{preview} g[data-panel='2'] rect[data-cell='0,1']")
                                      .parentNode.querySelector('title').textContent""")
        assert hover.startswith("output[1] = 13") and "step 1" in hover  # the chain of writes, as plotly's hover
        for route in held:
            route.continue_()
        pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=90_000)
        assert pg.locator(preview).count() == 0  # plotly took over, at the same step
        assert [t.split("<br>")[0] for t in output_texts(pg)[0]] == ["2", "13", "4", "6"]
        assert player_step(pg) == 1
        assert errors(pg) == []
    finally:
        ctx.close()


def test_an_opened_step_log_stays_open_and_follows_the_step(server, page):
    """The step log is built only while open; stepping reruns the page, and it must stay open, on the new step."""
    open_player(page, server.url + SEU1)
    page.get_by_text("Step log (6 steps)").first.click()
    page.get_by_text("Now at step 0:").first.wait_for(timeout=30_000)
    page.wait_for_selector("[data-testid=stDataFrame]", timeout=30_000)
    for k in (1, 2):
        page.get_by_test_id("player-next").click()
        wait_url_step(page, k)
        page.get_by_text(f"Now at step {k}:").first.wait_for(timeout=30_000)
        assert page.locator("[data-testid=stDataFrame]").count() == 1
    assert errors(page) == []


def _menu_text(pg, label: str) -> str:
    """What a selectbox shows as its choice (its input's text), found by its label."""
    box = pg.locator("[data-testid=stSelectbox]").filter(has=pg.get_by_text(label, exact=True))
    return box.locator("input").first.input_value()


def test_the_example_menu_shows_that_the_inputs_are_the_users(server, page):
    """#22: after a change, the menu kept showing "Example 1" (the browser does not redraw an unchanged choice
    whose title changed; only a browser shows it)."""
    open_player(page, f"{server.url}/elements?op=ScatterElements-18&example=onnx-scatterelements-18-example-1")
    wait_app(page, "default axis 0 applies")
    assert _menu_text(page, "Example").startswith("Example 1: ScatterElements-18")
    axis = page.get_by_role("spinbutton", name="axis")
    axis.fill("1")
    axis.press("Enter")
    wait_app(page, "Your attributes")
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=stSelectbox] input')]"
                           ".some(i => i.value.startsWith('✎ your attributes, started from Example 1'))", timeout=30_000)
    assert page.get_by_text("default axis 0 applies").count() == 0
    page.get_by_role("button", name="Back to the example").click()
    wait_app(page, "default axis 0 applies")
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=stSelectbox] input')]"
                           ".some(i => i.value.startsWith('Example 1: ScatterElements-18'))", timeout=30_000)
    assert errors(page) == []
