"""scatter_ui.figures.views: every displayed cell maps back to the right tensor position."""

import numpy as np
import pytest

from scatter_ui.figures.views import FIGURE_ROWS, MAX_PANELS, MAX_SIDE, MIN_ROW_WINDOW, make_view, row_window


@pytest.mark.parametrize("shape,focus", [
    ((5,), None), ((3, 4), None), ((4, 4, 4), None), ((2, 3, 4, 5), (1, 2, 3, 4)),
    ((1000, 256, 7, 7), (412, 3, 2, 1)), ((25, 125, 3), (3, 100, 1)), ((2, 3, 40, 50), (1, 2, 30, 45)),
    ((12, 3, 3), (7, 1, 1)), ((), None),
])
def test_cells_match_positions(shape, focus):
    v = make_view(shape, focus)
    cells = v.cells()
    assert cells.shape == v.canvas_shape
    tensor_shape = shape or (1,)
    visible = cells[cells >= 0]
    coords = np.stack(np.unravel_index(visible, tensor_shape), axis=-1)
    rows, cols, ok = v.locate(coords)
    assert ok.all()
    assert (cells[rows, cols] == visible).all()
    assert v.row_len <= MAX_SIDE and v.col_len <= MAX_SIDE
    assert len(v.panels) <= MAX_PANELS
    if focus is not None:
        r, c, seen = v.locate(np.array([focus]))
        assert seen[0], "the focus cell is always on screen"


def test_row_zero_is_the_first_canvas_row_and_panels_are_labelled():
    v = make_view((3, 2, 2))
    assert v.cells()[0, 0] == 0
    assert v.label("output", 1) == "output[1, :, :]"
    big = make_view((1000, 256, 7, 7), (5, 6, 0, 0))
    assert big.label("data") == "data[5, 6, :, :]"


@pytest.mark.parametrize("shape,panel_axis", [((4, 3, 2), 0), ((4, 3, 2), 1), ((4, 3, 2), 2), ((2, 3, 4, 5), 1),
                                              ((20, 3, 4), 0)])
def test_chosen_panel_axis(shape, panel_axis):
    v = make_view(shape, panel_axis=panel_axis)
    ref = np.arange(int(np.prod(shape))).reshape(shape)
    assert panel_axis not in (v.row_axis, v.col_axis)
    assert (v.panel_axis == panel_axis) == (shape[panel_axis] <= MAX_PANELS)
    cells = v.cells()
    for p, panel in enumerate(v.panels or (None,)):
        block = ref[v.slices(panel)].reshape(v.row_len, v.col_len)
        off = v.panel_offset(p)
        assert (cells[:, off:off + v.col_len] == block).all()


@pytest.mark.parametrize("shape, focus, beside, rows", [
    ((25, 125, 3), (3, 100, 1), 10, MIN_ROW_WINDOW),  # a layer's indices over a 10-row output: the fewest rows
    ((125, 20), (7, 4), 1, FIGURE_ROWS - 1),  # a stand-in's indices over a 1-row output
    ((125, 20), (124, 0), 1, FIGURE_ROWS - 1),  # the window ends at the last row
    ((24, 5), (23, 0), 10, 24),  # MAX_SIDE rows or fewer are all shown
])
def test_a_long_row_axis_shows_the_rows_a_projector_has_room_for(shape, focus, beside, rows):
    v = make_view(shape, focus, rows=row_window(beside))
    assert v.row_len == rows
    assert v.locate(np.array([focus]))[2][0]  # the step's cell is in the window
    assert v.row_start + v.row_len <= shape[-2]
    if rows < shape[-2]:
        assert f"{v.row_start}:{v.row_start + rows}" in v.label("indices")


def test_a_tall_window_shows_max_side_rows_of_a_long_row_axis():
    """Over 820 px tall (the player sizes cells by the width there) a long input's window is MAX_SIDE rows, the
    step's row in it and the label saying which; a projector keeps its few rows."""
    assert row_window(10, tall=True) == MAX_SIDE and row_window(10) == MIN_ROW_WINDOW
    v = make_view((25, 125, 3), (3, 100, 1), rows=row_window(10, tall=True))
    assert v.row_len == MAX_SIDE and v.locate(np.array([(3, 100, 1)]))[2][0]
    assert f"{v.row_start}:{v.row_start + MAX_SIDE}" in v.label("indices")
