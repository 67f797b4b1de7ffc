"""parse_tensor: every accepted form round-trips, every malformed kind is a ScatterError."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from scatter_core import ScatterError, parse_tensor
from tests.support.profiles import examples

DTYPES = ["bool", "int8", "int32", "int64", "uint8", "float16", "float32", "float64"]


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(DTYPES).flatmap(
    lambda d: hnp.arrays(d, hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4),
                         elements={"allow_nan": False} if d.startswith("float") else None)))
def test_round_trip_every_form(arr):
    with np.printoptions(floatmode="unique", threshold=10**6):  # the default repr rounds to 8 digits
        forms = [repr(arr)]
    if arr.size or arr.ndim <= 1:  # nested lists cannot carry the shape of an empty (0, n) array
        forms += [json.dumps(arr.tolist()), str(arr.tolist())]
    if arr.ndim and arr.size:
        forms.append(np.array2string(arr, separator=" ", threshold=10**6, floatmode="unique"))
    for text in forms:
        got = parse_tensor(text, dtype=arr.dtype)
        assert got.dtype == arr.dtype and got.shape == arr.shape, text
        assert got.tobytes() == arr.tobytes(), text


@pytest.mark.parametrize("text,dtype,shape", [
    ("[[1, 2], [3, 4]]", "int64", (2, 2)),
    ("array([[1, 2]], dtype=int32)", "int32", (1, 2)),
    ("numpy.array([1.5, -2e3])", "float64", (2,)),
    ("[1, 2, 3,]", "int64", (3,)),
    ("  [\n [1 2]\n [3 4]\n]  ", "int64", (2, 2)),
    ("[True, false]", "bool", (2,)),
    ("7", "int64", ()),
    ("[]", "int64", (0,)),
    ("array([1, 2], dtype='float32')", "float32", (2,)),
])
def test_accepted_forms(text, dtype, shape):
    got = parse_tensor(text)
    assert got.dtype == np.dtype(dtype) and got.shape == shape


@pytest.mark.parametrize("text,kwargs,pattern", [
    ("[[1, 2], [3]]", {}, r"ragged nesting.*line 1, column 10"),
    ("[[1, 2], 3]", {}, r"ragged"),
    ("[1, a]", {}, r"'a' is not a number at line 1, column 5"),
    ("__import__('os').system('x')", {}, r"not a number"),
    ("[1, 2", {}, r"missing '\]'"),
    ("[" * 40 + "1" + "]" * 40, {}, r"deeper than 32"),
    ("[1.5]", {"dtype": "int8"}, r"1.5 is not an integer"),
    ("[300]", {"dtype": "int8"}, r"300 does not fit in int8"),
    ("[70000.0]", {"dtype": "float16"}, r"overflows float16"),
    ("", {}, r"empty"),
    ("[1] [2]", {}, r"unexpected '\['"),
    ("array([1], dtype=object)", {}, r"dtype 'object'"),
    ("array([1], copy=True)", {}, r"only dtype= or shape="),
    ("[1e400]", {}, r"too large"),
    ("[1, 2, 3]", {"max_elements": 2}, r"more than 2 numbers"),
    ("[1; 2]", {}, r"unexpected character ';'"),
    ("{'a': 1}", {}, r"unexpected character"),
    ("[2]", {"dtype": "bool"}, r"not a bool"),
])
def test_rejections_name_the_problem(text, kwargs, pattern):
    with pytest.raises(ScatterError, match=pattern) as info:
        parse_tensor(text, name="data", **kwargs)
    assert info.value.argument == "data" and str(info.value).startswith("data: ")


def test_huge_text_is_refused_before_parsing():
    with pytest.raises(ScatterError, match="limit"):
        parse_tensor("[" + "1," * 1_500_000 + "]")


@settings(max_examples=examples(500), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("[](),=.-+eE0123456789 \nTrueFalsnaiyd_'\"xarypdtfl")), max_size=60))
def test_fuzz_only_scatter_errors(text):
    try:
        parse_tensor(text)
    except ScatterError:
        pass


# -- bounded work: digits, shapes, tokens, operations ---------------------------------------------------

@pytest.mark.parametrize("text,column", [
    ("1" * 5000, 1),
    ("[1, " + "9" * 5000 + "]", 5),
    ("array([" + "-" + "4" * 4400 + "], dtype=int64)", 8),
    ("[0." + "3" * 5000 + "]", 2),
])
def test_a_number_with_thousands_of_digits_is_refused_at_its_position(text, column):
    with pytest.raises(ScatterError, match=rf"digits is too long .* at line 1, column {column}$") as info:
        parse_tensor(text, name="data")
    assert info.value.argument == "data" and str(info.value).startswith("data: ")


@pytest.mark.parametrize("text", [
    "array([], shape=(0, 2147483648, 2147483648), dtype=float32)",
    "array([], shape=(2147483648, 0), dtype=float32)",
    "array([], shape=(0, 100001))",
    "array([], shape=(0," + " 1," * 40 + "))",
    "array([], shape=((0, 1),))",
    "array([], shape=(0, -1))",
])
def test_an_empty_array_with_huge_or_malformed_axes_is_refused(text):
    with pytest.raises(ScatterError, match=r"shape=") as info:
        parse_tensor(text, name="indices", max_elements=100_000)
    assert info.value.argument == "indices"


def test_an_empty_array_with_modest_axes_parses():
    assert parse_tensor("array([], shape=(0, 3, 7), dtype=float32)", max_elements=21).shape == (0, 3, 7)


def test_pages_of_empty_lists_stop_at_the_token_bound():
    from scatter_core.parsing import TOKENS_PER_ELEMENT, parse_work

    text = "[" + "[]," * 600_000 + "]"  # 1.8 MB that holds no number at all
    with pytest.raises(ScatterError, match="brackets, commas and numbers") as info:
        parse_tensor(text, name="data", max_elements=10_000)
    assert info.value.argument == "data"
    # the parse stopped near the bound: its work is set by the element limit, not by the text's length
    assert parse_work(text, max_elements=10_000) < 2 * TOKENS_PER_ELEMENT * 10_000 + 1_000


# a tensor of 10,000 unit-axis numbers at rank 4 still fits the token bound
def test_the_token_bound_leaves_room_for_unit_axes():
    text = "[" + ",".join(["[[[1]]]"] * 10_000) + "]"
    assert parse_tensor(text, max_elements=10_000).shape == (10_000, 1, 1, 1)


PIECES = ["[", "]", ",", " ", "1", "-2.5", "[],", "[[1, 2]],", "((", "))", "1e999", "array(", "shape=(0, 3)",
          ", dtype=int8)", "true", "'x'", "\n", "[[[[", "]]]]", "9" * 50]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=400), st.sampled_from([2, 100, 10_000, 1_000_000]))
def test_parse_work_is_linear_in_the_text_length(pieces, max_elements):
    """Operation count (tokens read + nodes built and visited), not wall time: at most
    WORK_PER_CHARACTER (6) operations per character of text, plus a constant 16, on any text."""
    from scatter_core.parsing import WORK_PER_CHARACTER, parse_work

    text = "".join(pieces)
    if not text.strip():
        return
    assert parse_work(text, max_elements=max_elements) <= WORK_PER_CHARACTER * len(text) + 16


@pytest.mark.slow
@pytest.mark.parametrize("unit", ["[],", "1,", "[[1]],", " ", "[" * 30 + "1" + "]" * 30 + ","])
def test_parse_work_grows_linearly_with_repetition(unit):
    from scatter_core.parsing import WORK_PER_CHARACTER, parse_work

    for n in (10, 1_000, 30_000):
        text = "[" + unit * n + "]"
        assert parse_work(text) <= WORK_PER_CHARACTER * len(text) + 16, (unit, n)
