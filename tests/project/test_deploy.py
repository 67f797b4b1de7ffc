"""A class at once: `scatter-explorer serve` runs N Streamlit replicas behind HAProxy (issue #26 §2).

The config and the command's refusals are checked without HAProxy. The rest starts the real thing on
loopback ports: two replicas and Debian's haproxy, then drives Chromium through the balancer:
sticky sessions, a step, one replica killed, the view resumed on the other one; and the real "Your model"
page: a model uploaded, captured, opened and stepped, its replica killed, the page asking for the file again
(and taking it, on the other replica), a sample's node reopened, and Ctrl+C stopping every process.

HAProxy comes from scripts/install-test-deps.sh (recorded in <venv>/haproxy-path; $HAPROXY overrides).
Without it these tests skip; under CI=true they fail.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.request
from urllib.parse import parse_qs, urlencode, urlparse

import pytest

from scatter_explorer import cli, serve
from scatter_models.samples import sample_path
from tests.support.browser_support import ROOT, SCREENSHOTS, real_errors, require_browser
from tests.support.deploy_support import Balancer, alive, haproxy

COOKIE = serve.COOKIE
EXAMPLE = "/elements?op=ScatterElements-18&example=onnx-scatterelements-18-example-1"
TYPED = "/nd?" + urlencode({"op": "ScatterND-18", "example": "__custom__", "data": "[1,2,3,4,5,6]",
                            "indices": "[[4],[0],[4]]", "updates": "[10,20,30]", "reduction": "add", "step": "1"})
CAPTION = "[data-testid=scatter-caption]"


# --- without HAProxy -------------------------------------------------------------------------------------------

def test_config_has_a_sticky_cookie_health_checks_and_one_server_per_replica():
    cfg = serve.render_config([9101, 9102, 9103], "0.0.0.0", 9100)
    assert "${" not in cfg
    assert "bind 0.0.0.0:9100" in cfg
    assert f"cookie {COOKIE} insert indirect nocache" in cfg  # inserted by HAProxy, not ip_hash
    directives = [line.strip() for line in cfg.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert "balance leastconn" in directives and not any(d.startswith(("balance source", "hash-type")) for d in directives)
    assert "option httpchk GET /_stcore/health" in cfg and "option redispatch" in cfg
    assert re.search(r"timeout tunnel \d+h", cfg)  # long-lived websockets
    servers = re.findall(r"^\s*server (r\d+) 127\.0\.0\.1:(\d+) cookie (r\d+) check$", cfg, re.M)
    assert servers == [("r1", "9101", "r1"), ("r2", "9102", "r2"), ("r3", "9103", "r3")]


def test_serve_without_haproxy_says_how_to_install_it(capsys):
    assert serve.main(["--replicas", "2", "--haproxy", "/nonexistent/haproxy"]) == 3
    err = capsys.readouterr().err
    assert "HAProxy is not installed" in err and "apt-get install haproxy" in err


@pytest.mark.parametrize("argv,message", [(["--replicas", "0"], "--replicas must be between 1 and 32"),
                                          (["--replicas", "2", "--port", "9200", "--replica-port", "9199"],
                                           "include the public port 9200")])
def test_serve_refuses_what_it_cannot_do(capsys, argv, message):
    assert serve.main([*argv, "--haproxy", sys.executable]) == 2  # any executable passes the lookup
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("argv,message", [(["--bogus"], "unknown option '--bogus'"),
                                          (["9999"], "unknown word '9999'"),
                                          (["--server.port", "9000"], "--server.port is set by serve")])
def test_serve_passes_only_streamlit_options_on(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        serve.main(["--replicas", "2", *argv])
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_the_command_passes_serve_on(monkeypatch):
    seen = []
    monkeypatch.setattr(serve, "main", lambda argv: seen.append(argv) or 7)
    with pytest.raises(SystemExit) as stop:
        cli.main(["serve", "--replicas", "3"])
    assert stop.value.code == 7 and seen == [["--replicas", "3"]]


def test_serve_class_script_says_its_usage():
    run = subprocess.run(["bash", str(ROOT / "scripts" / "serve-class.sh")], capture_output=True, text=True)
    assert run.returncode == 2 and "usage: bash scripts/serve-class.sh N" in run.stderr


# --- with HAProxy ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 4])
def test_haproxy_accepts_the_config(tmp_path, n):
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(serve.render_config(list(range(9301, 9301 + n)), "127.0.0.1", 9300))
    check = subprocess.run([haproxy(), "-c", "-f", str(cfg)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    require_browser()
    bal = Balancer(tmp_path_factory.mktemp("serve"))
    yield bal
    bal.stop()


def _replica_of(ctx, url: str) -> str | None:
    return next((c["value"] for c in ctx.cookies(url) if c["name"] == COOKIE), None)


def _context(browser, url: str, replica: str | None = None):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    if replica:  # as if this browser had been sent there before
        ctx.add_cookies([{"name": COOKIE, "value": replica, "url": url}])
    pg = ctx.new_page()
    pg.errors, pg.replicas = [], []
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.errors.append(f"pageerror: {e}"))
    pg.on("response", lambda r: pg.replicas.append(r.headers.get("x-scatter-replica")))
    pg.sockets = []
    pg.on("websocket", lambda ws: pg.sockets.append(ws))
    return ctx, pg


def _share_link(pg) -> dict:
    """The sidebar's share link, written by the server on each run, as its query parameters."""
    text = pg.locator("[data-testid=stSidebar] code").filter(has_text="step=").first.inner_text()
    return {k: v[0] for k, v in parse_qs(urlparse(text.strip()).query).items()}


def _open(pg, url: str) -> None:
    pg.goto(url)
    pg.wait_for_selector("[data-testid=scatter-figure][data-ready='1']", timeout=180_000)


def _settled(pg, timeout: float = 120_000) -> None:
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)


def _wait_link_step(pg, k: int, timeout: float = 120_000) -> None:
    pg.wait_for_function(
        "k => [...document.querySelectorAll('[data-testid=stSidebar] code')].some(c => c.innerText.includes('step=' + k))",
        arg=str(k), timeout=timeout)


def _wait_replica(ctx, url: str, other_than: str, timeout: float = 120) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = _replica_of(ctx, url)
        if now and now != other_than:
            return now
        time.sleep(0.5)
    raise AssertionError(f"the browser was never sent to a replica other than {other_than}")


@pytest.mark.slow
def test_sticky_sessions_a_step_and_the_view_resumed_after_a_replica_dies(class_server, browser):
    url = class_server.url
    ctx, pg = _context(browser, url)
    ctx2, typed = _context(browser, url)
    try:
        # sticky: HAProxy inserts its cookie, and every response the page loads comes from that replica
        _open(pg, url + EXAMPLE)
        first = _replica_of(ctx, url)
        assert first in ("r1", "r2")
        served = [r for r in pg.replicas if r]
        assert served and set(served) == {first}
        pg.get_by_test_id("player-next").click()
        pg.get_by_test_id("player-next").click()
        _wait_link_step(pg, 2)
        _settled(pg)
        before = pg.locator(CAPTION).inner_text()
        assert before.startswith("step 2 of 6")
        link = _share_link(pg)
        assert link["op"] == "ScatterElements-18" and link["example"] == "onnx-scatterelements-18-example-1"

        # typed tensors, on the same replica (the cookie a first visit would have set)
        ctx2.add_cookies([{"name": COOKIE, "value": first, "url": url}])
        _open(typed, url + TYPED)
        _settled(typed)
        assert _replica_of(ctx2, url) == first and {r for r in typed.replicas if r} == {first}
        # and typed in the page, not only in the link
        box = typed.locator("textarea[aria-label='updates']")
        box.fill("[10,20,40]")
        box.press("Control+Enter")
        typed.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=stSidebar] code')].some(c => /updates=[^&]*40/.test(c.innerText))",
            timeout=120_000)
        _settled(typed)
        typed_before = typed.locator(CAPTION).inner_text()
        assert typed_before.startswith("step 1 of 3")
        typed_link = _share_link(typed)
        assert typed_link["updates"] == "[10,20,40]"

        class_server.kill_replica(first)
        other = _wait_replica(ctx, url, first)
        assert _wait_replica(ctx2, url, first) == other
        _settled(pg)
        _settled(typed)
        # the same view: the URL, the caption and the server's share link, now written by the other replica
        assert pg.locator(CAPTION).inner_text() == before
        assert parse_qs(urlparse(pg.url).query)["step"] == ["2"]
        pg.get_by_test_id("player-next").click()
        _wait_link_step(pg, 3)
        after = _share_link(pg)
        assert {k: after[k] for k in ("op", "example", "step")} == {
            "op": "ScatterElements-18", "example": "onnx-scatterelements-18-example-1", "step": "3"}
        assert pg.locator(CAPTION).inner_text().startswith("step 3 of 6")

        assert typed.locator(CAPTION).inner_text() == typed_before
        typed.get_by_test_id("player-next").click()
        _wait_link_step(typed, 2)
        typed_after = _share_link(typed)
        assert {k: typed_after[k] for k in ("data", "indices", "updates", "reduction")} == {
            k: typed_link[k] for k in ("data", "indices", "updates", "reduction")}
        assert typed.locator(CAPTION).inner_text().startswith("step 2 of 3")
        assert typed.locator("textarea[aria-label='updates']").input_value() == "[10,20,40]"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SCREENSHOTS / "deploy-after-failover.png"))
        typed.screenshot(path=str(SCREENSHOTS / "deploy-typed-after-failover.png"))
        for p in (pg, typed):
            assert p.get_by_role("dialog").count() == 0
            assert [e for e in real_errors(p.errors) if "pageerror" in e] == []
    finally:
        ctx.close()
        ctx2.close()


MODEL = "/model"
SIDEBAR_FILE = "[data-testid=stSidebar] input[type=file]"
FIGURE = "[data-testid=scatter-figure][data-ready='1']"
PLAYER = "[data-testid=scatter-player]"
UPLOADED, UPLOADED_NODE = "index_put", "index_put_accumulate"  # the sample's file, uploaded as a user's own
SAMPLE, SAMPLE_NODE = "scatter_amax", "scatter_reduce_amax"


def _query(pg) -> dict:
    return {k: v[0] for k, v in parse_qs(urlparse(pg.url).query).items()}


def _wait_query(pg, **want) -> None:
    pg.wait_for_function("want => { const q = new URLSearchParams(location.search);"
                         " return Object.entries(want).every(([k, v]) => q.get(k) === v); }",
                         arg=want, timeout=120_000)


def _capture_and_step(pg, node: str) -> None:
    """Capture, see ``node`` open in the player, step once (the player's own button)."""
    pg.get_by_role("button", name="Capture").click()
    pg.get_by_text("Captured nodes").first.wait_for(timeout=180_000)
    pg.wait_for_selector(FIGURE, timeout=120_000)
    _settled(pg)
    assert pg.get_by_text(f"{node} · Scatter").count() >= 1
    pg.get_by_test_id("player-next").click()
    pg.wait_for_function(f"() => document.querySelector('{PLAYER}').dataset.step === '1'", timeout=60_000)
    assert pg.locator(CAPTION).inner_text().startswith("step 1 of ")


def _step_on_the_new_replica(pg, then: str) -> None:
    """Once the page's websocket has reconnected (to the other replica), step as a user would, until ``then``
    shows: a press made while the page was still reconnecting is not sent (the user presses again)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.monotonic() + 180
    while not [ws for ws in pg.sockets[1:] if not ws.is_closed()]:
        assert time.monotonic() < deadline, "the page never reconnected"
        pg.wait_for_timeout(500)
    _settled(pg)
    for _ in range(4):
        pg.get_by_test_id("player-next").click()
        try:
            pg.get_by_text(then).first.wait_for(timeout=45_000)
            return
        except PlaywrightTimeout:
            if not pg.get_by_test_id("player-next").count():
                raise
    raise AssertionError(f"after a failover, stepping never showed {then!r}")


def _no_error_shown(pg) -> None:
    main = pg.locator("[data-testid=stMain]").inner_text()
    assert "could not finish" not in main and "Traceback" not in main
    assert pg.locator("[data-testid=stException]").count() == 0 and pg.get_by_role("dialog").count() == 0
    assert [e for e in real_errors(pg.errors) if "pageerror" in e] == []


@pytest.mark.slow
def test_the_model_page_through_the_balancer_asks_again_for_an_upload_a_dead_replica_held(tmp_path, browser):
    """The real /model page on 2 replicas: an upload reaches the session's replica (Streamlit's XSRF cookie),
    is captured, opened and stepped; a sample beside it too. The replica dies: both pages reconnect to the other
    one. The upload's page says plainly that the file stayed on the stopped server (no error), its URL still
    names the file, the model and the node; choosing the file again uploads it to the new replica and the capture
    reopens that node. The sample's page reopens the sample and names its node, and Capture reopens it.
    Ctrl+C then stops every process."""
    require_browser()

    upload = sample_path(UPLOADED)
    bal = Balancer(tmp_path / "serve")
    ctx = ctx2 = None
    try:
        ctx, pg = _context(browser, bal.url)
        pg.goto(bal.url + MODEL)
        pg.get_by_text("Upload a model in the sidebar").first.wait_for(timeout=180_000)
        _settled(pg)
        first = _replica_of(ctx, bal.url)
        assert first in ("r1", "r2")
        assert any(c["name"] == "_streamlit_xsrf" for c in ctx.cookies(bal.url))
        pg.locator(SIDEBAR_FILE).first.set_input_files(str(upload))
        pg.get_by_text("1 of 1 scatter nodes").first.wait_for(timeout=120_000)
        _capture_and_step(pg, UPLOADED_NODE)
        _wait_query(pg, upload=upload.name, node=UPLOADED_NODE)
        before = _query(pg)
        assert re.fullmatch(r"[0-9a-f]{16}", before["model"])
        assert {r for r in pg.replicas if r} == {first}  # the page, the upload and the capture: one replica

        ctx2, sample = _context(browser, bal.url, first)  # a sample opened by link, on the same replica
        sample.goto(bal.url + MODEL + "?" + urlencode({"sample": SAMPLE}))
        sample.get_by_role("button", name="Capture").wait_for(timeout=180_000)
        _settled(sample)
        _capture_and_step(sample, SAMPLE_NODE)
        _wait_query(sample, sample=SAMPLE, node=SAMPLE_NODE)

        bal.kill_replica(first)
        other = _wait_replica(ctx, bal.url, first)
        assert _wait_replica(ctx2, bal.url, first) == other
        # Streamlit's browser keeps the page as it was when its websocket reconnects; the user's next step runs
        # the page on the other replica, which never had the file: (a) the plain message, not an error;
        # (b) the URL keeps what it carries
        _step_on_the_new_replica(pg, "this server does not have it")
        _settled(pg)
        _no_error_shown(pg)
        message = pg.locator("[data-testid=stAlert]").filter(has_text="this server does not have it").inner_text()
        assert upload.name in message and "choose it again" in message and f"reopen node {UPLOADED_NODE}" in message
        assert _query(pg) == before
        # a second run on this replica (R reruns, as the ⋮ menu's Rerun) sees the lost file as a placeholder in the
        # upload box's state: still the message, not "could not finish"
        pg.locator("[data-testid=stMain] h1").click()
        pg.keyboard.press("r")
        pg.wait_for_timeout(1000)
        _settled(pg)
        pg.get_by_text("this server does not have it").wait_for(timeout=60_000)
        _no_error_shown(pg)
        pg.evaluate("document.activeElement.blur()")  # no focus ring in the screenshots
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SCREENSHOTS / "deploy-model-lost-upload.png"))
        pg.set_viewport_size({"width": 390, "height": 844})
        pg.wait_for_timeout(500)
        pg.screenshot(path=str(SCREENSHOTS / "deploy-model-lost-upload-phone.png"))
        pg.set_viewport_size({"width": 1400, "height": 1000})

        # as the message says: the upload box still shows the lost file (the browser keeps it; a run sees a
        # placeholder of a file this server never received, and the same file chosen beside it is not sent), so
        # remove it with ×, and choose the file again. It goes to the new replica (its XSRF check passes: the
        # token is the browser's cookie, signed with the replicas' shared secret); the capture reopens the node
        chip = pg.locator("[data-testid=stSidebar] [data-testid=stFileChip]")
        shown = chip.locator("[data-testid=stFileChipName]").inner_text()  # a long name is shortened in the middle
        assert chip.count() == 1 and upload.name.startswith(shown.split("...")[0])
        assert upload.name.endswith(shown.split("...")[-1])
        chip.locator("[data-testid=stFileChipDeleteBtn]").click()
        _settled(pg)
        _no_error_shown(pg)
        assert pg.get_by_text("this server does not have it").count() == 1 and _query(pg) == before
        # the user's own copy of that file (Chromium sends no change for the very path the input already holds)
        again = tmp_path / "again" / upload.name
        again.parent.mkdir()
        again.write_bytes(upload.read_bytes())
        pg.locator(SIDEBAR_FILE).first.set_input_files(str(again))
        pg.get_by_text("1 of 1 scatter nodes").first.wait_for(timeout=120_000)
        _settled(pg)
        assert pg.get_by_text("this server does not have it").count() == 0
        _capture_and_step(pg, UPLOADED_NODE)
        _wait_query(pg, upload=upload.name, model=before["model"], node=UPLOADED_NODE)
        _no_error_shown(pg)

        # the sample needs no file: it reopens, names the node, and Capture reopens that node
        _step_on_the_new_replica(sample, f"The link names node {SAMPLE_NODE}")
        _no_error_shown(sample)
        assert _query(sample) == {"sample": SAMPLE, "node": SAMPLE_NODE}
        _capture_and_step(sample, SAMPLE_NODE)
        sample.screenshot(path=str(SCREENSHOTS / "deploy-model-sample-resumed.png"))
        _no_error_shown(sample)
    finally:
        for c in (ctx, ctx2):
            if c is not None:
                c.close()
        code = bal.stop()
    assert code == 0, "".join(bal.out)
    assert "serve: stopped." in "".join(bal.out)
    assert [name for name, pid in bal.pids.items() if alive(pid)] == []  # no orphan
    for port in range(bal.port, bal.port + 3):
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2)


@pytest.mark.slow
def test_practice_keeps_the_students_place_after_a_failover_and_says_what_stayed_behind(tmp_path, browser):
    """A student in a shared set, on its second exercise with one answer checked, loses their replica: the next
    click lands on the other replica, which opens the same exercise from the URL and says that the checked
    answer and the score stayed in the lost session."""
    require_browser()
    import scatter_practice as sp

    ex = sp.exercise_set(7, 3, 4)[1]
    bal = Balancer(tmp_path / "serve")
    try:
        ctx, pg = _context(browser, bal.url)
        pg.goto(bal.url + "/practice?set=7&level=3&n=4")
        header = pg.locator("h2").filter(has_text="set 7, exercise")
        header.filter(has_text="exercise 1 of 4").wait_for(timeout=180_000)
        pg.get_by_role("button", name="next ▶").click()
        header.filter(has_text="exercise 2 of 4").wait_for(timeout=120_000)
        pg.get_by_role("textbox", name=re.compile("^Target cell")).fill(", ".join("0" for _ in ex.answer.shape))
        pg.get_by_role("textbox", name="Value after the step").fill("1")
        pg.get_by_role("button", name="Check").click()
        verdict = pg.get_by_text("Try once more").or_(pg.get_by_role("button", name=re.compile("^(Next step|Finish)")))
        verdict.first.wait_for(timeout=120_000)
        if pg.get_by_text("Try once more").count():  # a first wrong check gets one more try: the answer is checked
            pg.get_by_role("button", name="Check").click()  # to the end on the second
        pg.wait_for_function("() => new URL(location.href).searchParams.get('answered') === '1'", timeout=120_000)
        _settled(pg)
        query = parse_qs(urlparse(pg.url).query)
        assert {k: query[k] for k in ("set", "level", "n", "i")} == {"set": ["7"], "level": ["3"], "n": ["4"],
                                                                     "i": ["2"]}
        first = _replica_of(ctx, bal.url)
        bal.kill_replica(first)
        _wait_replica(ctx, bal.url, first)
        # the next click reaches the new replica (its callback is unknown there: only the URL counts); Streamlit
        # disables the widgets while it reconnects, and the click waits for that
        pg.get_by_role("button", name=re.compile("^(Next step|Finish)")).click(timeout=120_000)
        lost = pg.get_by_text("This page was reopened in a new session")
        lost.wait_for(timeout=120_000)
        _settled(pg)
        assert "Your 1 checked answer and your score did not" in lost.inner_text()
        assert header.inner_text().startswith("Level 3 · set 7, exercise 2 of 4 · ")
        assert parse_qs(urlparse(pg.url).query)["i"] == ["2"]
        assert pg.get_by_role("textbox", name="Value after the step").count() == 1  # the exercise's first step, to predict again
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SCREENSHOTS / "deploy-practice-after-failover.png"))
        assert pg.get_by_role("dialog").count() == 0
        assert [e for e in real_errors(pg.errors) if "pageerror" in e] == []
        ctx.close()
    finally:
        bal.stop()
