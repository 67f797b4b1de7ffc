"""The protocol-level load generator against the real app: sessions that speak Streamlit's websocket
protocol with no browser (devtools/protocol.py) open examples and step through them, and every step's
reply is the step sent; the server's own record of the steps it took (scatter_ui/state/step_times.py) agrees.
Then bench/locust_steps.py's user class runs headless under Locust. No timing is asserted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

from devtools.browser import ROOT, AppServer
from devtools.protocol import ProtocolError, StreamSession, example_links
from scatter_ui.state import step_times

# one example of three families, each a different page (elements, nd, slice_scatter) and widget set
LINKS = ["/elements?op=ScatterElements-18&example=onnx-scatterelements-18-example-1",
         "/nd?op=ScatterND-18&example=onnx-scatternd-18-example-1",
         "/slice_scatter?op=SliceScatter-15&example=ov-slice-scatter-15-example-1"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("steps") / "steps.log"
    srv = AppServer(env={step_times.ENV: str(log)}).start()
    srv.log = log
    yield srv
    srv.stop()


def test_links_name_real_examples():
    every = example_links()
    assert set(LINKS) <= set(every), set(LINKS) - set(every)


def test_sessions_step_through_their_examples_and_every_reply_is_the_step_sent(server):
    sessions = [StreamSession(server.url, timeout=120) for _ in LINKS]
    taken: dict = {}
    errors: list = []

    def student(s: StreamSession, link: str) -> None:
        try:
            s.open(link)
            steps = [*range(1, s.n + 1), 0, 1]  # through to the end, back to the start, one more
            for k in steps:
                s.step(k)  # raises unless the run finished, with no exception, the URL at step k
            taken[s.session_id] = (link, steps)
        except Exception as exc:  # noqa: BLE001 - reported below with the link
            errors.append(f"{link}: {type(exc).__name__}: {exc}")
        finally:
            s.close()

    threads = [threading.Thread(target=student, args=(s, link)) for s, link in zip(sessions, LINKS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not errors, errors
    assert len(taken) == len(LINKS)
    for s in sessions:
        assert s.n >= 2 and not s.unknown_widgets, (s.n, s.unknown_widgets)
        assert s.page_hash and s.fragment_id and s.player_id.endswith(":player")
    # the server's own record: each session's player callback saw exactly the steps sent, in order
    by_session: dict = {}
    for _t, sid, _name, k in step_times.read(str(server.log)):
        by_session.setdefault(sid, []).append(k)
    for sid, (link, steps) in taken.items():
        assert by_session.get(sid) == steps, (link, by_session.get(sid), steps)


def test_a_report_the_server_does_not_take_is_caught(server):
    """The check can fail: a report for another view (a stale one) is not a step the page takes, so the
    URL keeps the old step and step() says so."""
    s = StreamSession(server.url, timeout=120)
    try:
        s.open(LINKS[0])
        s.step(1)
        s.view = "another view"
        with pytest.raises(ProtocolError, match=r"step 2: the URL after the run has step=\['1'\]"):
            s.step(2)
    finally:
        s.close()


@pytest.mark.slow
def test_locust_user_class_runs_headless_and_loses_no_step(server, tmp_path):
    out = tmp_path / "steps.json"
    env = dict(os.environ, STEPS_JSON=str(out), STEP_WAIT="0.2,0.5", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "locust", "-f", str(ROOT / "bench" / "locust_steps.py"), "--headless",
                           "-u", "2", "-r", "2", "-t", "12s", "-H", server.url, "--only-summary",
                           "--loglevel", "WARNING"], env=env, capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    figures = json.loads(out.read_text())
    assert figures["lost"] == 0 and figures["steps"] >= 4, figures
    assert figures["p50_ms"] <= figures["p95_ms"] <= figures["max_ms"], figures
