"""A class in Streamlit's AppTest: Practice starts one; a student joins, answers (stored by the class store) and
resumes in a new session with the score; the teacher's page (/class) shows the class, refuses a wrong key, ends it.
The browser tests (tests/browser/test_browser_class.py) do the same through real browsers and HAProxy."""

from __future__ import annotations

import numpy as np
import pytest

import scatter_practice as sp
from scatter_practice import classroom
from scatter_practice.classroom import open_store
from tests.support.apptest_helpers import app_on, shown
from tests.support.apptest_practice import button, open_practice, predict, text_input, type_output

TEACHER = "app_pages/class_view.py"


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("SCATTER_EXPLORER_DATA", str(tmp_path))  # the pages' st.connection opens this one
    s = open_store()
    yield s
    s.engine.dispose()


def join(at, name: str):
    text_input(at, "Your name").set_value(name)
    button(at, "Join the class").click().run()
    assert not at.exception, at.exception
    return at


def banner(at) -> str:
    return " ".join(shown(m.value) for m in at.markdown if "Your score" in m.value)


def teacher(info, **extra):
    at = app_on(TEACHER)
    at.query_params.update({"code": info.code, "key": info.teacher_key, **extra})
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.slow
def test_a_student_joins_answers_steps_and_a_new_session_resumes_with_the_score(store):
    info = store.start(1, 2, 8, "Step by step")
    ex = store.exercise(info.code, 0)
    at = open_practice(**{"class": info.code})
    assert at.header[-1].value == f"Join class {info.code}"
    assert not [b for b in at.button if b.label == "Check"]  # no exercise before joining
    join(at, "Zed")
    sid = at.query_params["student"]
    assert at.query_params["class"] == info.code and at.query_params["set"] == "8"
    assert "you are Zed" in banner(at) and "Your score: 0 of 2" in banner(at)
    t = ex.trace
    predict(at, t.target_cells(0)[0], t.after[0][0])
    assert "Saved for the class: your step 1 of exercise 1 at " in banner(at)
    (stored,) = store.answers(info.code, info.teacher_key)
    assert (stored.student, stored.exercise, stored.step, stored.result) == ("Zed", 0, 0, "right")
    for k in range(1, ex.steps):
        button(at, "Next step ▶" if k < ex.steps else "Finish ▶").click().run()
        predict(at, t.target_cells(k)[0], t.after[k][0])
    assert "Your score: 1 of 2" in banner(at)
    # the replica is gone: a new session from the URL alone finds the student and the score in the database
    button(at, "next ▶").click().run()
    predict(at, store.exercise(info.code, 1).trace.target_cells(0)[0], store.exercise(info.code, 1).trace.after[0][0])
    resumed = open_practice(**at.query_params)  # mid-exercise: it starts at the first step not answered
    assert "Step 2 of" in " ".join(t.value for t in resumed.text)
    assert "(exercise 1 ✓ right, 2 … in progress)" in banner(resumed)
    at.query_params["i"] = "1"
    again = open_practice(**at.query_params)
    assert "you are Zed" in banner(again) and "Your score: 1 of 2" in banner(again)
    assert not [b for b in again.button if b.label == "Join the class"]
    assert not [w for w in again.warning if "new session" in w.value]  # nothing stayed behind
    assert again.sidebar.radio[0].disabled  # the class's mode
    assert store.summary(info.code, info.teacher_key).cells[(sid, 0)] == "right"


@pytest.mark.slow
def test_whole_output_and_multiple_choice_answers_are_graded_by_the_store(store):
    info = store.start(2, 2, 3, "output")
    ex = store.exercise(info.code, 0)
    at = join(open_practice(**{"class": info.code}), "Wu")
    type_output(at, str(ex.data.tolist()))
    type_output(at, str(ex.data.tolist()))  # the same answer again: stored once
    (stored,) = store.answers(info.code, info.teacher_key)
    direct = sp.grade_output(ex, ex.data)
    assert stored.result == ("right" if direct.correct else "wrong") and stored.kinds == direct.kinds
    assert np.array_equal(np.array(eval_list(stored.answer)), ex.data)
    mc = store.start(1, 1, 4, "choice")
    at = join(open_practice(**{"class": mc.code}), "Mo")
    ex = store.exercise(mc.code, 0)
    options = sp.choices(ex)
    right = "ABCDEFGH"[next(i for i, c in enumerate(options) if c.correct)]
    at.radio(key=f"practice:pick:1-{ex.seed}-any").set_value(right).run()
    button(at, "Check").click().run()
    (stored,) = store.answers(mc.code, mc.teacher_key)
    assert stored.result == "right" and "Your score: 1 of 1" in banner(at)


def eval_list(text: str):
    import json

    return json.loads(text)


@pytest.mark.slow
def test_names_show_as_text_unknown_codes_are_refused_then_rate_limited(store):
    info = store.start(1, 1, 2, "output")
    name = "**<b>b</b>** [x](y) :red[z] _i_ #"
    at = join(open_practice(**{"class": info.code}), name)
    assert f"you are {name}" in banner(at)  # Markdown escaped: shown exactly as typed
    at = open_practice(**{"class": "nope"})
    (error,) = [e.value for e in at.error]
    assert "is not a class here" in shown(error)
    for i in range(classroom.GUESS_LIMIT):
        at.query_params["class"] = f"GUESS{i}"
        at.run()
    assert "too many wrong class codes" in " ".join(e.value for e in at.error)
    at.query_params["class"] = info.code  # even the right code, for a while, from this session
    at.run()
    assert "too many" in " ".join(e.value for e in at.error)
    assert store.lookup(info.code, client="another").code == info.code  # others are not held back


def test_a_name_too_long_is_refused_and_stays_in_the_box(store):
    info = store.start(1, 1, 2, "output")
    at = join(open_practice(**{"class": info.code}), "x" * 41)
    assert "name has 41 characters; the limit is 40" in " ".join(e.value for e in at.error)
    assert text_input(at, "Your name").value == "x" * 41
    assert "student" not in at.query_params


def test_the_teacher_page_shows_the_class_and_refuses_a_wrong_key(store):
    info = store.start(3, 3, 9, "output")
    exercises = [store.exercise(info.code, k) for k in range(3)]
    for i, name in enumerate(("Ann", "<i>Bo</i>")):
        sid = store.join(info.code, name)
        store.answer(info.code, sid, 0, exercises[0].answer if i == 0 else exercises[0].data)
    at = teacher(info)
    lines = [shown(m.value).replace(" :", ":", 1) for m in at.markdown if m.value.startswith("**Exercise")]
    summary = store.summary(info.code, info.teacher_key)
    e0 = summary.exercises[0]
    assert lines[0].startswith(f"Exercise 1: {e0.right + e0.allowed} of 2 right")
    for kind, count in e0.misconceptions.items():
        assert f"{sp.BY_KIND[kind].title} ×{count}" in lines[0]
    assert lines[1] == "Exercise 2: no answer yet."
    frame = at.dataframe[0].value
    assert list(frame["Student"]) == ["Ann", "<i>Bo</i>"] and list(frame["Ex 1"])[0] == "✓ right"
    assert any(m.value == info.code for m in at.markdown)
    at.toggle(key="class:projector").set_value(True).run()
    assert list(at.dataframe[0].value["Student"]) == ["Student 1", "Student 2"]
    wrong = teacher(info, key="not-the-key")
    assert "teacher key for class" in " ".join(e.value for e in wrong.error)
    assert [t.label for t in wrong.text_input] == ["Class code", "Teacher key"]
    assert not wrong.dataframe


def test_the_teacher_ends_the_class_and_deletes_it(store):
    info = store.start(1, 2, 2, "output")
    sid = store.join(info.code, "Ann")
    store.answer(info.code, sid, 1, store.exercise(info.code, 1).answer)
    at = teacher(info)
    button(at, "Yes, end the class now").click().run()
    assert store.lookup(info.code).ended is not None
    assert any("This class ended" in i.value for i in at.info)
    student = open_practice(**{"class": info.code})
    assert "has ended" in " ".join(e.value for e in student.error)
    student = open_practice(**{"class": info.code, "student": sid})
    assert "You had 1 of 2 exercises right." in " ".join(e.value for e in student.error)
    button(at, "Yes, delete everything now").click().run()
    assert any(f"Class {info.code} and all its answers were deleted" in s.value for s in at.success)
    with pytest.raises(sp.classroom.sc.ScatterError, match="not a class"):
        store.lookup(info.code)


def test_practice_starts_a_class_with_its_set_and_mode(store):
    at = open_practice(set=6, level=2, n=4, mode="Whole output")
    button(at, "Start a class with this set").click().run()
    links = [c.value for c in at.code if "?class=" in c.value or "/class?code=" in c.value]
    student, teacher_link = links
    code = student.rsplit("class=", 1)[1]
    assert f"/class?code={code}&key=" in teacher_link
    got = store.lookup(code)
    assert (got.seed, got.level, got.n, got.mode) == (6, 2, 4, "Whole output")
    key = teacher_link.rsplit("key=", 1)[1]
    assert store.summary(code, key).students == ()


@pytest.mark.slow
def test_the_pages_on_postgresql(monkeypatch):
    """SCATTER_EXPLORER_DB=postgresql://...: the pages' st.connection reaches a real server (tests/support/pg_support.py)."""
    from tests.support.pg_support import postgres_server

    with postgres_server() as url:
        monkeypatch.setenv("SCATTER_EXPLORER_DB", url)
        s = open_store()
        assert s.engine.dialect.name == "postgresql"
        info = s.start(1, 1, 3, "output")
        at = join(open_practice(**{"class": info.code}), "Pat")
        type_output(at, str(s.exercise(info.code, 0).answer.tolist()))
        assert "Your score: 1 of 1" in banner(at)
        page = teacher(info)
        assert list(page.dataframe[0].value["Ex 1"]) == ["✓ right"]
        s.engine.dispose()


def test_idle_students_are_named_or_counted_and_the_csv_holds_every_answer(store):
    import csv
    import io
    import time

    import sqlalchemy as sa

    from scatter_ui.pages import class_view as class_page

    info = store.start(1, 2, 5, "output")
    ex = store.exercise(info.code, 0)
    ids = {name: store.join(info.code, name) for name in ("=HYPERLINK(1)", "Quick", "Done")}
    store.answer(info.code, ids["Quick"], 0, ex.data)
    for k in range(2):
        store.answer(info.code, ids["Done"], k, store.exercise(info.code, k).answer)
    with store.engine.begin() as c:  # "=HYPERLINK(1)" and "Done" last acted 8 minutes ago
        ago = time.time() - 8 * 60
        c.execute(classroom.STUDENTS.update().values(joined=ago))
        c.execute(classroom.ANSWERS.update().where(classroom.ANSWERS.c.student != ids["Quick"]).values(at=ago))
        assert c.execute(sa.select(sa.func.count()).select_from(classroom.ANSWERS)).scalar_one() == 3
    at = teacher(info)
    (idle,) = [w.value for w in at.warning if "No answer for" in w.value]
    assert "=HYPERLINK(1) (8 min)" in shown(idle) and "Quick" not in idle and "Done" not in idle  # done: not idle
    at.toggle(key="class:projector").set_value(True).run()
    (idle,) = [w.value for w in at.warning if "No answer for" in w.value]
    assert idle.endswith("1 student(s).") and "HYPERLINK" not in idle
    rows = list(csv.reader(io.StringIO(class_page.answers_csv(info.code, info.teacher_key).decode())))
    assert rows[0][:3] == ["time_utc", "student", "exercise"] and len(rows) == 1 + 3
    assert {r[1] for r in rows[1:]} == {"Quick", "Done"}
    store.answer(info.code, ids["=HYPERLINK(1)"], 1, store.exercise(info.code, 1).data)
    rows = list(csv.reader(io.StringIO(class_page.answers_csv(info.code, info.teacher_key).decode())))
    assert "'=HYPERLINK(1)" in {r[1] for r in rows}  # a spreadsheet shows it, never runs it
