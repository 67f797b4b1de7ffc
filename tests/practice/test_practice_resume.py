"""Practice after a lost session (issue #26 §2, failover): the URL carries where the student is (the set, which
of its exercises, the level, the mode) and how many answers the session had checked; a new session reopens
the same exercise and says plainly that the answers and the score did not come along.
(tests/project/test_deploy.py does it through the class server with a replica killed.)"""

from __future__ import annotations

import scatter_practice as sp
from tests.support.apptest_helpers import PAGES
from tests.support.apptest_practice import button, open_practice, predict


def warnings(at) -> list[str]:
    return [w.value for w in at.warning]


def any_answer(at, ex: sp.Exercise):
    """One answer checked to the end: a wrong first check gets one more try, so it is checked again."""
    predict(at, (0,) * ex.answer.ndim, 1)
    if any("Try once more" in e.value for e in at.error):
        predict(at, (0,) * ex.answer.ndim, 1)
    return at


def test_the_url_says_which_exercise_of_the_set_and_a_link_reopens_it():
    exercises = sp.exercise_set(7, 3, 4)
    at = open_practice(set=7, level=3, n=4)
    assert at.query_params["i"] == "1"
    button(at, "next ▶").click().run()
    button(at, "next ▶").click().run()
    assert dict(at.query_params) == {"set": "7", "level": "3", "n": "4", "i": "3", "mode": "Step by step"}
    again = open_practice(**at.query_params)
    assert again.header[0].value == f"Level 3 · set 7, exercise 3 of 4 · {exercises[2].op}"
    assert not [w for w in warnings(again) if "was ignored" in w]


def test_an_exercise_outside_the_set_is_named_and_the_set_starts_at_its_first():
    at = open_practice(set=7, level=3, n=4, i=9)
    assert at.header[0].value.startswith("Level 3 · set 7, exercise 1 of 4 · ")
    (notice,) = [w for w in warnings(at) if "was ignored" in w]
    assert "i=9" in notice and "not an exercise of this set (1..4)" in notice
    at = open_practice(seed=4, level=2, i=2, answered="lots")
    (notice,) = [w for w in warnings(at) if "was ignored" in w]
    assert "i=2" in notice and "used only with a set number" in notice
    assert "answered=lots" in notice and "not a count of answers" in notice


def test_a_new_session_keeps_the_place_and_says_the_answers_and_score_stayed_behind():
    exercises = sp.exercise_set(7, 3, 4)
    at = open_practice(set=7, level=3, n=4)
    button(at, "next ▶").click().run()
    any_answer(at, exercises[1])
    assert at.query_params["answered"] == "1" and at.query_params["i"] == "2"
    assert not [w for w in warnings(at) if "new session" in w]
    # the replica is gone: another one starts a new session from the URL the browser has
    resumed = open_practice(**at.query_params)
    assert resumed.header[0].value == f"Level 3 · set 7, exercise 2 of 4 · {exercises[1].op}"
    (lost,) = [w for w in warnings(resumed) if "new session" in w]
    assert "Your 1 checked answer and your score did not" in lost and "The score starts again here" in lost
    assert "answered" not in resumed.query_params  # this session has checked none yet
    assert [e for e in resumed.expander if e.label.startswith("Your progress")][0].proto.expanded is False
    any_answer(resumed, exercises[1])  # an answer checked here: the notice has said its piece
    assert not [w for w in warnings(resumed) if "new session" in w]
    assert resumed.query_params["answered"] == "1"


def test_the_notice_can_be_dismissed():
    at = open_practice(seed=4, level=2, mode="Multiple choice", answered=5)
    (lost,) = [w for w in warnings(at) if "new session" in w]
    assert "Your 5 checked answers" in lost and at.header[0].value.startswith("Level 2 · exercise 4 ")
    button(at, "Dismiss").click().run()
    assert not [w for w in warnings(at) if "new session" in w]
    assert at.radio(key="practice:mode").value == "Multiple choice"


def test_an_older_url_of_the_page_does_not_move_the_student_back():
    """Two clicks on "next ▶" close together: the second one's rerun carries the URL before the first one's."""
    at = open_practice(set=7, level=3, n=4)
    button(at, "next ▶").click().run()
    older = dict(at.query_params)
    button(at, "next ▶").click().run()
    at.query_params.clear()
    at.query_params.update(older)
    button(at, "next ▶").click().run()
    assert at.query_params["i"] == "4" and at.header[0].value.startswith("Level 3 · set 7, exercise 4 of 4 · ")


def test_back_from_another_page_reopens_the_practice_view():
    at = open_practice(seed=4, level=2, mode="Multiple choice")
    own = dict(at.query_params)
    at.switch_page(PAGES["home"])
    at.query_params.clear()
    at.run()
    at.switch_page("app_pages/practice.py")
    at.query_params.clear()
    at.query_params.update(own)
    at.run()
    assert at.header[0].value.startswith("Level 2 · exercise 4 ")
    assert at.radio(key="practice:mode").value == "Multiple choice"
