"""Real-browser tests: the app in Debian's Chromium, driven with Playwright."""

from __future__ import annotations

import pytest

from tests.browser_support import SCREENSHOTS, real_errors

pytestmark = pytest.mark.browser


@pytest.fixture()
def page(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 2200})
    pg = ctx.new_page()
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(f"pageerror: {e}"))
    yield pg
    ctx.close()


def wait_app(pg, text: str, timeout: float = 60_000):
    pg.get_by_text(text, exact=False).first.wait_for(timeout=timeout)
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)


def figure_frame(pg, timeout: float = 30_000):
    pg.wait_for_selector("iframe", timeout=timeout)
    for _ in range(int(timeout / 250)):
        for fr in pg.frames:
            try:
                if fr.evaluate("() => document.getElementById('fig') && document.getElementById('fig').dataset.ready"):
                    return fr
            except Exception:  # noqa: BLE001 - frames come and go while Streamlit reruns
                pass
        pg.wait_for_timeout(250)
    raise AssertionError("the figure did not finish drawing")


def output_texts(fr) -> list:
    return fr.evaluate("() => document.getElementById('fig').data[2].text")


@pytest.mark.parametrize("path,text", [("", "Every worked example"), ("nd", "ScatterND-18"),
                                       ("elements", "ScatterElements-18"), ("update", "ScatterUpdate-3")])
def test_each_page_opens_without_console_errors(server, page, path, text):
    page.goto(f"{server.url}/{path}")
    wait_app(page, text)
    if path:
        figure_frame(page)
    else:
        page.locator("a[href*='example=']").first.wait_for(timeout=30_000)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"page-{path or 'home'}.png"), full_page=True)
    assert real_errors(page.console_errors) == []


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
    fr = figure_frame(page)
    before = output_texts(fr)
    assert [t.split("<br>")[0] for t in before[0]] == ["2", "3", "4", "6"]  # initial state: a copy of data
    fr.get_by_text("▶ play").click()
    page.wait_for_timeout(6500)  # six steps at 0.9 s each
    after = output_texts(fr)
    assert [t.split("<br>")[0] for t in after[0]] == ["52", "13", "104", "76"]
    caption = fr.evaluate("() => document.getElementById('fig').layout.annotations.map(a => a.text).join(' | ')")
    assert "step 6 of 6" in caption
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "played-ScatterElementsUpdate-12-example-1.png"), full_page=True)
    assert real_errors(page.console_errors) == []


def test_deep_link_and_server_side_step(server, page):
    page.goto(f"{server.url}/nd?op=ScatterND-16&example=onnx-scatternd-16-example-1&step=2")
    wait_app(page, "step 2 of 4")
    fr = figure_frame(page)
    assert [t.split("<br>")[0] for t in output_texts(fr)[0]] == ["1", "2", "3", "10", "9", "6", "7", "8"]
    page.get_by_role("button", name="▶", exact=True).click()
    wait_app(page, "step 3 of 4")
    fr = figure_frame(page)
    assert [t.split("<br>")[0] for t in output_texts(fr)[0]] == ["1", "11", "3", "10", "9", "6", "7", "8"]
    assert "step=3" in page.url
    assert real_errors(page.console_errors) == []
