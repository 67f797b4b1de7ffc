"""Closing the sessions whose browser left, so what they hold is given back.

Streamlit keeps a session whose websocket closed (a tab closed) for ``server.disconnectedSessionTTL``
(120 s) so that a reconnecting tab resumes it, but forgets it only when something next lists its
sessions, and then without shutting it down. A session keeps its fragments' arguments (the explorer's
case and trace, up to hundreds of MB for the large examples), so on an idle server nothing was given
back. :func:`reap` closes, on Streamlit's event loop, each session disconnected for ``grace`` seconds
(the cache's idle time, at most half of Streamlit's own time to live); every view's state is in its
URL, so a tab that comes back after that gets a fresh session at the same view. Streamlit has no public
way to list disconnected sessions: this reads its session manager, and does nothing if that changes.
"""

from __future__ import annotations

import time

_seen: dict[str, float] = {}  # session id -> when a sweep first found it disconnected


def _streamlit_ttl() -> float:
    from streamlit import config

    return float(config.get_option("server.disconnectedSessionTTL") or 120)


def close_disconnected(runtime, grace: float, now: float) -> list[str]:
    """On the event loop: close the sessions found disconnected ``grace`` seconds ago or earlier;
    returns their ids."""
    mgr = runtime._session_mgr  # noqa: SLF001 - no public listing of disconnected sessions
    gone = [i.session.id for i in mgr.list_sessions() if not mgr.is_active_session(i.session.id)]
    for sid in list(_seen):
        if sid not in gone:
            del _seen[sid]
    closed = []
    for sid in gone:
        if now - _seen.setdefault(sid, now) >= grace:
            runtime.close_session(sid)
            _seen.pop(sid, None)
            closed.append(sid)
    return closed


def reap(idle_seconds: float, done=None) -> bool:
    """From any thread: schedule :func:`close_disconnected` on Streamlit's event loop, with a grace of
    ``idle_seconds`` (at most half Streamlit's own time to live); ``done(closed_ids)`` is called there
    after. False when no Streamlit server runs in this process (tests, scripts)."""
    try:
        from streamlit.runtime import Runtime

        if not Runtime.exists():
            return False
        runtime = Runtime.instance()
        loop = runtime._get_async_objs().eventloop  # noqa: SLF001
        grace = min(float(idle_seconds), _streamlit_ttl() / 2)
    except Exception:  # noqa: BLE001 - Streamlit's internals changed, or no loop yet: keep everything
        return False

    def run() -> None:
        try:
            closed = close_disconnected(runtime, grace, time.monotonic())
        except Exception:  # noqa: BLE001 - never break the server's loop
            return
        if done is not None:
            done(closed)

    try:
        loop.call_soon_threadsafe(run)
    except RuntimeError:  # the loop closed (the server is stopping)
        return False
    return True
