"""Stepping fast in a real browser (issue #26 §1.1): keys pressed every 30 ms, and held, never break
the session, and afterwards the player, its caption, the URL, the share link and the step log agree."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tests.support.browser_pages import PLAYER, page_context, caption, errors, open_player, player_step

pytestmark = pytest.mark.browser

SMALL = "/elements?op=ScatterElements-18&example=onnx-scatterelements-18-example-1"
AGREE_WITHIN_MS = 2000  # how long the page may take to agree after the last key, polled


def long_case(steps: int) -> str:
    """A typed ScatterElements-18 case of ``steps`` steps (one write each), as an explorer link."""
    return "/elements?" + urlencode({"op": "ScatterElements-18", "example": "__custom__", "data": str([0] * 10),
                                     "indices": str([i % 10 for i in range(steps)]),
                                     "updates": str([i + 1 for i in range(steps)]), "reduction": "add"})


def broken(pg) -> str:
    """The text of Streamlit's connection-error dialog, or of a notice that a link value was ignored."""
    return pg.evaluate("""() => {
        const dialogs = [...document.querySelectorAll('[role=dialog]')].map(d => d.innerText)
            .filter(t => /Connection error|ForwardMsg|not expected/i.test(t));
        const ignored = [...document.querySelectorAll('[data-testid=stAlert]')].map(a => a.innerText)
            .filter(t => /was ignored/.test(t));
        return dialogs.concat(ignored).join(' | ');
    }""")


def open_step_log(pg, n: int) -> None:
    pg.get_by_text(f"Step log ({n} steps)").first.click()
    pg.get_by_text("Now at step ").first.wait_for(timeout=60_000)


def state(pg) -> dict:
    return pg.evaluate(f"""() => {{
        const log = [...document.querySelectorAll('[data-testid=stCaptionContainer]')]
            .map(c => c.innerText).find(t => t.startsWith('Now at step ')) || '';
        const share = [...document.querySelectorAll('[data-testid=stSidebar] code')]
            .map(c => c.innerText).find(t => t.includes('step=')) || '';
        return {{player: document.querySelector('{PLAYER}').dataset.step,
                 caption: document.querySelector('[data-testid=scatter-caption]').innerText,
                 url: new URL(location.href).searchParams.get('step'),
                 log: (/^Now at step (\\d+)/.exec(log) || [])[1] || null,
                 share: (/[?&]step=(\\d+)/.exec(share) || [])[1] || null}};
    }}""")


def agreed(pg, k: int, n: int) -> dict:
    """Poll until the player, caption, URL, share link and step log all show step ``k`` (at most
    AGREE_WITHIN_MS after the last key); the last state seen."""
    last = state(pg)
    for _ in range(AGREE_WITHIN_MS // 100):
        if last == {"player": str(k), "caption": last["caption"], "url": str(k), "log": str(k), "share": str(k)} \
                and last["caption"].startswith(f"step {k} of {n}" if k else "initial state"):
            break
        pg.wait_for_timeout(100)
        last = state(pg)
    return last


def expect_agreement(pg, k: int, n: int) -> None:
    last = agreed(pg, k, n)
    assert (last["player"], last["url"], last["log"], last["share"]) == (str(k),) * 4, last
    assert last["caption"].startswith(f"step {k} of {n}" if k else "initial state"), last


def test_alternating_arrows_every_30_ms_keep_the_session_and_agree(server, browser):
    ctx, pg = page_context(browser, height=1600)
    try:
        open_player(pg, server.url + SMALL)
        open_step_log(pg, 6)
        pg.locator(PLAYER).focus()
        for key in ["ArrowRight", "ArrowLeft"] * 83 + ["ArrowRight"]:  # about 5 s of presses
            pg.keyboard.press(key)
            pg.wait_for_timeout(30)
        assert player_step(pg) == 1
        expect_agreement(pg, 1, 6)
        assert broken(pg) == ""
        assert errors(pg) == []
    finally:
        ctx.close()


def test_200_presses_and_a_held_key_on_a_long_case(server, browser):
    n = 200
    ctx, pg = page_context(browser, height=1600)
    try:
        open_player(pg, server.url + long_case(n))
        assert caption(pg).startswith("initial state")
        open_step_log(pg, n)
        pg.locator(PLAYER).focus()
        for _ in range(n):  # → pressed 200 times, 30 ms apart
            pg.keyboard.press("ArrowRight")
            pg.wait_for_timeout(30)
        assert player_step(pg) == n
        expect_agreement(pg, n, n)
        assert broken(pg) == ""
        # ← held down: the browser repeats the key (keydown with repeat) every 30 ms until it is let go
        pg.keyboard.down("ArrowLeft")
        for _ in range(59):
            pg.wait_for_timeout(30)
            pg.keyboard.down("ArrowLeft")
        pg.keyboard.up("ArrowLeft")
        assert player_step(pg) == n - 60
        expect_agreement(pg, n - 60, n)
        assert broken(pg) == ""
        assert errors(pg) == []
    finally:
        ctx.close()


def test_keys_that_come_together_are_told_to_the_server_once(server, browser):
    """Coalescing: 50 key presses the browser takes in one go (as when it was busy drawing) make one
    report, of the last step, not 50 reruns."""
    ctx, pg = page_context(browser)
    try:
        open_player(pg, server.url + long_case(80))
        before = int(pg.locator(PLAYER).get_attribute("data-reports") or 0)
        pg.evaluate(f"""() => {{
            const box = document.querySelector('{PLAYER}');
            for (let i = 0; i < 50; i++)
                box.dispatchEvent(new KeyboardEvent('keydown', {{key: 'ArrowRight', bubbles: true}}));
        }}""")
        assert player_step(pg) == 50
        pg.wait_for_function("() => new URL(location.href).searchParams.get('step') === '50'", timeout=30_000)
        assert int(pg.locator(PLAYER).get_attribute("data-reports")) - before == 1
        assert broken(pg) == "" and errors(pg) == []
    finally:
        ctx.close()


STAND_IN = "/update?op=ScatterUpdate-3&example=ov-scatter-update-3-example-1"  # too large: a reduced stand-in


def count_runs(pg) -> dict:
    """The server's finished runs, read from the websocket's messages as they arrive: the whole page, or a
    fragment (Streamlit says which in each run's script_finished message)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    runs = {"page": 0, "fragment": 0}
    kinds = {ForwardMsg.FINISHED_SUCCESSFULLY: "page", ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY: "fragment"}

    def on_frame(payload):
        if isinstance(payload, str):
            return
        msg = ForwardMsg()
        try:
            msg.ParseFromString(payload)
        except Exception:  # noqa: BLE001 - not a ForwardMsg: nothing to count
            return
        if msg.WhichOneof("type") == "script_finished" and msg.script_finished in kinds:
            runs[kinds[msg.script_finished]] += 1

    pg.on("websocket", lambda ws: ws.on("framereceived", on_frame))
    return runs


@pytest.mark.parametrize("path,n", [(SMALL, 6), (STAND_IN, 2500)], ids=["small", "stand-in"])
def test_a_step_reruns_the_step_fragment_not_the_page(server, browser, path, n):
    ctx, pg = page_context(browser, height=1600)
    try:
        runs = count_runs(pg)
        open_player(pg, server.url + path)
        pg.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=60_000)
        pg.wait_for_timeout(500)
        assert runs["page"] >= 1
        before = dict(runs)
        pg.locator(PLAYER).focus()
        for k in (1, 2, 3):
            pg.keyboard.press("ArrowRight")
            pg.wait_for_function(f"() => new URL(location.href).searchParams.get('step') === '{k}'", timeout=30_000)
        last = agreed(pg, 3, n)
        assert (last["player"], last["url"], last["share"]) == ("3", "3", "3"), last
        pg.wait_for_timeout(500)
        assert runs["page"] == before["page"], runs  # no run of the whole page
        assert runs["fragment"] - before["fragment"] >= 3, runs  # one per step the server took
        assert broken(pg) == "" and errors(pg) == []
    finally:
        ctx.close()
