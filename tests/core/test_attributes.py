"""The attribute codec (scatter_core/attributes.py): every attribute of every record, through every form."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from xml.sax.saxutils import quoteattr

import numpy as np
import pytest

import scatter_core as sc
from tests.support.skipping import require_or_skip

ATTRIBUTES = [(spec, attr) for spec in sc.OPERATORS_LIST for attr in spec.attributes]
RANK = 3


def _values(codec: sc.AttrCodec) -> list:
    """Valid values of one attribute: every choice, both bools, axes from both ends, lists of each length."""
    if codec.choices:
        return list(codec.choices)
    if codec.bounds(RANK) is not None:
        return [0, 1, -1, -RANK]
    return {"bool": [True, False], "int": [0, 5, -3], "ints": [(0,), (0, -1), (2, 1, 0), ()],
            "str": ["linear"]}[codec.attr.kind]


CASES = [pytest.param(spec, attr, value, id=f"{spec.name}-{attr.name}={value}")
         for spec, attr in ATTRIBUTES for value in _values(sc.codec_of(spec, attr))]


def _same(a, b) -> bool:
    return type(a) is type(b) and a == b


def test_every_attribute_has_a_codec_chosen_by_its_record():
    for spec, attr in ATTRIBUTES:
        codec = sc.codec_of(spec, attr)
        assert codec.name == attr.name and codec.role == attr.codec and codec is not None
        assert sc.codec_of(spec, attr.name).__class__ is codec.__class__
    kinds = {(a.codec or a.kind) for _, a in ATTRIBUTES}
    assert kinds == {"axis", "reduction", "init", "str", "ints"}  # every kind a record declares today
    assert [c.name for c in sc.codecs_of(sc.OPERATORS["ScatterElementsUpdate-12"])] == [
        "axis", "reduction", "use_init_val"]


@pytest.mark.parametrize("spec,attr,value", CASES)
def test_url_text_round_trips(spec, attr, value):
    codec = sc.codec_of(spec, attr)
    text = codec.to_text(value)
    assert isinstance(text, str) and _same(codec.from_text(text), value)
    # a link's text becomes the session value, the session value the core's, and the session writes the same text
    kept = codec.session_from_text(text)
    assert _same(codec.from_session(kept), value) and codec.session_text(kept) == text


@pytest.mark.parametrize("spec,attr,value", CASES)
def test_session_value_round_trips(spec, attr, value):
    codec = sc.codec_of(spec, attr)
    assert _same(codec.from_session(codec.to_session(value)), value)


@pytest.mark.parametrize("spec,attr,value", CASES)
def test_json_round_trips(spec, attr, value):
    codec = sc.codec_of(spec, attr)
    written = json.dumps(codec.to_json(value))
    assert _same(codec.from_json(json.loads(written)), value)


@pytest.mark.parametrize("spec,attr,value", CASES)
def test_onnx_attribute_round_trips_through_onnx_helper(spec, attr, value):
    require_or_skip("onnx")
    from onnx import AttributeProto, helper

    codec = sc.codec_of(spec, attr)
    # an empty list has no element to tell its type by: the kind says it
    kind = AttributeProto.INTS if isinstance(value, tuple) and not value else None
    proto = helper.make_attribute(attr.name, codec.to_onnx(value), attr_type=kind)
    assert _same(codec.from_onnx(helper.get_attribute_value(proto)), value)


@pytest.mark.parametrize("spec,attr,value", CASES)
def test_openvino_form_round_trips(spec, attr, value):
    codec = sc.codec_of(spec, attr)
    written = codec.to_openvino(value)
    if attr.is_input:  # a tensor input of the layer: an int64 array
        assert isinstance(written, np.ndarray) and written.dtype == np.int64
        assert _same(codec.from_openvino(written), value)
    else:  # an attribute of the IR layer's <data> element: its text, through an XML parser
        layer = ET.fromstring(f"<data {attr.name}={quoteattr(written)}/>")
        assert _same(codec.from_openvino(layer.get(attr.name)), value)


@pytest.mark.parametrize("spec,attr,value", CASES)
def test_display_text_and_the_core_rule(spec, attr, value):
    codec = sc.codec_of(spec, attr)
    assert codec.display(value) == sc.fmt_attr(attr.name, value)
    resolved = codec.resolve(value, RANK)
    assert resolved == (value % RANK if codec.bounds(RANK) is not None else value)


def test_the_openvino_ir_spells_attributes_as_the_codec_writes_them(tmp_path):
    """A real OpenVINO model saved as IR: its layer's attribute text is the codec's, and reads back."""
    require_or_skip("openvino")
    import openvino as ov
    from openvino import opset1

    from runtime_check.openvino_backend import build_node

    spec = sc.OPERATORS["ScatterElementsUpdate-12"]
    attrs = {"axis": 1, "reduction": "mean", "use_init_val": False}
    data, indices, updates = np.zeros((2, 3), np.float32), np.zeros((2, 1), np.int64), np.ones((2, 1), np.float32)
    node, params, _ = build_node(spec, data, indices, updates, attrs)
    ov.save_model(ov.Model([opset1.result(node)], params, "m"), str(tmp_path / "m.xml"), compress_to_fp16=False)
    layer = next(el for el in ET.parse(tmp_path / "m.xml").iter("layer") if el.get("type") == spec.op_type)
    data_el = layer.find("data")
    for codec in sc.codecs_of(spec):
        if codec.attr.is_input:
            continue
        assert data_el.get(codec.name) == codec.to_openvino(attrs[codec.name])
        assert codec.from_openvino(data_el.get(codec.name)) == attrs[codec.name]


# ------------------------------------------------------------------------------------------- errors
@pytest.mark.parametrize("op,name,text,rule,words", [
    ("ScatterElements-18", "axis", "x", "int", "axis = 'x' must be one integer"),
    ("ScatterElements-18", "axis", "1.5", "int", "axis = '1.5' must be one integer"),
    ("ScatterElementsUpdate-12", "use_init_val", "maybe", "bool", "use_init_val = 'maybe' must be true or false"),
    ("SliceScatter-15", "start", "0.5", "ints", "start = '0.5' must be a list of integers"),
    ("SliceScatter-15", "start", "[[1]]", "ints", "must be a list of integers"),
    ("SliceScatter-15", "start", "__import__('os')", None, "start"),
])
def test_unreadable_text_names_the_argument_the_rule_and_the_value(op, name, text, rule, words):
    codec = sc.codec_of(sc.OPERATORS[op], name)
    with pytest.raises(sc.ScatterError, match=words.replace("[", r"\[").replace("(", r"\(")) as info:
        codec.from_text(text)
    assert info.value.argument == name
    if rule is not None:
        assert info.value.rule == rule
    assert codec.session_from_text(text) is None or codec.attr.kind == "ints"  # a list's text stays in its box


@pytest.mark.parametrize("text,place", [
    ("a, b", "line 1, column 1"), ("1, b", "line 1, column 4"), ("  a", "line 1, column 3"),
    ("1,\n x", "line 2, column 2"), ("[a, b]", "line 1, column 2"),  # typed with its brackets: as typed
])
def test_a_list_error_names_the_column_the_user_typed(text, place):
    """The codec wraps "a, b" in [ ] before parsing; the place it reports is in the user's text, not the wrapped."""
    with pytest.raises(sc.ScatterError) as info:
        sc.codec_of(sc.OPERATORS["SliceScatter-15"], "start").from_text(text)
    assert str(info.value).endswith(f"at {place}"), str(info.value)
    assert info.value.argument == "start"


def test_a_long_text_is_quoted_shortened():
    with pytest.raises(sc.ScatterError) as info:
        sc.codec_of(sc.OPERATORS["ScatterElements-18"], "axis").from_text("9" * 5000)
    assert len(str(info.value)) < 120 and "…" in str(info.value)


@pytest.mark.parametrize("op,name,value,rule,words", [
    ("ScatterND-11", "reduction", "add", "reduction", r"reduction = 'add' is not allowed by ScatterND-11; allowed: "
                                                     r"'none' \('add' arrives in ScatterND-16\)"),
    ("ScatterElements-18", "reduction", "sum", "reduction", "ONNX spells it 'add'"),
    ("ScatterElementsUpdate-12", "reduction", "SUM", "reduction", "spellings are lower case: did you mean 'sum'"),
    ("ScatterElements-18", "axis", 3, "axis-range", r"axis = 3 is out of range for data of rank 3 \(allowed -3..2\)"),
    ("ScatterElements-18", "axis", None, "required", "axis is a required attribute of ScatterElements-18"),
    ("ScatterElementsUpdate-12", "axis", None, "required", "axis is a required input of ScatterElementsUpdate-12"),
    ("ScatterElementsUpdate-12", "use_init_val", 2, "bool", "use_init_val = 2 must be true or false"),
    ("TensorScatter-24", "mode", "wrap", "mode", r"mode = 'wrap' is not allowed by TensorScatter-24; allowed: "
                                                 r"'linear', 'circular'"),
    ("SliceScatter-15", "start", None, "required", "start is a required input of SliceScatter-15"),
    ("SliceScatter-15", "step", [0.5], "ints", "step = .* must be a list of integers for SliceScatter-15"),
])
def test_the_core_rule_names_the_argument_the_rule_and_the_value(op, name, value, rule, words):
    with pytest.raises(sc.ScatterError, match=words) as info:
        sc.codec_of(sc.OPERATORS[op], name).resolve(value, 3)
    assert (info.value.argument, info.value.rule) == (name, rule)


@pytest.mark.parametrize("op,name,value", [
    ("ScatterElements-18", "axis", True), ("ScatterElements-18", "axis", "0"), ("SliceScatter-15", "start", [1.5]),
    ("SliceScatter-15", "start", "0, 1"), ("ScatterElementsUpdate-12", "use_init_val", 2),
    ("TensorScatter-24", "mode", 1),
])
def test_json_of_the_wrong_type_is_refused_by_name(op, name, value):
    with pytest.raises(sc.ScatterError) as info:
        sc.codec_of(sc.OPERATORS[op], name).from_json(value)
    assert info.value.argument == name


def test_an_unknown_attribute_or_kind_is_named():
    with pytest.raises(sc.ScatterError, match=r"'mode' is not an attribute of ScatterND-18") as info:
        sc.codec_of(sc.OPERATORS["ScatterND-18"], "mode")
    assert info.value.rule == "unknown-attribute"
    with pytest.raises(sc.ScatterError, match="unknown kind 'float'") as info:
        sc.codec_of(sc.OPERATORS["ScatterND-18"], sc.AttrSpec("alpha", "float"))
    assert info.value.argument == "alpha"


# ------------------------------------------------------------------------------------ the rules by kind
def test_every_version_reads_a_reduction_even_without_the_attribute():
    spec = sc.OPERATORS["ScatterND-11"]
    assert spec.attribute("reduction") is None
    reduction = sc.reduction_codec(spec)
    assert reduction.choices == ("none",) and reduction.default == "none"
    assert sc.case(spec, [1, 2], [[0]], [5], reduction="none").run().tolist() == [5, 2]


def test_a_switch_counts_only_with_a_reduction_that_combines():
    init = sc.codec_of(sc.OPERATORS["ScatterElementsUpdate-12"], "use_init_val")
    assert init.applies({"reduction": "sum"}) and init.applies({"reduction": "mean"})
    assert not init.applies({"reduction": "none"}) and not init.applies({})  # the default reduction is none
    assert not init.applies({"reduction": "add"})  # not a spelling of this version
    assert sc.codec_of(sc.OPERATORS["ScatterElements-18"], "axis").applies({})


def test_an_axis_is_bounded_by_the_rank():
    axis = sc.codec_of(sc.OPERATORS["ScatterElements-18"], "axis")
    assert axis.bounds(2) == (-2, 1) and axis.bounds(0) == (-8, 7)
    assert axis.fits(-2, 2) and not axis.fits(2, 2) and axis.settled(5, 2) == 0 and axis.settled(-1, 2) == -1
    assert axis.refusal(4, 2) == "outside the data's axes (-2..1 for rank 2)"
    assert axis.refusal(1, 2) is None and axis.refusal(4, None) is None
    assert axis.start(None) == 0 and sc.codec_of(sc.OPERATORS["TensorScatter-24"], "axis").start(None) == -2


def test_a_choice_settles_on_its_default():
    mode = sc.codec_of(sc.OPERATORS["TensorScatter-24"], "mode")
    assert mode.settled("wrap", 0) == "linear" and mode.settled("circular", 0) == "circular"
    reduction = sc.codec_of(sc.OPERATORS["ScatterElements-18"], "reduction")
    assert reduction.settled("sum", 0) == "none" and reduction.start("max") == "max" and reduction.start("x") == "none"


def test_an_empty_list_box_is_the_attribute_left_out():
    axes = sc.codec_of(sc.OPERATORS["SliceScatter-15"], "axes")
    assert axes.from_text("") is None and axes.from_text("  ") is None and axes.to_session(None) == ""
    assert axes.from_text("[]") == () and axes.to_text(()) == "[]"


# -- what the runtimes' encoders and the model reader ask of a codec -------------------------------------
SEU, SS, TS = sc.OPERATORS["ScatterElementsUpdate-12"], sc.OPERATORS["SliceScatter-15"], sc.OPERATORS["TensorScatter-24"]


@pytest.mark.parametrize("op,name,value,want", [
    ("ScatterElements-18", "axis", 7, True),  # out of range: still one integer (the version's rule judges it)
    ("ScatterElements-18", "axis", np.int32(-1), True), ("ScatterElements-18", "axis", [2], True),
    ("ScatterElements-18", "axis", 1.5, False), ("ScatterElements-18", "axis", True, False),
    ("ScatterElements-18", "axis", "1", False), ("ScatterElements-18", "axis", [1, 2], False),
    ("ScatterElements-18", "reduction", "ADD", True), ("ScatterElements-18", "reduction", 3, False),
    ("ScatterElementsUpdate-12", "use_init_val", 1, True), ("ScatterElementsUpdate-12", "use_init_val", 2, False),
    ("ScatterElementsUpdate-12", "use_init_val", np.bool_(False), True),
    ("SliceScatter-15", "start", (0, -1), True), ("SliceScatter-15", "start", [], True),
    ("SliceScatter-15", "start", [[1]], False), ("SliceScatter-15", "start", [True], False),
    ("SliceScatter-15", "start", 3, False), ("SliceScatter-15", "start", [0.5], False),
])
def test_of_kind_is_the_kinds_rule_not_the_versions(op, name, value, want):
    assert sc.codec_of(sc.OPERATORS[op], name).of_kind(value) is want


def test_plain_values_are_python_and_hashable():
    axis = sc.codec_of(SEU, "axis")
    assert _same(axis.plain(np.int64(-1)), -1) and _same(axis.plain(1.5), 1.5)  # another kind: as given
    assert _same(sc.codec_of(SEU, "use_init_val").plain(np.bool_(True)), True)
    assert _same(sc.codec_of(SS, "start").plain([np.int64(1), 2]), (1, 2))
    assert _same(sc.codec_of(TS, "mode").plain("circular"), "circular")
    hash(tuple(sc.codec_of(SS, "start").plain(v) for v in ([1], (2, 3), "0, 1")))


def test_from_onnx_keeps_a_value_of_another_kind_for_the_check_to_name():
    axis, start, init = sc.codec_of(TS, "axis"), sc.codec_of(SS, "start"), sc.codec_of(SEU, "use_init_val")
    assert _same(axis.from_onnx(1.5), 1.5) and _same(axis.from_onnx(-2), -2)
    with pytest.raises(sc.ScatterError, match="axis = 1.5 must be one integer"):
        axis.check(axis.from_onnx(1.5), RANK)
    assert _same(start.from_onnx(5), 5) and _same(start.from_onnx([1, 2.5]), (1, 2.5))
    assert _same(init.from_onnx(1), True) and _same(init.from_onnx(2), 2)
    assert _same(sc.codec_of(TS, "mode").from_onnx(b"linear"), "linear")
