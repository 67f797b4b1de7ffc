"""The one number formatter (scatter_core.formatting.fmt_value)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scatter_core import fmt_value
from scatter_core.formatting import fmt_values
from tests.support.profiles import examples

FLOATS = {
    "float16": st.floats(width=16, allow_nan=False),
    "float32": st.floats(width=32, allow_nan=False),
    "float64": st.floats(width=64, allow_nan=False),
}


@pytest.mark.parametrize("dtype", sorted(FLOATS))
def test_every_float_round_trips_in_its_dtype(dtype):
    @settings(max_examples=examples(300), deadline=None)
    @given(FLOATS[dtype])
    def check(x):
        v = np.dtype(dtype).type(x)
        text = fmt_value(v)
        back = np.dtype(dtype).type(text)
        assert back == v or (np.isnan(back) and np.isnan(v)), (v, text)
        assert np.signbit(back) == np.signbit(v) or v == 0  # -0.0 prints as "-0"
        # the same value given as a Python float with its dtype named prints the same
        assert fmt_value(float(v), dtype) == text
    check()


@given(st.integers(min_value=-2**63, max_value=2**63 - 1),
       st.sampled_from(["int8", "int16", "int32", "int64", "uint8", "uint64"]))
@settings(max_examples=examples(300), deadline=None)
def test_integers_never_print_a_decimal_point(x, dtype):
    info = np.iinfo(dtype)
    v = np.dtype(dtype).type(min(max(x, info.min), info.max))
    text = fmt_value(v)
    assert "." not in text and "e" not in text
    assert int(text) == int(v)


@pytest.mark.parametrize("value, text", [
    (np.float32(1.1), "1.1"),
    (np.float32(98765.43), "98765.43"),
    (np.float64(98765.43), "98765.43"),
    (np.int32(24), "24"),
    (np.float64(1e-7), "1e-07"),
    (np.float64(1e20), "1e+20"),
    (np.float32(2.5), "2.5"),
    (np.float64(np.nan), "nan"),
    (np.float64(-np.inf), "-inf"),
    (np.bool_(True), "true"),
    (7, "7"),
])
def test_known_texts(value, text):
    assert fmt_value(value) == text


def test_python_float_from_float32_prints_short_with_its_dtype():
    # tolist() of a float32 array gives 1.100000023841858; naming the dtype gives "1.1" back
    assert fmt_value(np.float32(1.1).item(), np.float32) == "1.1"


@given(st.floats(allow_nan=False, allow_infinity=False), st.integers(min_value=1, max_value=12))
@settings(max_examples=examples(300), deadline=None)
def test_width_is_respected_and_shortened_text_stays_close(x, width):
    text = fmt_value(np.float64(x), width=width)
    assert len(text) <= width
    if text:
        back = float(text)
        assert back == x or abs(back - x) <= abs(x) * 0.51 + 5e-5  # at least one significant digit


def test_width_keeps_significant_digits_and_drops_what_cannot_fit():
    assert fmt_value(np.float64(0.0539), width=5) == "0.054"
    assert fmt_value(np.float32(98765.43), width=6) == "98765"
    assert fmt_value(np.int64(123456789), width=4) == ""  # an integer is never cut
    assert fmt_value(np.float32(1.1), width=4) == "1.1"


def test_a_narrow_cell_gets_the_exponent_written_short():
    # a 4-character cell of the ScatterNDUpdate-3 layer example was blank: "7e-04" is 5 characters
    assert fmt_value(np.float32(0.0007341504), width=4) == "7e-4"
    assert fmt_value(np.float32(0.0007341504), width=5) == "7e-04"  # the usual form where it fits
    assert fmt_value(np.float64(-2.5e-7), width=5) == "-2e-7"  # round half to even, as NumPy prints it
    assert fmt_value(np.float64(4.2e12), width=4) == "4e12"


def test_fmt_values_names_how_many():
    assert fmt_values(np.array([1.1, 2.2], np.float32)) == "[1.1, 2.2]"
    assert fmt_values(np.arange(20), limit=2) == "[0, 1, … (20 values)]"
