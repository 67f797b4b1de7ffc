"""Does an idle server give memory back? Opens deep links to the largest cases one after another in
Chromium against a fresh `streamlit run`, closes every page (and the sessions they leave are closed:
scatter_ui/state/reaper.py), then samples the server's resident
memory (VmRSS) while it sits idle. The byte-bounded cache (scatter_ui/state/cache.py) drops entries
unused for TTL_SECONDS; its sweeper runs every SWEEP_SECONDS and trims the heap.

Run: python bench/idle_memory.py [--idle 300] [--every 30] [--together] [--ttl SECONDS]
(--together: the eight pages stay open until the last has loaded, as a class's would; --ttl sets
SCATTER_CACHE_IDLE_S. The start is the server after one small example, with the app's libraries loaded.)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devtools.browser import AppServer, launch  # noqa: E402

CASES = [  # eight deep links to the large examples: Example 6 with three reductions, the ScatterNDUpdate-15
    # layer with three, the ScatterNDUpdate-3 layer and ScatterUpdate-3's Example 1
    f"elements?op=ScatterElementsUpdate-12&example=ov-scatter-elements-update-12-example-6&reduction={r}"
    for r in ("sum", "max", "mean")
] + [f"nd?op=ScatterNDUpdate-15&example=ov-scatter-nd-update-15-xml-example-5&reduction={r}" for r in ("sum", "max", "min")
     ] + ["nd?op=ScatterNDUpdate-3&example=ov-scatter-nd-update-3-layer-example",
          "update?op=ScatterUpdate-3&example=ov-scatter-update-3-example-1"]

START = "elements?op=ScatterElements-16&example=onnx-scatterelements-16-example-1"
READY = "[data-testid=scatter-figure][data-ready='1']"


def status_mb(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=float, default=300, help="seconds to watch the idle server (at most 900)")
    parser.add_argument("--every", type=float, default=30)
    parser.add_argument("--together", action="store_true", help="keep every page open until the last has loaded")
    parser.add_argument("--ttl", type=float, default=None, help="the cache's idle time (SCATTER_CACHE_IDLE_S), s")
    args = parser.parse_args()
    idle = min(max(args.idle, 0), 900)
    from playwright.sync_api import sync_playwright

    server = AppServer(env={} if args.ttl is None else {"SCATTER_CACHE_IDLE_S": str(args.ttl)}).start()
    pid = server.proc.pid
    try:
        print(f"after start: VmRSS {status_mb(pid, 'VmRSS'):.0f} MB")
        with sync_playwright() as p:
            browser = launch(p)
            page = browser.new_page()  # the start: a small example opened once (the app and its libraries imported)
            page.goto(f"{server.url}/{START}", timeout=120_000)
            page.wait_for_selector(READY, timeout=120_000)
            page.close()
            print(f"start (a small example opened once): VmRSS {status_mb(pid, 'VmRSS'):.0f} MB")
            for path in CASES:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                t0 = time.monotonic()
                page.goto(f"{server.url}/{path}", timeout=120_000)
                page.wait_for_selector(READY, timeout=300_000)
                print(f"opened {path.split('&')[-1]:<28} {path.split('?')[0]:<9} in {time.monotonic() - t0:5.1f} s:"
                      f" VmRSS {status_mb(pid, 'VmRSS'):.0f} MB")
                if not args.together:
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
