// The step player of Scatter Explorer: a Streamlit components-v2 module (in the page, no iframe), joined with
// contract.mjs, layout.mjs, drawing.mjs and controls.mjs into one script by scatter_ui/player/component.py.
//
// It owns the step: draws the three heatmaps (at once as SVG, then with plotly.js once that has loaded), plays the
// frames in the browser, and steps on buttons, the slider, "go to step" and keys without asking the server. It
// tells Python the step (component state "step", which reruns the page's step fragment) only when Python needs it
// and only the latest: once stepping has paused for QUIET_MS (PLAY_REPORT_MS while playing), or at once when the
// next frames must come. Holding a key sends nothing until it is released. A click on an output cell sets the
// trigger "cell" to that cell's coordinates. Every text shown is set with textContent (never parsed as HTML).
import { cellOfHover, contractErrors, loadContract, readData } from "./contract.mjs";
import { FIT_TOP, NARROW, SHORT, figureLayout, fitLabels, longestText, withFrame } from "./layout.mjs";
import { captionHeight, captionLines, cellNotes, previewSvg, tablePanels, themeOf, themedFrame,
  themedTraces } from "./drawing.mjs";
import { BASE_FRAME_MS, MAX_STRIP, PLAY_REPORT_MS, QUIET_MS, RERUN_EVENT, WATCH_MS, buildControls, buildLegend,
  clampStep, countText, el, keyAction, setEnds, setPlaying, showControls, stripRange } from "./controls.mjs";

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
    this.controls = buildControls({
      first: () => this.go(0), prev: () => this.go(this.step - 1), play: () => this.toggle(),
      next: () => this.go(this.step + 1), last: () => this.go(this.data.n),
      slide: (k, live) => this.go(k, live), goto: (k) => this.go(k),
      speed: (x) => { this.speed = x; if (this.playing) this.schedule(); },
      exportFrame: (format) => this.exportFrame(format), exportStrip: (format) => this.exportStrip(format),
      failed: (e) => this.error(e),
    });
    const { legend, scaleNote, scaleNoteText } = buildLegend();
    Object.assign(this, { legend, scaleNote, scaleNoteText });
    // the text form of every panel at the shown step, kept in step while open
    this.tableBox = el("details", { class: "sx-table", "data-testid": "player-table" });
    this.tableBox.appendChild(el("summary", {}, "table view: every value at this step"));
    this.tables = el("div", { class: "sx-tables" });
    this.tableBox.appendChild(this.tables);
    this.tableBox.addEventListener("toggle", () => this.renderTables());

    box.addEventListener("keydown", (ev) => this.onKey(ev));
    box.appendChild(this.caption);
    box.appendChild(this.stage);
    box.appendChild(this.controls.bar);
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
    const c = this.controls;
    const action = keyAction(ev.key, ev.target, { isSlider: ev.target === c.slider,
                                                  canPlay: c.parts.play.style.display !== "none" });
    if (!action || !this.data) return;
    ev.preventDefault();
    ({ prev: () => this.go(this.step - 1), next: () => this.go(this.step + 1), first: () => this.go(0),
       last: () => this.go(this.data.n), toggle: () => this.toggle() })[action]();
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
    showControls(this.controls.parts, data.controls);
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
    const c = this.controls;
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
      this.longest = [0, 1, 2].map((i) => longestText(data, i));
    }
    c.slider.max = String(data.n);
    c.gotoInput.max = String(data.n);
    c.stripFrom.max = c.stripTo.max = String(data.n);
    if (newView) {
      const lo = Math.max(data.k0, 0);
      c.stripFrom.value = String(lo);
      c.stripTo.value = String(Math.min(data.k1, lo + MAX_STRIP - 1));
    }
    const { layout, cells, perRow, figW } = figureLayout({
      data, theme, width: Math.max(this.fig.clientWidth || this.box.clientWidth || 800, 280),
      room: (margin) => this.fitRoom(margin), titles: (shown) => this.titleWidths(shown), longest: this.longest });
    Object.assign(this, { cells, perRow, figW });
    const domains = ["", "2", "3"].map((r) => [layout[`xaxis${r}`].domain, layout[`yaxis${r}`].domain]);
    const fullKey = `${figKey}|${this.cells.map(Math.round).join(",")}|${this.perRow.join(",")}|`
      + `${Math.round(this.figW)}|${layout.height}|${JSON.stringify(domains)}`; // (a projector's plan moves panels)
    if (!Plotly) { // plotly.js is still loading: draw this frame as SVG now, redraw with plotly when it comes
      layout.annotations = fitLabels(layout.annotations, data.panel_cols, this.cells);
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
      layout.annotations = fitLabels(layout.annotations, data.panel_cols, this.cells);
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
    return themedTraces(traces, { data: this.data, theme: this.theme, perRow: this.perRow, cells: this.cells,
                                  longest: this.longest });
  }

  themedFrame(f) {
    return themedFrame(f, { data: this.data, theme: this.theme, perRow: this.perRow, cells: this.cells });
  }

  titleWidths(shown) { // px: each shown panel's title (in its font, bold) with a little room
    const d = this.data;
    const ctx = (this.measure ||= document.createElement("canvas").getContext("2d"));
    return [0, 1, 2].map((i) => {
      if (!shown.includes(i)) return 0;
      const title = (d.figure.layout[`xaxis${i === 0 ? "" : i + 1}`] || {}).title || {};
      ctx.font = `bold ${(title.font && title.font.size) || 13}px ${this.theme.font || "sans-serif"}`;
      return ctx.measureText(String(title.text || "").replace(/<[^>]*>/g, "")).width + 12;
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
    const c = this.controls;
    this.step = k;
    this.caption.textContent = d.captions[String(k)] || "";
    c.slider.value = String(k);
    c.parts.count.textContent = countText(k, d); // Practice sends only the steps done
    c.gotoInput.value = String(k);
    setEnds(c.parts, k, d.n);
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

  // -- the table view: each panel's cells at the shown step, as text (drawing.mjs tablePanels) ----------------
  renderTables() {
    if (!this.tableBox.open || !this.data || !this.frames.has(this.step)) {
      if (this.tableBox.open && this.data) this.tables.replaceChildren(el("p", {}, this.caption.textContent));
      return;
    }
    const k = this.step;
    const out = tablePanels(this.data, this.frames.get(k), k).map((p) => {
      const table = el("table", { "data-panel": String(p.panel) });
      table.appendChild(el("caption", {}, p.caption));
      const head = el("tr");
      if (p.corner !== null) head.appendChild(el("th", { scope: "col" }, p.corner));
      for (const name of p.head) head.appendChild(el("th", { scope: "col" }, name));
      table.appendChild(el("thead")).appendChild(head);
      const body = table.appendChild(el("tbody"));
      for (const row of p.rows) {
        const tr = el("tr");
        if (row.name !== null) tr.appendChild(el("th", { scope: "row" }, row.name));
        for (const cell of row.cells) {
          const td = el("td", {}, cell.value);
          const notes = cellNotes(cell);
          if (notes.times) td.appendChild(el("span", { class: "sx-times" }, notes.times));
          if (notes.now) {
            td.className = "sx-now";
            td.appendChild(el("span", { class: "sx-now-note" }, notes.now));
          }
          tr.appendChild(td);
        }
        body.appendChild(tr);
      }
      const wrap = el("div", { class: "sx-table-wrap", tabindex: "0", role: "region", "aria-label": p.caption });
      wrap.appendChild(table);
      return wrap;
    });
    this.tables.replaceChildren(...out);
    this.tables.dataset.step = String(k);
  }

  go(k, live) {
    if (!this.data) return;
    k = clampStep(k, this.data.n);
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
    setPlaying(this.controls.parts.play, true);
    this.box.dataset.playing = "1";
    this.schedule();
  }

  pause(report) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const was = this.playing;
    this.playing = false;
    this.waitingForWindow = false;
    setPlaying(this.controls.parts.play, false);
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
    const cell = cellOfHover(p.customdata);
    if (!cell) return;
    this.checkMessage("CellClick", cell);
    this.api.setTriggerValue("cell", cell);
  }

  // -- the first draw: the frame as SVG while plotly.js loads (drawing.mjs previewSvg) --------------------------
  drawPreview(k) {
    const traces = this.themed(this.data.figure.data);
    const layout = { ...this.previewLayout };
    withFrame(traces, layout, this.frames.get(k) && this.themedFrame(this.frames.get(k)));
    const svg = previewSvg(document, { traces, layout, theme: this.theme, cells: this.cells,
                                       width: Math.max(this.fig.clientWidth, 280) });
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
    this.fig.style.minHeight = `${layout.height}px`;
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

  withCaption(fig, k, width) {
    const layout = fig.layout;
    const lines = captionLines(this.data.captions[String(k)], width);
    const extra = captionHeight(lines.length);
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
    const c = this.controls;
    const { steps, note } = stripRange(c.stripFrom.value, c.stripTo.value, this.data.k0, this.data.k1);
    c.stripNote.textContent = note;
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
