"""The hostile-input catalogue: every text box and every URL parameter of every page, driven through
AppTest with the cases of both robustness rounds (issues #13 and #18).

For each case the page must show a message naming the input, keep the inputs on the page (the
typed text still in its box), and never fall back to "Something went wrong" or an exception.
"""

from __future__ import annotations

import pytest

from tests.apptest_helpers import open_page

LIMIT = 2_000_000  # scatter_core.parsing.MAX_TEXT
EXPLORERS = {"nd": ("ScatterND-18", "onnx-scatternd-18-example-1"),
             "elements": ("ScatterElementsUpdate-12", "ov-scatter-elements-update-12-example-1"),
             "update": ("ScatterUpdate-3", "ov-scatter-update-3-example-2")}
TEXT_BOXES = [(page, role) for page in EXPLORERS for role in ("data", "indices", "updates")] + [
    ("check", role) for role in ("data", "indices", "updates", "expected")]

HOSTILE_TEXT = [  # (text, what the message must say)
    # round one
    ("", "empty"),
    ("[[1, 2], [3]]", "ragged"),
    ("[1, 2", "missing"),
    ("__import__('os').system('echo pwned')", "not a number"),
    ("[1, nan, 'x']", "is not a number"),
    ("[" * 50 + "1" + "]" * 50, "deeper than"),
    ("[" + ", ".join(["1"] * 10_001) + "]", "more than 10,000 numbers"),
    ("array([1, 2], dtype=complex64)", "dtype"),
    ("[1e999]", "too large"),
    ("[[1, 2]] [[3]]", "unexpected"),
    ("{'a': 1}", "unexpected character"),
    ("<script>alert(1)</script>", "unexpected character"),
    # round two (issue #18)
    ("1" * 5000, "5,000 digits is too long"),
    ("[1, " + "9" * 5000 + "]", "5,000 digits is too long"),
    ("array([], shape=(0, 2147483648, 2147483648), dtype=float32)", "dimensions other than 0 multiply"),
    ("array([], shape=(2147483648, 0), dtype=float32)", "dimensions other than 0 multiply"),
    ("[" + "[]," * 600_000 + "]", "brackets, commas and numbers"),
    ("[" + "1," * (LIMIT // 2) + "]", f"the limit is {LIMIT:,}"),
    ("[1e309]", "too large"),
]


def _label(role: str) -> str:
    return "expected output" if role == "expected" else role


def _messages(at) -> list[str]:
    return [e.value for e in at.error] + [w.value for w in at.warning]


def _assert_page_survived(at, text_keys):
    assert not at.exception, [e.value for e in at.exception]
    assert not any("Something went wrong" in m for m in _messages(at)), _messages(at)
    for key in text_keys:  # the inputs are still on the page
        at.text_area(key=key)


@pytest.mark.parametrize("page,role", TEXT_BOXES)
def test_every_text_box_names_the_input_for_every_hostile_text(page, role):
    params = dict(zip(("op", "example"), EXPLORERS[page])) if page in EXPLORERS else {}
    at = open_page(page, **params)
    prefix = page
    key = f"{prefix}:text_{role}"
    label = _label(role)
    for text, expected in HOSTILE_TEXT:
        at.text_area(key=key).set_value(text).run()
        _assert_page_survived(at, [key])
        errors = [e.value for e in at.error]
        named = [e for e in errors if e.startswith(f"**{label}**")]
        assert named, (text[:40], errors[:3])
        assert any(expected in e for e in named), (text[:40], named[:3])
        assert not any(f"**{label}**: {label}:" in e for e in errors), "the input named twice"
        assert at.text_area(key=key).value == text, "the user's text must stay in the box"


def test_a_paste_over_the_limit_is_measured_next_to_its_box():
    at = open_page("check")
    text = "[" + "1," * (LIMIT // 2) + "]"
    at.text_area(key="check:text_indices").set_value(text).run()
    notes = [e.value for e in at.error if "pasted" in e.value]
    assert notes == [f"**indices**: {len(text):,} characters pasted; the limit is {LIMIT:,}."]


HOSTILE_URL_VALUES = ["<script>alert(1)</script>", "1" * 5000, "10**30", "nan", "../../etc/passwd", "%00"]
EXPLORER_PARAMS = ["op", "example", "reduction", "axis", "use_init_val", "step", "follow"]


@pytest.mark.parametrize("page", list(EXPLORERS))
@pytest.mark.parametrize("value", HOSTILE_URL_VALUES, ids=lambda v: v[:12])
def test_every_url_parameter_of_an_explorer_is_named_when_ignored(page, value):
    params = {name: value for name in EXPLORER_PARAMS}
    at = open_page(page, **params)
    _assert_page_survived(at, [f"{page}:text_{r}" for r in ("data", "indices", "updates")])
    notice = next((w.value for w in at.warning if "This link has value" in w.value), "")
    # each parameter this page's operator has is named, once, with its reason
    used = {"op", "example", "step", "follow"} | {n for n in ("reduction", "axis", "use_init_val")
                                                  if f"{page}:{n}" in at.session_state}
    for name in used:
        assert notice.count(f"`` {name}=") == 1, (name, notice)
    assert "ignored:" in notice


@pytest.mark.parametrize("page", list(EXPLORERS))
@pytest.mark.parametrize("role", ["data", "indices", "updates"])
def test_a_hostile_tensor_in_a_link_is_a_message_naming_it(page, role):
    op, example = EXPLORERS[page]
    for text, expected in [("1" * 5000, "digits is too long"),
                           ("array([], shape=(0, 2147483648, 2147483648), dtype=float32)", "multiply to")]:
        at = open_page(page, op=op, example=example, **{role: text})  # the other inputs: the example's
        _assert_page_survived(at, [f"{page}:text_{role}"])
        assert any(e.value.startswith(f"**{role}**") and expected in e.value for e in at.error), \
            [e.value for e in at.error]
        assert at.text_area(key=f"{page}:text_{role}").value == text


@pytest.mark.parametrize("value", HOSTILE_URL_VALUES, ids=lambda v: v[:12])
def test_the_check_page_names_its_ignored_url_parameters(value):
    at = open_page("check", op=value, example=value)
    _assert_page_survived(at, [f"check:text_{r}" for r in ("data", "indices", "updates", "expected")])
    notice = next((w.value for w in at.warning if "This link has value" in w.value), "")
    assert "`` op=" in notice and "`` example=" in notice


def test_the_notice_is_dismissed_once_and_for_all():
    at = open_page("nd", op="ScatterND-16", example="nope", step="99")
    notice = next(w.value for w in at.warning if "This link has value" in w.value)
    assert "example=nope `` was ignored: ScatterND-16 has no example with this id" in notice
    assert "step=99 `` was ignored: past the last step" in notice
    at.button(key="nd:_url_dismiss").click().run()
    assert not [w for w in at.warning if "This link has value" in w.value]
    at.selectbox(key="nd:reduction").set_value("add").run()  # another rerun, from a widget
    assert not [w for w in at.warning if "This link has value" in w.value]


@pytest.mark.parametrize("axis", ["10**30", str(10**30), "7", "-9"])
def test_an_unusable_axis_in_a_link_falls_back_to_the_examples_own_axis(axis):
    # ov-scatter-update-3-example-2 has axis=1 on rank-2 data: the fallback is 1, not 0
    at = open_page("update", op="ScatterUpdate-3", example="ov-scatter-update-3-example-2", axis=axis)
    assert at.session_state["update:axis"] == 1
    notice = next(w.value for w in at.warning if "This link has value" in w.value)
    assert f"`` axis={axis[:40]}" in notice


@pytest.mark.parametrize("name", ["rtol", "atol"])
def test_a_tolerance_that_is_not_a_finite_number_in_range_is_refused(name):
    at = open_page("check")
    before = at.session_state[f"check:{name}"]
    for typed, why in [("1e309", "not a finite number"), ("inf", "not a finite number"), ("nan", "not a finite"),
                       ("-1", "outside"), ("1e301", "outside"), ("abc", "not a number"), ("", "not a number")]:
        at.text_input(key=f"check:{name}_text").set_value(typed).run()
        _assert_page_survived(at, ["check:text_data"])
        assert at.session_state[f"check:{name}"] == before, typed  # the previous value is kept
        assert any(e.value.startswith(f"**{name}**") and why in e.value and "stays" in e.value for e in at.error), \
            (typed, [e.value for e in at.error])
        assert at.text_input(key=f"check:{name}_text").value == typed
    at.text_input(key=f"check:{name}_text").set_value("0.5").run()
    assert at.session_state[f"check:{name}"] == 0.5
    assert not any(e.value.startswith(f"**{name}**") for e in at.error)


@pytest.mark.parametrize("text,shape", [("array([], shape=(1001, 0), dtype=float32)", "(1001, 0)"),
                                        ("array([], shape=(0, 101), dtype=float32)", "(0, 101)")])
def test_the_grid_is_bounded_by_its_dimensions(text, shape):
    at = open_page("check")
    at.text_area(key="check:text_data").set_value(text).run()
    _assert_page_survived(at, ["check:text_data"])
    assert any(f"**data** has shape {shape}: the grid shows at most" in c.value for c in at.caption)
