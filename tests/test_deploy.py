"""A class at once: `scatter-explorer serve` runs N Streamlit replicas behind HAProxy (issue #26 §2).

The config and the command's refusals are checked without HAProxy. The rest starts the real thing on
loopback ports: two replicas and Debian's haproxy, then drives Chromium through the balancer:
sticky sessions, a step, a file upload (a small uploader app: the explorer has no upload), one
replica killed, the view resumed on the other one, and Ctrl+C stopping every process.

HAProxy comes from scripts/install-test-deps.sh (recorded in <venv>/haproxy-path; $HAPROXY overrides).
Without it these tests skip; under CI=true they fail.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse

import pytest

from scatter_explorer import cli, serve
from tests.browser_support import ROOT, SCREENSHOTS, real_errors, require_browser
from tests.deploy_support import Balancer, alive, haproxy

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


@pytest.mark.parametrize("argv,message", [(["--bogus"], "unknown option(s): --bogus"),
                                          (["--server.port", "9000"], "--server.port is set by serve")])
def test_serve_passes_only_streamlit_options_on(capsys, argv, message):
    with pytest.raises(SystemExit):
        serve.main(["--replicas", "2", *argv])
    assert message in capsys.readouterr().err


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


UPLOAD_APP = '''
import hashlib
import streamlit as st

f = st.file_uploader("Your file")
st.button("Run again")
if f is None:
    st.write("no file yet")
else:
    data = f.getvalue()
    st.write(f"received {f.name}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()[:16]}")
'''


def _upload(pg, path: Path) -> str:
    pg.locator("input[type=file]").set_input_files(str(path))
    pg.get_by_text("received ").wait_for(timeout=120_000)
    return pg.get_by_text("received ").inner_text()


def test_uploads_reach_their_replica_and_a_killed_replica_asks_for_the_file_again(tmp_path, browser):
    """Uploads use Streamlit's XSRF cookie and the session's own replica; after a failover the file
    is gone (it lived in the dead process) and uploading it again works. Ctrl+C then stops all."""
    import hashlib

    app = tmp_path / "upload_app.py"
    app.write_text(UPLOAD_APP)
    model = tmp_path / "model.onnx"
    model.write_bytes(bytes(range(256)) * 64)
    digest = hashlib.sha256(model.read_bytes()).hexdigest()[:16]
    bal = Balancer(tmp_path / "serve", app=app)
    try:
        pages = []
        for replica in ("r1", "r2", None):
            ctx, pg = _context(browser, bal.url, replica)
            pages.append((ctx, pg))
            pg.goto(bal.url)
            pg.get_by_text("no file yet").wait_for(timeout=120_000)
            assert f"received model.onnx: 16384 bytes, sha256 {digest}" in _upload(pg, model)
            assert _replica_of(ctx, bal.url) in ((replica,) if replica else ("r1", "r2"))
            assert any(c["name"] == "_streamlit_xsrf" for c in ctx.cookies(bal.url))
        ctx1, pg1 = pages[0]
        bal.kill_replica("r1")
        assert _wait_replica(ctx1, bal.url, "r1") == "r2"
        # Streamlit's browser keeps the page as it was when its websocket reconnects; the next run, on r2,
        # no longer has the file, which lived in r1: the page asks for it again
        pg1.get_by_role("button", name="Run again").click()
        pg1.get_by_text("no file yet").wait_for(timeout=120_000)
        # picking a file again uploads it to r2 (its XSRF check passes: the token is the browser's cookie).
        # The chip of the lost file is still shown; a file of another name replaces it (Chromium sends no
        # change event for the very same file chosen again)
        again = tmp_path / "model-again.onnx"
        again.write_bytes(model.read_bytes())
        assert f"received model-again.onnx: 16384 bytes, sha256 {digest}" in _upload(pg1, again)
        for ctx, _ in pages:
            ctx.close()
    finally:
        code = bal.stop()
    assert code == 0, "".join(bal.out)
    assert "serve: stopped." in "".join(bal.out)
    assert [name for name, pid in bal.pids.items() if alive(pid)] == []  # no orphan
    for port in range(bal.port, bal.port + 3):
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2)


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
