"""The Practice page in a browser: its answer boxes, the player's output cells, waiting for a steady page."""

from __future__ import annotations

import scatter_practice as sp


FIGURE = "[data-testid=scatter-figure]"  # the plotly.js figure inside the explorer's step player


def settle(pg, timeout: float = 60_000):
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)
    pg.wait_for_timeout(400)


def output_cell_px(pg) -> float:
    """The width of one output cell on the player's figure, in screen px (from plotly's own axis)."""
    return pg.evaluate("""() => { const xa = document.querySelector('[data-testid=scatter-figure]')._fullLayout.xaxis3;
        return Math.abs(xa.l2p(1) - xa.l2p(0)); }""")


# -- shared with tests/browser/test_browser_projector.py (levels 1-5 on a projector, swept over seeds) ----------------------
def steady(pg) -> None:
    """Until the player's figure has kept its place and size for a while: a figure fitted to a projector is fitted
    again when what is above it moved after it was laid out (the page redrawn around it)."""
    last = None
    for _ in range(20):
        box = pg.locator(FIGURE).first.bounding_box()
        if box == last:
            return
        last = box
        pg.wait_for_timeout(700)
    raise AssertionError(f"the figure kept moving: {last}")


def answer_boxes(pg, ex: sp.Exercise, mode: str) -> dict:
    main = pg.locator("[data-testid=stMain]")
    if mode == "Step by step":
        return {"target": main.locator("input[aria-label^='Target cell']").bounding_box(),
                "value": main.locator("input[aria-label='Value after the step']").bounding_box(),
                "check": main.get_by_role("button", name="Check").bounding_box()}
    if mode == "Whole output":
        box = (main.locator("textarea").first if ex.answer.ndim > 2
               else main.locator("[data-testid=stDataFrame]").first)
        return {"answer": box.bounding_box(),
                "check": main.get_by_role("button", name="Check my output").bounding_box()}
    boxes = {f"option {'ABCD'[i]}": opt.bounding_box()
             for i, opt in enumerate(main.get_by_test_id("option-grid").all())}
    assert len(boxes) == len(sp.choices(ex))
    return {**boxes, "answer": main.get_by_role("radiogroup").first.bounding_box(),
            "check": main.get_by_role("button", name="Check").bounding_box()}
