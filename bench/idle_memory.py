"""Does an idle server give memory back? Opens deep links to the largest cases one after another in
Chromium against a fresh `streamlit run`, closes every page, then samples the server's resident
memory (VmRSS) while it sits idle. The byte-bounded cache (scatter_ui/cache.py) drops entries
unused for TTL_SECONDS; its sweeper runs every SWEEP_SECONDS and trims the heap.

Run: python bench/idle_memory.py [--idle 300] [--every 30]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devtools.browser import AppServer, launch  # noqa: E402

CASES = [  # the six deep links: Example 6 with three reductions, the ScatterNDUpdate-15 layer with three
    f"elements?op=ScatterElementsUpdate-12&example=ov-scatter-elements-update-12-example-6&reduction={r}"
    for r in ("sum", "max", "mean")
] + [f"nd?op=ScatterNDUpdate-15&example=ov-scatter-nd-update-15-xml-example-5&reduction={r}" for r in ("sum", "max", "min")]


def status_mb(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=float, default=300, help="seconds to watch the idle server (at most 900)")
    parser.add_argument("--every", type=float, default=30)
    args = parser.parse_args()
    idle = min(max(args.idle, 0), 900)
    from playwright.sync_api import sync_playwright

    server = AppServer().start()
    pid = server.proc.pid
    try:
        print(f"after start: VmRSS {status_mb(pid, 'VmRSS'):.0f} MB")
        with sync_playwright() as p:
            browser = launch(p)
            for path in CASES:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                t0 = time.monotonic()
                page.goto(f"{server.url}/{path}", timeout=120_000)
                page.wait_for_selector("[data-testid=scatter-figure][data-ready='1']", timeout=300_000)
                print(f"opened {path.split('&reduction=')[1]:>5} {path.split('?')[0]:<9} in {time.monotonic() - t0:5.1f} s:"
                      f" VmRSS {status_mb(pid, 'VmRSS'):.0f} MB")
                page.close()
            browser.close()
        print(f"all pages closed: VmRSS {status_mb(pid, 'VmRSS'):.0f} MB, peak (VmHWM) {status_mb(pid, 'VmHWM'):.0f} MB")
        start = time.monotonic()
        while time.monotonic() - start < idle:
            time.sleep(args.every)
            print(f"idle {time.monotonic() - start:4.0f} s: VmRSS {status_mb(pid, 'VmRSS'):.0f} MB")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
