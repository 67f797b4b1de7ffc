"""Make the README's picture of the explorer from the real app: docs/img/explorer.png.

Starts `streamlit run app.py` headless on a free 127.0.0.1 port, opens one explorer page in
headless Chromium (Playwright; the browser the tests use: $CHROMIUM, the one
scripts/install-test-deps.sh recorded, or Debian's /usr/bin/chromium), waits until the app has
settled, and saves the first screen at 1400x1000. Run it after a change to the explorer:

    .venv/bin/python scripts/screenshot.py            # needs the test extra (playwright)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devtools.browser import AppServer, launch  # noqa: E402

PAGE = "elements?op=ScatterElements-18&example=onnx-scatterelements-18-example-1&step=3"
OUT = ROOT / "docs" / "img" / "explorer.png"
QUIET_MS = 2500  # the page counts as settled once its DOM has not changed for this long
IDLE = ("() => !document.querySelector('[data-testid=\"stStatusWidget\"], [data-stale=\"true\"], "
        "[data-testid=\"stSkeleton\"]')")


def settle(page, timeout_s: float = 90) -> None:
    """Wait until the app is idle (no running script, no stale or placeholder elements) and its
    page, frames included, has not changed for QUIET_MS."""
    deadline = time.monotonic() + timeout_s
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        page.wait_for_function(IDLE, timeout=timeout_s * 1000)
        now = "".join(frame.content() for frame in page.frames)
        if now != last:
            last, since = now, time.monotonic()
        elif (time.monotonic() - since) * 1000 >= QUIET_MS:
            return
        page.wait_for_timeout(250)
    raise TimeoutError(f"the page did not settle within {timeout_s} s")


def shoot(page_path: str, out: Path, width: int = 1400, height: int = 1000, dark: bool = False) -> Path:
    from playwright.sync_api import sync_playwright

    server = AppServer().start()
    try:
        with sync_playwright() as p:
            browser = launch(p)
            try:
                page = browser.new_page(viewport={"width": width, "height": height},
                                        color_scheme="dark" if dark else "light")
                page.goto(f"{server.url}/{page_path}", timeout=90_000)
                page.wait_for_selector("[data-testid='stMain']", timeout=90_000)
                settle(page)
                out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(out))
            finally:
                browser.close()
    finally:
        server.stop()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page", default=PAGE, help=f"path and query of the page (default: {PAGE})")
    parser.add_argument("--out", type=Path, default=OUT, help=f"the PNG to write (default: {OUT.relative_to(ROOT)})")
    parser.add_argument("--dark", action="store_true", help="ask for the dark colour scheme")
    args = parser.parse_args()
    print(shoot(args.page, args.out, dark=args.dark))


if __name__ == "__main__":
    main()
