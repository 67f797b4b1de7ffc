"""The step-times switch ($SCATTER_EXPLORER_STEP_TIMES): off, nothing is written; on, one line per step taken."""

from __future__ import annotations

import threading

from scatter_ui.player import component as player_mod
from scatter_ui.state import step_times


def _fake_renderer(**kwargs):
    """Stands in for the player's component: the browser reports the step named by the session's "report"."""
    import streamlit as st

    def render(*, key, data, default, height, on_step_change, on_cell_change):
        report = st.session_state.get("report")
        if report is not None:
            st.session_state[key] = {"step": report}
            on_step_change()
        return st.session_state.get(key)

    return render


def _script():
    import numpy as np
    import streamlit as st

    import scatter_core as sc
    from scatter_ui.figures.heatmaps import StepFigure
    from scatter_ui.player.component import player

    fig = StepFigure(sc.trace(sc.case("ScatterElements-18", np.zeros(3), [1, 2], [5.0, 6.0]))).figure(0)
    player(fig, key="p", view="v", step=0, name="ScatterElements-18-demo",
           on_step=lambda k: st.session_state.__setitem__("taken", k))
    player(fig, key="quiet", view="v", step=0, name="quiet")  # keeps no step: never logged


def _run(reports: list) -> object:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_script, default_timeout=60)
    at.run()
    for report in reports:
        at.session_state["report"] = report
        at.run()
    return at


def test_off_by_default_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.delenv(step_times.ENV, raising=False)
    monkeypatch.setattr(player_mod, "renderer", _fake_renderer)
    monkeypatch.chdir(tmp_path)
    at = _run([{"step": 1, "view": "v"}])
    assert at.session_state["taken"] == 1  # the step was taken ...
    assert list(tmp_path.iterdir()) == []  # ... and nothing was written anywhere


def test_on_one_line_per_step_taken_with_its_step_and_session(tmp_path, monkeypatch):
    out = tmp_path / "steps.txt"
    monkeypatch.setenv(step_times.ENV, str(out))
    monkeypatch.setattr(player_mod, "renderer", _fake_renderer)
    at = _run([{"step": 2, "view": "v"}, {"step": 3, "view": "stale"}, {"step": 0, "view": "v"}])
    assert at.session_state["taken"] == 0
    rows = step_times.read(str(out))
    # the stale view's report is not a step taken; each taken step is one line, in order
    assert [(name, step) for _, _, name, step in rows] == [("ScatterElements-18-demo", 2), ("ScatterElements-18-demo", 0)]
    sessions = {sid for _, sid, _, _ in rows}
    assert len(sessions) == 1 and sessions != {"-"}  # Streamlit's session id (AppTest: "test_session_id"), both alike
    assert rows[0][0] <= rows[1][0]


def test_lines_from_many_threads_stay_whole(tmp_path, monkeypatch):
    out = tmp_path / "steps.txt"
    monkeypatch.setenv(step_times.ENV, str(out))

    def steps(i):
        for k in range(50):
            step_times.record(f"page {i}", k)  # outside a script run: session "-", the name's space joined

    threads = [threading.Thread(target=steps, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rows = step_times.read(str(out))
    assert len(rows) == 8 * 50 == len(out.read_text().splitlines())
    assert {(name, step) for _, _, name, step in rows} == {(f"page_{i}", k) for i in range(8) for k in range(50)}
    assert {sid for _, sid, _, _ in rows} == {"-"}


def test_the_per_process_bound_stops_writing(tmp_path, monkeypatch):
    out = tmp_path / "steps.txt"
    monkeypatch.setenv(step_times.ENV, str(out))
    monkeypatch.setattr(step_times, "lines_written", step_times.MAX_LINES - 2)
    for k in range(5):
        step_times.record("p", k)
    assert [step for *_, step in step_times.read(str(out))] == [0, 1]


def test_the_load_bench_matches_each_press_with_the_first_step_taken_after_it():
    from bench.server_steps import match_taken

    row = {"name": "op-ex", "session_ids": {"s1", "s1b"}, "pressed_steps": [1, 2, 0, 1], "presses": [1000, 3000, 5000]}
    log = [(0.9, "s1", "op-ex", 1),      # step 1 taken before its press (an earlier visit): not this press's
           (1.4, "s1", "op-ex", 1),      # press 1 -> 400 ms
           (1.5, "other", "op-ex", 2),   # another session's step 2: not ours
           (3.2505, "s1b", "op-ex", 2),  # the same page after a new websocket session: press 2 -> 250.5 ms
           (3.9, "s1", "op-ex", 2),      # said again: already matched
           (5.0, "s1", "op-ex", 1)]      # press 3 was step 0: never taken; step 1's 4th press has no press time
    taken, lost = match_taken([row], log)
    assert [round(t, 1) for t in taken] == [400.0, 250.5]
    assert lost == ["op-ex: step 0 pressed, never taken", "op-ex: step 1: the page's press time could not be read"]


def test_a_page_whose_session_id_was_not_seen_says_so():
    from bench.server_steps import match_taken

    row = {"name": "op-ex", "session_ids": set(), "pressed_steps": [1], "presses": [1000]}
    taken, lost = match_taken([row], [(1.4, "s1", "op-ex", 1)])
    assert taken == [] and lost == ["op-ex: step 1 pressed, never taken (the page's Streamlit session id was not seen)"]
