"""The colours, defined once: the figures drawn here use them, and the player gets them as data
(``PALETTE``, sent in every payload by :mod:`scatter_ui.player.contract`), so its script (``player/js``) holds none."""

from __future__ import annotations

HIGHLIGHT = "#e8590c"  # this step's read and write: a thick frame (the write's with a filled corner too)
WRITTEN = "#495057"  # a thin frame around every cell written so far (light theme; the player swaps in the theme's)
DESTINATION = "rgba(232,89,12,0.65)"  # dotted: every cell the run writes, when the attributes place them all
# A light sequential scale, so dark cell text stays readable on every colour, and its dark-theme twin with
# light cell text (at least 4.5:1 on every colour of DARK_VALUE_SCALE).
VALUE_SCALE = [[0.0, "#f7fbff"], [0.25, "#deebf7"], [0.5, "#c6dbef"], [0.75, "#9ecae1"], [1.0, "#6baed6"]]
DARK_VALUE_SCALE = [[0.0, "#1b2633"], [0.25, "#1c3a5e"], [0.5, "#24548a"], [0.75, "#285f99"], [1.0, "#3172b4"]]
DARK_CELL_TEXT = "#fafafa"
# Cells whose value is kept off the value scale (±inf, a dtype's extremes written as a fill): a grey band at
# the scale's low end, apart from its blues (cell text at least 4.5:1 on it in each theme)
APART = "#cfcfcf"
DARK_APART = "#5c5c5c"
APART_BAND = 0.05  # the share of the colour bar the band takes
DARK_WRITTEN = "rgba(250,250,250,0.75)"  # the thin frame of written cells in the dark theme


def banded(scale: list, colour: str, band: float = APART_BAND) -> list:
    """``scale`` squeezed into [band, 1] under a flat band of ``colour`` on [0, band]: the scale a figure with
    values kept apart draws with (their cells sit at the axis's low end, :func:`scatter_ui.figures.heatmaps.apart_floor`).

    >>> banded([[0.0, "#fff"], [1.0, "#00f"]], "#ccc", 0.05)
    [[0.0, '#ccc'], [0.05, '#ccc'], [0.05, '#fff'], [1.0, '#00f']]
    """
    return [[0.0, colour], [band, colour]] + [[round(band + (1 - band) * p, 6), c] for p, c in scale]


PALETTE = {  # the shape of scatter_ui.player.contract.Palette
    "highlight": HIGHLIGHT, "written": WRITTEN, "destination": DESTINATION,
    "light": {"value": VALUE_SCALE, "cell_text": None, "written": WRITTEN},
    "dark": {"value": DARK_VALUE_SCALE, "cell_text": DARK_CELL_TEXT, "written": DARK_WRITTEN},
}
