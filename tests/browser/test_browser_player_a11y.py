"""The player with a keyboard, a screen reader's text form and a phone (issue #22 §4), in a real browser."""

from __future__ import annotations

import pytest

from tests.support.browser_support import SCREENSHOTS
from tests.support.browser_pages import PLAYER, SEU1, page_context, errors, open_player, output_texts, player_step

pytestmark = pytest.mark.browser


def focused(pg) -> str:
    """The data-testid of the focused element ("BODY" when focus fell to the page)."""
    return pg.evaluate("() => document.activeElement === document.body ? 'BODY'"
                       " : (document.activeElement.dataset.testid || document.activeElement.tagName)")


def tab_to(pg, testid: str, back: bool = False, limit: int = 15) -> None:
    for _ in range(limit):
        if focused(pg) == testid:
            return
        pg.keyboard.press("Shift+Tab" if back else "Tab")
    assert focused(pg) == testid


def test_the_keyboard_reaches_and_operates_the_controls_and_keeps_focus_at_the_ends(server, browser):
    ctx, pg = page_context(browser)
    try:
        open_player(pg, server.url + SEU1 + "&step=4")
        pg.locator(PLAYER).focus()
        tab_to(pg, "player-next")
        for want in (5, 6, 6):  # Enter to the last step, and once more there
            pg.keyboard.press("Enter")
            assert player_step(pg) == want
            assert focused(pg) == "player-next"  # not the page's body
        assert pg.get_by_test_id("player-next").get_attribute("aria-disabled") == "true"
        assert pg.get_by_test_id("player-last").get_attribute("aria-disabled") == "true"
        tab_to(pg, "player-first", back=True)
        pg.keyboard.press(" ")  # Space operates a button too
        assert player_step(pg) == 0 and focused(pg) == "player-first"
        assert pg.get_by_test_id("player-prev").get_attribute("aria-disabled") == "true"
        pg.keyboard.press("Tab")
        assert focused(pg) == "player-prev"
        pg.keyboard.press("Enter")  # nothing before the first step: nothing happens, focus stays
        assert player_step(pg) == 0 and focused(pg) == "player-prev"
        assert pg.get_by_test_id("player-next").get_attribute("aria-disabled") == "false"
        tab_to(pg, "player-play")
        pg.keyboard.press("Enter")
        pg.wait_for_function(f"() => Number(document.querySelector('{PLAYER}').dataset.step) >= 1", timeout=15_000)
        pg.keyboard.press("Enter")  # pause
        assert pg.locator(PLAYER).get_attribute("data-playing") == "0" and focused(pg) == "player-play"
        assert errors(pg) == []
    finally:
        ctx.close()


def table_cells(pg, panel: int) -> list:
    return pg.evaluate(f"""() => [...document.querySelectorAll('[data-testid=player-table] table[data-panel="{panel}"] tbody tr')]
        .map(tr => [...tr.querySelectorAll('td')].map(td => td.firstChild ? td.firstChild.textContent : ''))""")


def test_the_table_view_reads_every_tensor_at_the_shown_step(server, browser):
    ctx, pg = page_context(browser)
    try:
        open_player(pg, server.url + SEU1 + "&step=2")
        legend = pg.get_by_test_id("player-legend").inner_text()
        assert "thick frame" in legend and "×n" in legend and "written n times" in legend
        pg.locator(PLAYER).focus()
        pg.keyboard.press("Tab")
        tab_to(pg, "SUMMARY")  # the export's summary first, then the table view's
        if "table view" not in pg.evaluate("() => document.activeElement.textContent"):
            pg.keyboard.press("Tab")
        assert "table view" in pg.evaluate("() => document.activeElement.textContent")
        pg.keyboard.press("Enter")
        table = pg.get_by_test_id("player-table")
        table.locator("caption").nth(2).wait_for(timeout=10_000)  # the details' toggle event draws them
        captions = table.locator("caption").all_inner_texts()
        assert len(captions) == 3 and all(c.endswith("after step 2 of 6") for c in captions)
        assert captions[2].startswith("output ")

        def shown_output():
            return [t.split("<br>")[0] for t in output_texts(pg)[0]]

        assert table_cells(pg, 2) == [shown_output()]  # the cells' own text, in step
        marked = table.locator("td.sx-now").all_inner_texts()
        assert any("written this step" in m for m in marked) and any("read this step" in m for m in marked)
        assert "times" not in table.locator("table[data-panel='2']").inner_text()  # each cell written once so far
        pg.get_by_test_id("player-next").click()
        assert table.locator("caption").first.inner_text().endswith("after step 3 of 6")
        pg.wait_for_function(f"() => document.querySelector('{PLAYER} [data-testid=scatter-figure]').dataset.step === '3'")
        assert table_cells(pg, 2) == [shown_output()]
        # output[0] written at steps 2 and 3: its ×2 in words, on the row of this step's write
        assert "×2: written 2 times ← written this step" in table.locator("td.sx-now").last.inner_text()
        assert errors(pg) == []
    finally:
        ctx.close()


def test_targets_are_at_least_24_px_and_phone_digits_at_least_12_px(server, browser):
    ctx, pg = page_context(browser, width=390, height=844, is_mobile=True, has_touch=True)
    try:
        open_player(pg, server.url + "/elements?op=ScatterElements-18&example=onnx-scatterelements-18-example-2")
        small = pg.evaluate(f"""() => [...document.querySelectorAll('{PLAYER} button, {PLAYER} input, {PLAYER} select,'
                                       + ' {PLAYER} summary')]
            .map(e => [e.dataset.testid || e.tagName, e.getBoundingClientRect()])
            .filter(([n, r]) => r.width > 0 && (r.width < 24 || r.height < 24)).map(([n, r]) => [n, r.width, r.height])""")
        assert small == []
        sizes = pg.evaluate(f"""() => [...document.querySelectorAll('{PLAYER} [data-testid=scatter-figure] .heatmap-label text')]
            .filter(t => t.textContent.trim()).map(t => parseFloat(getComputedStyle(t).fontSize))""")
        assert sizes and min(sizes) >= 12, sorted(set(sizes))
        assert errors(pg) == []
    finally:
        ctx.close()


@pytest.mark.parametrize("width,height,scheme", [(1400, 1000, "light"), (1400, 1000, "dark"), (390, 844, "light"),
                                                 (390, 844, "dark")])
def test_the_current_write_is_marked_by_a_filled_corner_not_colour_alone(server, browser, width, height, scheme):
    """Issue 22 §4: this step's write differs from its read and from the cells written so far by shape (a
    thick frame with a filled corner), named in the legend; in both themes and on a phone. The payload is
    on the player's contract (the test server has the browser check it)."""
    phone = {"is_mobile": True, "has_touch": True} if width < 700 else {}
    ctx, pg = page_context(browser, width=width, height=height, scheme=scheme, **phone)
    try:
        open_player(pg, server.url + SEU1 + "&step=3")
        pg.wait_for_selector(f"{PLAYER}[data-contract='ok']", timeout=15_000)
        marks = pg.evaluate(f"""() => {{
            const paths = [...document.querySelectorAll('{PLAYER} [data-testid=scatter-figure] .shapelayer path')];
            const box = (p) => p.getBoundingClientRect();
            const style = (p) => getComputedStyle(p);
            const filled = paths.filter(p => Number(style(p).fillOpacity) > 0 && style(p).fill !== 'none');
            const thick = paths.filter(p => parseFloat(style(p).strokeWidth) >= 3);
            return {{ corners: filled.map(p => [box(p).left, box(p).top, box(p).width, box(p).height, style(p).fill]),
                      frames: thick.map(p => [box(p).left, box(p).top, box(p).width, box(p).height]) }};
        }}""")
        (corner,) = marks["corners"]  # one write this step: one filled corner
        assert corner[4] == "rgb(232, 89, 12)"  # the palette's highlight
        # in the top-left corner of one of the thick frames (the write's), a good part of a cell across
        assert any(abs(corner[0] - f[0]) <= 3 and abs(corner[1] - f[1]) <= 3 and corner[2] < f[2] for f in marks["frames"])
        assert corner[2] >= 8 and corner[3] >= 8
        assert len(marks["frames"]) == 3  # the read's two frames (indices, updates) have no corner
        legend = pg.get_by_test_id("player-legend").inner_text()
        assert "thick frame: this step's read and write" in legend and "filled corner: the write" in legend
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pg.locator(PLAYER).screenshot(path=str(SCREENSHOTS / f"player-write-corner-{width}x{height}-{scheme}.png"))
        assert errors(pg) == []
    finally:
        ctx.close()


def test_the_keys_work_on_a_freshly_loaded_page_without_clicking_the_player(server, browser):
    """Issue 33: the legend and the README say ←/→, space and Home/End step the player; on a page just loaded
    (focus on the body) they do, and a focused text box keeps its own keys."""
    ctx, pg = page_context(browser)
    try:
        start = open_player(pg, server.url + SEU1 + "&step=2")
        pg.wait_for_timeout(500)
        assert focused(pg) == "BODY"
        pg.keyboard.press("ArrowRight")
        pg.wait_for_function(f"() => document.querySelector('{PLAYER}').dataset.step === '{start + 1}'",
                             timeout=10_000)
        pg.keyboard.press("ArrowLeft")
        pg.keyboard.press("ArrowLeft")
        pg.wait_for_function(f"() => document.querySelector('{PLAYER}').dataset.step === '{start - 1}'",
                             timeout=10_000)
        pg.keyboard.press("Home")
        pg.wait_for_function(f"() => document.querySelector('{PLAYER}').dataset.step === '0'", timeout=10_000)
        pg.keyboard.press(" ")  # plays (the page does not scroll instead)
        pg.wait_for_function(f"() => document.querySelector('{PLAYER}').dataset.playing === '1'", timeout=10_000)
        pg.keyboard.press(" ")
        pg.wait_for_function(f"() => document.querySelector('{PLAYER}').dataset.playing === '0'", timeout=10_000)
        assert focused(pg) == "BODY"
        shown = player_step(pg)
        box = pg.locator("[data-testid=stSidebar] input[type=text], [data-testid=stSidebar] textarea").first
        if box.count():
            box.focus()
            pg.keyboard.press("ArrowRight")  # the text box's own key
            pg.wait_for_timeout(400)
            assert player_step(pg) == shown
        assert errors(pg) == []
    finally:
        ctx.close()
