"""Load test: many concurrent browser sessions against one `streamlit run` server on localhost.

Each session is a real Chromium page (Playwright, Debian's /usr/bin/chromium). It opens a
different spec example, presses ▶ play in the figure, waits for the last frame and checks the
output shown equals scatter_core's result. Sessions are bounded in number and time; all
traffic goes to 127.0.0.1.

Each session then makes ``--steps`` step clicks on the player (▶, and |◀ back to the start
when it reaches the last step), timing each from the click until the page's URL carries the step.
Prints the median and 95th-percentile step latency and the server's peak memory (VmHWM);
``--json`` also writes them to a file.

Run: python bench/load_test.py [--sessions 20] [--steps 4] [--timeout 240] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


import spec_examples  # noqa: E402
from scatter_core import OPERATORS, scatter, trace  # noqa: E402
from scatter_core import FAMILIES, fmt_value  # noqa: E402
from devtools.browser import CHROMIUM, LAUNCH_ARGS, AppServer  # noqa: E402

PAGE = {name: family.slug for name, family in FAMILIES.items()}  # the explorer's URL path, from the family records
MAX_STEPS = 12  # examples short enough to play through in a bounded time


def pick_examples(n: int):
    pool = [e for e in spec_examples.load_all()
            if not e.shapes_only and 0 < len(trace(e.case)) <= MAX_STEPS]
    return [pool[i % len(pool)] for i in range(n)]


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def session(browser, base: str, ex, deadline: float, results: list, clicks: int = 4):
    ctx = await browser.new_context(viewport={"width": 1300, "height": 1800})
    page = await ctx.new_page()
    row = {"example": ex.id, "ok": False, "steps_ms": [], "error": ""}
    try:
        family = OPERATORS[ex.op].family
        # 300 s: with 10-20 Chromium renderers on 2 busy cores, first loads took 60-180 s and more
        await page.goto(f"{base}/{PAGE[family]}?op={ex.op}&example={ex.id}", timeout=300_000)
        fig = "[data-testid=scatter-figure]"
        await page.wait_for_selector(f"{fig}[data-ready='1']", timeout=300_000)
        await page.get_by_test_id("player-play").click()
        n = await page.evaluate(f"() => Number(document.querySelector('{fig}').closest('[data-testid=scatter-player]')"
                                ".querySelector('[data-testid=player-slider]').max)")
        want = scatter(ex.op, ex.data, ex.indices, ex.updates, **ex.attrs)
        while time.monotonic() < deadline:
            step = await page.evaluate("() => document.querySelector('[data-testid=scatter-player]').dataset.step")
            if step == str(n):
                break
            await asyncio.sleep(0.3)
        cells = await page.evaluate(
            f"() => {{ const t = document.querySelector('{fig}').data[2];"
            " return [t.customdata.flat().map(c => c.split(' = ')[0]), t.text.flat()]; }")
        shown = {pos: text.split("<br>")[0] for pos, text in zip(*cells) if pos}
        mismatched = [pos for pos, text in shown.items()
                      if not _close(text, fmt_value(want[_position(pos)]))]
        if shown and not mismatched:
            row["ok"] = True
        else:
            row["error"] = f"{len(mismatched)} of {len(shown)} cells differ, e.g. {mismatched[:3]}"
        k = 0
        await page.get_by_test_id("player-first").click()
        await page.wait_for_function("() => new URL(location.href).searchParams.get('step') === '0'", timeout=60_000)
        for _ in range(clicks):
            if time.monotonic() > deadline:
                break
            t0 = time.monotonic()
            if k >= n:  # at the last step: back to the start
                k = 0
                await page.get_by_test_id("player-first").click()
            else:
                k += 1
                await page.get_by_test_id("player-next").click()
            # the step reaches the server: the URL carries it
            await page.wait_for_function(f"() => new URL(location.href).searchParams.get('step') === '{k}'",
                                         timeout=60_000)
            row["steps_ms"].append((time.monotonic() - t0) * 1000)
    except Exception as exc:  # noqa: BLE001 - a failed session is a result, not a crash of the script
        row["error"] = f"{type(exc).__name__}: {exc}"[:200]
    finally:
        results.append(row)
        await ctx.close()


def _position(label: str) -> tuple[int, ...]:
    """'output[1, 2]' -> (1, 2)"""
    inside = label[label.index("[") + 1:-1]
    return tuple(int(p) for p in inside.split(",") if p.strip())


def _close(a: str, b: str) -> bool:
    if a == b:
        return True
    try:
        return abs(float(a) - float(b)) <= 1e-3 * max(1.0, abs(float(b)))
    except ValueError:
        return False


def percentile(values: list, q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation between the sorted values."""
    v = sorted(values)
    pos = (len(v) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


async def main_async(n: int, timeout: float, clicks: int = 4, json_path: str | None = None) -> int:
    from playwright.async_api import async_playwright

    server = AppServer().start()
    try:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
            # warm the server once (Streamlit registers st.navigation pages on the first run)
            warm = await browser.new_page()
            await warm.goto(server.url)
            await warm.get_by_text("Every worked example").first.wait_for(timeout=60_000)
            await warm.close()
            deadline = time.monotonic() + timeout
            results: list = []
            t0 = time.monotonic()
            await asyncio.gather(*(session(browser, server.url, ex, deadline, results, clicks)
                                   for ex in pick_examples(n)))
            wall = time.monotonic() - t0
            await browser.close()
        rss = peak_rss_mb(server.proc.pid)
    finally:
        server.stop()
    ok = sum(r["ok"] for r in results)
    steps = [s for r in results for s in r["steps_ms"]]
    print(f"sessions: {n}, succeeded: {ok}, wall time {wall:.1f} s")
    if steps:
        print(f"step round trip (click until the URL carries the step), {len(steps)} steps: "
              f"median {statistics.median(steps):.0f} ms, p95 {percentile(steps, 95):.0f} ms, "
              f"worst {max(steps):.0f} ms")
    print(f"server peak memory (VmHWM): {rss:.0f} MB")
    if json_path:
        Path(json_path).write_text(json.dumps({
            "sessions": n, "succeeded": ok, "clicks_per_session": clicks, "wall_s": round(wall, 1),
            "steps": len(steps), "median_ms": round(statistics.median(steps)) if steps else None,
            "p95_ms": round(percentile(steps, 95)) if steps else None, "worst_ms": round(max(steps)) if steps else None,
            "peak_rss_mb": round(rss), "failed": [r for r in results if not r["ok"]]}, indent=1))
    for r in results:
        if not r["ok"]:
            print(f"  FAILED {r['example']}: {r['error']}")
    return 0 if ok == n else 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=240)
    parser.add_argument("--steps", type=int, default=4, help="server-side step clicks per session (at most 60)")
    parser.add_argument("--json", default=None, help="also write the results to this file")
    args = parser.parse_args()
    if not 1 <= args.sessions <= 50:
        parser.error("--sessions must be between 1 and 50")
    if not 0 <= args.steps <= 60:
        parser.error("--steps must be between 0 and 60")
    sys.exit(asyncio.run(main_async(args.sessions, args.timeout, args.steps, args.json)))


if __name__ == "__main__":
    main()
