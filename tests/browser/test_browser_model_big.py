"""A big node in a real browser (issue #32 §7): a GNN's max aggregation (384 steps, its data filled with float32's
lowest, as exporters write it) uploaded with its inputs, captured, and read one cell at a time: "Go to a cell"
lists only the steps that write it and takes the player there; the fill's cells are grey, off the colour scale,
and the legend says so. Light and dark, 1400x1000 and 390x844."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.browser_support import SCREENSHOTS, real_errors, watched_page

pytestmark = pytest.mark.browser

PLAYER = "[data-testid=scatter-player]"
FIGURE = "[data-testid=scatter-figure]"
LOW = np.finfo(np.float32).min


@pytest.fixture(scope="module")
def gnn(tmp_path_factory):
    """(model file, inputs file): 96 edges x 4 features into 32 nodes, the last 8 reached by no edge."""
    from onnx import TensorProto as T, helper as h, numpy_helper

    folder = tmp_path_factory.mktemp("gnn")
    fill = h.make_node("ConstantOfShape", ["shape"], ["data"], value=numpy_helper.from_array(np.array([LOW], np.float32)))
    node = h.make_node("ScatterElements", ["data", "dst", "x"], ["out"], name="gnn_max_aggregate", axis=0,
                       reduction="max")
    graph = h.make_graph([fill, node], "gnn", [h.make_tensor_value_info("x", T.FLOAT, [96, 4]),
                                               h.make_tensor_value_info("dst", T.INT64, [96, 4])],
                         [h.make_tensor_value_info("out", T.FLOAT, [32, 4])],
                         initializer=[numpy_helper.from_array(np.array([32, 4], np.int64), "shape")])
    model = folder / "gnn_max.onnx"
    model.write_bytes(h.make_model(graph, opset_imports=[h.make_opsetid("", 18)], ir_version=10).SerializeToString())
    rng = np.random.default_rng(1)
    inputs = folder / "gnn_inputs.npz"
    dst = np.repeat(rng.integers(0, 24, (96, 1)), 4, axis=1).astype(np.int64)
    np.savez(inputs, x=(rng.integers(-8, 9, (96, 4)) / 4).astype(np.float32), dst=dst)
    return model, inputs, dst


def settle(pg, timeout: float = 90_000):
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)
    pg.wait_for_timeout(300)


@pytest.mark.parametrize("scheme,size", [("light", (1400, 1000)), ("dark", (390, 844))])
def test_go_to_a_cell_of_a_gnn_max_node_and_see_the_fill_kept_apart(server, browser, gnn, scheme, size):
    model, inputs, dst = gnn
    ctx, pg = watched_page(browser, viewport={"width": size[0], "height": size[1]}, color_scheme=scheme)
    pg.goto(server.url + "/model")
    pg.get_by_text("Upload a model in the sidebar").first.wait_for(timeout=90_000)
    settle(pg)
    pg.locator("input[type=file]").first.set_input_files(str(model))
    pg.get_by_text("1 of 1 scatter nodes").first.wait_for(timeout=90_000)
    settle(pg)
    pg.locator("input[type=file]").nth(1).set_input_files(str(inputs))
    settle(pg)
    pg.get_by_role("button", name="Capture").click()
    pg.wait_for_selector(f"{FIGURE}[data-ready='1']", timeout=120_000)
    settle(pg)
    note = pg.get_by_test_id("player-scale-note")
    assert note.inner_text().startswith("grey: cells holding -3.4028235e+38") and note.is_visible()

    cell = pg.get_by_role("textbox", name="Output cell: its coordinates")
    for _ in range(5 if size[0] >= 700 else 0):  # a click on an output cell fills it in (desktop: panels side by side)
        x, y = pg.evaluate("""() => { const gd = document.querySelector('[data-testid=scatter-figure]');
            const xa = gd._fullLayout.xaxis3, ya = gd._fullLayout.yaxis3, box = gd.getBoundingClientRect();
            gd.scrollIntoView({block: 'center'});
            const b = gd.getBoundingClientRect();
            return [b.left + xa._offset + xa.l2p(2), b.top + ya._offset + ya.l2p(3)]; }""")
        pg.mouse.click(x, y)
        settle(pg)
        if cell.input_value() == "3, 2":
            break
        pg.wait_for_timeout(500)
    if size[0] >= 700:
        assert cell.input_value() == "3, 2"
        pg.get_by_text("output[3, 2] is written by").first.wait_for(timeout=60_000)

    writes = [4 * e + 2 for e in range(96) if dst[e, 1] == 5]  # updates[e, 1] is step 4e + 2: output[5, 1]
    cell.fill("5, 1")
    cell.press("Enter")
    pg.get_by_text(f"output[5, 1] is written by {len(writes)} of the 384 steps").first.wait_for(timeout=60_000)
    settle(pg)
    pg.get_by_role("button", name="Next write").click()  # from step 0: the first write, by keyboard-usable buttons
    pg.wait_for_function(f"() => document.querySelector('{PLAYER}').dataset.step === '{writes[0]}'", timeout=120_000)
    settle(pg)
    pg.get_by_role("button", name="Next write").focus()
    pg.keyboard.press("Enter")
    pg.wait_for_function(f"() => document.querySelector('{PLAYER}').dataset.step === '{writes[1]}'", timeout=120_000)
    assert "goes to output[5, 1]" in pg.locator("[data-testid=scatter-caption]").inner_text()

    cell.fill("28, 0")
    cell.press("Enter")
    pg.get_by_text("No step writes output[28, 0]: it keeps data's value -3.4028235e+38").first.wait_for(timeout=60_000)
    cell.fill("32, 0")
    cell.press("Enter")
    pg.get_by_text("coordinate 32 on axis 0 is outside 0..31").first.wait_for(timeout=60_000)
    assert cell.input_value() == "32, 0"  # what the user typed stays, editable
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / f"model-gnn-max-{scheme}-{size[0]}x{size[1]}.png"), full_page=True)
    assert real_errors(pg.errors) == []
    ctx.close()
