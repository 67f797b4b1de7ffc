"""An axe-core audit (WCAG 2.0, 2.1 and 2.2, levels A and AA) of every page, in the light and dark themes.

axe-core comes from npm (scripts/install-test-deps.sh puts it in ./node_modules, git-ignored; $AXE_CORE
names another axe.min.js). Without it these tests skip on a laptop and fail under CI=true. Each page view
must have no serious and no critical violation; a failure lists every violation's rule, target and summary.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import scatter_core as sc
from tests.support.browser_support import ROOT, SCREENSHOTS
from tests.support.skipping import require_or_skip
from tests.support.skipping import skip_or_fail

pytestmark = pytest.mark.browser

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
BLOCKING = ("serious", "critical")
WIDTH, HEIGHT = 1400, 1000
FIGURE = "[data-testid=scatter-figure]"
LINK = "[data-testid=stSidebar] a[data-testid=stPageLink-NavLink]"


def axe_path() -> Path:
    """$AXE_CORE, else the copy scripts/install-test-deps.sh installed into ./node_modules."""
    return Path(os.environ.get("AXE_CORE") or ROOT / "node_modules" / "axe-core" / "axe.min.js")


def _spec_tabs() -> list[str]:
    """Every tab but the first of the two largest spec pages (the others draw the same sections)."""
    from scatter_ui.pages.spec import TABS

    return [f"/spec-{slug}?tab={tab.replace(' ', '+')}" for slug in ("nd", "elements") for tab in TABS[1:]]


# Beside every page of the sidebar on its first view (test_every_listed_page), the states with more on
# them: an example with duplicate indices (warnings, step log), the check page on a chosen operator,
# a Practice set and its two other modes (and rank 3's), and the spec pages' other tabs.
STATES = ["/elements?op=ScatterElements-18&example=onnx-node-scatter-elements-with-duplicate-indices&step=2",
          "/check?op=ScatterND-16", "/practice?set=15&level=1&n=3",
          "/practice?seed=15&level=1&mode=Whole+output", "/practice?seed=15&level=1&mode=Multiple+choice",
          # rank 3: the options' grids (slices side by side, each option's text form) and the two-line text box
          "/practice?seed=2&level=5&op=ScatterElements-11&mode=Multiple+choice",
          "/practice?seed=0&level=4&op=ScatterND-11&mode=Whole+output",
          # From your code with an answer: its headings and the spec links beside each operator
          "/from-code?call=x.at%5Bidx%5D.set%28v%29",
          # a masked write: Where, no scatter (issue 31)
          "/from-code?call=x.masked_fill%28m%2C%200%29"] + _spec_tabs()


@pytest.fixture(scope="module")
def axe_source() -> str:
    path = axe_path()
    if not path.is_file():
        skip_or_fail(f"axe-core not found at {path} (install it: bash scripts/install-test-deps.sh, which needs npm)")
    return path.read_text(encoding="utf-8")


def settle(pg, timeout: float = 90_000) -> None:
    """Wait until Streamlit has finished the run (no running indicator) and a player, if any, has drawn."""
    pg.wait_for_selector("[data-testid=stMain]", timeout=timeout)
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)
    if pg.locator("[data-testid=scatter-player]").count():
        pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=timeout)
    pg.wait_for_timeout(600)
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)


def audit(pg, axe_source: str, run_only: dict | None = None) -> list[dict]:
    """axe.run over the whole document (by default with the WCAG A/AA tags): its violations with their nodes."""
    if not pg.evaluate("() => typeof window.axe === 'object'"):
        pg.add_script_tag(content=axe_source)
    return pg.evaluate("""(only) => axe.run(document, {runOnly: only, resultTypes: ['violations']}).then(r =>
        r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary, impact: n.impact}))})))""",
                       run_only or {"type": "tag", "values": TAGS})


# Two best-practice rules (not WCAG criteria, so outside TAGS) the pages were fixed for: each page's
# headings go down one level at a time, and no table has an empty header cell.
STRUCTURE = {"type": "rule", "values": ["heading-order", "empty-table-header"]}


def problems(pg, axe_source: str, view: str, scheme: str) -> str:
    """What is wrong with the view open in ``pg``: blocking WCAG violations, the structure rules, the page's
    language; "" when nothing is."""
    pg.goto(pg.base + view)
    settle(pg)
    background = pg.evaluate("() => getComputedStyle(document.querySelector('.stApp')).backgroundColor")
    rgb = [int(c) for c in background[background.index("(") + 1:background.index(")")].split(",")[:3]]
    assert (sum(rgb) < 384) == (scheme == "dark"), background  # the theme asked for is the one audited
    found = [v for v in audit(pg, axe_source) if v["impact"] in BLOCKING] + audit(pg, axe_source, STRUCTURE)
    lang = pg.evaluate("() => document.documentElement.lang")
    if not found and lang == "en":
        return ""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = "".join(c if c.isalnum() else "-" for c in view.strip("/")) or "home"
    pg.screenshot(path=str(SCREENSHOTS / f"axe-{name[:80]}-{scheme}.png"), full_page=True)
    return describe(view, scheme, found) + ("" if lang == "en" else f"\n  <html lang> is {lang!r}, not 'en'")


def describe(view: str, scheme: str, violations: list[dict]) -> str:
    lines = [f"{view} ({scheme}):"]
    for v in violations:
        lines.append(f"  {v['id']} [{v['impact']}] {v['help']}: {len(v['nodes'])} node(s)")
        for n in v["nodes"][:8]:
            lines.append(f"    {n['target']}\n      {(n['summary'] or '').replace(chr(10), ' | ')[:400]}")
    return "\n".join(lines)


@pytest.fixture(scope="module", params=["light", "dark"])
def themed(request, browser, server):
    """One browser context per theme (the app follows the system colour scheme), shared by the views."""
    ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, color_scheme=request.param)
    pg = ctx.new_page()
    pg.base = server.url
    pg.goto(server.url)  # a fresh server's first session; its notice (if any) is not a page's
    settle(pg)
    yield request.param, pg
    ctx.close()


def test_every_listed_page(themed, axe_source):
    """Every page the sidebar lists (app.py's one page list, so a page added there is audited too)."""
    scheme, pg = themed
    pg.goto(pg.base)
    pg.wait_for_selector(f"{LINK} >> nth=0", timeout=90_000)
    settle(pg)
    paths = pg.evaluate(f"() => [...document.querySelectorAll('{LINK}')].map(a => new URL(a.href).pathname)")
    assert "/" in paths and "/check" in paths and "/practice" in paths
    assert {f"/{f.slug}" for f in sc.FAMILIES.values()} | {f"/spec-{f.slug}" for f in sc.FAMILIES.values()} <= set(paths)
    failures = [problems(pg, axe_source, path, scheme) for path in paths]
    assert not any(failures), "\n".join(f for f in failures if f)


@pytest.mark.parametrize("view", STATES)
def test_page_state(themed, axe_source, view):
    scheme, pg = themed
    failure = problems(pg, axe_source, view, scheme)
    assert not failure, failure


def test_check_page_with_a_wrong_expected_output(themed, axe_source):
    """The check page's verdict, likely mistake and per-cell chains (what typing a wrong output adds)."""
    from tests.support.browser_pages import type_into

    scheme, pg = themed
    pg.goto(pg.base + "/check?op=ScatterND-16")
    settle(pg)
    for label, text in (("data", "[1, 2, 3, 4]"), ("indices", "[[0], [2], [0]]"), ("updates", "[10, 20, 30]"),
                        ("expected output", "[10, 2, 30, 4]")):  # 30 never reaches output[2]: it differs
        type_into(pg, label, text)
    pg.get_by_text("Likely mistake").first.wait_for(timeout=60_000)
    settle(pg)
    found = [v for v in audit(pg, axe_source) if v["impact"] in BLOCKING] + audit(pg, axe_source, STRUCTURE)
    assert not found, describe("/check with a wrong expected output", scheme, found)


@pytest.mark.parametrize("sample", ["index_put", "ov_mean"])
def test_model_page_with_a_captured_node(themed, axe_source, sample):
    """Your model after a capture: the captured node's heading, findings, player and take-away panel (ov_mean: the
    CPU plugin's difference said first, the static proof, a mean's cells in words)."""
    if sample == "ov_mean":
        require_or_skip("openvino")
    scheme, pg = themed
    pg.goto(pg.base + f"/model?sample={sample}")
    settle(pg)
    pg.get_by_role("button", name="Capture").click()
    pg.get_by_text("Findings on the real data").first.wait_for(timeout=120_000)
    settle(pg)
    found = [v for v in audit(pg, axe_source) if v["impact"] in BLOCKING] + audit(pg, axe_source, STRUCTURE)
    assert not found, describe(f"/model?sample={sample} with a captured node", scheme, found)
    if sample != "index_put":
        return
    cell = pg.get_by_role("textbox", name="Output cell: its coordinates")  # "Go to a cell", with a step picked
    cell.fill("1, 0")
    cell.press("Enter")
    pg.get_by_text("output[1, 0] is written by").first.wait_for(timeout=60_000)
    settle(pg)
    pg.get_by_role("button", name="Next write").click()
    settle(pg)
    found = [v for v in audit(pg, axe_source) if v["impact"] in BLOCKING] + audit(pg, axe_source, STRUCTURE)
    assert not found, describe("/model with a cell's writes listed", scheme, found)


def test_from_code_with_a_composition_on_tensors(themed, axe_source):
    """From your code on tensors for a call ONNX writes as a composition: the result, the links and the
    composition's two downloads (the ONNX model, its pytest) beside each other."""
    from urllib.parse import quote

    scheme, pg = themed
    pg.goto(pg.base + "/from-code?call=" + quote('x.scatter_reduce(1, idx, src, reduce="amax", include_self=False)'))
    settle(pg)
    pg.get_by_label("data's shape (optional)").fill("3, 4")
    pg.get_by_role("button", name="Fill with example values").click()
    pg.get_by_role("button", name="Download the ONNX model (4 nodes, .onnx)").wait_for(timeout=60_000)
    settle(pg)
    found = [v for v in audit(pg, axe_source) if v["impact"] in BLOCKING] + audit(pg, axe_source, STRUCTURE)
    assert not found, describe("/from-code with a composition on tensors", scheme, found)


@pytest.fixture(scope="module")
def live_class(server):
    """A class in the server's store: three students (one named with HTML), answers right, wrong and in progress."""
    from scatter_practice.classroom import open_store

    store = open_store(f"sqlite:///{server.data_dir}/classes.sqlite3")
    info = store.start(3, 3, 9, "Whole output")
    for i, name in enumerate(("<b>Ann</b>", "Bo", "Cy")):
        sid = store.join(info.code, name)
        for k in range(i + 1):
            ex = store.exercise(info.code, k)
            store.answer(info.code, sid, k, ex.answer if (i + k) % 2 else ex.data)
    return info


@pytest.mark.parametrize("view", ["teacher", "join"])
def test_class_pages(themed, axe_source, live_class, view):
    """The teacher's live view of a class with answers (its fragment refreshing), and a student's join form."""
    scheme, pg = themed
    path = live_class.teacher_path if view == "teacher" else live_class.student_path
    failure = problems(pg, axe_source, path, scheme)
    assert not failure, failure


def test_practice_after_a_wrong_check_and_the_reveal(themed, axe_source):
    """Practice's second try (the hint under a first wrong check, focus on it) and the reveal after the second
    (issue 33)."""
    scheme, pg = themed
    pg.goto(pg.base + "/practice?seed=15&level=1")
    settle(pg)
    pg.locator("input[aria-label^='Target cell']").fill("0, 0")
    pg.locator("input[aria-label='Value after the step']").fill("1000")
    pg.get_by_role("button", name="Check").click()
    pg.get_by_text("Try once more").first.wait_for(timeout=60_000)
    settle(pg)
    found = [v for v in audit(pg, axe_source) if v["impact"] in BLOCKING] + audit(pg, axe_source, STRUCTURE)
    assert not found, describe("/practice after a first wrong check", scheme, found)
    pg.get_by_role("button", name="Check").click()
    pg.get_by_role("button", name="Next step ▶").wait_for(timeout=60_000)
    settle(pg)
    found = [v for v in audit(pg, axe_source) if v["impact"] in BLOCKING] + audit(pg, axe_source, STRUCTURE)
    assert not found, describe("/practice after the reveal", scheme, found)
