"""scatter_ui.figures.heatmaps: cell text that fits the cells it is drawn in."""

import re

import numpy as np

import scatter_core as sc
from scatter_ui.figures.heatmaps import StepFigure, Formatter, density, panel_units
from scatter_ui.figures.views import make_view


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
    fig = StepFigure(sc.trace(sc.case("ScatterElements-18", data, indices, updates)))
    assert fig.units == 6 + 6 + 7
    traces = fig.figure(5)["data"]
    assert {t["textfont"]["size"] for t in traces} == {11}
    shown = [text for t in traces[1:] for row in t["text"] for text in row if text]
    significant = [text.lstrip("-").replace(".", "").lstrip("0") for text in shown]
    assert shown and all(1 <= len(digits) <= 3 for digits in significant), shown
    assert all(len(text) <= 5 for text in shown if "e" not in text), shown  # 0.0539 shows as 0.054


def test_long_small_numbers_lose_digits_before_they_overflow_the_cell():
    fmt = Formatter()
    assert fmt.value(np.float32(0.0539), 3) == "0.054"
    assert fmt.value(np.float32(1.6634116), 3) == "1.66"
    assert fmt.value(np.float64(-0.001234), 4) == "-0.001"
    # integers are never rounded: exact when they fit the cell, dropped (hover only) when not
    assert fmt.value(np.int64(12345), 3) == "12345"
    assert fmt.value(np.int64(123456), 3) == ""


def _example_figure(example_id: str) -> StepFigure:
    import spec_examples

    ex = spec_examples.by_id(example_id)
    return StepFigure(sc.trace(sc.case(ex.op, ex.data, ex.indices, ex.updates, **ex.attrs)))


def _dotted_cells(frame: dict) -> set:
    paths = [s["path"] for s in frame["layout"]["shapes"] if s.get("line", {}).get("dash") == "dot"]
    assert len(paths) == 1
    corners = re.findall(r"M([-\d.]+),([-\d.]+)H", paths[0])
    return {(round(float(y) + 0.46), round(float(x) + 0.46)) for x, y in corners}


def test_slice_scatter_shows_its_whole_strided_slice_and_no_indices_panel():
    sf = _example_figure("ov-slice-scatter-15-example-3")  # rows 0:3:2, columns 1:5:2 of a 3x5 output
    fig = sf.figure(2)
    assert fig["hidden"] == [True, False, False]  # SliceScatter reads no indices: no empty "indices" panel
    slice_cells = {(0, 1), (0, 3), (2, 1), (2, 3)}
    for frame in fig["frames"]:  # the whole slice, dotted, in every frame (before and after its writes)
        assert _dotted_cells(frame) == slice_cells
    assert "dotted outline: every cell the updates go to" in fig["captions"]["0"]
    step2 = fig["frames"][2]["layout"]["shapes"]  # the current element stays emphasised on top
    current = [s for s in step2 if s["type"] == "rect" and s["xref"] == "x3"]
    assert [(s["x0"] + 0.5, s["y0"] + 0.5) for s in current] == [(3, 0)]
    assert step2.index(current[0]) > max(i for i, s in enumerate(step2) if s.get("line", {}).get("dash") == "dot")


def test_index_driven_families_get_no_dotted_destination():
    sf = _example_figure("onnx-scatterelements-18-example-1")
    fig = sf.figure(1)
    assert fig["hidden"] == [False, False, False]
    assert not any(s.get("line", {}).get("dash") == "dot" for f in fig["frames"] for s in f["layout"]["shapes"])
    assert "dotted" not in fig["captions"]["0"]


def test_tensor_scatter_circular_marks_the_step_that_wraps_around():
    sf = _example_figure("onnx-node-tensorscatter-circular")  # step 4 wraps batch entry 1 to position 0
    fig = sf.figure(4)
    arrows = {int(f["name"]): [a for a in f["layout"]["annotations"] if a.get("showarrow")] for f in fig["frames"]}
    assert {k: len(a) for k, a in arrows.items()} == {0: 0, 1: 0, 2: 0, 3: 0, 4: 1}
    arrow = arrows[4][0]
    assert (arrow["xref"], arrow["y"]) == ("x3", 0)  # pointing at row 0 of the output, from below its last row
    assert arrow["ay"] > 3 and arrow["x"] == arrow["ax"]
    assert "wrapped around" in fig["captions"]["4"]
    titles = [fig["layout"][f"xaxis{r}"]["title"]["text"] for r in ("", "2", "3")]
    assert titles[0].startswith("<b>write_indices</b> int64")  # named as the caption names it


def test_left_out_write_indices_are_titled_as_left_out():
    fig = _example_figure("teach-tensorscatter-prefill").figure(1)
    assert fig["hidden"] == [False, False, False]  # the zeros the loop reads are shown ...
    assert fig["layout"]["xaxis"]["title"]["text"].startswith("<b>write_indices</b> (left out)")  # ... as such


def test_plotly_chart_figures_take_the_theme_scale_and_keep_titles_apart():
    from scatter_ui.figures.heatmaps import DARK_CELL_TEXT, DARK_VALUE_SCALE, VALUE_SCALE, comparison_figure, overview_figure

    trace = sc.trace(sc.case("ScatterND-16", np.array([1, 2, 3, 4]), np.array([[0], [2], [0]]), np.array([10, 20, 30])))
    flat = np.array([0])
    dark = comparison_figure(sc.Comparison(trace, trace.output, trace.output, flat),
                             ("your expected output", "ScatterND-16 computes"), dark=True)
    light = comparison_figure(sc.Comparison(trace, trace.output, trace.output, flat), ("a", "b"), dark=False)
    assert [list(c) for c in dark.layout.coloraxis.colorscale] == DARK_VALUE_SCALE
    assert {t.textfont.color for t in dark.data} == {DARK_CELL_TEXT}  # light text on the dark scale
    assert [list(c) for c in light.layout.coloraxis.colorscale] == VALUE_SCALE
    assert {t.textfont.color for t in light.data} == {None}  # plotly contrasts each cell's text
    assert dark.layout.paper_bgcolor == "rgba(0,0,0,0)" and dark.layout.font.color == "#fafafa"  # even theme=None
    assert light.layout.font.color == "#31333f"
    titles = [a.text for a in dark.layout.annotations[:2]]
    assert titles == ["your expected<br>output", "ScatterND-16<br>computes"]  # short lines: side by side on a phone
    from scatter_ui.figures.heatmaps import short_lines

    assert short_lines("first write wins") == "first write wins"
    assert short_lines("last write wins (loop order, what runtimes do)") == \
        "last write wins<br>(loop order, what<br>runtimes do)"
    over = overview_figure(trace, 0, dark=True)
    assert [list(c) for c in over.data[0].colorscale] == DARK_VALUE_SCALE  # no white plane in a dark theme
    assert over.layout.margin.t > 60 and over.layout.title.yref == "container"  # the title above the axis title


def _corners(shapes: list) -> list:
    """The filled corners' triangles: [(x, y) of the corner, (x, y) along the top, (x, y) down the side]."""
    tri = [s for s in shapes if s["type"] == "path" and "L" in s["path"]]
    return [[(float(a), float(b)) for a, b in re.findall(r"([-\d.]+),([-\d.]+)", m)]
            for s in tri for m in re.findall(r"M[^Z]*Z", s["path"])], tri


def test_the_current_write_is_marked_by_a_filled_corner_not_by_colour_alone():
    from scatter_ui.figures.heatmaps import HIGHLIGHT, NOW_CORNER

    sf = _example_figure("onnx-scatterelements-18-example-1")
    fig = sf.figure(2)
    assert _corners(fig["frames"][0]["layout"]["shapes"]) == ([], [])  # no write at step 0
    for frame in fig["frames"][1:]:
        shapes = frame["layout"]["shapes"]
        writes = [s for s in shapes if s["type"] == "rect" and s["xref"] == "x3" and s["line"]["width"] == 3]
        corners, paths = _corners(shapes)
        assert writes and len(paths) == 1 and len(corners) == len(writes)
        # the top-left corner of each of the write's frames, filled, in the output panel only
        assert corners == [[(w["x0"], w["y0"]), (w["x0"] + NOW_CORNER, w["y0"]), (w["x0"], w["y0"] + NOW_CORNER)]
                           for w in writes]
        assert paths[0]["xref"] == "x3" and paths[0]["fillcolor"] == HIGHLIGHT and paths[0]["layer"] == "above"
        assert shapes.index(paths[0]) > shapes.index(writes[-1])  # drawn over the frame
    step = fig["frames"][2]["layout"]["shapes"]  # the read cells keep their thick frame, without a corner
    assert [s for s in step if s["xref"] in ("x", "x2") and s["line"]["width"] == 3]
    assert not [s for s in step if s["xref"] in ("x", "x2") and s["type"] == "path"]


def test_a_slice_write_gets_one_corner_per_frame_and_the_overview_marks_its_bin():
    from scatter_ui.figures.heatmaps import NOW_CORNER, overview_figure

    t = sc.trace(sc.case("ScatterND-18", np.zeros((4, 3)), [[1], [3]], np.ones((2, 3))))  # each step writes a whole row
    corners, _ = _corners(StepFigure(t).figure(1)["frames"][1]["layout"]["shapes"])
    assert corners == [[(-0.5, 0.5), (-0.5 + NOW_CORNER, 0.5), (-0.5, 0.5 + NOW_CORNER)]]  # the row's one frame
    over = overview_figure(t, 2, dark=False)
    box, corner = over.layout.shapes
    assert box.type == "rect" and corner.type == "path" and corner.path.startswith(f"M{box.x0:g},{box.y0:g}L")
    assert "filled corner" in over.layout.title.text
    assert len(overview_figure(t, 0, dark=False).layout.shapes) == 0


def test_allowed_differences_are_dashed_and_real_ones_solid():
    from scatter_ui.figures.heatmaps import comparison_figure

    t = sc.trace(sc.case("ScatterND-18", np.zeros(4), [[0], [2], [0]], np.array([1.0, 2.0, 3.0])))
    first_wins = np.array([1.0, 0.0, 2.0, 0.0])
    wrong = np.array([1.0, 9.0, 2.0, 0.0])
    fig = comparison_figure(sc.Comparison(t, wrong, t.output, [0, 1], [0]), ("a", "b"), dark=False)
    frames = {(s.x0 + 0.5, s.line.dash) for s in fig.layout.shapes}
    assert frames == {(0, "dash"), (1, None)}  # in both panels
    assert len(fig.layout.shapes) == 4
    plain = comparison_figure(sc.Comparison(t, first_wins, t.output, [0]), ("a", "b"), dark=False)
    assert {s.line.dash for s in plain.layout.shapes} == {None}  # no allowed cells named: solid, as before
