"""parse_tensor: every accepted form round-trips, every malformed kind is a ScatterError."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from scatter_core import ScatterError, parse_tensor

DTYPES = ["bool", "int8", "int32", "int64", "uint8", "float16", "float32", "float64"]


@settings(max_examples=200, deadline=None)
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


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("[](),=.-+eE0123456789 \nTrueFalsnaiyd_'\"xarypdtfl")), max_size=60))
def test_fuzz_only_scatter_errors(text):
    try:
        parse_tensor(text)
    except ScatterError:
        pass
