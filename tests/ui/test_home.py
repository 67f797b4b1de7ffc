"""Home: the gallery's filter, chosen versions and tab live in the URL; the tab follows the matches."""

from __future__ import annotations

import scatter_core as sc
import pytest

from scatter_ui.pages import home
from tests.support.apptest_helpers import open_page, texts

LABELS = list(sc.FAMILY_TITLES.values())


def _cards(at) -> list[str]:
    return [str(m.value) for m in at.markdown if str(m.value).startswith("**") and "`" in str(m.value)]


def test_a_filter_that_empties_the_selected_tab_selects_the_tab_with_the_matches():
    at = open_page("home", q="ScatterElements-11")
    assert not at.exception
    rows = home.filter_rows(home.gallery_rows(), "ScatterElements-11", [])
    assert rows and {r["family"] for r in rows} == {"elements"}
    assert at.session_state[home.TAB] == sc.FAMILY_TITLES["elements"]
    counts = {f: sum(r["family"] == f for r in rows) for f in sc.FAMILY_TITLES}
    assert "Matches: " + " · ".join(f"{sc.FAMILY_TITLES[f]} {counts[f]}" for f in sc.FAMILY_TITLES) in texts(at)
    assert "No example of this family matches the filter." in texts(at)  # the empty tabs say so
    assert len(_cards(at)) == len(rows)
    # typing another filter moves the tab again
    at.text_input(key=home.FILTER).set_value("ScatterND-16").run()
    assert at.session_state[home.TAB] == sc.FAMILY_TITLES["nd"]


def test_home_view_reopens_from_its_link():
    at = open_page("home", q="erratum", ops="ScatterND-18", family=sc.FAMILY_TITLES["nd"])
    assert at.text_input(key=home.FILTER).value == "erratum"
    assert at.multiselect(key=home.OPS).value == ["ScatterND-18"]
    assert at.session_state[home.TAB] == sc.FAMILY_TITLES["nd"]
    shown = home.filter_rows(home.gallery_rows(), "erratum", ["ScatterND-18"])
    assert shown and len(_cards(at)) == len(shown)
    assert dict(at.query_params) == {"q": "erratum", "ops": "ScatterND-18", "family": sc.FAMILY_TITLES["nd"]}
    at.multiselect(key=home.OPS).set_value([])
    at.text_input(key=home.FILTER).set_value("ScatterUpdate-3").run()  # the tab the page chose goes to the URL
    assert at.query_params["family"] in ([sc.FAMILY_TITLES["update"]], sc.FAMILY_TITLES["update"])


def test_a_chosen_tab_with_matches_is_kept():
    at = open_page("home", q="duplicate", family=sc.FAMILY_TITLES["update"])
    counts = {f: sum(r["family"] == f for r in home.filter_rows(home.gallery_rows(), "duplicate", []))
              for f in sc.FAMILY_TITLES}
    want = "update" if counts["update"] else next(f for f, n in counts.items() if n)
    assert at.session_state[home.TAB] == sc.FAMILY_TITLES[want]


@pytest.mark.browser
def test_home_filter_link_opens_the_tab_with_the_matches_in_chromium(server, browser):
    from tests.support.browser_support import SCREENSHOTS, real_errors

    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    pg.goto(server.url)
    pg.get_by_text("Every worked example", exact=False).first.wait_for(timeout=60_000)
    pg.goto(f"{server.url}/?q=ScatterElements-11")
    elements = pg.get_by_role("tab", name=sc.FAMILY_TITLES["elements"])
    elements.wait_for(timeout=60_000)
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=60_000)
    pg.wait_for_function("(n) => [...document.querySelectorAll('[role=tab]')].some(t => t.innerText.trim() === n"
                         " && t.getAttribute('aria-selected') === 'true')", arg=sc.FAMILY_TITLES["elements"],
                         timeout=30_000)
    pg.get_by_text("ScatterElements-11", exact=False).nth(1).wait_for(state="visible", timeout=30_000)
    pg.wait_for_function("() => location.search.includes('family=')", timeout=30_000)
    elements.scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / "home-filter-1280x720.png"))
    assert real_errors(errors) == []
    ctx.close()


def test_every_family_has_its_intro_card_with_its_explorer_link():
    """#22: the intro cards covered 3 of the 5 families (three columns, zipped)."""
    at = open_page("home")
    assert not at.exception
    cards = [str(m.value) for m in at.markdown if str(m.value).startswith("**") and str(m.value).endswith("**")]
    assert [c.strip("*").replace("\\\\", "") for c in cards[:len(sc.FAMILIES)]] == [
        f.title for f in sc.FAMILIES.values()]
    opened = [p.proto.page for p in at.get("page_link") if p.proto.label == "Open the explorer"]
    assert opened == [f.slug for f in sc.FAMILIES.values()]  # each card opens its family's explorer
    captions = " ".join(c.value for c in at.caption)
    for f in sc.FAMILIES.values():
        assert all(s.name in captions for s in sc.family_members(f.name))
