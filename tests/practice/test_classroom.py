"""The class store (scatter_practice.classroom) on both databases: embedded SQLite and a real PostgreSQL server.

Counts are checked against grading the same answers directly with scatter_practice's grader; 30 students
answer at once from 2 processes; a process killed in the middle of an answer leaves nothing half-written.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import threading
import time

import numpy as np
import pytest
import sqlalchemy as sa

import scatter_practice as sp
from scatter_core import ScatterError
from scatter_practice import classroom
from scatter_practice.classroom import open_store
from tests.support.pg_support import postgres_server

pytestmark = pytest.mark.slow  # the class store on SQLite and a throwaway PostgreSQL server: the full suite runs them, the fast loop does not

SPAWN = multiprocessing.get_context("spawn")


@pytest.fixture(autouse=True)
def _no_main_to_rerun(monkeypatch):
    """A spawned child re-runs the parent's ``__main__`` file; after an AppTest in the same xdist worker that is
    app.py, which cannot run outside Streamlit (the child exited 1). The children here need no main module."""
    import types

    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))


@pytest.fixture(scope="module")
def pg_url():
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'classes.sqlite3'}"
    base = request.getfixturevalue("pg_url")  # a fresh database per test on the module's server
    name = f"t{os.getpid()}_{int(time.time() * 1e6) % 10**12}"
    admin = sa.create_engine(base.replace("postgresql://", "postgresql+psycopg://"), isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    admin.dispose()
    return base.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def store(url):
    s = open_store(url)
    yield s
    s.engine.dispose()


def _answers_for(ex, rng) -> list:
    """Outputs a class would hand in: the right one, each misconception's, data unchanged, one-cell slips."""
    outs = [ex.answer, ex.data, *sp.student_outputs(ex).values()]
    slip = ex.answer.copy()
    slip.reshape(-1)[int(rng.integers(slip.size))] += 1
    return outs + [slip]


def test_the_public_api_and_its_refusals_name_what_is_wrong(store):
    info = store.start(1, 3, 7, "Whole output")
    assert len(info.code) == classroom.CODE_LENGTH and info.code in info.student_path
    assert info.student_path.startswith("/practice?") and info.teacher_path.startswith("/class?")
    assert info.teacher_key in info.teacher_path and info.teacher_key not in info.student_path
    assert [store.exercise(info.code, k).seed for k in range(3)] == list(sp.set_seeds(7, 3))
    assert np.array_equal(store.exercise(info.code, 2).answer, sp.exercise_set(7, 1, 3)[2].answer)
    sid = store.join(info.code, "Ada")
    fb = store.answer(info.code, sid, 0, store.exercise(info.code, 0).answer)
    assert fb.correct
    summary = store.summary(info.code, info.teacher_key)
    assert summary.students == ("Ada",) and (summary.exercises[0].right, summary.exercises[0].wrong) == (1, 0)
    refusals = [
        (lambda: store.summary(info.code, info.teacher_key + "x"), "teacher key"),
        (lambda: store.join("QQQQQQ", "Bo"), "class code"),
        (lambda: store.exercise("QQQQQQ", 0), "class code"),
        (lambda: store.join(info.code, "x" * 41), "name has 41 characters"),
        (lambda: store.join(info.code, "ada"), "taken"),
        (lambda: store.exercise(info.code, 3), "exercise = 3"),
        (lambda: store.answer(info.code, sid, -1, [1]), "exercise = -1"),
        (lambda: store.answer(info.code, "nobody", 0, [1]), "student"),
        (lambda: store.answer(info.code, sid, 0, [[1, 2]]), "shape"),
        (lambda: store.start(1, 3, 7, "karaoke"), "mode"),
        (lambda: store.start(9, 3, 7, "step"), "level"),
        (lambda: store.start(1, 31, 7, "step"), "n = 31"),
    ]
    for call, words in refusals:
        with pytest.raises(ScatterError, match=words):
            call()
    store.end(info.code, info.teacher_key)
    for call in (lambda: store.join(info.code, "Cy"), lambda: store.answer(info.code, sid, 1, [1]),
                 lambda: store.exercise(info.code, 0)):
        with pytest.raises(ScatterError, match="has ended"):
            call()
    assert store.summary(info.code, info.teacher_key).ended is not None  # the teacher still sees it


def test_counts_equal_grading_the_same_answers_directly(store):
    info = store.start(3, 4, 11, "output")
    rng = np.random.default_rng(0)
    exercises = [store.exercise(info.code, k) for k in range(4)]
    expected = [{"right": 0, "wrong": 0, "allowed": 0, "kinds": {}} for _ in exercises]
    for s in range(12):
        sid = store.join(info.code, f"student {s}")
        for k, ex in enumerate(exercises):
            choices = _answers_for(ex, rng)
            out = choices[int(rng.integers(len(choices)))]
            direct = sp.grade_output(ex, out)
            stored = store.answer(info.code, sid, k, out.tolist())
            assert (stored.correct, stored.conforms, stored.kinds) == (direct.correct, direct.conforms, direct.kinds)
            e = expected[k]
            e["right" if direct.correct else "allowed" if direct.conforms else "wrong"] += 1
            for kind in direct.kinds:
                e["kinds"][kind] = e["kinds"].get(kind, 0) + 1
    summary = store.summary(info.code, info.teacher_key)
    assert len(summary.students) == 12
    for e, got in zip(expected, summary.exercises):
        assert (got.right, got.wrong, got.allowed) == (e["right"], e["wrong"], e["allowed"])
        assert dict(got.misconceptions) == e["kinds"]
    assert sum(len(e["kinds"]) for e in expected) > 0  # the draw named some misconceptions
    assert len(store.answers(info.code, info.teacher_key)) == 12 * 4


def test_steps_two_scored_tries_and_the_students_progress(store):
    info = store.start(1, 2, 3, "step")
    sid = store.join(info.code, "Step")
    ex = store.exercise(info.code, 0)
    t = ex.trace
    for k in range(ex.steps - 1):
        assert store.answer_step(info.code, sid, 0, k, t.target_cells(k)[0], t.after[k][0]).correct
    summary = store.summary(info.code, info.teacher_key)
    assert summary.cells[(sid, 0)] == "in progress" and summary.exercises[0].in_progress == 1
    last = ex.steps - 1
    wrong = store.answer_step(info.code, sid, 0, last, t.target_cells(last)[0], float(t.after[last][0]) + 1)
    assert not wrong.correct and not wrong.value_correct
    assert store.summary(info.code, info.teacher_key).cells[(sid, 0)] == "wrong"
    store.answer_step(info.code, sid, 0, last, t.target_cells(last)[0], t.after[last][0])  # the second try counts
    assert store.summary(info.code, info.teacher_key).cells[(sid, 0)] == "right"
    store.answer_step(info.code, sid, 0, last, t.target_cells(last)[0], -999)  # a third try is stored, unscored
    assert store.summary(info.code, info.teacher_key).cells[(sid, 0)] == "right"
    rows = [a for a in store.answers(info.code, info.teacher_key) if a.step == last]
    assert [(a.try_no, a.scored, a.result) for a in rows] == [(1, True, "wrong"), (2, True, "right"),
                                                             (3, False, "wrong")]
    assert store.progress(info.code, sid)[(0, last)] == "right"
    late = store.answer(info.code, sid, 1, store.exercise(info.code, 1).answer, revealed=True)  # after a reveal
    assert late.after_reveal and late.matches_answer and not late.correct  # graded as Practice grades it
    assert store.summary(info.code, info.teacher_key).exercises[1].right == 0
    assert [(a.try_no, a.scored) for a in store.answers(info.code, info.teacher_key) if a.exercise == 1] == [(1, False)]
    with pytest.raises(ScatterError, match="step"):
        store.answer_step(info.code, sid, 0, 99, (0,), 1)


def test_hostile_input_is_refused_or_kept_as_plain_text(store):
    info = store.start(1, 2, 1, "output")
    name = "<script>alert(1)</script> **bold** [x](javascript:1)"[:40]
    sid = store.join(info.code, name)
    assert store.summary(info.code, info.teacher_key).students == (name,)  # stored as typed; pages show it as text
    for bad in ("A\u202eB", "tab\there", "   "):
        with pytest.raises(ScatterError, match="name"):
            store.join(info.code, bad)
    megabyte = "[" + ", ".join(["1"] * 350_000) + "]"
    assert len(megabyte) > 1_000_000
    with pytest.raises(ScatterError, match="limit"):
        store.answer(info.code, sid, 0, megabyte)
    with pytest.raises(ScatterError, match="limit"):
        store.answer(info.code, sid, 0, [1.0] * 131_072)  # 1 MB of float64
    assert store.answers(info.code, info.teacher_key) == []


def test_guessed_codes_and_keys_are_refused_then_rate_limited_per_client(store):
    info = store.start(1, 2, 1, "output")
    for i in range(classroom.GUESS_LIMIT):
        with pytest.raises(ScatterError, match="not a class|wrong"):
            if i % 2:
                store.lookup(f"ZZZZZ{i % 10}", client="mallory")
            else:
                store.summary(info.code, f"guess{i}", client="mallory")
    with pytest.raises(ScatterError, match="too many") as refused:
        store.summary(info.code, info.teacher_key, client="mallory")  # even the right key, for a while
    assert refused.value.rule == "rate-limit"
    assert store.summary(info.code, info.teacher_key, client="teacher").students == ()  # another client is not
    with store.engine.begin() as c:  # the window passes
        c.execute(classroom.REFUSALS.update().values(at=time.time() - classroom.GUESS_WINDOW_S - 1))
    assert store.lookup(info.code, client="mallory").n == 2


def test_class_data_is_deleted_after_the_retention_time_or_at_once(store):
    keep, old, gone = (store.start(1, 2, s, "output") for s in (1, 2, 3))
    for info in (keep, old, gone):
        store.answer(info.code, store.join(info.code, "A"), 0, store.exercise(info.code, 0).answer)
    store.end(old.code, old.teacher_key)
    with store.engine.begin() as c:  # it ended 31 days ago
        c.execute(classroom.CLASSES.update().where(classroom.CLASSES.c.code == old.code)
                  .values(ended=time.time() - 31 * 86400))
    summary = store.summary(old.code, old.teacher_key)
    assert summary.delete_at == pytest.approx(summary.ended + 30 * 86400)
    assert store.purge(summary.delete_at - 5) == 0
    assert store.purge() == 1  # the ended class; the others are active: kept
    with pytest.raises(ScatterError, match="not a class"):
        store.summary(old.code, old.teacher_key)
    store.delete(gone.code, gone.teacher_key)
    with store.engine.begin() as c:
        left = {t.name: c.execute(sa.select(sa.func.count()).select_from(t)).scalar_one()
                for t in (classroom.CLASSES, classroom.STUDENTS, classroom.ANSWERS)}
    assert left == {"classes": 1, "students": 1, "answers": 1}
    short = open_store(str(store.engine.url.render_as_string(hide_password=False)), retention_days=0.5)
    assert short.purge(time.time() + 0.5 * 86400 + 60) == 1  # never ended: counted from its last activity


def test_the_schema_is_alembics_head_and_a_second_open_changes_nothing(store, url):
    with store.engine.connect() as c:
        assert c.exec_driver_sql("SELECT version_num FROM alembic_version").scalar_one() == "0001"
    classroom.forget_migrations()
    again = open_store(url)
    info = again.start(1, 1, 1, "choice")
    assert store.lookup(info.code).mode == "Multiple choice"
    if store.engine.dialect.name == "sqlite":
        with store.engine.connect() as c:
            assert c.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"


# -- at once, from two processes ---------------------------------------------------------------------------------
def _class_of_15(url: str, code: str, first: int, go: float, out) -> None:
    """One process: 15 students (threads) join at ``go`` and answer every exercise at once."""
    store = open_store(url)
    results, errors = [], []

    def student(i: int) -> None:
        try:
            while time.time() < go:
                time.sleep(0.005)
            sid = store.join(code, f"s{first + i}")
            for k in range(3):
                ex = store.exercise(code, k)
                out_arr = ex.answer if (first + i + k) % 3 else ex.data
                fb = store.answer(code, sid, k, out_arr.tolist())
                results.append((sid, k, fb.correct, fb.conforms))
        except Exception as exc:  # noqa: BLE001 - reported to the parent
            errors.append(repr(exc))

    threads = [threading.Thread(target=student, args=(i,)) for i in range(15)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put((results, errors))


@pytest.mark.slow
def test_thirty_students_answer_at_once_from_two_processes(store, url):
    info = store.start(1, 3, 21, "output")
    queue = SPAWN.Queue()
    go = time.time() + 8  # both processes import and open the store first
    procs = [SPAWN.Process(target=_class_of_15, args=(url, info.code, first, go, queue)) for first in (0, 15)]
    for p in procs:
        p.start()
    got = [queue.get(timeout=240) for _ in procs]
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    results = [r for rs, _ in got for r in rs]
    assert [e for _, es in got for e in es] == []
    assert len(results) == 90
    summary = store.summary(info.code, info.teacher_key)
    assert len(summary.students) == 30
    for k, e in enumerate(summary.exercises):
        mine = [r for r in results if r[1] == k]
        assert e.right == sum(r[2] for r in mine) and e.right + e.wrong + e.allowed == 30
    assert len(store.answers(info.code, info.teacher_key)) == 90


def _answer_then_die(url: str, code: str, sid: str, when: str) -> None:
    """Answer exercise 0, and die by SIGKILL inside the answer's transaction (``when``: after its insert, or
    at its commit, before the database has it)."""
    store = open_store(url)

    def die(*_args, **_kw):
        os.kill(os.getpid(), signal.SIGKILL)

    if when == "insert":
        sa.event.listen(store.engine, "after_execute",
                        lambda conn, clause, *a: die() if getattr(clause, "table", None) is classroom.ANSWERS
                        else None)
    else:
        sa.event.listen(store.engine, "commit", lambda conn: die() if conn.info.get("answering") else None)
        sa.event.listen(store.engine, "after_execute",
                        lambda conn, clause, *a: conn.info.__setitem__("answering", True)
                        if getattr(clause, "table", None) is classroom.ANSWERS else None)
    store.answer(code, sid, 0, store.exercise(code, 0).answer.tolist())


def _answer_forever(url: str, code: str, sid: str) -> None:
    store = open_store(url)
    ex = store.exercise(code, 0)
    i = 0
    while True:
        store.answer(code, sid, i % 2, (ex.answer if i % 3 else ex.data).tolist() if i % 2 == 0
                     else store.exercise(code, 1).answer.tolist())
        i += 1


@pytest.mark.parametrize("when", ["insert", "commit"])
def test_a_process_killed_in_the_middle_of_an_answer_leaves_nothing_half_written(store, url, when):
    info = store.start(1, 2, 5, "output")
    sid = store.join(info.code, "Kim")
    before = store.summary(info.code, info.teacher_key)
    p = SPAWN.Process(target=_answer_then_die, args=(url, info.code, sid, when))
    p.start()
    p.join(120)
    assert p.exitcode == -signal.SIGKILL
    assert store.answers(info.code, info.teacher_key) == []
    assert store.summary(info.code, info.teacher_key).last_answer == before.last_answer
    assert store.answer(info.code, sid, 0, store.exercise(info.code, 0).answer).correct  # try 1 is free again
    assert [a.try_no for a in store.answers(info.code, info.teacher_key)] == [1]


def test_killed_at_random_moments_every_stored_answer_is_whole(store, url):
    info = store.start(1, 2, 6, "output")
    sid = store.join(info.code, "Lou")
    rng = np.random.default_rng(1)
    for _ in range(3):
        p = SPAWN.Process(target=_answer_forever, args=(url, info.code, sid))
        p.start()
        deadline = time.time() + 90
        n = len(store.answers(info.code, info.teacher_key))
        while len(store.answers(info.code, info.teacher_key)) < n + 3 and time.time() < deadline:
            time.sleep(0.05)  # it is answering
        time.sleep(float(rng.uniform(0, 0.2)))
        os.kill(p.pid, signal.SIGKILL)
        p.join(30)
    stored = store.answers(info.code, info.teacher_key)
    assert len(stored) >= 9
    for k in (0, 1):
        mine = [a for a in stored if a.exercise == k]
        assert [a.try_no for a in mine] == list(range(1, len(mine) + 1))  # no gap, no duplicate
        for a in mine:
            direct = sp.grade_output(store.exercise(info.code, k), np.array(json.loads(a.answer)))
            assert a.result == ("right" if direct.correct else "allowed" if direct.conforms else "wrong")
            assert a.scored == (a.try_no <= classroom.SCORED_TRIES)
    if store.engine.dialect.name == "sqlite":
        with store.engine.connect() as c:
            assert c.exec_driver_sql("PRAGMA integrity_check").scalar_one() == "ok"
