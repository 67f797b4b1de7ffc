"""Real browser: Practice on a 1280×720 classroom projector (the sidebar open), issue 22 §3.

Every exercise must show its question, the whole player figure and the answer with its Check button inside the
window, the page at its top, in the three modes, and in step by step after two steps too (the player's controls
and its legend then sit under the figure). The exercises tried are chosen in Python over seeds 0-199, from every
level 1-5 and every kind (any version, and each version offering the level): SWEEP holds, for each level, the two
largest (most cells to draw) and the two tallest (most rows drawn, then the longest question), each of shapes not
picked before (the same shapes lay out alike); KINDS the largest exercise of each level 4-5 kind whose shapes the
sweep did not try; REPORTED one that once ended below the window. The lists are pinned here (deriving them takes
some ten seconds), and ``test_the_pinned_exercises_are_still_the_largest_and_tallest`` derives them again. Cells
stay at least PROJECTOR_CELL px wide with digits of at least MIN_FONT px (the player goes below its MIN_CELL of
28 px only when nothing else keeps the answer on screen).
"""

from __future__ import annotations

import re

import pytest

import scatter_core as sc
import scatter_practice as sp
from tests.support.browser_support import SCREENSHOTS, real_errors
from scatter_ui.figures.views import MAX_SIDE
from scatter_ui.player.script import SOURCE_DIR
from tests.support.browser_practice import FIGURE, answer_boxes, output_cell_px, settle, steady

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 1280, 720
_LAYOUT_JS = (SOURCE_DIR / "layout.mjs").read_text(encoding="utf-8")
# the player's least cell of a projector's figure (MIN_CELL, 28, when that fits) and its least digits, as it holds them
PROJECTOR_CELL = int(re.search(r"^export const PROJECTOR_CELL = (\d+);", _LAYOUT_JS, re.M)[1])
MIN_FONT = int(re.search(r"^export const MIN_FONT = (\d+);", _LAYOUT_JS, re.M)[1])
SEEDS = range(200)
MODES = ("Step by step", "Whole output", "Multiple choice")


def kinds(level: int) -> list[str | None]:
    return [None] + [name for name in sc.OPERATORS if level in sp.levels_for(name)]


def cells(ex: sp.Exercise) -> int:
    """The cells the player draws besides the data (indices, updates, output)."""
    return sp.drawn_cells(ex.indices, ex.updates, ex.answer)


def _rows(a) -> int:
    return a.shape[-2] if a.ndim >= 2 else 1


def tallness(ex: sp.Exercise) -> tuple:
    """The rows drawn (the tallest input panel's, the output's, which the whole output's grid repeats under the
    figure), then the question's length (a longer one wraps), then the cells."""
    return max(_rows(a) for _, a in ex.inputs[1:]) + _rows(ex.answer), len(ex.prompt), cells(ex)


def largeness(ex: sp.Exercise) -> tuple:
    return cells(ex), tallness(ex)


def shapes(ex: sp.Exercise) -> tuple:
    """What the page lays out: the shapes of the inputs and of the output."""
    return tuple(a.shape for _, a in ex.inputs) + (ex.answer.shape,)


def derive_sweep() -> list[tuple[int, int, str | None]]:
    """For each level, the 2 largest then the 2 tallest exercises over SEEDS and every kind, each of shapes not
    picked before at that level (the same shapes lay out alike): (level, seed, op)."""
    out = []
    for level in sp.LEVELS:
        drawn = [(sp.make_exercise(s, level, op), op) for op in kinds(level) for s in SEEDS]
        seen = set()
        for measure in (largeness, tallness):
            picked = 0
            for ex, op in sorted(drawn, key=lambda e: (measure(e[0]), -e[0].seed), reverse=True):
                if picked == 2:
                    break
                if shapes(ex) not in seen:
                    seen.add(shapes(ex))
                    out.append((level, ex.seed, op))
                    picked += 1
    return out


def derive_kinds(tried: list) -> list[tuple[int, int, str | None]]:
    """The largest exercise (then the tallest, then the lowest seed) of each level 4-5 kind over SEEDS whose shapes
    no exercise in ``tried`` (or before it here) has."""
    seen = {shapes(sp.make_exercise(s, level, op)) for level, s, op in tried}
    out = []
    for level in (4, 5):
        for op in kinds(level):
            ex = max((sp.make_exercise(s, level, op) for s in SEEDS), key=lambda e: (largeness(e), -e.seed))
            if shapes(ex) not in seen:
                seen.add(shapes(ex))
                out.append((level, ex.seed, op))
    return out


SWEEP = [
    (1, 58, "ScatterNDUpdate-15"), (1, 59, "ScatterNDUpdate-15"), (1, 66, "ScatterNDUpdate-15"),
    (1, 55, "ScatterNDUpdate-3"), (2, 25, "ScatterNDUpdate-15"), (2, 1, "TensorScatter-24"),
    (2, 161, "ScatterNDUpdate-15"), (2, 37, None), (3, 156, "ScatterNDUpdate-15"), (3, 183, None),
    (3, 123, "ScatterNDUpdate-15"), (3, 26, "ScatterNDUpdate-15"), (4, 184, "ScatterND-16"),
    (4, 113, "ScatterNDUpdate-15"), (4, 63, "ScatterNDUpdate-15"), (4, 39, "ScatterNDUpdate-15"),
    (5, 17, "ScatterNDUpdate-3"), (5, 129, "ScatterNDUpdate-3"), (5, 7, "ScatterNDUpdate-15"),
    (5, 132, "ScatterNDUpdate-15"),
]
REPORTED = [(4, 1016, "ScatterND-18")]  # a rank-2 output under an 8-row indices column: once 12 px below the window
KINDS = [
    (4, 77, None), (4, 52, "ScatterND-18"), (4, 17, "ScatterUpdate-3"), (4, 175, "ScatterNDUpdate-3"),
    (4, 68, "ScatterElementsUpdate-12"), (4, 18, "SliceScatter-15"), (5, 37, None), (5, 83, "Scatter-9"),
    (5, 118, "Scatter-11"), (5, 8, "ScatterElements-13"), (5, 71, "ScatterElements-18"), (5, 141, "ScatterUpdate-3"),
    (5, 6, "SliceScatter-15"),
]


def test_the_pinned_exercises_are_still_the_largest_and_tallest():
    """SWEEP and KINDS are what the generator gives today (a change of the generator changes them)."""
    assert derive_sweep() == SWEEP
    assert derive_kinds(SWEEP + REPORTED) == KINDS


def test_no_exercise_draws_more_than_a_projector_shows():
    """The generator's bound the lists rely on: at most MAX_DRAWN cells of indices, updates and output (each
    level's every kind over SEEDS: tests/practice/test_practice.py)."""
    assert max(cells(sp.make_exercise(s, level, op)) for level, s, op in SWEEP + KINDS) == sp.MAX_DRAWN


def digits_px(pg) -> float:
    """The size of the output panel's digits on the player's figure, px (plotly's own trace)."""
    return pg.evaluate("() => document.querySelector('[data-testid=scatter-figure]')._fullData[2].textfont.size")


def on_screen(pg, ex: sp.Exercise, mode: str, question: str, where) -> float:
    """Asserts that the question, the figure and the answer with its Check button are in the window, the page at
    its top; the output's cell px."""
    steady(pg)
    boxes = {"question": pg.locator("[data-testid=stMain]").get_by_text(question).first.bounding_box(),
             "figure": pg.locator(FIGURE).first.bounding_box(), **answer_boxes(pg, ex, mode)}
    where = (*where, mode, boxes)
    assert pg.evaluate("() => [window.scrollY, document.querySelector('[data-testid=stMain]').scrollTop]") \
        == [0, 0], where
    for name, box in boxes.items():
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, (name, where)
    assert boxes["question"]["y"] < boxes["figure"]["y"] < boxes["check"]["y"], where
    cell = output_cell_px(pg)
    assert cell >= PROJECTOR_CELL - 0.01, (cell, where)
    assert digits_px(pg) >= MIN_FONT, (digits_px(pg), cell, where)
    return cell


def take_steps(pg, ex: sp.Exercise, count: int) -> None:
    """Predict ``count`` steps (typed targets, right values) and move on to the next each time."""
    for k in range(count):
        pg.locator("input[aria-label^='Target cell']").fill(", ".join(str(int(v)) for v in ex.trace.target_cells(k)[0]))
        pg.locator("input[aria-label='Value after the step']").fill(str(ex.trace.after[k][0]))
        pg.get_by_role("button", name="Check").click()
        settle(pg)  # (a step writing a slice may grade this one cell otherwise: the test only moves on)
        # a student reads the whole reveal (its verdict, the figure after the step) before moving on
        pg.evaluate("() => { const m = document.querySelector('[data-testid=stMain]'); m.scrollTo(0, m.scrollHeight); }")
        pg.get_by_role("button", name="Next step ▶").click()
        settle(pg)
        pg.get_by_text(sp.step_question(ex, k + 1)).first.wait_for(timeout=30_000)
        pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=30_000)


def every_mode_fits(browser, server, level: int, seed: int, op: str | None, dark: bool, shots: str | None) -> dict:
    ex = sp.make_exercise(seed, level, op)
    ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, color_scheme="dark" if dark else "light")
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    pg.goto(f"{server.url}/practice?seed={seed}&level={level}" + (f"&op={op}" if op else ""))
    pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=60_000)
    settle(pg)
    where = (level, seed, ex.op, [a.shape for _, a in ex.inputs])
    seen = {"step 1": on_screen(pg, ex, "Step by step", sp.step_question(ex, 0), where)}
    later = min(2, ex.steps - 1)  # after two steps: the controls row and the legend under the figure
    if later:
        take_steps(pg, ex, later)
        # a step's reveal (its verdict, the figure after it) may be taller than the window and its Next button was
        # clicked where it stood, lower down: the next step's player brings the page back to its top (on_screen
        # checks that the page is not scrolled)
        seen[f"step {later + 1}"] = on_screen(pg, ex, "Step by step", sp.step_question(ex, later), where)
        if shots:
            pg.screenshot(path=str(SCREENSHOTS / f"{shots}-step-{later + 1}.png"))
    for mode in MODES[1:]:
        pg.locator("[data-testid=stSidebar]").get_by_text(mode, exact=True).click()
        pg.get_by_text(ex.prompt).first.wait_for(timeout=30_000)
        pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=30_000)
        settle(pg)
        seen[mode] = on_screen(pg, ex, mode, ex.prompt, where)
        if shots:
            pg.screenshot(path=str(SCREENSHOTS / f"{shots}-{mode.replace(' ', '-').lower()}.png"))
    assert real_errors(errors) == []
    ctx.close()
    return seen


CASES = SWEEP + REPORTED


@pytest.mark.parametrize("i, level, seed, op", [(i, *c) for i, c in enumerate(CASES)],
                         ids=[f"L{lv}-{s}-{op or 'any'}" for lv, s, op in CASES])
def test_a_projector_fits_the_largest_and_tallest_exercises_of_every_level(server, browser, i, level, seed, op):
    """The two largest and two tallest exercises of each level (of shapes not tried before), and the one reported:
    every mode fits, and step by step after two steps (every other case in the dark theme; screenshots of each)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    every_mode_fits(browser, server, level, seed, op, dark=i % 2 == 1,
                    shots=f"practice-projector-sweep-L{level}-{seed}-{op or 'any'}")


@pytest.mark.parametrize("level, seed, op", KINDS, ids=[f"L{lv}-{op or 'any'}" for lv, _, op in KINDS])
def test_a_projector_fits_the_largest_exercise_of_every_level_4_and_5_kind(server, browser, level, seed, op):
    """The largest exercise of each level 4-5 kind (every version offering the level, and any version) whose shapes
    the sweep did not try: every mode fits, step by step after two steps too."""
    every_mode_fits(browser, server, level, seed, op, dark=False, shots=None)


# -- the explorer on a projector (issue 33) ------------------------------------------------------------------------
def _explorer_examples() -> list:
    """Every spec example, the layers given by shapes only too: an input's row axis over MAX_SIDE long is windowed
    to the rows a projector has room for (views.row_window), and a stand-in's player comes before the example's
    header."""
    import spec_examples

    return list(spec_examples.load_all())


EXPLORER_CHUNKS = 2


@pytest.mark.parametrize("chunk", range(EXPLORER_CHUNKS))
def test_the_explorer_shows_every_examples_controls_and_output_on_a_projector(server, browser, chunk):
    """At 1280×720 with the sidebar open, every example's page shows its title, the whole figure (the output
    panel is its last) and the step controls under it without scrolling, cells at least PROJECTOR_CELL px wide
    (ScatterND-18 example 2 had its controls and most of its output below the window), the layers of 125-row
    inputs too (their windowed rows labelled); every other example in the dark theme."""
    from urllib.parse import urlencode

    examples = _explorer_examples()[chunk::EXPLORER_CHUNKS]
    assert len(examples) >= 37 and len(_explorer_examples()) == 74
    for j, scheme in enumerate(("light", "dark")):
        ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, color_scheme=scheme)
        pg = ctx.new_page()
        errors = []
        pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
        for example in examples[j::2]:
            slug = sc.family_of(sc.OPERATORS[example.op]).slug
            pg.goto(f"{server.url}/{slug}?{urlencode({'op': example.op, 'example': example.id})}")
            pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=60_000)
            settle(pg)
            steady(pg)
            where = (example.id, scheme)
            assert pg.locator("[data-testid=stSidebar]").bounding_box()["width"] > 200, where  # the sidebar open
            boxes = {"title": pg.locator("[data-testid=stMain] h1").first.bounding_box(),
                     "figure": pg.locator(FIGURE).first.bounding_box(),
                     **{name: pg.get_by_test_id(f"player-{name}").bounding_box() for name in ("play", "next", "last")}}
            assert pg.evaluate("() => [window.scrollY, document.querySelector('[data-testid=stMain]').scrollTop]") \
                == [0, 0], where
            for name, box in boxes.items():
                assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, (name, box, where)
            assert output_cell_px(pg) >= PROJECTOR_CELL - 0.01, (output_cell_px(pg), where)
            if any(a is not None and a.ndim >= 2 and a.shape[-2] > MAX_SIDE for a in (example.indices, example.updates)):
                # a windowed input says which rows it shows ("indices[0:11, :]"; the step moves the window)
                notes = pg.evaluate("() => document.querySelector('[data-testid=scatter-figure]')._fullLayout"
                                    ".annotations.map((a) => a.text)")
                assert any(re.search(r"\b0:\d+\b", str(t)) for t in notes), (notes, where)
        assert real_errors(errors) == []
        ctx.close()


TALL_LAYERS = ("ov-scatter-nd-update-3-layer-example", "ov-scatter-update-3-example-1")  # a case; a stand-in


def _row_ranges(pg) -> list[int]:
    """The rows each windowed panel's label says it shows ("updates[0, 5:29, :]" -> 24)."""
    notes = pg.evaluate("() => document.querySelector('[data-testid=scatter-figure]')._fullLayout"
                        ".annotations.map((a) => String(a.text))")
    return [int(b) - int(a) for t in notes for a, b in re.findall(r"\b(\d+):(\d+)\b", t)]


@pytest.mark.parametrize("example_id", TALL_LAYERS)
def test_the_explorer_windows_a_long_input_to_a_tall_screen(server, browser, example_id):
    """At 1400×1000 (over the player's 820 px: cells sized by the width, the page scrolls) a 125-row input shows
    MAX_SIDE rows where a projector shows 4: the player reports its height and the page sends them, the label
    says which rows, and the window follows the step (here the last), the step's highlighted row in it."""
    from urllib.parse import urlencode

    import spec_examples

    example = spec_examples.by_id(example_id)
    slug = sc.family_of(sc.OPERATORS[example.op]).slug
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    pg.goto(f"{server.url}/{slug}?{urlencode({'op': example.op, 'example': example.id})}")
    pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=60_000)
    pg.wait_for_function("""() => [...document.querySelector('[data-testid=scatter-figure]')._fullLayout.annotations]
        .some((a) => /\\b0:24\\b/.test(String(a.text)))""", timeout=60_000)
    settle(pg)
    assert max(_row_ranges(pg)) == MAX_SIDE >= 12, _row_ranges(pg)
    pg.get_by_test_id("player-last").click()
    settle(pg)
    pg.wait_for_function("""() => [...document.querySelector('[data-testid=scatter-figure]')._fullLayout.annotations]
        .some((a) => /\\b101:125\\b/.test(String(a.text)))""", timeout=30_000)
    # the step's highlighted input cell lies inside the drawn rows (it was the last row, 124)
    rows = pg.evaluate("""() => { const l = document.querySelector('[data-testid=scatter-figure]')._fullLayout;
        return l.shapes.filter((s) => s.yref === 'y2' && s.line && s.line.width >= 3).map((s) => (s.y0 + s.y1) / 2); }""")
    assert rows and all(0 <= r < MAX_SIDE for r in rows), rows
    pg.screenshot(path=str(SCREENSHOTS / f"explorer-tall-{example_id}.png"))
    assert real_errors(errors) == []
    ctx.close()
