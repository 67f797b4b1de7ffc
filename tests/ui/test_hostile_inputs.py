"""The hostile-input catalogue: every text box and every URL parameter of every page, driven through
AppTest with the cases of both robustness rounds (issues #13 and #18).

For each case the page must show a message naming the input, keep the inputs on the page (the
typed text still in its box), and never fall back to "Something went wrong" or an exception.
"""

from __future__ import annotations

import pytest

import scatter_core as sc
import spec_examples
from scatter_core.families import FAMILIES, family_by_slug
from scatter_ui.parts import attribute_inputs
from tests.support.apptest_helpers import app_on, open_expander, open_page
from tests.support.hostile import HOSTILE_TEXT, LIMIT

pytestmark = pytest.mark.slow  # hostile text through every page's AppTest run: the full suite runs them, the fast loop does not

ROLES = ("data", "indices", "updates")


def _newest_example(family) -> tuple[str, str]:
    """The newest version of ``family`` that has an example, and its first example."""
    for spec in sorted(sc.family_members(family.name), key=lambda s: -s.version):
        examples = spec_examples.examples_for(spec.name)
        if examples:
            return spec.name, examples[0].id
    raise AssertionError(f"family {family.name} has no example")


# every explorer page, by its URL path: the original three with the examples these cases were written
# on, every other family (TensorScatter, SliceScatter ...) from its record
EXPLORERS = {"nd": ("ScatterND-18", "onnx-scatternd-18-example-1"),
             "elements": ("ScatterElementsUpdate-12", "ov-scatter-elements-update-12-example-1"),
             "update": ("ScatterUpdate-3", "ov-scatter-update-3-example-2")}
EXPLORERS.update({f.slug: _newest_example(f) for f in FAMILIES.values() if f.slug not in EXPLORERS})
# an explorer whose family never reads indices has no indices box to type into (a link's text gets one: below)
TEXT_BOXES = [(page, role) for page in EXPLORERS for role in ROLES
              if not (role == "indices" and family_by_slug(page).indices == "unused")] + [
    ("check", role) for role in ("data", "indices", "updates", "expected")]


def _prefix(page: str) -> str:
    """The session-key prefix of a page: its family's name for an explorer ("cache" for tensor_scatter)."""
    return family_by_slug(page).name if page in EXPLORERS else page


def _names(page: str, role: str) -> set[str]:
    """What a message may call the input in this box: its role, or the operator's own name for it."""
    if page not in EXPLORERS:
        return {_label(role)}
    return {role, sc.get_spec(EXPLORERS[page][0]).input_name(role)}


def _may_be_left_out(page: str, role: str) -> bool:
    """An empty box that means None (TensorScatter's write_indices, SliceScatter's unused indices)."""
    return page in EXPLORERS and role == "indices" and family_by_slug(page).indices != "required"


def _label(role: str) -> str:
    return "expected output" if role == "expected" else role


def _messages(at) -> list[str]:
    return [e.value for e in at.error] + [w.value for w in at.warning]


def _assert_page_survived(at, text_keys):
    assert not at.exception, [e.value for e in at.exception]
    assert not any("Something went wrong" in m for m in _messages(at)), _messages(at)
    for key in text_keys:  # the inputs are still on the page, or kept, one click away, in a closed editor
        if not any(t.key == key for t in at.text_area):
            assert key in at.session_state, key
            assert any(e.label == "Edit inputs" for e in at.expander), "the inputs' editor is gone"


@pytest.mark.slow
@pytest.mark.parametrize("page,role", TEXT_BOXES)
def test_every_text_box_names_the_input_for_every_hostile_text(page, role):
    params = dict(zip(("op", "example"), EXPLORERS[page])) if page in EXPLORERS else {}
    at = open_page(page, **params)
    if page in EXPLORERS:  # the explorer's text boxes are built while its editor is open
        open_expander(at, "Edit inputs")
    key = f"{_prefix(page)}:text_{role}"
    names = _names(page, role)
    for text, expected in HOSTILE_TEXT:
        at.text_area(key=key).set_value(text).run()
        _assert_page_survived(at, [key])
        errors = [e.value for e in at.error]
        named = [e for e in errors if any(e.startswith(f"**{n}**") for n in names)]
        if text == "" and _may_be_left_out(page, role):
            assert not named, errors  # an empty box is the input left out, not an error
            continue
        if text == "" and (page, role) == ("check", "expected"):  # nothing typed yet: a prompt, not an error
            assert not named, errors
            assert any("Type the output you computed by hand" in i.value for i in at.info)
            continue
        assert named, (text[:40], errors[:3])
        assert any(expected in e for e in named), (text[:40], named[:3])
        assert not any(f"**{n}**: {n}:" in e for n in names for e in errors), "the input named twice"
        assert at.text_area(key=key).value == text, "the user's text must stay in the box"


def test_a_paste_over_the_limit_is_measured_next_to_its_box():
    at = open_page("check")
    text = "[" + "1," * (LIMIT // 2) + "]"
    at.text_area(key="check:text_indices").set_value(text).run()
    notes = [e.value for e in at.error if "pasted" in e.value]
    assert notes == [f"**indices**: {len(text):,} characters pasted; the limit is {LIMIT:,}."]


HOSTILE_URL_VALUES = ["<script>alert(1)</script>", "1" * 5000, "10**30", "nan", "../../etc/passwd", "%00"]
EXPLORER_PARAMS = ["op", "example", "reduction", "axis", "use_init_val", "step", "follow"]


def _attributes(page: str) -> dict[str, str]:
    """The page's own attribute boxes beyond reduction/axis/use_init_val, from the registry records:
    URL parameter (= session-key suffix, e.g. "attr_step") -> the attribute's name (e.g. "step")."""
    return {attribute_inputs.state_name(a.name): a.name for s in sc.family_members(_prefix(page))
            for a in s.attributes if not sc.codec_of(s, a).role}


@pytest.mark.parametrize("page", list(EXPLORERS))
@pytest.mark.parametrize("value", HOSTILE_URL_VALUES, ids=lambda v: v[:12])
def test_every_url_parameter_of_an_explorer_is_named_when_ignored(page, value):
    prefix, attributes = _prefix(page), _attributes(page)
    params = {name: value for name in [*EXPLORER_PARAMS, *attributes]}
    at = open_page(page, **params)
    _assert_page_survived(at, [f"{prefix}:text_{r}" for r in ROLES])
    notice = next((w.value for w in at.warning if "This link has value" in w.value), "")
    errors = [e.value for e in at.error]
    # each parameter this page's operator has is named, once, with its reason
    used = {"op", "example", "step", "follow"} | {n for n in ("reduction", "axis", "use_init_val")
                                                  if f"{prefix}:{n}" in at.session_state}
    for name in used:
        assert notice.count(f"`` {name}=") == 1, (name, notice)
    assert "ignored:" in notice
    # an attribute of the operator it does open (the link's op= is refused, so its default): either
    # ignored in the notice, or kept as typed in its box with a message naming it
    # (the page parses attributes in order and names the first it cannot use; the others wait in
    # their boxes, each named once it is the first: test_each_attribute_from_a_hostile_link_is_named)
    op = at.session_state[f"{prefix}:op"]
    kept = []
    for param, name in attributes.items():
        if name not in sc.get_spec(op).attribute_names:
            continue
        if at.session_state[f"{prefix}:{param}"] == value:
            assert at.text_input(key=f"{prefix}:{param}").value == value  # still in its box, as typed
            kept.append(name)
        else:
            assert notice.count(f"`` {param}=") == 1, (param, notice)
    if kept:
        assert any(e.startswith(f"**{kept[0]}**") for e in errors), (kept, errors)


@pytest.mark.parametrize("page,param", [(p, param) for p in EXPLORERS for param in _attributes(p)])
@pytest.mark.parametrize("value", HOSTILE_URL_VALUES, ids=lambda v: v[:12])
def test_each_attribute_from_a_hostile_link_is_named(page, param, value):
    op, example = EXPLORERS[page]
    name = _attributes(page)[param]
    at = open_page(page, op=op, example=example, **{param: value})
    _assert_page_survived(at, [f"{_prefix(page)}:text_{r}" for r in ROLES])
    notice = next((w.value for w in at.warning if "This link has value" in w.value), "")
    if at.session_state[f"{_prefix(page)}:{param}"] == value:  # kept as typed, in its box, and named
        assert at.text_input(key=f"{_prefix(page)}:{param}").value == value
        assert any(e.value.startswith(f"**{name}**") for e in at.error), [e.value for e in at.error]
    else:  # replaced by the page: the notice says so
        assert notice.count(f"`` {param}=") == 1, notice


@pytest.mark.slow
@pytest.mark.parametrize("page", list(EXPLORERS))
@pytest.mark.parametrize("role", ROLES)
def test_a_hostile_tensor_in_a_link_is_a_message_naming_it(page, role):
    op, example = EXPLORERS[page]
    key = f"{_prefix(page)}:text_{role}"
    for text, expected in [("1" * 5000, "digits is too long"),
                           ("array([], shape=(0, 2147483648, 2147483648), dtype=float32)", "multiply to")]:
        at = open_page(page, op=op, example=example, **{role: text})  # the other inputs: the example's
        _assert_page_survived(at, [key])
        assert any(any(e.value.startswith(f"**{n}**") for n in _names(page, role)) and expected in e.value
                   for e in at.error), [e.value for e in at.error]
        assert at.text_area(key=key).value == text


HOSTILE_LISTS = [  # (text typed in an integer-list attribute box, what the message must say)
    ("1.5", "must be a list of integers"),
    ("[[1]]", "must be a list of integers"),
    ("[1, 2", "missing"),
    ("__import__('os').system('echo pwned')", "not a number"),
    ("<script>alert(1)</script>", "unexpected character"),
    ("9" * 30, "does not fit in int64"),
    ("9" * 399, "does not fit in int64"),
    ("1," * 199, "more than 64 numbers"),
    ("[" * 50 + "1" + "]" * 50, "deeper than"),
    ("nan", "must be a list of integers"),
]


@pytest.mark.parametrize("page,param,name", [(p, param, name) for p in EXPLORERS
                                             for param, name in _attributes(p).items()
                                             if sc.get_spec(EXPLORERS[p][0]).attribute(name).kind == "ints"])
def test_every_integer_list_attribute_box_names_itself_for_every_hostile_text(page, param, name):
    op, example = EXPLORERS[page]
    at = open_page(page, op=op, example=example)
    key = f"{_prefix(page)}:{param}"
    for text, expected in HOSTILE_LISTS:
        at.text_input(key=key).set_value(text).run()
        _assert_page_survived(at, [f"{_prefix(page)}:text_{r}" for r in ROLES])
        named = [e.value for e in at.error if e.value.startswith(f"**{name}**")]
        assert any(expected in e for e in named), (text[:40], [e.value for e in at.error][:3])
        assert at.text_input(key=key).value == text, "the user's text must stay in the box"


@pytest.mark.parametrize("page,param", [(p, param) for p in EXPLORERS for param, name in _attributes(p).items()
                                        if sc.get_spec(EXPLORERS[p][0]).attribute(name).choices])
def test_a_choice_attribute_from_a_hostile_link_is_named_and_falls_back(page, param):
    op, example = EXPLORERS[page]
    at = open_page(page, op=op, example=example, **{param: "<script>alert(1)</script>"})
    _assert_page_survived(at, [f"{_prefix(page)}:text_{r}" for r in ROLES])
    spec = sc.get_spec(op)
    assert at.session_state[f"{_prefix(page)}:{param}"] in spec.attribute(_attributes(page)[param]).choices
    notice = next((w.value for w in at.warning if "This link has value" in w.value), "")
    assert notice.count(f"`` {param}=") == 1, notice


@pytest.mark.parametrize("value", HOSTILE_URL_VALUES, ids=lambda v: v[:12])
def test_the_check_page_names_its_ignored_url_parameters(value):
    at = open_page("check", op=value, example=value)
    _assert_page_survived(at, [f"check:text_{r}" for r in ("data", "indices", "updates", "expected")])
    notice = next((w.value for w in at.warning if "This link has value" in w.value), "")
    assert "`` op=" in notice and "`` example=" in notice


@pytest.mark.parametrize("page, op, param, value", [
    ("nd", "ScatterND-18", "axis", "1"), ("nd", "ScatterND-11", "reduction", "add"),
    ("slice_scatter", "SliceScatter-15", "reduction", "add"),
])
def test_a_link_value_for_an_attribute_the_operator_lacks_is_named(page, op, param, value):
    """ScatterND has no axis: axis=1 was dropped without a word, while reduction=SUM was named."""
    at = open_page(page, op=op, **{param: value})
    notice = next((w.value for w in at.warning if "This link has value" in w.value), "")
    assert f"{param}={value} `` was ignored: {op} has no {param} attribute" in notice, notice


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


# -- the Practice page ----------------------------------------------------------------------------------------------
def _open_practice(**params):
    """The Practice page (not in apptest_helpers.PAGES, which other helpers own) opened on a link."""
    at = app_on("app_pages/practice.py")
    at.query_params.update(params)
    return at.run()


def _practice_box(at, kind: str, prefix: str):
    return next(w for w in getattr(at, kind) if (w.key or "").startswith(prefix))


@pytest.mark.parametrize("box,typed,expected", [
    ("target", "1" * 60, "needs"), ("target", "-1, -1", "needs"), ("target", "x", "whole numbers"),
    ("target", "__import__('os')", "whole numbers"), ("target", "", "needs"),
    ("value", "1e309", "finite"), ("value", "nan", "finite"), ("value", "<script>", "not a number"),
    ("value", "1" * 40, None), ("value", "", "not a number")])
def test_the_practice_step_boxes_name_themselves_for_hostile_text(box, typed, expected):
    at = _open_practice(seed="1", level="1", mode="Step by step")
    target = _practice_box(at, "text_input", "practice:target:")
    value = _practice_box(at, "text_input", "practice:value:")
    target.set_value("0" if box == "value" else typed)
    value.set_value(typed if box == "value" else "1")
    next(b for b in at.button if b.label == "Check").click().run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value for e in at.error]
    assert not any("Something went wrong" in e for e in errors), errors
    if expected is None:  # a long number is a number: graded, not refused
        assert not any(e.startswith(box) for e in errors), errors
        return
    assert any(e.startswith(box) and expected in e for e in errors), errors
    assert _practice_box(at, "text_input", f"practice:{box}:").value == typed  # still there, as typed


@pytest.mark.parametrize("text,expected", [t for t in HOSTILE_TEXT if len(t[0]) <= 20_000] +
                         [("[[1]]", "shape"), ("1" * 20_000, "too long")])
def test_the_practice_output_text_names_itself_for_hostile_text(text, expected):
    at = _open_practice(seed="1", level="1", mode="Whole output")
    if at.radio(key="practice:how:1-1-any") is not None:
        at.radio(key="practice:how:1-1-any").set_value("text").run()
    box = _practice_box(at, "text_area", "practice:text:")
    box.set_value(text)
    next(b for b in at.button if b.label == "Check my output").click().run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value for e in at.error]
    assert not any("Something went wrong" in e for e in errors), errors
    assert any(e.startswith("output") and expected in e for e in errors), (text[:40], errors)
    assert _practice_box(at, "text_area", "practice:text:").value == text


PRACTICE_LINKS = [dict(seed="1", level="1"), dict(set="7", level="2", n="3")]  # one exercise; a shared set


@pytest.mark.parametrize("link", PRACTICE_LINKS, ids=["exercise", "set"])
@pytest.mark.parametrize("name", ["seed", "level", "op", "mode", "set", "n"])
@pytest.mark.parametrize("value", HOSTILE_URL_VALUES, ids=lambda v: v[:12])
def test_every_url_parameter_of_practice_is_named_when_ignored(link, name, value):
    at = _open_practice(**{**link, name: value})
    assert not at.exception, [e.value for e in at.exception]
    assert not any("Something went wrong" in e.value for e in at.error), [e.value for e in at.error]
    notice = next((w.value for w in at.warning if "This link has value" in w.value), "")
    assert notice.count(f"`` {name}=") == 1, notice
    assert at.header, "the page still shows an exercise"


@pytest.mark.parametrize("link", [dict(seed="1", level="1", mode="Whole output"),
                                  dict(set="7", level="2", n="3", mode="Multiple choice")])
def test_a_practice_link_that_is_all_good_has_no_notice(link):
    at = _open_practice(**link)
    assert not [w for w in at.warning if "This link has value" in w.value]
    assert at.session_state["practice:mode"] == link["mode"]


def test_a_practice_link_for_a_set_names_the_seed_and_op_it_does_not_use():
    at = _open_practice(set="7", level="2", n="3", seed="5", op="ScatterND-18")
    notice = next(w.value for w in at.warning if "This link has value" in w.value)
    assert "seed=5 `` was ignored: a shared set picks its own exercises" in notice
    assert "op=ScatterND-18 `` was ignored: a shared set picks its own exercises" in notice
    at.button(key="practice:_url_dismiss").click().run()
    assert not [w for w in at.warning if "This link has value" in w.value]
