"""Reading what the app sent its step players, from a Streamlit AppTest run (tests and bench/bench_app.py)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from scatter_ui.player import read_payload


def figures(at: AppTest) -> list[dict]:
    """What each step player on the page was sent: its figure (data, layout) with the frames,
    captions, window (k0, k1), step count n, view id and start step."""
    out = []
    for el in at.get("bidi_component"):
        if el.proto.component_name.endswith(".player"):
            data = read_payload(el.proto.bytes)
            out.append(dict(data, data=data["figure"]["data"], layout=data["figure"]["layout"]))
    return out


def switch_to(at: AppTest, url_path: str) -> AppTest:
    """Switch ``at`` (already run once) to the page at ``url_path``, as a browser opening that URL does.

    AppTest.switch_page takes only a page *file*; the app's explorer and spec pages are callable st.Pages
    built from the family records (app.py), with no file. Streamlit names every st.navigation page by the hash
    of its URL path (``st.Page._script_hash``, what a browser's URL selects), and AppTest runs the page whose
    hash it holds (``_page_hash``, the attribute its switch_page sets), so this sets that. A URL path the last
    run did not register is refused rather than silently running the default page."""
    from streamlit.util import calc_hash

    registered = {info.get("url_pathname") for info in getattr(at, "_registered_pages", {}).values()}
    if registered and url_path not in registered:
        raise ValueError(f"no page at URL path {url_path!r}; the app routes {sorted(p for p in registered if p)}")
    at._page_hash = calc_hash(url_path)
    return at
