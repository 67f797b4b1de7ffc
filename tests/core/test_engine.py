"""scatter(): the seed examples, the attribute rules and every invalid-input rule."""

import numpy as np
import pytest

import scatter_core as sc
from scatter_core import ScatterError, scatter
from tests.support.spec_data import ND_DATA, ND_OUT, ND_UPD


@pytest.mark.parametrize("op", ["ScatterND-11", "ScatterND-13", "ScatterND-16", "ScatterND-18",
                                "ScatterNDUpdate-3", "ScatterNDUpdate-15"])
def test_nd_seed_examples(op):
    out = scatter(op, [1, 2, 3, 4, 5, 6, 7, 8], [[4], [3], [1], [7]], [9, 10, 11, 12])
    assert out.tolist() == [1, 11, 3, 10, 9, 6, 7, 12]
    assert scatter(op, ND_DATA, [[0], [2]], ND_UPD).tolist() == ND_OUT


@pytest.mark.parametrize("op", ["Scatter-9", "Scatter-11", "ScatterElements-11", "ScatterElements-18"])
def test_scatter_seed_examples(op):
    data = np.zeros((3, 3), dtype=np.float32)
    upd = np.array([[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]], dtype=np.float32)
    out = scatter(op, data, [[1, 0, 2], [0, 2, 1]], upd)
    np.testing.assert_array_equal(out, np.array([[2.0, 1.1, 0.0], [1.0, 0.0, 2.2], [0.0, 2.1, 1.2]], np.float32))
    out = scatter(op, np.float32([[1.0, 2.0, 3.0, 4.0, 5.0]]), [[1, 3]], np.float32([[1.1, 2.1]]), axis=1)
    np.testing.assert_array_equal(out, np.float32([[1.0, 1.1, 3.0, 2.1, 5.0]]))


def test_scatter_elements_update_12_seed_examples():
    op = "ScatterElementsUpdate-12"
    assert scatter(op, [2, 3, 4, 6], [1, 0, 0, -2, -1, 2], [10, 20, 30, 40, 70, 60],
                   axis=0, reduction="sum").tolist() == [52, 13, 104, 76]
    assert scatter(op, [2, 3, 4, 6], [1, 0, 0, 2, 3, 2], [10, 20, 30, 40, 70, 60],
                   axis=0, reduction="sum", use_init_val=False).tolist() == [50, 10, 100, 70]
    z = np.zeros((3, 4), np.int32)
    assert scatter(op, z, [[1, 2], [0, 3]], [[11, 12], [13, 14]], axis=1).tolist() == \
        [[0, 11, 12, 0], [13, 0, 0, 14], [0, 0, 0, 0]]
    assert scatter(op, z + 1, [[1, 1], [0, 3]], [[11, 12], [13, 14]], axis=1, reduction="sum").tolist() == \
        [[1, 24, 1, 1], [14, 1, 1, 15], [1, 1, 1, 1]]
    assert scatter(op, z + 2, [[1, 1], [0, 3]], [[11, 12], [13, 14]], axis=1, reduction="prod").tolist() == \
        [[2, 264, 2, 2], [26, 2, 2, 28], [2, 2, 2, 2]]


def test_output_keeps_data_shape_and_dtype():
    data = np.arange(6, dtype=np.int16).reshape(2, 3)
    out = scatter("ScatterElements-11", data, np.zeros((1, 3), np.int64), np.full((1, 3), 9, np.int16))
    assert out.dtype == np.int16 and out.shape == (2, 3)
    assert data.tolist() == [[0, 1, 2], [3, 4, 5]]  # input untouched
    assert out.tolist() == [[9, 9, 9], [3, 4, 5]]


# -- reductions and their exact results (docs/semantics.md) --------------------------
USE_INIT = dict(data=[100, -100, 7, 7], indices=[0, 1, 0, 1], updates=[5, -5, 3, -3])


@pytest.mark.parametrize("reduction,with_init,without_init", [
    ("sum", [108, -108, 7, 7], [8, -8, 7, 7]),
    ("prod", [1500, -1500, 7, 7], [15, 15, 7, 7]),
    ("min", [3, -100, 7, 7], [3, -5, 7, 7]),
    ("max", [100, -3, 7, 7], [5, -3, 7, 7]),
    ("mean", [36, -36, 7, 7], [4, -4, 7, 7]),
])
def test_use_init_val(reduction, with_init, without_init):
    op = "ScatterElementsUpdate-12"
    args = (np.int32(USE_INIT["data"]), USE_INIT["indices"], np.int32(USE_INIT["updates"]))
    assert scatter(op, *args, axis=0, reduction=reduction).tolist() == with_init
    assert scatter(op, *args, axis=0, reduction=reduction, use_init_val=False).tolist() == without_init


def test_integer_mean_floors():
    op = "ScatterElementsUpdate-12"
    assert scatter(op, np.int32([0]), [0], np.int32([-3]), axis=0, reduction="mean").tolist() == [-2]
    assert scatter(op, np.int32([0]), [0, 0], np.int32([-1, -2]), axis=0, reduction="mean",
                   use_init_val=False).tolist() == [-2]
    assert scatter(op, np.int32([0]), [0, 0], np.int32([-2, -2]), axis=0, reduction="mean").tolist() == [-2]
    assert scatter(op, np.int32([1]), [0, 0], np.int32([3, 3]), axis=0, reduction="mean").tolist() == [2]


def test_float_mean_divides_once():
    out = scatter("ScatterElementsUpdate-12", np.float32([1, 5]), [0, 0, 1], np.float32([2, 4, 1]),
                  axis=0, reduction="mean")
    np.testing.assert_array_equal(out, np.float32([7 / 3, 3]))


def test_integer_arithmetic_wraps():
    i8 = np.int8
    assert scatter("ScatterND-16", i8([120]), [[0], [0]], i8([5, 5]), reduction="add").tolist() == [-126]
    assert scatter("ScatterND-16", i8([100]), [[0]], i8([3]), reduction="mul").tolist() == [44]
    assert scatter("ScatterElementsUpdate-12", i8([120]), [0, 0], i8([120, 120]), axis=0,
                   reduction="mean").tolist() == [34]


@pytest.mark.parametrize("reduction,expected", [("sum", [True, True, False]), ("prod", [False, True, False]),
                                                ("max", [True, True, False]), ("min", [False, True, False])])
def test_bool_reductions_are_logical(reduction, expected):
    out = scatter("ScatterElementsUpdate-12", [False, True, False], [0, 0, 1], [True, False, True],
                  axis=0, reduction=reduction)
    # cell 0: False op True op False; cell 1: True op True
    assert out.dtype == np.bool_ and out.tolist() == expected


def test_bool_sub_is_xor_and_bool_mean_is_refused():
    out = scatter("ScatterNDUpdate-15", [True, False], [[0], [1], [1]], [True, True, True], reduction="sub")
    assert out.tolist() == [False, False]
    with pytest.raises(ScatterError, match="mean.*bool"):
        scatter("ScatterElementsUpdate-12", [True], [0], [True], axis=0, reduction="mean")


def test_sub_example_from_the_openvino_text():
    out = scatter("ScatterNDUpdate-15", [1, 2, 3, 4], [[0], [2], [-3], [-3], [0]], [10, 20, 30, 40, 50],
                  reduction="sub")
    assert out.tolist() == [-59, -68, -17, 4]


def test_nd_k_zero_updates_the_whole_tensor():
    data = np.arange(4).reshape(2, 2)
    out = scatter("ScatterND-16", data, np.zeros((2, 0), np.int64), np.full((2, 2, 2), 7), reduction="add")
    assert out.tolist() == (data + 14).tolist()


def test_scatter_update_slices_along_axis():
    data = np.zeros((3, 4), np.int32)
    out = scatter("ScatterUpdate-3", data, [[2, 0]], np.arange(6, dtype=np.int32).reshape(3, 1, 2), axis=1)
    assert out.tolist() == [[1, 0, 0, 0], [3, 0, 2, 0], [5, 0, 4, 0]]
    out = scatter("ScatterUpdate-3", data, 1, np.int32([1, 2, 3, 4]), axis=0)  # 0-d indices
    assert out.tolist() == [[0, 0, 0, 0], [1, 2, 3, 4], [0, 0, 0, 0]]


def test_duplicates_with_none_last_write_wins():
    assert scatter("ScatterND-11", [0, 0], [[0], [0], [1]], [1, 2, 3]).tolist() == [2, 3]


def test_out_buffer():
    data = np.arange(4, dtype=np.float32)
    buf = np.empty_like(data)
    res = scatter("ScatterND-18", data, [[1]], np.float32([9]), out=buf)
    assert res is buf and buf.tolist() == [0, 9, 2, 3]
    with pytest.raises(ScatterError, match="out"):
        scatter("ScatterND-18", data, [[1]], np.float32([9]), out=np.empty(3, np.float32))
    buf[...] = -1  # invalid inputs are refused before out is written
    with pytest.raises(ScatterError, match="indices"):
        scatter("ScatterND-18", data, [[7]], np.float32([9]), out=buf)
    assert buf.tolist() == [-1, -1, -1, -1]
    assert scatter("ScatterND-18", buf, [[2]], np.float32([5]), out=buf) is buf  # in place
    assert buf.tolist() == [-1, -1, 5, -1]
    shared = np.arange(6, dtype=np.float32)  # out overlaps data without being it: copied correctly
    res = scatter("ScatterND-18", shared[:5], [[0]], np.float32([9]), out=shared[1:])
    assert res.tolist() == [9, 1, 2, 3, 4] and shared.tolist() == [0, 9, 1, 2, 3, 4]


# -- invalid inputs: each names the input and the rule ------------------------------
@pytest.mark.parametrize("call,argument,pattern", [
    (lambda: scatter("ScatterElements-18", np.zeros((2, 4)), [[0, 5]], [[1.0, 2.0]], axis=1),
     "indices", r"indices\[0, 1\] = 5 is out of range for axis 1 of data with size 4 \(allowed -4\.\.3\)"),
    (lambda: scatter("ScatterElements-18", np.zeros(4), [-5], [1.0]),
     "indices", r"indices\[0\] = -5 is out of range .*allowed -4\.\.3"),
    (lambda: scatter("ScatterElementsUpdate-3", np.zeros(4), [-1], [1.0], axis=0),
     "indices", r"indices\[0\] = -1 is negative.*0\.\.3.*accept negative"),
    (lambda: scatter("ScatterUpdate-3", np.zeros((2, 2)), [-1], np.zeros((1, 2)), axis=0),
     "indices", r"negative"),
    (lambda: scatter("ScatterNDUpdate-3", np.zeros(4), [[-1]], [1.0]), "indices", r"negative"),
    (lambda: scatter("ScatterND-16", np.zeros((2, 3)), [[1, 3]], [1.0]),
     "indices", r"indices\[0, 1\] = 3 is out of range for axis 1 of data with size 3"),
    (lambda: scatter("ScatterND-16", np.zeros(4), [[0]], [1.0], reduction="max"),
     "reduction", r"'max' is not allowed by ScatterND-16; allowed: 'none', 'add', 'mul'.*arrives in ScatterND-18"),
    (lambda: scatter("ScatterND-18", np.zeros(4), [[0]], [1.0], reduction="sum"),
     "reduction", r"ONNX spells it 'add'"),
    (lambda: scatter("ScatterNDUpdate-15", np.zeros(4), [[0]], [1.0], reduction="SUM"),
     "reduction", r"lower case"),
    (lambda: scatter("ScatterND-11", np.zeros(4), [[0]], [1.0], reduction="add"), "reduction", r"allowed: 'none' \('add' arrives in ScatterND-16\)"),
    (lambda: scatter("ScatterND-16", np.zeros(4), [[0]], [1.0], axis=0), "axis", r"not an attribute of ScatterND-16"),
    (lambda: scatter("ScatterElements-18", np.zeros((2, 2)), [[0, 0]], [[1.0, 1.0]], axis=2),
     "axis", r"axis = 2 is out of range for data of rank 2 \(allowed -2\.\.1\)"),
    (lambda: scatter("ScatterElementsUpdate-12", np.zeros(2), [0], [1.0]), "axis", r"required input"),
    (lambda: scatter("ScatterElements-18", np.zeros((2, 2)), [0, 0], [1.0, 1.0]), "indices", r"rank 1.*rank of data, 2"),
    (lambda: scatter("ScatterElements-18", np.zeros((2, 2)), [[0, 0]], [[1.0]]), "updates", r"shape \(1, 1\).*\(1, 2\)"),
    (lambda: scatter("ScatterElements-18", np.zeros((2, 2)), [[0, 0, 0]], [[1.0] * 3]),
     "indices", r"indices.shape\[1\] = 3 exceeds data.shape\[1\] = 2"),
    (lambda: scatter("ScatterElementsUpdate-3", np.zeros((2, 2)), np.zeros((3, 2), int), np.zeros((3, 2)), axis=0),
     "indices", r"indices.shape\[0\] = 3 exceeds data.shape\[0\] = 2.*the axis"),
    (lambda: scatter("ScatterND-18", np.zeros(2), [[0, 0]], [1.0]), "indices", r"indices.shape\[-1\] = 2 is larger"),
    (lambda: scatter("ScatterND-18", np.zeros((2, 2)), [[0]], [1.0, 2.0, 3.0]), "updates", r"\(1,\) \+ \(2,\) = \(1, 2\)"),
    (lambda: scatter("ScatterND-18", np.zeros(2), np.int64(0), 1.0), "indices", r"rank q >= 1"),
    (lambda: scatter("ScatterND-18", np.zeros(2), np.array([[0]], np.int32), [1.0]), "indices", r"int32.*int64"),
    (lambda: scatter("ScatterElements-18", np.zeros(2), [0.5], [1.0]), "indices", r"dtype float64"),
    (lambda: scatter("ScatterElements-18", np.zeros(2), [True], [1.0]), "indices", r"dtype bool"),
    (lambda: scatter("ScatterElements-18", np.zeros(2, np.int32), [0], [1.5]), "updates", r"1\.5.*into 1"),
    (lambda: scatter("ScatterElements-18", ["a", "b"], [0], ["c"]), "data", r"dtype <U1.*string"),
    (lambda: scatter("ScatterElements-18", [1j, 2j], [0], [1j]), "data", r"complex"),
    (lambda: scatter("ScatterElements-18", [[1], [1, 2]], [0], [1]), "data", r"could not be read|object"),
    (lambda: scatter("ScatterElements-18", 1.0, 0, 1.0), "data", r"rank >= 1"),
    (lambda: scatter("NoSuchOp-1", [1], [0], [1]), "op", r"not a known operator"),
    (lambda: scatter("ScatterElementsUpdate-12", [1], [0], [1], axis=0, use_init_val="yes"), "use_init_val", r"true or false"),
    (lambda: scatter("ScatterElementsUpdate-12", [1], [0], [1], axis=[0, 1]), "axis", r"one integer"),
])
def test_invalid_inputs_raise_scatter_error_naming_the_input(call, argument, pattern):
    with pytest.raises(ScatterError, match=pattern) as info:
        call()
    assert info.value.argument == argument
    assert isinstance(info.value, ValueError)


def test_reduction_none_is_accepted_by_versions_without_the_attribute():
    assert scatter("ScatterND-11", [1, 2], [[0]], [5], reduction="none").tolist() == [5, 2]


def test_one_element_updates_for_a_scalar_slice_on_openvino_nd():
    assert scatter("ScatterNDUpdate-3", np.zeros((2, 2)), [0, 1], [7.0]).tolist() == [[0, 7], [0, 0]]
    with pytest.raises(ScatterError, match="updates has shape"):
        scatter("ScatterND-18", np.zeros((2, 2)), [0, 1], [7.0])


# -- one element type T for data and updates ------------------------------------------------------------
@pytest.mark.parametrize("updates", [np.uint32([1, 2]), np.int32([1, 2]), np.float64([1, 2]), np.float16([1, 2]),
                                     sc.parse_tensor("array([1, 2], dtype=int32)"),
                                     sc.parse_tensor("[1.0, 2.0]", dtype="float64")])
def test_typed_updates_of_another_dtype_are_refused(updates):
    with pytest.raises(sc.ScatterError) as exc:
        scatter("ScatterElements-18", np.zeros(3, np.float32), [0, 1], updates, axis=0)
    msg = str(exc.value)
    assert exc.value.argument == "updates" and exc.value.rule == "dtype-mismatch"
    assert f"updates has dtype {np.asarray(updates).dtype} but data has dtype float32" in msg
    assert "one element type T" in msg


@pytest.mark.parametrize("updates", [[1, 2], (1, 2), sc.parse_tensor("[1, 2]"), sc.parse_tensor("array([1, 2])")])
def test_untyped_updates_take_datas_dtype_and_a_finding_says_so(updates):
    data = np.zeros(3, np.float32)
    out = scatter("ScatterElements-18", data, [0, 1], updates, axis=0)
    assert out.dtype == np.float32 and out.tolist() == [1, 2, 0]
    t = sc.trace(sc.case("ScatterElements-18", data, [0, 1], updates, axis=0))
    note = next(f for f in t.findings if f.kind == "updates-dtype")
    assert "without a dtype (int64 by their values)" in note.message and "float32" in note.message
    assert sc.scatter("ScatterND-18", data, [0], 7).tolist() == [7, 0, 0]  # a Python scalar too


def test_typed_updates_of_datas_dtype_need_no_note():
    t = sc.trace(sc.case("ScatterElements-18", np.zeros(3, np.float32), [0], np.float32([1]), axis=0))
    assert "updates-dtype" not in [f.kind for f in t.findings]


def test_untyped_marks():
    assert not sc.checks.is_typed([1]) and not sc.checks.is_typed(sc.untyped([1])) and not sc.checks.is_typed(2.5)
    assert sc.checks.is_typed(np.int8([1])) and sc.checks.is_typed(np.float32(1))
    assert type(np.asarray(sc.untyped([1]))) is np.ndarray


def test_attributes_beyond_axis_reduction_use_init_val_are_checked_by_kind():
    """A new family's attributes (mode, start ...) need no engine code: the AttrSpec kind decides."""
    import dataclasses

    from scatter_core.attributes import resolve_attrs
    from scatter_core.spec import AttrSpec

    spec = dataclasses.replace(sc.OPERATORS["ScatterND-18"], attributes=sc.OPERATORS["ScatterND-18"].attributes + (
        AttrSpec("mode", "str", default="linear", choices=("linear", "circular")),
        AttrSpec("start", "ints", required=True), AttrSpec("axes", "ints"), AttrSpec("k", "int", default=1),
        AttrSpec("flag", "bool", default=False)))
    r = resolve_attrs(spec, {"start": np.int64([0, -1]), "mode": "circular"}, 2)
    assert r["start"] == (0, -1) and r["mode"] == "circular" and r.get("axes") is None and r["k"] == 1
    assert r.as_attrs(spec)["flag"] is False and r.reduction == "none"
    for attrs, match in [({}, "start is a required attribute"), ({"start": [0], "mode": "wrap"},
                                                                  r"mode = 'wrap' is not allowed.*'linear', 'circular'"),
                         ({"start": [[0]]}, "start = .* must be a list of integers"),
                         ({"start": [0.5]}, "must be a list of integers"), ({"start": [0], "k": 1.5}, "one integer"),
                         ({"start": [0], "flag": 2}, "flag = 2 must be true or false")]:
        with pytest.raises(ScatterError, match=match):
            resolve_attrs(spec, attrs, 2)
