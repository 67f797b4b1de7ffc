"""AppTest: the Practice page: step by step, whole output, multiple choice, shared sets and the worksheet download."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1 import app_test as app_test_module

import scatter_core as sc
import scatter_practice as sp
from scatter_ui.parts import grids
from scatter_ui.pages.practice import LETTERS, grid_text, md
from tests.support.apptest_helpers import figures
from tests.support.apptest_practice import button, open_practice, predict, text_input, type_output

pytestmark = pytest.mark.slow  # AppTest runs of the whole Practice page: the full suite runs them, the fast loop does not


def option_grids(at: AppTest) -> list[dict]:
    """What each multiple-choice grids element on the page was sent (scatter_ui.parts.grids)."""
    return [json.loads(el.proto.json) for el in at.get("bidi_component") if el.proto.component_name == grids.NAME]


def all_text(at: AppTest) -> str:
    parts = [e.value for kind in ("markdown", "caption", "info", "warning", "error", "success", "text", "header",
                                  "code") for e in getattr(at, kind)]
    return "\n".join(str(p) for p in parts)


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


@pytest.mark.slow
def test_step_mode_right_then_wrong_with_the_misconception_named():
    seed, level = 1, 3
    ex = sp.make_exercise(seed, level)
    t = ex.trace
    at = open_practice(seed=seed, level=level)
    assert at.header[0].value == f"Level {level} · exercise {seed} · {ex.op}"
    assert sp.step_question(ex, 0) in [x.value for x in at.text]
    (fig,) = figures(at)  # the explorer's player, its output heatmap to click
    assert [f["name"] for f in fig["frames"]] == ["0"] and fig["n"] == 0  # nothing to play ahead into
    assert fig["captions"] == {"0": "initial state: output is a copy of data"}
    cell = tuple(int(v) for v in t.target_cells(0)[0])
    predict(at, cell, t.after[0][0])
    assert at.success[0].value == "Right: target and value."
    (fig,) = figures(at)  # the step revealed on the player, with its caption; it ends at that step
    assert fig["captions"]["1"] == t.describe(0) and fig["n"] == 1 and fig["active"] == 1
    button(at, "Next step ▶").click().run()
    # step 2: the replaced value instead of the combined one
    k = next(i for i in range(1, ex.steps) if t.values[i][0] != t.after[i][0])
    for _ in range(1, k):
        cell = tuple(int(v) for v in t.target_cells(_)[0])
        predict(at, cell, t.after[_][0])
        button(at, "Next step ▶").click().run()
    assert sp.step_question(ex, k) in [x.value for x in at.text]
    predict(at, tuple(int(v) for v in t.target_cells(k)[0]), t.values[k][0])
    # the first wrong check: one more try, with a hint that names the misconception but not the answer
    assert at.error[0].value == "Not quite: the value. Try once more; the answer is shown after a second wrong check."
    assert not at.warning and "replaced instead of combined" in unescape(at.info[-1].value)
    assert str(t.after[k][0]) not in unescape(at.info[-1].value).split("It looks like")[0].replace(
        f"holds {t.before[k][0]}", "")
    assert text_input(at, "Value after the step").value == str(t.values[k][0])  # kept, to change
    predict(at, tuple(int(v) for v in t.target_cells(k)[0]), t.values[k][0])
    assert at.error[0].value == "Not quite: the value."
    (warning,) = at.warning
    assert "Replaced instead of combined" in unescape(warning.value) and "(reduction)" in unescape(warning.value)
    assert "see it in the explorer" in warning.value
    # progress: two checks right... then one wrong; the misconception is listed with its explorer link
    body = all_text(at)
    assert "Streak: 0 right in a row" in body and f"Level {level}: {k} of {k + 1} right" in body
    assert any("Replaced instead of combined" in unescape(m.value) and "/elements?" in m.value
               for m in at.markdown)


@pytest.mark.slow
def test_step_mode_keeping_the_earlier_write_at_the_last_write_is_allowed():
    for seed in range(60):
        ex = sp.make_exercise(seed, 5)
        t = ex.trace
        if ex.order_question and t.slice_size == 1:
            last = [k for k in range(ex.steps) if not t.first_write[k][0] and t.before[k][0] != t.after[k][0]]
            cells = [tuple(int(v) for v in t.target_cells(k)[0]) for k in range(ex.steps)]
            last = [k for k in last if cells[k] not in cells[k + 1:]]
            if last:
                break
    k = last[0]
    at = open_practice(seed=seed, level=5)
    for i in range(k):
        predict(at, cells[i], t.after[i][0])
        button(at, "Next step ▶").click().run()
    predict(at, cells[k], t.before[k][0])
    assert not at.error and not at.warning
    assert any("Allowed by the spec" in unescape(i.value) for i in at.info)
    assert any("so your answer is allowed" in x.value for x in at.text)
    assert f"Level 5: {k + 1} of {k + 1} right" in all_text(at)


@pytest.mark.slow
def test_the_practice_player_gives_nothing_away_and_has_no_dead_controls():
    seed, level = 1, 3  # add reductions: the output ends at 24 while data and updates stay <= 4
    ex = sp.make_exercise(seed, level)
    t = ex.trace
    shown = max(float(ex.data.max()), float(ex.updates.max()))
    assert float(ex.answer.max()) > shown
    at = open_practice(seed=seed, level=level)
    (fig,) = figures(at)
    bar = fig["layout"]["coloraxis"]
    assert bar["cmax"] == shown and bar["cmin"] == min(float(ex.data.min()), float(ex.updates.min()))
    assert fig["controls"] == []  # step 0: nothing to step, play, go to or speed up: a still picture
    predict(at, tuple(int(v) for v in t.target_cells(0)[0]), t.after[0][0])
    (fig,) = figures(at)  # the revealed step: the steps done can be replayed
    assert fig["layout"]["coloraxis"]["cmax"] == max(shown, float(t.after[0].max()))
    assert {"prev", "next", "count"} <= set(fig["controls"]) and not {"goto", "speed"} & set(fig["controls"])
    for mode in ("Whole output", "Multiple choice"):  # the inputs alone: the range of data and updates
        (fig,) = figures(open_practice(seed=seed, level=level, mode=mode))
        assert fig["layout"]["coloraxis"]["cmax"] == shown and fig["controls"] == []


def test_step_mode_bad_target_keeps_the_input_and_says_why():
    at = open_practice(seed=15, level=1)
    predict(at, ("x",), 5)
    (err,) = at.error
    assert "target" in unescape(err.value) and "type 2 whole numbers" in unescape(err.value)
    assert text_input(at, "Target cell").value == "x"


def test_whole_output_mode_right_and_wrong():
    seed, level = 2, 3
    ex = sp.make_exercise(seed, level)
    at = open_practice(seed=seed, level=level, mode="Whole output")
    assert ex.prompt in [x.value for x in at.text]
    type_output(at, grid_text(ex.answer))
    assert at.success and "Right!" in at.success[0].value
    wrong = sp.student_outputs(ex)["reduction"]
    type_output(at, grid_text(wrong))
    (err,) = at.error
    n = int((wrong != ex.answer).sum())
    assert f"{n} of {ex.answer.size} cells are wrong" in err.value
    assert any("Replaced instead of combined" in unescape(w.value) for w in at.warning)
    chains = [x.value for x in at.text if "you wrote" in x.value]
    assert len(chains) == n and all("starts at" in c or "keeps data" in c for c in chains)
    assert len(figures(at)) == 1  # the inputs on the player
    assert len(at.get("plotly_chart")) == 1  # your output beside the spec's, wrong cells outlined
    button(at, "Next exercise ▶").click().run()
    assert at.header[0].value.startswith(f"Level {level} · exercise ")
    assert at.header[0].value != f"Level {level} · exercise {seed} · {ex.op}" and not at.error


def test_another_winner_where_writes_compete_is_right_by_the_spec():
    """Issue 22: keeping another write in a duplicated cell (reduction none) is allowed; the page says so, and why
    the loop order gives another value, and counts it as right."""
    seed = next(s for s in range(60) if sp.make_exercise(s, 5).order_question)
    ex = sp.make_exercise(seed, 5)
    first_wins = ex.trace.output_in_order("reversed")
    at = open_practice(seed=seed, level=5, mode="Whole output")
    type_output(at, grid_text(first_wins))
    assert not at.error and not at.success and not at.warning
    (verdict,) = [i for i in at.info if "Right by the spec" in i.value]
    text = unescape(verdict.value)
    assert verdict.proto.icon == ":material/alt_route:" and "Right by the spec, not the loop order's answer." in text
    assert "the last write stays" in text
    allowed = [x.value for x in at.text if x.value.startswith("≈ allowed: ")]
    assert len(allowed) == int((first_wins != ex.answer).sum()) and all("keeps the last one" in a for a in allowed)
    at.run()  # the progress panel sits above the answer: it shows the count on the next run
    assert "Level 5: 1 of 1 right" in all_text(at) and "Streak: 1 right in a row" in all_text(at)


@pytest.mark.slow
def test_feedback_names_what_the_exercise_fixed_and_one_misconception():
    seed, level = 0, 3  # ScatterND-18 with reduction min: the replaced output is also ScatterND-16's
    ex = sp.make_exercise(seed, level)
    at = open_practice(seed=seed, level=level, mode="Whole output")
    replaced = sp.student_outputs(ex)["reduction"]
    type_output(at, grid_text(replaced))
    # the first wrong check: a hint naming it, one more try, the spec's result not shown
    assert not at.warning and at.error[0].value.startswith("Not quite") and "Try once more" in at.error[0].value
    assert "replaced instead of combined" in unescape(at.info[-1].value) and not at.get("plotly_chart")
    type_output(at, grid_text(replaced))  # the same output again does not use up the second try
    assert not at.warning and "Try once more" in at.error[0].value
    slip = replaced.copy()
    slip.reshape(-1)[0] += 100
    type_output(at, grid_text(slip))  # a second, other wrong output: the answer is shown, and what it names
    type_output(at, grid_text(replaced))  # after the reveal: graded, recorded as such, no score
    assert any("scores nothing" in i.value for i in at.info)
    (warning,) = at.warning  # "Another version's rules" is not named beside it
    said = unescape(warning.value)
    assert "Replaced instead of combined" in said and "Another version" not in said
    assert "you chose" not in said and f"this exercise uses reduction={ex.attrs['reduction']!r}" in said
    assert "Another version" not in all_text(at).replace("\\", "")  # nor in a cell's "(matches: ...)"


def test_whole_output_refuses_a_wrong_shape_and_keeps_the_text():
    ex = sp.make_exercise(2, 3)
    at = open_practice(seed=2, level=3, mode="Whole output")
    type_output(at, "[1, 2]")
    (err,) = at.error
    assert "shape" in unescape(err.value) and str(ex.answer.shape) in unescape(err.value)
    assert next(t for t in at.text_area if t.label.startswith("Output")).value == "[1, 2]"


def test_rank3_output_is_typed_as_text():
    seed = next(s for s in range(20) if sp.make_exercise(s, 5).data.ndim == 3)
    at = open_practice(seed=seed, level=5, mode="Whole output")
    assert not [r for r in at.radio if r.label == "Enter the output as"]
    assert [t for t in at.text_area if t.label.startswith("Output")]


# -- multiple choice ------------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_multiple_choice_right_and_wrong():
    seed, level = 3, 3
    ex = sp.make_exercise(seed, level)
    options = sp.choices(ex)
    at = open_practice(seed=seed, level=level, mode="Multiple choice")
    (shown,) = option_grids(at)
    assert shown == grids.options_data([(LETTERS[i], c.output) for i, c in enumerate(options)])  # in letter order
    assert [o["letter"] for o in shown["options"]] == list(LETTERS[:len(options)])
    pick = next(r for r in at.radio if r.label == "Which output is right?")
    right = LETTERS[next(i for i, c in enumerate(options) if c.correct)]
    pick.set_value(right).run()
    button(at, "Check").click().run()
    assert at.success[0].value == f"Right: {right} is the spec's result."
    i, wrong = next((i, c) for i, c in enumerate(options) if not c.correct and c.kind in sp.BY_KIND)
    next(r for r in at.radio if r.label == "Which output is right?").set_value(LETTERS[i]).run()
    button(at, "Check").click().run()
    assert at.error[0].value == f"{LETTERS[i]} is not it; the right output is {right}."
    assert any(sp.BY_KIND[wrong.kind].title in unescape(w.value) for w in at.warning)

def test_rank3_options_are_rows_of_labelled_slices_with_a_text_form():
    """A rank-3 option is drawn as its 2-D slices side by side, each labelled by its leading index; the text a
    screen reader reads names every slice and every value, row by row (each number through fmt_value)."""
    seed = next(s for s in range(40) if sp.make_exercise(s, 5).answer.ndim == 3)
    ex = sp.make_exercise(seed, 5)
    at = open_practice(seed=seed, level=5, mode="Multiple choice")
    (shown,) = option_grids(at)
    options = sp.choices(ex)
    assert not {c.value for c in at.code} & {grid_text(c.output) for c in options}  # no tall text grids
    for i, (c, opt) in enumerate(zip(options, shown["options"])):
        assert opt["name"] == f"Option {LETTERS[i]}"
        assert [s_["label"] for s_ in opt["slices"]] == [f"[{j}]" for j in range(ex.answer.shape[0])]
        assert [s_["rows"] for s_ in opt["slices"]] == [[[str(int(v)) for v in row] for row in c.output[j]]
                                                         for j in range(ex.answer.shape[0])]
        first = "; ".join(", ".join(str(int(v)) for v in row) for row in c.output[0])
        assert opt["text"].startswith(f"Option {LETTERS[i]}: slice [0]: rows {first}.")


def test_option_grids_measure_what_they_draw():
    """options_height: the options wrap into lines on the width given, each line as tall as the tallest option."""
    small, big = np.zeros((2, 2, 2)), np.zeros((4, 2, 3))
    assert grids.option_width(big) > 2 * grids.option_width(small)
    one_line = grids.options_height([small] * 4, 900)
    assert one_line == grids.option_height(small)
    assert grids.options_height([big] * 4, 900) == 2 * grids.option_height(big) + grids.OPTION_GAP_PX
    assert grids.options_height([small] * 4, grids.option_width(small)) == 4 * one_line + 3 * grids.OPTION_GAP_PX
    assert grids.option_height(np.zeros(5)) < grids.option_height(np.zeros((2, 5)))


# -- shared sets and the worksheet -------------------------------------------------------------------------------------
class _Recording(app_test_module.MemoryMediaFileStorage):
    files: dict = {}

    def load_and_get_id(self, path_or_data, mimetype, kind, filename=None):
        file_id = super().load_and_get_id(path_or_data, mimetype, kind, filename)
        _Recording.files[file_id] = path_or_data
        return file_id


class _Count(HTMLParser):
    def __init__(self):
        super().__init__()
        self.classes: dict[str, int] = {}

    def handle_starttag(self, tag, attrs):
        for c in (dict(attrs).get("class") or "").split():
            self.classes[c] = self.classes.get(c, 0) + 1


def _downloads(at: AppTest) -> dict:
    return {d.proto.label: d.proto for d in at.get("download_button")}


def _file(proto) -> str:
    data = _Recording.files[proto.url.rsplit("/", 1)[-1].split(".")[0]]
    return data.decode() if isinstance(data, bytes) else data


SHEETS = ("⬇ Student sheet (HTML)", "⬇ Student sheet (PDF)", "⬇ Answer key (HTML)", "⬇ Answer key (PDF)")


def test_set_link_gives_the_same_exercises_and_the_worksheets(monkeypatch):
    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", _Recording)
    monkeypatch.delenv(sp.PUBLIC_URL_ENV, raising=False)
    _Recording.files.clear()
    exercises = sp.exercise_set(7, 3, 4)
    at = open_practice(set=7, level=3, n=4, mode="Whole output")
    assert at.header[0].value == f"Level 3 · set 7, exercise 1 of 4 · {exercises[0].op}"
    assert exercises[0].prompt in [x.value for x in at.text]
    button(at, "next ▶").click().run()
    assert at.header[0].value == f"Level 3 · set 7, exercise 2 of 4 · {exercises[1].op}"
    assert exercises[1].prompt in [x.value for x in at.text]
    assert any("set=7&level=3&n=4" in c.value for c in at.code)  # the link to share
    downloads = _downloads(at)
    assert set(SHEETS) <= set(downloads)  # two documents, each as HTML and PDF
    assert downloads["⬇ Student sheet (PDF)"].deferred_file_id or not downloads["⬇ Student sheet (PDF)"].url
    sheet, key = _file(downloads["⬇ Student sheet (HTML)"]), _file(downloads["⬇ Answer key (HTML)"])
    parsed_sheet, parsed_key = _Count(), _Count()
    parsed_sheet.feed(sheet)
    parsed_key.feed(key)
    assert parsed_sheet.classes.get("exercise") == 4 and "answer" not in parsed_sheet.classes
    assert parsed_key.classes.get("answer") == 4 and "exercise" not in parsed_key.classes
    assert "Name:" in sheet and "Date:" in sheet
    for ex in exercises:
        assert ex.trace.describe(ex.steps - 1).replace("'", "&#x27;") in key
    # no public address: no link, no QR code, and where to set one
    assert "<svg" not in sheet and "Online:" not in sheet and "127.0.0.1" not in sheet
    assert sp.PUBLIC_URL_ENV in sheet and "Public address of this app" in sheet
    # the same set in another session: the same exercises
    again = open_practice(set=7, level=3, n=4)
    assert again.header[0].value == f"Level 3 · set 7, exercise 1 of 4 · {exercises[0].op}"


def _sheet_after(at: AppTest) -> str:
    return _file(_downloads(at)["⬇ Student sheet (HTML)"])


def test_a_public_address_from_the_environment_puts_the_link_and_qr_on_the_sheet(monkeypatch):
    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", _Recording)
    monkeypatch.setenv(sp.PUBLIC_URL_ENV, "https://scatter.example.edu/")
    at = open_practice(set=7, level=3, n=4)
    link = "https://scatter.example.edu/practice?set=7&level=3&n=4"
    assert link in [c.value for c in at.code]
    assert any(sp.PUBLIC_URL_ENV in unescape(c.value) for c in at.caption)  # says where the address came from
    sheet = _sheet_after(at)
    assert f'href="{link.replace("&", "&amp;")}"' in sheet and "<svg" in sheet
    # the field on the page comes first
    text_input(at, "Public address of this app").set_value("http://10.0.0.5:8501").run()
    sheet = _sheet_after(at)
    assert "http://10.0.0.5:8501/practice?set=7" in sheet and "scatter.example.edu" not in sheet
    # a loopback address is refused with a message, and the sheet has no link
    text_input(at, "Public address of this app").set_value("http://127.0.0.1:8501").run()
    said = [unescape(e.value) for e in at.error]
    assert any("names this machine" in e and "the field on this page" in e for e in said)
    assert "Online:" not in _sheet_after(at)
    assert text_input(at, "Public address of this app").value == "http://127.0.0.1:8501"  # what was typed stays


@pytest.mark.slow
def test_a_public_address_from_streamlits_config(monkeypatch):
    from streamlit import config

    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", _Recording)
    monkeypatch.delenv(sp.PUBLIC_URL_ENV, raising=False)
    saved = {name: config.get_option(name) for name in ("browser.serverAddress", "browser.serverPort")}
    try:
        config.set_option("browser.serverAddress", "scatter.school.example")  # as [browser] in config.toml sets it
        config.set_option("browser.serverPort", 443)
        at = open_practice(set=2, level=1, n=3)
        assert "https://scatter.school.example/practice?set=2&amp;level=1&amp;n=3" in _sheet_after(at)
        config.set_option("browser.serverPort", 8501)
        at = open_practice(set=2, level=1, n=3)
        assert "http://scatter.school.example:8501/practice?set=2" in _sheet_after(at)
        monkeypatch.setenv(sp.PUBLIC_URL_ENV, "javascript:alert(1)")  # the environment comes before the config
        at = open_practice(set=2, level=1, n=3)
        assert any("http:// or https://" in unescape(e.value) and sp.PUBLIC_URL_ENV in unescape(e.value)
                   for e in at.error)
        assert "Online:" not in _sheet_after(at) and "javascript" not in _sheet_after(at)
    finally:
        for name, value in saved.items():
            config.set_option(name, value)


def test_bad_url_values_fall_back_quietly():
    at = open_practice(set="x", level=9, n=-3, seed="abc")
    assert at.header and at.header[0].value.startswith("Level 1 · exercise ")


def test_new_exercise_and_level_choice():
    at = open_practice(seed=4, level=2)
    at.selectbox(key="practice:level").set_value(4).run()
    assert at.header[0].value.startswith("Level 4 · exercise 4 · ")
    ops = at.selectbox(key="practice:op").options
    assert "ScatterNDUpdate-3" in ops and "ScatterElements-11" not in ops  # only versions with a level-4 exercise
    button(at, "New exercise").click().run()
    assert at.header[0].value.startswith("Level 4 · exercise ")


def test_md_escapes_markdown():
    from tests.support.apptest_helpers import shown

    for text in ("2 * 3 * 4 = 24, _x_ [a](b) `c` # d: e", "1*10*50 = 500", "# not a heading", "- not a list"):
        assert shown(md(text)) == text  # shown exactly as written: no emphasis, link, code or heading


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["Step by step", "Whole output", "Multiple choice"])
def test_hints_grow_stronger(mode):
    ex = sp.make_exercise(6, 3)
    at = open_practice(seed=6, level=3, mode=mode)
    if mode == "Multiple choice":
        assert not [b for b in at.button if b.label.startswith("Hint")]
        return
    hints = sp.step_hints(ex, 0) if mode == "Step by step" else sp.output_hints(ex)
    for i, label in enumerate(["Hint: which cells?", "Stronger hint: which values compete?", "Show the answer"]):
        button(at, label).click().run()
        shown = [unescape(x.value) for x in at.info]
        assert shown == list(hints[:i + 1])
    assert not [b for b in at.button if b.label == "Show the answer"]


def test_chosen_output_position_is_outlined_on_the_player():
    at = open_practice(seed=15, level=1)
    text_input(at, "Target cell").set_value("1, 2")
    text_input(at, "Value after the step").set_value("abc")
    button(at, "Check").click().run()
    assert "not a number" in unescape(at.error[0].value)
    (fig,) = figures(at)
    assert [f["name"] for f in fig["frames"]] == ["0"] and fig["n"] == 0  # no playing ahead
    for shapes in (fig["layout"]["shapes"], fig["frames"][0]["layout"]["shapes"]):
        assert any(s.get("line", {}).get("dash") == "dot" and s["x0"] == 1.5 and s["y0"] == 0.5 for s in shapes)


def test_every_output_cell_can_be_clicked_in_every_frame():
    """The player reports a click by parsing the output cell's hover text 'output[i, j]...'."""
    from scatter_ui.pages.practice import step_figure

    cases = [(seed, level, None) for level in (1, 4, 5) for seed in range(25)]
    cases += [(seed, level, op) for op in ("TensorScatter-24", "SliceScatter-15") for level in sp.levels_for(op)
              for seed in range(8)]
    for seed, level, op in cases:
        ex = sp.make_exercise(seed, level, op)
        for frame in range(ex.steps):
            fig, _ = step_figure(ex, frame)
            hover = [c for row in fig["data"][2]["customdata"] for c in row if c]
            coords = {tuple(int(v) for v in re.match(r"output\[([^\]]*)\]", c).group(1).split(", "))
                      for c in hover}
            assert coords == {tuple(int(v) for v in p) for p in np.ndindex(*ex.answer.shape)}, (seed, level, op)


def test_the_url_follows_the_exercise_on_screen():
    at = open_practice(seed=4, level=2)
    assert dict(at.query_params) == {"seed": "4", "level": "2", "mode": "Step by step"}
    at.selectbox(key="practice:level").set_value(3).run()
    assert at.query_params["level"] == "3" and at.header[0].value.startswith("Level 3 · exercise 4 ")
    at.radio(key="practice:mode").set_value("Multiple choice").run()
    assert dict(at.query_params) == {"seed": "4", "level": "3", "mode": "Multiple choice"}
    assert at.header[0].value.startswith("Level 3 · exercise 4 ")  # writing the URL did not re-seed the page


def test_each_misconception_links_to_an_explorer_example_showing_it():
    from urllib.parse import parse_qs, urlparse

    import spec_examples
    from scatter_core import OPERATORS
    from scatter_ui.pages.practice import explorer_link

    paths = {"nd": "/nd", "elements": "/elements", "update": "/update", "cache": "/tensor_scatter",
             "slice": "/slice_scatter"}
    for m in sp.MISCONCEPTIONS:
        url = urlparse(explorer_link(m.kind))
        q = parse_qs(url.query)
        ex = spec_examples.by_id(q["example"][0])
        assert q["op"] == [ex.op] and url.path.endswith(paths[OPERATORS[ex.op].family])


# -- the newest operators: TensorScatter-24 (KV cache) and SliceScatter-15 (strided slice) -------------------------
NEW_CASES = [("TensorScatter-24", 4, "one-write-index", "/tensor_scatter"),
             ("SliceScatter-15", 4, "negative-step-forward", "/slice_scatter")]


def _moved_step(ex, kind):
    """The first step whose target the misconception moves, and the cell it would write there."""
    m = sp.BY_KIND[kind]
    for k in range(ex.steps):
        right = [tuple(int(v) for v in c) for c in ex.trace.target_cells(k)]
        wrong = [c for c in m.step_cells(ex, k) if c not in right]
        if wrong:
            return k, wrong[0]
    raise AssertionError(f"{kind} moves no step of {ex.op} seed {ex.seed}")


@pytest.mark.parametrize("op, level, kind, path", NEW_CASES)
def test_new_operator_step_mode_right_then_a_named_misconception(op, level, kind, path):
    seed = next(s for s in range(30) if kind in sp.student_outputs(sp.make_exercise(s, level, op)))
    ex = sp.make_exercise(seed, level, op)
    t = ex.trace
    k, wrong = _moved_step(ex, kind)
    at = open_practice(seed=seed, level=level, op=op)
    assert at.header[0].value == f"Level {level} · exercise {seed} · {op}"
    assert ex.topic[:1].upper() + ex.topic[1:] in unescape(at.caption[1].value)  # what the exercise practises
    for i in range(k):  # the steps before it, right
        predict(at, tuple(int(v) for v in t.target_cells(i)[0]), t.after[i][0])
        assert at.success[0].value == "Right: target and value."
        assert figures(at)[0]["captions"][str(i + 1)] == t.describe(i)  # revealed on the player
        button(at, "Next step ▶").click().run()
    assert sp.step_question(ex, k) in [x.value for x in at.text]
    predict(at, wrong, t.after[k][0])
    assert at.error[0].value.startswith("Not quite: the target cell. Try once more")
    assert sp.BY_KIND[kind].title.lower() in unescape(at.info[-1].value)  # the hint names it
    predict(at, wrong, t.after[k][0])
    assert at.error[0].value == "Not quite: the target cell."
    (warning,) = at.warning
    assert sp.BY_KIND[kind].title in unescape(warning.value) and f"({kind})" in unescape(warning.value)
    assert f"{path}?" in warning.value  # the explorer example that shows it, on the family's own page
    assert any(sp.BY_KIND[kind].title in unescape(m.value) and f"{path}?" in m.value for m in at.markdown)
    assert f"Level {level}: {k} of {k + 1} right" in all_text(at)


@pytest.mark.slow
@pytest.mark.parametrize("op, level, kind, path", NEW_CASES)
def test_new_operator_whole_output_right_and_wrong(op, level, kind, path):
    seed = next(s for s in range(30) if kind in sp.student_outputs(sp.make_exercise(s, level, op)))
    ex = sp.make_exercise(seed, level, op)
    at = open_practice(seed=seed, level=level, op=op, mode="Whole output")
    assert ex.prompt in [x.value for x in at.text]
    type_output(at, grid_text(ex.answer))
    assert at.success and "Right!" in at.success[0].value
    wrong = sp.student_outputs(ex)[kind]
    type_output(at, grid_text(wrong))
    n = int((wrong != ex.answer).sum())
    assert f"{n} of {ex.answer.size} cells are wrong" in at.error[0].value
    assert [w for w in at.warning if sp.BY_KIND[kind].title in unescape(w.value) and f"{path}?" in w.value]
    assert len([x for x in at.text if "you wrote" in x.value]) == n


@pytest.mark.slow
@pytest.mark.parametrize("op, level, kind, path", NEW_CASES)
def test_new_operator_multiple_choice_offers_its_own_misconception(op, level, kind, path):
    seed = next(s for s in range(30) if kind in [c.kind for c in sp.choices(sp.make_exercise(s, level, op))])
    ex = sp.make_exercise(seed, level, op)
    options = sp.choices(ex)
    at = open_practice(seed=seed, level=level, op=op, mode="Multiple choice")
    i = next(i for i, c in enumerate(options) if c.kind == kind)
    next(r for r in at.radio if r.label == "Which output is right?").set_value(LETTERS[i]).run()
    button(at, "Check").click().run()
    right = LETTERS[next(j for j, c in enumerate(options) if c.correct)]
    # the first wrong pick: one more, with a hint naming the misconception; the right letter is not said
    assert at.error[0].value == (f"{LETTERS[i]} is not it. Pick once more; the right output is shown after a "
                                 f"second wrong pick.")
    assert sp.BY_KIND[kind].title.lower() in unescape(at.info[-1].value) and f" {right} " not in at.info[-1].value
    j = next(j for j, c in enumerate(options) if not c.correct and j != i)
    next(r for r in at.radio if r.label == "Which output is right?").set_value(LETTERS[j]).run()
    button(at, "Check").click().run()
    assert at.error[0].value == f"{LETTERS[j]} is not it; the right output is {right}."
    next(r for r in at.radio if r.label == "Which output is right?").set_value(right).run()
    button(at, "Check").click().run()  # the right one, picked once it was shown: no score
    assert any("scores nothing" in x.value for x in at.info) and not at.success
    assert f"Level {level}: 0 of 1 right" in all_text(at)


@pytest.mark.slow
def test_new_operators_are_offered_and_a_left_out_input_is_said():
    at = open_practice(seed=0, level=1)
    ops = at.selectbox(key="practice:op").options
    assert "TensorScatter-24" in ops and "SliceScatter-15" in ops
    at.selectbox(key="practice:level").set_value(3).run()
    assert "TensorScatter-24" not in at.selectbox(key="practice:op").options  # no reduction: no level 3
    seed = next(s for s in range(60) if sp.make_exercise(s, 2, "TensorScatter-24").indices is None)
    at = open_practice(seed=seed, level=2, op="TensorScatter-24")
    question = sp.step_question(sp.make_exercise(seed, 2, "TensorScatter-24"), 0)
    assert question in [x.value for x in at.text] and "left out" in question


def test_long_typed_value_and_target_are_kept_and_the_limit_named():
    """A box with max_chars drops a longer paste (the browser does; AppTest's input() does the same) and keeps
    its old text: Check then said "value '' is not a number". The boxes take any length; Check names the limit."""
    from scatter_ui.pages.practice import MAX_TARGET_TEXT, MAX_VALUE_TEXT

    at = open_practice(seed=15, level=1)
    long_value = "1" * (MAX_VALUE_TEXT + 1)
    text_input(at, "Target cell").input("0, 0")
    text_input(at, "Value after the step").input(long_value)
    button(at, "Check").click().run()
    (err,) = at.error
    assert f"{MAX_VALUE_TEXT + 1:,} characters typed; the limit is {MAX_VALUE_TEXT:,}" in unescape(err.value)
    assert "value" in unescape(err.value) and "not a number" not in err.value
    assert text_input(at, "Value after the step").value == long_value
    long_target = "0, " * MAX_TARGET_TEXT
    text_input(at, "Target cell").input(long_target)
    text_input(at, "Value after the step").input("3")
    button(at, "Check").click().run()
    (err,) = at.error
    assert f"the limit is {MAX_TARGET_TEXT:,}" in unescape(err.value) and "target" in unescape(err.value)
    assert text_input(at, "Target cell").value == long_target


def test_long_whole_output_paste_is_kept_and_the_limit_named():
    from scatter_ui.pages.practice import MAX_TEXT

    at = open_practice(seed=2, level=3, mode="Whole output")
    entry = at.radio(key=next(r.key for r in at.radio if r.label == "Enter the output as"))
    entry.set_value("text").run()
    box = next(t for t in at.text_area if t.label.startswith("Output"))
    pasted = "[" + ", ".join(["1"] * (MAX_TEXT // 3 + 1)) + "]"
    assert len(pasted) > MAX_TEXT
    box.input(pasted)
    button(at, "Check my output").click().run()
    assert not at.exception, at.exception
    (err,) = at.error  # named once, under the box
    assert f"{len(pasted):,} characters pasted; the limit is {MAX_TEXT:,}" in unescape(err.value)
    assert next(t for t in at.text_area if t.label.startswith("Output")).value == pasted
    assert not at.success


def test_the_room_kept_under_the_player_on_a_projector_is_the_answer_s_height():
    """Practice tells the player how tall the answer under it is (a projector keeps it on screen): the whole output's
    grid grows by a row's height per row of the output; a rank-3 output's text box (two lines, no "Enter the output
    as" line) is shorter than the 1-D output's text box; multiple choice keeps the options' lines (grids)."""
    import scatter_practice as sp
    from scatter_ui.pages import practice as page

    four, one = sp.make_exercise(0, 1), sp.make_exercise(1, 3)  # a 4×5 output; a 1-D output (one grid row)
    assert four.answer.shape[0] == 4 and one.answer.ndim == 1
    assert (page.answer_px(four, "Whole output", "a") - page.answer_px(one, "Whole output", "b")
            == 3 * page.ROW_PX)
    cube = next(ex for ex in (sp.make_exercise(s, 5) for s in range(20)) if ex.answer.ndim == 3)
    assert page.answer_px(cube, "Whole output", "c") == page.SHORT_TEXT_PX < page.TEXT_BOX_PX
    assert page.answer_px(four, "Step by step", "a") == page.answer_px(one, "Step by step", "b") == page.STEP_FORM_PX
    # multiple choice: the options as the grids draw them on the page's width, then the question's line
    for ex in (four, one, cube):
        assert page.answer_px(ex, "Multiple choice", "a") == page.OPTIONS_PX + grids.options_height(
            [c.output for c in sp.choices(ex)], page.MAIN_PX)
    assert grids.option_height(four.answer) - grids.option_height(one.answer) == 3 * grids.ROW_PX


# -- issue 33: the small things -------------------------------------------------------------------------------------
def test_a_set_shared_from_whole_output_opens_in_whole_output(monkeypatch):
    monkeypatch.setenv(sp.PUBLIC_URL_ENV, "https://scatter.example.edu/")
    at = open_practice(set=7, level=3, n=4, mode="Whole output")
    link = "https://scatter.example.edu/practice?set=7&level=3&n=4&mode=Whole+output"
    assert link in [c.value for c in at.code]
    from urllib.parse import parse_qsl, urlsplit

    opened = open_practice(**dict(parse_qsl(urlsplit(link).query)))
    assert opened.session_state["practice:mode"] == "Whole output"
    assert [b for b in opened.button if b.label == "Check my output"]
    monkeypatch.delenv(sp.PUBLIC_URL_ENV)
    at = open_practice(set=7, level=3, n=4, mode="Whole output")  # no public address: this browser's address
    assert any(c.value.endswith("?set=7&level=3&n=4&mode=Whole+output") for c in at.code)


def test_a_link_only_this_machine_can_open_is_flagged(monkeypatch):
    from scatter_ui.parts import session

    monkeypatch.delenv(sp.PUBLIC_URL_ENV, raising=False)
    monkeypatch.setattr(session, "share_link", lambda path, values: f"http://localhost:8501/{path}")
    at = open_practice(set=7, level=3, n=4)
    assert "http://localhost:8501/practice?set=7&level=3&n=4" in [c.value for c in at.code]
    (warning,) = [w for w in at.warning if "Only this machine" in w.value]
    assert "public address" in warning.value
    monkeypatch.setattr(session, "share_link", lambda path, values: f"http://10.1.2.3:8501/{path}")
    at = open_practice(set=7, level=3, n=4)
    assert not [w for w in at.warning if "Only this machine" in w.value]


def test_rows_typed_with_spaces_are_read_as_rows():
    from scatter_ui.pages.practice import bracketed, parse_output

    ex = sp.make_exercise(0, 1)  # a 4x5 output
    rows = "\n".join(" ".join(str(v) for v in row) for row in ex.answer.tolist())
    assert np.array_equal(parse_output(rows, ex), ex.answer)
    assert np.array_equal(parse_output(rows.replace(" ", ", "), ex), ex.answer)  # commas, no brackets
    assert bracketed("8 45 68", 1) == "[8, 45, 68]" and bracketed("[8 45 68]", 1) == "[8 45 68]"
    assert bracketed("1 2\n3 4\n\n5 6\n7 8", 3) == "[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]"
    at = open_practice(seed=0, level=1, mode="Whole output")
    type_output(at, rows)
    assert at.success and "Right!" in at.success[0].value
    with pytest.raises(sc.ScatterError, match="shape"):
        parse_output("8 45 68", ex)


def test_the_answer_grid_starts_as_a_copy_of_data():
    ex = sp.make_exercise(0, 1)
    at = open_practice(seed=0, level=1, mode="Whole output")
    (grid,) = at.dataframe
    shown = grid.value.to_numpy()
    assert shown.shape == ex.data.shape and np.array_equal(shown, ex.data)
    assert "copy of data" in " ".join(c.value for c in at.caption)


def test_no_placeholder_looks_like_an_answer():
    at = open_practice(seed=0, level=1)
    target = text_input(at, "Target cell")
    assert target.placeholder == "row, column" and not re.search(r"\d", target.placeholder)
    assert not any(re.search(r"\d", t.placeholder or "") for t in at.text_input if t.label != "Public address "
                   "of this app")


@pytest.mark.slow
def test_checking_again_after_the_reveal_scores_nothing():
    """Pasting the revealed spec result back is no "Right!": recorded as answered after the reveal."""
    seed, level = 2, 3
    ex = sp.make_exercise(seed, level)
    at = open_practice(seed=seed, level=level, mode="Whole output")
    slip = ex.answer.copy()
    slip.reshape(-1)[0] += 100
    type_output(at, grid_text(slip))
    assert "Try once more" in at.error[0].value and not at.get("plotly_chart")  # the result is not shown yet
    slip.reshape(-1)[-1] += 100
    type_output(at, grid_text(slip))
    assert at.get("plotly_chart")  # the second wrong check shows the spec's result beside it
    type_output(at, grid_text(ex.answer))
    assert not at.success and any("scores nothing" in i.value for i in at.info)
    at.run()
    body = all_text(at)
    assert f"Level {level}: 0 of 1 right" in body and "Checked after the answer was shown: 1 (no score)" in body
    # "Show the answer" (the last hint) counts as a reveal too
    at = open_practice(seed=seed, level=level, mode="Whole output")
    for label in ("Hint: which cells?", "Stronger hint: which values compete?", "Show the answer"):
        button(at, label).click().run()
    type_output(at, grid_text(ex.answer))
    assert not at.success and any("scores nothing" in i.value for i in at.info)


@pytest.mark.slow
def test_a_step_right_on_the_second_try_scores():
    seed, level = 1, 3
    ex = sp.make_exercise(seed, level)
    t = ex.trace
    at = open_practice(seed=seed, level=level)
    cell = tuple(int(v) for v in t.target_cells(0)[0])
    predict(at, cell, t.after[0][0] + 100)
    assert "Try once more" in at.error[0].value and not at.success
    predict(at, cell, t.after[0][0])
    assert at.success[0].value == "Right: target and value."
    assert f"Level {level}: 1 of 1 right" in all_text(at)


@pytest.mark.slow
def test_a_step_diagnosis_shows_the_chain_of_writes_that_explains_it():
    """A value combined under reduction none at a cell an earlier step wrote: the reveal names it ("you added")
    and shows every write to that cell so far."""
    for seed in range(80):
        ex = sp.make_exercise(seed, 5)
        t = ex.trace
        if t.reduction.ufunc is not None or t.slice_size != 1:
            continue
        ks = [k for k in range(ex.steps) if not t.first_write[k][0] and t.before[k][0] != 0]
        if ks:
            break
    k = ks[0]
    cells = [tuple(int(v) for v in t.target_cells(i)[0]) for i in range(ex.steps)]
    earlier = [i for i in range(k) if cells[i] == cells[k]]
    at = open_practice(seed=seed, level=5)
    for i in range(k):
        predict(at, cells[i], t.after[i][0])
        button(at, "Next step ▶").click().run()
    combined = t.before[k][0] + t.values[k][0]
    predict(at, cells[k], combined)
    predict(at, cells[k], combined)
    assert any("Combined instead of replaced" in unescape(w.value) and "if you added" in unescape(w.value)
               for w in at.warning)
    (chain,) = [x.value for x in at.text if x.value.startswith("The writes to that cell so far: ")]
    assert all(t.describe(i) in chain for i in earlier + [k]) and f"starts at {ex.data[cells[k]]} (data)" in chain
