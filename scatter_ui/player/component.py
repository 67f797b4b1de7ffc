"""The step player: one Streamlit components-v2 element that owns the step (in the page, no iframe).

Python API
----------
``player(figure, *, key, view, step, name="scatter", on_step=None, on_cell=None, url_param="step",
controls=None, cache_key=None, room_below=None, steps=None) -> PlayerResult``

* ``figure``: :meth:`scatter_ui.figures.heatmaps.StepFigure.figure` of the current step (three heatmaps,
  the frames of a window ``k0..k1``, one caption per step, panel sizes in cells), or a function
  returning it (called only when the payload is not cached).
* ``cache_key``: names the figure's content (the explorer: its view and the step the figure is
  built around). With it, the bytes sent are built once and reused by every rerun that sends the
  same player (:func:`payload`).
* ``key``: the element's key (stable for the page: the browser keeps its player and plotly.js).
* ``view``: an id of the case on screen (operator, example, attributes, inputs). When it changes
  the browser jumps to ``step``; otherwise it keeps its own step (the browser owns the step: its
  reports never pull it back).
* ``step``: the step the page starts at for a new view (e.g. from the URL). For the same view the
  page should send the same ``figure`` and ``step`` at every step (the explorer builds the figure
  around the step it was last built around while the step stays inside the frames sent then:
  ``ExplorerPage._anchor``), so a rerun caused by a step report sends nothing new.
* ``name``: file names of exports.
* ``on_step(step)``: called (as a widget callback, before the rerun) when the browser reports a
  new step. Reports are coalesced in the browser: only the latest step, once stepping has paused
  for 300 ms (0.9 s while playing), never a queue of stale ones; a held key sends nothing until it
  is let go. At once only when playback reaches the edge of the frames sent, so the next window
  comes. A report reruns the element's scope: put the player in an ``st.fragment`` with what
  depends on the step (the explorer does: ``ExplorerPage.stepped``), and a step costs the server
  that fragment, not the page. Without ``on_step`` the browser reports no steps at all (a page
  that keeps no step, such as Practice).
* ``on_cell(coords)``: called when the user clicks an output cell, with its coordinates
  (a list of ints). Used by the Practice page to let a student click the target cell.
* ``controls``: the controls to show, by name (``first``, ``prev``, ``play``, ``next``, ``last``,
  ``slider``, ``count``, ``goto``, ``speed``, ``export``, ``keys``); None shows them all. Without
  ``play`` the space key does not play. The Practice page hides what would do nothing.
* ``room_below``: the px the page draws under the player that should stay on screen with it. On a
  window at most 820 px tall and at least 700 px wide (a 1280×720 projector) the browser then
  fits the figure: it tries every arrangement of the panels with one cell size (all on one line;
  the inputs above the output; the indices above the other two; a panel beside the other two
  stacked; each panel's small multiples wrapped into 1..n rows) and takes the one with the
  largest cells (up to 64 px; a panel as wide as its cells or its title) that keeps the figure,
  the player's parts under it and ``room_below`` inside the window. When none does with cells of
  at least 28 px, the shortest at 28 px (the page scrolls a little). Before the first step (one
  frame, nothing drawn on it) the legend of the marks is left out. None (the default): cells
  sized by the width alone.
* A figure whose ``tall`` is not None (an input row axis windowed to the screen: views.row_window) is checked
  against the window: when its kind differs (over 820 px tall or not), the browser reports its step with its
  ``height``, which :func:`tall_window` then reads (the explorer builds its figures with it).
* ``steps``: the case's steps when ``figure`` holds only the first ones (Practice sends the steps done, ``n``
  the last of them): the count reads "k / steps" and the table view "after step k of steps". None: ``n``.
* ``url_param``: the query parameter in which the page mirrors the step ("step"; None when the
  page keeps no step in its URL). The browser checks it 2.5 s after a report; if the URL does not
  carry it, it first asks for a run of the whole page (through :func:`rerun_relay`, which a page
  with a step fragment draws outside it: after a failover the new session does not know the
  fragment), then says the step again (at most 4 times).

What the browser adds for every page (nothing to pass): a legend of the marks (thick frame: this
step's read and write; filled corner: the write; thin frame: written so far; ×n: written n times), a "table view" with
every panel's cells at the shown step as text (the cells' own text, formatted in Python with
``sc.fmt_value``; the step's read and write and the write counts in words), kept in step while
open; buttons that stay focusable at the ends (``aria-disabled``); controls of at least 24×24 px;
on a narrow screen, cell digits of at least 12 px (cells grow and the figure scrolls sideways).

What is sent and what comes back is the player's contract, :mod:`scatter_ui.player.contract`
(``Payload``, ``StepReport``, ``CellClick``, and ``PALETTE``, the colours, sent as ``palette``): an
option for a page is a keyword argument collected into ``data`` in :func:`player`; add it to
``Payload`` too (``python -m scatter_ui.player.contract`` writes the schema again) and read it in
``player.js``'s ``update``. With ``SCATTER_PLAYER_CHECK=1`` (the browser tests) the browser checks
every payload, and its own reports, against the schema.

Returns ``PlayerResult(step, cell)``: the last step reported for this view (None before one) and
the clicked cell of this run (None unless a click caused it).

The browser side (``assets/player.js``) draws the panels with plotly.js (the official
cartesian dist, 1.5 MB instead of the full 4.6 MB bundle, which includes heatmaps), sized so
every panel shares one cell size, stacked below 700 px, coloured from Streamlit's theme; plays
at 0.25x-4x; keys ←/→, space, Home/End (drawing is coalesced too: a held key skips frames rather
than queue them); hover shows each output cell's chain of writes; exports
the frame (PNG, SVG) and a step strip of at most 24 steps (PNG, SVG) in the browser. Text is set
with ``textContent``: nothing is read as Markdown or HTML.

The assets are package data of ``scatter_ui`` (``assets/``), the component's
``asset_dir``: :func:`ensure_registered` declares that folder to the running Streamlit the first
time a player is drawn (in a checkout and in an installed wheel alike), and Streamlit serves it at
``/_stcore/bidi-components/...`` (plotly.js at :func:`plotly_url`, the contract); no file is
copied at run time. ``player.js`` and ``player.css`` are passed as content (``JS``, ``CSS``): Streamlit
imports the script from a Blob URL and inlines the style, without a round trip for either file. (pyproject.toml has no
``[tool.streamlit.component]`` table: Streamlit's start-up scan would resolve its ``asset_dir``
under the ``scatter_explorer`` package, named like the project, and log a warning.)
"""

from __future__ import annotations

import gc
import json
import logging
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import streamlit as st

from scatter_ui.state import step_times
from scatter_ui.player.contract import PALETTE, SCHEMA_FILE, ContractError, check_payload, read_cell, read_step_report

PROJECT = "scatter-explorer"
COMPONENT = "player"
NAME = f"{PROJECT}.{COMPONENT}"
ASSET_DIR = Path(__file__).resolve().parent / "assets"
PACKAGE_ROOT = ASSET_DIR.parents[2]  # the folder that holds scatter_ui
_lock = threading.Lock()


def _manager():
    from streamlit.runtime import Runtime

    if Runtime.exists():
        return Runtime.instance().bidi_component_registry
    from streamlit.components.v2.get_bidi_component_manager import get_bidi_component_manager

    return get_bidi_component_manager()


def ensure_registered(manager=None) -> Path:
    """Declare the player's asset_dir on ``manager`` (the running Streamlit's by default) once;
    thread-safe, idempotent, copies nothing. Returns the asset directory."""
    from streamlit.components.v2.manifest_scanner import ComponentConfig, ComponentManifest

    manager = manager or _manager()
    with _lock:
        if manager.get_component_asset_root(NAME) is None:
            manifest = ComponentManifest(name=PROJECT, version="0",
                                         components=[ComponentConfig(name=COMPONENT, asset_dir=str(
                                             ASSET_DIR.relative_to(PACKAGE_ROOT)))])
            manager.register_from_manifest(manifest, PACKAGE_ROOT)
    return ASSET_DIR


_renderers: dict = {}
PAYLOAD_MARK = "sx-player:"  # the header line: "sx-player:<serial>:<bytes>"
PAYLOAD_BYTES = 64 * 1024 * 1024  # the payload cache's bound (the largest figure is about 3.5 MB)
_payloads: OrderedDict = OrderedDict()
_payload_sizes: dict = {}
_serial = 0
# The module is passed as content, not as a file name: Streamlit then imports it from a Blob URL at
# once instead of first loading it through a script tag (about 0.1 s sooner on a first visit,
# bench/bench_player.py). plotly.js stays a file in asset_dir, loaded from plotly_url().
JS = (ASSET_DIR / "player.js").read_text(encoding="utf-8")
# The style is passed as content too: as a file, Streamlit fetches it only once the element has mounted, and the
# player's first layout pass may measure the page before its rules apply.
CSS = (ASSET_DIR / "player.css").read_text(encoding="utf-8")


def asset_url(name: str) -> str:
    """Where the browser loads the asset ``name`` from: the asset folder Streamlit serves for the player,
    under the server's base URL path. (A module imported from a Blob URL has no folder of its own.)"""
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    return f"{'/' + base if base else ''}/_stcore/bidi-components/{NAME}/{name}"


def plotly_url() -> str:
    """Where the browser loads plotly.js from (:func:`asset_url`)."""
    return asset_url("plotly-cartesian.min.js")


CHECK_ENV = "SCATTER_PLAYER_CHECK"  # "1": the browser validates every payload against the contract (the tests)


def checking() -> bool:
    """Whether the browser checks the payloads and its reports against the contract ($SCATTER_PLAYER_CHECK)."""
    return os.environ.get(CHECK_ENV, "") not in ("", "0")


def renderer():
    """The player's components v2 renderer for this Streamlit runtime (registered once per runtime)."""
    manager = _manager()
    ensure_registered(manager)
    with _lock:
        hit = _renderers.get(id(manager))
        if hit is None:
            hit = st.components.v2.component(NAME, js=JS, css=CSS, isolate_styles=False)
            _renderers.clear()
            _renderers[id(manager)] = hit
    return hit


WARM_KEY = "scatter_explorer_warm"
_warm = None


def warm_up() -> None:
    """An invisible components-v2 element, sent as the app's first element on every page.

    Streamlit's frontend loads its components-v2 code only when the first such element is drawn,
    and React then holds that element back behind a placeholder for a few hundred ms. Sent first,
    this element starts that download while the rest of the page is still coming, so the player
    more often finds it loaded and draws at once (bench/bench_player.py: about 0.07 s sooner). It has
    no script, no state and no size (its own style hides its container). The first call in a process
    also freezes the heap the imports built (:func:`_freeze_heap`): every page calls this first."""
    global _warm
    _freeze_heap()
    if _warm is None:
        _warm = st.components.v2.component(f"{PROJECT}.warm", html="<span></span>",
                                           css=f".st-key-{WARM_KEY} {{ display: none; }}", isolate_styles=False)
    _warm(key=WARM_KEY)  # in the main area: an element in the sidebar, even a hidden one, would make
    # Streamlit fold the page list behind "View more" on pages that have no sidebar of their own


RERUN_EVENT = "scatter-explorer:full-rerun"  # player.js sends it when a step report got lost (see rerun_relay)
RELAY_JS = f"""export default function ({{ setTriggerValue }}) {{
  const ask = () => setTriggerValue("rerun", Date.now());
  window.addEventListener("{RERUN_EVENT}", ask);
  return () => window.removeEventListener("{RERUN_EVENT}", ask);
}}
"""
RELAY_KEY = "scatter_explorer_relay"
_relay = None


def rerun_relay() -> None:
    """An invisible element, drawn OUTSIDE the step fragment, through which the player asks for a run of the
    whole page when a step report got lost.

    A report reruns only the player's fragment, named by an id the server gave it. After a failover (a
    replica died; HAProxy sends the browser's websocket to another replica) the browser talks to a NEW
    session, which has no such fragment: Streamlit drops the fragment's rerun (and the report with it),
    and the browser asks for a whole run on reconnecting only when its last run was a fragment's. Then
    every report is lost until something outside the fragment changes. The player notices (the URL does
    not carry its step: ``watch`` in player.js) and sends a window event; this element answers with a
    trigger, which reruns the page; that run registers the fragment, and the player's next report lands."""
    global _relay
    if _relay is None:
        _relay = st.components.v2.component(f"{PROJECT}.relay", html="<span></span>", js=RELAY_JS,
                                            css=f".st-key-{RELAY_KEY} {{ display: none; }}", isolate_styles=False)
    _relay(key=RELAY_KEY, on_rerun_change=lambda: None)


_frozen = False


def _freeze_heap() -> None:
    """Once per process (the first page drawn): collect, then ``gc.freeze()`` what is alive by then.

    That is the modules (streamlit, numpy, pandas, plotly, onnx, openvino ...), the registries and
    the spec examples: hundreds of thousands of objects that live as long as the process. Python's
    full garbage collection scans every tracked object, and a rerun set one off nearly every time:
    a step's rerun cost about 90 ms of server CPU, most of it that scan (bench/bench_stepping.py,
    docs/performance.md); with them frozen, about 13 ms. Frozen objects are still freed by reference
    counting; only a reference cycle among them would stay, and they live for the process anyway."""
    global _frozen
    with _lock:
        if _frozen:
            return
        _frozen = True
    gc.collect()
    gc.freeze()


@dataclass(frozen=True)
class PlayerResult:
    step: int | None
    cell: list | None


def player(figure: dict | Callable[[], dict], *, key: str, view: str, step: int, name: str = "scatter",
           on_step: Callable[[int], None] | None = None,
           on_cell: Callable[[list], None] | None = None, url_param: str | None = "step",
           controls: tuple[str, ...] | None = None, cache_key=None, room_below: int | None = None,
           steps: int | None = None) -> PlayerResult:
    """Show the player (see the module docstring)."""
    options = {"view": view, "step": int(step), "name": name, "report": on_step is not None,
               "url_param": url_param if on_step is not None else None, "plotly_url": plotly_url(),
               "contract_url": asset_url(SCHEMA_FILE.name), "check": checking(),
               "controls": None if controls is None else list(controls),
               "room_below": None if room_below is None else int(room_below),
               "steps": None if steps is None else int(steps)}
    data = payload(figure, options, cache_key)

    def _step_changed():
        state = st.session_state.get(key)
        new = reported_step(state, view)
        if new is not None and _get(_get(state, "step"), "height") is not None:
            st.session_state[TALL_KEY] = int(_get(_get(state, "step"), "height")) > SHORT_WINDOW
        if on_step is not None and new is not None:
            on_step(new)
            step_times.record(name, new)  # off unless $SCATTER_EXPLORER_STEP_TIMES names a file (bench)

    def _cell_clicked():
        cell = read_cell_click(_get(st.session_state.get(key), "cell"))
        if on_cell is not None and cell is not None:
            on_cell(cell)

    result = renderer()(key=key, data=data, default={"step": {"step": int(step), "view": view}},
                         height="content", on_step_change=_step_changed, on_cell_change=_cell_clicked)
    return PlayerResult(reported_step(result, view), read_cell_click(_get(result, "cell")))


SHORT_WINDOW = 820  # px: player.js's SHORT, a window at most this tall is a projector's (its figure fits the height)
TALL_KEY = "scatter_player_tall"  # session state: the browser's window is over SHORT_WINDOW tall (StepReport.height)


def tall_window() -> bool:
    """Whether the session's browser window is over SHORT_WINDOW px tall, as its player last reported (a step report
    carries the height when a figure's long input rows were windowed for the other kind: Payload.tall); False
    (a projector's few rows, which fit every screen) until one says otherwise."""
    return bool(st.session_state.get(TALL_KEY, False))


def payload(figure, options: dict, cache_key=None) -> bytes:
    """What the browser is sent: a header line (an id of this content) and the data as JSON, as bytes.

    Built once per ``(cache_key, options)`` when a ``cache_key`` is given (``figure`` may then be a
    function, called only to build it): a step's rerun, which sends the same player again, then costs
    no figure and no JSON (a 200-step figure is 1.4 MB of JSON, about 0.1 s to write, twice: Streamlit
    hashes a dict's JSON again for the element's identity; bytes it only hashes). The browser parses
    the JSON again only when the header changes. Cached payloads are shared by sessions and bounded
    in bytes (PAYLOAD_BYTES)."""
    global _serial
    memo = None if cache_key is None else (cache_key, json.dumps(options, sort_keys=True))
    if memo is not None:
        with _lock:
            hit = _payloads.get(memo)
            if hit is not None:
                _payloads.move_to_end(memo)
                return hit
    fig = figure() if callable(figure) else figure
    data = {**options, "palette": PALETTE, "figure": {"data": fig["data"], "layout": fig["layout"]},
            **{k: fig[k] for k in ("frames", "captions", "k0", "k1", "n", "active", "units", "rows",
                                   "panel_cols", "multiples", "gap", "hidden")},
            "apart": fig.get("apart"), "tall": fig.get("tall")}
    body = json.dumps(data, separators=(",", ":")).encode()
    with _lock:
        _serial += 1
        out = f"{PAYLOAD_MARK}{_serial}:{len(body)}\n".encode() + body
        if memo is not None and len(out) <= PAYLOAD_BYTES // 4:
            _payloads[memo] = out
            _payload_sizes[memo] = len(out)
            while sum(_payload_sizes.values()) > PAYLOAD_BYTES:
                old, _ = _payloads.popitem(last=False)
                _payload_sizes.pop(old, None)
    return out


def read_payload(raw: bytes, check: bool = True) -> dict:
    """The data in a payload, as the browser reads it (for tests and benchmarks). ``check``: raise
    :class:`~scatter_ui.player.contract.ContractError` unless it is on the player's contract
    (:func:`scatter_ui.player.contract.check_payload`), so every test that reads a payload checks it."""
    head, _, body = bytes(raw).partition(b"\n")
    if not head.startswith(PAYLOAD_MARK.encode()):
        raise ContractError(f"a player payload starts with the line {PAYLOAD_MARK}<serial>:<bytes>, not {head[:40]!r}")
    data = json.loads(body)
    if check:
        check_payload(data)
    return data


_log = logging.getLogger(__name__)


def reported_step(state, view: str) -> int | None:
    """The step in the player's state when it was reported for ``view``; None for a stale view's step,
    before a report, and for a report off the contract (:func:`scatter_ui.player.contract.read_step_report`
    says what is wrong; it is logged, and the page goes on without it)."""
    new = _get(state, "step")
    if new is None:
        return None
    try:
        report = read_step_report(new)
    except ContractError as exc:
        _log.warning("%s", exc)
        return None
    return report["step"] if report["view"] == view else None


def read_cell_click(value) -> list[int] | None:
    """The coordinates of a clicked cell (the trigger ``cell``); None without one, or off the contract (logged)."""
    if value is None:
        return None
    try:
        return read_cell(value)
    except ContractError as exc:
        _log.warning("%s", exc)
        return None


def _get(value, name: str):
    if value is None:
        return None
    if isinstance(value, dict):
        return value.get(name)
    return getattr(value, name, None)
