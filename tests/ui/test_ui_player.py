"""The step player's Python side: what it sends, how it reads the browser's reports, its assets."""

from __future__ import annotations

import pytest
import threading
from pathlib import Path

import numpy as np

import scatter_core as sc
from scatter_ui.player import component as player_mod
from scatter_ui.figures.heatmaps import StepFigure
from scatter_ui.player.component import ASSET_DIR, reported_step
from scatter_ui.player.script import ORDER, SOURCE_DIR, script


def test_a_report_counts_only_for_its_own_view():
    assert reported_step({"step": {"step": 3, "view": "a"}}, "a") == 3
    assert reported_step({"step": {"step": 3, "view": "b"}}, "a") is None
    assert reported_step({"step": 3}, "a") is None
    assert reported_step(None, "a") is None
    assert reported_step({"step": {"step": "x", "view": "a"}}, "a") is None
    assert reported_step({"step": {"step": -2, "view": "a"}}, "a") is None  # off the contract (StepReport: step ≥ 0)


def test_player_figure_has_captions_frames_and_exact_hover():
    data = np.zeros(4, np.float32)
    t = sc.trace(sc.case("ScatterElements-18", data, [1, 1], np.array([1.1, 2.2], np.float32)))
    fig = StepFigure(t).figure(1)
    assert (fig["k0"], fig["k1"], fig["n"], fig["active"]) == (0, 2, 2, 1)
    assert fig["captions"]["0"].startswith("initial state")
    assert fig["captions"]["2"].startswith("step 2 of 2: updates[1] = 2.2 goes to output[1]")
    last = fig["frames"][2]["data"][-1]["customdata"][0][1]
    # the output cell's chain of writes up to this step, each value in its own dtype
    assert last.split("<br>") == ["output[1] = 2.2", "step 1: updates[0] = 1.1 → 1.1", "step 2: updates[1] = 2.2 → 2.2"]
    first = fig["frames"][1]["data"][-1]["customdata"][0][1]
    assert first.split("<br>") == ["output[1] = 1.1", "step 1: updates[0] = 1.1 → 1.1"]
    assert fig["data"][1]["customdata"][0] == ["updates[0] = 1.1", "updates[1] = 2.2"]
    assert all(tr["hovertemplate"] == "%{customdata}<extra></extra>" for tr in fig["data"])
    assert "updatemenus" not in fig["layout"] and "sliders" not in fig["layout"]


def test_assets_ship_with_the_package_and_plotly_is_the_cartesian_dist():
    names = {p.name for p in ASSET_DIR.iterdir()}
    assert {"player.css", "plotly-cartesian.min.js"} <= names
    assert set(ORDER) == {p.name for p in SOURCE_DIR.glob("*.mjs")}  # the player's modules, joined into JS
    head = (ASSET_DIR / "plotly-cartesian.min.js").read_text(encoding="utf-8")[:200]
    assert "plotly.js (cartesian - minified)" in head
    js = player_mod.JS
    assert "innerHTML" not in js  # every text is set with textContent


def test_asset_registration_is_safe_from_many_threads_at_once():
    from streamlit.components.v2.component_manager import BidiComponentManager

    manager = BidiComponentManager()
    barrier = threading.Barrier(16)
    results, errors = [], []

    def work():
        try:
            barrier.wait()
            results.append(player_mod.ensure_registered(manager))
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(16)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert results == [ASSET_DIR] * 16
    assert Path(manager.get_component_asset_root(player_mod.NAME)) == ASSET_DIR


def test_the_module_is_sent_as_content_and_plotly_comes_from_the_asset_folder(monkeypatch):
    import streamlit as st

    assert player_mod.JS == script() and "export default" in player_mod.JS
    assert "import.meta.url" not in player_mod.JS  # a Blob URL has no folder: plotly's URL comes from Python
    name = player_mod.NAME
    assert player_mod.plotly_url() == f"/_stcore/bidi-components/{name}/plotly-cartesian.min.js"
    real = st.get_option
    monkeypatch.setattr(st, "get_option", lambda k: "/tools/scatter/" if k == "server.baseUrlPath" else real(k))
    assert player_mod.plotly_url() == f"/tools/scatter/_stcore/bidi-components/{name}/plotly-cartesian.min.js"


def test_every_page_sends_the_warm_up_element_first():
    from tests.support.apptest_helpers import open_page

    for page in ("home", "nd", "check", "spec-nd"):
        at = open_page(page)
        first = at.main.children[0]
        assert first.type == "bidi_component" and first.proto.component_name.endswith(".warm"), page
        assert not first.proto.js_content and not first.proto.js_source_path  # no script: nothing runs
        assert player_mod.WARM_KEY in first.proto.css_content and "display: none" in first.proto.css_content
        assert not [e for e in at.sidebar.children.values() if e.type == "bidi_component"]  # the page list stays unfolded


def test_a_page_without_on_step_asks_for_no_step_reports():
    """Practice keeps no step: its player reports none (each report would rerun the page for nothing)."""
    from streamlit.testing.v1 import AppTest

    def script():
        import numpy as np

        import scatter_core as sc
        from scatter_ui.figures.heatmaps import StepFigure
        from scatter_ui.player.component import player

        fig = StepFigure(sc.trace(sc.case("ScatterElements-18", np.zeros(3), [1, 2], [5.0, 6.0]))).figure(0)
        player(fig, key="quiet", view="v", step=0)
        player(fig, key="told", view="v", step=0, on_step=lambda k: None)

    at = AppTest.from_function(script, default_timeout=60)
    at.run()
    sent = {d["report"]: d for d in (player_mod.read_payload(e.proto.bytes) for e in at.get("bidi_component"))}
    assert set(sent) == {False, True}
    assert sent[False]["url_param"] is None and sent[True]["url_param"] == "step"


def test_a_payload_is_built_once_per_cache_key_and_reads_back():
    t = sc.trace(sc.case("ScatterElements-18", np.zeros(4), [1, 1, 3], [1.0, 2.0, 3.0]))
    built = []

    def figure():
        built.append(1)
        return StepFigure(t).figure(1)

    options = {"view": "case-a", "step": 1, "name": "x", "report": True, "url_param": "step", "plotly_url": "/p.js",
               "contract_url": "/c.json", "check": False, "controls": None,
               "room_below": None}
    key = ("test-payload", id(built))
    first = player_mod.payload(figure, options, key)
    again = player_mod.payload(figure, dict(options), key)
    assert again is first and built == [1]  # the same bytes, no second figure
    other = player_mod.payload(figure, {**options, "name": "y"}, key)
    assert other != first and built == [1, 1]
    data = player_mod.read_payload(first)
    assert data["view"] == "case-a" and data["n"] == 3 and data["captions"]["0"].startswith("initial state")
    head = first.split(b"\n", 1)[0]
    assert head.startswith(player_mod.PAYLOAD_MARK.encode()) and head != other.split(b"\n", 1)[0]
    uncached = player_mod.payload(figure, options)
    assert player_mod.read_payload(uncached) == data and uncached.split(b"\n", 1)[0] != head


def test_an_explorer_draws_the_rerun_relay_outside_its_step_fragment():
    """After a failover the new session drops a step fragment's rerun (it does not know the fragment):
    the player then asks for a whole run through the relay, which must not be in the fragment."""
    from tests.support.apptest_helpers import open_page

    at = open_page("nd")
    relays = [e for e in at.get("bidi_component") if e.proto.component_name.endswith(".relay")]
    assert len(relays) == 1
    assert player_mod.RERUN_EVENT in relays[0].proto.js_content and "setTriggerValue" in relays[0].proto.js_content
    assert player_mod.RELAY_KEY in relays[0].proto.css_content and "display: none" in relays[0].proto.css_content
    js = player_mod.JS
    assert f'const RERUN_EVENT = "{player_mod.RERUN_EVENT}"' in js and "dispatchEvent(new CustomEvent(RERUN_EVENT))" in js
    names = [e.proto.component_name for e in at.get("bidi_component")]
    assert names.index(relays[0].proto.component_name) < names.index(player_mod.NAME)  # drawn before the fragment


@pytest.mark.slow
def test_a_long_input_says_which_window_its_rows_were_windowed_for():
    """A figure with an input row axis over MAX_SIDE sends ``tall`` (the browser reports its height when its window
    is the other kind): a projector's few rows, or MAX_SIDE for a taller window; a figure without one sends null."""
    import spec_examples
    from scatter_ui.player.contract import check_payload, read_step_report
    from scatter_ui.figures.views import MAX_SIDE, MIN_ROW_WINDOW

    e = spec_examples.by_id("ov-scatter-nd-update-3-layer-example")
    t = sc.trace(sc.case(e.op, e.data, e.indices, e.updates, **e.attrs))
    for tall, rows in ((False, MIN_ROW_WINDOW), (True, MAX_SIDE)):
        sf = StepFigure(t, tall=tall)
        fig = sf.figure(1)
        assert fig["tall"] is tall and fig["rows"][1] == rows and sf.views_for(1)[1].row_len == rows
        options = {"view": "v", "step": 1, "name": "x", "report": True, "url_param": "step", "plotly_url": "/p.js",
                   "contract_url": "/c.json", "check": False, "controls": None, "room_below": 0}
        check_payload(player_mod.read_payload(player_mod.payload(fig, options), check=False))
    small = sc.trace(sc.case("ScatterElements-18", np.zeros(4), [1, 1], [1.0, 2.0]))
    assert StepFigure(small, tall=True).figure(1)["tall"] is None
    assert read_step_report({"step": 1, "view": "v", "height": 1000})["height"] == 1000
    assert reported_step({"step": {"step": 1, "view": "v", "height": -5}}, "v") is None  # off the contract


def test_the_short_window_is_one_number_in_python_and_in_the_player():
    """Python's SHORT_WINDOW (which rows a long input shows) and the player's SHORT (js/layout.mjs: when it fits
    the figure to the height, and when it reports its height) are the same threshold."""
    import re

    js = player_mod.JS
    found = re.findall(r"^const SHORT = (\d+);", js, flags=re.M)
    assert found == [str(player_mod.SHORT_WINDOW)], found
