"""The step player in a real browser, against a bare Streamlit page served and opened the same way.

One run starts two `streamlit run` servers on 127.0.0.1 (the app, and a bare page with a title,
a line and an st.button) and Debian's Chromium, then measures, each time in a new browser
context (median of --repeats):

* bare page load: navigation until the bare page's line is shown (page loads on both sides are read
  in the page's own clock, from navigation start, by a MutationObserver: see MARKS);
* a 3x3 example's figure drawn (ScatterElements-18 Example 1): until the player has drawn it
  (data-drawn: the player's first SVG frame), and until plotly.js has drawn it too (data-ready: hover,
  exports), reported beside the ratios;
* ScatterElementsUpdate-12 Example 6's figure drawn (a 48 MB case, windowed frames), the same two ways;
* a step shown after a click / a key press on the player (in the browser), and until the page's
  URL carries it (the server round trip), against a bare st.button rerun (click until its new
  text is shown);
* playback at 4x on the 3x3 example: frames shown per second against the asked 1 / 0.225 s;
* beside the first draws: when the sidebar's first select box was shown.

Targets (issues #13, #35): 3x3 and Example 6 figures <= 1.5x bare load; step <= 2x bare rerun;
4x playback within 10% of the asked rate. Run: python bench/bench_player.py [--repeats 5] [--loads: page loads only]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devtools.browser import AppServer, launch  # noqa: E402

BARE = '''import streamlit as st

st.title("Bare page")
st.write("A line of text.")
if "n" not in st.session_state:
    st.session_state.n = 0
if st.button("again"):
    st.session_state.n += 1
st.write(f"clicked {st.session_state.n} times")
'''
SMALL = "/elements?op=ScatterElements-18&example=onnx-scatterelements-18-example-1"
LARGE = "/elements?op=ScatterElementsUpdate-12&example=ov-scatter-elements-update-12-example-6"
READY = "[data-testid=scatter-figure][data-ready='1']"  # plotly.js has drawn the figure
DRAWN = "[data-testid=scatter-player][data-drawn='1']"  # the figure is on screen (the player's SVG, or plotly)
PLAYER = "[data-testid=scatter-player]"
ASKED_FPS = 4 / 0.9


# When each mark first holds, in the page's own clock (ms since navigation started), recorded by a
# MutationObserver: a poll from Playwright would wait out whatever long task runs next (plotly.js parsing
# right after the first draw), and count it in the draw time.
MARKS = """
window.__marks = {};
const marks = {
  drawn: () => document.querySelector("[data-testid=scatter-player][data-drawn='1']"),
  ready: () => document.querySelector("[data-testid=scatter-figure][data-ready='1']"),
  bare: () => document.body && document.body.textContent.includes("A line of text."),
  controls: () => document.querySelector("[data-testid=stSidebar] [data-testid=stSelectbox]"),
};
new MutationObserver(() => {
  for (const [name, holds] of Object.entries(marks)) {
    if (!(name in window.__marks) && holds()) window.__marks[name] = performance.now();
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""


def _new(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    pg.add_init_script(MARKS)
    return ctx, pg


def mark(pg, name: str) -> float:
    """Seconds from navigation start until mark ``name`` first held."""
    pg.wait_for_function(f"() => '{name}' in window.__marks", timeout=180_000)
    return pg.evaluate(f"() => window.__marks['{name}']") / 1000


RETRIES = []


def goto_ready(pg, url: str, timeout: float = 180, selector: str = READY) -> None:
    """Open ``url`` until the player has drawn. Streamlit sometimes answers a new session's first
    request for a page URL with "Page not found" and runs the home page (also on main without the
    player); then the page is opened again, and that is counted in RETRIES."""
    deadline = time.monotonic() + timeout
    pg.goto(url)
    while time.monotonic() < deadline:
        if pg.locator(selector).count():
            return
        dialog = pg.get_by_role("dialog")
        if dialog.count() and "Page not found" in dialog.inner_text():
            RETRIES.append(url)
            pg.goto(url)
        pg.wait_for_timeout(50)
    raise TimeoutError(f"the player did not draw {url}")


def bare_load(browser, url: str) -> float:
    ctx, pg = _new(browser)
    pg.goto(url)
    dt = mark(pg, "bare")
    ctx.close()
    return dt


def bare_rerun(browser, url: str) -> float:
    ctx, pg = _new(browser)
    pg.goto(url)
    pg.get_by_text("clicked 0 times").wait_for(timeout=60_000)
    times = []
    for i in range(1, 4):
        t0 = time.perf_counter()
        pg.get_by_role("button", name="again").click()
        pg.get_by_text(f"clicked {i} times").wait_for(timeout=30_000)
        times.append(time.perf_counter() - t0)
    ctx.close()
    return statistics.median(times)


CONTROLS = []  # (3x3 or Example 6, ms until the sidebar's first select box was shown)


def figure_drawn(browser, url: str) -> tuple[float, float]:
    """(until the figure is on screen, until plotly.js has drawn it too); notes in CONTROLS when the sidebar's
    widgets were shown (docs/performance.md: whether they come before or after the figure)."""
    ctx, pg = _new(browser)
    goto_ready(pg, url, selector=DRAWN)
    drawn, ready = mark(pg, "drawn"), mark(pg, "ready")
    CONTROLS.append((url, mark(pg, "controls")))
    ctx.close()
    return drawn, ready


def step_times(browser, url: str) -> tuple[float, float, float]:
    """(click -> step shown, key -> step shown, click -> URL carries the step), medians of 3 each."""
    ctx, pg = _new(browser)
    goto_ready(pg, url + "&step=0")
    shown = "(k) => document.querySelector('[data-testid=scatter-player]').dataset.step === String(k)"
    in_url = "(k) => new URL(location.href).searchParams.get('step') === String(k)"
    clicks, keys, rounds = [], [], []
    for k in (1, 2, 3):
        t0 = time.perf_counter()
        pg.get_by_test_id("player-next").click()
        pg.wait_for_function(shown, arg=k)
        clicks.append(time.perf_counter() - t0)
        pg.wait_for_function(in_url, arg=k, timeout=30_000)
        rounds.append(time.perf_counter() - t0)
    pg.locator(PLAYER).focus()
    for k in (4, 5, 6):
        t0 = time.perf_counter()
        pg.keyboard.press("ArrowRight")
        pg.wait_for_function(shown, arg=k)
        keys.append(time.perf_counter() - t0)
        pg.wait_for_function(in_url, arg=k, timeout=30_000)
    ctx.close()
    return statistics.median(clicks), statistics.median(keys), statistics.median(rounds)


def playback_fps(browser, url: str) -> float:
    ctx, pg = _new(browser)
    goto_ready(pg, url + "&step=0")
    pg.evaluate("""() => { window.__t = []; const box = document.querySelector('[data-testid=scatter-player]');
        new MutationObserver(() => window.__t.push(performance.now()))
            .observe(box, {attributes: true, attributeFilter: ['data-step']}); }""")
    pg.get_by_test_id("player-speed").select_option("4")
    pg.get_by_test_id("player-play").click()
    pg.wait_for_function("() => document.querySelector('[data-testid=scatter-player]').dataset.playing === '0'",
                         timeout=60_000)
    stamps = pg.evaluate("() => window.__t")
    ctx.close()
    if len(stamps) < 3:
        return float("nan")
    return (len(stamps) - 1) / ((stamps[-1] - stamps[0]) / 1000)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--loads", action="store_true", help="only the page loads (bare page, 3x3, Example 6)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "bare.py"
        script.write_text(BARE)
        app, bare = AppServer().start(), AppServer(script=script).start()
        try:
            with sync_playwright() as p:
                browser = launch(p)
                figure_drawn(browser, app.url + SMALL)  # warm both servers (caches, first page)
                figure_drawn(browser, app.url + LARGE)
                bare_load(browser, bare.url)
                rows = {"bare load": [], "3x3 figure": [], "3x3 plotly": [], "Example 6 figure": [],
                        "Example 6 plotly": [], "bare rerun": [], "click shown": [], "key shown": [],
                        "click to URL": [], "fps 4x": []}
                for _ in range(args.repeats):  # interleaved, so drift hits both sides alike
                    rows["bare load"].append(bare_load(browser, bare.url))
                    for name, url in (("3x3", SMALL), ("Example 6", LARGE)):
                        drawn, ready = figure_drawn(browser, app.url + url)
                        rows[f"{name} figure"].append(drawn)
                        rows[f"{name} plotly"].append(ready)
                    if args.loads:
                        continue
                    rows["bare rerun"].append(bare_rerun(browser, bare.url))
                    c, k, r = step_times(browser, app.url + SMALL)
                    rows["click shown"].append(c)
                    rows["key shown"].append(k)
                    rows["click to URL"].append(r)
                    rows["fps 4x"].append(playback_fps(browser, app.url + SMALL))
                browser.close()
        finally:
            app.stop()
            bare.stop()
    for name, url in (("3x3", SMALL), ("Example 6", LARGE)):  # (the first two loads warmed the servers)
        rows[f"{name} controls"] = [t for u, t in CONTROLS[2:] if u.endswith(url)]
    if args.loads:
        rows = {k: v for k, v in rows.items() if v}
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"medians of {args.repeats} runs, each in a new Chromium context "
          f"({len(RETRIES)} page(s) opened again after Streamlit's 'Page not found'):")
    for k, v in med.items():
        print(f"  {k:18} {v:8.2f} fps" if k == "fps 4x" else f"  {k:18} {v * 1000:8.0f} ms")
    if args.loads:
        for k, v in rows.items():
            print(f"  {k:18} each: " + " ".join(f"{x * 1000:.0f}" for x in v))

    def ratio(num, den) -> tuple[float, float, float]:
        """Median, lowest and highest of the per-repetition ratios (the two sides ran back to back, so
        the machine's drift hits both alike; a ratio of medians would mix fast and slow phases)."""
        rs = [n / d for n, d in zip(num, den)]
        return statistics.median(rs), min(rs), max(rs)

    if "click shown" in rows:
        rows["shown"] = [max(c, k) for c, k in zip(rows["click shown"], rows["key shown"])]
        rows["asked fps"] = [ASKED_FPS] * len(rows["fps 4x"])
    table = [  # (measure, numerator, denominator, target, met)
        ("3x3 figure drawn / bare page load", "3x3 figure", "bare load", "<= 1.5x", lambda r: r <= 1.5),
        ("Example 6 figure drawn / bare page load", "Example 6 figure", "bare load", "<= 1.5x", lambda r: r <= 1.5),
        ("3x3 figure drawn by plotly.js too (hover, export) / bare page load", "3x3 plotly", "bare load", "", None),
        ("Example 6 figure drawn by plotly.js too / bare page load", "Example 6 plotly", "bare load", "", None),
        ("3x3 sidebar's widgets shown / bare page load", "3x3 controls", "bare load", "", None),
        ("Example 6 sidebar's widgets shown / bare page load", "Example 6 controls", "bare load", "", None),
        ("step shown after a click or key / bare st.button rerun", "shown", "bare rerun", "<= 2x", lambda r: r <= 2),
        ("step in the URL (server round trip) / bare st.button rerun", "click to URL", "bare rerun", "", None),
        ("4x playback: frames per second / asked", "fps 4x", "asked fps", "0.9 to 1.1", lambda r: 0.9 <= r <= 1.1),
    ]
    table = [(name, ratio(rows[num], rows[den]), target, ok) for name, num, den, target, ok in table if num in rows]
    print("\n| measure | median ratio | lowest to highest | target | met |\n| --- | --- | --- | --- | --- |")
    for name, (mid, lo, hi), target, ok in table:
        met = "" if ok is None else ("yes" if ok(mid) else "no")
        print(f"| {name} | {mid:.2f} | {lo:.2f} to {hi:.2f} | {target} | {met} |")

if __name__ == "__main__":
    main()
