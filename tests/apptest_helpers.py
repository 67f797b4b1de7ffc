"""Helpers for driving the app with Streamlit's AppTest."""

from __future__ import annotations

import html
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from scatter_core.families import FAMILIES
from devtools.apptest import figures

APP = str(Path(__file__).resolve().parent.parent / "app.py")
PAGES = {"home": "app_pages/home.py", "nd": "app_pages/nd_family.py",
         "elements": "app_pages/elements_family.py",
         "update": "app_pages/update_family.py", "spec-nd": "app_pages/spec_nd.py",
         "spec-elements": "app_pages/spec_elements.py", "spec-update": "app_pages/spec_update.py",
         "check": "app_pages/check_expected.py", "from-code": "app_pages/from_code.py"}
# every other family's explorer and spec page, by the family record's slug (app.py lists them the same way)
PAGES.update({f.slug: f.page for f in FAMILIES.values() if f.slug not in PAGES})
PAGES.update({f"spec-{f.slug}": f"app_pages/spec_{f.slug}.py" for f in FAMILIES.values()
              if f"spec-{f.slug}" not in PAGES})


def app_on(page_file: str, timeout: float = 120) -> AppTest:
    """An AppTest switched to ``page_file`` (e.g. "app_pages/nd_family.py"), not yet run there.

    It runs the app once first: before its first run AppTest knows a page only by its file name,
    which is not the page's st.Page url_path, so switching earlier would silently run the home
    page (Streamlit's AppTest.switch_page documents this)."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.run()
    # what the home page wrote to the URL (its gallery tab) stays in AppTest's query params across
    # switch_page; a browser following a link to another page starts from that link's parameters
    at.query_params.clear()
    return at.switch_page(page_file)


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
    open: scatter_ui.controls.lazy_expander) and rerun, as a click on it does."""
    found = [e for e in at.expander if e.label.startswith(label)]
    assert found, f"no expander labelled {label!r}"
    for e in found:
        at.session_state[e.key] = True
    return at.run()
