// The step player of Scatter Explorer: a Streamlit components-v2 module (in the page, no iframe).
//
// It owns the step: draws the three heatmaps (at once as SVG, then with plotly.js once that has
// loaded: drawPreview), plays the frames in the browser, and steps on buttons, the slider, "go to
// step" and keys without asking the server. It tells Python the step (component state "step", which
// reruns the page's step fragment) only when Python needs it and only the latest: once stepping has
// paused for QUIET_MS (PLAY_REPORT_MS while playing), or at once when the next frames must come.
// Holding a key sends nothing until it is released. A click on an output cell sets the trigger
// "cell" to that cell's coordinates. Python sends `data` (see scatter_ui/player/component.py).
// Every text shown here is set with textContent (never parsed as HTML or Markdown).

const QUIET_MS = 300; // a step is reported once stepping has paused this long (only the latest step)
const PLAY_REPORT_MS = 900; // while playing: a step is reported when no other follows within this time
const WATCH_MS = 2500; // after a report: when the URL should carry the step (else it is said again)
const RERUN_EVENT = "scatter-explorer:full-rerun"; // scatter_ui/player/component.py RERUN_EVENT (rerun_relay)
const BASE_FRAME_MS = 900; // one step per 0.9 s at 1x
const SPEEDS = [0.25, 0.5, 1, 2, 4];
const MAX_STRIP = 24;
const MIN_CELL = 28; // px: the smallest cell drawn
const MAX_CELL = 64;
const MAX_FONT = 16; // px: the largest cell text
const WRAP_AT = 0.95; // small multiples wrap into another row below this share of MIN_CELL ("about 28 px")
const SIDE_BY_SIDE = 0.85; // stacked: the inputs stay side by side down to this share of MIN_CELL
const NARROW = 700; // px: below this the panels stack
const FIT_TOP = 40; // px: the figure's top margin when fitted to a short window (else 58)
const SHORT = 820; // px: a window at most this tall (a 1280x720 projector) fits the figure to its height (room_below)
// the arrangements a projector's figure tries, simplest first: lines (top to bottom) of stacks (left to right) of
// panels (0 indices, 1 updates, 2 output; top to bottom)
const ARRANGEMENTS = [[[[0], [1], [2]]], [[[0], [1]], [[2]]], [[[0]], [[1], [2]]], [[[0], [1, 2]]], [[[0, 1], [2]]],
                      [[[1], [0, 2]]]];
const PROJECTOR_CELL = 24; // px: a projector's figure goes below MIN_CELL, down to this, only when nothing else
// keeps the answer on screen (and never below what holds its digits at MIN_FONT: textCell)
const FIT_PLOT = 84; // px: the least plot height of a figure fitted to a short window (its colour bar's length)
// Colours come from Python as data (data.palette, scatter_ui/player/contract.py PALETTE): none is written here.
const MIN_FONT = 12; // px: the smallest cell digits on a narrow screen (cells grow, the figure scrolls)
const BADGE = /<br><span style='font-size:\d+px'>×(\d+)<\/span>/; // figures.py: "written n times" under a value

// plotly.js (the cartesian dist in the player's asset folder): Python sends its URL as data.plotly_url,
// because this module is imported from a Blob URL (scatter_ui/player/component.py passes it as content).
// It is fetched gzipped (the same URL + ".gz") and unpacked by the browser (DecompressionStream): Streamlit
// gzips a component's files anew on every request, at level 9, which for this 1.5 MB file cost the server
// tens of ms of CPU per visit; a file that is gzip already it sends as it is (bench/bench_visit_cpu.py,
// docs/performance.md). Without DecompressionStream, or if that fails, the plain file is loaded.
let plotlyPromise = null;
async function plotlySource(url) {
  if (typeof DecompressionStream !== "function") return url;
  try {
    const r = await fetch(url + ".gz");
    if (!r.ok || !r.body) return url;
    const js = await new Response(r.body.pipeThrough(new DecompressionStream("gzip"))).blob();
    return URL.createObjectURL(new Blob([js], { type: "text/javascript" }));
  } catch (e) {
    return url;
  }
}
function loadPlotly(url) {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!plotlyPromise) {
    plotlyPromise = plotlySource(url).then((src) => new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = src;
      s.async = true;
      s.dataset.plotly = src === url ? "plain" : "gzip";
      s.onload = () => { if (src !== url) URL.revokeObjectURL(src); resolve(window.Plotly); };
      s.onerror = () => { plotlyPromise = null; reject(new Error("could not load plotly.js from " + url)); };
      document.head.appendChild(s);
    }));
  }
  return plotlyPromise;
}

const players = new WeakMap();

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function cssVar(node, name, fallback) {
  const v = getComputedStyle(node).getPropertyValue(name).trim();
  return v || fallback;
}

function luminance(colour) {
  const [r, g, b] = rgbOf(colour);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

let colourProbe = null; // one 2D context that normalises any CSS colour, reused for every cell
function rgbOf(colour) {
  const probe = colourProbe || (colourProbe = document.createElement("canvas").getContext("2d"));
  probe.fillStyle = "#000000";
  probe.fillStyle = colour;
  const v = probe.fillStyle;
  if (v.startsWith("#")) return [1, 3, 5].map((i) => parseInt(v.slice(i, i + 2), 16));
  return v.match(/[\d.]+/g).slice(0, 3).map(Number);
}

// the colour of value u (0..1) on a plotly colorscale [[pos, colour], ...], interpolated in RGB as plotly does
function colourAt(scale, u) {
  u = Math.min(Math.max(Number.isFinite(u) ? u : 0, 0), 1);
  let j = 1;
  while (j < scale.length - 1 && scale[j][0] < u) j++;
  const [p0, c0] = scale[j - 1], [p1, c1] = scale[j];
  const f = p1 > p0 ? (u - p0) / (p1 - p0) : 0;
  const a = rgbOf(c0), b = rgbOf(c1);
  return `rgb(${a.map((v, i) => Math.round(v + (b[i] - v) * Math.min(Math.max(f, 0), 1))).join(",")})`;
}

// a frame's values and layout (shapes, labels, ticks) put over a figure's traces and layout, in place
function withFrame(traces, layout, frame) {
  if (!frame) return;
  frame.traces.forEach((ti, j) => { traces[ti] = { ...traces[ti], ...frame.data[j] }; });
  for (const [key, val] of Object.entries(frame.layout)) {
    if (key.startsWith("xaxis") || key.startsWith("yaxis")) layout[key] = { ...layout[key], ...val };
    else layout[key] = val;
  }
}

// Streamlit's theme (its CSS variables) with the palette Python sent for a light or a dark background
function themeOf(node, palette) {
  const bg = cssVar(node, "--st-background-color", "#ffffff");
  const text = cssVar(node, "--st-text-color", "#31333f");
  const second = cssVar(node, "--st-secondary-background-color", "#f0f2f6");
  const font = cssVar(node, "--st-font", "sans-serif");
  const dark = luminance(bg) < 0.5;
  const colours = dark ? palette.dark : palette.light;
  return { dark, bg, text, second, font, scale: colours.value, cellText: colours.cell_text, written: colours.written };
}

// cell text with its "×n" (written n times) at the cell's own text size, not figures.py's 9 px
function badged(rows) {
  return rows.map((row) => (Array.isArray(row) ? row.map((t) => (typeof t === "string" && t.includes("<span")
    ? t.replace(/<span style='font-size:\d+px'>/, "<span>") : t)) : row));
}

function download(name, href) {
  const a = el("a", { href, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
}

class Player {
  constructor(root, api) {
    this.api = api;
    this.step = 0;
    this.playing = false;
    this.speed = 1;
    this.timer = null;
    this.reportTimer = null;
    this.lastReported = null;
    this.data = null;
    this.figKey = null;
    this.view = null;
    this.build(root);
  }

  build(root) {
    const box = el("div", { class: "sx-player", "data-testid": "scatter-player", tabindex: "0",
                            "aria-label": "step player: arrow keys step, space plays or pauses, Home and End jump" });
    this.caption = el("div", { class: "sx-caption", "data-testid": "scatter-caption", "aria-live": "polite" });
    this.fig = el("div", { class: "sx-fig", "data-testid": "scatter-figure" });
    // the first draw: an SVG of the current frame, drawn at once and shown over the figure until
    // plotly.js has loaded and drawn the same frame (then removed)
    this.stage = el("div", { class: "sx-stage" });
    this.stage.appendChild(this.fig);
    this.msg = el("div", { class: "sx-msg" });
    const bar = el("div", { class: "sx-controls" });
    const button = (label, title, fn, testid) => {
      const b = el("button", { type: "button", title, "aria-label": title, "data-testid": testid }, label);
      b.addEventListener("click", () => { fn(); });
      bar.appendChild(b);
      return b;
    };
    this.bFirst = button("|◀", "first step (initial state)", () => this.go(0), "player-first");
    this.bPrev = button("◀", "previous step", () => this.go(this.step - 1), "player-prev");
    this.bPlay = button("▶ play", "play", () => this.toggle(), "player-play");
    this.bNext = button("▶", "next step", () => this.go(this.step + 1), "player-next");
    this.bLast = button("▶|", "last step (final output)", () => this.go(this.data.n), "player-last");
    this.slider = el("input", { type: "range", min: "0", max: "0", value: "0", "aria-label": "step",
                                "data-testid": "player-slider", class: "sx-slider" });
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value), true));
    this.slider.addEventListener("change", () => this.go(Number(this.slider.value)));
    bar.appendChild(this.slider);
    this.count = el("span", { class: "sx-count", "data-testid": "player-count" });
    bar.appendChild(this.count);
    const goto = el("label", { class: "sx-goto" }, "go to ");
    this.gotoInput = el("input", { type: "number", min: "0", value: "0", "aria-label": "go to step",
                                   "data-testid": "player-goto" });
    this.gotoInput.addEventListener("change", () => this.go(Number(this.gotoInput.value)));
    goto.appendChild(this.gotoInput);
    bar.appendChild(goto);
    const speed = el("label", { class: "sx-speed" }, "speed ");
    this.speedSel = el("select", { "aria-label": "speed", "data-testid": "player-speed" });
    for (const s of SPEEDS) {
      const o = el("option", { value: String(s) }, `${s}×`);
      if (s === 1) o.selected = true;
      this.speedSel.appendChild(o);
    }
    this.speedSel.addEventListener("change", () => { this.speed = Number(this.speedSel.value); if (this.playing) this.schedule(); });
    speed.appendChild(this.speedSel);
    bar.appendChild(speed);

    const exp = el("details", { class: "sx-export" });
    exp.appendChild(el("summary", { "data-testid": "player-export" }, "export"));
    const row = el("div", { class: "sx-export-row" });
    const eb = (label, fn, testid) => {
      const b = el("button", { type: "button", "data-testid": testid }, label);
      b.addEventListener("click", () => fn().catch((e) => this.error(e)));
      row.appendChild(b);
    };
    eb("frame PNG", () => this.exportFrame("png"), "export-png");
    eb("frame SVG", () => this.exportFrame("svg"), "export-svg");
    const from = el("label", {}, "strip from ");
    this.stripFrom = el("input", { type: "number", min: "0", value: "0", "aria-label": "strip: first step",
                                   "data-testid": "strip-from" });
    from.appendChild(this.stripFrom);
    const to = el("label", {}, " to ");
    this.stripTo = el("input", { type: "number", min: "0", value: "0", "aria-label": "strip: last step",
                                 "data-testid": "strip-to" });
    to.appendChild(this.stripTo);
    row.appendChild(from);
    row.appendChild(to);
    eb("step strip PNG", () => this.exportStrip("png"), "export-strip-png");
    eb("step strip SVG", () => this.exportStrip("svg"), "export-strip-svg");
    this.stripNote = el("span", { class: "sx-note" });
    row.appendChild(this.stripNote);
    exp.appendChild(row);
    bar.appendChild(exp);
    this.keys = el("span", { class: "sx-keys" }, "keys: ← → step · space play/pause · Home/End");
    bar.appendChild(this.keys);

    // what the marks mean, in words (not colour alone: frames differ in thickness, duplicates carry ×n)
    this.legend = el("div", { class: "sx-legend", "data-testid": "player-legend" });
    for (const [mark, text] of [["sx-mark-read", "this step's read and write"], ["sx-mark-now", "the write"],
                                ["sx-mark-written", "written so far"],
                                ["sx-mark-times", "written n times so far (a duplicate index)"]]) {
      const item = el("span", { class: "sx-legend-item", "data-mark": mark });
      item.appendChild(el("span", { class: `sx-mark ${mark}`, "aria-hidden": "true" }, mark === "sx-mark-times" ? "×n" : ""));
      item.appendChild(el("span", {}, mark === "sx-mark-now" ? "filled corner: " + text
        : mark === "sx-mark-written" ? "thin frame: " + text : mark === "sx-mark-read" ? "thick frame: " + text : text));
      this.legend.appendChild(item);
    }
    // the colour scale's legend for the values kept off it, grey (Payload.apart: ±inf, a dtype's extremes)
    this.scaleNote = el("span", { class: "sx-legend-item", "data-mark": "sx-mark-apart", "data-testid": "player-scale-note" });
    this.scaleNote.appendChild(el("span", { class: "sx-mark sx-mark-apart", "aria-hidden": "true" }));
    this.scaleNoteText = el("span", {});
    this.scaleNote.appendChild(this.scaleNoteText);
    this.legend.appendChild(this.scaleNote);
    // the text form of every panel at the shown step, kept in step while open
    this.tableBox = el("details", { class: "sx-table", "data-testid": "player-table" });
    this.tableBox.appendChild(el("summary", {}, "table view: every value at this step"));
    this.tables = el("div", { class: "sx-tables" });
    this.tableBox.appendChild(this.tables);
    this.tableBox.addEventListener("toggle", () => this.renderTables());

    box.addEventListener("keydown", (ev) => this.onKey(ev));
    box.appendChild(this.caption);
    box.appendChild(this.stage);
    box.appendChild(bar);
    box.appendChild(this.legend);
    box.appendChild(this.tableBox);
    box.appendChild(this.msg);
    root.appendChild(box);
    this.box = box;
    this.resizeObserver = new ResizeObserver(() => this.relayout());
    this.resizeObserver.observe(box);
  }

  error(e) {
    this.msg.textContent = String(e && e.message ? e.message : e);
  }

  onKey(ev) {
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT") && t !== this.slider) return;
    const actions = {
      ArrowLeft: () => this.go(this.step - 1),
      ArrowRight: () => this.go(this.step + 1),
      Home: () => this.go(0),
      End: () => this.go(this.data.n),
      " ": () => this.toggle(),
    };
    const act = actions[ev.key];
    if (!act || !this.data) return;
    if (ev.key === " " && t && t.tagName === "BUTTON") return; // a focused button takes space itself
    if (ev.key === " " && this.bPlay.style.display === "none") return; // no play control: space does not play
    ev.preventDefault();
    act();
  }

  // Python may name the controls to show (player(controls=...)); the others are hidden. The Practice page
  // uses it so that no control sits there doing nothing (no step to move to, no "go to", no speed).
  showControls(names) {
    const parts = { first: this.bFirst, prev: this.bPrev, play: this.bPlay, next: this.bNext, last: this.bLast,
                    slider: this.slider, count: this.count, goto: this.gotoInput.parentNode,
                    speed: this.speedSel.parentNode, export: this.box.querySelector(".sx-export"), keys: this.keys };
    for (const [name, node] of Object.entries(parts)) node.style.display = !names || names.includes(name) ? "" : "none";
  }

  // -- data from Python ----------------------------------------------------------------------------
  // One update at a time: a refit (watchTop) or a relayout asked for while one runs waits for it (two interleaved
  // would wrap the frames for one layout and draw them in another).
  async update(data, api) {
    const before = this.updating || Promise.resolve();
    const run = before.catch(() => {}).then(() => this.updateNow(data, api));
    this.updating = run;
    try { return await run; } finally { if (this.updating === run) this.updating = null; }
  }

  async updateNow(data, api) {
    this.api = api;
    const Plotly = window.Plotly;
    const theme = themeOf(this.box, data.palette);
    if (data.apart) theme.scale = theme.dark ? data.apart.dark : data.apart.light; // the grey band of kept-apart values
    this.box.style.setProperty("--sx-highlight", data.palette.highlight); // player.css draws its marks with it
    const newView = data.view !== this.view;
    const figKey = `${data.view}|${data.k0}|${data.k1}|${theme.dark}|${theme.bg}|${theme.text}`;
    if (this.data === null && data.room_below != null && window.innerHeight <= SHORT) {
      // a new player on a projector page that fits its answer under it (Practice's next step or exercise): that
      // screen is read from its top, even when the button that led here sat lower on a taller previous screen
      const main = document.querySelector('[data-testid="stMain"]');
      if (main && main.scrollTop > 0) main.scrollTo(0, 0);
    }
    this.data = data;
    this.theme = theme;
    this.showControls(data.controls);
    // one frame (a still picture, e.g. Practice before the first step): the caption never changes, so it keeps no
    // room for a second line; a page fitting its answer under the player (room_below) has that row for its cells
    this.caption.style.minHeight = data.room_below != null && data.k0 === data.k1 ? "0" : "";
    // only the initial state (Practice before its first step): no frame or corner is drawn, so no legend of them
    this.legend.style.display = data.k1 === 0 && !data.apart ? "none" : "";
    for (const item of this.legend.children) { // before the first step only the scale's note has something to say
      if (item !== this.scaleNote) item.style.display = data.k1 === 0 ? "none" : "";
    }
    this.scaleNoteText.textContent = data.apart ? data.apart.note : "";
    this.scaleNote.style.display = data.apart ? "" : "none";
    this.scaleNote.firstChild.style.background = data.apart ? theme.scale[0][1] : "";
    if (newView) {
      this.view = data.view;
      this.step = data.step;
      this.lastReported = data.step;
      if (this.reportTimer) clearTimeout(this.reportTimer);
      this.reportTimer = null;
      this.pause(false);
    }
    if (data !== this.framesOf) { // (a rerun that sent the same data: nothing to index again)
      this.framesOf = data;
      this.frames = new Map(data.frames.map((f) => [Number(f.name), f]));
      this.longest = [0, 1, 2].map((i) => this.longestText(i, data.figure.data[i] || {}));
    }
    this.slider.max = String(data.n);
    this.gotoInput.max = String(data.n);
    this.stripFrom.max = this.stripTo.max = String(data.n);
    if (newView) {
      const lo = Math.max(data.k0, 0);
      this.stripFrom.value = String(lo);
      this.stripTo.value = String(Math.min(data.k1, lo + MAX_STRIP - 1));
    }
    const layout = this.layout(); // sets this.cell
    const domains = ["", "2", "3"].map((r) => [layout[`xaxis${r}`].domain, layout[`yaxis${r}`].domain]);
    const fullKey = `${figKey}|${this.cells.map(Math.round).join(",")}|${this.perRow.join(",")}|`
      + `${Math.round(this.figW)}|${layout.height}|${JSON.stringify(domains)}`; // (a projector's plan moves panels)
    if (!Plotly) { // plotly.js is still loading: draw this frame as SVG now, redraw with plotly when it comes
      layout.annotations = this.fitLabels(layout.annotations);
      this.previewLayout = layout;
      this.step = Math.min(Math.max(this.step, 0), data.n);
      await this.show(this.step);
      this.afterUpdate();
      if (!this.plotlyComing) { // after this frame is painted: parsing plotly.js blocks the page for a while
        this.plotlyComing = new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
          .then(() => loadPlotly(this.data.plotly_url)).then(() => this.update(this.data, this.api)).catch((e) => this.error(e));
      }
      return;
    }
    if (fullKey !== this.figKey) {
      this.figKey = fullKey;
      layout.annotations = this.fitLabels(layout.annotations);
      await Plotly.react(this.fig, this.themed(data.figure.data), layout, {
        displayModeBar: false, responsive: true, staticPlot: false, doubleClick: false,
      });
      await Plotly.addFrames(this.fig, data.frames.map((f) => this.themedFrame(f)));
      if (!this.fig.dataset.listening) {
        this.fig.dataset.listening = "1";
        this.fig.on("plotly_click", (ev) => this.onClick(ev));
      }
      this.drawn = data.active;
      this.plotted = true;
    }
    this.step = Math.min(Math.max(this.step, 0), data.n);
    await this.show(this.step);
    this.removePreview();
    this.fig.dataset.ready = "1";
    this.afterUpdate();
  }

  afterUpdate() {
    const data = this.data;
    // (data.step is only where a new view starts: for the same view Python sends the same data at every
    // step, so a step's rerun costs no new figure; watch() checks that a report arrived)
    if (this.playing && this.waitingForWindow && this.step < data.k1) {
      this.waitingForWindow = false;
      this.schedule();
    }
    // an input's long rows windowed for the other kind of window (data.tall: over SHORT px tall or not): say the
    // height once for this view, and Python sends the rows this window has room for (views.row_window)
    if (data.tall != null && data.report !== false && (window.innerHeight > SHORT) !== data.tall
        && this.heightSaid !== data.view) {
      this.heightSaid = data.view;
      this.report(true, true);
    }
  }

  themed(traces) {
    const t = this.theme;
    return traces.map((tr, i) => {
      const out = { ...this.wrapTrace(i, tr), textfont: { ...(tr.textfont || {}), family: t.font } };
      if (this.data.hidden && this.data.hidden[i]) out.visible = false;
      if (t.cellText) out.textfont.color = t.cellText; // (the dark scale stays dark enough for it: >= 4.5:1)
      if (i === 0) out.colorscale = [[0, t.second], [1, t.second]];
      const c = this.cells[i];
      if (c < 18) out.texttemplate = ""; // no room for digits: the hover has the value
      else { // as large as the cell allows for its longest text in any frame sent (Python sized it for the
        // narrowest layout; a stacked one has bigger cells)
        const fit = Math.floor(0.9 * c / (0.62 * Math.max(this.longest[i], 1)));
        // a cell of PROJECTOR_CELL px or more whose text fits at MIN_FONT shows it at MIN_FONT at least
        const cap = Math.max(Math.floor(c * 0.42), c >= PROJECTOR_CELL && fit >= MIN_FONT ? MIN_FONT : 0);
        out.textfont.size = Math.max(Math.min(fit, cap, MAX_FONT), Math.min(out.textfont.size || 12, cap));
      }
      if (Array.isArray(out.text)) out.text = badged(out.text);
      return out;
    });
  }

  // the cell size (px) that holds panel i's longest text at MIN_FONT (0 for a panel without text)
  // (at least `least` px: a cell that size holds MIN_FONT digits, themed(); else MIN_FONT / 0.42)
  textCell(i, least = Math.ceil(MIN_FONT / 0.42)) {
    const longest = this.longest ? this.longest[i] : 0;
    if (!longest) return 0;
    return Math.max(least, Math.ceil(MIN_FONT * 0.62 * longest / 0.9 + 1e-9));
  }

  longestText(i, tr) { // characters of the longest first line of cell text of trace i (base data and frames)
    let longest = 0;
    const scan = (rows) => {
      if (!Array.isArray(rows)) return;
      for (const row of rows) {
        if (!Array.isArray(row)) continue;
        for (const text of row) {
          if (!text) continue;
          const cut = text.indexOf("<br>");
          longest = Math.max(longest, cut < 0 ? text.length : cut);
        }
      }
    };
    scan(tr.text);
    for (const f of this.data.frames) {
      const j = f.traces.indexOf(i);
      if (j >= 0 && f.data[j]) scan(f.data[j].text);
    }
    return longest;
  }

  // small-multiple labels wider than their panel get their short form, or none (never overlap)
  fitLabels(annotations) {
    if (!annotations) return annotations;
    const cols = this.data.panel_cols;
    return annotations.map((a) => {
      if (!a.xref || a.xref === "paper" || !a.name) return a;
      const i = a.xref === "x" ? 0 : Number(a.xref.slice(1)) - 1;
      const avail = cols[i] * this.cells[i];
      const size = (a.font && a.font.size) || 11;
      const fits = (txt) => txt.length * size * 0.62 <= avail;
      return { ...a, text: fits(a.text) ? a.text : (fits(a.name) ? a.name : "") };
    });
  }

  themedFrame(f) {
    const t = this.theme;
    const wrapped = this.wrapLayout(f.layout);
    const layout = { ...wrapped, annotations: this.fitLabels(wrapped.annotations) };
    if (layout.shapes) {
      layout.shapes = layout.shapes.map((s) => (s.line && s.line.color === this.data.palette.written
        ? { ...s, line: { ...s.line, color: t.written } } : s));
    }
    return { ...f, data: f.data.map((tr, j) => {
      const out = this.wrapTrace(f.traces[j], tr);
      return Array.isArray(out.text) ? { ...out, text: badged(out.text) } : out;
    }), layout };
  }

  // -- small multiples: wrapped into more rows when one row of them would make cells too small --------
  // Python lays a panel's multiples out side by side (d.multiples[i] = [count, columns, rows], d.gap
  // columns apart); wrapping moves multiple p to row floor(p / q), column p % q, in the data arrays,
  // the shapes, the labels and the ticks alike.
  panelDims(i, q) {
    const d = this.data;
    const [n, w, h] = (d.multiples && d.multiples[i]) || [0, 0, 0];
    if (n <= 1 || q >= n) return [d.units[i], d.rows[i]];
    const g = d.gap || 1;
    const lines = Math.ceil(n / q);
    return [Math.max(q * w + (q - 1) * g, 5), lines * h + (lines - 1) * g];
  }

  multiplesOf(i) {
    const m = this.data.multiples && this.data.multiples[i];
    return m && m[0] > 1 ? m[0] : 1;
  }

  wrapOf(i) {
    const d = this.data;
    const q = this.perRow ? this.perRow[i] : 0;
    const m = d.multiples && d.multiples[i];
    if (!m || m[0] <= 1 || !q || q >= m[0]) return null;
    const g = d.gap || 1;
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

  wrapTrace(i, tr) {
    const wr = this.wrapOf(i);
    if (!wr) return tr;
    const out = { ...tr };
    for (const key of ["z", "text", "customdata"]) {
      if (key in out) out[key] = wr.grid(out[key], key === "z" ? null : "");
    }
    return out;
  }

  wrapLayout(layout) { // shapes, panel labels and ticks of a layout or a frame's layout
    const out = { ...layout };
    const refOf = (xref) => (xref === "x" ? 0 : Number(String(xref).slice(1)) - 1);
    const wraps = [0, 1, 2].map((i) => this.wrapOf(i));
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

  // layout: one cell size for every panel, chosen so the widest figure fits; stacked when narrow.
  // Stacked: the output below at full width, the inputs above it side by side when they fit (else
  // one under the other); a panel's small multiples wrap into more rows rather than go below MIN_CELL.
  layout() {
    const d = this.data;
    const t = this.theme;
    const width = Math.max(this.fig.clientWidth || this.box.clientWidth || 800, 280);
    const gap = 36;
    // labels under small multiples or windows (annotations on the axes) need room below the tallest panel
    const labelled = (d.figure.layout.annotations || []).some((a) => a.xref && a.xref !== "paper");
    const wideMargin = { l: 34, r: 90, t: 58, b: labelled ? 32 : 16 }; // r: the colour bar, its ticks and title
    const q = [0, 1, 2].map((i) => this.multiplesOf(i));
    const hidden = d.hidden || [false, false, false]; // e.g. the indices of an operator that reads none
    const shown = [0, 1, 2].filter((i) => !hidden[i]);
    const dims = (i) => (hidden[i] ? [0, 0] : this.panelDims(i, q[i]));
    const wideCell = Math.min((width - wideMargin.l - wideMargin.r - gap * (shown.length - 1))
                              / shown.reduce((sum, i) => sum + dims(i)[0], 0), MAX_CELL);
    // a short, wide window (a projector) with room_below: the arrangement of the panels that gives the largest cells
    const plan = width >= NARROW ? this.projectorPlan(width - wideMargin.l - wideMargin.r, shown, labelled, wideMargin)
      : null;
    const narrow = !plan && (width < NARROW || wideCell < MIN_CELL);
    const margin = narrow ? { l: 34, r: 16, t: 58, b: 90 } : wideMargin; // b: the colour bar below
    let cell, height, figW = width;
    const dom = [];
    if (plan) { // one cell size for every panel, each panel in its box of the plan (px from the plot's top left)
      cell = plan.cell;
      plan.q.forEach((x, i) => { q[i] = x; });
      this.cells = [cell, cell, cell];
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
      const fitted = this.fitToWindow(width - margin.l - margin.r - gap * (shown.length - 1), shown, dims, wideCell,
                                      Math.max(...rows), margin);
      if (fitted) [cell, panelW] = fitted;
      this.cells = [cell, cell, cell];
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
      const need = [0, 1, 2].map((i) => this.textCell(i));
      const least = (i) => Math.max(WRAP_AT * MIN_CELL, need[i]);
      const fit = (i, room) => { // fewest rows of multiples that keep MIN_CELL in `room` px
        q[i] = this.multiplesOf(i);
        while (q[i] > 1 && room / dims(i)[0] < least(i)) q[i] -= 1;
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
        this.cells = [tc, tc, cell];
        lines = [[0, 1], [2]];
      } else { // the inputs do not fit side by side: one under the other
        fit(0, avail);
        fit(1, avail);
        this.cells = [0, 1].map((i) => Math.max(Math.min(Math.max(avail / dims(i)[0], WRAP_AT * MIN_CELL), cell), need[i]))
          .concat([cell]);
        lines = [[0], [1], [2]];
      }
      lines = lines.map((line) => line.filter((i) => !hidden[i])).filter((line) => line.length);
      const titleGap = 80; // a row's small-multiple labels, then the next row's title and column numbers
      const room = this.fitRoom(margin); // a short window: every panel's cells shrink alike to fit its height
      const heightAt = (cs) => lines.reduce((sum, line) => sum + Math.max(...line.map((i) => dims(i)[1] * cs[i])), 0);
      if (room != null && heightAt(this.cells) + titleGap * (lines.length - 1) > room) {
        const f = Math.max(room - titleGap * (lines.length - 1), 0) / heightAt(this.cells);
        if (this.cells.every((x, i) => x * f >= Math.min(x, Math.max(MIN_CELL, need[i])))) { // else it cannot fit
          this.cells = this.cells.map((x) => x * f);
          cell = this.cells[2];
        }
      }
      const c = this.cells;
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
      this.barY = -30 / plotH;
      this.barSpan = avail / plotW; // the share of the plot on screen before scrolling sideways
    }
    this.perRow = q;
    this.narrow = narrow;
    this.figW = figW;
    this.cell = cell;
    const base = this.wrapLayout(JSON.parse(JSON.stringify(d.figure.layout)));
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
      Object.assign(bar, { orientation: "h", x: this.barSpan / 2, xanchor: "center", y: this.barY, yanchor: "top",
                           len: 0.9 * this.barSpan, thickness: 10, title: { text: "value", side: "left" } });
    } else {
      const plotH = height - margin.t - margin.b;
      Object.assign(bar, { orientation: "v", x: 1.0, xanchor: "left", xpad: 8, lenmode: "pixels",
                           len: Math.max(Math.min(plotH, 260), plan ? FIT_PLOT : 120), y: 1, yanchor: "top", nticks: 5,
                           thickness: 12, title: { text: "value", side: "right" } }); // on top it met the top tick
    }
    return base;
  }

  // A short window (a projector, at most SHORT px tall) with data.room_below (the px the page draws under the
  // player): the cells grow into the width a narrow panel's 5-column slot left empty (a panel is as wide as its
  // cells or its title), then shrink until the figure, the player's parts under it and room_below end inside the
  // window, as the page first lays out (when that needs cells under MIN_CELL, they stay as wide as the width
  // allows and the page scrolls). Stacked panels (a narrow figure) shrink alike, within the same limit. [cell,
  // each panel's width in px], or null to keep the width's cell (a taller window, or no room_below).
  fitToWindow(avail, shown, dims, wideCell, rows, margin) {
    const d = this.data;
    const room = this.fitRoom(margin);
    if (room == null) return null;
    const cols = (i) => (this.multiplesOf(i) > 1 ? dims(i)[0] : d.panel_cols[i]);
    const ctx = (this.measure ||= document.createElement("canvas").getContext("2d"));
    ctx.font = `bold 13px ${this.theme.font || "sans-serif"}`; // figures.py: the panel titles, 13 px
    const title = (i) => {
      const ax = d.figure.layout[`xaxis${i === 0 ? "" : i + 1}`];
      const text = String((ax && ax.title && ax.title.text) || "").replace(/<[^>]*>/g, "");
      return ctx.measureText(text).width + 12;
    };
    const least = [0, 1, 2].map((i) => (shown.includes(i) ? title(i) : 0));
    let c = MAX_CELL;
    for (let k = 0; k < 4; k++) { // the panels narrower than their titles keep the title's width, the rest share
      let fixed = 0, flex = 0;
      for (const i of shown) { if (cols(i) * c < least[i]) fixed += least[i]; else flex += cols(i); }
      c = Math.min(flex ? (avail - fixed) / flex : MAX_CELL, MAX_CELL);
    }
    const widthAt = (x) => shown.reduce((sum, i) => sum + Math.max(cols(i) * x, least[i]), 0);
    const byTitle = c > wideCell && widthAt(c) <= avail + 0.5; // else the 5-column slots, as on a tall window
    if (!byTitle) c = wideCell;
    if (room / rows >= MIN_CELL) c = Math.min(c, room / rows); // else it cannot fit: the page scrolls, cells stay large
    const widths = [0, 1, 2].map((i) => (!shown.includes(i) ? 0 : byTitle ? Math.max(cols(i) * c, least[i]) : dims(i)[0] * c));
    const spare = Math.max(avail - widths.reduce((a, b) => a + b, 0), 0) / shown.length; // the width left over goes
    return [c, widths.map((w, i) => (shown.includes(i) ? w + spare : w))]; // to every panel (cells centred in it)
  }

  // A short, wide window (a projector, at most SHORT px tall) with data.room_below: every way to lay the panels out
  // with one cell size (ARRANGEMENTS: lines of stacks, each stack panels one under the other; each panel's small
  // multiples in 1..n per row) is tried, and the one with the largest cells wins (on a tie: the simpler
  // arrangement, then fewer rows of multiples). A panel is as wide as its cells or its title; the width left over
  // on a line goes to its stacks (cells centred in them); the figure ends inside the window with room_below under
  // it. When none keeps MIN_CELL so, the one with the largest cells under it, down to PROJECTOR_CELL (and the
  // cell that shows the digits at MIN_FONT), that does; else the one that is shortest with cells of MIN_CELL (the
  // page then scrolls a little, the cells stay large). {cell, q (multiples per row), boxes (each panel's x, y, w, h in px of the plot),
  // height}, or null on a taller window, without room_below, or when no arrangement is MIN_CELL wide.
  projectorPlan(avail, shown, labelled, margin) {
    const d = this.data;
    const bottom = margin.b;
    if (labelled) margin.b = 24; // the labels under the multiples (11 px), without the explorer's spare band
    const room = this.fitRoom(margin);
    if (room == null) { margin.b = bottom; return null; }
    const title = this.titleWidths(shown);
    const gap = 36;
    const between = FIT_TOP + (labelled ? 22 : 6); // the labels under a panel's multiples, the next panel's titles
    const counts = [0, 1, 2].map((i) => (shown.includes(i) ? this.multiplesOf(i) : 1));
    const seen = new Set();
    const arrangements = [];
    for (const a of ARRANGEMENTS) { // without the hidden panels; each arrangement once
      const kept = a.map((line) => line.map((stack) => stack.filter((i) => shown.includes(i))).filter((st) => st.length))
        .filter((line) => line.length);
      const id = JSON.stringify(kept);
      if (!seen.has(id)) { seen.add(id); arrangements.push(kept); }
    }
    const place = (lines, q, c, spread) => { // each panel's box at cell c; the whole's width and height
      const dims = (i) => this.panelDims(i, q[i]);
      const cols = (i) => (counts[i] > 1 ? dims(i)[0] : d.panel_cols[i]);
      const boxes = [null, null, null];
      let top = 0, wide = 0;
      for (const line of lines) {
        const stackW = line.map((st) => Math.max(...st.map((i) => Math.max(cols(i) * c, title[i]))));
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
      arrangements.forEach((lines, k) => {
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
      const floor = Math.max(PROJECTOR_CELL, ...shown.map((i) => this.textCell(i, PROJECTOR_CELL)));
      for (const q0 of options(0)) for (const q1 of options(1)) for (const q2 of options(2)) {
        const q = [q0, q1, q2];
        arrangements.forEach((lines, k) => {
          if (!fits(lines, q, floor)) return;
          let lo = floor, hi = MIN_CELL;
          for (let n = 0; n < 16; n++) { const mid = (lo + hi) / 2; if (fits(lines, q, mid)) lo = mid; else hi = mid; }
          if (!best || lo > best.cell + 0.25) best = { cell: lo, q, lines };
        });
      }
    }
    if (!best) best = least;
    if (!best) { margin.b = bottom; return null; }
    const { boxes, height } = place(best.lines, best.q, best.cell, true);
    return { cell: best.cell, q: best.q, boxes, height };
  }

  titleWidths(shown) { // px: each shown panel's title (13 px bold, figures.py) with a little room
    const d = this.data;
    const ctx = (this.measure ||= document.createElement("canvas").getContext("2d"));
    ctx.font = `bold 13px ${this.theme.font || "sans-serif"}`;
    return [0, 1, 2].map((i) => {
      if (!shown.includes(i)) return 0;
      const ax = d.figure.layout[`xaxis${i === 0 ? "" : i + 1}`];
      const text = String((ax && ax.title && ax.title.text) || "").replace(/<[^>]*>/g, "");
      return ctx.measureText(text).width + 12;
    });
  }

  // The px of plot height that keep the figure, the player's parts under it and data.room_below inside a short
  // window (the figure's top margin, FIT_TOP, already taken off); null on a taller or narrow window, or without
  // room_below.
  fitRoom(margin) {
    const d = this.data;
    this.fitTop = null;
    // (not a phone: its answer stacks, taller than room_below says; a page's room_below is for a wide window)
    if (d.room_below == null || window.innerHeight > SHORT || window.innerWidth < NARROW) return null;
    const figBox = this.fig.getBoundingClientRect();
    const top = this.pageTop();
    this.fitTop = top;
    this.watchTop();
    const under = Math.max(this.box.getBoundingClientRect().bottom - figBox.bottom, 0); // legend, table view
    margin.t = FIT_TOP; // the titles and column numbers without the blank band above them
    return window.innerHeight - top - under - d.room_below - margin.t - margin.b;
  }

  pageTop() { // the figure's top in the page (px), wherever the page is scrolled
    const scroller = this.fig.closest("[data-testid=stMain]");
    return this.fig.getBoundingClientRect().top + window.scrollY + (scroller ? scroller.scrollTop : 0);
  }

  // A figure fitted to a short window was fitted to where it then stood: when what is above it grows or shrinks
  // afterwards (a line that wraps once the page has its fonts, a notice, the page redrawn around it), it is fitted
  // again. The page's main block is watched, and the figure's place is looked at again a few times in the seconds
  // after each fit (Streamlit may swap what is above without the block changing size); only a move of the
  // figure's top refits.
  watchTop() {
    const refit = () => {
      if (this.fitTop == null || !this.data || !this.fig.isConnected) return;
      if (Math.abs(this.pageTop() - this.fitTop) < 3) return;
      this.update(this.data, this.api).catch((e) => this.error(e));
    };
    for (const t of this.topTimers || []) clearTimeout(t);
    this.topTimers = [200, 600, 1500, 3000].map((ms) => setTimeout(refit, ms));
    if (this.topWatch) return;
    const main = document.querySelector("[data-testid=stMainBlockContainer]");
    if (!main || typeof ResizeObserver !== "function") return;
    this.topWatch = new ResizeObserver(refit);
    this.topWatch.observe(main);
  }

  relayout() {
    if (!this.data || !(this.preview || this.fig.dataset.ready)) return;
    const w = this.box.clientWidth;
    if (this.lastWidth && Math.abs(w - this.lastWidth) < 4) return;
    this.lastWidth = w;
    this.update(this.data, this.api).catch((e) => this.error(e)); // redraws when the cell size changed
  }

  // -- stepping ------------------------------------------------------------------------------------
  show(k, defer) {
    // The step, caption and controls change at once; the figure follows when it has been drawn.
    // Drawing is coalesced: while a frame is being drawn, only the latest step asked for is drawn
    // next (a held key skips frames instead of queueing them), and the step on screen is always the
    // last one asked for. `defer`: draw at the next animation frame, so the keys and clicks already
    // waiting are taken first. Returns when the figure shows step k (or a newer step).
    const d = this.data;
    this.step = k;
    this.caption.textContent = d.captions[String(k)] || "";
    this.slider.value = String(k);
    this.count.textContent = `${k} / ${d.steps != null ? d.steps : d.n}`; // Practice sends only the steps done
    this.gotoInput.value = String(k);
    this.setEnds(k, d.n);
    this.box.dataset.step = String(k);
    if (this.tableBox.open) this.renderTables();
    if (!this.frames.has(k)) return Promise.resolve();
    this.wanted = k;
    if (!this.drawing) this.drawing = this.drawLatest(defer).finally(() => { this.drawing = null; });
    return this.drawing;
  }

  async drawLatest(defer) {
    if (defer) await new Promise((resolve) => requestAnimationFrame(resolve));
    while (this.wanted !== null && this.wanted !== undefined) {
      const k = this.wanted;
      this.wanted = null;
      if (!this.frames.has(k)) continue; // a new window came meanwhile
      if (this.plotted) {
        await window.Plotly.animate(this.fig, [String(k)], {
          mode: "immediate", frame: { duration: 0, redraw: true }, transition: { duration: 0 },
        });
      } else this.drawPreview(k);
      if (this.step === k && this.wanted === null) {
        this.fig.dataset.step = String(k);
        this.box.dataset.drawn = "1"; // the figure of this step is on screen (SVG first, then plotly)
      }
      if (this.wanted !== null && !this.plotted) await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  }

  // At the first or last step the buttons that lead past it are marked unavailable (aria-disabled, dimmed)
  // but stay focusable: a keyboard user who pressed Enter to the end keeps focus on the button (and a
  // press there does nothing), instead of focus falling to the page.
  setEnds(k, n) {
    const mark = (b, off) => b.setAttribute("aria-disabled", off ? "true" : "false");
    mark(this.bFirst, k <= 0);
    mark(this.bPrev, k <= 0);
    mark(this.bNext, k >= n);
    mark(this.bLast, k >= n);
  }

  // -- the table view: each panel's cells at the shown step, as text --------------------------------
  // The same text as the cells (Python formats it with scatter_core's fmt_value), in the canvas Python
  // laid out (rows and columns as numbered on the axes; small multiples side by side, labelled); this
  // step's read and write are marked in words, and a cell written more than once says how often.
  tableModel(k) {
    const d = this.data;
    const traces = d.figure.data.map((t) => ({ ...t }));
    const layout = { ...d.figure.layout };
    withFrame(traces, layout, this.frames.get(k));
    return { traces, layout };
  }

  renderTables() {
    if (!this.tableBox.open || !this.data || !this.frames.has(this.step)) {
      if (this.tableBox.open && this.data) this.tables.replaceChildren(el("p", {}, this.caption.textContent));
      return;
    }
    const d = this.data;
    const k = this.step;
    const { traces, layout } = this.tableModel(k);
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
      const colName = new Map((xa.tickvals || []).map((v, j) => [v, xa.ticktext ? xa.ticktext[j] : String(v)]));
      const rowName = (r) => { const j = (ya.tickvals || []).indexOf(r); return j >= 0 && ya.ticktext ? ya.ticktext[j] : String(r); };
      // small multiples: the label of the multiple each column belongs to
      const [count, w] = (d.multiples && d.multiples[i]) || [0, 0];
      const labels = (layout.annotations || []).filter((a) => a.xref === `x${ref}` && a.name).sort((a, b) => a.x - b.x)
        .map((a) => String(a.text).replace(/<[^>]+>/g, ""));
      const span = w + (d.gap || 1);
      const cols = [...colName.keys()].sort((a, b) => a - b);
      const table = el("table", { "data-panel": String(i) });
      const title = String((xa.title && xa.title.text) || "").replace(/<[^>]+>/g, "");
      table.appendChild(el("caption", {}, `${title}, ${when}`));
      const head = el("tr");
      const byRow = Boolean(ya.ticktext && ya.ticktext.some((t) => t)); // rank 1: one row, no row numbers
      if (byRow) head.appendChild(el("th", { scope: "col" }, "row \\ column"));
      for (const c of cols) {
        const p = count > 1 ? Math.floor(c / span) : -1;
        head.appendChild(el("th", { scope: "col" }, p >= 0 && labels[p] ? `${labels[p]} ${colName.get(c)}` : colName.get(c)));
      }
      table.appendChild(el("thead")).appendChild(head);
      const body = table.appendChild(el("tbody"));
      rows.forEach((row, r) => {
        const tr = el("tr");
        if (byRow) tr.appendChild(el("th", { scope: "row" }, rowName(r)));
        for (const c of cols) {
          const raw = String((Array.isArray(row) && row[c]) || "");
          const m = BADGE.exec(raw);
          const value = raw.replace(BADGE, "").replace(/<[^>]+>/g, "");
          const td = el("td", {}, value);
          if (m) td.appendChild(el("span", { class: "sx-times" }, ` ×${m[1]}: written ${m[1]} times`));
          if (marked[i].has(`${r},${c}`)) {
            td.className = "sx-now";
            td.appendChild(el("span", { class: "sx-now-note" }, i === 2 ? " ← written this step" : " ← read this step"));
          }
          tr.appendChild(td);
        }
        body.appendChild(tr);
      });
      const wrap = el("div", { class: "sx-table-wrap", tabindex: "0", role: "region", "aria-label": `${title}, ${when}` });
      wrap.appendChild(table);
      out.push(wrap);
    }
    this.tables.replaceChildren(...out);
    this.tables.dataset.step = String(k);
  }

  go(k, live) {
    if (!this.data) return;
    const d = this.data;
    k = Math.min(Math.max(Math.round(Number(k) || 0), 0), d.n);
    if (!live) this.pause(false);
    if (this.frames.has(k)) this.show(k, true);
    else { this.step = k; this.caption.textContent = `loading step ${k}…`; } // its frames come with the report
    this.report();
  }

  toggle() {
    if (this.playing) this.pause(true);
    else this.play();
  }

  play() {
    if (!this.data) return;
    if (this.step >= this.data.n) this.go(0, true);
    this.playing = true;
    this.bPlay.textContent = "❚❚ pause";
    this.bPlay.title = "pause";
    this.bPlay.setAttribute("aria-label", "pause");
    this.box.dataset.playing = "1";
    this.schedule();
  }

  pause(report) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const was = this.playing;
    this.playing = false;
    this.waitingForWindow = false;
    this.bPlay.textContent = "▶ play";
    this.bPlay.title = "play";
    this.bPlay.setAttribute("aria-label", "play");
    this.box.dataset.playing = "0";
    if (report && was) this.report();
  }

  schedule() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), BASE_FRAME_MS / this.speed);
  }

  tick() {
    if (!this.playing) return;
    const d = this.data;
    const next = this.step + 1;
    if (next > d.n) { this.pause(true); return; }
    if (!this.frames.has(next)) { // at the edge of the frames sent: ask Python for the next window
      this.waitingForWindow = true;
      this.report(true);
      return;
    }
    const t0 = performance.now();
    this.show(next);
    this.shown = (this.shown || 0) + 1;
    this.box.dataset.shown = String(this.shown);
    if (next >= d.n) { this.pause(true); return; }
    if (next >= d.k1 - 2 && d.k1 < d.n) this.report(true); // nearing the edge: bring the next window early
    else this.report();
    const spent = performance.now() - t0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), Math.max(BASE_FRAME_MS / this.speed - spent, 0));
  }

  // Tell Python the step, coalesced: each call replaces the one waiting, so only the latest step is
  // sent, once stepping has paused (QUIET_MS; PLAY_REPORT_MS while playing), never a queue of stale
  // ones. `now`: at once (playback needs the next window of frames). Nothing when Python asked for no
  // reports (data.report false: a page that keeps no step).
  report(now, again) {
    if (this.reportTimer) clearTimeout(this.reportTimer);
    this.reportTimer = null;
    if (!this.data || this.data.report === false) return;
    const send = () => {
      this.reportTimer = null;
      if (this.lastReported === this.step && !again) return;
      this.lastReported = this.step;
      this.reports = (this.reports || 0) + 1; // each report is a new value, even for the same step
      const report = { step: this.step, view: this.view, n: this.reports };
      if (this.data.tall != null) report.height = Math.round(window.innerHeight); // (Payload.tall)
      this.checkMessage("StepReport", report);
      this.api.setStateValue("step", report);
      this.box.dataset.reports = String(this.reports);
      this.watch();
    };
    if (now) send();
    else this.reportTimer = setTimeout(send, this.playing ? PLAY_REPORT_MS : QUIET_MS);
  }

  // When the page mirrors the step in its URL (data.url_param), check that the report arrived:
  // under load, reruns interrupting each other can drop one; then say the step again (bounded).
  watch() {
    const param = this.data && this.data.url_param;
    if (!param) return;
    if (this.watchTimer) clearTimeout(this.watchTimer);
    const step = this.step;
    this.watchTimer = setTimeout(() => {
      this.watchTimer = null;
      if (this.playing || this.step !== step) return;
      const inUrl = new URL(window.location.href).searchParams.get(param);
      if (inUrl === String(step)) { this.retries = 0; return; }
      this.retries = (this.retries || 0) + 1;
      if (this.retries === 1) { // the first miss: maybe this session does not know the fragment (a failover,
        // see rerun_relay in scatter_ui/player/component.py): a whole run first, then the step again
        window.dispatchEvent(new CustomEvent(RERUN_EVENT));
        this.watch();
      } else if (this.retries <= 5) this.report(true, true);
    }, WATCH_MS);
  }

  onClick(ev) {
    const p = ev && ev.points && ev.points[0];
    if (!p || p.curveNumber !== 2) return;
    const m = /^output\[([^\]]*)\]/.exec(String(p.customdata || ""));
    if (!m) return;
    const cell = m[1] === "" ? [] : m[1].split(",").map((s) => Number(s.trim()));
    this.checkMessage("CellClick", cell);
    this.api.setTriggerValue("cell", cell);
  }

  // -- the first draw: the frame as SVG while plotly.js loads ------------------------------------------
  // It reads the same figure plotly will draw (the layout() domains, themed traces, the frame's shapes
  // and labels) so the swap does not move anything: square cells of this.cells[i] px, row 0 at the top,
  // integer ticks, each cell's text, the written and current-write outlines, one fixed colour scale.
  // Hover text comes from <title>; arrows and the colour bar's ticks wait for plotly.
  frameFigure(k) {
    const d = this.data;
    const traces = this.themed(d.figure.data);
    const layout = { ...this.previewLayout };
    withFrame(traces, layout, this.frames.get(k) && this.themedFrame(this.frames.get(k)));
    return { traces, layout };
  }

  drawPreview(k) {
    const { traces, layout } = this.frameFigure(k);
    const t = this.theme;
    const W = Math.round(layout.width || Math.max(this.fig.clientWidth, 280));
    const H = layout.height;
    const m = layout.margin;
    const plotW = W - m.l - m.r, plotH = H - m.t - m.b;
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    const add = (parent, tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
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
      const c = this.cells[i];
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
          if (i === 2) rect.dataset.cell = `${r},${col}`;
          const hover = tr.customdata && tr.customdata[r] && tr.customdata[r][col];
          if (hover) add(cellG, "title", {}, String(hover).replace(/<br>/g, "\n").replace(/<[^>]+>/g, ""));
          const text = showText && tr.text && tr.text[r] && tr.text[r][col];
          if (!text) return;
          const lines = String(text).split("<br>").map((x) => x.replace(/<[^>]+>/g, ""));
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
          add(tt, "tspan", bold ? { "font-weight": "bold" } : {}, part.replace(/<[^>]+>/g, ""));
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
                         "font-size": size, fill: t.text }, String(a.text).replace(/<[^>]+>/g, ""));
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
    svg.addEventListener("click", (ev) => {
      const cell = ev.target && ev.target.dataset && ev.target.dataset.cell;
      if (!cell) return;
      const hover = ev.target.parentNode.querySelector("title");
      this.onClick({ points: [{ curveNumber: 2, customdata: hover ? hover.textContent : "" }] });
    });
    if (!this.preview) {
      this.preview = el("div", { class: "sx-preview", "data-testid": "scatter-preview" });
      this.stage.appendChild(this.preview);
    }
    this.preview.replaceChildren(svg);
    this.preview.dataset.step = String(k);
    this.fig.style.minHeight = `${H}px`;
  }

  removePreview() {
    if (!this.preview) return;
    this.preview.remove();
    this.preview = null;
    this.fig.style.minHeight = "";
  }

  plotlyReady() {
    if (this.plotted) return Promise.resolve();
    return (this.plotlyComing || loadPlotly(this.data.plotly_url)).then(() => {
      if (!this.plotted) throw new Error("the figure is still loading; try again in a moment");
    });
  }

  // -- the contract (data.check): the payload validated once per payload, reports before they are sent --
  async checkPayload(data) {
    if (!data || !data.check || this.checkedData === data) return;
    this.checkedData = data;
    this.contract = await loadContract(data.contract_url);
    this.breach("data", contractErrors(this.contract, data, "Payload"));
  }

  checkMessage(ref, value) {
    if (this.data && this.data.check && this.contract) this.breach(`report (${ref})`, contractErrors(this.contract, value, ref));
  }

  breach(what, found) {
    if (!found.length) {
      if (this.box.dataset.contract !== "invalid") this.box.dataset.contract = "ok";
      return;
    }
    this.box.dataset.contract = "invalid";
    const text = `the player's ${what} is off its contract (scatter_ui/player/contract.py): ${found.join("; ")}`;
    console.error(text);
    this.error(text);
  }

  // -- export --------------------------------------------------------------------------------------
  figureAt(k) {
    // the figure of step k as a standalone {data, layout}: base data with frame k's values merged in
    const gd = this.fig;
    const f = this.frames.get(k) && this.themedFrame(this.frames.get(k));
    const data = gd.data.map((tr) => ({ ...tr }));
    const layout = JSON.parse(JSON.stringify(gd.layout));
    withFrame(data, layout, f);
    return { data, layout };
  }

  // the caption above an exported frame, wrapped to the image's width (never cut at its right edge)
  captionLines(k, width) {
    const perLine = Math.max(Math.floor((width - 16) / (13 * 0.56)), 20);
    const lines = [];
    let line = "";
    for (const word of (this.data.captions[String(k)] || "").split(" ")) {
      if (line && (line + " " + word).length > perLine) {
        lines.push(line);
        line = word;
      } else line = line ? line + " " + word : word;
    }
    if (line) lines.push(line);
    return lines;
  }

  withCaption(fig, k, width) {
    const layout = fig.layout;
    const lines = this.captionLines(k, width);
    const extra = this.captionHeight(lines.length);
    const esc = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    layout.margin = { ...layout.margin, t: layout.margin.t + extra };
    layout.height = layout.height + extra;
    layout.annotations = [...(layout.annotations || []), {
      text: lines.map(esc).join("<br>"), x: 0, y: 1, xref: "paper", yref: "paper", xanchor: "left",
      yanchor: "bottom", yshift: extra, xshift: 8 - layout.margin.l, showarrow: false, align: "left",
      font: { size: 13, color: this.theme.text },
    }];
    return fig;
  }

  captionHeight(lines) {
    return 12 + 18 * Math.max(lines, 1);
  }

  size() { // the figure's own size, before a caption is added
    const width = Math.round(Math.max(this.figW || 0, this.fig.clientWidth, 300));
    return { width, height: this.fig.layout.height };
  }

  async exportFrame(format) {
    await this.plotlyReady();
    const { width } = this.size();
    const fig = this.withCaption(this.figureAt(this.step), this.step, width);
    const height = fig.layout.height;
    const url = await window.Plotly.toImage(fig, { format, width, height, scale: 1 });
    download(`${this.data.name}-step-${this.step}.${format}`, url);
    this.box.dataset.exported = `${format}:${width}x${height}`;
  }

  stripSteps() {
    const d = this.data;
    let a = Math.round(Number(this.stripFrom.value) || 0);
    let b = Math.round(Number(this.stripTo.value) || 0);
    if (b < a) [a, b] = [b, a];
    a = Math.max(a, d.k0);
    b = Math.min(b, d.k1, a + MAX_STRIP - 1);
    const steps = [];
    for (let k = a; k <= b; k++) steps.push(k);
    this.stripNote.textContent = `steps ${a}–${b} (${steps.length} tile${steps.length === 1 ? "" : "s"}, at most ${MAX_STRIP})`;
    return steps;
  }

  async exportStrip(format) {
    await this.plotlyReady();
    const steps = this.stripSteps();
    const { width, height } = this.size();
    const tileW = Math.min(width, 640);
    const tileH = Math.round(height * tileW / width);
    const cols = Math.min(steps.length, 4);
    const rows = Math.ceil(steps.length / cols);
    const capH = 34;
    const W = cols * tileW;
    const H = rows * (tileH + capH);
    const images = [];
    for (const k of steps) {
      const fig = this.figureAt(k);
      images.push(await window.Plotly.toImage(fig, { format: format === "svg" ? "svg" : "png", width, height, scale: tileW / width }));
    }
    const caption = (k) => `step ${k} of ${this.data.n}: ${this.data.captions[String(k)] || ""}`;
    let url;
    if (format === "svg") {
      const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
      const parts = [`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`,
        `<rect width="${W}" height="${H}" fill="${esc(this.theme.bg)}"/>`];
      steps.forEach((k, i) => {
        const x = (i % cols) * tileW;
        const y = Math.floor(i / cols) * (tileH + capH);
        parts.push(`<image x="${x}" y="${y}" width="${tileW}" height="${tileH}" href="${esc(images[i])}" xlink:href="${esc(images[i])}"/>`);
        parts.push(`<text x="${x + 8}" y="${y + tileH + 20}" font-family="sans-serif" font-size="12" fill="${esc(this.theme.text)}">${esc(caption(k).slice(0, 110))}</text>`);
      });
      parts.push("</svg>");
      url = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(parts.join(""));
    } else {
      const canvas = document.createElement("canvas");
      canvas.width = W;
      canvas.height = H;
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = this.theme.bg;
      ctx.fillRect(0, 0, W, H);
      ctx.font = "12px sans-serif";
      for (let i = 0; i < steps.length; i++) {
        const img = new Image();
        await new Promise((res, rej) => { img.onload = res; img.onerror = rej; img.src = images[i]; });
        const x = (i % cols) * tileW;
        const y = Math.floor(i / cols) * (tileH + capH);
        ctx.drawImage(img, x, y, tileW, tileH);
        ctx.fillStyle = this.theme.text;
        let text = caption(steps[i]);
        while (text.length > 4 && ctx.measureText(text).width > tileW - 16) text = text.slice(0, -2);
        if (text !== caption(steps[i])) text = text.slice(0, -1) + "…";
        ctx.fillText(text, x + 8, y + tileH + 20);
      }
      url = canvas.toDataURL("image/png");
    }
    download(`${this.data.name}-steps-${steps[0]}-${steps[steps.length - 1]}.${format}`, url);
    this.box.dataset.exported = `strip-${format}:${W}x${H}`;
  }
}

// -- the contract -----------------------------------------------------------------------------------------
// What Python sends (a Payload) and what this module sends back (StepReport, CellClick) are described in
// scatter_ui/player/contract.py, whose JSON Schema is shipped beside this file (player-contract.json, at
// data.contract_url). When data.check is set (the test servers set it: SCATTER_PLAYER_CHECK=1) every
// payload is validated against it, and every report before it is sent; a breach is shown in the player and
// logged as a console error, and the player's data-contract attribute says "ok" or "invalid".

const CONTRACT_TYPES = {
  null: (v) => v === null,
  boolean: (v) => typeof v === "boolean",
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === "number" && Number.isFinite(v),
  string: (v) => typeof v === "string",
  array: (v) => Array.isArray(v),
  object: (v) => v !== null && typeof v === "object" && !Array.isArray(v),
};

function shown(v) {
  const text = JSON.stringify(v) ?? String(v);
  return text.length <= 60 ? text : text.slice(0, 57) + "...";
}

// Where `value` is off the schema's definition `ref` ("Payload", "StepReport", "CellClick"): at most `limit`
// sentences naming the place ($.figure.data[2].z), the rule and the value; [] when it conforms. The same
// rules, in the same order, as player_contract.errors in Python (the subset of JSON Schema the contract uses).
export function contractErrors(schema, value, ref = "Payload", limit = 8) {
  const out = [];
  const check = (v, node, where, found, max) => {
    if (found.length >= max) return;
    if (node.$ref) node = schema.$defs[node.$ref.split("/").pop()];
    if (node.anyOf) {
      if (!node.anyOf.some((option) => { const f = []; check(v, option, where, f, 1); return !f.length; })) {
        found.push(`${where}: ${shown(v)} is none of the allowed kinds`);
      }
      return;
    }
    if (node.enum) {
      if (!node.enum.some((e) => e === v)) found.push(`${where}: ${shown(v)} is not one of ${node.enum.map(shown).join(", ")}`);
      return;
    }
    const kind = node.type;
    if (kind !== undefined && !CONTRACT_TYPES[kind](v)) { found.push(`${where}: ${shown(v)} is not of type ${kind}`); return; }
    if (node.minimum !== undefined && v < node.minimum) found.push(`${where}: ${shown(v)} is below the minimum ${node.minimum}`);
    if (kind === "array") {
      if (node.minItems !== undefined && v.length < node.minItems) found.push(`${where}: ${v.length} item(s), fewer than ${node.minItems}`);
      if (node.maxItems !== undefined && v.length > node.maxItems) found.push(`${where}: ${v.length} item(s), more than ${node.maxItems}`);
      const prefix = node.prefixItems || [];
      for (let i = 0; i < v.length; i++) {
        const sub = i < prefix.length ? prefix[i] : (node.items ?? true);
        if (sub === false) break;
        if (sub !== true) check(v[i], sub, `${where}[${i}]`, found, max);
      }
    } else if (kind === "object") {
      for (const name of node.required || []) if (!(name in v)) found.push(`${where}: the required key '${name}' is missing`);
      const props = node.properties || {};
      const extra = node.additionalProperties ?? true;
      for (const [name, item] of Object.entries(v)) {
        const sub = name in props ? props[name] : extra;
        if (sub === false) found.push(`${where}: the key '${name}' is not in the contract`);
        else if (sub !== true) check(item, sub, `${where}.${name}`, found, max);
      }
    }
  };
  check(value, { $ref: `#/$defs/${ref}` }, "$", out, limit);
  return out;
}

let contractPromise = null;
function loadContract(url) {
  if (!contractPromise) {
    contractPromise = fetch(url).then((r) => {
      if (!r.ok) throw new Error(`could not load the player's contract from ${url} (${r.status})`);
      return r.json();
    }).catch((e) => { contractPromise = null; throw e; });
  }
  return contractPromise;
}

// Python sends bytes: a header line naming the content ("sx-player:<serial>:<length>"), then the data
// as JSON (scatter_ui/player/component.py payload). The same header means the same data: it is parsed once.
const decoder = new TextDecoder();
function readData(player, raw) {
  if (!(raw instanceof Uint8Array)) return raw; // (plain data, as Streamlit passes a dict)
  const nl = raw.indexOf(10);
  const head = decoder.decode(raw.subarray(0, nl));
  if (player.dataHead !== head) {
    player.dataHead = head;
    player.parsed = JSON.parse(decoder.decode(raw.subarray(nl + 1)));
  }
  return player.parsed;
}

// The page's keys: with nothing focused (a freshly loaded page, or after a click on plain text) ←/→, space and
// Home/End go to the page's first visible player, as its legend says; a focused control keeps its own keys. The
// players live on the document (one listener a document, whichever copy of this module registered it).
function pageKey(ev) {
  const doc = ev.currentTarget;
  const t = ev.target;
  if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (t !== doc.body && t !== doc.documentElement && t !== doc) return;
  for (const p of doc.scatterExplorerPlayers) {
    if (!p.box.isConnected) { doc.scatterExplorerPlayers.delete(p); continue; }
    if (!p.data || p.box.offsetParent === null) continue;
    p.onKey(ev);
    return;
  }
}

function listenToPage(player, root) {
  const doc = root.ownerDocument;
  if (!doc.scatterExplorerPlayers) {
    doc.scatterExplorerPlayers = new Set();
    doc.addEventListener("keydown", pageKey);
  }
  doc.scatterExplorerPlayers.add(player);
}

export default function (component) {
  const { data: raw, parentElement, setStateValue, setTriggerValue } = component;
  const api = { setStateValue, setTriggerValue };
  let player = players.get(parentElement);
  if (!player) {
    player = new Player(parentElement, api);
    players.set(parentElement, player);
    listenToPage(player, parentElement);
  }
  let data = null;
  try { data = raw ? readData(player, raw) : null; } catch (e) { player.error(e); }
  if (data) {
    player.checkPayload(data).catch((e) => player.error(e)); // (only when data.check: the tests)
    player.update(data, api).catch((e) => player.error(e));
  }
  return () => {
    // Streamlit may call a superseded cleanup while the element stays mounted: only a removed
    // element ends its player.
    setTimeout(() => {
      if (parentElement.isConnected) return;
      if (player.timer) clearTimeout(player.timer);
      if (player.resizeObserver) player.resizeObserver.disconnect();
      if (player.topWatch) player.topWatch.disconnect();
      players.delete(parentElement);
      const live = parentElement.ownerDocument.scatterExplorerPlayers;
      if (live) live.delete(player);
    }, 0);
  };
}
