// The player's layout: where the three panels go and how large their cells are, for a given width and window.
// Pure: the page's measures come in as arguments (`room`, `titles`); nothing here reads the DOM.

export const MIN_CELL = 28; // px: the smallest cell drawn
export const MAX_CELL = 64;
export const MAX_FONT = 16; // px: the largest cell text
export const MIN_FONT = 12; // px: the smallest cell digits on a narrow screen (cells grow, the figure scrolls)
export const WRAP_AT = 0.95; // small multiples wrap into another row below this share of MIN_CELL ("about 28 px")
export const SIDE_BY_SIDE = 0.85; // stacked: the inputs stay side by side down to this share of MIN_CELL
export const NARROW = 700; // px: below this the panels stack
export const FIT_TOP = 40; // px: the figure's top margin when fitted to a short window (else 58)
export const SHORT = 820; // px: a window at most this tall (a projector) fits the figure to its height (room_below)
export const MIN_COLUMNS = 5; // the fewest columns a panel is wide (views.MIN_COLUMNS in Python, tested equal)
// the arrangements a projector's figure tries, simplest first: lines (top to bottom) of stacks (left to right) of
// panels (0 indices, 1 updates, 2 output; top to bottom)
export const ARRANGEMENTS = [[[[0], [1], [2]]], [[[0], [1]], [[2]]], [[[0]], [[1], [2]]], [[[0], [1, 2]]],
                             [[[0, 1], [2]]], [[[1], [0, 2]]]];
export const PROJECTOR_CELL = 24; // px: a projector's figure goes below MIN_CELL, down to this, only when nothing
// else keeps the answer on screen (and never below what holds its digits at MIN_FONT: textCell)
export const FIT_PLOT = 84; // px: the least plot height of a figure fitted to a short window (its colour bar's length)
const GAP_PX = 36; // px between panels

// a frame's values and layout (shapes, labels, ticks) put over a figure's traces and layout, in place
export function withFrame(traces, layout, frame) {
  if (!frame) return;
  frame.traces.forEach((ti, j) => { traces[ti] = { ...traces[ti], ...frame.data[j] }; });
  for (const [key, val] of Object.entries(frame.layout)) {
    if (key.startsWith("xaxis") || key.startsWith("yaxis")) layout[key] = { ...layout[key], ...val };
    else layout[key] = val;
  }
}

// characters of the longest cell text of trace i (its base data and every frame): the value texts are plain
export function longestText(data, i) {
  let longest = 0;
  const scan = (rows) => {
    if (!Array.isArray(rows)) return;
    for (const row of rows) {
      if (!Array.isArray(row)) continue;
      for (const text of row) if (text) longest = Math.max(longest, String(text).length);
    }
  };
  scan((data.figure.data[i] || {}).text);
  for (const f of data.frames) {
    const j = f.traces.indexOf(i);
    if (j >= 0 && f.data[j]) scan(f.data[j].text);
  }
  return longest;
}

// the cell size (px) that holds `longest` characters at MIN_FONT (0 for a panel without text)
// (at least `least` px: a cell that size holds MIN_FONT digits, cellFont(); else MIN_FONT / 0.42)
export function textCell(longest, least = Math.ceil(MIN_FONT / 0.42)) {
  if (!longest) return 0;
  return Math.max(least, Math.ceil(MIN_FONT * 0.62 * longest / 0.9 + 1e-9));
}

// the cell text's size (px) in a cell of c px for its longest text: as large as the cell allows (Python sized it,
// `size`, for the narrowest layout; a stacked one has bigger cells); 0: no room for digits (the hover has them)
export function cellFont(c, longest, size) {
  if (c < 18) return 0;
  const fit = Math.floor(0.9 * c / (0.62 * Math.max(longest, 1)));
  // a cell of PROJECTOR_CELL px or more whose text fits at MIN_FONT shows it at MIN_FONT at least
  const cap = Math.max(Math.floor(c * 0.42), c >= PROJECTOR_CELL && fit >= MIN_FONT ? MIN_FONT : 0);
  return Math.max(Math.min(fit, cap, MAX_FONT), Math.min(size || 12, cap));
}

// small-multiple labels wider than their panel get their short form, or none (never overlap)
export function fitLabels(annotations, panelCols, cells) {
  if (!annotations) return annotations;
  return annotations.map((a) => {
    if (!a.xref || a.xref === "paper" || !a.name) return a;
    const i = a.xref === "x" ? 0 : Number(a.xref.slice(1)) - 1;
    const avail = panelCols[i] * cells[i];
    const size = (a.font && a.font.size) || 11;
    const fits = (txt) => txt.length * size * 0.62 <= avail;
    return { ...a, text: fits(a.text) ? a.text : (fits(a.name) ? a.name : "") };
  });
}

// -- small multiples: wrapped into more rows when one row of them would make cells too small --------------
// Python lays a panel's multiples out side by side (data.multiples[i] = [count, columns, rows], data.gap
// columns apart); wrapping q to a row moves multiple p to row floor(p / q), column p % q, in the data arrays,
// the shapes, the labels and the ticks alike.
export function multiplesOf(data, i) {
  const m = data.multiples && data.multiples[i];
  return m && m[0] > 1 ? m[0] : 1;
}

export function panelDims(data, i, q) {
  const [n, w, h] = (data.multiples && data.multiples[i]) || [0, 0, 0];
  if (n <= 1 || q >= n) return [data.units[i], data.rows[i]];
  const g = data.gap || 1;
  const lines = Math.ceil(n / q);
  return [Math.max(q * w + (q - 1) * g, MIN_COLUMNS), lines * h + (lines - 1) * g];
}

// how panel i's arrays, shapes, labels and ticks move when its multiples wrap q to a row; null: they do not
export function wrapOf(data, i, q) {
  const m = data.multiples && data.multiples[i];
  if (!m || m[0] <= 1 || !q || q >= m[0]) return null;
  const g = data.gap || 1;
  const [n, w, h] = m;
  const span = w + g;
  const panelOf = (x) => Math.min(Math.max(Math.floor((x + 0.5) / span), 0), n - 1);
  const shift = (p) => ({ dx: ((p % q) - p) * span, dy: Math.floor(p / q) * (h + g) });
  return {
    grid(rows, empty) { // a [row][column] array of the side-by-side canvas, rewrapped (gaps: empty)
      if (!Array.isArray(rows) || !rows.length || !Array.isArray(rows[0])) return rows;
      const lines = Math.ceil(n / q);
      const out = [];
      for (let r = 0; r < lines * (h + g) - g; r++) {
        const line = Math.floor(r / (h + g));
        const rr = r % (h + g);
        const row = [];
        for (let c = 0; c < q * span - g; c++) {
          const p = line * q + Math.floor(c / span);
          const cc = c % span;
          row.push(rr < h && cc < w && p < n && rows[rr] ? rows[rr][p * span + cc] : empty);
        }
        out.push(row);
      }
      return out;
    },
    shape(s) {
      if (s.type === "path" && s.path && s.path.includes("L")) { // triangles (the write's filled corners)
        const path = s.path.replace(/M([-\d.e]+),([-\d.e]+)L([-\d.e]+),([-\d.e]+)L([-\d.e]+),([-\d.e]+)Z/g,
          (all, ...v) => {
            const { dx, dy } = shift(panelOf(Number(v[0])));
            const p = v.slice(0, 6).map((x, j) => +(Number(x) + (j % 2 ? dy : dx)).toFixed(3));
            return `M${p[0]},${p[1]}L${p[2]},${p[3]}L${p[4]},${p[5]}Z`;
          });
        return { ...s, path };
      }
      if (s.type === "path" && s.path) {
        const path = s.path.replace(/M([-\d.e]+),([-\d.e]+)H([-\d.e]+)V([-\d.e]+)H([-\d.e]+)Z/g,
          (all, x0, y0, x1, y1, x2) => {
            const { dx, dy } = shift(panelOf(Number(x0)));
            const X = (v) => +(Number(v) + dx).toFixed(3);
            const Y = (v) => +(Number(v) + dy).toFixed(3);
            return `M${X(x0)},${Y(y0)}H${X(x1)}V${Y(y1)}H${X(x2)}Z`;
          });
        return { ...s, path };
      }
      if (s.x0 === undefined) return s;
      const { dx, dy } = shift(panelOf(s.x0));
      return { ...s, x0: s.x0 + dx, x1: s.x1 + dx, y0: s.y0 + dy, y1: s.y1 + dy };
    },
    annotation(a) {
      const { dx, dy } = shift(panelOf(a.x));
      const tail = a.axref && a.axref !== "pixel" ? { ax: a.ax + dx, ay: a.ay + dy } : {};
      return { ...a, x: a.x + dx, y: a.y + dy, ...tail };
    },
    xaxis(ax) { // column numbers once, above the first row of multiples
      if (!ax || !ax.tickvals) return ax;
      const keep = ax.tickvals.map((v, j) => j).filter((j) => ax.tickvals[j] < q * span - g);
      return { ...ax, tickvals: keep.map((j) => ax.tickvals[j]), ticktext: keep.map((j) => ax.ticktext[j]) };
    },
    yaxis(ax) { // row numbers beside every row of multiples
      if (!ax || !ax.tickvals) return ax;
      const tickvals = [], ticktext = [];
      for (let line = 0; line < Math.ceil(n / q); line++) {
        ax.tickvals.forEach((v, j) => { tickvals.push(v + line * (h + g)); ticktext.push(ax.ticktext[j]); });
      }
      return { ...ax, tickvals, ticktext };
    },
  };
}

// a trace's cell arrays rewrapped for perRow (multiples per row of each panel)
export function wrapTrace(data, perRow, i, tr) {
  const wr = wrapOf(data, i, perRow ? perRow[i] : 0);
  if (!wr) return tr;
  const out = { ...tr };
  for (const [key, empty] of [["z", null], ["text", ""], ["counts", 0], ["customdata", ""]]) {
    if (key in out) out[key] = wr.grid(out[key], empty);
  }
  return out;
}

// the shapes, panel labels and ticks of a layout or a frame's layout, rewrapped for perRow
export function wrapLayout(data, perRow, layout) {
  const out = { ...layout };
  const refOf = (xref) => (xref === "x" ? 0 : Number(String(xref).slice(1)) - 1);
  const wraps = [0, 1, 2].map((i) => wrapOf(data, i, perRow ? perRow[i] : 0));
  if (!wraps.some(Boolean)) return out;
  const move = (item, how) => {
    if (!item.xref || item.xref === "paper") return item;
    const wr = wraps[refOf(item.xref)];
    return wr ? wr[how](item) : item;
  };
  if (out.shapes) out.shapes = out.shapes.map((s) => move(s, "shape"));
  if (out.annotations) out.annotations = out.annotations.map((a) => move(a, "annotation"));
  wraps.forEach((wr, i) => {
    if (!wr) return;
    const ref = i === 0 ? "" : String(i + 1);
    if (out[`xaxis${ref}`]) out[`xaxis${ref}`] = wr.xaxis(out[`xaxis${ref}`]);
    if (out[`yaxis${ref}`]) out[`yaxis${ref}`] = wr.yaxis(out[`yaxis${ref}`]);
  });
  return out;
}

// the ways to arrange the shown panels (ARRANGEMENTS without the hidden ones), each once
export function arrangements(shown) {
  const seen = new Set();
  const out = [];
  for (const a of ARRANGEMENTS) {
    const kept = a.map((line) => line.map((stack) => stack.filter((i) => shown.includes(i))).filter((st) => st.length))
      .filter((line) => line.length);
    const id = JSON.stringify(kept);
    if (!seen.has(id)) { seen.add(id); out.push(kept); }
  }
  return out;
}

// A short, wide window (a projector, at most SHORT px tall) with data.room_below: every way to lay the panels out
// with one cell size (ARRANGEMENTS: lines of stacks, each stack panels one under the other; each panel's small
// multiples in 1..n per row) is tried, and the one with the largest cells wins (on a tie: the simpler
// arrangement, then fewer rows of multiples). A panel is as wide as its cells or its title; the width left over
// on a line goes to its stacks (cells centred in them); the figure ends inside `room` px of plot height. When none
// keeps MIN_CELL so, the one with the largest cells under it, down to PROJECTOR_CELL (and the cell that shows the
// digits at MIN_FONT), that does; else the one that is shortest with cells of MIN_CELL (the page then scrolls a
// little, the cells stay large). {cell, q (multiples per row), boxes (each panel's x, y, w, h in px of the plot),
// height}, or null when no arrangement is MIN_CELL wide. `titles`: each panel's title width (px), `longest`: each
// panel's longest cell text (characters).
export function projectorPlan({ data, avail, shown, labelled, room, titles, longest }) {
  const gap = GAP_PX;
  const between = FIT_TOP + (labelled ? 22 : 6); // the labels under a panel's multiples, the next panel's titles
  const counts = [0, 1, 2].map((i) => (shown.includes(i) ? multiplesOf(data, i) : 1));
  const ways = arrangements(shown);
  const place = (lines, q, c, spread) => { // each panel's box at cell c; the whole's width and height
    const dims = (i) => panelDims(data, i, q[i]);
    const cols = (i) => (counts[i] > 1 ? dims(i)[0] : data.panel_cols[i]);
    const boxes = [null, null, null];
    let top = 0, wide = 0;
    for (const line of lines) {
      const stackW = line.map((st) => Math.max(...st.map((i) => Math.max(cols(i) * c, titles[i]))));
      const stackH = line.map((st) => st.reduce((sum, i) => sum + dims(i)[1] * c, 0) + between * (st.length - 1));
      const used = stackW.reduce((a, b) => a + b, 0) + gap * (line.length - 1);
      const spare = spread ? Math.max(avail - used, 0) / line.length : 0;
      let x = 0;
      line.forEach((st, j) => {
        let y = top;
        for (const i of st) {
          boxes[i] = { x, y, w: stackW[j] + spare, h: dims(i)[1] * c };
          y += dims(i)[1] * c + between;
        }
        x += stackW[j] + spare + gap;
      });
      wide = Math.max(wide, used);
      top += Math.max(...stackH) + between;
    }
    return { boxes, width: wide, height: top - between };
  };
  const fits = (lines, q, c) => { const p = place(lines, q, c, false); return p.width <= avail + 0.5 && p.height <= room + 0.5; };
  let best = null, least = null;
  const options = (i) => Array.from({ length: counts[i] }, (_, j) => counts[i] - j); // n, n-1, ..., 1 per row
  for (const q0 of options(0)) for (const q1 of options(1)) for (const q2 of options(2)) {
    const q = [q0, q1, q2];
    const wraps = [0, 1, 2].reduce((sum, i) => sum + Math.ceil(counts[i] / q[i]), 0);
    ways.forEach((lines, k) => {
      const atLeast = place(lines, q, MIN_CELL, false);
      if (atLeast.width > avail + 0.5) return; // not even MIN_CELL wide
      if (!least || atLeast.height < least.height) least = { cell: MIN_CELL, q, lines, height: atLeast.height };
      if (atLeast.height > room + 0.5) return;
      let lo = MIN_CELL, hi = MAX_CELL; // the largest cell that fits (width and height grow with it)
      if (fits(lines, q, hi)) lo = hi;
      else for (let n = 0; n < 20; n++) { const mid = (lo + hi) / 2; if (fits(lines, q, mid)) lo = mid; else hi = mid; }
      const score = [Math.floor(lo), -k, -wraps];
      const j = best ? score.findIndex((v, m) => v !== best.score[m]) : 0;
      if (!best || (j >= 0 && score[j] > best.score[j])) best = { score, cell: lo, q, lines };
    });
  }
  if (!best) { // nothing keeps MIN_CELL inside the window: the largest cells down to PROJECTOR_CELL (digits still
    // MIN_FONT px) that do, in the arrangement that keeps the most; else the shortest layout at MIN_CELL (it scrolls)
    const floor = Math.max(PROJECTOR_CELL, ...shown.map((i) => textCell(longest[i], PROJECTOR_CELL)));
    for (const q0 of options(0)) for (const q1 of options(1)) for (const q2 of options(2)) {
      const q = [q0, q1, q2];
      ways.forEach((lines) => {
        if (!fits(lines, q, floor)) return;
        let lo = floor, hi = MIN_CELL;
        for (let n = 0; n < 16; n++) { const mid = (lo + hi) / 2; if (fits(lines, q, mid)) lo = mid; else hi = mid; }
        if (!best || lo > best.cell + 0.25) best = { cell: lo, q, lines };
      });
    }
  }
  if (!best) best = least;
  if (!best) return null;
  const { boxes, height } = place(best.lines, best.q, best.cell, true);
  return { cell: best.cell, q: best.q, boxes, height };
}

// A short window (a projector) with data.room_below, side by side: the cells grow into the width a narrow panel's
// MIN_COLUMNS slot left empty (a panel is as wide as its cells or its title), then shrink until the figure ends
// inside `room` px of plot height (when that needs cells under MIN_CELL, they stay as wide as the width allows and
// the page scrolls). [cell, each panel's width in px].
export function fitToWindow({ data, avail, shown, dims, wideCell, rows, room, titles }) {
  const cols = (i) => (multiplesOf(data, i) > 1 ? dims(i)[0] : data.panel_cols[i]);
  const least = [0, 1, 2].map((i) => (shown.includes(i) ? titles[i] : 0));
  let c = MAX_CELL;
  for (let k = 0; k < 4; k++) { // the panels narrower than their titles keep the title's width, the rest share
    let fixed = 0, flex = 0;
    for (const i of shown) { if (cols(i) * c < least[i]) fixed += least[i]; else flex += cols(i); }
    c = Math.min(flex ? (avail - fixed) / flex : MAX_CELL, MAX_CELL);
  }
  const widthAt = (x) => shown.reduce((sum, i) => sum + Math.max(cols(i) * x, least[i]), 0);
  const byTitle = c > wideCell && widthAt(c) <= avail + 0.5; // else the MIN_COLUMNS slots, as on a tall window
  if (!byTitle) c = wideCell;
  if (room / rows >= MIN_CELL) c = Math.min(c, room / rows); // else it cannot fit: the page scrolls, cells stay large
  const widths = [0, 1, 2].map((i) => (!shown.includes(i) ? 0 : byTitle ? Math.max(cols(i) * c, least[i]) : dims(i)[0] * c));
  const spare = Math.max(avail - widths.reduce((a, b) => a + b, 0), 0) / shown.length; // the width left over goes
  return [c, widths.map((w, i) => (shown.includes(i) ? w + spare : w))]; // to every panel (cells centred in it)
}

// The figure's layout: one cell size for every panel, chosen so the widest figure fits; stacked when narrow.
// Stacked: the output below at full width, the inputs above it side by side when they fit (else one under the
// other); a panel's small multiples wrap into more rows rather than go below MIN_CELL. `width`: the figure's px;
// `room(margin)`: the px of plot height a short window has for it (it may set margin.t; null: no limit);
// `titles(shown)`: each panel's title width in px; `longest`: each panel's longest cell text. Returns
// {layout (plotly's, themed), cells (px, per panel), perRow (multiples per row), figW (px, may exceed width)}.
export function figureLayout({ data, theme, width, room, titles, longest }) {
  const d = data;
  const t = theme;
  const gap = GAP_PX;
  // labels under small multiples or windows (annotations on the axes) need room below the tallest panel
  const labelled = (d.figure.layout.annotations || []).some((a) => a.xref && a.xref !== "paper");
  const wideMargin = { l: 34, r: 90, t: 58, b: labelled ? 32 : 16 }; // r: the colour bar, its ticks and title
  const q = [0, 1, 2].map((i) => multiplesOf(d, i));
  const hidden = d.hidden || [false, false, false]; // e.g. the indices of an operator that reads none
  const shown = [0, 1, 2].filter((i) => !hidden[i]);
  const dims = (i) => (hidden[i] ? [0, 0] : panelDims(d, i, q[i]));
  const wideCell = Math.min((width - wideMargin.l - wideMargin.r - gap * (shown.length - 1))
                            / shown.reduce((sum, i) => sum + dims(i)[0], 0), MAX_CELL);
  // a short, wide window (a projector) with room_below: the arrangement of the panels that gives the largest cells
  let plan = null;
  if (width >= NARROW) {
    const bottom = wideMargin.b;
    if (labelled) wideMargin.b = 24; // the labels under the multiples (11 px), without the explorer's spare band
    const plotRoom = room(wideMargin);
    if (plotRoom != null) {
      plan = projectorPlan({ data: d, avail: width - wideMargin.l - wideMargin.r, shown, labelled, room: plotRoom,
                             titles: titles(shown), longest });
    }
    if (!plan) wideMargin.b = bottom;
  }
  const narrow = !plan && (width < NARROW || wideCell < MIN_CELL);
  const margin = narrow ? { l: 34, r: 16, t: 58, b: 90 } : wideMargin; // b: the colour bar below
  let cell, height, figW = width, cells, barY = 0, barSpan = 1;
  const dom = [];
  if (plan) { // one cell size for every panel, each panel in its box of the plan (px from the plot's top left)
    cell = plan.cell;
    plan.q.forEach((x, i) => { q[i] = x; });
    cells = [cell, cell, cell];
    const plotH = Math.max(plan.height, FIT_PLOT);
    height = plotH + margin.t + margin.b;
    const plotW = width - margin.l - margin.r;
    for (const i of shown) {
      const b = plan.boxes[i];
      dom[i] = { x: [b.x / plotW, Math.min((b.x + b.w) / plotW, 1)], y: [1 - (b.y + b.h) / plotH, 1 - b.y / plotH] };
    }
  } else if (!narrow) {
    cell = wideCell;
    const rows = [0, 1, 2].map((i) => dims(i)[1]);
    let panelW = [0, 1, 2].map((i) => dims(i)[0] * cell); // each panel's share of the width, px
    const plotRoom = room(margin);
    const fitted = plotRoom == null ? null
      : fitToWindow({ data: d, avail: width - margin.l - margin.r - gap * (shown.length - 1), shown, dims, wideCell,
                      rows: Math.max(...rows), room: plotRoom, titles: titles(shown) });
    if (fitted) [cell, panelW] = fitted;
    cells = [cell, cell, cell];
    const plotH = Math.max(Math.max(...rows) * cell, fitted ? 120 : 150); // 120: the colour bar's least length
    height = plotH + margin.t + margin.b;
    const plotW = width - margin.l - margin.r;
    let x = 0;
    for (const i of shown) {
      const w = panelW[i] / plotW;
      dom[i] = { x: [x, Math.min(x + w, 1)], y: [1 - rows[i] * cell / plotH, 1] };
      x += w + gap / plotW;
    }
  } else {
    const avail = width - margin.l - margin.r;
    // narrow (a phone): every panel keeps cells that hold its digits at MIN_FONT px (need[i])
    const need = [0, 1, 2].map((i) => textCell(longest[i]));
    const least = (i) => Math.max(WRAP_AT * MIN_CELL, need[i]);
    const fit = (i, px) => { // fewest rows of multiples that keep MIN_CELL in `px`
      q[i] = multiplesOf(d, i);
      while (q[i] > 1 && px / dims(i)[0] < least(i)) q[i] -= 1;
    };
    fit(2, avail);
    // the output keeps at least MIN_CELL a cell: the figure scrolls sideways rather than shrink it
    cell = Math.min(Math.max(avail / dims(2)[0], least(2)), Math.max(MAX_CELL, need[2]));
    const pairCell = () => (hidden[0] || hidden[1] ? avail : avail - gap) / (dims(0)[0] + dims(1)[0]);
    while (pairCell() < MIN_CELL && (q[0] > 1 || q[1] > 1)) {
      const j = q[1] > 1 && (q[0] <= 1 || dims(1)[0] >= dims(0)[0]) ? 1 : 0;
      q[j] -= 1;
    }
    let lines;
    if (pairCell() >= Math.max(SIDE_BY_SIDE * MIN_CELL, need[0], need[1]) || pairCell() >= cell) {
      const tc = Math.max(Math.min(pairCell(), cell), need[0], need[1]);
      cells = [tc, tc, cell];
      lines = [[0, 1], [2]];
    } else { // the inputs do not fit side by side: one under the other
      fit(0, avail);
      fit(1, avail);
      cells = [0, 1].map((i) => Math.max(Math.min(Math.max(avail / dims(i)[0], WRAP_AT * MIN_CELL), cell), need[i]))
        .concat([cell]);
      lines = [[0], [1], [2]];
    }
    lines = lines.map((line) => line.filter((i) => !hidden[i])).filter((line) => line.length);
    const titleGap = 80; // a row's small-multiple labels, then the next row's title and column numbers
    const plotRoom = room(margin); // a short window: every panel's cells shrink alike to fit its height
    const heightAt = (cs) => lines.reduce((sum, line) => sum + Math.max(...line.map((i) => dims(i)[1] * cs[i])), 0);
    if (plotRoom != null && heightAt(cells) + titleGap * (lines.length - 1) > plotRoom) {
      const f = Math.max(plotRoom - titleGap * (lines.length - 1), 0) / heightAt(cells);
      if (cells.every((x, i) => x * f >= Math.min(x, Math.max(MIN_CELL, need[i])))) { // else it cannot fit
        cells = cells.map((x) => x * f);
        cell = cells[2];
      }
    }
    const c = cells;
    const lineW = (line) => line.reduce((sum, i) => sum + dims(i)[0] * c[i], 0) + gap * (line.length - 1);
    const plotW = Math.max(avail, ...lines.map(lineW));
    figW = plotW + margin.l + margin.r;
    const lineH = lines.map((line) => Math.max(...line.map((i) => dims(i)[1] * c[i])));
    const plotH = lineH.reduce((a, b) => a + b, 0) + titleGap * (lines.length - 1);
    height = plotH + margin.t + margin.b;
    let top = 0;
    lines.forEach((line, li) => {
      let x = 0;
      for (const i of line) {
        const w = dims(i)[0] * c[i] / plotW;
        dom[i] = { x: [x, Math.min(x + w, 1)], y: [1 - (top + dims(i)[1] * c[i]) / plotH, 1 - top / plotH] };
        x += w + gap / plotW;
      }
      top += lineH[li] + titleGap;
    });
    barY = -30 / plotH;
    barSpan = avail / plotW; // the share of the plot on screen before scrolling sideways
  }
  const base = wrapLayout(d, q, JSON.parse(JSON.stringify(d.figure.layout)));
  for (let i = 0; i < 3; i++) {
    const ref = i === 0 ? "" : String(i + 1);
    const place = dom[i] || { x: [0, 0.001], y: [0, 0.001] };
    Object.assign(base[`xaxis${ref}`], { domain: place.x }, hidden[i] ? { visible: false } : {});
    Object.assign(base[`yaxis${ref}`], { domain: place.y }, hidden[i] ? { visible: false } : {});
  }
  base.height = Math.round(height);
  if (figW > width) { base.width = Math.round(figW); base.autosize = false; } else { base.autosize = true; }
  base.margin = margin;
  base.paper_bgcolor = t.bg;
  base.plot_bgcolor = t.bg;
  base.font = { ...(base.font || {}), color: t.text, family: t.font };
  base.hoverlabel = { bgcolor: t.second, font: { color: t.text, family: t.font } };
  const bar = base.coloraxis.colorbar;
  base.coloraxis.colorscale = t.scale;
  if (narrow) {
    Object.assign(bar, { orientation: "h", x: barSpan / 2, xanchor: "center", y: barY, yanchor: "top",
                         len: 0.9 * barSpan, thickness: 10, title: { text: "value", side: "left" } });
  } else {
    const plotH = height - margin.t - margin.b;
    Object.assign(bar, { orientation: "v", x: 1.0, xanchor: "left", xpad: 8, lenmode: "pixels",
                         len: Math.max(Math.min(plotH, 260), plan ? FIT_PLOT : 120), y: 1, yanchor: "top", nticks: 5,
                         thickness: 12, title: { text: "value", side: "right" } }); // on top it met the top tick
  }
  return { layout: base, cells, perRow: q, figW, cell, narrow };
}
