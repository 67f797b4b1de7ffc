"""Links, the page's own URL and runs cut short (issue #26 §1.1: "a false notice 'step=1 was ignored'
appeared once while stepping fast").

The cause: a page names a link's unused values by comparing the link with the page's state in the run
that reaches ``session.url_notice``. Streamlit stops a run at its next element when a newer rerun is
asked for (a step report before the step fragment, the player's rerun relay, a click in the sidebar).
When the run that read a link was stopped after writing its URL and before that comparison, the next
run read no new link (the URL was the page's own) and compared the old link with a page the user had
moved on: "step=1 was ignored: steps start at 0". The test stops such a run where Streamlit can (after
the page's URL write, an element message) with ``st.stop()``, which ends a run as an interruption does.
"""

from __future__ import annotations

import streamlit as st

from scatter_ui.parts import session
from tests.support.apptest_helpers import PAGES, app_on, open_page, switch

OP, EX = "ScatterElementsUpdate-12", "ov-scatter-elements-update-12-example-1"


def cut_short_after_the_url_write(monkeypatch) -> None:
    """The next run of the page stops right after it writes its URL (once)."""
    real, left = session.write_url, [1]

    def write_then_stop(*args, **kwargs):
        real(*args, **kwargs)
        if left[0]:
            left[0] = 0
            st.stop()

    monkeypatch.setattr(session, "write_url", write_then_stop)


def ignored(at) -> list[str]:
    return [w.value for w in at.warning if "was ignored" in w.value]


def test_a_links_run_cut_short_names_nothing_once_the_user_has_stepped(monkeypatch):
    at = app_on(PAGES["elements"])
    at.query_params.update({"op": OP, "example": EX, "step": "1"})
    cut_short_after_the_url_write(monkeypatch)
    at.run()
    assert at.query_params["step"] == "1"  # the link was read (and the run stopped before its notice)
    at.session_state["elements:step"] = 4  # what the player's step report does
    at.run()
    assert at.session_state["elements:step"] == 4 and at.query_params["step"] == "4"
    assert ignored(at) == []


def test_an_older_url_of_the_page_in_a_run_cut_short_names_nothing(monkeypatch):
    """The issue's case: every step a rerun, one carrying the page's own older URL (step=1), cut short."""
    at = open_page("elements", op=OP, example=EX, step="0")
    at.session_state["elements:step"] = 1
    at.run()
    older = dict(at.query_params)
    at.session_state["elements:step"] = 2
    at.run()
    at.query_params.clear()
    at.query_params.update(older)  # the browser had not yet applied step=2 when it asked for this run
    at.session_state["elements:step"] = 3
    cut_short_after_the_url_write(monkeypatch)
    at.run()
    at.session_state["elements:step"] = 4
    at.run()
    assert at.session_state["elements:step"] == 4 and at.query_params["step"] == "4"
    assert ignored(at) == []


def test_what_the_link_itself_could_not_use_is_still_named_after_a_run_cut_short(monkeypatch):
    at = app_on(PAGES["elements"])
    at.query_params.update({"op": OP, "example": EX, "axis": "7"})  # the example's data has rank 2
    cut_short_after_the_url_write(monkeypatch)
    at.run()
    at.run()
    notices = ignored(at)
    assert len(notices) == 1 and "axis=7" in notices[0] and "outside the data's axes" in notices[0]
    assert "step=" not in notices[0]


def test_a_link_checked_in_its_own_run_still_names_a_step_past_the_end():
    at = open_page("elements", op=OP, example=EX, step="99")
    notices = ignored(at)
    assert len(notices) == 1 and "step=99" in notices[0] and "past the last step (6)" in notices[0]
    at.session_state["elements:step"] = 2
    at.run()
    assert at.session_state["elements:step"] == 2


def test_the_pages_own_last_url_reopens_it_after_another_page():
    """Back from another page (the browser's Back button, or the same link followed again) returns to the
    URL the explorer last wrote: the page had let go of its state, so it reads that URL again."""
    at = open_page("elements", op="ScatterElements-16", example="onnx-scatterelements-16-example-1", step="2")
    own = dict(at.query_params)
    at.switch_page(PAGES["home"])
    at.query_params.clear()
    at.run()
    switch(at, PAGES["elements"])
    at.query_params.clear()
    at.query_params.update(own)
    at.run()
    assert at.session_state["elements:op"] == "ScatterElements-16"
    assert at.session_state["elements:example"] == "onnx-scatterelements-16-example-1"
    assert at.session_state["elements:step"] == 2
    assert ignored(at) == []
