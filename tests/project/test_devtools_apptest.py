"""devtools.apptest.switch_to: opening a callable st.Page in an AppTest, through AppTest's private state."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from devtools import apptest


def _two_pages():
    import streamlit as st

    def first():
        st.write("first page")

    def second():
        st.write("second page")

    st.navigation([st.Page(first, title="First", url_path="first", default=True),
                   st.Page(second, title="Second", url_path="second")]).run()


def _texts(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def test_apptest_still_has_the_private_state_switch_to_uses():
    """Fails loudly when a Streamlit upgrade renames or drops what switch_to sets (devtools.apptest.PRIVATE)."""
    at = AppTest.from_function(_two_pages)
    assert [name for name in apptest.PRIVATE if not hasattr(at, name)] == []


def test_switch_to_opens_a_callable_page_by_its_url_path():
    at = AppTest.from_function(_two_pages).run()
    assert _texts(at) == ["first page"]
    apptest.switch_to(at, "second").run()
    assert not at.exception and _texts(at) == ["second page"]
    apptest.switch_to(at, "").run()  # the default page's URL path: "", as a browser's bare URL
    assert _texts(at) == ["first page"]


def test_switch_to_refuses_a_url_path_the_app_does_not_route():
    at = AppTest.from_function(_two_pages).run()
    with pytest.raises(ValueError, match="no page at URL path 'third'"):
        apptest.switch_to(at, "third")


def test_the_public_switch_page_cannot_open_a_callable_page():
    """Why switch_to exists: AppTest.switch_page takes a page file only (if a Streamlit release adds a public
    way, this fails and switch_to should use it)."""
    at = AppTest.from_function(_two_pages).run()
    with pytest.raises(ValueError):
        at.switch_page("second")


def test_a_missing_private_attribute_is_named(monkeypatch):
    at = AppTest.from_function(_two_pages).run()
    monkeypatch.delattr(at, "_page_hash")
    with pytest.raises(RuntimeError, match=r"private _page_hash \(written for Streamlit 1\.67\.0\)"):
        apptest.switch_to(at, "second")
