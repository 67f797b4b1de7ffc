"""A class in real browsers: 3 students on 2 replicas behind HAProxy (scatter-explorer serve), the teacher's live
view, a replica stopped; and the teacher's view on its own (hostile names as text, keyboard, screenshots).

The replicas share the class store's SQLite file (SCATTER_EXPLORER_DATA, WAL), as scripts/serve-class.sh does.
"""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlparse

import pytest

import scatter_practice as sp
from scatter_practice.classroom import open_store
from tests.support.browser_support import SCREENSHOTS, real_errors, require_browser
from tests.support.deploy_support import Balancer

pytestmark = pytest.mark.browser

COOKIE = "scatter_replica"
LETTERS = "ABCDEFGH"


def _right_letter(ex) -> str:
    return LETTERS[next(i for i, c in enumerate(sp.choices(ex)) if c.correct)]


def _wrong_letter(ex) -> str:
    return LETTERS[next(i for i, c in enumerate(sp.choices(ex)) if not c.correct)]


def _student(browser, url: str, replica: str):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.add_cookies([{"name": COOKIE, "value": replica, "url": url}])  # this browser on that replica
    pg = ctx.new_page()
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(f"pageerror: {e}"))
    return ctx, pg


def _settled(pg, timeout: float = 120_000) -> None:
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)


def _join(pg, url: str, path: str, name: str) -> None:
    pg.goto(url + path)
    pg.get_by_role("textbox", name="Your name").fill(name, timeout=180_000)
    pg.get_by_role("button", name="Join the class").click()
    pg.get_by_text(re.compile(r"Your score: 0 of 3")).wait_for(timeout=120_000)
    _settled(pg)


def _pick(pg, letter: str) -> None:
    """Multiple choice: the letter, then Check; returns once the store has saved it (the page says so)."""
    pg.locator(".st-key-practice-pick").get_by_text(letter, exact=True).click()
    pg.get_by_role("button", name="Check", exact=True).click()
    pg.get_by_text(re.compile("Saved for the class")).wait_for(timeout=120_000)
    _settled(pg)


def _next(pg, k: int) -> None:
    pg.get_by_role("button", name="next ▶").click(timeout=120_000)
    pg.locator("h2").filter(has_text=f"exercise {k} of 3").wait_for(timeout=120_000)
    _settled(pg)


def _score(pg) -> str:
    text = pg.locator(".st-key-practice-class").inner_text()
    return text[text.index("Your score"):]


def test_a_class_of_three_on_two_replicas_live_view_and_resume_after_a_replica_stops(tmp_path, browser,
                                                                                      monkeypatch):
    require_browser()
    monkeypatch.setenv("SCATTER_EXPLORER_DATA", str(tmp_path / "data"))  # the replicas inherit it
    store = open_store()
    info = store.start(1, 3, 12, "Multiple choice")
    exercises = [store.exercise(info.code, k) for k in range(3)]
    bal = Balancer(tmp_path / "serve")
    contexts = []
    try:
        url = bal.url
        tctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        contexts.append(tctx)
        teacher = tctx.new_page()
        teacher.goto(url + info.teacher_path)
        teacher.get_by_text("No student has joined yet.").wait_for(timeout=180_000)
        # Ann and Cy on r1, Bo (a name made of HTML and Markdown) on r2
        names = {"Ann": "r1", "<b>Bo</b> **x**": "r2", "Cy": "r1"}
        pages = {}
        for name, replica in names.items():
            ctx, pg = _student(browser, url, replica)
            contexts.append(ctx)
            _join(pg, url, info.student_path, name)
            pages[name] = pg
        assert {n: next(c["value"] for c in pg.context.cookies(url) if c["name"] == COOKIE)
                for n, pg in pages.items()} == names
        _pick(pages["Ann"], _right_letter(exercises[0]))
        _pick(pages["<b>Bo</b> **x**"], _wrong_letter(exercises[0]))
        _pick(pages["Cy"], _right_letter(exercises[0]))
        _next(pages["Cy"], 2)
        _pick(pages["Cy"], _right_letter(exercises[1]))
        saved = time.monotonic()
        line1 = teacher.get_by_text(re.compile(r"^Exercise 1: 2 of 3 right"))
        line2 = teacher.get_by_text(re.compile(r"^Exercise 2: 1 of 1 right"))
        line1.wait_for(timeout=5_000)
        line2.wait_for(timeout=max(1, 5_000 - (time.monotonic() - saved) * 1000))
        assert time.monotonic() - saved <= 5.0
        assert teacher.get_by_text("3 students", exact=False).count() >= 1
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        teacher.screenshot(path=str(SCREENSHOTS / "class-teacher-live.png"), full_page=True)
        assert "1 of 3" in _score(pages["Ann"])
        assert "2 of 3" in _score(pages["Cy"]) and "0 of 3" in _score(pages["<b>Bo</b> **x**"])
        # r1 dies: its students' pages reconnect to r2, which finds them and their score in the database
        bal.kill_replica("r1")
        for name in ("Ann", "Cy"):
            pg = pages[name]
            deadline = time.monotonic() + 120
            while next((c["value"] for c in pg.context.cookies(url) if c["name"] == COOKIE), "r1") == "r1":
                assert time.monotonic() < deadline, f"{name}'s page never reconnected to r2"
                time.sleep(0.5)
            # the next click reaches r2: a new session there, with only the URL and the database to go on
            pg.get_by_role("button", name="next ▶").click(timeout=120_000)
        expected = {"Ann": "1 of 3", "<b>Bo</b> **x**": "0 of 3", "Cy": "2 of 3"}
        for name, pg in pages.items():
            if name == "<b>Bo</b> **x**":
                pg.reload()  # a new session on its replica: only the URL and the database
            pg.get_by_text(re.compile(r"Your score: \d+ of 3")).wait_for(timeout=180_000)
            _settled(pg)
            query = parse_qs(urlparse(pg.url).query)
            assert query["class"] == [info.code] and query["student"]
            banner = pg.locator(".st-key-practice-class").inner_text()
            assert f"you are {name}" in banner, banner  # the name as typed, as text
            assert expected[name] in _score(pg), (name, _score(pg))
            assert pg.get_by_role("textbox", name="Your name").count() == 0  # no second join
            assert [e for e in real_errors(pg.errors) if "pageerror" in e] == []
        # an answer after the failover is saved and counted too
        ann = pages["Ann"]
        query = {k: v[0] for k, v in parse_qs(urlparse(ann.url).query).items()}
        ann.goto(url + "/practice?" + "&".join(f"{k}={v}" for k, v in {**query, "i": "2"}.items()).replace(" ", "+"))
        ann.locator("h2").filter(has_text="exercise 2 of 3").wait_for(timeout=120_000)
        _settled(ann)
        _pick(ann, _right_letter(exercises[1]))
        assert "2 of 3" in _score(pages["Ann"])
        summary = store.summary(info.code, info.teacher_key)
        assert summary.students == ("Ann", "<b>Bo</b> **x**", "Cy")
        assert [(e.right, e.wrong) for e in summary.exercises] == [(2, 1), (2, 0), (0, 0)]
    finally:
        for ctx in contexts:
            ctx.close()
        bal.stop()


@pytest.fixture(scope="module")
def a_class(server):
    """A class in the module server's store, with three students (one named with HTML and Markdown)."""
    store = open_store(f"sqlite:///{server.data_dir}/classes.sqlite3")
    info = store.start(3, 4, 5, "Whole output")
    exercises = [store.exercise(info.code, k) for k in range(4)]
    for i, name in enumerate(("<img src=x onerror=alert(1)>", "**Dee** _x_ [y](http://e.com)", "Eve")):
        sid = store.join(info.code, name)
        for k in range(i + 1):
            wrong = sp.student_outputs(exercises[k])
            out = next(iter(wrong.values())) if (i + k) % 2 and wrong else exercises[k].answer
            store.answer(info.code, sid, k, out)
    return store, info


@pytest.mark.parametrize("width,height", [(1400, 1000), (1280, 720), (390, 844)])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_class_page_at_three_sizes_and_both_themes(server, browser, a_class, width, height, scheme):
    store, info = a_class
    ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    try:
        pg.goto(server.url + info.teacher_path)
        pg.get_by_text(re.compile(r"^Exercise 1: ")).wait_for(timeout=120_000)
        pg.wait_for_selector("[data-testid=stDataFrame] canvas", timeout=60_000)
        _settled(pg)
        assert pg.locator("img[src=x]").count() == 0  # a name is never HTML
        assert pg.get_by_text(info.code, exact=True).is_visible()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SCREENSHOTS / f"class-{width}x{height}-{scheme}.png"), full_page=True)
        assert real_errors(errors) == []
    finally:
        ctx.close()


def test_the_class_page_names_shown_as_text_projector_mode_csv_and_keyboard(server, browser, a_class):
    store, info = a_class
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    pg = ctx.new_page()
    try:
        pg.goto(server.url + info.teacher_path)
        pg.get_by_text(re.compile(r"^Exercise 1: ")).wait_for(timeout=120_000)
        _settled(pg)
        # the grid's accessible table (Glide draws on a canvas and keeps the cells' text in a table for readers)
        pg.wait_for_selector("[data-testid=stDataFrame] table", state="attached", timeout=60_000)
        text = pg.locator("[data-testid=stDataFrame] table").text_content()
        assert "<img src=x onerror=alert(1)>" in text and "**Dee** _x_ [y](http://e.com)" in text, text[:500]
        # every control is reached with Tab
        wanted = {"Projector mode: hide names", "⬇ Every answer (CSV)", "End the class", "Delete the class's data"}
        reached = set()
        pg.evaluate("() => document.activeElement && document.activeElement.blur()")  # Tab from the top
        for _ in range(80):
            pg.keyboard.press("Tab")
            label = pg.evaluate("""() => { const e = document.activeElement; if (!e) return '';
                const l = e.closest('label'); return (e.getAttribute('aria-label') || e.innerText ||
                (l && l.innerText) || '').trim(); }""")
            reached |= {w for w in wanted if w in label}
            if reached == wanted:
                break
        assert reached == wanted, reached
        # the CSV: every answer, one row each
        with pg.expect_download() as dl:
            pg.get_by_role("button", name="⬇ Every answer (CSV)").click()
        rows = open(dl.value.path(), encoding="utf-8").read().splitlines()
        assert len(rows) == 1 + 6 and rows[0].startswith("time_utc,student,exercise")
        # projector mode: names gone, numbers instead
        pg.get_by_text("Projector mode: hide names").click()
        pg.wait_for_function("() => [...document.querySelectorAll('[data-testid=stDataFrame] table')].some("
                             "t => t.textContent.includes('Student 1'))", timeout=30_000)
        assert "Eve" not in pg.locator("[data-testid=stDataFrame] table").text_content()
    finally:
        ctx.close()
