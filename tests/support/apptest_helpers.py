"""Helpers for driving the app with Streamlit's AppTest."""

from __future__ import annotations

import html
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from scatter_core.families import FAMILIES
from devtools.apptest import figures, switch_to

APP = str(Path(__file__).resolve().parents[2] / "app.py")
# a page by its name in the tests: a page file, or a callable page's URL path (each family record's explorer page
# at its slug and spec page at spec-<slug>: app.py builds them from the records, with no file)
PAGES = {"home": "app_pages/home.py", "check": "app_pages/check_expected.py", "from-code": "app_pages/from_code.py"}
PAGES.update({f.slug: f.slug for f in FAMILIES.values()})
PAGES.update({f"spec-{f.slug}": f"spec-{f.slug}" for f in FAMILIES.values()})


def app_on(page: str, timeout: float = 120) -> AppTest:
    """An AppTest switched to ``page``, not yet run there: a page file (e.g. "app_pages/check_expected.py") or a
    callable page's URL path (e.g. "nd", "spec-elements").

    It runs the app once first: before its first run AppTest knows a page only by its file name,
    which is not the page's st.Page url_path, so switching earlier would silently run the home
    page (Streamlit's AppTest.switch_page documents this)."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.run()
    # what the home page wrote to the URL (its gallery tab) stays in AppTest's query params across
    # switch_page; a browser following a link to another page starts from that link's parameters
    at.query_params.clear()
    return switch(at, page)


def switch(at: AppTest, page: str) -> AppTest:
    """Switch an AppTest that has run to ``page``: a page file, or a callable page's URL path."""
    return at.switch_page(page) if page.endswith(".py") else switch_to(at, page)


def open_page(page: str, timeout: float = 120, **params) -> AppTest:
    if page == "home":  # the default page: its first run is the link's own, as in a browser
        at = AppTest.from_file(APP, default_timeout=timeout)
    else:
        at = app_on(PAGES[page], timeout)
    if params:
        at.query_params.update({k: str(v) for k, v in params.items()})
    at.run()
    return at


def shown(markdown_source) -> str:
    """What a reader sees of a Markdown element: rendered (CommonMark), tags dropped, entities decoded."""
    from markdown_it import MarkdownIt

    rendered = MarkdownIt("commonmark").enable("strikethrough").render(str(markdown_source))
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", rendered)).split())


def sources(at: AppTest) -> str:
    """Every Markdown-rendered element on the page, as its Markdown source (links, headings, escapes)."""
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "info", "warning", "error", "success", "title")
                     for e in getattr(at, kind))


def texts(at: AppTest) -> str:
    """Every Markdown-rendered text on the page, as shown."""
    parts = [e.value for kind in ("markdown", "caption", "info", "warning", "error", "success", "title")
             for e in getattr(at, kind)]
    return "\n".join(shown(p) for p in parts)


def open_expander(at: AppTest, label: str) -> AppTest:
    """Open the expander(s) whose label starts with ``label`` (a lazy one builds its content only while
    open: scatter_ui.parts.controls.lazy_expander) and rerun, as a click on it does."""
    found = [e for e in at.expander if e.label.startswith(label)]
    assert found, f"no expander labelled {label!r}"
    for e in found:
        at.session_state[e.key] = True
    return at.run()
