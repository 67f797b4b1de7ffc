"""A Streamlit session without a browser: the explorer's page and its player's step reports over the websocket.

:class:`StreamSession` speaks Streamlit's own protocol (``streamlit.proto`` BackMsg/ForwardMsg on
``/_stcore/stream``) as the browser does, message for message as recorded from Chromium: a full run of
the page with its query string, then each step as the player reports it, a ``rerun_script`` of the
player's fragment carrying the page's widget states (each widget's value as the browser sets it on
mount, the player's ``json_value`` report), the page's script hash and the hashes of the messages it
caches. It keeps what the browser keeps (the URL, widget states, the message cache for ``ref_hash``)
and times each report to its run's ``script_finished``. What a step's reply must show is
:meth:`StreamSession.step`'s check. Used by bench/locust_steps.py and tests/ui/test_protocol_steps.py;
needs ``websocket-client`` (the ``load`` extra). docs/performance.md says what it measured.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

PLAYER = "scatter-explorer.player"  # the player's components-v2 name (scatter_ui.player.component.NAME)
FINISHED = ("FINISHED_SUCCESSFULLY", "FINISHED_FRAGMENT_RUN_SUCCESSFULLY")
CONTEXT = {"timezone": "UTC", "timezone_offset": 0, "locale": "en-US", "is_embedded": False, "color_scheme": "light"}


def example_links() -> list[str]:
    """The explorer links of the spec examples that run (not the shapes-only large ones), in a fixed order."""
    import spec_examples
    from scatter_core import FAMILIES, OPERATORS, trace

    return [f"/{FAMILIES[OPERATORS[e.op].family].slug}?op={e.op}&example={e.id}" for e in spec_examples.load_all()
            if not e.shapes_only and len(trace(e.case)) > 0]


class ProtocolError(AssertionError):
    """A reply that is not what the browser would have been sent for the step (or none in time)."""


@dataclass
class Run:
    """What one run sent back: its status, the URL's query afterwards, the errors shown, the time (s)."""
    status: str = ""
    query: str = ""
    exceptions: list = field(default_factory=list)
    seconds: float = 0.0
    messages: int = 0


def _proto():
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    return BackMsg, ForwardMsg


def _mount_value(kind: str, el, fresh: bool):
    """(WidgetState field, value) the browser sets for a widget element when it mounts it (``fresh``) or the
    server sets its value (``set_value``); None when it sets nothing."""
    if not (fresh or getattr(el, "set_value", False)):
        return None
    if kind == "selectbox":
        if el.HasField("raw_value"):
            return "string_value", el.raw_value
        return ("string_value", el.options[el.default]) if el.HasField("default") and el.options else None
    if kind not in ("number_input", "checkbox", "text_input", "text_area"):
        return None
    value = _field(el, "value") if el.set_value else None
    value = _field(el, "default") if value is None else value
    if value is None:
        return None
    if kind == "number_input":
        return ("int_value", int(value)) if el.data_type == el.INT else ("double_value", float(value))
    return ("bool_value" if kind == "checkbox" else "string_value"), value


def _field(el, name: str):
    """``el.name``, or None when it is an optional field left unset."""
    try:
        present = el.HasField(name)
    except ValueError:  # a plain field (no presence): always has its value
        present = True
    return getattr(el, name) if present else None


class StreamSession:
    """One browser tab's Streamlit session, without the browser. ``base``: ``http://host:port``."""

    def __init__(self, base: str, timeout: float = 60.0):
        self.base = base.rstrip("/")
        self.timeout = timeout
        self.ws = None
        self.session_id = ""
        self.page = ""
        self.page_hash = ""
        self.query = ""
        self.widgets: dict = {}  # id -> (field, value), as the browser holds them
        self.unknown_widgets: set = set()  # widget kinds with an id this client sets no value for
        self.cache: dict = {}  # message hash -> (ForwardMsg, the run count it was last used in)
        self.max_age = 2
        self.runs = 0
        self.player_id = ""
        self.fragment_id = ""
        self.view = ""
        self.n = 0
        self.start = 0  # the step the page sent the player to start at
        self.reports = 0
        self.seen_ids: set = set()

    # -- the connection --------------------------------------------------------------------------------
    def open(self, path: str) -> Run:
        """Open the page ``path`` (``/elements?op=...&example=...``) as a new tab does: connect, run it whole."""
        import websocket

        parts = urlsplit(path)
        self.page, self.query = parts.path.strip("/"), parts.query
        host = urlsplit(self.base).netloc
        self.ws = websocket.create_connection(f"ws://{host}/_stcore/stream", timeout=self.timeout,
                                              subprotocols=["streamlit"], origin=self.base,
                                              enable_multithread=False)
        BackMsg, _ = _proto()
        msg = BackMsg()
        msg.rerun_script.query_string = self.query
        msg.rerun_script.page_name = self.page
        msg.rerun_script.widget_states.SetInParent()
        self._context(msg)
        run = self._exchange(msg, full=True)
        if run.status not in FINISHED:
            raise ProtocolError(f"opening {path}: the run ended {run.status or 'without script_finished'}")
        if run.exceptions:
            raise ProtocolError(f"opening {path}: the page showed an exception: {run.exceptions[0][:300]}")
        if not self.player_id:
            raise ProtocolError(f"opening {path}: the page sent no {PLAYER} element")
        return run

    def close(self) -> None:
        if self.ws is not None:
            try:
                self.ws.close()
            finally:
                self.ws = None

    # -- a step ----------------------------------------------------------------------------------------
    def step(self, k: int) -> Run:
        """Report step ``k`` as the player does and wait for the fragment's run to finish. Raises
        :class:`ProtocolError` unless the run finished successfully, showed no exception, and left the
        URL's ``step`` at ``k`` (the page's record that the server took the step)."""
        if not 0 <= k <= self.n:
            raise ValueError(f"step: k must be in 0..{self.n} (the case's steps), not {k}")
        BackMsg, _ = _proto()
        self.reports += 1
        report = {"step": {"step": int(k), "view": self.view, "n": self.reports}}
        self.widgets[self.player_id] = ("json_value", json.dumps(report, separators=(",", ":")))
        msg = BackMsg()
        rs = msg.rerun_script
        rs.query_string = self.query
        self._widget_states(rs)
        rs.page_script_hash = self.page_hash
        rs.fragment_id = self.fragment_id
        rs.cached_message_hashes.extend(sorted(self.cache))
        self._context(msg)
        run = self._exchange(msg, full=False)
        got = parse_qs(run.query).get("step")
        if run.status not in FINISHED:
            raise ProtocolError(f"step {k}: the run ended {run.status or 'without script_finished'}")
        if run.exceptions:
            raise ProtocolError(f"step {k}: the page showed an exception: {run.exceptions[0][:300]}")
        if got != [str(k)]:
            raise ProtocolError(f"step {k}: the URL after the run has step={got} ({run.query!r})")
        return run

    # -- internals -------------------------------------------------------------------------------------
    def _context(self, msg) -> None:
        ci = msg.rerun_script.context_info
        for name, value in CONTEXT.items():
            setattr(ci, name, value)
        ci.url = f"{self.base}/{self.page}"

    def _widget_states(self, rs) -> None:
        rs.widget_states.SetInParent()
        for wid, (name, value) in self.widgets.items():
            w = rs.widget_states.widgets.add()
            w.id = wid
            setattr(w, name, value)

    def _exchange(self, msg, full: bool) -> Run:
        """Send ``msg``; read ForwardMsgs until its run's ``script_finished``."""
        import websocket

        _, ForwardMsg = _proto()
        run = Run(query=self.query)
        self.seen_ids = set()
        t0 = time.perf_counter()
        self.ws.send(msg.SerializeToString(), opcode=websocket.ABNF.OPCODE_BINARY)
        deadline = time.monotonic() + self.timeout
        while True:
            if time.monotonic() > deadline:
                raise ProtocolError(f"no script_finished within {self.timeout} s")
            frame = self.ws.recv()
            if not isinstance(frame, bytes):
                continue
            fm = ForwardMsg.FromString(frame)
            run.messages += 1
            if self._read(fm, run):
                break
        run.seconds = time.perf_counter() - t0
        self.query = run.query
        self.runs += 1
        self.cache = {h: (m, used) for h, (m, used) in self.cache.items() if self.runs - used <= self.max_age}
        if full and run.status == "FINISHED_SUCCESSFULLY":  # the browser forgets widgets a whole run left out
            self.widgets = {w: v for w, v in self.widgets.items() if w in self.seen_ids}
        return run

    def _read(self, fm, run: Run) -> bool:
        """Take in one ForwardMsg as the browser does; True at its run's end."""
        kind = fm.WhichOneof("type")
        if fm.metadata.cacheable and fm.hash:
            self.cache[fm.hash] = (fm, self.runs + 1)
        if kind == "ref_hash":
            hit = self.cache.get(fm.ref_hash)
            if hit is None:
                raise ProtocolError(f"the server referred to message {fm.ref_hash}, which this session never had")
            self.cache[fm.ref_hash] = (hit[0], self.runs + 1)
            return self._read_delta(hit[0].delta, run)
        if kind == "new_session":
            ns = fm.new_session
            self.session_id = ns.initialize.session_id or self.session_id
            self.page_hash = ns.page_script_hash or self.page_hash
            self.max_age = ns.config.max_cached_message_age or self.max_age
        elif kind == "navigation":  # st.navigation names the page that ran (new_session names app.py)
            self.page_hash = fm.navigation.page_script_hash or self.page_hash
        elif kind == "page_info_changed":
            run.query = fm.page_info_changed.query_string
        elif kind == "delta":
            return self._read_delta(fm.delta, run)
        elif kind == "script_finished":
            from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
            run.status = ForwardMsg.ScriptFinishedStatus.Name(fm.script_finished)
            return True
        return False

    def _read_delta(self, delta, run: Run) -> bool:
        if delta.WhichOneof("type") != "new_element":
            return False
        el = delta.new_element
        kind = el.WhichOneof("type")
        if kind == "exception":
            run.exceptions.append(f"{el.exception.type}: {el.exception.message}")
            return False
        inner = getattr(el, kind) if kind else None
        wid = getattr(inner, "id", "") if inner is not None and hasattr(inner, "DESCRIPTOR") and \
            "id" in inner.DESCRIPTOR.fields_by_name else ""
        if not wid:
            return False
        self.seen_ids.add(wid)
        if kind == "bidi_component":
            if inner.component_name == PLAYER:
                self._player(inner, delta.fragment_id)
            return False
        value = _mount_value(kind, inner, wid not in self.widgets)
        if value is not None:
            self.widgets[wid] = value
        elif kind not in ("selectbox", "number_input", "checkbox", "text_input", "text_area", "button",
                          "download_button"):
            self.unknown_widgets.add(kind)
        return False

    def _player(self, el, fragment_id: str) -> None:
        raw = bytes(el.bytes)
        head, _, body = raw.partition(b"\n")
        if not head.startswith(b"sx-player:"):
            raise ProtocolError(f"the player's payload starts {head[:40]!r}, not sx-player:")
        data = json.loads(body)
        self.player_id, self.fragment_id = el.id, fragment_id or self.fragment_id
        self.view, self.n, self.start = data["view"], int(data["n"]), int(data["step"])
