"""The Practice page: predict each write (or the whole output), then see it, with feedback that names the mistake.

Modes: step by step (click the target cell on the output heatmap of the
explorer's step player, or type its index, and type the value; the step is then
revealed on the same player with its caption and the misconception, if any),
whole output (a grid for rank <= 2,
text for any rank; wrong cells outlined with their chains of writes) and
multiple choice (distractors from ``scatter_practice.MISCONCEPTIONS``).

A shared set comes from the URL: ``?set=SEED&level=L&n=N`` gives every student
the same N exercises; the worksheet downloads print them (a student sheet and an answer key, HTML
or PDF), with the set's link and QR code once a public address is set (``public_address``).
Progress (streak, per-level score, misconceptions met) lives in the session.
All logic is in ``scatter_practice``; this module reads widgets and renders.
"""

from __future__ import annotations

import re
import secrets

import numpy as np
import streamlit as st

import scatter_core as sc
import scatter_practice as sp
import spec_examples
from scatter_core import fmt_value

from scatter_ui.parts import class_parts
from scatter_ui.parts import controls
from scatter_ui.parts import grids
from scatter_ui.parts import session
from scatter_ui.parts.controls import md, spec_link
from scatter_ui.figures.heatmaps import StepFigure, comparison_figure, value_range
from scatter_ui.parts.controls import theme_is_dark
from scatter_ui.player.component import player

PREFIX = "practice"
URL_PATH = "practice"
MODES = ("Step by step", "Whole output", "Multiple choice")
ANY_OP = "any version"
LETTERS = "ABCDEFGH"
CHOSEN = "#2b8a3e"  # outline of the cell the student picked
MAX_SEED_SHOWN = 999_999  # seeds drawn for a new exercise (any seed up to MAX_SEED can be typed)
MAX_TEXT = 20_000  # characters of a typed output
MAX_TARGET_TEXT = 60  # characters of a typed target cell
MAX_VALUE_TEXT = 100  # characters of a typed value (room for every digit of a float64)
OUTPUT_LABEL = "Output: one row a line (spaces or commas between the numbers), or nested lists"
# A projector (1280x720) shows the question, the figure and the answer on one screen: on a short, wide window the
# page's margins and gaps shrink (wider cells too) and the intro line, said once, goes. Only this page's own
# layout: Streamlit's block container, its gaps, this page's title and its keyed intro container.
PROJECTOR_CSS = """@media (max-height: 820px) and (min-width: 700px) {
  [data-testid="stMainBlockContainer"] { padding: 3.25rem 2rem 3rem; }
  [data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] { gap: 0.3rem; }
  [data-testid="stMainBlockContainer"] h1 { font-size: 2rem; padding: 0 0 0.25rem; }
  [data-testid="stMainBlockContainer"] h2,
  [data-testid="stMainBlockContainer"] h3 { font-size: 1.35rem; padding: 0.5rem 0 0.3rem; }
  .st-key-practice-intro { display: none; }
  /* the level's words whole (a second line where they need it: the player fits its cells to the room left) */
  .st-key-practice-about [data-testid="stCaptionContainer"] p { line-height: 1.3; }
}
/* the level's words and the spec link on one line where the window is wide: the words wrap beside the link */
@media (min-width: 700px) {
  .st-key-practice-about { flex-wrap: nowrap; }
  .st-key-practice-about > * { min-width: 0; }
}
"""
# the player's controls here: the steps done can be replayed (no "go to" or speed for a handful of steps); before
# the first step there is nothing to step to: a still picture (the explorer exports frames), one screen row saved
STEPPING = ("first", "prev", "play", "next", "last", "slider", "count", "export", "keys")
STILL = ()
HINT_LABELS = ("Hint: which cells?", "Stronger hint: which values compete?", "Show the answer")
FEEDBACK_KEY = "practice-feedback"  # the container of what a Check says: focus moves to it after a Check
TARGET_SELECTOR = "input[aria-label^='Target cell']"  # focus moves to the next step's target box
# the target box's placeholder names the coordinates (a number there would look like an answer)
TARGET_PLACEHOLDER = {1: "position", 2: "row, column", 3: "i, j, k"}
TARGET_HELP = {2: "Row first, then column, e.g. typed as two numbers with a comma or a space between them.",
               3: "Three numbers, outermost first."}


def k(name: str) -> str:
    return session.key(PREFIX, name)


@st.cache_resource(max_entries=256, show_spinner=False)
def exercise(seed: int, level: int, op: str | None) -> sp.Exercise:
    """One exercise, shared read-only by every session (its arrays are read-only)."""
    return sp.make_exercise(seed, level, op)


def explorer_link(kind: str) -> str:
    """A link opening the catalogue's spec example for ``kind`` in its family's explorer."""
    ex = spec_examples.by_id(sp.BY_KIND[kind].example)
    return session.share_link(sc.family_of(sc.OPERATORS[ex.op]).slug, {"op": ex.op, "example": ex.id})


# -- the figures: the explorer's step player ------------------------------------------------------------------------
def step_figure(ex: sp.Exercise, frame: int) -> tuple[dict, object]:
    """The player's figure (indices, updates, output) after ``frame`` steps, and its output view. It holds the
    frames 0..frame and ends there: the student can replay the steps done, never play into the ones to predict."""
    sf = StepFigure(ex.trace)
    fig = sf.figure(frame, window=(0, frame))
    fig["n"] = frame
    # the colour bar spans only the values on screen: the whole trace's range would tell the answer's
    fig["layout"]["coloraxis"]["cmin"], fig["layout"]["coloraxis"]["cmax"] = value_range(ex.trace, frame)
    return fig, sf.views_for(frame)[2]


def outline(fig: dict, view, cell: tuple[int, ...]) -> None:
    """Outline the output cell the student picked (dotted green), on the figure and its one frame."""
    rows, cols, visible = view.locate(np.array([cell]))
    if not visible.any():
        return
    r, c = int(rows[0]), int(cols[0])
    shape = dict(type="rect", xref="x3", yref="y3", x0=c - 0.5, x1=c + 0.5, y0=r - 0.5, y1=r + 0.5, layer="above",
                 line=dict(color=CHOSEN, width=3, dash="dot"))
    fig["layout"]["shapes"] = list(fig["layout"].get("shapes", [])) + [shape]
    for frame in fig["frames"]:
        frame["layout"]["shapes"] = list(frame["layout"].get("shapes", [])) + [shape]


def show_step_figure(ex: sp.Exercise, frame: int, key: str, on_cell=None,
                     chosen: tuple[int, ...] | None = None, room_below: int | None = None) -> None:
    """The step on the explorer's player; ``on_cell(coords)`` is called when the student clicks an output cell;
    ``room_below``: the px of the answer drawn under it, kept on screen on a projector (the player's option)."""
    fig, view = step_figure(ex, frame)
    if chosen is not None:
        outline(fig, view, chosen)
    player(fig, key=key, view=f"{key}:{chosen}", step=frame, name=f"practice-{ex.op}", on_cell=on_cell,
           controls=STEPPING if frame else STILL, room_below=room_below, steps=ex.steps)


def show_inputs(ex: sp.Exercise, key: str, room_below: int) -> None:
    show_step_figure(ex, 0, key, room_below=room_below)


# On a projector (a window at most 820 px tall) the player fits its cells so that the answer under it stays on screen:
# the px each mode draws there (PROJECTOR_CSS's gaps; measured at 1280x720, with a few px to spare).
STEP_FORM_PX = 80  # the target and value boxes with their labels, Check beside them
GRID_PX = 112  # the "Enter the output as" line and the grid's header row (the grid's rows are ROW_PX each), with 12 px
#                 to spare: the line above the question may sit 14 px lower (seen on Python 3.13's CI run: 725.5 px)
ROW_PX = 28  # grid_input's row height
TEXT_BOX_PX = 200  # the text box (120 px) with its label, under the same line
SHORT_BOX_PX = 68  # the text box of a rank-3 output (Streamlit's least: two lines), which has no such line
SHORT_TEXT_PX = 110  # that box with its label
OPTIONS_PX = 60  # multiple choice: the question's line with its Check under the options (grids.options_height)
MAIN_PX = 910  # the page's width at 1280x720 with the sidebar open (914 px): where the options wrap


def answer_px(ex: sp.Exercise, mode: str, eid: str) -> int:
    """How tall the answer under the figure is in ``mode`` at 1280x720 (the room the player keeps for it)."""
    if mode == "Step by step":
        return STEP_FORM_PX
    if mode == "Whole output":  # the grid, or the text box (outputs of rank 3, or the student's choice)
        rows = ex.answer.shape[0] if ex.answer.ndim == 2 else 1
        grid = ex.answer.ndim <= 2 and st.session_state.get(k(f"how:{eid}"), "grid") == "grid"
        if grid:
            return GRID_PX + ROW_PX * rows
        return TEXT_BOX_PX if ex.answer.ndim <= 2 else SHORT_TEXT_PX
    return OPTIONS_PX + grids.options_height([c.output for c in sp.choices(ex)], MAIN_PX)


# -- session state ----------------------------------------------------------------------------------------
def _int(text, low: int, high: int) -> int | None:
    try:
        value = int(str(text))
    except (TypeError, ValueError):
        return None
    return value if low <= value <= high else None


URL_NAMES = ("set", "level", "n", "i", "seed", "op", "mode", "answered", "class", "student")
MAX_ANSWERED = 1_000_000  # the largest count of checked answers the URL's "answered" is read as


def _url_signature(params) -> tuple:
    return tuple(sorted((name, params.get(name)) for name in URL_NAMES))


def read_url() -> None:
    """On a new URL: a shared set (?set=SEED&level=L&n=N[&i=I]) or one exercise (?seed=S&level=L[&op=...]).

    The URL carries where the student is (the set and which of its exercises, or the exercise; the level; the
    mode) and how many answers this session has checked (``answered``), so that a new session (the class
    server lost the student's replica, or the page opened in another tab) reopens the same exercise and can
    say plainly that the answers and the score, which lived in the old session, did not come along."""
    ss = st.session_state
    params = st.query_params
    sig = _url_signature(params)
    kept = k("mode") in ss  # gone once a run of another page did not draw this page's widgets: read the URL again
    if kept and (ss.get(k("_url")) == sig or session.echoes_own_url(PREFIX, sig)):
        return
    ss[k("_url")] = sig
    given = {name: str(params.get(name)) for name in URL_NAMES if name in params}
    ignored = {}  # the link's values this page cannot use, and why: named once in a notice (url_notice)
    ss[session.key(PREFIX, "_url_given")], ss[session.key(PREFIX, "_url_ignored")] = given, ignored
    ss[session.key(PREFIX, "_url_checked")] = True
    if class_parts.read_url(params, ss, k):  # a class link: the class's set and mode, from the class store
        return
    level = _int(params.get("level"), 1, 5)
    if "level" in given and level is None:
        ignored["level"] = f"not a level ({min(sp.LEVELS)}..{max(sp.LEVELS)})"
    mode = params.get("mode")
    if mode in MODES:
        ss[k("mode")] = mode
    elif "mode" in given:
        ignored["mode"] = f"not a mode of this page ({', '.join(MODES)})"
    max_set = sp.exercises.MAX_SEED // 1000
    set_seed = _int(params.get("set"), 0, max_set)
    if "set" in given and set_seed is None:
        ignored["set"] = f"not a set number (0..{max_set:,})"
    _read_answered(given, ignored)
    if set_seed is not None:
        n = _int(params.get("n"), 1, sp.MAX_SET)
        if "n" in given and n is None:
            ignored["n"] = f"not a number of exercises (1..{sp.MAX_SET})"
        ignored.update({name: "a shared set picks its own exercises" for name in ("seed", "op") if name in given})
        at = _int(params.get("i"), 1, n or 5)
        if "i" in given and at is None:
            ignored["i"] = f"not an exercise of this set (1..{n or 5})"
        ss[k("set")] = (set_seed, level or 1, n or 5)
        ss[k("set_index")] = (at or 1) - 1
        ss[k("level")] = level or 1
        ss[k("op")] = ANY_OP
        return
    ignored.update({name: "used only with a set number (set=...)" for name in ("n", "i") if name in given})
    seed = _int(params.get("seed"), 0, sp.exercises.MAX_SEED)
    if "seed" in given and seed is None:
        ignored["seed"] = f"not a seed (0..{sp.exercises.MAX_SEED:,})"
    if level is not None:
        ss[k("level")] = level
    op = params.get("op")
    if op in sc.OPERATORS and ss.get(k("level"), 1) in sp.levels_for(op):
        ss[k("op")] = op
    elif "op" in given:
        ignored["op"] = ("not an operator version" if op not in sc.OPERATORS else
                         f"{op} has no exercises at level {ss.get(k('level'), 1)}")
    if seed is not None:
        ss[k("set")] = None
        ss[k("seed")] = seed


def _read_answered(given: dict, ignored: dict) -> None:
    """The URL's count of answers checked, read by a session that has checked none: they stayed in the
    session that checked them (:func:`lost_progress` says so)."""
    if "answered" not in given:
        return
    count = _int(given["answered"], 0, MAX_ANSWERED)
    if count is None:
        ignored["answered"] = f"not a count of answers (0..{MAX_ANSWERED:,})"
    elif count and not answered():
        st.session_state[k("lost_answers")] = count


def answered() -> int:
    """How many answers this session has checked (every level)."""
    p = st.session_state.get(k("progress")) or {}
    return sum(tried for _, tried in p.get("levels", {}).values())


def write_url() -> None:
    """Mirror the exercise on screen into the URL, so a copied link reopens it (and remember it as read)."""
    ss = st.session_state
    if ss[k("set")] is not None:
        set_seed, level, n = ss[k("set")]
        values = {"set": set_seed, "level": level, "n": n, "i": int(ss.get(k("set_index"), 0)) + 1}
    else:
        seed, level, op = current()
        values = {"seed": seed, "level": level, **({"op": op} if op else {})}
    values["mode"] = ss[k("mode")]
    if answered() and not class_parts.in_class():  # a class's answers are in the class store
        values["answered"] = answered()
    values.update(class_parts.url_values())
    values = {name: str(v) for name, v in values.items()}
    if {name: st.query_params.get(name) for name in URL_NAMES if name in st.query_params} != values:
        st.query_params.from_dict(values)
    ss[k("_url")] = _url_signature(values)
    session.remember_own_url(PREFIX, ss[k("_url")])


def lost_progress() -> None:
    """Say plainly, until the student checks an answer here or dismisses it, what a new session could not
    bring along from the URL: the answers and the score (they lived in the session that checked them)."""
    ss = st.session_state
    lost = ss.get(k("lost_answers"))
    if not lost or answered():
        ss.pop(k("lost_answers"), None)
        return
    box = st.container(border=True)
    box.warning(f"This page was reopened in a new session (the server holding it restarted or was replaced, or "
                f"this is another tab). Your place came along: the same exercise, level and mode. Your {lost:,} "
                f"checked answer{'s' if lost != 1 else ''} and your score did not; they lived only in the old "
                f"session. The score starts again here.", icon="🔌")
    box.button("Dismiss", key=k("lost_dismiss"), on_click=lambda: ss.pop(k("lost_answers"), None))


def defaults() -> None:
    ss = st.session_state
    ss.setdefault(k("mode"), MODES[0])
    ss.setdefault(k("level"), 1)
    ss.setdefault(k("op"), ANY_OP)
    ss.setdefault(k("set"), None)
    ss.setdefault(k("seed"), secrets.randbelow(MAX_SEED_SHOWN + 1))
    ss.setdefault(k("progress"), {"streak": 0, "best": 0, "levels": {}, "met": {}})


def current() -> tuple[int, int, str | None]:
    """(seed, level, op) of the exercise on screen."""
    ss = st.session_state
    if ss[k("set")] is not None:
        set_seed, level, n = ss[k("set")]
        i = min(max(int(ss.get(k("set_index"), 0)), 0), n - 1)
        return sp.set_seeds(set_seed, n)[i], level, None
    op = ss[k("op")]
    return int(ss[k("seed")]), int(ss[k("level")]), None if op == ANY_OP else op


def record(level: int, correct: bool, kinds=()) -> None:
    """One graded answer into the session's progress."""
    p = st.session_state[k("progress")]
    right, tried = p["levels"].get(level, (0, 0))
    p["levels"][level] = (right + int(correct), tried + 1)
    p["streak"] = p["streak"] + 1 if correct else 0
    p["best"] = max(p["best"], p["streak"])
    for kind in kinds:
        p["met"][kind] = p["met"].get(kind, 0) + 1


def record_after_reveal() -> None:
    """An answer checked after the answer was shown: counted as such, never in the score or the streak."""
    p = st.session_state[k("progress")]
    p["after_reveal"] = p.get("after_reveal", 0) + 1


def focus_next(selector: str) -> None:
    """Ask the page to move keyboard focus to ``selector`` (one of this module's constants) once it is drawn:
    a Check or Next step replaces the button pressed, and focus would fall to the page's body."""
    ss = st.session_state
    ss[k("focus")] = (selector, int((ss.get(k("focus")) or ("", 0))[1]) + 1)


def new_exercise() -> None:
    ss = st.session_state
    ss[k("set")] = None
    ss[k("seed")] = secrets.randbelow(MAX_SEED_SHOWN + 1)


def move_in_set(delta: int) -> None:
    ss = st.session_state
    n = ss[k("set")][2]
    ss[k("set_index")] = min(max(int(ss.get(k("set_index"), 0)) + delta, 0), n - 1)


def leave_set() -> None:
    st.session_state[k("set")] = None


def on_level() -> None:
    ss = st.session_state
    if ss[k("op")] != ANY_OP and ss[k("level")] not in sp.levels_for(ss[k("op")]):
        ss[k("op")] = ANY_OP


def set_link(set_seed: int, level: int, n: int, mode: str | None = None) -> str:
    """The set's link on this browser's address, in ``mode`` when given (a set shared from Whole output opens
    in Whole output)."""
    from urllib.parse import urlencode

    base = session.share_link(URL_PATH, {}).split("?")[0]
    return f"{base}?{urlencode({'set': set_seed, 'level': level, 'n': n, **({'mode': mode} if mode else {})})}"


# -- the sidebar ---------------------------------------------------------------------------------------------
def sidebar(seed: int, level: int) -> None:
    ss = st.session_state
    with st.sidebar:
        st.radio("Mode", MODES, key=k("mode"), disabled=class_parts.in_class(),
                 help="Step by step: predict each write. Whole output: fill the output grid. Multiple choice: "
                      "pick the right output among outputs made from common misconceptions.")
        if ss[k("set")] is not None:
            set_seed, set_level, n = ss[k("set")]
            i = int(ss.get(k("set_index"), 0))
            st.markdown(f"**Shared set {set_seed}** · level {set_level} · exercise {i + 1} of {n}")
            c1, c2 = st.columns(2)
            c1.button("◀ previous", key=k("set_prev"), on_click=move_in_set, args=(-1,), disabled=i == 0,
                      use_container_width=True)
            c2.button("next ▶", key=k("set_next"), on_click=move_in_set, args=(1,), disabled=i >= n - 1,
                      use_container_width=True)
            st.button("Leave the set (free practice)", key=k("leave"), on_click=leave_set)
        else:
            st.selectbox("Level", list(sp.LEVELS), key=k("level"), on_change=on_level,
                         format_func=lambda lv: f"{lv}: {sp.LEVELS[lv]}")
            ops = [ANY_OP] + [name for name in sc.OPERATORS if ss[k("level")] in sp.levels_for(name)]
            if ss[k("op")] not in ops:
                ss[k("op")] = ANY_OP
            st.selectbox("Operator version", ops, key=k("op"))
            st.number_input("Exercise number (seed)", min_value=0, max_value=sp.exercises.MAX_SEED, step=1,
                            key=k("seed"), help="The same number, level and version give the same exercise "
                                                "on every machine.")
            st.button("New exercise", key=k("new"), on_click=new_exercise, use_container_width=True)
        share_and_print(seed, level)
        progress()


def public_address() -> tuple[str, str, str]:
    """(the app's public address, where it was set, an error) for the set's link on worksheets.

    The first source that is set wins: the field on this page (this session), the environment variable
    ``SCATTER_EXPLORER_PUBLIC_URL``, then Streamlit's own ``browser.serverAddress`` (``[browser]`` in
    ``.streamlit/config.toml``, ``--browser.serverAddress`` or ``STREAMLIT_BROWSER_SERVER_ADDRESS``), with
    ``browser.serverPort`` and ``server.baseUrlPath``. A source that is set but invalid gives no address and an
    error naming it (the next source is not tried: the teacher meant that one)."""
    import os

    typed = str(st.session_state.get(k("public_url")) or "").strip()
    env = os.environ.get(sp.PUBLIC_URL_ENV, "").strip()
    for text, where in ((typed, "the field on this page"), (env, f"the environment variable {sp.PUBLIC_URL_ENV}"),
                        (_config_address(), "browser.serverAddress in Streamlit's config")):
        if text:
            try:
                return sp.public_address(text), where, ""
            except sc.ScatterError as exc:
                return "", where, f"{exc} (set in {where})"
    return "", "", ""


def _config_address() -> str:
    """Streamlit's browser.serverAddress as a URL ("" when left at its default, localhost): https on port 443,
    else http with the port (browser.serverPort, else server.port), then server.baseUrlPath."""
    host = str(st.get_option("browser.serverAddress") or "").strip()
    if not host or host == "localhost":
        return ""
    host, _, path = host.partition("/")
    port = st.get_option("browser.serverPort") or st.get_option("server.port")
    scheme = "https" if int(port or 0) == 443 else "http"
    shown_port = "" if (scheme, int(port or 0)) in (("https", 443), ("http", 80)) or not port else f":{port}"
    base = "/".join(p for p in (path.strip("/"), str(st.get_option("server.baseUrlPath") or "").strip("/")) if p)
    return f"{scheme}://{host}{shown_port}" + (f"/{base}" if base else "")


def worksheets(exercises: list, title: str, link: str, stem: str) -> None:
    """The four downloads: the student sheet and the answer key, each as HTML and PDF. The PDFs are made when
    clicked (a callable: fpdf2 takes about 0.1 s an exercise), the HTML at once (small and fast)."""
    files = (("Student sheet", "", sp.student_html, sp.student_pdf),
             ("Answer key", "-answer-key", sp.answer_key_html, sp.answer_key_pdf))
    for label, suffix, as_html, as_pdf in files:  # one under the other: the sidebar is too narrow for two labels
        st.download_button(f"⬇ {label} (HTML)", as_html(exercises, title, link), file_name=f"{stem}{suffix}.html",
                           mime="text/html", key=k(f"ws-html{suffix}"), use_container_width=True, on_click="ignore")
        st.download_button(f"⬇ {label} (PDF)", lambda f=as_pdf: f(exercises, title, link),
                           file_name=f"{stem}{suffix}.pdf", mime="application/pdf", key=k(f"ws-pdf{suffix}"),
                           use_container_width=True, on_click="ignore")


def share_and_print(seed: int, level: int) -> None:
    ss = st.session_state
    with st.expander("Share a set · printable worksheet", expanded=ss[k("set")] is not None):
        if ss[k("set")] is not None:
            set_seed, set_level, n = ss[k("set")]
        else:
            set_seed, set_level = seed % (sp.exercises.MAX_SEED // 1000), level
            n = int(st.number_input("Exercises in the set", 1, sp.MAX_SET, 5, key=k("set_n")))
        st.text_input("Public address of this app", key=k("public_url"), max_chars=sp.worksheet.MAX_URL,
                      placeholder="https://scatter.example.edu",
                      help="The address students open the app at. The worksheet's link and QR code use it. Also "
                           f"settable for every session with the environment variable {sp.PUBLIC_URL_ENV}, or as "
                           "serverAddress under [browser] in .streamlit/config.toml; this field comes first.")
        address, where, error = public_address()
        mode = ss[k("mode")] if ss[k("mode")] != MODES[0] else None  # the default mode needs no word in the link
        link = sp.set_link(address, set_seed, set_level, n, mode=mode) if address else ""
        if error:
            st.error(md(error), icon="🛑")
        if link:
            st.caption(md(f"Every student who opens this link gets the same exercises (address from {where}):"))
            st.code(link, language=None, wrap_lines=True)
        else:
            st.caption("Every student who opens this link gets the same exercises. It is this browser's address; "
                       "the worksheets carry a link and a QR code once a public address is set above.")
            here = set_link(set_seed, set_level, n, mode)
            st.code(here, language=None, wrap_lines=True)
            if sp.this_machine_only(here):
                st.warning("Only this machine can open this link: it names localhost, so a student's device "
                           "finds nothing there. Set the public address above (the address students reach this "
                           "app at) to share the set.", icon="⚠️")
        exercises = [exercise(s, set_level, None) for s in sp.set_seeds(set_seed, n)]
        worksheets(exercises, f"Scatter practice · set {set_seed} · level {set_level}",
                   link, f"scatter-practice-set{set_seed}-level{set_level}")
        class_parts.start_panel(set_seed, set_level, n, ss[k("mode")], address)  # not in a class's own page


def progress() -> None:
    p = st.session_state[k("progress")]
    with st.expander("Your progress (this session)", expanded=bool(p["levels"])):
        st.text(f"Streak: {p['streak']} right in a row (best {p['best']})")
        for level in sorted(p["levels"]):
            right, tried = p["levels"][level]
            st.text(f"Level {level}: {right} of {tried} right")
        if p.get("after_reveal"):
            st.text(f"Checked after the answer was shown: {p['after_reveal']} (no score)")
        if p["met"]:
            st.caption("Misconceptions met so far (each opens an explorer example that shows it):")
            for kind, count in p["met"].items():
                st.markdown(f"- [{md(sp.BY_KIND[kind].title)}]({explorer_link(kind)}) ×{count}")


# -- shared pieces of the modes -----------------------------------------------------------------------------------
def show_misconceptions(named) -> None:
    for m in named:
        row = sp.BY_KIND.get(m.kind)
        title = row.title if row else m.kind
        link = f" [▶ see it in the explorer]({explorer_link(m.kind)})" if row else ""
        why = f" {md(row.explanation)}" if row and row.explanation not in m.message else ""
        st.warning(f"**{md(title)}** ({md(m.kind)}): {md(m.message)}{why}{link}", icon="💡")


def show_hints(hints: tuple[str, ...], key: str) -> None:
    ss = st.session_state
    shown = int(ss.get(key, 0))
    if shown < len(hints):
        st.button(HINT_LABELS[shown], key=key + ":btn", on_click=lambda: ss.__setitem__(key, shown + 1))
    for i in range(shown):
        st.info(md(hints[i]), icon="💡")


def grid_text(arr: np.ndarray) -> str:
    return np.array2string(np.asarray(arr), separator=", ", formatter={"all": lambda v: fmt_value(v)})


def within_limit(what: str, text, limit: int) -> str:
    """The typed text, or a ValueError naming the limit when it is longer (the box keeps the text: no box sets
    max_chars, since the browser would drop a longer paste without a word and keep the old text)."""
    text = str(text)
    if len(text) > limit:
        raise ValueError(f"{what}: {len(text):,} characters typed; the limit is {limit:,}")
    return text


def bracketed(text: str, ndim: int) -> str:
    """Rows typed without brackets (``8 45 68`` on a line, spaces or commas between the numbers) as the nested
    list they mean for an output of rank ``ndim``: one line a row, a blank line between a rank-3 output's blocks.
    Text with a bracket is left as typed."""
    if "[" in text or "]" in text or not text.strip():
        return text
    blocks = [[line for line in block.splitlines() if line.strip()] for block in re.split(r"\n\s*\n", text.strip())]

    def row(line: str) -> str:
        return "[" + ", ".join(p for p in re.split(r"[\s,;]+", line.strip()) if p) + "]"

    if ndim <= 1:
        return row(" ".join(line for block in blocks for line in block))
    rows = [[row(line) for line in block] for block in blocks]
    if ndim == 2:
        return "[" + ", ".join(r for block in rows for r in block) + "]"
    return "[" + ", ".join("[" + ", ".join(block) + "]" for block in rows) + "]"


def parse_output(text: str, ex: sp.Exercise) -> np.ndarray:
    text = within_limit("output", text, MAX_TEXT)
    arr = sc.parse_tensor(bracketed(text, ex.answer.ndim), name="output", max_elements=sp.MAX_CELLS)
    if arr.shape != ex.answer.shape:
        raise sc.ScatterError(f"output has shape {arr.shape}; this exercise's output has data's shape "
                              f"{ex.answer.shape}", argument="output", rule="shape")
    return arr


def parse_target(text: str, shape) -> tuple[int, ...]:
    text = within_limit("target", text, MAX_TARGET_TEXT)
    parts = [p for p in re.split(r"[\s,;\[\]()]+", str(text).strip()) if p]
    try:
        cell = tuple(int(p) for p in parts)
    except ValueError:
        raise ValueError(f"target {text!r}: type {len(shape)} whole numbers, e.g. "
                         f"{', '.join('0' for _ in shape)}") from None
    if len(cell) != len(shape) or any(not 0 <= c < s for c, s in zip(cell, shape)):
        ranges = ", ".join(f"0..{s - 1}" for s in shape)
        raise ValueError(f"target {text!r}: an output position needs {len(shape)} numbers in ({ranges})")
    return cell


def parse_value(text: str) -> float:
    text = within_limit("value", text, MAX_VALUE_TEXT)
    try:
        value = float(str(text).strip())
    except ValueError:
        raise ValueError(f"value {text!r} is not a number") from None
    if not np.isfinite(value):
        raise ValueError(f"value {text!r} must be a finite number")
    return value


# -- step by step -----------------------------------------------------------------------------------------------
def step_mode(ex: sp.Exercise, eid: str) -> None:
    ss = st.session_state
    sk = k(f"step:{eid}")
    step = int(ss.get(sk, 0))
    n = ex.steps
    if step >= n:
        right = sum(bool(getattr(ss.get(k(f"fb:{eid}:{i}")), "conforms", False)) for i in range(n))
        st.success(f"All {n} steps done, {right} of {n} predicted right. The output is the spec's result:",
                   icon="✅")
        show_step_figure(ex, n, k(f"fig-done:{eid}"))
        c1, c2 = st.columns(2)
        c1.button("Start this exercise again", key=k(f"again:{eid}"), on_click=restart_steps, args=(eid, n),
                  use_container_width=True)
        next_exercise_button(c2, eid)
        return
    st.text(sp.step_question(ex, step))
    keys = {name: k(f"{name}:{eid}:{step}") for name in ("fb", "target", "value", "error", "try", "hints")}
    feedback = ss.get(keys["fb"])
    if feedback is None:
        try:
            chosen = parse_target(ss.get(keys["target"], ""), ex.answer.shape)
        except ValueError:
            chosen = None
        show_step_figure(ex, step, k(f"fig:{eid}:{step}"), on_cell=lambda coords: pick_cell(coords, keys),
                         chosen=chosen, room_below=answer_px(ex, "Step by step", eid))
        with st.form(k(f"form:{eid}:{step}"), border=False):
            c1, c2, c3 = st.columns([2, 2, 1], vertical_alignment="bottom")
            c1.text_input(f"Target cell: click it on the output, or type {ex.answer.ndim} "
                          f"number{'s' if ex.answer.ndim > 1 else ''}",
                          key=keys["target"], help=f"At most {MAX_TARGET_TEXT} characters. "
                                                   f"{TARGET_HELP.get(ex.answer.ndim, '')}",
                          placeholder=TARGET_PLACEHOLDER.get(ex.answer.ndim))  # words, never an answer-like number
            c2.text_input("Value after the step", key=keys["value"], help=f"At most {MAX_VALUE_TEXT} characters.")
            c3.form_submit_button("Check", use_container_width=True, on_click=check_step,
                                  args=(ex.seed, ex.level, _op_arg(), step, keys))
        with st.container(key=FEEDBACK_KEY):  # what a Check says; focus moves here after it
            if ss.get(keys["error"]):
                st.error(md(ss[keys["error"]]), icon="🛑")
            first = ss.get(keys["try"])
            if first is not None:
                show_retry(first, sp.retry_hint(ex, step, first))
        show_hints(sp.step_hints(ex, step), keys["hints"])
        return
    with st.container(key=FEEDBACK_KEY):
        reveal_step(ex, step, feedback, eid)
    st.button("Next step ▶" if step + 1 < n else "Finish ▶", key=k(f"next:{eid}:{step}"), type="primary",
              on_click=next_step, args=(sk, step + 1, n))


def next_step(sk: str, step: int, n: int) -> None:
    """Next step's callback: the step moves on, and focus to its target box (or, after the last, to the summary)."""
    st.session_state[sk] = step
    focus_next(TARGET_SELECTOR if step < n else f".st-key-{FEEDBACK_KEY}")


def show_retry(fb: sp.Feedback, hint: str) -> None:
    """The first wrong check: what is wrong, one more try, and a hint (never the answer: that comes after the
    second wrong check)."""
    if fb.target_correct is not None:  # a step
        what = [] if fb.target_correct else ["the target cell"]
        what += [] if fb.value_correct else ["the value"]
        st.error(f"Not quite: {' and '.join(what)}. Try once more; the answer is shown after a second wrong check.",
                 icon="❌")
    else:
        n = len(fb.wrong_cells)
        st.error(f"Not quite: {n} cell{'s are' if n != 1 else ' is'} wrong. Try once more; the answer is shown "
                 f"after a second wrong check.", icon="❌")
    st.info(md(hint), icon="💡")


def pick_cell(coords, keys: dict) -> None:
    """The player's click on an output cell (a callback, before the rerun): it becomes the typed target."""
    st.session_state[keys["target"]] = ", ".join(str(int(c)) for c in coords)


def restart_steps(eid: str, n: int) -> None:
    ss = st.session_state
    ss[k(f"step:{eid}")] = 0
    for i in range(n):
        for name in ("fb", "target", "value", "error", "hints", "try"):
            ss.pop(k(f"{name}:{eid}:{i}"), None)


def next_exercise_button(where, eid: str) -> None:
    """In a set: the next exercise of the set; otherwise a new random one."""
    ss = st.session_state
    if ss[k("set")] is not None:
        n = ss[k("set")][2]
        where.button("Next exercise of the set ▶", key=k(f"next-ex:{eid}"), on_click=move_in_set, args=(1,),
                     disabled=int(ss.get(k("set_index"), 0)) >= n - 1, use_container_width=True, type="primary")
    else:
        where.button("Next exercise ▶", key=k(f"next-ex:{eid}"), on_click=new_exercise, use_container_width=True,
                     type="primary")


def _op_arg() -> str | None:
    return current()[2]


def check_step(seed: int, level: int, op: str | None, step: int, keys: dict) -> None:
    """The Check button's callback: grade before the page is drawn, so the reveal replaces the question."""
    ss = st.session_state
    ex = exercise(seed, level, op)
    try:
        target = parse_target(ss.get(keys["target"], ""), ex.answer.shape)
        value = parse_value(ss.get(keys["value"], ""))
    except ValueError as exc:
        ss[keys["error"]] = str(exc)
        return
    ss[keys["error"]] = None
    focus_next(f".st-key-{FEEDBACK_KEY}")
    first = ss.get(keys["try"])
    if int(ss.get(keys["hints"], 0)) >= len(HINT_LABELS):  # "Show the answer" was pressed: nothing scores now
        fb = class_parts.grade_step(ex, step, target, value, k, after_reveal=True)  # in a class: stored
        ss[keys["fb"]] = fb
        record_after_reveal()
        return
    fb = class_parts.grade_step(ex, step, target, value, k)  # in a class: graded and stored by the store
    if not fb.conforms and first is None and sp.TRIES > 1:  # the first wrong check: a hint, one more try
        ss[keys["try"]] = fb
        return
    ss[keys["fb"]] = fb
    record(ex.level, fb.conforms, (first.kinds if first is not None else ()) + fb.kinds)


def reveal_step(ex: sp.Exercise, step: int, fb: sp.Feedback, eid: str) -> None:
    if fb.after_reveal:
        st.info(f"{'Right, but the' if fb.matches_answer else 'The'} answer was shown before this check, so it is "
                f"recorded as answered after the reveal and scores nothing.", icon=":material/visibility:")
    elif fb.correct:
        st.success("Right: target and value.", icon="✅")
    elif fb.conforms:
        st.info("≈ **Allowed by the spec**, though the loop order gives another value (see why below).",
                icon=":material/alt_route:")
    else:
        what = [] if fb.target_correct else ["the target cell"]
        what += [] if fb.value_correct else ["the value"]
        st.error(f"Not quite: {' and '.join(what)}.", icon="❌")
    caption = ex.trace.describe(step) + "."
    for line in fb.explanation.splitlines():
        if line != caption and line != sp.grading.AFTER_REVEAL:  # the player shows the step's caption
            st.text(line)
    show_misconceptions(fb.misconceptions)
    for chain in dict.fromkeys(m.chain for m in fb.misconceptions if len(m.chain) > 2):  # earlier writes too
        st.text("The writes to that cell so far: " + "; ".join(chain) + ".")
    show_step_figure(ex, step + 1, k(f"fig-after:{eid}:{step}"))


# -- whole output ------------------------------------------------------------------------------------------------
def output_mode(ex: sp.Exercise, eid: str) -> None:
    ss = st.session_state
    st.text(ex.prompt)
    show_inputs(ex, k(f"fig-in:{eid}"), answer_px(ex, "Whole output", eid))
    fb_key = k(f"out-fb:{eid}")
    how, note = "text", st
    if ex.answer.ndim <= 2:  # the choice, its label and the grid's note share a line: a projector keeps the grid
        with st.container(horizontal=True, vertical_alignment="center", key="practice-how"):  # on screen
            st.markdown("Enter the output as", width="content")
            how = st.radio("Enter the output as", ["grid", "text"], horizontal=True, key=k(f"how:{eid}"),
                           label_visibility="collapsed", width="content")
            note = st.container(width="stretch")
    # the answer and its Check button side by side (a phone stacks them, the button below)
    answer, check = st.columns([5, 1], vertical_alignment="bottom")
    student = None
    with answer:
        if how == "grid":
            student = grid_input(ex, eid, note)
        else:  # rank 3 (always text): two lines, so that a projector keeps the box and Check under the figure
            session.text_box(st, OUTPUT_LABEL, key=k(f"text:{eid}"), limit=MAX_TEXT,
                             height=120 if ex.answer.ndim <= 2 else SHORT_BOX_PX)
    if check.button("Check my output", key=k(f"check:{eid}"), type="primary", use_container_width=True):
        try:
            if how == "text":
                student = parse_output(ss.get(k(f"text:{eid}"), ""), ex)
            elif student is None:
                raise ValueError("a cell of the grid is empty: give every cell a number")
        except (sc.ScatterError, ValueError) as exc:
            if len(ss.get(k(f"text:{eid}")) or "") <= MAX_TEXT or how != "text":  # else the box says it already
                st.error(md(exc), icon="🛑")
        else:
            check_output(ex, eid, student)
    hints_key = k(f"out-hints:{eid}")
    show_hints(sp.output_hints(ex), hints_key)
    with st.container(key=FEEDBACK_KEY):  # what a Check says; focus moves here after it
        if fb_key in ss:
            fb, student = ss[fb_key]
            show_output_feedback(ex, fb, student, eid)
            next_exercise_button(st.columns(3)[0], eid)
        elif k(f"out-try:{eid}") in ss:
            first, _ = ss[k(f"out-try:{eid}")]
            show_retry(first, sp.output_retry_hint(ex, first))


def check_output(ex: sp.Exercise, eid: str, student: np.ndarray) -> None:
    """Grade a whole output: a first wrong one gets a hint and one more try; a right one or a second wrong one
    shows the spec's result; anything checked once it was shown (or the last hint, the answer, was opened) is
    recorded as answered after the reveal and scores nothing. The same answer twice counts once."""
    ss = st.session_state
    fb_key, try_key = k(f"out-fb:{eid}"), k(f"out-try:{eid}")
    focus_next(f".st-key-{FEEDBACK_KEY}")
    previous = ss.get(fb_key) or ss.get(try_key)
    again = previous is not None and np.array_equal(previous[1], student)
    if fb_key in ss or int(ss.get(k(f"out-hints:{eid}"), 0)) >= len(HINT_LABELS):  # the answer was shown
        fb = class_parts.grade_output(ex, student, k, after_reveal=True)  # in a class: stored, unscored
        ss[fb_key] = (fb, student)
        if not again:
            record_after_reveal()
        return
    fb = class_parts.grade_output(ex, student, k)  # in a class: graded and stored by the class store
    first = ss.get(try_key)
    if not fb.conforms and first is None and sp.TRIES > 1:
        ss[try_key] = (fb, student)
        return
    if again and not fb.conforms:
        return  # the first try's answer checked again: still one more try
    ss[fb_key] = (fb, student)
    record(ex.level, fb.conforms, (first[0].kinds if first is not None else ()) + fb.kinds)


def grid_input(ex: sp.Exercise, eid: str, note=st) -> np.ndarray | None:
    import pandas as pd

    shape = ex.answer.shape
    rows = shape[0] if ex.answer.ndim == 2 else 1
    cols = shape[-1]
    # the grid starts as a copy of data, as the output does: the student changes the cells the updates write
    frame = pd.DataFrame(np.asarray(ex.data).reshape(rows, cols), columns=[str(c) for c in range(cols)])
    frame.index.name = "row"  # the row numbers' column gets a header a screen reader can read (axe: empty-table-header)
    note.caption("The grid starts as a copy of data, as the output does: change the cells the updates write "
                 "(row 0 at the top).")
    # rows of 28 px (Streamlit: 35), still above the 24 px of WCAG 2.5.8: a four-row grid stays on a projector
    edited = st.data_editor(frame, key=k(f"grid:{eid}"), num_rows="fixed", hide_index=False, row_height=28)
    values = edited.to_numpy(dtype=np.float64, na_value=np.nan)
    if np.isnan(values).any():
        return None
    return values.reshape(shape)


def show_output_feedback(ex: sp.Exercise, fb: sp.Feedback, student: np.ndarray, eid: str) -> None:
    allowed = [note.cell for note in fb.allowed]
    if fb.after_reveal:
        st.info(f"{'Right, but the' if fb.matches_answer else 'The'} spec's result was shown before this check, so "
                f"it is recorded as answered after the reveal and scores nothing.", icon=":material/visibility:")
        if not fb.matches_answer:
            st.error(f"{len(fb.wrong_cells)} of {ex.answer.size} cells are wrong (outlined, solid).", icon="❌")
    elif fb.correct:
        st.success(f"Right! {fb.explanation}", icon="✅")
    elif fb.conforms:
        why = fb.explanation.splitlines()[0].removeprefix("Allowed by the spec: ")
        st.info(f"**Right by the spec, not the loop order's answer.** {md(why[:1].upper() + why[1:])} "
                f"The {len(allowed)} cell(s) where yours differs are outlined, dashed.", icon=":material/alt_route:")
    else:
        kept = (f" {len(allowed)} more cell(s), outlined dashed, hold another write the spec allows there (not "
                f"wrong)." if allowed else "")
        st.error(f"{len(fb.wrong_cells)} of {ex.answer.size} cells are wrong (outlined, solid).{kept}", icon="❌")
    fig = comparison_figure(fb.comparison(ex, student), ("your output", "the spec's result"), dark=theme_is_dark())
    st.plotly_chart(fig, theme=None, key=k(f"cmp:{eid}:{len(fb.wrong_cells)}:{len(allowed)}"),
                    config={"displayModeBar": False})
    show_misconceptions(fb.misconceptions)
    for note in fb.cells[:sp.grading.MAX_EXPLAINED]:
        kinds = ", ".join(sp.BY_KIND[kind].title for kind in note.kinds if kind in sp.BY_KIND)
        st.text(note.chain + (f"  (matches: {kinds})" if kinds else ""))
    if len(fb.cells) > sp.grading.MAX_EXPLAINED:
        st.caption(f"… and {len(fb.cells) - sp.grading.MAX_EXPLAINED} more wrong cells, outlined above.")
    for note in fb.allowed[:sp.grading.MAX_EXPLAINED]:
        st.text("≈ allowed: " + note.chain)


# -- multiple choice ------------------------------------------------------------------------------------------------
def choice_mode(ex: sp.Exercise, eid: str) -> None:
    ss = st.session_state
    st.text(ex.prompt)
    show_inputs(ex, k(f"fig-in:{eid}"), answer_px(ex, "Multiple choice", eid))
    options = sp.choices(ex)
    # the options side by side as compact grids (a rank-3 output as a row of its 2-D slices), each its letter
    # beside it, wrapping into more lines where the width ends (a phone stacks them A, B, C, D); then the
    # question with its answer and Check on one line: a projector keeps them on screen under the figure
    with st.container(key="practice-options"):
        grids.option_grids([(LETTERS[i], c.output) for i, c in enumerate(options)], key=k(f"options:{eid}"))
    with st.container(horizontal=True, vertical_alignment="center", key="practice-pick"):
        st.markdown("**Which output is right?**", width="content")
        pick = st.radio("Which output is right?", [LETTERS[i] for i in range(len(options))], horizontal=True,
                        index=None, key=k(f"pick:{eid}"), width="content", label_visibility="collapsed")
        checked = st.button("Check", key=k(f"mc-check:{eid}"), type="primary", disabled=pick is None)
    fb_key, try_key = k(f"mc-fb:{eid}"), k(f"mc-try:{eid}")
    if checked:
        focus_next(f".st-key-{FEEDBACK_KEY}")
        chosen = options[LETTERS.index(pick)]
        kinds = () if chosen.correct or chosen.kind not in sp.BY_KIND else (chosen.kind,)
        first = ss.get(try_key)
        if fb_key in ss:  # the right output was shown: recorded as answered after it, no score
            if ss[fb_key][0] != pick:
                record_after_reveal()
                class_parts.grade_output(ex, chosen.output, k, after_reveal=True)  # in a class: stored, unscored
            ss[fb_key] = (pick, chosen.correct, chosen.kind, True)
        elif not chosen.correct and first is None and sp.TRIES > 1:
            ss[try_key] = (pick, chosen.kind)
            class_parts.grade_output(ex, chosen.output, k)  # in a class: the chosen output, stored
        elif first is None or first[0] != pick:  # the first try's pick again: still one more try
            record(ex.level, chosen.correct, kinds + (() if first is None or first[1] not in sp.BY_KIND
                                                      else (first[1],)))
            class_parts.grade_output(ex, chosen.output, k)  # in a class: the chosen output, stored
            ss[fb_key] = (pick, chosen.correct, chosen.kind, False)
    with st.container(key=FEEDBACK_KEY):  # what a Check says; focus moves here after it
        if fb_key in ss:
            pick, correct, kind, late = ss[fb_key]
            right = LETTERS[next(i for i, c in enumerate(options) if c.correct)]
            if late:
                st.info(f"{pick} was picked after the right output was shown, so it is recorded as answered after "
                        f"the reveal and scores nothing.", icon=":material/visibility:")
            elif correct:
                st.success(f"Right: {pick} is the spec's result.", icon="✅")
            if not correct:
                st.error(f"{pick} is not it; the right output is {right}.", icon="❌")
                if kind in sp.BY_KIND:
                    show_misconceptions([sp.Named(kind, sp.BY_KIND[kind].explanation)])
                else:
                    st.info("That output has one cell off: a slip rather than a misconception.", icon="ℹ️")
            for i in range(len(ex.trace)):
                st.text(ex.trace.describe(i) + ".")
            next_exercise_button(st.columns(3)[0], eid)
        elif try_key in ss:
            pick, kind = ss[try_key]
            st.error(f"{pick} is not it. Pick once more; the right output is shown after a second wrong pick.",
                     icon="❌")
            st.info(md(f"It looks like: {sp.BY_KIND[kind].title.lower()}. {sp.BY_KIND[kind].explanation}"
                       if kind in sp.BY_KIND else "That output has one cell off somewhere: follow the writes again."),
                    icon="💡")


# -- the page ---------------------------------------------------------------------------------------------------------
def render_page() -> None:
    read_url()
    defaults()
    seed, level, _ = current()
    sidebar(seed, level)
    seed, level, op = current()  # the sidebar's buttons may have moved on
    write_url()
    controls.page_style("practice-projector", PROJECTOR_CSS)
    # the page's title and the exercise's heading share a line where they fit (a projector keeps the answer on
    # screen); on a phone the second wraps below the first
    heading = st.container(horizontal=True, vertical_alignment="bottom", gap="medium", key="practice-heading")
    heading.title("Practice", width="content")
    session.url_notice(PREFIX)  # names the link's values read_url could not use, once
    lost_progress()  # a new session: what the URL could not bring along
    if class_parts.gate(k):  # a class link: the join form (or why the link cannot be used); else the class banner
        return
    st.container(key="practice-intro").caption(
        "Predict what the operator writes, then see it. Feedback names the misconception behind a wrong answer and "
        "links to an explorer example that shows it.")
    try:
        ex = exercise(seed, level, op)
    except ValueError as exc:
        st.error(md(exc), icon="🛑")
        return
    eid = f"{level}-{seed}-{op or 'any'}"
    in_set = st.session_state[k("set")]
    where = f"set {in_set[0]}, exercise {seed % 1000 + 1} of {in_set[2]}" if in_set else f"exercise {seed}"
    # h2 under the page's h1 (axe heading-order)
    heading.header(f"Level {level} · {where} · {ex.op}", width="content")
    about = ex.topic or sp.LEVELS[level]  # what this exercise practises (a family's recipe may say it better)
    with st.container(horizontal=True, vertical_alignment="center", key="practice-about"):  # one line where it fits
        st.caption(md(f"{about[:1].upper()}{about[1:]}. Attributes: {ex.attrs_text}."), width="stretch")
        spec_link(ex.spec, width="content")  # not inside the caption (its fading would leave the link below 4.5:1
        # contrast); beside it even when the caption wraps (a line saved on a projector)
    mode = st.session_state[k("mode")]
    {"Step by step": step_mode, "Whole output": output_mode, "Multiple choice": choice_mode}[mode](ex, eid)
    selector, token = st.session_state.get(k("focus")) or ("", 0)
    controls.focus(selector, token)  # after a Check or Next step: on the feedback or the next field


def render() -> None:
    """Render the practice page; never lets an exception reach the user as a traceback."""
    try:
        render_page()
    except Exception as exc:  # noqa: BLE001 - last line of defence: a message, never a traceback
        st.error(f"Something went wrong while drawing this page ({type(exc).__name__}: {md(exc)}). Pick another "
                 f"exercise or level.", icon="🛑")
