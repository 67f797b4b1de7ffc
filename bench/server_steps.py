"""What the load benches share to time "press → the server took the step" (issue #26 §2).

The server appends a line per step it takes when ``$SCATTER_EXPLORER_STEP_TIMES`` names a file
(scatter_ui/state/step_times.py: ``time.time()``, Streamlit's session id, the player's name, the step). A
bench records each press in the page with ``Date.now()`` (a capture-phase listener, before the
player's own handler), learns each page's Streamlit session id from its websocket's ``new_session``
message, and matches the two here. ``Date.now()`` and ``time.time()`` read the same clock
(CLOCK_REALTIME) on one machine; ``check_clock`` verifies it per page. The player reports a step
only once stepping has paused for ``QUIET_MS`` (scatter_ui/player/js/controls.mjs), so the figure includes that pause.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUIET_MS = int(re.search(r"const QUIET_MS = (\d+)", (ROOT / "scatter_ui/player/js/controls.mjs").read_text())[1])


def press_listener(event: str) -> str:
    """Script for page.evaluate: each ``event`` ("click", "keydown") in the page, as Date.now(), in a list."""
    return (f"window.__benchPresses = []; window.addEventListener('{event}', "
            f"() => window.__benchPresses.push(Date.now()), true);")


async def read_presses(page) -> list[float]:
    """The press times the page recorded (also for a session that failed after a press); [] for a hung page."""
    try:
        return await asyncio.wait_for(page.evaluate("window.__benchPresses || []"), 30)
    except Exception:  # noqa: BLE001 - its presses go unmatched, counted as not taken
        return []


def watch_session_ids(page, ids: set) -> None:
    """Adds to ``ids`` the Streamlit session id of each websocket session the page opens (from its
    ``new_session`` message; a reconnect that the server does not resume opens a new one)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    def on_ws(ws):
        seen = [0]  # new_session comes among a websocket's first messages: read only those (the bench's CPU)

        def on_frame(payload):
            if not isinstance(payload, bytes) or seen[0] >= 20:
                return
            seen[0] += 1
            try:
                msg = ForwardMsg.FromString(payload)
            except Exception:  # noqa: BLE001 - not a ForwardMsg: not ours to read
                return
            if msg.WhichOneof("type") == "new_session" and msg.new_session.initialize.session_id:
                ids.add(msg.new_session.initialize.session_id)
                seen[0] = 20
        ws.on("framereceived", on_frame)

    page.on("websocket", on_ws)


async def check_clock(page) -> dict:
    """The page's Date.now() against Python's time.time() around it (ms): inside the round trip when the
    two read the same clock."""
    t0 = time.time() * 1000
    now = await page.evaluate("Date.now()")
    t1 = time.time() * 1000
    return {"inside": t0 - 1 <= now <= t1 + 1, "offset_ms": round(now - (t0 + t1) / 2, 1), "round_trip_ms": round(t1 - t0, 1)}


def match_taken(rows: list, log: list) -> tuple[list[float], list[str]]:
    """Each press (the page's Date.now(), ms) matched with the first line of the step-times ``log`` for
    the page's session ids and the pressed step at or after the press: the delays (ms), and the
    presses the server never took."""
    by_session: dict[str, list] = {}
    for t, sid, _name, step in log:
        by_session.setdefault(sid, []).append((t * 1000, step))
    taken, lost = [], []
    for row in rows:
        lines = sorted(x for sid in row["session_ids"] for x in by_session.get(sid, []))
        used = 0  # presses come one after another: a step taken for press i is not one for press i+1
        for press, k in zip(row["presses"], row["pressed_steps"]):
            # a ms of slack: Date.now() is whole ms, the log's time.time() rounded to µs
            hit = next((i for i in range(used, len(lines)) if lines[i][1] == k and lines[i][0] >= press - 1), None)
            if hit is None:
                lost.append(f"{row['name']}: step {k} pressed, never taken"
                            + ("" if row["session_ids"] else " (the page's Streamlit session id was not seen)"))
                continue
            taken.append(max(lines[hit][0] - press, 0.0))
            used = hit + 1
        for k in row["pressed_steps"][len(row["presses"]):]:
            lost.append(f"{row['name']}: step {k}: the page's press time could not be read")
    return taken, lost
