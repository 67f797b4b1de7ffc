"""Real browser: one step-by-step practice exercise done by clicking the target cells on the output heatmap."""

from __future__ import annotations

import pytest

import scatter_practice as sp
from tests.support.browser_support import SCREENSHOTS, real_errors
from tests.support.browser_practice import FIGURE, output_cell_px, settle, steady

pytestmark = pytest.mark.browser

SEED, LEVEL = 15, 1  # ScatterElements, data 3×3, three steps


def open_practice(pg, server, query: str) -> None:
    pg.goto(f"{server.url}/practice?{query}")
    pg.get_by_text("Level ").first.wait_for(timeout=60_000)
    pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=60_000)
    settle(pg)


def practice_page(browser, server, query: str, width: int = 1400, height: int = 1000):
    """A new browser context on the Practice page at ``query``: (context, page, the page errors seen)."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    open_practice(pg, server, query)
    return ctx, pg, errors


def output_cell_centre(pg, row: int, col: int) -> tuple[float, float]:
    """Screen position of output[row, col] on the player's figure (the third subplot), from plotly's own axes."""
    return tuple(pg.evaluate(
        """([r, c]) => { const gd = document.querySelector('[data-testid=scatter-figure]');
            const xa = gd._fullLayout.xaxis3, ya = gd._fullLayout.yaxis3, box = gd.getBoundingClientRect();
            return [box.left + xa._offset + xa.l2p(c), box.top + ya._offset + ya.l2p(r)]; }""", [row, col]))


def click_cell(pg, cell) -> None:
    chart = pg.locator(FIGURE).first
    chart.scroll_into_view_if_needed()
    pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=30_000)
    target = pg.locator("input[aria-label^='Target cell']")
    want = ", ".join(str(c) for c in cell)
    for _ in range(5):  # the chart takes a moment to accept clicks after a rerun
        x, y = output_cell_centre(pg, *cell)
        pg.mouse.click(x, y)
        settle(pg)
        if target.input_value() == want:
            pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=30_000)
            settle(pg)  # the outline of the picked cell redraws the player
            return
        pg.wait_for_timeout(500)
    raise AssertionError(f"clicking output{list(cell)} did not fill the target ({target.input_value()!r})")


FEEDBACK = "st-key-practice-feedback"  # the container of what a Check says (practice_page.FEEDBACK_KEY)


def wait_focus_in(pg, selector: str, timeout: float = 10_000) -> None:
    """Wait until keyboard focus is on (or inside) the element matching ``selector``, not on the page's body."""
    pg.wait_for_function("(s) => { const a = document.activeElement; const el = document.querySelector(s);"
                         " return a && a !== document.body && el && (el === a || el.contains(a)); }",
                         arg=selector, timeout=timeout)


def test_step_by_step_exercise_by_clicking_cells(server, browser):
    ex = sp.make_exercise(SEED, LEVEL)
    assert ex.data.ndim == 2 and ex.steps == 3
    errors = []
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    pg.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    open_practice(pg, server, f"seed={SEED}&level={LEVEL}")
    pg.get_by_text(f"Level {LEVEL} · exercise {SEED} · {ex.op}").first.wait_for(timeout=30_000)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for k in range(ex.steps):
        pg.get_by_text(f"Step {k + 1} of {ex.steps} reads").first.wait_for(timeout=30_000)
        cell = tuple(int(v) for v in ex.trace.target_cells(k)[0])
        click_cell(pg, cell)
        right = ex.trace.after[k][0]
        value = right + 1 if k == 0 else right  # the first prediction has the wrong value
        pg.locator("input[aria-label='Value after the step']").fill(str(value))
        if k == 0:
            pg.screenshot(path=str(SCREENSHOTS / "practice-step-clicked.png"), full_page=True)
        pg.get_by_role("button", name="Check").click()
        settle(pg)
        if k == 0:  # the first wrong check: a hint and one more try; focus on what it says, not the page's body
            pg.get_by_text("Try once more").first.wait_for(timeout=30_000)
            wait_focus_in(pg, f".{FEEDBACK}")
            assert f"holds {right} after the step" not in pg.locator("[data-testid=stMain]").inner_text()
            pg.get_by_role("button", name="Check").click()  # the same wrong value again: the answer
            settle(pg)
        verdict = pg.get_by_text("Right: target and value.").or_(pg.get_by_text("Not quite:"))
        verdict.first.wait_for(timeout=30_000)
        wait_focus_in(pg, f".{FEEDBACK}")  # after Check: on the feedback
        body = pg.locator("[data-testid=stMain]").inner_text()
        if k == 0:
            assert "Not quite: the value." in body
            assert f"holds {right} after the step" in body
            pg.screenshot(path=str(SCREENSHOTS / "practice-step-wrong.png"), full_page=True)
        else:
            assert "Right: target and value." in body
        # the step is revealed with its caption (the player shows it once its own update has run, which
        # may finish after Streamlit has drawn the verdict)
        pg.locator("[data-testid=stMain]").get_by_text(ex.trace.describe(k), exact=False).first.wait_for(timeout=30_000)
        # the count names the exercise's steps, not the frames sent (it read "1 / 1" on a 3-step exercise)
        pg.wait_for_function(f"() => [...document.querySelectorAll('[data-testid=player-count]')].some("
                             f"c => c.offsetParent && c.textContent === '{k + 1} / {ex.steps}')", timeout=30_000)
        pg.get_by_role("button", name="Next step ▶" if k + 1 < ex.steps else "Finish ▶").click()
        settle(pg)
        if k + 1 < ex.steps:  # after Next step: on the next step's target box
            wait_focus_in(pg, "input[aria-label^='Target cell']")
    pg.get_by_text(f"All {ex.steps} steps done").first.wait_for(timeout=30_000)
    sidebar = pg.locator("[data-testid=stSidebar]")
    sidebar.get_by_text("Your progress (this session)").click()
    sidebar.get_by_text(f"Level {LEVEL}: {ex.steps - 1} of {ex.steps} right").wait_for(timeout=10_000)
    pg.screenshot(path=str(SCREENSHOTS / "practice-step-done.png"), full_page=True)
    assert real_errors(errors) == []
    ctx.close()


def test_whole_output_typed_into_the_grid(server, browser):
    seed, level = 2, 3
    ex = sp.make_exercise(seed, level)
    assert ex.data.ndim == 1
    ctx, pg, errors = practice_page(browser, server, f"seed={seed}&level={level}&mode=Whole+output", 1400, 1600)
    grid = pg.locator("[data-testid=stDataFrame]").first
    grid.scroll_into_view_if_needed()
    settle(pg)
    box = grid.bounding_box()
    width = (box["width"] - 50) / ex.answer.size  # the row-number column is about 50 px wide
    for i, value in enumerate(ex.answer.tolist()):
        for _ in range(5):  # the grid's canvas takes a moment to accept clicks after a rerun
            pg.mouse.dblclick(box["x"] + 50 + width * (i + 0.5), box["y"] + 35 + 17)
            editor = pg.locator(".gdg-input").first
            try:
                editor.wait_for(timeout=3_000)
                break
            except Exception:  # noqa: BLE001 - retry the double click
                pg.wait_for_timeout(500)
        editor.fill(str(value))
        editor.press("Enter")
        settle(pg)
    pg.get_by_role("button", name="Check my output").click()
    pg.get_by_text(f"Right! All {ex.answer.size} cells are right.").first.wait_for(timeout=30_000)
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("width, height", [(1400, 1000), (390, 844)])
@pytest.mark.parametrize("mode", ["Step by step", "Whole output", "Multiple choice"])
def test_practice_screenshots(server, browser, width, height, mode):
    """Each mode on a shared set opened from its link (the app's theme is light, .streamlit/config.toml)."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    open_practice(pg, server, "set=4&level=3&n=3&mode=" + mode.replace(" ", "+"))
    pg.get_by_text("Level 3 · set 4, exercise 1 of 3").first.wait_for(timeout=30_000)
    pg.wait_for_timeout(800)
    name = mode.lower().replace(" ", "-")
    pg.screenshot(path=str(SCREENSHOTS / f"practice-{name}-{width}x{height}.png"))
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("mode, seed, level", [  # a 3×3 output; a 5-row indices panel; a 4×5 output (the most rows
    ("Whole output", SEED, LEVEL), ("Whole output", 1, 3), ("Whole output", 0, 1),  # of a rank-1-2 output, levels 1-4)
    ("Multiple choice", SEED, LEVEL), ("Multiple choice", 1, 3), ("Multiple choice", 0, 1)])
def test_a_projector_shows_the_whole_output_and_multiple_choice_answers_without_scrolling(server, browser, mode,
                                                                                        seed, level, dark):
    """At 1280×720, in the two modes that ask for the whole output, the question, the figure, every answer
    control and its Check button are inside the viewport at the page's top (a layout check: the boxes the browser
    laid out, no timing). The 4×5 output's grid has four rows under the figure: the player fits its cells to the
    window's height (not under 28 px)."""
    ex = sp.make_exercise(seed, level)
    assert ex.answer.ndim <= 2
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, color_scheme="dark" if dark else "light")
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    open_practice(pg, server, f"seed={seed}&level={level}&mode={mode.replace(' ', '+')}")
    main = pg.locator("[data-testid=stMain]")
    boxes = {"question": main.get_by_text(ex.prompt).first.bounding_box(),
             "figure": pg.locator(FIGURE).first.bounding_box()}
    if mode == "Whole output":
        boxes["check"] = main.get_by_role("button", name="Check my output").bounding_box()
        boxes["grid"] = main.locator("[data-testid=stDataFrame]").first.bounding_box()
        boxes["grid or text"] = main.get_by_role("radiogroup").first.bounding_box()
    else:
        boxes["check"] = main.get_by_role("button", name="Check").bounding_box()
        boxes["answer"] = main.get_by_role("radiogroup").first.bounding_box()
        for i, grid in enumerate(main.get_by_test_id("option-grid").all()):
            boxes[f"option {'ABCD'[i]}"] = grid.bounding_box()
        assert len(boxes) == 4 + len(sp.choices(ex))
    assert pg.evaluate("() => [window.scrollY, document.querySelector('[data-testid=stMain]').scrollTop]") == [0, 0]
    for name, box in boxes.items():
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 720, (name, box)
    assert boxes["question"]["y"] < boxes["figure"]["y"] < boxes["check"]["y"]
    assert output_cell_px(pg) >= 28
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / f"practice-projector-{mode.replace(' ', '-').lower()}-{seed}-{level}"
                                         f"{'-dark' if dark else ''}.png"))
    assert real_errors(errors) == []
    ctx.close()


@pytest.mark.parametrize("op, seed", [("TensorScatter-24", 0), ("SliceScatter-15", 1)])
def test_newest_operators_step_clicked_on_the_player(server, browser, op, seed):
    """A KV-cache write and a strided-slice write predicted by clicking the output cell (level 1, rank 2)."""
    ex = sp.make_exercise(seed, 1, op)
    assert ex.data.ndim == 2
    ctx, pg, errors = practice_page(browser, server, f"seed={seed}&level=1&op={op}")
    pg.get_by_text(f"Level 1 · exercise {seed} · {op}").first.wait_for(timeout=30_000)
    for k in range(2):
        pg.get_by_text(f"Step {k + 1} of {ex.steps}").first.wait_for(timeout=30_000)
        click_cell(pg, tuple(int(v) for v in ex.trace.target_cells(k)[0]))
        pg.locator("input[aria-label='Value after the step']").fill(str(ex.trace.after[k][0]))
        pg.get_by_role("button", name="Check").click()
        settle(pg)
        pg.get_by_text("Right: target and value.").first.wait_for(timeout=30_000)
        # the step is revealed with its caption, which the player shows once its own update has run (that may be
        # after Streamlit has drawn the verdict: under load the caption came a moment later, and reading the page
        # at once failed)
        pg.locator("[data-testid=stMain]").get_by_text(ex.trace.describe(k), exact=False).first.wait_for(timeout=30_000)
        if k == 0:
            pg.screenshot(path=str(SCREENSHOTS / f"practice-{op}-right.png"), full_page=True)
        pg.get_by_role("button", name="Next step ▶").click()
        settle(pg)
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("seed, level", [(SEED, LEVEL), (1, 3), (0, 1)])  # 3×3 output; 5-row indices; 4×5 output
def test_a_projector_shows_the_question_figure_and_answer_without_scrolling(server, browser, seed, level):
    """At 1280×720 (a classroom projector) the step question, the whole player figure and the answer inputs with
    their Check button are inside the viewport, the page scrolled to its top; the player offers no dead control.
    The cells are larger than on a window as wide but 1000 px tall, where they are sized by the width alone."""
    ex = sp.make_exercise(seed, level)
    tall, tall_pg, _ = practice_page(browser, server, f"seed={seed}&level={level}", 1280, 1000)
    by_width = output_cell_px(tall_pg)
    tall.close()
    ctx, pg, errors = practice_page(browser, server, f"seed={seed}&level={level}", 1280, 720)
    question = pg.get_by_text(sp.step_question(ex, 0)).first
    question.wait_for(timeout=30_000)
    boxes = {"question": question.bounding_box(),
             "figure": pg.locator(FIGURE).first.bounding_box(),
             "target": pg.locator("input[aria-label^='Target cell']").bounding_box(),
             "value": pg.locator("input[aria-label='Value after the step']").bounding_box(),
             "check": pg.get_by_role("button", name="Check").bounding_box()}
    assert pg.evaluate("() => [window.scrollY, document.querySelector('[data-testid=stMain]').scrollTop]") == [0, 0]
    for name, box in boxes.items():
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 720, (name, box)
    assert boxes["question"]["y"] < boxes["figure"]["y"] < boxes["target"]["y"]
    visible = pg.evaluate("""() => [...document.querySelectorAll('.sx-controls > *')]
        .filter((e) => getComputedStyle(e).display !== 'none').map((e) => e.dataset.testid || e.className)""")
    assert visible == []  # before the first step: nothing to step to, play, go to or speed up
    if seed != 1:  # (the 5-row indices panel leaves no height to grow into)
        assert output_cell_px(pg) > 1.2 * by_width, (output_cell_px(pg), by_width)
    pg.screenshot(path=str(SCREENSHOTS / f"practice-projector-{seed}-{level}.png"))
    assert real_errors(errors) == []
    ctx.close()


@pytest.mark.parametrize("width, height", [(1280, 720), (1400, 1000), (390, 844)])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_rank3_practice_screenshots(server, browser, width, height, dark):
    """A rank-3 exercise (level 5) in the three modes on a projector, a desktop and a phone, in both themes: the
    options are four grids of slices (a phone stacks them), each named for a screen reader; the output's cells keep
    at least 28 px (on a phone the figure scrolls sideways rather than shrink them)."""
    seed, level, op = 2, 5, "ScatterElements-11"
    ex = sp.make_exercise(seed, level, op)
    assert ex.answer.ndim == 3
    ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme="dark" if dark else "light")
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    open_practice(pg, server, f"seed={seed}&level={level}&op={op}")
    for mode in ("Step by step", "Whole output", "Multiple choice"):
        if mode != "Step by step":
            if width < 700:  # a phone: the sidebar is folded away; the mode comes from the link
                pg.goto(f"{server.url}/practice?seed={seed}&level={level}&op={op}&mode={mode.replace(' ', '+')}")
            else:
                pg.locator("[data-testid=stSidebar]").get_by_text(mode, exact=True).click()
            pg.get_by_text(ex.prompt).first.wait_for(timeout=30_000)
            pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=30_000)
            settle(pg)
        steady(pg)
        assert output_cell_px(pg) >= 28, (mode, output_cell_px(pg))
        if mode == "Multiple choice":
            options = pg.get_by_test_id("option-grid")
            assert options.count() == len(sp.choices(ex))
            assert [options.nth(i).get_attribute("aria-label") for i in range(4)] == [f"Option {c}" for c in "ABCD"]
        name = mode.lower().replace(" ", "-")
        pg.screenshot(path=str(SCREENSHOTS / f"practice-rank3-{name}-{width}x{height}{'-dark' if dark else ''}.png"))
    assert real_errors(errors) == []
    ctx.close()


@pytest.mark.parametrize("width, height", [(1280, 720), (390, 844)])
def test_multiple_choice_digits_are_at_least_12_px_tall(server, browser, width, height):
    """Issue 33: the options' digits measured in Chromium: their ink (the canvas's bounding box of 0-9 in the
    cells' own font) is at least 12 px tall (13 px type drew them 9 px), and no number overflows its cell."""
    ctx, pg, errors = practice_page(browser, server, "seed=3&level=3&mode=Multiple+choice", width, height)
    got = pg.evaluate("""() => [...document.querySelectorAll('[data-testid=option-grid] .sx-cells span')].map(s => {
        const cs = getComputedStyle(s), c = document.createElement('canvas').getContext('2d');
        c.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const m = c.measureText('0123456789');
        return [m.actualBoundingBoxAscent + m.actualBoundingBoxDescent, s.scrollWidth <= s.clientWidth]; })""")
    assert len(got) >= 4 * 6
    assert min(ink for ink, _ in got) >= 12, sorted({ink for ink, _ in got})
    assert all(fits for _, fits in got)
    assert errors == []
    ctx.close()


def test_a_projector_shows_the_levels_words_whole(server, browser):
    """Issue 33: at 1280×720 the level's words (level 4's are the longest) are not cut off: they wrap, all on
    screen, and the answer's Check button stays on screen under the figure."""
    ctx, pg, errors = practice_page(browser, server, "seed=0&level=4&mode=Whole+output", 1280, 720)
    cap = pg.evaluate("""() => { const p = document.querySelector(
            '.st-key-practice-about [data-testid=stCaptionContainer] p');
        const r = p.getBoundingClientRect();
        return [p.scrollWidth <= p.clientWidth, p.scrollHeight <= p.clientHeight + 1, r.bottom, p.textContent]; }""")
    fits_across, fits_down, bottom, text = cap
    assert fits_across and fits_down and bottom <= 720
    assert text.startswith(sp.LEVELS[4][:1].upper() + sp.LEVELS[4][1:])
    check = pg.get_by_role("button", name="Check my output").bounding_box()
    assert check["y"] + check["height"] <= 720
    assert errors == []
    ctx.close()
