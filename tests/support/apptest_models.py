"""The model page under AppTest with a given model as the one chosen."""

from __future__ import annotations

from tests.support.apptest_helpers import app_on


PAGE = "app_pages/model.py"


def model_page_with(model):
    """The page with ``model`` as the one the sidebar points at (AppTest cannot upload files)."""
    at = app_on(PAGE)
    at.session_state["model:sample"] = "kv_cache"
    at.session_state["model:model"] = ("sample:kv_cache", model)
    at.run()
    assert not at.exception
    return at
