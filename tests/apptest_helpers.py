"""Helpers for driving the app with Streamlit's AppTest."""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from scatter_core.families import FAMILIES

APP = str(Path(__file__).resolve().parent.parent / "app.py")
PAGES = {"home": "app_pages/home.py", "nd": "app_pages/nd_family.py",
         "elements": "app_pages/elements_family.py",
         "update": "app_pages/update_family.py", "spec-nd": "app_pages/spec_nd.py",
         "spec-elements": "app_pages/spec_elements.py", "spec-update": "app_pages/spec_update.py",
         "check": "app_pages/check_expected.py"}
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
    return at.switch_page(page_file)


def open_page(page: str, timeout: float = 120, **params) -> AppTest:
    at = app_on(PAGES[page], timeout)
    if params:
        at.query_params.update({k: str(v) for k, v in params.items()})
    at.run()
    return at


def figures(at: AppTest) -> list[dict]:
    """The animated figures on the page, decoded from their iframes."""
    out = []
    for el in at.get("iframe"):
        doc = el.proto.srcdoc
        m = re.search(r"const fig = (\{.*?\});\n", doc, re.S)
        if m:
            out.append(json.loads(m.group(1).replace("<\\/", "</")))
    return out


def texts(at: AppTest) -> str:
    parts = [e.value for kind in ("markdown", "caption", "info", "warning", "error", "success", "title")
             for e in getattr(at, kind)]
    return "\n".join(str(p) for p in parts)
