"""Driving the app in a browser: a page with its console errors recorded, the step player's figure, step and caption."""

from __future__ import annotations

from pathlib import Path

from tests.support.browser_support import real_errors


PLAYER = "[data-testid=scatter-player]"

FIGURE = "[data-testid=scatter-figure]"

SEU1 = "/elements?op=ScatterElementsUpdate-12&example=ov-scatter-elements-update-12-example-1"


def errors(pg) -> list:
    """Console errors, without Streamlit's "page not found" notice on a fresh server's first request."""
    return [m for m in real_errors(pg.console_errors) if "does not seem to exist" not in m]


def page_context(browser, width=1400, height=1000, scheme="light", **kw):
    ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme, **kw)
    pg = ctx.new_page()
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(f"pageerror: {e}"))
    return ctx, pg


def open_player(pg, url: str, timeout: float = 90_000):
    """Open ``url`` and wait until the player has drawn its figure; returns the player's step."""
    pg.goto(url)
    pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=timeout)
    dialog = pg.get_by_role("dialog")
    if dialog.count() and "Page not found" in dialog.inner_text():  # Streamlit's first request to a fresh server
        pg.keyboard.press("Escape")
        dialog.wait_for(state="hidden")
    return player_step(pg)


def player_step(pg) -> int:
    return int(pg.locator(PLAYER).get_attribute("data-step"))


def output_texts(pg) -> list:
    return pg.evaluate(f"() => document.querySelector('{FIGURE}').data[2].text")


def caption(pg) -> str:
    return pg.locator("[data-testid=scatter-caption]").inner_text()


def settle(pg, timeout: float = 60_000):
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)
    pg.wait_for_timeout(300)


def type_into(pg, label: str, text: str):
    box = pg.locator(f"textarea[aria-label='{label}']")
    box.fill(text)
    box.press("Control+Enter")
    settle(pg)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS in /proc/{pid}/status")
