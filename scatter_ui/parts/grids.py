"""Small tensors as compact grids of text: Practice's multiple-choice options, side by side.

``option_grids(options, key=...)`` draws each option as its letter beside its grid; a rank-3 (or higher) tensor as a
row of 2-D slices, each labelled by its leading index (``[0]``, ``[1]`` ...) as the player draws it, the letter at the
start of that line of labels. Every
number is formatted in Python (``sc.fmt_value``) and set in the browser with ``textContent``: nothing is read as
HTML or Markdown. The grids are a picture for the eye (``aria-hidden``); each option also carries its text form
(the slices as nested lists, row by row) for a screen reader, in a group named after the option.

The sizes are fixed in px (``CELL_PX``, ``ROW_PX``, ``FONT_PX`` ...) so that :func:`options_height` can say, before the page is drawn, how tall the options are on a given width (the room the
Practice page keeps under its player on a projector).
"""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from scatter_core import fmt_value

NAME = "scatter-explorer.grids"
FONT_PX = 18  # the digits: 12 px of ink (their height on screen), read on a projector (13 px drew them 9 px tall)
CELL_PX = 24  # a cell's least width (two digits, 18 px of ink); wider for longer numbers (cell_px)
ROW_PX = 22  # a cell's height (the digits' 12 px of ink with 5 px above and below)
CHAR_PX = 9  # a character's width at FONT_PX (tabular digits: 0.5 em)
LABEL_PX = 15  # the line of a slice's label ([0]) above it (12 px type)
LETTER_PX = 26  # the option's letter and its gap
SLICE_GAP_PX = 10  # between the slices of one option
OPTION_GAP_PX = 10  # between options, across and down
PAD_PX = 2  # an option's padding (each side)

CSS = f"""
.sx-options {{ display: flex; flex-wrap: wrap; gap: {OPTION_GAP_PX}px {OPTION_GAP_PX}px; align-items: flex-start;
  font-family: var(--st-font, sans-serif); color: var(--st-text-color, #31333f); }}
.sx-option {{ display: flex; align-items: center; gap: 6px; padding: {PAD_PX}px; box-sizing: border-box; }}
.sx-letter {{ font-weight: 700; font-size: 1.1rem; width: {LETTER_PX - 6}px; text-align: center; }}
.sx-slices {{ display: flex; gap: {SLICE_GAP_PX}px; align-items: flex-end; }}
.sx-sub {{ position: relative; font-size: 0.75rem; line-height: {LABEL_PX}px; height: {LABEL_PX}px; text-align: center; }}
.sx-sub .sx-letter {{ position: absolute; left: 0; top: 0; width: auto; font-size: 1rem; line-height: {LABEL_PX}px; }}
.sx-cells {{ display: grid; font-size: {FONT_PX}px; font-variant-numeric: tabular-nums;
  border-top: 1px solid var(--st-border-color, rgba(49,51,63,0.3));
  border-left: 1px solid var(--st-border-color, rgba(49,51,63,0.3)); }}
.sx-cells span {{ width: var(--sx-cell, {CELL_PX}px); height: {ROW_PX}px; line-height: {ROW_PX}px; text-align: center;
  box-sizing: border-box; white-space: nowrap; background: var(--st-secondary-background-color, #f0f2f6);
  border-right: 1px solid var(--st-border-color, rgba(49,51,63,0.3));
  border-bottom: 1px solid var(--st-border-color, rgba(49,51,63,0.3)); }}
.sx-sr {{ position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }}
"""

JS = """
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls;
  if (text != null) e.textContent = text; return e; };
export default function ({ data, parentElement }) {
  if (!data) return;
  let root = parentElement.querySelector(".sx-options");
  if (!root) { root = el("div", "sx-options"); parentElement.appendChild(root); }
  root.setAttribute("data-testid", "option-grids");
  root.replaceChildren();
  for (const opt of data.options) {
    const box = el("div", "sx-option");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", opt.name);
    box.setAttribute("data-testid", "option-grid");
    box.style.setProperty("--sx-cell", `${opt.cell}px`);
    const letter = el("span", "sx-letter", opt.letter);
    letter.setAttribute("aria-hidden", "true");
    const labelled = opt.slices[0].label != null; // rank 3: the letter starts the line of the slices' labels
    if (!labelled) box.appendChild(letter);
    const slices = el("div", "sx-slices");
    slices.setAttribute("aria-hidden", "true");
    for (const [j, s] of opt.slices.entries()) {
      const part = el("div", "sx-slice");
      if (labelled) {
        const sub = part.appendChild(el("div", "sx-sub"));
        if (j === 0) sub.appendChild(letter);
        sub.appendChild(el("span", null, s.label));
      }
      const cells = el("div", "sx-cells");
      cells.style.gridTemplateColumns = `repeat(${s.rows[0].length}, auto)`;
      for (const row of s.rows) for (const text of row) cells.appendChild(el("span", null, text));
      part.appendChild(cells);
      slices.appendChild(part);
    }
    box.appendChild(slices);
    box.appendChild(el("span", "sx-sr", opt.text));
    root.appendChild(box);
  }
}
"""

_element = None


def _slices(arr: np.ndarray) -> list[tuple[str | None, np.ndarray]]:
    """(label, 2-D grid) pieces: the tensor itself for rank <= 2 (a row for rank 1), else one per leading index."""
    if arr.ndim <= 2:
        return [(None, arr.reshape(1, -1) if arr.ndim < 2 else arr)]
    return [(f"[{', '.join(str(i) for i in lead)}]", arr[lead]) for lead in np.ndindex(*arr.shape[:-2])]


def text_form(arr: np.ndarray) -> str:
    """The tensor in words a screen reader reads: each slice (rank >= 3) with its label, row by row."""
    parts = []
    for label, grid in _slices(np.asarray(arr)):
        rows = "; ".join(", ".join(fmt_value(v) for v in row) for row in grid)
        parts.append(f"slice {label}: rows {rows}" if label else f"rows {rows}")
    return ". ".join(parts)


def options_data(options: list[tuple[str, np.ndarray]]) -> dict:
    out = []
    for letter, arr in options:
        arr = np.asarray(arr)
        slices = [{"label": label, "rows": [[fmt_value(v) for v in row] for row in grid]}
                  for label, grid in _slices(arr)]
        out.append({"letter": letter, "name": f"Option {letter}", "slices": slices, "cell": cell_px(arr),
                    "text": f"Option {letter}: {text_form(arr)}."})
    return {"options": out}


def cell_px(arr: np.ndarray) -> int:
    """The width of an option's cells: CELL_PX, or more where its longest number needs it (CHAR_PX a character)."""
    longest = max((len(fmt_value(v)) for v in np.ravel(arr)), default=1)
    return max(CELL_PX, CHAR_PX * longest + 6)


def option_width(arr: np.ndarray) -> int:
    """The px one option takes across (its letter beside a grid of rank <= 2, its slices, its padding)."""
    arr = np.asarray(arr)
    pieces = _slices(arr)
    cells = sum(grid.shape[1] for _, grid in pieces) * cell_px(arr) + len(pieces)  # (each grid's left border)
    letter = LETTER_PX if arr.ndim <= 2 else 0  # rank 3: the letter is on the line of the slices' labels
    return letter + cells + SLICE_GAP_PX * (len(pieces) - 1) + 2 * PAD_PX


def option_height(arr: np.ndarray) -> int:
    arr = np.asarray(arr)
    label = LABEL_PX if arr.ndim > 2 else 0
    rows = arr.shape[-2] if arr.ndim >= 2 else 1
    return label + rows * ROW_PX + 1 + 2 * PAD_PX


def options_height(arrays: list[np.ndarray], width: float) -> int:
    """The px the options take down when laid out side by side on ``width`` px, wrapping into lines."""
    lines, used = 1, 0.0
    for arr in arrays:
        w = option_width(arr)
        if used and used + OPTION_GAP_PX + w > width:
            lines += 1
            used = w
        else:
            used += (OPTION_GAP_PX if used else 0) + w
    tallest = max(option_height(a) for a in arrays)
    return math.ceil(lines * tallest + (lines - 1) * OPTION_GAP_PX)


def option_grids(options: list[tuple[str, np.ndarray]], *, key: str) -> None:
    """Draw ``options`` (letter, tensor) as compact grids side by side (see the module docstring)."""
    global _element
    if _element is None:
        _element = st.components.v2.component(NAME, html="<span></span>", js=JS, css=CSS, isolate_styles=False)
    _element(key=key, data=options_data(options), height="content")
