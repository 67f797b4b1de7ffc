"""Load test of the class server: concurrent browser sessions through HAProxy and N Streamlit replicas.

Starts `scatter-explorer serve --replicas N` on loopback (HAProxy, sticky cookie; see
devtools/balancer.py), then drives real Chromium pages at once (one browser, one context per
session, all traffic to 127.0.0.1). Each session opens a spec example on its explorer page and
presses "next" ``--steps`` times (at the last step, "first"), and times each press three ways:

- ``caption``: from the bench's click until the player's caption shows another step (what the
  student sees; the browser alone);
- ``server``: from the bench's click until the page's URL carries the step, which the server writes
  on its rerun and the browser then applies (the step has reached Python AND the browser has
  handled the reply: with many Chromium pages on the same cores, mostly browser time);
- ``taken``: from the press until the server took the step, which is what issue #26 §2's goal
  names. The bench starts the server with ``$SCATTER_EXPLORER_STEP_TIMES`` naming a file
  (scatter_ui/state/step_times.py): the server appends ``time.time()``, its session id, the player's name
  and the step each time it reads a step report. The press is the page's ``Date.now()`` in a click
  listener (capture phase, before the player's own), the same machine clock (CLOCK_REALTIME; the
  bench checks each page's ``Date.now()`` against Python's ``time.time()`` once); each page's
  Streamlit session id is read from its websocket's ``new_session`` message (bench/server_steps.py).
  This figure includes the player's pause before it reports a step (``QUIET_MS`` in js/controls.mjs,
  300 ms: the player sends only the latest step, once stepping has paused) — the goal counts it,
  since the server has not taken the step before. A press the server never took is a lost step.
  The capacity line uses this figure.

It reports the median, 95th percentile and worst of the three, the steps the server never took, the
time from the bench's click until the page saw the press, errors (a session that failed or timed
out, Streamlit's "Connection error" dialog, page errors), the replicas' memory (resident set size
sampled each second: the peak sum over the replicas, and each one's VmHWM at the end) and the CPU
time the replicas used (per session: what a class costs the server, whatever else shares the cores).
``--sessions 5,10,20`` runs several loads one after another on the same servers (the capacity
sweep); ``--replicas 1,2`` repeats the sweep for each replica count. Bounded: at most 60 sessions,
30 steps, and ``--timeout`` seconds per load. Not a test: the figures go into docs/performance.md.

Run: python bench/load_balancer.py [--replicas 1,2] [--sessions 20] [--steps 10] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import spec_examples  # noqa: E402
from scatter_core import OPERATORS, trace  # noqa: E402
from scatter_core import FAMILIES  # noqa: E402
from bench.load_test import percentile  # noqa: E402
from devtools.browser import CHROMIUM, LAUNCH_ARGS  # noqa: E402
from devtools.balancer import Balancer  # noqa: E402
from bench.server_steps import QUIET_MS, check_clock, match_taken, press_listener, read_presses, watch_session_ids  # noqa: E402
from scatter_ui.state import step_times  # noqa: E402

PAGE = {name: family.slug for name, family in FAMILIES.items()}
CAPTION = "[data-testid=scatter-caption]"
GOAL_P95_MS = 2000


def pick_examples(n: int):
    """Examples of 3 to 12 steps, from every family in turn."""
    pool = [e for e in spec_examples.load_all()
            if not e.shapes_only and 3 <= len(trace(e.case)) <= 12]
    return [pool[(i * 7) % len(pool)] for i in range(n)]


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_s(pid: int) -> float:
    """User + system CPU seconds the process has used."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


class MemorySampler(threading.Thread):
    """The replicas' summed RSS, once a second; ``peak`` is the highest sum seen."""

    def __init__(self, pids: list[int]):
        super().__init__(daemon=True)
        self.pids, self.peak, self.stop = pids, 0.0, threading.Event()

    def run(self):
        while not self.stop.wait(1.0):
            self.peak = max(self.peak, sum(rss_mb(p) for p in self.pids))


async def session(browser, base: str, ex, steps: int, deadline: float, rows: list):
    ctx = await browser.new_context(viewport={"width": 1300, "height": 1000})
    page = await ctx.new_page()
    row = {"example": ex.id, "name": f"{ex.op}-{ex.id}", "ok": False, "caption_ms": [], "server_ms": [], "error": "",
           "page_errors": 0, "session_ids": set(), "presses": [], "pressed_steps": [], "clicked_at": [], "clock": None}
    page.on("pageerror", lambda e: row.__setitem__("page_errors", row["page_errors"] + 1))
    watch_session_ids(page, row["session_ids"])
    left = lambda: max(1_000, (deadline - time.monotonic()) * 1000)  # noqa: E731
    try:
        await page.goto(f"{base}/{PAGE[OPERATORS[ex.op].family]}?op={ex.op}&example={ex.id}", timeout=left())
        await page.wait_for_selector("[data-testid=scatter-figure][data-ready='1']", timeout=left())
        n = int(await page.get_by_test_id("player-slider").get_attribute("max"))
        k = int(await page.locator("[data-testid=scatter-player]").get_attribute("data-step"))
        row["clock"] = await check_clock(page)
        await page.evaluate(press_listener("click"))
        for _ in range(steps):
            before = await page.locator(CAPTION).inner_text()
            k = 0 if k >= n else k + 1
            t0 = time.monotonic()
            row["clicked_at"].append(time.time() * 1000)
            await page.get_by_test_id("player-first" if k == 0 else "player-next").click(timeout=left())
            row["pressed_steps"].append(k)
            await page.wait_for_function("([sel, old]) => document.querySelector(sel).innerText !== old",
                                         arg=[CAPTION, before], timeout=left(), polling="raf")
            row["caption_ms"].append((time.monotonic() - t0) * 1000)
            await page.wait_for_function(f"() => new URL(location.href).searchParams.get('step') === '{k}'",
                                         timeout=left(), polling=50)
            row["server_ms"].append((time.monotonic() - t0) * 1000)
        if await page.get_by_text("Connection error").count():
            row["error"] = "Streamlit's 'Connection error' dialog"
        else:
            row["ok"] = True
    except Exception as exc:  # noqa: BLE001 - a failed session is a result
        row["error"] = f"{type(exc).__name__}: {exc}"[:200]
    finally:
        row["presses"] = await read_presses(page)
        rows.append(row)
        await ctx.close()


async def one_load(browser, bal: Balancer, sessions: int, steps: int, timeout: float, log_path: Path) -> dict:
    pids = [pid for name, pid in bal.pids.items() if name != "haproxy"]
    sampler = MemorySampler(pids)
    sampler.start()
    load0 = os.getloadavg()
    cpu0 = sum(cpu_s(p) for p in pids)
    rows: list = []
    t0 = time.monotonic()
    await asyncio.gather(*(session(browser, bal.url, ex, steps, t0 + timeout, rows) for ex in pick_examples(sessions)))
    wall = time.monotonic() - t0
    sampler.stop.set()
    cpu = sum(cpu_s(p) for p in pids) - cpu0
    cap = [s for r in rows for s in r["caption_ms"]]
    srv = [s for r in rows for s in r["server_ms"]]
    taken, lost = match_taken(rows, step_times.read(str(log_path)))
    dispatch = [p - c for r in rows for p, c in zip(r["presses"], r["clicked_at"])]
    clocks = [r["clock"] for r in rows if r["clock"]]

    def stats(v):
        return {"median_ms": round(statistics.median(v)), "p95_ms": round(percentile(v, 95)),
                "worst_ms": round(max(v))} if v else None

    return {"replicas": len(pids), "sessions": sessions, "steps_per_session": steps,
            "steps_timed": len(srv), "steps_expected": sessions * steps, "wall_s": round(wall, 1),
            "caption": stats(cap), "server": stats(srv), "taken": stats(taken), "quiet_ms": QUIET_MS,
            "click_dispatch": stats(dispatch),
            "steps_pressed": sum(len(r["pressed_steps"]) for r in rows), "steps_taken": len(taken),
            "steps_not_taken": lost,
            "clock_check": {"pages": len(clocks), "inside_round_trip": sum(c["inside"] for c in clocks),
                            "worst_offset_ms": max((abs(c["offset_ms"]) for c in clocks), default=None)},
            "failed_sessions": [f"{r['example']}: {r['error']}" for r in rows if not r["ok"]],
            "page_errors": sum(r["page_errors"] for r in rows),
            "replicas_cpu_s": round(cpu, 1), "replicas_cpu_s_per_session": round(cpu / sessions, 2),
            "replicas_peak_rss_mb_sum": round(sampler.peak), "replicas_vmhwm_mb": [round(rss_mb(p, "VmHWM")) for p in pids],
            "loadavg_before": [round(x, 1) for x in load0], "loadavg_after": [round(x, 1) for x in os.getloadavg()]}


def show(r: dict) -> None:
    def fmt(s):
        return f"median {s['median_ms']} ms, p95 {s['p95_ms']} ms, worst {s['worst_ms']} ms" if s else "none"
    print(f"{r['replicas']} replica(s), {r['sessions']} sessions x {r['steps_per_session']} steps "
          f"({r['steps_timed']}/{r['steps_expected']} timed, {r['wall_s']} s; load average "
          f"{r['loadavg_before'][0]} -> {r['loadavg_after'][0]})")
    print(f"  press -> caption changes (browser only): {fmt(r['caption'])}")
    print(f"  press -> URL carries the step (server's rerun + browser handling the reply): {fmt(r['server'])}")
    print(f"  press -> server took the step (its step-times log; includes the player's {r['quiet_ms']} ms "
          f"pause before it reports): {fmt(r['taken'])}")
    print(f"  (the bench's click call -> the page sees the press: {fmt(r['click_dispatch'])}; the first two "
          f"figures count from the call, the third from the page's press)")
    print(f"  steps the server took: {r['steps_taken']} of {r['steps_pressed']} pressed"
          f" ({len(r['steps_not_taken'])} never taken)")
    for f in r["steps_not_taken"][:10]:
        print(f"    {f}")
    c = r["clock_check"]
    print(f"  clock check: Date.now() inside Python's time.time() round trip on {c['inside_round_trip']} of "
          f"{c['pages']} pages (worst |offset| {c['worst_offset_ms']} ms)")
    print(f"  replicas' CPU: {r['replicas_cpu_s']} s in all, {r['replicas_cpu_s_per_session']} s per session "
          f"(opening the page and its steps)")
    print(f"  replicas' memory: peak RSS sum {r['replicas_peak_rss_mb_sum']} MB, VmHWM {r['replicas_vmhwm_mb']} MB")
    print(f"  errors: {len(r['failed_sessions'])} failed sessions, {r['page_errors']} page errors")
    for f in r["failed_sessions"]:
        print(f"    {f}")


async def main_async(replica_counts: list[int], loads: list[int], steps: int, timeout: float) -> list[dict]:
    from playwright.async_api import async_playwright

    results = []
    for n in replica_counts:
        with tempfile.TemporaryDirectory(prefix="scatter-load-") as work:
            log_path = Path(work) / "step-times.txt"
            os.environ[step_times.ENV] = str(log_path)  # the replicas inherit it (serve passes its environment on)
            bal = Balancer(Path(work), replicas=n)
            try:
                async with async_playwright() as p:
                    browser = await p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
                    # warm every replica once (Streamlit registers the st.navigation pages on a first run)
                    for replica in sorted(k for k in bal.pids if k != "haproxy"):
                        ctx = await browser.new_context()
                        await ctx.add_cookies([{"name": "scatter_replica", "value": replica, "url": bal.url}])
                        pg = await ctx.new_page()
                        await pg.goto(bal.url + "/elements", timeout=300_000)
                        await pg.wait_for_selector("[data-testid=scatter-figure][data-ready='1']", timeout=300_000)
                        await ctx.close()
                    for sessions in loads:
                        r = await one_load(browser, bal, sessions, steps, timeout, log_path)
                        show(r)
                        results.append(r)
                    await browser.close()
            finally:
                bal.stop()
                os.environ.pop(step_times.ENV, None)
    print(f"\ncapacity (the most sessions per replica measured with p95 press -> server took the step <= "
          f"{GOAL_P95_MS / 1000:g} s, from the server's step-times log, the player's {QUIET_MS} ms pause included; "
          f"no failed session, no step lost):")
    for n in replica_counts:
        ok = [r["sessions"] for r in results if r["replicas"] == n and capacity_ok(r)]
        print(f"  {n} replica(s): {max(ok) / n if ok else 0:g} sessions per replica"
              f" ({max(ok) if ok else 0} sessions in all)")
    return results


def capacity_ok(r: dict) -> bool:
    """A load counts towards capacity when p95 press -> server took the step meets the goal, no session
    failed and every press was taken."""
    return bool(r["taken"]) and r["taken"]["p95_ms"] <= GOAL_P95_MS and not r["failed_sessions"] \
        and not r["steps_not_taken"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicas", default="2", help="replica counts, comma-separated (each 1..8)")
    parser.add_argument("--sessions", default="20", help="concurrent sessions, comma-separated (each 1..60)")
    parser.add_argument("--steps", type=int, default=10, help="presses per session (1..30)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds allowed for each load")
    parser.add_argument("--json", default=None, help="also write the results to this file")
    args = parser.parse_args()
    replicas = [int(x) for x in args.replicas.split(",")]
    loads = [int(x) for x in args.sessions.split(",")]
    if not all(1 <= n <= 8 for n in replicas) or not all(1 <= n <= 60 for n in loads):
        parser.error("--replicas each 1..8, --sessions each 1..60")
    if not 1 <= args.steps <= 30:
        parser.error("--steps must be between 1 and 30")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    results = asyncio.run(main_async(replicas, loads, args.steps, args.timeout))
    if args.json:
        Path(args.json).write_text(json.dumps({"cores": os.cpu_count(), "results": results}, indent=1))
    sys.exit(0 if all(not r["failed_sessions"] and not r["steps_not_taken"] for r in results) else 1)


if __name__ == "__main__":
    main()
