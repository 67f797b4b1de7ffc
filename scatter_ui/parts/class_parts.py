"""A class, from Practice's side: the store through st.connection, starting a class, and the student's class mode.

A student's link is ``/practice?class=CODE``. The page reads the class's set and mode from the store (never from
the link), asks for a display name, and adds ``student=ID`` to the URL: a page reopened on another replica finds
the student and their answers in the database. In a class every answer goes through the store, which grades it
with scatter_practice's grader and commits it before the page says it is saved. Wrong class codes count against
this browser session in the database (``client``), so every replica sees them.
"""

from __future__ import annotations

import time

import streamlit as st

import scatter_core as sc
from scatter_practice import classroom

from scatter_ui.figures.text import md

STATE = "practice:class"  # {"code", "student", "name", "error", "saved", "unsaved"} while the page is in a class
CONNECTION = "scatter_class"
MARKS = {"right": "✓ right", "allowed": "≈ allowed", "wrong": "✗ wrong", "in progress": "… in progress",
         None: "not yet"}


def store() -> classroom.ClassStore:
    """The class store through Streamlit's SQL connection (one engine a process, made on first use)."""
    url = classroom.store_url()
    conn = st.connection(CONNECTION, type="sql", url=url, **classroom.engine_options(url))
    return classroom.ClassStore(conn.engine)


def client() -> str:
    """This browser session, for the guessed-code rate limit (kept in the database, seen by every replica)."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        return f"session:{ctx.session_id}" if ctx else "session:?"
    except Exception:  # noqa: BLE001 - bare runs
        return "session:?"


def link(address: str, path: str) -> str:
    """``path`` (with its query) under the public ``address``, else under this browser's address."""
    if address:
        return address.rstrip("/") + path
    try:
        base = (st.context.url or "").split("?")[0].rsplit("/", 1)[0]
    except Exception:  # noqa: BLE001 - no URL in bare/AppTest runs
        base = ""
    return base + path


# -- the teacher, on Practice -----------------------------------------------------------------------------------------
def start_panel(set_seed: int, level: int, n: int, mode: str, address: str) -> None:
    """'Start a class' in Practice's share panel: a class on this set and mode, and its two links."""
    ss = st.session_state
    if ss.get(STATE):  # a student's page of a class
        return
    started = ss.get("practice:class-started")
    st.markdown("**Run it as a class**")
    st.caption(f"Students open a link with a short class code, type a display name and work these {n} exercises "
               f"in {mode}; you see every answer live on the class page. Answers are kept on this server until "
               f"{int(classroom.retention())} days after the class ends (or until you delete them).")
    if st.button("Start a class with this set", key="practice:class-start", use_container_width=True):
        try:
            info = store().start(level, n, set_seed, mode)
        except sc.ScatterError as exc:
            st.error(md(exc), icon="🛑")
        else:
            started = ss["practice:class-started"] = {"code": info.code, "student": info.student_path,
                                                       "teacher": info.teacher_path}
    if started:
        st.success(f"Class {started['code']} started.", icon="✅")
        st.caption("Students' link (share it, or give them the code):")
        st.code(link(address, started["student"]), language=None, wrap_lines=True)
        st.caption("Your link to the class page. It holds the teacher key: keep it to yourself.")
        st.code(link(address, started["teacher"]), language=None, wrap_lines=True)
        st.link_button("Open the class page", started["teacher"], use_container_width=True)


# -- the student ---------------------------------------------------------------------------------------------------
def in_class() -> bool:
    state = st.session_state.get(STATE)
    return bool(state and state.get("student") and not state.get("error"))


def read_url(params, ss, key) -> bool:
    """A class link (``class=CODE[&student=ID][&i=I]``): the class's set, level and mode into the page's state
    (``key`` makes Practice's keys). False when the URL names no class."""
    code = params.get("class")
    if code is None:
        ss.pop(STATE, None)
        return False
    state = {"code": str(code)[:20].strip().upper(), "student": None, "name": "", "error": ""}
    ss[STATE] = state
    try:
        the_class = store().lookup(code, client=client())
    except sc.ScatterError as exc:
        state["error"] = str(exc)
        return True
    state["code"] = the_class.code
    sid = params.get("student")
    if the_class.ended is not None:
        state["error"] = f"Class {the_class.code} has ended: it takes no more answers."
        try:  # the student's final score, when the link is theirs
            results = store().results(the_class.code, str(sid or ""))
            right = sum(r in ("right", "allowed") for r in results.values())
            state["error"] += f" You had {right} of {the_class.n} exercises right."
        except sc.ScatterError:
            pass
        return True
    if sid:
        try:
            state["name"] = store().student_name(the_class.code, sid)
            state["student"] = str(sid)
        except sc.ScatterError:
            state["lost"] = True  # an unknown student id: join again
    try:
        at = min(max(int(params.get("i") or 1), 1), the_class.n) - 1
    except ValueError:
        at = 0
    ss[key("set")] = (the_class.seed, the_class.level, the_class.n)
    ss[key("set_index")] = at
    ss[key("level")] = the_class.level
    ss[key("op")] = "any version"
    ss[key("mode")] = the_class.mode
    return True


def url_values() -> dict:
    state = st.session_state.get(STATE)
    if not state:
        return {}
    return {"class": state["code"], **({"student": state["student"]} if state.get("student") else {})}


def gate(key) -> bool:
    """In a class: the class's banner (who, the score so far, the latest saved answer), or the join form, or why
    the link cannot be used. True when the page should stop here (no exercise until the student has joined)."""
    state = st.session_state.get(STATE)
    if not state:
        return False
    if state.get("error"):
        st.error(md(state["error"]), icon="🛑")
        return True
    if not state.get("student"):
        _join_form(state)
        return True
    state["where"] = (int(st.session_state.get(key("set_index"), 0)), st.session_state[key("set")][2])
    # one line (a projector keeps the exercise on screen): redrawn when an answer is saved later in this run
    state["slot"] = st.container(key="practice-class").empty()
    if not _status():
        return True
    _resume_steps(key, state)
    return False


def _resume_steps(key, state: dict) -> None:
    """Step by step, in a new session (another replica, a reload): start the exercise on screen at its first
    step the store has no answer for (Practice's step key of the exercise: ``step:{level}-{seed}-any``)."""
    ss = st.session_state
    if ss.get(key("mode")) != "Step by step":
        return
    from scatter_practice import set_seeds

    seed, level, n = ss[key("set")]
    ex_seed = set_seeds(seed, n)[state["where"][0]]
    step_key = key(f"step:{level}-{ex_seed}-any")
    seen = state.setdefault("seen", set())  # only this session's first view of the exercise
    if step_key not in seen and step_key not in ss and state.get("answered_steps"):
        steps = classroom.exercise_steps(level, seed, n)[state["where"][0]]
        ss[step_key] = next((i for i in range(steps) if i not in state["answered_steps"]), steps)
    seen.add(step_key)


def _status() -> bool:
    """Draw the class's line into this run's slot: who, where, the score (read from the store) and the latest
    saved answer; False on an error."""
    state = st.session_state[STATE]
    at, n = state["where"]
    try:
        progress = store().progress(state["code"], state["student"])
        results = store().results(state["code"], state["student"])
    except sc.ScatterError as exc:
        state["slot"].error(md(exc), icon="🛑")
        return False
    right = sum(r in ("right", "allowed") for r in results.values())
    marks = ", ".join(f"{k + 1} {MARKS[results.get(k)]}" for k in range(n))
    line = (f"**Class {md(state['code'])}** · you are **{md(state['name'])}** · exercise {at + 1} of {n} · "
            f"Your score: **{right} of {n}** right, kept by the class (exercise {marks})")
    with state["slot"].container():
        st.markdown(line + (f" · :material/save: {md(state['saved'])}" if state.get("saved") else ""))
        if state.get("unsaved"):
            st.warning(md(state["unsaved"]), icon="⚠️")
    state["answered_steps"] = {step for (k, step) in progress if k == at and step >= 0}
    return True


def _join_form(state: dict) -> None:
    if state.pop("lost", False):
        st.warning("This link's student is not in the class any more (the teacher may have deleted the class's "
                   "data). Join again below.", icon="🔌")
    st.header(f"Join class {state['code']}")
    st.caption(f"Type the name your teacher should see (at most {classroom.MAX_NAME} characters). No account, no "
               f"e-mail; your answers are kept for this class only.")
    with st.form("practice:class-join", border=False):
        st.text_input("Your name", key="practice:class-name", autocomplete="off")
        joined = st.form_submit_button("Join the class", type="primary")
    if joined:
        try:
            sid = store().join(state["code"], st.session_state.get("practice:class-name") or "", client=client())
        except sc.ScatterError as exc:
            st.error(md(exc), icon="🛑")
            return
        state["student"] = sid
        state["name"] = classroom.clean_name(st.session_state.get("practice:class-name"))
        st.query_params["student"] = sid
        st.rerun()


def _class_index(ex, key) -> int | None:
    """The exercise's index in the class's set, when the page is on the class's set."""
    ss = st.session_state
    if not in_class() or ss.get(key("set")) is None:
        return None
    seed, level, n = ss[key("set")]
    from scatter_practice import set_seeds

    seeds = set_seeds(seed, n)
    return seeds.index(ex.seed) if ex.seed in seeds and ex.level == level else None


def _saved(index: int, what: str, inline: bool) -> None:
    """Say the answer is saved (the store has committed it). ``inline``: graded while the page draws, after the
    banner: redraw its slot now (a callback's answer shows on the run that follows it)."""
    state = st.session_state[STATE]
    state["saved"] = f"Saved for the class: your {what} of exercise {index + 1} at {time.strftime('%H:%M:%S')}"
    state["unsaved"] = ""
    if inline and state.get("slot") is not None:
        _status()


def _unsaved(exc: Exception, inline: bool) -> None:
    state = st.session_state[STATE]
    state["unsaved"] = f"Your answer was graded here but NOT saved for the class: {exc}"
    state["saved"] = ""
    if inline and state.get("slot") is not None:
        _status()


def grade_step(ex, step: int, target, value, key, *, after_reveal: bool = False):
    """Practice's grade_step; in a class, graded and stored by the store (``after_reveal``: stored, never scored)."""
    import scatter_practice as sp

    index = _class_index(ex, key)
    if index is not None:
        state = st.session_state[STATE]
        try:
            fb = store().answer_step(state["code"], state["student"], index, step, target, value,
                                     revealed=after_reveal)
        except sc.ScatterError as exc:
            _unsaved(exc, inline=False)
        else:
            _saved(index, f"step {step + 1}", inline=False)
            return fb
    return sp.grade_step(ex, step, target, value, after_reveal=after_reveal)


def grade_output(ex, output, key, *, after_reveal: bool = False):
    """Practice's grade_output; in a class, graded and stored by the store (the same answer twice is stored once;
    ``after_reveal``: stored, never scored)."""
    import numpy as np

    import scatter_practice as sp

    index = _class_index(ex, key)
    if index is not None:
        state = st.session_state[STATE]
        last = state.setdefault("last", {})
        if index in last and last[index][2] == after_reveal and np.array_equal(last[index][0], output):
            return last[index][1]
        try:
            fb = store().answer(state["code"], state["student"], index, np.asarray(output), revealed=after_reveal)
        except sc.ScatterError as exc:
            _unsaved(exc, inline=True)
        else:
            last[index] = (np.array(output), fb, after_reveal)
            _saved(index, "output", inline=True)
            return fb
    return sp.grade_output(ex, output, after_reveal=after_reveal)
