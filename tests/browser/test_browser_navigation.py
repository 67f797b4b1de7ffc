"""The sidebar's page list and the pages' own controls by keyboard alone, in Chromium (issue 22)."""

from __future__ import annotations

import re

import pytest

from scatter_ui.pages.navigation import STYLE_KEY
from tests.support.browser_support import SCREENSHOTS

pytestmark = pytest.mark.browser

LINK = "[data-testid=stSidebar] a[data-testid=stPageLink-NavLink]"
FOCUSED = """() => { const e = document.activeElement; const s = getComputedStyle(e);
    return {testid: e.getAttribute('data-testid'), text: (e.innerText || '').trim(), label: e.getAttribute('aria-label'),
            role: e.getAttribute('role'), tag: e.tagName, inSidebar: !!e.closest('[data-testid=stSidebar]'),
            outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2,
            box: (({left, top, right, bottom}) => ({left, top, right, bottom}))(e.getBoundingClientRect())}; }"""


def settle(pg, timeout: float = 60_000) -> None:
    """The run is over and the navigation's page-wide style (scatter_ui.pages.navigation) has been applied."""
    pg.wait_for_selector("[data-testid=stMain]", timeout=timeout)
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)
    pg.wait_for_function(f"() => {{ const e = document.querySelector('.st-key-{STYLE_KEY}');"
                         " return e && getComputedStyle(e).display === 'none'; }", timeout=timeout)
    pg.wait_for_timeout(500)


def tab_until(pg, wanted, limit: int = 80) -> list[dict]:
    """Press Tab until ``wanted(focused)`` holds; every element focused on the way (the last one is it)."""
    seen = []
    for _ in range(limit):
        pg.keyboard.press("Tab")
        seen.append(pg.evaluate(FOCUSED))
        if wanted(seen[-1]):
            return seen
    raise AssertionError(f"not reached by Tab in {limit} presses: {[(f['testid'], f['text'][:30]) for f in seen]}")


def link_names(pg) -> list[str]:
    return [t.split("\n")[-1].strip() for t in pg.locator(LINK).all_inner_texts()]


def current(pg) -> list[str]:
    """The sidebar links drawn as the current page (bold label)."""
    return pg.evaluate(f"""() => [...document.querySelectorAll('{LINK}')].filter(a => {{
        const label = a.querySelector('[data-testid=stMarkdownContainer]') || a;
        return [...label.querySelectorAll('*')].concat([label]).some(e => parseInt(getComputedStyle(e).fontWeight) >= 600);
    }}).map(a => a.innerText.split('\\n').pop().trim())""")


def marked_current(pg) -> list[str]:
    """The sidebar links a screen reader hears as the current page (aria-current="page")."""
    pg.wait_for_function(f"() => document.querySelectorAll('{LINK}[aria-current=page]').length === 1",
                         timeout=30_000)
    return [t.split("\n")[-1].strip() for t in pg.locator(f"{LINK}[aria-current=page]").all_inner_texts()]


def home(browser, server, width: int, height: int):
    """A new browser context at ``width`` x ``height`` on the home page, drawn: (context, page)."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    pg = ctx.new_page()
    pg.goto(server.url)
    pg.get_by_text("Every worked example").first.wait_for(timeout=60_000)
    pg.locator(LINK).last.wait_for(state="attached", timeout=60_000)  # the page list is drawn
    settle(pg)
    return ctx, pg


def test_sidebar_links_are_reached_in_order_shown_focused_and_followed_by_keyboard(browser, server):
    ctx, pg = home(browser, server, 1400, 1000)
    try:
        names = link_names(pg)
        assert names[0] == "Home" and "Check expected output" in names and len(names) == len(set(names)) >= 10
        assert current(pg) == ["Home"] == marked_current(pg)
        seen = tab_until(pg, lambda f: f["inSidebar"] and f["text"].endswith(names[-1]))
        reached = [f["text"].split("\n")[-1].strip() for f in seen if f["testid"] == "stPageLink-NavLink"]
        assert reached == names  # every page, in the order shown, before the page's own controls
        assert all(f["outline"] for f in seen if f["testid"] == "stPageLink-NavLink")  # focus is visible on each
        for _ in range(len(names) - names.index("Check expected output") - 1):
            pg.keyboard.press("Shift+Tab")
        assert pg.evaluate(FOCUSED)["text"].endswith("Check expected output")
        pg.keyboard.press("Enter")
        pg.wait_for_url(re.compile(r".*/check(\?.*)?$"), timeout=60_000)  # the page may write its case into the URL
        pg.get_by_text("Check an expected output").first.wait_for(timeout=60_000)
        settle(pg)
        assert current(pg) == ["Check expected output"]  # the current page moved with the link followed
        assert marked_current(pg) == ["Check expected output"]  # for a screen reader too (aria-current)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SCREENSHOTS / "nav-keyboard-check.png"))
    finally:
        ctx.close()


def test_phone_sidebar_opens_navigates_and_closes_by_keyboard(browser, server):
    ctx, pg = home(browser, server, 390, 844)
    try:
        sidebar = pg.locator("[data-testid=stSidebar]")
        assert sidebar.get_attribute("data-collapsed") == "true"  # closed on a phone
        seen = tab_until(pg, lambda f: f["testid"] == "stExpandSidebarButton", limit=10)
        assert not any(f["inSidebar"] for f in seen)  # a closed sidebar's links are out of the Tab order
        pg.keyboard.press("Enter")
        pg.wait_for_function("() => document.querySelector('[data-testid=stSidebar]').dataset.collapsed === 'false'")
        pg.wait_for_timeout(400)
        for _ in range(40):  # the sidebar comes before the header in the page: back into it
            pg.keyboard.press("Shift+Tab")
            focused = pg.evaluate(FOCUSED)
            if focused["inSidebar"] and focused["text"].endswith("Practice"):
                break
        assert focused["text"].endswith("Practice") and focused["box"]["left"] >= 0  # on screen
        pg.keyboard.press("Enter")
        pg.wait_for_url(re.compile(r".*/practice(\?.*)?$"), timeout=60_000)  # Practice writes its set into the URL
        pg.get_by_text("Level ").first.wait_for(timeout=60_000)
        settle(pg)
        assert sidebar.get_attribute("data-collapsed") == "true"  # closed again, showing the page followed
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SCREENSHOTS / "nav-keyboard-phone-practice.png"))
    finally:
        ctx.close()


def test_page_controls_are_reached_and_operated_by_keyboard(browser, server, tmp_path):
    """On the check page: the selects, the text boxes, the export expander and its download buttons; on a spec
    page: the tabs (arrow keys switch them, and the URL follows)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    pg = ctx.new_page()
    try:
        pg.goto(server.url + "/check?op=ScatterND-16")
        pg.get_by_text("Check an expected output").first.wait_for(timeout=60_000)
        settle(pg)
        seen = tab_until(pg, lambda f: f["tag"] == "SUMMARY" and "Export this case" in f["text"], limit=120)
        labels = {f["label"] for f in seen}
        assert {"Operator version", "Start from an example", "data", "indices", "updates",
                "expected output"} <= labels, labels
        export = pg.locator("details", has_text="Export this case")
        is_open = "() => document.activeElement.closest('details').open"
        assert pg.evaluate(is_open)  # open on the check page; Enter closes it and opens it again
        pg.keyboard.press("Enter")
        pg.wait_for_function(f"() => !({is_open})()", timeout=60_000)
        settle(pg)
        pg.keyboard.press("Enter")
        pg.wait_for_function(f"() => ({is_open})()", timeout=60_000)
        export.get_by_text("pytest test (.py)").wait_for(timeout=60_000)  # built again while open
        settle(pg)
        assert pg.evaluate(FOCUSED)["tag"] == "SUMMARY"  # the rerun left focus where it was
        tab_until(pg, lambda f: f["tag"] == "BUTTON" and "pytest test" in f["text"], limit=5)
        with pg.expect_download(timeout=60_000) as download:
            pg.keyboard.press("Enter")
        assert download.value.suggested_filename.endswith(".py")

        pg.goto(server.url + "/spec-nd")
        pg.get_by_role("tab", name="Timeline").wait_for(timeout=60_000)
        settle(pg)
        tab_until(pg, lambda f: f["role"] == "tab", limit=60)
        pg.keyboard.press("ArrowRight")
        pg.wait_for_function("() => location.search.includes('tab=Compare')", timeout=60_000)
        pg.get_by_text("rules differ", exact=False).first.wait_for(timeout=60_000)
    finally:
        ctx.close()


@pytest.mark.parametrize("path,title", [("nd", "ScatterND family"), ("spec-tensor_scatter", "TensorScatter (KV cache) spec"),
                                        ("practice", "Practice")])
def test_the_current_page_link_says_so_to_a_screen_reader(browser, server, path, title):
    """Streamlit bolds the current page's link on a tinted background; the app also marks it aria-current="page"
    (issue 22), on a page opened by its address (a family's callable page, built from its record) and after a
    link is followed by Chromium's own navigation."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    try:
        pg.goto(f"{server.url}/{path}")
        pg.locator(LINK).last.wait_for(state="attached", timeout=60_000)
        settle(pg)
        assert marked_current(pg) == [title] == current(pg)
        link = pg.locator(f"{LINK}[aria-current=page]")
        assert link.evaluate("a => a.getAttribute('aria-current')") == "page"
        pg.locator(LINK, has_text="Home").first.click()
        pg.get_by_text("Every worked example").first.wait_for(timeout=60_000)
        settle(pg)
        assert marked_current(pg) == ["Home"]
    finally:
        ctx.close()


def test_a_kebab_case_link_opens_the_underscore_page_with_its_values(browser, server):
    """/slice-scatter?... (as /from-code is spelled) lands on /slice_scatter with the link's values, not on Home
    with "Page not found"; the sidebar marks that page as the current one."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    try:
        pg.goto(server.url.rstrip("/") + "/slice-scatter?op=SliceScatter-15&step=1")
        pg.wait_for_url("**/slice_scatter?**", timeout=60_000)
        pg.get_by_role("heading", name="SliceScatter-15").first.wait_for(timeout=60_000)
        settle(pg)
        assert "step=1" in pg.url and "op=SliceScatter-15" in pg.url
        assert pg.get_by_text("Page not found").count() == 0
        assert marked_current(pg) == ["SliceScatter"]
    finally:
        ctx.close()
