"""Helpers for driving the app with Streamlit's AppTest."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parent.parent / "app.py")
PAGES = {"home": "pages/home.py", "nd": "pages/nd_family.py", "elements": "pages/elements_family.py",
         "update": "pages/update_family.py", "spec-nd": "pages/spec_nd.py",
         "spec-elements": "pages/spec_elements.py", "spec-update": "pages/spec_update.py",
         "check": "pages/check_expected.py"}


def open_page(page: str, timeout: float = 120, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.switch_page(PAGES[page])
    if params:
        at.query_params.update({k: str(v) for k, v in params.items()})
    at.run()
    return at


def figures(at: AppTest) -> list[dict]:
    """What each step player on the page was sent: its figure (data, layout) with the frames,
    captions, window (k0, k1), step count n, view id and start step."""
    out = []
    for el in at.get("bidi_component"):
        if el.proto.component_name.endswith(".player"):
            data = json.loads(el.proto.json)
            out.append(dict(data, data=data["figure"]["data"], layout=data["figure"]["layout"]))
    return out


def shown(markdown_source) -> str:
    """What a reader sees of a Markdown element: rendered (CommonMark), tags dropped, entities decoded."""
    from markdown_it import MarkdownIt

    rendered = MarkdownIt("commonmark").enable("strikethrough").render(str(markdown_source))
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", rendered)).split())


def texts(at: AppTest) -> str:
    """Every Markdown-rendered text on the page, as shown."""
    parts = [e.value for kind in ("markdown", "caption", "info", "warning", "error", "success", "title")
             for e in getattr(at, kind)]
    return "\n".join(shown(p) for p in parts)
