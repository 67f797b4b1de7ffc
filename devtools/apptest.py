"""Reading what the app sent its step players, from a Streamlit AppTest run (tests and bench/bench_app.py)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from scatter_ui.player.component import read_payload


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

    The app's explorer and spec pages are callable st.Pages built from the family records (app.py), with no
    file; Streamlit names every st.navigation page by the hash of its URL path (``st.Page._script_hash``, what
    a browser's URL selects). A URL path the last run did not register is refused rather than silently running
    the default page."""
    from streamlit.util import calc_hash

    registered = _registered_url_paths(at)
    if registered and url_path not in registered:
        raise ValueError(f"no page at URL path {url_path!r}; the app routes {sorted(p for p in registered if p)}")
    _request_page(at, calc_hash(url_path))
    return at


# AppTest's private state this module reads and sets, and the Streamlit version it was written against
PRIVATE = ("_page_hash", "_registered_pages")
WRITTEN_FOR = "1.67.0"


def _registered_url_paths(at: AppTest) -> set:
    """The URL paths st.navigation registered on ``at``'s last run (AppTest keeps them privately)."""
    _require_private(at)
    return {info.get("url_pathname") for info in at._registered_pages.values()}


def _request_page(at: AppTest, page_hash: str) -> None:
    """Make ``at``'s next run open the page named ``page_hash``.

    This and :func:`_registered_url_paths` are the only uses of AppTest's private state. Streamlit 1.67.0 has
    no public way to open a callable st.Page: ``AppTest.switch_page`` takes a page *file* and, once
    st.navigation has registered pages, matches it against their script paths, which a callable page has
    none of (it raises "Could not find a navigation page"); ``from_function``/``from_string`` only change the
    main script. So this sets the page hash that ``switch_page`` itself sets and ``AppTest._run`` sends as the
    requested page. ``tests/project/test_devtools_apptest.py`` fails if these attributes go."""
    _require_private(at)
    at._page_hash = page_hash


def _require_private(at: AppTest) -> None:
    missing = [name for name in PRIVATE if not hasattr(at, name)]
    if missing:
        import streamlit

        raise RuntimeError(f"devtools.apptest.switch_to relies on AppTest's private {', '.join(missing)} "
                           f"(written for Streamlit {WRITTEN_FOR}); Streamlit {streamlit.__version__} has no such "
                           f"attribute: look for a public way to open a callable st.Page (AppTest.switch_page)")
