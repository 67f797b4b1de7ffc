"""Stepping under pressure: what a step costs the server, and how long until the server takes it.

Issue #26 §1.1 and §1.2. One `streamlit run` server on 127.0.0.1 (this checkout's app, or the app
in ``--app-dir``, to run an older copy side by side) and Debian's Chromium, all on loopback.

* ``burst``: one session steps one step at a time (press →, wait until the URL carries it; 12
  times): the server's CPU time per step and the press-to-URL time. Then it opens
  ScatterElements-18 Example 1, focuses the player and presses → and ←
  alternately every 30 ms for 5 s; then opens a typed case of 200 steps and presses → 200 times
  at 30 ms (a held key). Reports the server's CPU time spent from the first press until the URL
  carries the player's step (per press), how long that agreement took after the last press, and
  whether Streamlit's "Connection error" dialog (e.g. "Cached ForwardMsg MISS") appeared.
* ``sessions``: N browser sessions at once, each opening an example of 6 steps or more and
  pressing → ``--steps`` times, each press timed until the URL carries the new step (the server
  took it; 15 s at most, else the step counts as lost). Reports the median and p95 of that
  latency, lost steps, error dialogs and the server's CPU time per step; and, from the server's
  own step-times log (bench/server_steps.py), the time from the press (the page's keydown) until
  the server took the step ("taken", the player's 300 ms pause included) and the presses it never
  took (none from an ``--app-dir`` copy older than that log).

The server's CPU time is read from /proc/<pid>/stat (user + system, every thread). Everything
is bounded: at most 30 sessions, 60 steps each, and a deadline per wait.

Run: python bench/bench_stepping.py burst [--app-dir DIR]
     python bench/bench_stepping.py sessions --sessions 6 --steps 10 [--app-dir DIR] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load_test import percentile  # noqa: E402
from bench.server_steps import QUIET_MS, match_taken, press_listener, read_presses, watch_session_ids  # noqa: E402
from devtools.browser import CHROMIUM, LAUNCH_ARGS, AppServer  # noqa: E402
from scatter_ui.state import step_times  # noqa: E402

SMALL = "/elements?op=ScatterElements-18&example=onnx-scatterelements-18-example-1"
PLAYER = "[data-testid=scatter-player]"
READY = "[data-testid=scatter-figure][data-ready='1']"
LOST_AFTER_S = 15.0
TICK = os.sysconf("SC_CLK_TCK")


def long_case(steps: int = 200) -> str:
    """A typed ScatterElements-18 case of ``steps`` steps (one write each), as an explorer link."""
    from urllib.parse import urlencode

    indices = [i % 10 for i in range(steps)]
    updates = [i + 1 for i in range(steps)]
    return "/elements?" + urlencode({"op": "ScatterElements-18", "example": "__custom__", "data": str([0] * 10),
                                     "indices": str(indices), "updates": str(updates), "reduction": "add"})


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14 and 15 of stat)


ERROR_DIALOG = """() => [...document.querySelectorAll('[role=dialog]')].map(d => d.innerText)
    .filter(t => /Connection error|ForwardMsg|not expected to happen/i.test(t)).join(' | ')"""
URL_STEP = "() => new URL(location.href).searchParams.get('step')"
SHOWN_STEP = f"() => document.querySelector('{PLAYER}').dataset.step"


async def open_player(page, url: str) -> None:
    await page.goto(url, timeout=300_000)
    await page.wait_for_selector(READY, timeout=300_000)
    await page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=120_000)


async def settle(page, deadline_s: float = 20.0) -> float | None:
    """Seconds until the URL carries the player's step (None when it never did within the deadline)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < deadline_s:
        if await page.evaluate(URL_STEP) == await page.evaluate(SHOWN_STEP):
            return time.monotonic() - t0
        await asyncio.sleep(0.05)
    return None


async def press_train(page, keys: list[str], every_ms: float) -> None:
    start = time.monotonic()
    for i, key in enumerate(keys):
        await page.keyboard.press(key)
        wait = start + (i + 1) * every_ms / 1000 - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)


async def one_at_a_time(browser, server, steps: int = 12) -> dict:
    """Press → and wait until the URL carries the step, ``steps`` times: the server's CPU time per step
    taken, and the time from the press until the URL has it."""
    ctx = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await ctx.new_page()
    try:
        await open_player(page, server.url + long_case(40))
        await asyncio.sleep(1.0)
        await page.locator(PLAYER).focus()
        cpu0 = cpu_seconds(server.proc.pid)
        lat = []
        for k in range(1, steps + 1):
            t0 = time.monotonic()
            await page.keyboard.press("ArrowRight")
            await page.wait_for_function(f"() => new URL(location.href).searchParams.get('step') === '{k}'",
                                         timeout=LOST_AFTER_S * 1000)
            lat.append((time.monotonic() - t0) * 1000)
        await asyncio.sleep(0.5)
        cpu = cpu_seconds(server.proc.pid) - cpu0
        return {"steps": steps, "server_cpu_ms_per_step": round(1000 * cpu / steps, 1),
                "press_to_url_median_ms": round(statistics.median(lat)), "press_to_url_p95_ms": round(percentile(lat, 95))}
    finally:
        await ctx.close()


async def burst(browser, server) -> dict:
    out = {"one step at a time (press →, wait for the URL), 12 steps": await one_at_a_time(browser, server)}
    for name, url, keys in (("alternate ←/→ every 30 ms for 5 s", SMALL, ["ArrowRight", "ArrowLeft"] * 83),
                            ("→ 200 times at 30 ms on a 200-step case", long_case(200), ["ArrowRight"] * 200)):
        ctx = await browser.new_context(viewport={"width": 1400, "height": 1000})
        page = await ctx.new_page()
        try:
            await open_player(page, server.url + url)
            await asyncio.sleep(1.0)  # let the first run's work finish before counting
            await page.locator(PLAYER).focus()
            cpu0 = cpu_seconds(server.proc.pid)
            t0 = time.monotonic()
            await press_train(page, keys, 30)
            pressing = time.monotonic() - t0
            agreed = await settle(page)
            await asyncio.sleep(1.0)  # whatever the last report started
            cpu = cpu_seconds(server.proc.pid) - cpu0
            out[name] = {"presses": len(keys), "pressing_s": round(pressing, 2),
                         "server_cpu_s": round(cpu, 2), "server_cpu_ms_per_press": round(1000 * cpu / len(keys), 1),
                         "url_agrees_after_s": None if agreed is None else round(agreed, 2),
                         "player_step": await page.evaluate(SHOWN_STEP), "url_step": await page.evaluate(URL_STEP),
                         "error_dialog": await page.evaluate(ERROR_DIALOG)}
        finally:
            await ctx.close()
    return out


async def one_session(browser, base: str, url: str, steps: int, deadline: float, rows: list) -> None:
    ctx = await browser.new_context(viewport={"width": 1300, "height": 1000})
    page = await ctx.new_page()
    row = {"latency_ms": [], "lost": 0, "error": "", "dialog": "", "name": "session", "session_ids": set(),
           "presses": [], "pressed_steps": []}
    watch_session_ids(page, row["session_ids"])
    try:
        await open_player(page, base + url)
        await page.locator(PLAYER).focus()
        await page.evaluate(press_listener("keydown"))
        k = int(await page.evaluate(SHOWN_STEP))
        for _ in range(steps):
            if time.monotonic() > deadline:
                break
            k += 1
            t0 = time.monotonic()
            await page.keyboard.press("ArrowRight")
            row["pressed_steps"].append(k)
            try:
                await page.wait_for_function(f"() => new URL(location.href).searchParams.get('step') === '{k}'",
                                             timeout=LOST_AFTER_S * 1000)
                row["latency_ms"].append((time.monotonic() - t0) * 1000)
            except Exception:  # noqa: BLE001 - a step not taken in time is a result
                row["lost"] += 1
    except Exception as exc:  # noqa: BLE001 - a failed session is a result, not a crash of the script
        row["error"] = f"{type(exc).__name__}: {exc}"[:200]
    finally:
        try:
            row["dialog"] = await page.evaluate(ERROR_DIALOG)
        except Exception:  # noqa: BLE001
            pass
        row["presses"] = await read_presses(page)
        rows.append(row)
        await ctx.close()


async def sessions(browser, server, n: int, steps: int, timeout: float, log_path: Path) -> dict:
    url = long_case(max(steps + 2, 12))
    rows: list = []
    deadline = time.monotonic() + timeout
    cpu0 = cpu_seconds(server.proc.pid)
    t0 = time.monotonic()
    await asyncio.gather(*(one_session(browser, server.url, url, steps, deadline, rows) for _ in range(n)))
    wall = time.monotonic() - t0
    cpu = cpu_seconds(server.proc.pid) - cpu0
    lat = [v for r in rows for v in r["latency_ms"]]
    taken = len(lat)
    took, never = match_taken(rows, step_times.read(str(log_path)))
    return {"sessions": n, "steps_per_session": steps, "wall_s": round(wall, 1),
            "steps_taken": taken, "steps_lost": sum(r["lost"] for r in rows),
            "median_ms": round(statistics.median(lat)) if lat else None,
            "p95_ms": round(percentile(lat, 95)) if lat else None,
            "taken_from_server_log": {"median_ms": round(statistics.median(took)) if took else None,
                                      "p95_ms": round(percentile(took, 95)) if took else None,
                                      "worst_ms": round(max(took)) if took else None,
                                      "includes_player_pause_ms": QUIET_MS, "never_taken": len(never)},
            "server_cpu_s_with_page_loads": round(cpu, 1),
            "error_dialogs": [r["dialog"] for r in rows if r["dialog"]],
            "failed_sessions": [r["error"] for r in rows if r["error"]]}


async def main_async(args) -> dict:
    from playwright.async_api import async_playwright

    script = Path(args.app_dir).resolve() / "app.py" if args.app_dir else None
    log_path = Path(tempfile.mkdtemp(prefix="scatter-steps-")) / "step-times.txt"
    server = AppServer(script=script, env={step_times.ENV: str(log_path)}).start()
    try:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
            warm = await browser.new_page()  # Streamlit registers the pages on the first run
            await open_player(warm, server.url + SMALL)
            await warm.close()
            load = os.getloadavg()[0]
            if args.mode == "burst":
                result = await burst(browser, server)
            else:
                result = await sessions(browser, server, args.sessions, args.steps, args.timeout, log_path)
            await browser.close()
        result = {"app": str(script.parent if script else ROOT), "load_average_at_start": round(load, 2), **result}
    finally:
        server.stop()
        shutil.rmtree(log_path.parent, ignore_errors=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("burst", "sessions"))
    parser.add_argument("--app-dir", default=None, help="serve the app.py in this folder (an older copy, say)")
    parser.add_argument("--sessions", type=int, default=6)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    if not 1 <= args.sessions <= 30:
        parser.error("--sessions must be between 1 and 30")
    if not 1 <= args.steps <= 60:
        parser.error("--steps must be between 1 and 60")
    result = asyncio.run(main_async(args))
    text = json.dumps(result, indent=1, ensure_ascii=False)
    print(text)
    if args.json:
        Path(args.json).write_text(text)


if __name__ == "__main__":
    main()
