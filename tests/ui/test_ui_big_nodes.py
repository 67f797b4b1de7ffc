"""Big nodes on "Your model" (issue #32 §7): the values kept off the colour scale (±inf, a dtype's extremes that
exporters write as the fill of a max or min) and "Go to a cell", the steps that write one output cell."""

from __future__ import annotations

import numpy as np
import pytest

import scatter_core as sc
from scatter_ui.figures import heatmaps as figures
from scatter_ui.figures.history import CellHistory, cell_writes, parse_cell
from scatter_ui.player.contract import APART, DARK_APART, VALUE_SCALE, banded, check_payload
from scatter_ui.player.component import payload, read_payload

LOW = np.finfo(np.float32).min


def gnn_max(edges: int = 12, nodes: int = 6):
    """A GNN's max aggregation as an exporter writes it: data filled with float32's lowest, one row per node."""
    rng = np.random.default_rng(0)
    data = np.full((nodes, 2), LOW, dtype=np.float32)
    dst = np.repeat(rng.integers(0, nodes - 2, (edges, 1)), 2, axis=1).astype(np.int64)  # the last 2 get nothing
    x = (rng.integers(-8, 9, (edges, 2)) / 4).astype(np.float32)
    return sc.case("ScatterElements-18", data, dst, x, axis=0, reduction="max")


def test_fill_values_and_infinities_are_kept_apart_and_do_not_set_the_scale():
    assert figures.apart(np.array([LOW, -np.inf, np.inf, 1.0, np.finfo(np.float32).max], np.float32)).tolist() == \
        [True, True, True, False, True]
    assert figures.apart(np.array([-2**31, 7, 2**31 - 1], np.int32)).tolist() == [True, False, True]
    assert not figures.apart(np.array([0, 255], np.uint8)).any()  # narrow integers keep their extremes
    trace = gnn_max().trace()
    lo, hi = figures.value_range(trace)
    real = trace.updates
    assert (lo, hi) == (float(real.min()), float(real.max()))  # what the scale spans: the real values only
    note = figures.scale_note(trace)
    assert note.startswith("grey: cells holding -3.4028235e+38") and "float32" in note and "fill of a max" in note
    plain = sc.case("ScatterElements-18", np.zeros((3, 2), np.float32), np.zeros((1, 2), np.int64),
                    np.ones((1, 2), np.float32), axis=0).trace()
    assert figures.scale_note(plain) is None


def test_the_figure_draws_kept_apart_cells_in_the_grey_band_and_says_so():
    trace = gnn_max().trace()
    sf = figures.StepFigure(trace)
    fig = sf.figure(0)
    axis = fig["layout"]["coloraxis"]
    assert axis["cmin"] == sf.floor < sf.zmin and axis["colorscale"] == banded(VALUE_SCALE, APART)
    band = figures.APART_BAND
    assert abs((sf.floor - sf.zmin) / (sf.floor - sf.zmax) - band) < 1e-12  # the band's share of the axis
    out = np.array(fig["data"][2]["z"], dtype=float)
    assert (out[-2:] == sf.floor).all()  # the two nodes no edge reaches keep the fill: grey, not blank
    text = fig["data"][2]["text"]
    assert text[-1][0] == "-3e+38"  # their text still says the value
    assert ((out[:-2] >= sf.zmin) & (out[:-2] <= sf.zmax) | (out[:-2] == sf.floor)).all()
    data = read_payload(payload(fig, {"view": "v", "step": 0, "name": "n", "report": False, "url_param": None,
                                      "plotly_url": "p", "contract_url": "c", "check": False, "controls": None,
                                      "room_below": None}))
    check_payload(data)
    assert data["apart"]["note"] == figures.scale_note(trace)
    assert data["apart"]["dark"][0] == [0.0, DARK_APART] and data["apart"]["light"][0] == [0.0, APART]


def test_a_figure_without_fill_values_is_as_before():
    trace = sc.case("ScatterElements-18", np.zeros((3, 2), np.float32), np.zeros((1, 2), np.int64),
                    np.full((1, 2), 5, np.float32), axis=0).trace()
    fig = figures.StepFigure(trace).figure(1)
    assert fig["apart"] is None and fig["layout"]["coloraxis"]["cmin"] == 0.0
    assert fig["layout"]["coloraxis"]["colorscale"] == VALUE_SCALE


def test_the_comparison_figure_bands_its_scale_only_when_a_side_holds_a_fill():
    case = gnn_max()
    trace = case.trace()
    exact = case.run()
    fig = figures.comparison_figure(sc.Comparison(trace, exact, exact, np.array([], np.int64)), ("a", "b"), dark=False)
    assert fig.layout.coloraxis.colorscale[0][1] == APART and fig.layout.coloraxis.cmin < float(trace.updates.min())


@pytest.mark.parametrize("text,want", [("2, 1", (2, 1)), ("[2, 1]", (2, 1)), ("(2 1)", (2, 1)), (" 0,0 ", (0, 0))])
def test_a_cell_typed_as_its_coordinates(text, want):
    assert parse_cell(text, (6, 2)) == want


@pytest.mark.parametrize("text,says", [("", "2 coordinate"), ("2", "2 coordinate(s), not 1"),
                                       ("6, 0", "coordinate 6 on axis 0 is outside 0..5"),
                                       ("-1, 0", "outside 0..5"), ("a, b", "is not 2 whole number")])
def test_a_cell_that_is_not_one_says_why(text, says):
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        parse_cell(text, (6, 2))


def test_go_to_a_cell_lists_only_the_steps_that_write_it():
    case = gnn_max(edges=40)
    trace = case.trace()
    history = CellHistory(trace)
    for row in range(6):
        cell = (row, 1)
        rows = cell_writes(trace, history, cell)
        wanted = [i + 1 for i in range(len(trace)) if any(tuple(c) == cell for c in trace.target_cells(i))]
        assert [r["step"] for r in rows] == wanted  # exactly the steps that write it, in order
        value = trace.data[cell]
        for r in rows:  # each row's before is the value the previous write left
            step = r["step"] - 1
            assert r["before"] == sc.fmt_value(value)
            value = trace.after[step][0]
            assert r["after"] == sc.fmt_value(value)
            assert r["reads"] == f"updates{sc.fmt_pos(tuple(trace.source_cells(step)[0]))}"
        if row >= 4:
            assert rows == []  # never written: it keeps the fill
    assert rows == [] and trace.data[(5, 1)] == LOW
