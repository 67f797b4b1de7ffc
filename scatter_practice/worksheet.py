"""Printable worksheets: a student sheet and a separate answer key, each as HTML and as PDF.

* The student sheet: a name and date line, the set's link and its QR code (when the teacher set a
  public address), then each exercise with its inputs and a blank output grid.
* The answer key: each exercise's output and its steps in words, for the teacher.

The HTML prints from any browser (print CSS); the PDF is made with fpdf2 in its core fonts
(Helvetica), so its text is ASCII: "×" prints as "x", "→" as "->" (:func:`ascii_text`). The QR code
is drawn by the ``qrcode`` package (SVG: inline in the HTML, a vector image in the PDF). Five exercises
fit two A4 pages at every level: the PDF takes a tighter :class:`Style` only when that saves a page.

The set's link is built from a *public address* a teacher sets (:func:`public_address` validates
it: http or https, a host other than this machine, at most ``MAX_URL`` characters). Without one the
sheet carries no link and no QR code, and says where to set one (:data:`NO_LINK`): a link to
``127.0.0.1`` would open nothing on a student's device. Every value and text is escaped.
"""

from __future__ import annotations

import html
import io
import ipaddress
from dataclasses import dataclass, replace
from urllib.parse import urlencode, urlsplit

import numpy as np

import scatter_core as sc
from scatter_core import fmt_value

from .exercises import LEVELS, Exercise

PUBLIC_URL_ENV = "SCATTER_EXPLORER_PUBLIC_URL"  # the environment variable holding the public address
MAX_URL = 200  # characters of a public address
PRACTICE_PATH = "practice"  # the Practice page's path under the app's address
NO_LINK = ("No public address is set, so this sheet has no link and no QR code. Set the address students "
           "open the app at: in the field \"Public address of this app\" on the Practice page (Share a set), "
           f"in the environment variable {PUBLIC_URL_ENV}, or as serverAddress under [browser] in "
           ".streamlit/config.toml.")
FILL_IN = "Fill in each output grid: the output starts as a copy of data, then the loop runs in row-major order."

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em; color: #111; }
h1 { font-size: 1.4em; margin: 0 0 .3em; }
h2 { font-size: 1.1em; margin: 0 0 .3em; }
.meta { color: #444; font-size: .9em; }
.who { display: flex; gap: 2em; margin: .6em 0 1em; font-size: 1.05em; }
.who span { flex: 1; border-bottom: 1px solid #333; padding-bottom: .1em; }
.who span.date { flex: 0 0 12em; }
.share { display: flex; gap: 1em; align-items: center; margin: 0 0 1em; }
.share svg { width: 28mm; height: 28mm; flex: none; }
.share .url { font-size: .9em; overflow-wrap: anywhere; }
.setlink { border: 1px dashed #888; padding: .4em .6em; font-size: .85em; color: #333; }
.exercise, .answer { break-inside: avoid; page-break-inside: avoid; margin: 0 0 1.6em; }
.tensors { display: flex; flex-wrap: wrap; gap: 1.2em; align-items: flex-start; }
.tensor { margin: .2em 0; }
.tensor .name { font-weight: 600; font-size: .9em; }
table.grid { border-collapse: collapse; margin: .15em 0 .4em; }
table.grid td, table.grid th { border: 1px solid #333; min-width: 2.4em; height: 1.7em; text-align: center;
  font-variant-numeric: tabular-nums; padding: 0 .25em; }
table.grid th { border-color: #bbb; color: #555; font-weight: normal; font-size: .75em; background: #f4f4f4; }
table.blank td { height: 2.1em; min-width: 3em; }
.slices { display: flex; flex-wrap: wrap; gap: 0 1em; align-items: flex-start; }
.slice { break-inside: avoid; page-break-inside: avoid; }
.slice .sub { font-size: .8em; color: #444; }
.exercise.long { break-inside: auto; page-break-inside: auto; }  /* rank 3: may run over a page, never inside a grid */
h2, .exercise > p { break-after: avoid; page-break-after: avoid; }
.steps { font-size: .85em; color: #333; margin: .2em 0 0 1.2em; }
@page { size: A4; margin: 12mm; }
@media print {  /* five small exercises on two A4 pages: 10 pt text, digits 10 pt (over 12 px), rows 1.5 em */
  body { margin: 0; font-size: 10pt; }
  .noprint { display: none; }
  .who { margin: .3em 0 .5em; }
  .share { margin: 0 0 .4em; }
  .share svg { width: 22mm; height: 22mm; }
  .exercise, .answer { margin: 0 0 .8em; }
  p { margin: .2em 0 .4em; }
  .tensors { gap: .2em 1em; }
  table.grid { margin: .05em 0 .2em; }
  table.grid td { height: 1.45em; min-width: 2em; }
  table.grid tr:first-child th { height: 1.1em; line-height: 1; }
  h2 { font-size: 1.05em; margin: 0 0 .15em; }
  table.blank td { height: 1.8em; min-width: 2.4em; }
  .slices { gap: 0 .6em; }
}
"""


# -- the public address and the set's link ---------------------------------------------------------------------------
def _bad(message: str, rule: str) -> sc.ScatterError:
    return sc.ScatterError(message, argument="public address", rule=rule)


def _loopback(host: str) -> bool:
    if host.lower() in ("localhost", "localhost.localdomain") or host.lower().endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


def public_address(text: str | None) -> str:
    """The app's public address as a teacher typed it, checked and tidied ("" when none is given).

    Accepted: an http or https URL with a host that is not this machine (no ``localhost``,
    ``127.0.0.1``, ``::1``, ``0.0.0.0``), no user name or password, no ``?query`` or ``#fragment``,
    at most ``MAX_URL`` characters. A path (an app served under ``/scatter``) is kept; a trailing
    ``/practice`` (the page itself) is taken off. Raises ``ScatterError`` naming the rule broken."""
    text = "" if text is None else str(text).strip()
    if not text:
        return ""
    shown = text if len(text) <= 60 else text[:57] + "..."
    if len(text) > MAX_URL:
        raise _bad(f"public address has {len(text)} characters; at most {MAX_URL}", "length")
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in text):
        raise _bad(f"public address {shown!r} contains a space or a control character", "characters")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise _bad(f"public address {shown!r} is not a URL ({exc})", "url") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise _bad(f"public address {shown!r} must start with http:// or https://", "scheme")
    if not parts.hostname:
        raise _bad(f"public address {shown!r} has no host name", "host")
    if parts.username is not None or parts.password is not None:
        raise _bad(f"public address {shown!r} must not carry a user name or password", "credentials")
    if parts.query or parts.fragment or text.endswith(("?", "#")):
        raise _bad(f"public address {shown!r}: give the app's address without ?... or #... (the set's own values "
                   "are added to it)", "query")
    if _loopback(parts.hostname):
        raise _bad(f"public address {shown!r} names this machine ({parts.hostname}), which opens nothing on a "
                   "student's device; give the address students reach the app at", "loopback")
    path = parts.path.rstrip("/")
    if path.endswith("/" + PRACTICE_PATH):
        path = path[: -len(PRACTICE_PATH) - 1]
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    netloc = host.lower() + (f":{port}" if port is not None else "")
    return f"{parts.scheme.lower()}://{netloc}{path}"


def set_link(address: str, set_seed: int, level: int, n: int, mode: str | None = None) -> str:
    """The link that opens set ``set_seed`` on the Practice page of the app at ``address`` ("" if none), in
    ``mode`` (the page's mode name, e.g. "Whole output") when given."""
    base = public_address(address)
    if not base:
        return ""
    values = {'set': int(set_seed), 'level': int(level), 'n': int(n), **({"mode": str(mode)} if mode else {})}
    return f"{base}/{PRACTICE_PATH}?{urlencode(values)}"


def this_machine_only(link: str) -> bool:
    """True when ``link`` names this machine (localhost, 127.x, ::1, 0.0.0.0): no student's device opens it."""
    try:
        host = urlsplit(str(link)).hostname
    except ValueError:
        return False
    return bool(host) and _loopback(host)


def qr_svg(link: str) -> str:
    """The QR code of ``link`` as an SVG element (drawn by the qrcode package), labelled for screen readers."""
    import qrcode
    import qrcode.image.svg

    img = qrcode.make(link, image_factory=qrcode.image.svg.SvgPathImage, border=2,
                      error_correction=qrcode.constants.ERROR_CORRECT_M)
    svg = img.to_string(encoding="unicode")
    label = _esc(f"QR code of {link}")
    return svg.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)


# -- HTML ------------------------------------------------------------------------------------------------------------
def _esc(text) -> str:
    return html.escape(str(text), quote=True)


def _table(arr: np.ndarray, blank: bool = False) -> str:
    """One 2-D grid with row and column numbers (rank 1: one row)."""
    grid = arr.reshape(1, -1) if arr.ndim <= 1 else arr
    rows = ['<tr><th scope="col">&nbsp;</th>'
            + "".join(f'<th scope="col">{c}</th>' for c in range(grid.shape[1])) + "</tr>"]
    for r in range(grid.shape[0]):
        label = "&nbsp;" if arr.ndim <= 1 else str(r)
        cells = "".join("<td></td>" if blank else f"<td>{_esc(fmt_value(v))}</td>" for v in grid[r].tolist())
        rows.append(f'<tr><th scope="row">{label}</th>{cells}</tr>')
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
        for lead, sub in _slices(name, arr):
            parts.append(f'<div class="slice"><div class="sub">{_esc(lead)}</div>{_table(sub, blank)}</div>')
        body = '<div class="slices">' + "".join(parts) + "</div>"
    return f'<div class="tensor">{head}{body}</div>'


def _slices(name: str, arr: np.ndarray):
    """(label, 2-D grid) for each leading position of a rank >= 3 tensor."""
    for lead in np.ndindex(*arr.shape[:-2]):
        yield f"{name}[{', '.join(str(i) for i in lead)}, :, :]", arr[lead]


def _exercise_block(i: int, ex: Exercise) -> str:
    inputs = "".join(tensor_html(n, a) for n, a in ex.inputs)
    long = " long" if ex.data.ndim > 2 else ""
    return (f'<div class="exercise{long}" id="exercise-{i}"><h2>Exercise {i}</h2>'
            f'<p>{_esc(ex.prompt)}</p><div class="tensors">{inputs}'
            f'{tensor_html("your output", ex.answer, blank=True)}</div></div>')


def _answer_block(i: int, ex: Exercise) -> str:
    t = ex.trace
    steps = "".join(f"<li>{_esc(t.describe(k))}</li>" for k in range(len(t)))
    inputs = "".join(tensor_html(n, a) for n, a in ex.inputs)  # the key stands alone: the inputs with the answer
    return (f'<div class="answer" id="answer-{i}"><h2>Answer {i}</h2>'
            f'<p class="meta">{_esc(ex.op)} ({_esc(ex.attrs_text)}), seed {ex.seed}, level {ex.level}</p>'
            f'<div class="tensors">{inputs}{tensor_html("output", ex.answer)}</div><ol class="steps">{steps}</ol>'
            f'</div>')


def _levels(exercises: list[Exercise]) -> str:
    return "; ".join(f"level {lv}: {LEVELS[lv]}" for lv in sorted({ex.level for ex in exercises}))


def _document(title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{_esc(title)}</title>'
            f"<style>{CSS}</style></head><body>{body}</body></html>\n")


def student_html(exercises: list[Exercise], title: str, link: str = "") -> str:
    """The student sheet: title, a name and date line, the set's link with its QR code (or, on screen only, where
    to set one), then the exercises with blank output grids. No answers."""
    if link:
        share = (f'<div class="share">{qr_svg(link)}<p class="url">Online: <a href="{_esc(link)}">{_esc(link)}</a>'
                 "</p></div>")
    else:
        share = f'<p class="setlink noprint">{_esc(NO_LINK)}</p>'
    exercises_html = "".join(_exercise_block(i, ex) for i, ex in enumerate(exercises, 1))
    return _document(title, f'<section class="sheet"><h1>{_esc(title)}</h1>'
                            '<p class="who"><span class="name">Name:</span><span class="date">Date:</span></p>'
                            f'{share}<p class="meta">{_esc(_levels(exercises))}. {_esc(FILL_IN)}</p>'
                            f"{exercises_html}</section>")


def answer_key_html(exercises: list[Exercise], title: str, link: str = "") -> str:
    """The answer key, a document of its own: each exercise's output and its steps in words."""
    where = (f'<p class="meta">Online: <a href="{_esc(link)}">{_esc(link)}</a></p>' if link else
             f'<p class="setlink">{_esc(NO_LINK)}</p>')
    answers_html = "".join(_answer_block(i, ex) for i, ex in enumerate(exercises, 1))
    return _document(f"Answer key: {title}",
                     f'<section class="key"><h1>Answer key: {_esc(title)}</h1>'
                     f'<p class="meta">{_esc(_levels(exercises))}.</p>{where}{answers_html}</section>')


# -- PDF -------------------------------------------------------------------------------------------------------------
ASCII = {"×": "x", "−": "-", "→": "->", "·": "-", "…": "...", "≤": "<=", "≥": ">=", "–": "-", "—": "-",
         "‘": "'", "’": "'", "“": '"', "”": '"', "∞": "inf", "≠": "!=", "\u00a0": " "}


def ascii_text(text) -> str:
    """``text`` for the PDF's core fonts: the few signs the app's sentences use spelt in ASCII, anything else
    non-ASCII as "?"."""
    out = "".join(ASCII.get(c, c) for c in str(text))
    return out.encode("ascii", "replace").decode("ascii")


PAGE_W, MARGIN = 210.0, 15.0  # A4, mm
BODY_W = PAGE_W - 2 * MARGIN
LABEL_H, LABEL_PT, TEXT_PT = 4.0, 7, 10.5  # mm of a tensor's name line; pt of row/column numbers, of sentences
PAGES = 2  # a set of five small exercises prints on two pages (issue 33)


@dataclass(frozen=True)
class Style:
    """How roomy a PDF sheet is laid out (mm, pt). :data:`STYLES` go from roomy to tight; a sheet takes the first
    that prints five exercises on two pages (:func:`_fitted`). ``split``: an exercise may run over a page between two rows of
    grids (never inside a grid), its heading repeated."""

    cell_h: float = 6.0  # a grid row
    blank_h: float = 7.5  # a row to write in (a handwriting line)
    value_pt: float = 11  # the digits (9 pt is 12 px: never below)
    gap: float = 7.0  # between boxes on a row
    slice_gap: float = 7.0  # between two slices of one rank-3 tensor
    row_gap: float = 2.0  # under a row of boxes
    after: float = 2.5  # under an exercise
    split: bool = False
    edge: float = MARGIN  # the top and bottom margins


_CLOSE = dict(gap=5.0, slice_gap=3.0, row_gap=1.5, after=2.0)
STYLES = (Style(), Style(cell_h=5.5, blank_h=7.0, value_pt=10, **_CLOSE),
          Style(cell_h=5.0, blank_h=6.5, value_pt=9, **_CLOSE),
          Style(cell_h=5.0, blank_h=6.5, value_pt=9, split=True, edge=10.0, **_CLOSE),
          Style(cell_h=4.6, blank_h=6.0, value_pt=9, split=True, edge=10.0, **_CLOSE))  # 6 mm: narrow ruled
ROOMY = STYLES[0]


def new_pdf(title: str, edge: float = MARGIN):
    """An empty A4 FPDF document titled ``title``, with the sheets' margins (``edge`` at top and bottom)."""
    from fpdf import FPDF

    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_margins(MARGIN, edge, MARGIN)
    pdf.set_auto_page_break(True, margin=edge)
    pdf.set_title(ascii_text(title))
    pdf.set_creator("Scatter Explorer")
    pdf.set_text_color(17, 17, 17)
    return pdf


def _text(pdf, text: str, size: float = TEXT_PT, style: str = "", grey: bool = False, h: float | None = None):
    pdf.set_font("Helvetica", style, size)
    pdf.set_text_color(*((68, 68, 68) if grey else (17, 17, 17)))
    pdf.multi_cell(BODY_W, h or size * 0.5, ascii_text(text), new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(17, 17, 17)


def _grid_size(pdf, arr: np.ndarray, blank: bool, st: Style) -> tuple[float, float, float]:
    """(cell width, grid width, grid height) in mm of one 2-D grid with its row and column numbers."""
    grid = arr.reshape(1, -1) if arr.ndim <= 1 else arr
    pdf.set_font("Helvetica", "", st.value_pt)
    widest = max((pdf.get_string_width(ascii_text(fmt_value(v))) for v in grid.reshape(-1).tolist()), default=0)
    cell = max(10.0 if blank else 8.0, widest + 3.0)
    cols = grid.shape[1]
    label = 5.0
    cell = min(cell, max((BODY_W - label) / max(cols, 1), 5.0))  # a grid never runs off the page
    return cell, label + cols * cell, 4.0 + grid.shape[0] * (st.blank_h if blank else st.cell_h)


def _draw_grid(pdf, x: float, y: float, arr: np.ndarray, blank: bool, st: Style) -> None:
    grid = arr.reshape(1, -1) if arr.ndim <= 1 else arr
    cell, _, _ = _grid_size(pdf, arr, blank, st)
    rh, label = (st.blank_h if blank else st.cell_h), 5.0
    pdf.set_font("Helvetica", "", LABEL_PT)
    pdf.set_text_color(90, 90, 90)
    for c in range(grid.shape[1]):
        pdf.set_xy(x + label + c * cell, y)
        pdf.cell(cell, 4.0, str(c), align="C")
    for r in range(grid.shape[0]):
        if arr.ndim > 1:
            pdf.set_xy(x, y + 4.0 + r * rh)
            pdf.cell(label, rh, str(r), align="C")
    pdf.set_text_color(17, 17, 17)
    pdf.set_draw_color(40, 40, 40)
    pdf.set_line_width(0.3)
    pdf.set_font("Helvetica", "", st.value_pt)
    for r in range(grid.shape[0]):
        for c in range(grid.shape[1]):
            pdf.set_xy(x + label + c * cell, y + 4.0 + r * rh)
            pdf.cell(cell, rh, "" if blank else ascii_text(fmt_value(grid[r, c].item())), border=1, align="C")


@dataclass(frozen=True)
class Box:
    """One grid to place: its label lines, the 2-D values, its size (mm, label included), whether it is blank, and
    the room (mm) to leave before it on a row (less between two slices of one tensor)."""

    label: str
    grid: np.ndarray
    w: float
    h: float
    blank: bool
    gap: float
    name: str = ""  # the tensor's name on a slice labelled by its position alone (it may start a row)


def tensor_boxes(pdf, name: str, arr: np.ndarray, blank: bool, st: Style) -> list[Box]:
    """The boxes of one named tensor: one for rank <= 2, one per leading position. In a style with a close
    ``slice_gap`` the slices are labelled by their position alone (``[1, :, :]``) and the tensor's name line runs
    over them (the last slice widened if they are narrower than it)."""
    arr = np.asarray(arr)
    head = f"{name} - {arr.dtype} {tuple(arr.shape)}"
    close = st.slice_gap < st.gap and arr.ndim > 2
    parts = [(head, arr)] if arr.ndim <= 2 else [
        ((head + "\n" if i == 0 else "\n") + (label[len(name):] if close else label), sub)
        for i, (label, sub) in enumerate(_slices(name, arr))]
    out = []
    for i, (label, sub) in enumerate(parts):
        _, w, h = _grid_size(pdf, sub, blank, st)
        pdf.set_font("Helvetica", "B", 9)
        lines = label.split("\n")[1:] if close else label.split("\n")
        w = max(w, *(pdf.get_string_width(ascii_text(line)) + 2 for line in lines))
        out.append(Box(label, sub, w, h + LABEL_H * (label.count("\n") + 1), blank, st.slice_gap if i else st.gap,
                       name if close else ""))
    if close:
        pdf.set_font("Helvetica", "B", 9)
        short = pdf.get_string_width(ascii_text(head)) + 2 - (sum(b.w + b.gap for b in out) - out[0].gap)
        if short > 0:
            out[-1] = replace(out[-1], w=out[-1].w + short)
    return out


def box_rows(boxes: list[Box]) -> list[list[Box]]:
    """The boxes left to right, wrapped into rows where the line is full; the slices of one tensor set close
    together stay on one row where a line holds them all."""
    rows, row, width = [], [], 0.0
    for i, box in enumerate(boxes):
        group = box.w
        if box.name and box.label.split("\n")[0]:  # the first of close slices (it carries the name): all of them
            for nxt in boxes[i + 1:]:
                if nxt.name != box.name or nxt.label.split("\n")[0]:
                    break
                group += nxt.gap + nxt.w
        if row and width + box.gap + (group if group <= BODY_W else box.w) > BODY_W:
            rows.append(row)
            row, width = [], 0.0
        width += (box.gap if row else 0.0) + box.w
        row.append(box)
    if row:
        rows.append(row)
    return rows


def _rows_height(boxes: list[Box], st: Style) -> list[float]:
    return [max(b.h for b in row) + st.row_gap for row in box_rows(boxes)]


def _flow(pdf, boxes: list[Box], st: Style, heading: str) -> None:
    """Boxes (the inputs, then the output: beside them where the line has room) left to right, wrapping to a new
    row (and a new page, under ``heading`` "continued") where the line is full."""
    for row in box_rows(boxes):
        height = max(b.h for b in row)
        if pdf.will_page_break(height):
            pdf.add_page()
            _text(pdf, f"{heading} (continued)", 10, "B", grey=True, h=5.5)
        x, y = MARGIN, pdf.get_y()
        for j, box in enumerate(row):
            x += box.gap if j else 0.0
            lines = box.label.split("\n")
            if j == 0 and box.name and not lines[0]:  # a slice starting a row: its tensor named on it
                lines[1] = box.name + lines[1]
            for i, line in enumerate(lines):
                pdf.set_xy(x, y + LABEL_H * i)
                pdf.set_font("Helvetica", "B" if i == 0 else "", 9)
                pdf.cell(box.w, LABEL_H, ascii_text(line))
            _draw_grid(pdf, x, y + LABEL_H * len(lines), box.grid, box.blank, st)
            x += box.w
        pdf.set_xy(MARGIN, y + height + st.row_gap)


def _keep_height(pdf, text: str, boxes: list[Box], st: Style) -> float:
    """How much of an exercise (its heading, ``text`` and rows of boxes: all of it, or only its first row when
    ``st.split``) must fit on a page, to start it on a new page rather than split it there (capped at a page)."""
    pdf.set_font("Helvetica", "", TEXT_PT)
    lines = len(pdf.multi_cell(BODY_W, 5, ascii_text(text), dry_run=True, output="LINES"))
    rows = _rows_height(boxes, st)
    return min(7 + 5 * lines + 1.5 + sum(rows[:1] if st.split else rows), 200)


def input_boxes(pdf, ex: Exercise, st: Style) -> list[list[Box]]:
    """The boxes of each of the exercise's inputs, one list a tensor."""
    return [tensor_boxes(pdf, n, a, False, st) for n, a in ex.inputs]


def packed_boxes(inputs: list[list[Box]], output: list[Box], st: Style) -> list[Box]:
    """The inputs' boxes (one list a tensor) in their order with the output's placed where the rows come out
    shortest (after the inputs, or between two of them: a wide row of updates may go under the output rather than
    push it down)."""
    orders = [sum(inputs[:i], []) + output + sum(inputs[i:], []) for i in range(len(inputs), -1, -1)]
    return min(orders, key=lambda boxes: sum(_rows_height(boxes, st)))


def _fitted(build, n: int) -> bytes:
    """``build(style)``'s PDF of ``n`` exercises in the first of :data:`STYLES` that prints five exercises on
    ``PAGES`` pages (more exercises: as many pages in proportion), else in the one with the fewest pages."""
    want, best = max(PAGES, -(-PAGES * n // 5)), None
    for st in STYLES:
        pdf = build(st)
        if best is None or pdf.pages_count < best.pages_count:
            best = pdf
        if best.pages_count <= want:
            break
    return bytes(best.output())


def student_pdf(exercises: list[Exercise], title: str, link: str = "") -> bytes:
    """The student sheet as a PDF (A4): as :func:`student_html`; without a link the sheet has none (and no note:
    the note on where to set one is on the answer key, the teacher's copy). Five small exercises print on
    ``PAGES`` pages at every level (:func:`_fitted`)."""
    return _fitted(lambda st: student_sheet(exercises, title, link, st), len(exercises))


def student_sheet(exercises: list[Exercise], title: str, link: str, st: Style):
    """The student sheet of ``exercises`` laid out in style ``st`` (an FPDF document, not yet output)."""
    pdf = new_pdf(title, st.edge)
    pdf.add_page()
    top = pdf.get_y()
    qr = 28.0 if link else 0.0
    width = BODY_W - (qr + 4 if qr else 0)
    pdf.set_font("Helvetica", "B", 16)
    pdf.multi_cell(width, 8, ascii_text(title), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    pdf.set_font("Helvetica", "", 11)
    y = pdf.get_y() + 6
    pdf.set_xy(MARGIN, y - 5)
    pdf.cell(16, 6, "Name:")
    pdf.line(MARGIN + 14, y, MARGIN + width * 0.62, y)
    pdf.set_xy(MARGIN + width * 0.66, y - 5)
    pdf.cell(14, 6, "Date:")
    pdf.line(MARGIN + width * 0.66 + 12, y, MARGIN + width, y)
    pdf.set_y(y + 4)
    if link:
        pdf.image(io.BytesIO(qr_svg(link).encode("utf-8")), x=PAGE_W - MARGIN - qr, y=top, w=qr, h=qr)
        pdf.set_font("Helvetica", "", 9)
        pdf.set_x(MARGIN)
        pdf.multi_cell(width, 4.5, ascii_text(f"Online: {link}"), new_x="LMARGIN", new_y="NEXT", link=link)
        pdf.set_y(max(pdf.get_y(), top + qr + 2))
    _text(pdf, f"{_levels(exercises)}. {FILL_IN}", 9, grey=True, h=4.5)
    pdf.ln(3)
    for i, ex in enumerate(exercises, 1):
        boxes = packed_boxes(input_boxes(pdf, ex, st), tensor_boxes(pdf, "your output", ex.answer, True, st), st)
        if pdf.will_page_break(_keep_height(pdf, ex.prompt, boxes, st)):
            pdf.add_page()
        _text(pdf, f"Exercise {i}", 12.5, "B", h=7)
        _text(pdf, ex.prompt, h=5)
        pdf.ln(1.5)
        _flow(pdf, boxes, st, f"Exercise {i}")
        pdf.ln(st.after)
    return pdf


def answer_key_pdf(exercises: list[Exercise], title: str, link: str = "") -> bytes:
    """The answer key as a PDF (A4): as :func:`answer_key_html` (laid out as tight as saves a page, as the
    student sheet)."""
    return _fitted(lambda st: _key(exercises, title, link, st), len(exercises))


def _key(exercises: list[Exercise], title: str, link: str, st: Style):
    pdf = new_pdf(f"Answer key: {title}", st.edge)
    pdf.add_page()
    _text(pdf, f"Answer key: {title}", 16, "B", h=8)
    _text(pdf, f"{_levels(exercises)}.", 9, grey=True, h=4.5)
    _text(pdf, f"Online: {link}" if link else NO_LINK, 9, grey=True, h=4.5)
    pdf.ln(3)
    for i, ex in enumerate(exercises, 1):
        boxes = packed_boxes(input_boxes(pdf, ex, st), tensor_boxes(pdf, "output", ex.answer, False, st), st)
        meta = f"{ex.op} ({ex.attrs_text}), seed {ex.seed}, level {ex.level}"
        if pdf.will_page_break(min(_keep_height(pdf, meta, boxes, st) + (0 if st.split else 5 * ex.steps), 200)):
            pdf.add_page()
        _text(pdf, f"Answer {i}", 12.5, "B", h=7)
        _text(pdf, meta, 9, grey=True, h=4.5)
        pdf.ln(1)
        _flow(pdf, boxes, st, f"Answer {i}")
        for k in range(ex.steps):
            _text(pdf, f"{k + 1}. {ex.trace.describe(k)}.", 9.5, h=4.8)
        pdf.ln(4)
    return pdf
