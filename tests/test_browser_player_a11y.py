"""The player with a keyboard, a screen reader's text form and a phone (issue #22 §4), in a real browser."""

from __future__ import annotations

import pytest

from tests.test_browser import PLAYER, SEU1, _context, errors, open_player, output_texts, player_step

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
    ctx, pg = _context(browser)
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
    ctx, pg = _context(browser)
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
    ctx, pg = _context(browser, width=390, height=844, is_mobile=True, has_touch=True)
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
