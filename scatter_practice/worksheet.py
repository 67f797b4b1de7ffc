"""A printable worksheet: N exercises with blank output grids, and the answer key on pages of its own.

Plain HTML with print CSS (any browser prints it; no extra tool). Every value
and text is escaped.
"""

from __future__ import annotations

import html

import numpy as np

from scatter_core.describe import fmt_value

from .exercises import LEVELS, Exercise

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em; color: #111; }
h1 { font-size: 1.4em; margin: 0 0 .3em; }
h2 { font-size: 1.1em; margin: 0 0 .3em; }
.meta { color: #444; font-size: .9em; }
.exercise, .answer { break-inside: avoid; page-break-inside: avoid; margin: 0 0 1.6em; }
.tensors { display: flex; flex-wrap: wrap; gap: 1.2em; align-items: flex-start; }
.tensor { margin: .2em 0; }
.tensor .name { font-weight: 600; font-size: .9em; }
table.grid { border-collapse: collapse; margin: .15em 0 .4em; }
table.grid td, table.grid th { border: 1px solid #333; min-width: 2.4em; height: 1.7em; text-align: center;
  font-variant-numeric: tabular-nums; padding: 0 .25em; }
table.grid th { border-color: #bbb; color: #666; font-weight: normal; font-size: .75em; background: #f4f4f4; }
table.blank td { height: 2.1em; min-width: 3em; }
.slices { display: flex; flex-wrap: wrap; gap: 0 1em; align-items: flex-start; }
.slice { break-inside: avoid; page-break-inside: avoid; }
.slice .sub { font-size: .8em; color: #444; }
.exercise.long { break-inside: auto; page-break-inside: auto; }  /* rank 3: may run over a page, never inside a grid */
h2 { break-after: avoid; page-break-after: avoid; }
.key { break-before: page; page-break-before: always; }
.steps { font-size: .85em; color: #333; margin: .2em 0 0 1.2em; }
@media print {
  body { margin: 0; }
  .noprint { display: none; }
}
"""


def _esc(text) -> str:
    return html.escape(str(text), quote=True)


def _table(arr: np.ndarray, blank: bool = False) -> str:
    """One 2-D grid with row and column numbers (rank 1: one row)."""
    grid = arr.reshape(1, -1) if arr.ndim <= 1 else arr
    rows = ["<tr><th></th>" + "".join(f"<th>{c}</th>" for c in range(grid.shape[1])) + "</tr>"]
    for r in range(grid.shape[0]):
        label = "" if arr.ndim <= 1 else str(r)
        cells = "".join("<td></td>" if blank else f"<td>{_esc(fmt_value(v))}</td>" for v in grid[r].tolist())
        rows.append(f"<tr><th>{label}</th>{cells}</tr>")
    cls = "grid blank" if blank else "grid"
    return f'<table class="{cls}">' + "".join(rows) + "</table>"


def tensor_html(name: str, arr: np.ndarray, blank: bool = False) -> str:
    """A named tensor as grids: one grid for rank <= 2; for higher ranks one labelled grid per leading position,
    side by side where the page has room."""
    arr = np.asarray(arr)
    head = f'<div class="name">{_esc(name)} · {_esc(arr.dtype)} {_esc(tuple(arr.shape))}</div>'
    if arr.ndim <= 2:
        body = _table(arr, blank)
    else:
        parts = []
        for lead in np.ndindex(*arr.shape[:-2]):
            where = ", ".join(str(i) for i in lead) + ", :, :"
            parts.append(f'<div class="slice"><div class="sub">{_esc(name)}[{_esc(where)}]</div>'
                         f'{_table(arr[lead], blank)}</div>')
        body = '<div class="slices">' + "".join(parts) + "</div>"
    return f'<div class="tensor">{head}{body}</div>'


def _exercise_block(i: int, ex: Exercise) -> str:
    inputs = "".join(tensor_html(n, a) for n, a in ex.inputs)
    long = " long" if ex.data.ndim > 2 else ""
    return (f'<div class="exercise{long}" id="exercise-{i}"><h2>Exercise {i}</h2>'
            f'<p>{_esc(ex.prompt)}</p><div class="tensors">{inputs}</div>'
            f'{tensor_html("your output", ex.answer, blank=True)}</div>')


def _answer_block(i: int, ex: Exercise) -> str:
    t = ex.trace
    steps = "".join(f"<li>{_esc(t.describe(k))}</li>" for k in range(len(t)))
    return (f'<div class="answer" id="answer-{i}"><h2>Answer {i}</h2>'
            f'<p class="meta">{_esc(ex.op)} ({_esc(ex.attrs_text)}), seed {ex.seed}, level {ex.level}</p>'
            f'{tensor_html("output", ex.answer)}<ol class="steps">{steps}</ol></div>')


def worksheet_html(exercises: list[Exercise], title: str, link: str = "") -> str:
    """The worksheet as one HTML document: the exercises, then the answer key from a new page on."""
    levels = sorted({ex.level for ex in exercises})
    about = "; ".join(f"level {lv}: {LEVELS[lv]}" for lv in levels)
    share = f'<p class="meta">Online: <a href="{_esc(link)}">{_esc(link)}</a></p>' if link else ""
    exercises_html = "".join(_exercise_block(i, ex) for i, ex in enumerate(exercises, 1))
    answers_html = "".join(_answer_block(i, ex) for i, ex in enumerate(exercises, 1))
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{_esc(title)}</title>'
            f"<style>{CSS}</style></head><body>"
            f'<section class="sheet"><h1>{_esc(title)}</h1><p class="meta">{_esc(about)}. Fill in each output '
            f"grid: the output starts as a copy of data, then the loop runs in row-major order.</p>{share}"
            f"{exercises_html}</section>"
            f'<section class="key"><h1>Answer key: {_esc(title)}</h1>{answers_html}</section>'
            "</body></html>\n")
