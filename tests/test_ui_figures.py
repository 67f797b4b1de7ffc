"""scatter_ui.figures: cell text that fits the cells it is drawn in."""

import numpy as np

import scatter_core as sc
from scatter_ui.figures import StepFigure, _Formatter, density, panel_units
from scatter_ui.views import make_view


def test_density_follows_the_panel_and_the_whole_figure():
    six = make_view((4, 6))
    assert density(six, units=15) == (4, 12)  # three small panels: room for four digits
    assert density(six, units=19) == (3, 11)
    assert density(six, units=40) == (2, 9)  # many columns in all: every cell is narrow
    assert density(make_view((4, 3)), units=19) == (4, 12)  # 3 columns drawn 5 wide
    assert density(make_view((4, 14)), units=15) == (2, 9)  # a wide panel alone is enough
    assert density(make_view((2, 1)), units=35) == (4, 12)  # one column drawn 5 wide: big cells
    assert panel_units([make_view((2, 2)), make_view((3, 9))]) == [5, 9]


def test_three_panels_of_six_or_seven_columns_get_three_digit_values():
    rng = np.random.default_rng(0)
    data = rng.random((4, 7)).astype(np.float32)
    indices = rng.integers(0, 4, (3, 6))
    updates = (1 + rng.random((3, 6))).astype(np.float32)
    fig = StepFigure(sc.trace("ScatterElements-18", data, indices, updates))
    assert fig.units == 6 + 6 + 7
    traces = fig.figure(5)["data"]
    assert {t["textfont"]["size"] for t in traces} == {11}
    shown = [text for t in traces[1:] for row in t["text"] for text in row if text]
    significant = [text.lstrip("-").replace(".", "").lstrip("0") for text in shown]
    assert shown and all(1 <= len(digits) <= 3 for digits in significant), shown
    assert all(len(text) <= 5 for text in shown if "e" not in text), shown  # 0.0539 shows as 0.054


def test_long_small_numbers_lose_digits_before_they_overflow_the_cell():
    fmt = _Formatter()
    assert fmt.value(np.float32(0.0539), 3) == "0.054"
    assert fmt.value(np.float32(1.6634116), 3) == "1.66"
    assert fmt.value(np.float64(-0.001234), 4) == "-0.001"
    # integers are never rounded: exact when they fit the cell, dropped (hover only) when not
    assert fmt.value(np.int64(12345), 3) == "12345"
    assert fmt.value(np.int64(123456), 3) == ""
