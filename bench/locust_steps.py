"""Locust: students stepping through examples, as Streamlit websocket sessions with no browser (issue #35 §5).

Each simulated student (:class:`StepperUser`) opens a spec example's explorer page over Streamlit's own
protocol (devtools/protocol.py: the messages Chromium sends and receives), then reports steps as the
player does, next after next and back to 0 after the last, with ``STEP_WAIT`` seconds (a range, "1,3"
by default) of reading between a step's finished run and the next report. Each step is a Locust request
``step``, timed from the report to the fragment run's ``script_finished``; it fails (counted as lost)
unless the run finished, showed no exception and left the URL at that step. ``open`` is the first run.
At the end it prints p50/p95/max of the steps and the lost count (``STEPS_JSON`` also writes them).

Run (the server on core 0, Locust on core 1; docs/performance.md):
  taskset -c 0 streamlit run app.py --server.headless true --server.port 8599 &
  taskset -c 1 locust -f bench/locust_steps.py --headless -u 30 -r 10 -t 60s -H http://127.0.0.1:8599
"""

from __future__ import annotations

import itertools
import json
import os
import statistics
import sys
import time
from pathlib import Path

from locust import User, between, events, task

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devtools.protocol import ProtocolError, StreamSession, example_links  # noqa: E402


def _wait() -> tuple[float, float]:
    lo, _, hi = os.environ.get("STEP_WAIT", "1,3").partition(",")
    return float(lo), float(hi or lo)


_links: list = []
_next = itertools.count()
_steps: list = []  # ms of every step taken
_lost: list = []  # what went wrong with each step not taken


class StepperUser(User):
    """One student: opens an example, then steps through it until the run ends."""

    wait_time = between(*_wait())

    def on_start(self) -> None:
        if not _links:
            _links.extend(example_links())
        self.link = _links[next(_next) % len(_links)]
        self.session = StreamSession(self.host, timeout=float(os.environ.get("STEP_TIMEOUT", "30")))
        self.k = 0
        t0 = time.perf_counter()
        try:
            run = self.session.open(self.link)
        except Exception as exc:  # noqa: BLE001 - a session that cannot open is a failed request, not a crash
            self._fire("open", t0, exc=exc)
            self.session.close()
            self.session = None
            return
        self._fire("open", t0, run.messages)

    @task
    def step(self) -> None:
        if self.session is None:
            return
        k = self.k + 1 if self.k < self.session.n else 0
        t0 = time.perf_counter()
        try:
            run = self.session.step(k)
        except Exception as exc:  # noqa: BLE001 - lost: the reply was wrong, late or the connection went
            _lost.append(f"{self.link} step {k}: {type(exc).__name__}: {exc}"[:300])
            self._fire("step", t0, exc=exc)
            if not isinstance(exc, ProtocolError):
                self.session.close()
                self.session = None
            return
        self.k = k
        _steps.append(run.seconds * 1000)
        self._fire("step", t0, run.messages, ms=run.seconds * 1000)

    def on_stop(self) -> None:
        if self.session is not None:
            self.session.close()

    def _fire(self, name: str, t0: float, length: int = 0, exc=None, ms: float | None = None) -> None:
        self.environment.events.request.fire(
            request_type="WS", name=name, response_time=ms if ms is not None else (time.perf_counter() - t0) * 1000,
            response_length=length, exception=exc, context={"link": getattr(self, "link", "")})


def summary(steps: list, lost: list) -> dict:
    """The steps' count, p50/p95/max (ms, interpolated between the sorted values) and what was lost."""
    q = statistics.quantiles(steps, n=100, method="inclusive") if len(steps) > 1 else steps * 99
    ms = [round(q[49], 1), round(q[94], 1), round(max(steps), 1)] if q else [None] * 3
    return {"steps": len(steps), "lost": len(lost), "p50_ms": ms[0], "p95_ms": ms[1], "max_ms": ms[2],
            "lost_examples": lost[:10]}


@events.quitting.add_listener
def _report(environment, **_kw) -> None:
    out = summary(_steps, _lost)
    out["users"] = environment.runner.target_user_count if environment.runner else None
    print("locust_steps:", json.dumps(out), flush=True)
    if os.environ.get("STEPS_JSON"):
        Path(os.environ["STEPS_JSON"]).write_text(json.dumps(out, indent=1))
    if _lost:
        environment.process_exit_code = 1
