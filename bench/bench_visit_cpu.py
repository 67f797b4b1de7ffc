"""The server's CPU for one student opening a page, against a bare Streamlit page (issue #26 §1.2).

Two `streamlit run` servers on 127.0.0.1 (the app, and a bare page: a title, a line, an st.button) and
Debian's Chromium. Each visit is a new browser context (no cache: a student's first visit), opening the
page and waiting until it is drawn and the server is idle; the server's CPU time (user + system, every
thread, from /proc/<pid>/stat) is read before and after. A step is the player's → pressed once on the
open page, until the URL carries it; the bare page's rerun is a click on its button. Also printed: what the browser fetched per visit (requests, bytes
over the wire, and which responses came compressed), to see where the server's time goes.

``--app-dir DIR`` serves another checkout's app.py (e.g. this branch's starting commit) alongside, so
the before and after are measured alternately on the same loaded machine.

Each server's own CPU while idle (its timers) is measured first and subtracted. The CPU clock of
/proc counts in 10 ms ticks: medians over several visits, not single figures, mean something.

Run: python bench/bench_visit_cpu.py [--visits 8] [--app-dir DIR] [--path /elements?...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devtools.browser import AppServer, launch  # noqa: E402

BARE = '''import streamlit as st
st.title("A bare page")
st.write("A line of text.")
st.button("Run again")
'''
PATH = "/elements?op=ScatterElements-18&example=onnx-scatterelements-18-example-1"
READY = "[data-testid=scatter-figure][data-ready='1']"
IDLE = "() => !document.querySelector('[data-testid=stStatusWidget]')"
TICK = os.sysconf("SC_CLK_TCK")


def cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def idle_rate(server: AppServer, seconds: float = 3.0) -> float:
    """The server's CPU per second while nobody uses it (its own timers), subtracted from each measurement."""
    before, t0 = cpu(server.proc.pid), time.monotonic()
    time.sleep(seconds)
    return (cpu(server.proc.pid) - before) / (time.monotonic() - t0)


def asset_cpu(server: AppServer, path: str, n: int = 20) -> float | None:
    """The server's CPU per request of ``path``, asked as a browser does (Accept-Encoding: gzip); None when
    the server has no such file (an older checkout)."""
    import urllib.error
    import urllib.request

    try:
        urllib.request.urlopen(server.url + path, timeout=60).read()
    except urllib.error.HTTPError:
        return None

    rate = idle_rate(server, 1.0)
    before, t0 = cpu(server.proc.pid), time.monotonic()
    for _ in range(n):
        req = urllib.request.Request(server.url + path, headers={"Accept-Encoding": "gzip, deflate, br"})
        with urllib.request.urlopen(req, timeout=60) as r:
            r.read()
    return max(cpu(server.proc.pid) - before - rate * (time.monotonic() - t0), 0.0) / n


def visit(browser, server: AppServer, path: str, step: bool) -> dict:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    fetched = []
    pg.on("response", lambda r: fetched.append(r) if not r.url.startswith(("blob:", "data:")) else None)
    before, t0 = cpu(server.proc.pid), time.monotonic()
    pg.goto(server.url + path, timeout=300_000)
    if path.startswith("/?") or path == "/":
        pg.get_by_text("A line of text.").wait_for(timeout=300_000)
    else:
        pg.wait_for_selector(READY, timeout=300_000)
    pg.wait_for_function(IDLE, timeout=300_000)
    pg.wait_for_timeout(700)  # the last messages and requests
    out = {"open": cpu(server.proc.pid) - before - getattr(server, "idle", 0.0) * (time.monotonic() - t0)}
    sizes, gz = 0, []
    for r in fetched:
        try:
            headers = r.all_headers()
            size = int(headers.get("content-length") or len(r.body()))
        except Exception:  # noqa: BLE001 - a response without a body (a redirect, the websocket)
            continue
        sizes += size
        if headers.get("content-encoding") == "gzip":
            gz.append(r.url.split("?")[0].rsplit("/", 1)[-1])
    out.update(requests=len(fetched), bytes=sizes, gzipped=sorted(set(gz)))
    if step and path == "/":  # the bare page's rerun: its button
        before = cpu(server.proc.pid)
        t0 = time.monotonic()
        pg.get_by_role("button", name="Run again").click()
        pg.wait_for_timeout(300)
        pg.wait_for_function(IDLE, timeout=120_000)
        pg.wait_for_timeout(500)
        out["step"] = cpu(server.proc.pid) - before - getattr(server, "idle", 0.0) * (time.monotonic() - t0)
    elif step:
        before, t0 = cpu(server.proc.pid), time.monotonic()
        pg.locator("[data-testid=scatter-player]").focus()
        pg.keyboard.press("ArrowRight")
        pg.wait_for_function("() => new URL(location.href).searchParams.get('step') === '1'", timeout=120_000)
        pg.wait_for_function(IDLE, timeout=120_000)
        pg.wait_for_timeout(500)
        out["step"] = cpu(server.proc.pid) - before - getattr(server, "idle", 0.0) * (time.monotonic() - t0)
    ctx.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--visits", type=int, default=8)
    ap.add_argument("--app-dir", type=Path, help="another checkout, served and measured alternately")
    ap.add_argument("--path", default=PATH)
    args = ap.parse_args()
    args.visits = max(1, min(args.visits, 40))
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "bare.py"
        script.write_text(BARE)
        servers = {"bare": AppServer(script=script).start(), "app": AppServer().start()}
        if args.app_dir:
            servers["other"] = AppServer(script=args.app_dir / "app.py").start()
        try:
            with sync_playwright() as p:
                browser = launch(p)
                for name, srv in servers.items():  # warm: imports, caches, the first session's page
                    visit(browser, srv, "/" if name == "bare" else args.path, False)
                for srv in servers.values():
                    srv.idle = idle_rate(srv)
                plotly = "/_stcore/bidi-components/scatter-explorer.player/plotly-cartesian.min.js"
                assets = {name: (asset_cpu(srv, plotly), asset_cpu(srv, plotly + ".gz"))
                          for name, srv in servers.items() if name != "bare"}
                rows: dict = {name: [] for name in servers}
                load0 = os.getloadavg()[0]
                for _ in range(args.visits):
                    for name, srv in servers.items():
                        rows[name].append(visit(browser, srv, "/" if name == "bare" else args.path, True))
                browser.close()
        finally:
            for srv in servers.values():
                srv.stop()
    print(f"{args.visits} visits each, new browser context each; load average {load0:.1f} -> "
          f"{os.getloadavg()[0]:.1f}; page {args.path}")
    bare_open = statistics.median(r["open"] for r in rows["bare"])
    bare_rerun = statistics.median(r["step"] for r in rows["bare"])
    for name, rs in rows.items():
        med = statistics.median(r["open"] for r in rs)
        line = (f"{name:6} open: {med * 1000:7.0f} ms CPU ({med / bare_open:4.1f}x bare); "
                f"{statistics.median(r['requests'] for r in rs):.0f} requests, "
                f"{statistics.median(r['bytes'] for r in rs) / 1e6:.2f} MB")
        step = statistics.median(r["step"] for r in rs)
        line += (f"; {'a rerun (its button)' if name == 'bare' else 'a step'}: {step * 1000:.0f} ms CPU "
                 f"({step / bare_rerun:.1f}x the bare rerun)")
        print(line)
        print(f"       gzipped: {', '.join(rs[-1]['gzipped']) or 'none'}")
        if name in assets:
            plain, packed = assets[name]
            print(f"       plotly.js asked for 20 times: {plain * 1000:.1f} ms CPU each as the plain file"
                  + (f", {packed * 1000:.1f} ms as .gz" if packed is not None else " (no .gz here)"))


if __name__ == "__main__":
    main()
