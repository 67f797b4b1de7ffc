// The player's drawing: colours, the cell texts it builds from the data (a value and its write count), the
// traces and frames as plotly draws them, the first frame as SVG (before plotly.js has loaded), the text form of
// every panel, and an exported frame's caption. Colours come from Python as data (data.palette,
// scatter_ui/player/contract.py PALETTE): none is written here.
import { cellFont, fitLabels, withFrame, wrapLayout, wrapTrace } from "./layout.mjs";

let colourProbe = null; // one 2D context that normalises any other CSS colour, reused for every cell
// [r, g, b] (0..255) of a CSS colour: #rgb, #rrggbb and rgb()/rgba() read here, any other through a canvas
export function rgbOf(colour) {
  const text = String(colour).trim();
  let m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text);
  if (m) {
    const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join("") : m[1];
    return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  }
  m = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)/i.exec(text);
  if (m) return m.slice(1, 4).map(Number);
  const probe = colourProbe || (colourProbe = document.createElement("canvas").getContext("2d"));
  probe.fillStyle = "#000000";
  probe.fillStyle = text;
  return rgbOf(probe.fillStyle);
}

export function luminance(colour) {
  const [r, g, b] = rgbOf(colour);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

// the colour of value u (0..1) on a plotly colorscale [[pos, colour], ...], interpolated in RGB as plotly does
export function colourAt(scale, u) {
  u = Math.min(Math.max(Number.isFinite(u) ? u : 0, 0), 1);
  let j = 1;
  while (j < scale.length - 1 && scale[j][0] < u) j++;
  const [p0, c0] = scale[j - 1], [p1, c1] = scale[j];
  const f = p1 > p0 ? (u - p0) / (p1 - p0) : 0;
  const a = rgbOf(c0), b = rgbOf(c1);
  return `rgb(${a.map((v, i) => Math.round(v + (b[i] - v) * Math.min(Math.max(f, 0), 1))).join(",")})`;
}

// Streamlit's theme (its CSS variables on `node`) with the palette Python sent for a light or a dark background
export function themeOf(node, palette) {
  const style = getComputedStyle(node);
  const css = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  const bg = css("--st-background-color", "#ffffff");
  const text = css("--st-text-color", "#31333f");
  const second = css("--st-secondary-background-color", "#f0f2f6");
  const font = css("--st-font", "sans-serif");
  const dark = luminance(bg) < 0.5;
  const colours = dark ? palette.dark : palette.light;
  return { dark, bg, text, second, font, scale: colours.value, cellText: colours.cell_text, written: colours.written };
}

export const escapeMarkup = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
// plotly's text markup back to plain text (its tags dropped, the escaped characters restored)
export const plain = (s) => String(s).replace(/<[^>]+>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
  .replace(/&amp;/g, "&");

// what plotly draws in a cell: its value, and under it "×n" when it was written n > 1 times (Trace.counts)
export function cellMarkup(value, count) {
  return count > 1 ? `${escapeMarkup(value)}<br><span>×${count}</span>` : escapeMarkup(value);
}

// a trace (or a frame's trace) as plotly takes it: its cell texts built from the values and write counts
export function withMarks(tr) {
  if (!("counts" in tr) && !Array.isArray(tr.text)) return tr;
  const { counts, ...out } = tr; // (counts are the player's to read, not plotly's)
  if (Array.isArray(out.text)) {
    out.text = out.text.map((row, r) => (Array.isArray(row)
      ? row.map((value, c) => cellMarkup(value, counts && counts[r] ? counts[r][c] : 0)) : row));
  }
  return out;
}

// the figure's traces as plotly draws them in this layout: small multiples wrapped (perRow), the theme's font and
// cell text colour, cell text as large as the cell (cells, longest) allows, the hidden panels left out
export function themedTraces(traces, { data, theme, perRow, cells, longest }) {
  return traces.map((tr, i) => {
    const out = { ...wrapTrace(data, perRow, i, tr), textfont: { ...(tr.textfont || {}), family: theme.font } };
    if (data.hidden && data.hidden[i]) out.visible = false;
    if (theme.cellText) out.textfont.color = theme.cellText; // (the dark scale stays dark enough for it: >= 4.5:1)
    if (i === 0) out.colorscale = [[0, theme.second], [1, theme.second]];
    const size = cellFont(cells[i], longest[i], out.textfont.size);
    if (!size) out.texttemplate = ""; // no room for digits: the hover has the value
    else out.textfont.size = size;
    return withMarks(out);
  });
}

// a frame as plotly animates it in this layout: wrapped, labels fitted, the written cells' frames in the theme's colour
export function themedFrame(f, { data, theme, perRow, cells }) {
  const wrapped = wrapLayout(data, perRow, f.layout);
  const layout = { ...wrapped, annotations: fitLabels(wrapped.annotations, data.panel_cols, cells) };
  if (layout.shapes) {
    layout.shapes = layout.shapes.map((s) => (s.line && s.line.color === data.palette.written
      ? { ...s, line: { ...s.line, color: theme.written } } : s));
  }
  return { ...f, data: f.data.map((tr, j) => withMarks(wrapTrace(data, perRow, f.traces[j], tr))), layout };
}

// -- the first draw: a frame as SVG while plotly.js loads ------------------------------------------------------
// It reads the same figure plotly will draw (the layout's domains, the themed traces, the frame's shapes and
// labels) so the swap does not move anything: square cells of cells[i] px, row 0 at the top, integer ticks, each
// cell's text, the written and current-write outlines, one fixed colour scale. Hover text comes from <title>;
// arrows and the colour bar's ticks wait for plotly. Output cells carry data-cell="row,col".
export function previewSvg(doc, { traces, layout, theme, cells, width }) {
  const t = theme;
  const W = Math.round(layout.width || width);
  const H = layout.height;
  const m = layout.margin;
  const plotW = W - m.l - m.r, plotH = H - m.t - m.b;
  const NS = "http://www.w3.org/2000/svg";
  const svg = doc.createElementNS(NS, "svg");
  const add = (parent, tag, attrs, text) => {
    const e = doc.createElementNS(NS, tag);
    for (const [a, v] of Object.entries(attrs)) e.setAttribute(a, String(v));
    if (text !== undefined) e.textContent = text;
    parent.appendChild(e);
    return e;
  };
  svg.setAttribute("width", String(W));
  svg.setAttribute("height", String(H));
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("font-family", t.font);
  add(svg, "rect", { width: W, height: H, fill: t.bg });
  const ca = layout.coloraxis || {};
  const cmin = Number(ca.cmin ?? 0), cmax = Number(ca.cmax ?? 1);
  const panels = [];
  for (let i = 0; i < 3; i++) {
    const ref = i === 0 ? "" : String(i + 1);
    const xa = layout[`xaxis${ref}`], ya = layout[`yaxis${ref}`];
    const tr = traces[i];
    if (!tr || tr.visible === false || !xa || xa.visible === false || !Array.isArray(tr.z)) { panels.push(null); continue; }
    const c = cells[i];
    // plotly keeps cells square by shrinking a panel's domain around its centre to the data's size
    const cols = Math.max(...tr.z.map((row) => (Array.isArray(row) ? row.length : 0)), 0);
    const x0 = m.l + xa.domain[0] * plotW + ((xa.domain[1] - xa.domain[0]) * plotW - cols * c) / 2;
    const y0 = m.t + (1 - ya.domain[1]) * plotH + ((ya.domain[1] - ya.domain[0]) * plotH - tr.z.length * c) / 2;
    panels.push({ x0, y0, c });
    const g = add(svg, "g", { "data-panel": String(i) });
    const flat = i === 0 ? t.second : null;
    const size = (tr.textfont && tr.textfont.size) || 12;
    const showText = tr.texttemplate !== "";
    tr.z.forEach((row, r) => {
      if (!Array.isArray(row)) return;
      row.forEach((z, col) => {
        if (z === null || z === undefined) return;
        const fill = flat || colourAt(t.scale, cmax > cmin ? (Number(z) - cmin) / (cmax - cmin) : 0.5);
        const cx = x0 + col * c, cy = y0 + r * c;
        const cellG = add(g, "g", {});
        const rect = add(cellG, "rect", { x: cx + 1, y: cy + 1, width: Math.max(c - 2, 1), height: Math.max(c - 2, 1), fill });
        if (i === 2) rect.setAttribute("data-cell", `${r},${col}`);
        const hover = tr.customdata && tr.customdata[r] && tr.customdata[r][col];
        if (hover) add(cellG, "title", {}, plain(String(hover).replace(/<br>/g, "\n")));
        const text = showText && tr.text && tr.text[r] && tr.text[r][col];
        if (!text) return;
        const lines = String(text).split("<br>").map(plain);
        const ink = t.cellText || (luminance(fill) < 0.5 ? "#ffffff" : "#444444");
        const top = cy + c / 2 - ((lines.length - 1) * size * 1.1) / 2;
        lines.forEach((line, li) => add(cellG, "text", {
          x: cx + c / 2, y: top + li * size * 1.1, "text-anchor": "middle", "dominant-baseline": "central",
          "font-size": size, fill: ink }, line));
      });
    });
    // ticks: column numbers above, row numbers at the left (integer labels, as plotly's array ticks)
    const tickSize = 12;
    (xa.tickvals || []).forEach((v, j) => add(svg, "text", {
      x: x0 + (v + 0.5) * c, y: y0 - 5, "text-anchor": "middle", "font-size": tickSize, fill: t.text,
    }, String(xa.ticktext ? xa.ticktext[j] : v)));
    (ya.tickvals || []).forEach((v, j) => add(svg, "text", {
      x: x0 - 5, y: y0 + (v + 0.5) * c, "text-anchor": "end", "dominant-baseline": "central",
      "font-size": tickSize, fill: t.text,
    }, String(ya.ticktext ? ya.ticktext[j] : v)));
    const title = xa.title && xa.title.text;
    if (title) { // centred over the panel, above its column numbers
      const tt = add(svg, "text", { x: x0 + cols * c / 2, y: y0 - 5 - tickSize - 6, "text-anchor": "middle",
                                    "font-size": (xa.title.font && xa.title.font.size) || 13, fill: t.text });
      for (const part of String(title).split(/(<b>.*?<\/b>)/)) {
        if (!part) continue;
        const bold = part.startsWith("<b>");
        add(tt, "tspan", bold ? { "font-weight": "bold" } : {}, plain(part));
      }
    }
  }
  const toPx = (ref, v, axis) => { // a shape or label coordinate in px
    if (!ref || ref === "paper") return axis === "x" ? m.l + v * plotW : m.t + (1 - v) * plotH;
    const p = panels[ref.length === 1 ? 0 : Number(ref.slice(1)) - 1];
    if (!p) return null;
    return axis === "x" ? p.x0 + (v + 0.5) * p.c : p.y0 + (v + 0.5) * p.c;
  };
  for (const sh of layout.shapes || []) {
    const line = sh.line || {};
    const style = { fill: sh.fillcolor || "none", stroke: line.color || t.text, "stroke-width": line.width ?? 1,
                    ...(line.dash && line.dash !== "solid" ? { "stroke-dasharray": "4 3" } : {}) };
    if (sh.type === "rect") {
      const xa = toPx(sh.xref, sh.x0, "x"), xb = toPx(sh.xref, sh.x1, "x");
      const ya = toPx(sh.yref, sh.y0, "y"), yb = toPx(sh.yref, sh.y1, "y");
      if ([xa, xb, ya, yb].some((v) => v === null)) continue;
      add(svg, "rect", { x: Math.min(xa, xb), y: Math.min(ya, yb), width: Math.abs(xb - xa), height: Math.abs(yb - ya), ...style });
    } else if (sh.type === "path" && sh.path) {
      const px = (v) => toPx(sh.xref, Number(v), "x"), py = (v) => toPx(sh.yref, Number(v), "y");
      if (px(0) === null || py(0) === null) continue;
      const d = sh.path.includes("L") // triangles (the write's filled corners), else rectangles
        ? sh.path.replace(/([ML])([-\d.e]+),([-\d.e]+)/g, (all, op, a, b) => `${op}${px(a)},${py(b)}`)
        : sh.path.replace(/M([-\d.e]+),([-\d.e]+)H([-\d.e]+)V([-\d.e]+)H([-\d.e]+)Z/g,
          (all, a, b, c2, e, f2) => `M${px(a)},${py(b)}H${px(c2)}V${py(e)}H${px(f2)}Z`);
      add(svg, "path", { d, ...style });
    }
  }
  for (const a of layout.annotations || []) {
    if (a.showarrow !== false || !a.text) continue; // arrows wait for plotly
    const x = toPx(a.xref, a.x, "x"), y = toPx(a.yref, a.y, "y");
    if (x === null || y === null) continue;
    const size = (a.font && a.font.size) || 12;
    const anchor = { left: "start", right: "end" }[a.xanchor] || "middle";
    const dy = a.yanchor === "top" ? size : a.yanchor === "bottom" ? 0 : size / 2;
    add(svg, "text", { x: x + (a.xshift || 0), y: y - (a.yshift || 0) + dy - 2, "text-anchor": anchor,
                       "font-size": size, fill: t.text }, plain(a.text));
  }
  const bar = ca.colorbar || {};
  if (cmax > cmin) { // the colour scale, low to high (plotly adds its ticks and title)
    const gid = `sx-grad-${Math.random().toString(36).slice(2)}`;
    const vertical = bar.orientation === "v";
    const grad = add(add(svg, "defs", {}), "linearGradient",
                     vertical ? { id: gid, x1: 0, y1: 1, x2: 0, y2: 0 } : { id: gid, x1: 0, y1: 0, x2: 1, y2: 0 });
    for (const [pos, col] of t.scale) add(grad, "stop", { offset: pos, "stop-color": col });
    const thick = bar.thickness || 12;
    if (vertical) add(svg, "rect", { x: m.l + plotW + (bar.xpad ?? 10), y: m.t, width: thick, height: bar.len || 200,
                                     fill: `url(#${gid})` });
    else {
      const len = (bar.len || 0.9) * plotW;
      add(svg, "rect", { x: m.l + (bar.x ?? 0.5) * plotW - len / 2, y: m.t + (1 - (bar.y ?? 0)) * plotH + 2,
                         width: len, height: thick, fill: `url(#${gid})` });
    }
  }
  return svg;
}

// -- the text form: each panel's cells at step k, as text ------------------------------------------------------
// The same text as the cells (Python formats it with scatter_core's fmt_value), in the canvas Python laid out
// (rows and columns as numbered on the axes; small multiples side by side, labelled); this step's read and write
// are marked, and a cell written more than once says how often. One table a shown panel:
// {panel, caption, corner (the header's first cell, or null), head, rows: [{name, cells: [{value, times, now}]}]}.
export function tablePanels(data, frame, k) {
  const d = data;
  const traces = d.figure.data.map((t) => ({ ...t }));
  const layout = { ...d.figure.layout };
  withFrame(traces, layout, frame);
  const marked = [0, 1, 2].map(() => new Set()); // "row,col" of cells inside this step's thick frames
  for (const sh of layout.shapes || []) {
    if (sh.type !== "rect" || !sh.line || sh.line.color !== d.palette.highlight) continue;
    const i = sh.xref === "x" ? 0 : Number(String(sh.xref).slice(1)) - 1;
    for (let r = Math.ceil(sh.y0); r <= Math.floor(sh.y1); r++) {
      for (let c = Math.ceil(sh.x0); c <= Math.floor(sh.x1); c++) if (marked[i]) marked[i].add(`${r},${c}`);
    }
  }
  const when = k === 0 ? "initial state" : `after step ${k} of ${d.steps != null ? d.steps : d.n}`;
  const out = [];
  for (let i = 0; i < 3; i++) {
    if (d.hidden && d.hidden[i]) continue;
    const ref = i === 0 ? "" : String(i + 1);
    const xa = layout[`xaxis${ref}`] || {}, ya = layout[`yaxis${ref}`] || {};
    const rows = Array.isArray(traces[i].text) ? traces[i].text : [];
    const counts = Array.isArray(traces[i].counts) ? traces[i].counts : [];
    const colName = new Map((xa.tickvals || []).map((v, j) => [v, xa.ticktext ? xa.ticktext[j] : String(v)]));
    const rowName = (r) => { const j = (ya.tickvals || []).indexOf(r); return j >= 0 && ya.ticktext ? ya.ticktext[j] : String(r); };
    // small multiples: the label of the multiple each column belongs to
    const [count, w] = (d.multiples && d.multiples[i]) || [0, 0];
    const labels = (layout.annotations || []).filter((a) => a.xref === `x${ref}` && a.name).sort((a, b) => a.x - b.x)
      .map((a) => plain(a.text));
    const span = w + (d.gap || 1);
    const cols = [...colName.keys()].sort((a, b) => a - b);
    const title = plain((xa.title && xa.title.text) || "");
    const byRow = Boolean(ya.ticktext && ya.ticktext.some((t) => t)); // rank 1: one row, no row numbers
    const head = cols.map((c) => {
      const p = count > 1 ? Math.floor(c / span) : -1;
      return p >= 0 && labels[p] ? `${labels[p]} ${colName.get(c)}` : colName.get(c);
    });
    const body = rows.map((row, r) => ({
      name: byRow ? rowName(r) : null,
      cells: cols.map((c) => {
        const n = Array.isArray(counts[r]) ? counts[r][c] || 0 : 0;
        return { value: String((Array.isArray(row) && row[c]) || ""), times: n > 1 ? n : 0,
                 now: marked[i].has(`${r},${c}`) ? (i === 2 ? "written" : "read") : null };
      }),
    }));
    out.push({ panel: i, caption: `${title}, ${when}`, corner: byRow ? "row \\ column" : null, head, rows: body });
  }
  return out;
}

// the words a table cell adds after its value: how often it was written, and this step's read or write
export function cellNotes(cell) {
  return { times: cell.times ? ` ×${cell.times}: written ${cell.times} times` : "",
           now: cell.now ? ` ← ${cell.now} this step` : "" };
}

// -- export: a frame's caption, wrapped to the image's width (never cut at its right edge) ---------------------
export function captionLines(caption, width) {
  const perLine = Math.max(Math.floor((width - 16) / (13 * 0.56)), 20);
  const lines = [];
  let line = "";
  for (const word of (caption || "").split(" ")) {
    if (line && (line + " " + word).length > perLine) {
      lines.push(line);
      line = word;
    } else line = line ? line + " " + word : word;
  }
  if (line) lines.push(line);
  return lines;
}

export function captionHeight(lines) {
  return 12 + 18 * Math.max(lines, 1);
}
