"""A large example's stand-in steps as a small case does (issue #26 §1.2): its player, URL, share link and
findings are a step fragment (``ExplorerPage.stand_in_stepped``), and a step sends the player the same data
while the step stays inside the frames sent. (tests/browser/test_browser_stepping.py counts, in a real browser,
that a step there reruns the fragment and never the page.)"""

from __future__ import annotations

from devtools.apptest import figures
from tests.support.apptest_helpers import open_page, texts

OP, EX = "ScatterUpdate-3", "ov-scatter-update-3-example-1"  # above the core's limit: a reduced stand-in


def player_bytes(at) -> bytes:
    return next(e.proto.bytes for e in at.get("bidi_component") if e.proto.component_name.endswith(".player"))


def share_link(at) -> str:
    return next(c.value for c in at.sidebar.caption if "Share this view" in c.value)


def test_the_stand_in_takes_its_step_from_the_link_and_follows_the_player():
    at = open_page("update", op=OP, example=EX, step="3")
    assert not at.exception and "Too large to run in full" in texts(at)
    (fig,) = figures(at)
    assert fig["view"] == f"stand-in:{EX}" and fig["step"] == 3 and fig["n"] == 2500
    assert at.query_params["step"] == "3" and "step=3" in share_link(at)
    first = player_bytes(at)
    at.session_state["update:step"] = 9  # what the player's step report does
    at.run()
    assert at.query_params["step"] == "9" and "step=9" in share_link(at)
    assert player_bytes(at) == first  # the browser owns the step: nothing new to send
    assert not [w for w in at.warning if "was ignored" in w.value]


def test_a_stand_in_step_far_away_brings_its_frames_and_a_bad_step_is_named():
    at = open_page("update", op=OP, example=EX)
    k1 = figures(at)[0]["k1"]
    assert k1 < 2500
    at.session_state["update:step"] = 2000
    at.run()
    fig = figures(at)[0]
    assert fig["k0"] <= 2000 <= fig["k1"] and fig["step"] == 2000 and at.query_params["step"] == "2000"
    at = open_page("update", op=OP, example=EX, step="9999")
    notices = [w.value for w in at.warning if "was ignored" in w.value]
    assert len(notices) == 1 and "step=9999" in notices[0] and "past the last step (2500)" in notices[0]
    assert at.query_params["step"] == "2500"
