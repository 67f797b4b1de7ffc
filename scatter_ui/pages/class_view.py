"""The teacher's view of a class (``/class?code=CODE&key=KEY``), live.

Students × exercises, each cell right, allowed by the spec, wrong, in progress or not started; per exercise the
share right and the misconceptions named, with counts; who has not answered for a while; a projector mode that
hides names; a CSV export of every answer; an end to the class and deleting its data. The live part is an
``st.fragment`` on a timer (never a page reload). Names are the students' own text: shown only in dataframes and
through ``md`` (never read as Markdown or HTML). All data comes from ``scatter_practice.classroom``.
"""

from __future__ import annotations

import csv
import io
import time

import pandas as pd
import streamlit as st

import scatter_core as sc
import scatter_practice as sp
from scatter_practice import classroom

from scatter_ui.parts.class_parts import client, link, store
from scatter_ui.parts.controls import page_style
from scatter_ui.figures.text import md

REFRESH_S = 2.0
IDLE_CHOICES = (2, 5, 10, 20)  # minutes
SHOWN = {"right": "✓ right", "allowed": "≈ allowed", "wrong": "✗ wrong", "in progress": "… in progress",
         None: "· not started"}
# text on a pale ground, both set (AA contrast in the light and the dark theme alike)
COLOURS = {"right": ("#0b3d17", "#d3f3da"), "allowed": ("#0b2f5c", "#d6e8fb"), "wrong": ("#5c0b0b", "#fadcdc"),
           "in progress": ("#4a3800", "#fbefc8"), None: ("#333333", "#eeeeee")}
CSS = """/* the live part is redrawn every REFRESH_S s: its last frame stays at full contrast meanwhile (Streamlit fades
   what a slow run has not redrawn yet, which would dim the whole view every few seconds on a busy server) */
.st-key-class-live [data-stale="true"] { opacity: 1 !important; transition: none !important; }
.st-key-class-code p { font-size: 1.6rem; font-weight: 700; letter-spacing: 0.15em; margin: 0; }
@media (max-height: 820px) and (min-width: 700px) {
  [data-testid="stMainBlockContainer"] { padding: 3.25rem 2rem 3rem; }
  [data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] { gap: 0.4rem; }
  [data-testid="stMainBlockContainer"] h1 { font-size: 2rem; padding: 0 0 0.25rem; }
  [data-testid="stMainBlockContainer"] h2 { font-size: 1.35rem; padding: 0.5rem 0 0.3rem; }
}"""


def _key() -> tuple[str, str]:
    params = st.query_params
    return str(params.get("code") or "").strip().upper()[:20], str(params.get("key") or "")[:200]


def _sign_in() -> None:
    """No (valid) class in the URL: type the class code and the teacher key."""
    st.caption("Open the teacher link you got when you started the class on Practice (Share a set · Run it as a "
               "class), or type its class code and teacher key here.")
    with st.form("class-sign-in", border=False):
        code = st.text_input("Class code", key="class:code", autocomplete="off")
        key = st.text_input("Teacher key", key="class:key", type="password", autocomplete="off")
        if st.form_submit_button("Open the class", type="primary"):
            st.query_params.from_dict({"code": code.strip().upper()[:20], "key": key.strip()[:200]})
            st.rerun()


def cell_table(summary: classroom.ClassSummary, names: list[str]) -> pd.DataFrame:
    """One row a student, one column an exercise, each cell its state in words; then the score and last answer."""
    now = time.time()
    rows = []
    for sid, name in zip(summary.student_ids, names):
        row = {"Student": name}
        for k in range(summary.n):
            row[f"Ex {k + 1}"] = SHOWN[summary.cells.get((sid, k))]
        row["Right"] = sum(summary.cells.get((sid, k)) in ("right", "allowed") for k in range(summary.n))
        row["Last active"] = _ago(now - summary.last_answer.get(sid, now))
        rows.append(row)
    return pd.DataFrame(rows, columns=["Student", *(f"Ex {k + 1}" for k in range(summary.n)), "Right",
                                       "Last active"])


def _ago(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds} s ago" if seconds < 90 else f"{seconds // 60} min ago"


def _style(frame: pd.DataFrame):
    by_text = {text: COLOURS[state] for state, text in SHOWN.items()}

    def colour(v):
        fg, bg = by_text.get(v, (None, None))
        return f"color: {fg}; background-color: {bg}" if fg else ""

    return frame.style.map(colour)


def exercise_lines(summary: classroom.ClassSummary) -> list[str]:
    """Per exercise, in words: the share right, the other counts, the misconceptions named with counts."""
    lines = []
    for e in summary.exercises:
        done = e.answered
        share = f"{e.right + e.allowed} of {done} right ({round(100 * (e.right + e.allowed) / done)}%)" if done \
            else "no answer yet"
        parts = [share]
        if e.allowed:
            parts.append(f"{e.allowed} of them allowed by the spec, not the loop order's answer")
        if e.wrong:
            parts.append(f"{e.wrong} wrong")
        if e.in_progress:
            parts.append(f"{e.in_progress} in progress")
        named = "; ".join(f"{md(sp.BY_KIND[kind].title if kind in sp.BY_KIND else kind)} ×{count}"
                          for kind, count in e.misconceptions.items())
        lines.append(f"**Exercise {e.index + 1}**: {'; '.join(parts)}."
                     + (f" Misconceptions: {named}." if named else ""))
    return lines


def idle_students(summary: classroom.ClassSummary, minutes: int, names: list[str]) -> list[tuple[str, int]]:
    """(name, minutes) of the students who have not finished and have not answered for ``minutes`` or more."""
    now = time.time()
    out = []
    for sid, name in zip(summary.student_ids, names):
        done = all(summary.cells.get((sid, k)) in ("right", "allowed", "wrong") for k in range(summary.n))
        idle = (now - summary.last_answer.get(sid, now)) / 60
        if not done and idle >= minutes:
            out.append((name, int(idle)))
    return out


def answers_csv(code: str, key: str) -> bytes:
    """Every answer of the class as CSV (time in UTC, student, exercise, step, try, scored, result, kinds, answer)."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["time_utc", "student", "exercise", "step", "try", "scored", "result", "misconceptions", "answer"])
    for a in store().answers(code, key, client=client()):
        name = a.student if not a.student[:1] in "=+-@\t\r" else "'" + a.student  # no formula in a spreadsheet
        w.writerow([time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(a.at)), name, a.exercise + 1,
                    "" if a.step is None else a.step + 1, a.try_no, a.scored, a.result, " ".join(a.kinds), a.answer])
    return buf.getvalue().encode("utf-8")


@st.fragment(run_every=REFRESH_S)
def live(code: str, key: str) -> None:
    """The live part: read the class again every REFRESH_S seconds and draw it."""
    with st.container(key="class-live"):
        _live(code, key)


def _live(code: str, key: str) -> None:
    ss = st.session_state
    try:
        summary = store().summary(code, key, client=client())
    except sc.ScatterError as exc:
        st.error(md(exc), icon="🛑")
        return
    projector = bool(ss.get("class:projector"))
    names = [f"Student {i + 1}" for i in range(len(summary.students))] if projector else list(summary.students)
    n_students = len(names)
    st.caption(f"{n_students} student{'s' if n_students != 1 else ''} · updated {time.strftime('%H:%M:%S')} "
               f"(every {REFRESH_S:g} s)")
    if summary.ended is not None:
        st.info(f"This class ended at {time.strftime('%H:%M', time.localtime(summary.ended))}. Its data will be "
                f"deleted on {time.strftime('%Y-%m-%d', time.localtime(summary.delete_at))}.", icon="🏁")
    st.header("Each student's answers")
    if not n_students:
        st.caption("No student has joined yet.")
    else:
        frame = cell_table(summary, names)
        st.dataframe(_style(frame), hide_index=True, key="class-cells")
        idle = idle_students(summary, int(ss.get("class:idle", IDLE_CHOICES[1])), names)
        if idle:
            who = "; ".join(f"{md(name)} ({minutes} min)" for name, minutes in idle)
            st.warning(f"No answer for {ss.get('class:idle', IDLE_CHOICES[1])} minutes or more: "
                       + (f"{len(idle)} student(s)" if projector else who) + ".", icon=":material/hourglass_empty:")
    st.header("Each exercise")
    for line in exercise_lines(summary):
        st.markdown(line)


def _end(code: str, key: str) -> None:
    try:
        store().end(code, key, client=client())
    except sc.ScatterError as exc:
        st.session_state["class:action-error"] = str(exc)


def _delete(code: str, key: str) -> None:
    try:
        store().delete(code, key, client=client())
    except sc.ScatterError as exc:
        st.session_state["class:action-error"] = str(exc)
    else:
        st.session_state["class:deleted"] = code
        st.query_params.clear()


def controls(code: str, key: str, info: classroom.PublicClass) -> None:
    st.toggle("Projector mode: hide names", key="class:projector", width="content",
              help="Students are numbered instead of named, for discussing the class's answers on the wall.")
    st.selectbox("Flag a student after", IDLE_CHOICES, index=1, key="class:idle", width=280,
                 label_visibility="collapsed", format_func=lambda m: f"Flag after {m} min without an answer")
    st.download_button("⬇ Every answer (CSV)", lambda: answers_csv(code, key), file_name=f"class-{code}.csv",
                       mime="text/csv", key="class:csv", on_click="ignore", width="content")
    if info.ended is None:
        with st.popover("End the class", width="content"):
            st.caption("Students can no longer join or answer; you keep this view and the CSV until the data is "
                       f"deleted, {classroom.retention():g} days after the end.")
            st.button("Yes, end the class now", key="class:end", on_click=_end, args=(code, key), type="primary")
    with st.popover("Delete the class's data", width="content"):
        st.caption("Deletes the class, its students' names and every answer now. This cannot be undone.")
        st.button("Yes, delete everything now", key="class:delete", on_click=_delete, args=(code, key))


def _address() -> str:
    """The app's public address from ``SCATTER_EXPLORER_PUBLIC_URL`` ("" when unset or invalid: the browser's)."""
    import os

    try:
        return sp.public_address(os.environ.get(sp.PUBLIC_URL_ENV, "")) if os.environ.get(sp.PUBLIC_URL_ENV) else ""
    except sc.ScatterError:
        return ""


def render_page() -> None:
    page_style("class", CSS)
    st.title("Class")
    ss = st.session_state
    if ss.get("class:deleted") and not st.query_params.get("code"):
        st.success(f"Class {ss.pop('class:deleted')} and all its answers were deleted.", icon="🗑️")
    code, key = _key()
    if not code or not key:
        _sign_in()
        return
    try:
        summary = store().summary(code, key, client=client())
    except sc.ScatterError as exc:
        st.error(md(exc), icon="🛑")
        _sign_in()
        return
    info = store().lookup(code, client=client())
    if ss.get("class:action-error"):
        st.error(md(ss.pop("class:action-error")), icon="🛑")
    st.markdown(f"Level {summary.level} · {summary.n} exercises · {md(summary.mode)} · set {summary.seed}")
    code_box, link_box = st.columns([1, 3], vertical_alignment="top")
    with code_box:
        st.caption("Students join with the class code")
        st.container(key="class-code").markdown(md(summary.code))
    with link_box:
        st.caption("or at this link:")
        st.code(link(_address(), f"/practice?class={summary.code}"), language=None, wrap_lines=True)
    with st.container(horizontal=True, vertical_alignment="center", key="class-controls"):
        controls(code, key, info)
    live(code, key)


def render() -> None:
    """Render the class page; never lets an exception reach the teacher as a traceback."""
    try:
        render_page()
    except Exception as exc:  # noqa: BLE001 - last line of defence: a message, never a traceback
        st.error(f"Something went wrong while drawing this page ({type(exc).__name__}: {md(exc)}).", icon="🛑")
