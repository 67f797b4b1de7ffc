"""A developer switch: when the server takes a step, append one line to a file (off unless asked for).

With ``SCATTER_EXPLORER_STEP_TIMES=/path/file`` in the server's environment, every step report the
server reads from the player (the player's ``on_step`` callback, before the rerun) appends one line::

    <time.time(), 6 decimals> <Streamlit session id> <player name> <step>

bench/load_balancer.py matches these lines with the browser's press times (``Date.now()``, the same
machine clock) to time "press → the server took the step" (issue #26 §2). Without the variable
nothing is written and the cost is one dictionary look-up. Bounded: one short line per step (the
name and the session id as one word each, at most 80 characters), at most ``MAX_LINES`` lines per
server process; each line is one ``os.write`` on a file opened with O_APPEND, so the replicas of
``scatter-explorer serve`` and the server's threads can share one file without interleaving lines.
"""

from __future__ import annotations

import os
import threading
import time

ENV = "SCATTER_EXPLORER_STEP_TIMES"
MAX_LINES = 100_000

_lock = threading.Lock()
lines_written = 0  # lines this process wrote (at most MAX_LINES)


def _session_id() -> str:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx.session_id if ctx is not None else "-"


def _word(text) -> str:
    """``text`` as one field of a line: spaces joined with "_", at most 80 characters."""
    return "_".join(str(text).split())[:80] or "-"


def record(name: str, step: int) -> None:
    """Append "time session name step" to the file named by $SCATTER_EXPLORER_STEP_TIMES, if it is set."""
    global lines_written
    path = os.environ.get(ENV)
    if not path:
        return
    line = f"{time.time():.6f} {_word(_session_id())} {_word(name)} {int(step)}\n"
    with _lock:
        if lines_written >= MAX_LINES:
            return
        lines_written += 1
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError:
            return  # a developer switch never breaks the page
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)


def read(path: str) -> list[tuple[float, str, str, int]]:
    """The lines of a step-times file as (time, session id, name, step); lines that do not parse are skipped."""
    rows = []
    try:
        text = open(path, encoding="utf-8").read()
    except OSError:
        return rows
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 4:
            continue
        try:
            rows.append((float(parts[0]), parts[1], parts[2], int(parts[3])))
        except ValueError:
            continue
    return rows
