"""The step player: one Streamlit components-v2 element that owns the step (in the page, no iframe).

:func:`player` draws it: ``figure`` is :meth:`scatter_ui.figures.heatmaps.StepFigure.figure` (or a function that
builds it), sent with the page's options as one payload (:func:`payload`: a header line, then JSON; built once per
``cache_key``). The browser steps, plays and exports without the server, and reports only the latest step
(``on_step``) and a clicked output cell (``on_cell``); ``controls``, ``room_below``, ``steps`` and ``url_param``
fit it to a page. What passes either way is typed in :mod:`scatter_ui.player.contract`.

The browser side is the modules in ``js/``, joined into one script (:mod:`scatter_ui.player.script`), and
``assets/player.css``, both passed as content (Streamlit imports the script from a Blob URL and inlines the
style: no round trip); plotly.js and the contract's schema are files in ``assets/``, the component's
``asset_dir`` (:func:`ensure_registered`). docs/architecture.md, "The step player", says what each option does.
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
from scatter_ui.player.script import script
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
JS = script()  # js/*.mjs joined into one module (scatter_ui/player/script.py)
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


RERUN_EVENT = "scatter-explorer:full-rerun"  # the player (js/controls.mjs, tested equal) sends it when a step report got lost (see rerun_relay)
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
    not carry its step: ``watch`` in js/player.mjs) and sends a window event; this element answers with a
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
    """Show the player for ``figure`` (docs/architecture.md, "The step player", says what each option does).

    ``key``: the element's key, stable for the page; ``view``: an id of the case on screen (a new one makes the
    browser jump to ``step``, else it keeps its own step); ``name``: the exports' file names."""
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


SHORT_WINDOW = 820  # px: js/layout.mjs's SHORT (tested equal), a window at most this tall is a projector's (its figure fits the height)
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
