"""Real browser: the check page explains a planted first-write-wins output (one the spec allows), and its replay
link opens the explorer at that step."""

from __future__ import annotations

import os
import subprocess
import sys
from urllib.parse import parse_qs, urlparse

import pytest

from tests.support.browser_support import SCREENSHOTS, real_errors, watched_page
from tests.support.browser_pages import settle, type_into

pytestmark = pytest.mark.browser


def test_planted_first_write_wins_is_diagnosed_and_replayed(server, browser, tmp_path):
    ctx, pg = watched_page(browser, viewport={"width": 1400, "height": 2200}, accept_downloads=True)
    errors = pg.errors
    pg.goto(server.url)
    pg.get_by_text("Every worked example").first.wait_for(timeout=60_000)
    pg.locator("[data-testid=stSidebar] [data-testid=stPageLink-NavLink]", has_text="Check expected output").click()
    pg.get_by_text("Check an expected output").first.wait_for(timeout=60_000)
    pg.get_by_text("matches ScatterElements-18").first.wait_for(timeout=60_000)
    settle(pg)

    pg.locator("[data-testid=stSidebar] [data-testid=stSelectbox]").first.click()
    pg.get_by_role("option", name="ScatterND-16 · ONNX").click()
    settle(pg)
    # a hand computation where the first of two writes to output[0] wins: the spec allows it (issue 22)
    type_into(pg, "data", "[1, 2, 3, 4]")
    type_into(pg, "indices", "[[0], [2], [0]]")
    type_into(pg, "updates", "[10, 20, 30]")
    type_into(pg, "expected output", "[10, 2, 20, 4]")
    pg.get_by_text("Why it differs from the loop order").first.wait_for(timeout=60_000)
    body = pg.locator("[data-testid=stMain]").inner_text()
    # ScatterND-16's text does not allow duplicates under none: accepted, and said to be outside the spec
    assert "Outside the spec, accepted: ScatterND-16's text does not allow these duplicate indices." in body
    assert "has a different winner in 1 duplicated cell" in body and "leaves open" not in body
    assert "Likely mistake" not in body and "✘" not in body
    assert "first write to a duplicated index wins" in body and "explanations, not mistakes" in body
    assert "step 3 applies updates[2] = 30 (none): 10 → 30" in body and "A kernel may give 10 here" in body
    # the figure outlines the differing cell in both panels
    fig = pg.locator("[data-testid=stPlotlyChart]").first
    fig.wait_for(timeout=30_000)
    assert fig.locator("path[style*='stroke-width: 3']").count() >= 2 or \
        pg.evaluate("() => { const g = document.querySelector('[data-testid=stPlotlyChart] .js-plotly-plot');"
                    " return g && g.layout.shapes.length; }") >= 2
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / "check-first-write-wins.png"), full_page=True)

    # the exported pytest file (the computed output inlined) downloads and passes without this project
    with pg.expect_download() as download:
        pg.get_by_role("button", name="pytest test (.py)").click()
    exported = tmp_path / "test_exported_case.py"
    download.value.save_as(exported)
    assert "scatter_core" not in exported.read_text()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(exported)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout[-2000:]

    link = pg.get_by_role("link", name="▶ replay in the explorer").first
    href = link.get_attribute("href")
    q = parse_qs(urlparse(href).query)
    assert urlparse(href).path.endswith("/nd") and q["step"] == ["1"] and q["example"] == ["__custom__"]
    ex = ctx.new_page()
    ex.goto(href)
    ex.wait_for_selector("[data-testid=scatter-figure][data-ready='1']", timeout=60_000)
    assert ex.locator("[data-testid=scatter-player]").get_attribute("data-step") == "1"
    assert "updates[0] = 10 goes to output[0]" in ex.locator("[data-testid=scatter-caption]").inner_text()
    settle(ex)
    ex.wait_for_timeout(1500)
    ex.screenshot(path=str(SCREENSHOTS / "check-replay-explorer.png"), full_page=False)
    assert real_errors(errors) == []
    ctx.close()


def test_grid_edit_of_the_expected_output_updates_the_text_and_the_verdict(server, browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 2200})
    pg = ctx.new_page()
    errors = []
    pg.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
    pg.goto(server.url)
    pg.get_by_text("Every worked example").first.wait_for(timeout=60_000)
    pg.locator("[data-testid=stSidebar] [data-testid=stPageLink-NavLink]", has_text="Check expected output").click()
    pg.get_by_text("matches ScatterElements-18").first.wait_for(timeout=60_000)
    settle(pg)
    pg.get_by_role("tab", name="Grid (rank ≤ 2)").click()
    grids = pg.locator("[data-testid=stDataFrame]")
    grids.nth(3).wait_for(timeout=30_000)
    assert grids.count() == 4  # data, indices, updates, expected: all rank 2 in the default example
    settle(pg)
    grids.nth(3).scroll_into_view_if_needed()
    cell_editor = pg.locator(".gdg-input")
    for _ in range(5):  # the grid's canvas takes a moment to accept clicks after a rerun
        box = grids.nth(3).bounding_box()
        pg.mouse.dblclick(box["x"] + 120, box["y"] + 35 + 17)  # expected[0, 0]: first data row, first column
        try:
            cell_editor.first.wait_for(timeout=3_000)
            break
        except Exception:  # noqa: BLE001 - retry the double click
            pg.wait_for_timeout(500)
    cell_editor.first.fill("7")
    cell_editor.first.press("Enter")
    pg.get_by_text("1 of 9 cells differs").first.wait_for(timeout=60_000)
    settle(pg)
    text = pg.locator("textarea[aria-label='expected output']").input_value()
    assert text.startswith("array([[7.") and "dtype=float32" in text
    pg.screenshot(path=str(SCREENSHOTS / "check-grid-edit.png"), full_page=True)
    assert real_errors(errors) == []
    ctx.close()


def _lum(colour: str) -> float:
    value = colour.strip().lstrip("#")
    if colour.startswith("rgb"):
        r, g, b = (float(v) for v in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3])
    else:
        value = "".join(c * 2 for c in value) if len(value) == 3 else value
        r, g, b = (int(value[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _dark(colour: str) -> bool:
    return _lum(colour) < 128


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_comparison_figure_follows_the_theme(server, browser, scheme):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme=scheme)
    pg = ctx.new_page()
    errors = []
    pg.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
    pg.goto(server.url + "/check?op=ScatterND-16")
    pg.get_by_text("Check an expected output").first.wait_for(timeout=60_000)
    settle(pg)
    for label, text in (("data", "[1, 2, 3, 4]"), ("indices", "[[0], [2], [0]]"), ("updates", "[10, 20, 30]"),
                        ("expected output", "[10, 2, 20, 4]")):
        type_into(pg, label, text)
    pg.get_by_text("Why it differs from the loop order").first.wait_for(timeout=60_000)
    chart = pg.locator("[data-testid=stPlotlyChart]").first
    chart.scroll_into_view_if_needed()
    pg.wait_for_timeout(500)
    paper, font, low = pg.evaluate("""() => {
        const L = document.querySelector('[data-testid=stPlotlyChart] .js-plotly-plot')._fullLayout; return [L.paper_bgcolor, L.font.color, L.coloraxis.colorscale[0][1]]; }""")
    app = pg.evaluate("() => getComputedStyle(document.querySelector('.stApp')).backgroundColor")
    dark = scheme == "dark"
    assert _dark(app) == dark
    if paper.replace(" ", "") == "rgba(0,0,0,0)":
        paper = app  # transparent: the page shows through
    assert _dark(paper) == dark and _dark(low) == dark, (paper, low)  # no white slab, cells of the theme
    assert abs(_lum(font) - _lum(paper)) > 100, (font, paper)  # titles and ticks legible on it
    pg.screenshot(path=str(SCREENSHOTS / f"check-comparison-{scheme}.png"))
    assert real_errors(errors) == []
    ctx.close()


def test_a_check_reopens_from_its_link_with_the_same_verdict(server, browser):
    """Issue 35 §2: the check's URL carries the operator, inputs, expected output and tolerance; the copied
    link, opened in a new tab, shows the same inputs and verdict."""
    ctx, pg = watched_page(browser, viewport={"width": 1400, "height": 1400})
    pg.goto(f"{server.url}/check?op=ScatterND-16")
    pg.get_by_text("Check an expected output").first.wait_for(timeout=60_000)
    settle(pg)
    type_into(pg, "data", "[1, 2, 3, 4]")
    type_into(pg, "indices", "[[0], [2], [0]]")
    type_into(pg, "updates", "[10, 20, 30]")
    type_into(pg, "expected output", "[10, 2, 20, 4]")
    pg.get_by_text("Outside the spec, accepted").first.wait_for(timeout=60_000)
    pg.wait_for_function("() => location.search.includes('expected=')", timeout=30_000)
    link = pg.url
    query = parse_qs(urlparse(link).query)
    assert query["op"] == ["ScatterND-16"] and query["expected"] == ["[10, 2, 20, 4]"]
    verdict = pg.locator("[data-testid=stAlert]", has_text="Outside the spec").first.inner_text()
    other = ctx.new_page()
    other.goto(link)
    other.get_by_text("Outside the spec, accepted").first.wait_for(timeout=60_000)
    settle(other)
    from playwright.sync_api import expect

    expect(other.locator("textarea[aria-label='expected output']")).to_have_value("[10, 2, 20, 4]", timeout=30_000)
    assert other.locator("[data-testid=stAlert]", has_text="Outside the spec").first.inner_text() == verdict
    assert not real_errors(pg.errors)
    ctx.close()
