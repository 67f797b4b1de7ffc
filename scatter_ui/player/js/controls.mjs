// The player's controls: the buttons, slider, "go to", speed and export row, the legend of its marks, what the
// keys do, and the timing of playback and of the step reports to Python. Every text is set with textContent.

export const QUIET_MS = 300; // a step is reported once stepping has paused this long (only the latest step)
export const PLAY_REPORT_MS = 900; // while playing: a step is reported when no other follows within this time
export const WATCH_MS = 2500; // after a report: when the URL should carry the step (else it is said again)
export const RERUN_EVENT = "scatter-explorer:full-rerun"; // component.py RERUN_EVENT (rerun_relay), tested equal
export const BASE_FRAME_MS = 900; // one step per 0.9 s at 1x
export const SPEEDS = [0.25, 0.5, 1, 2, 4];
export const MAX_STRIP = 24; // the most steps an exported strip shows
export const CONTROLS = ["first", "prev", "play", "next", "last", "slider", "count", "goto", "speed", "export", "keys"];

export function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// step k as asked for (a number, a typed text), rounded and kept within 0..n
export function clampStep(k, n) {
  return Math.min(Math.max(Math.round(Number(k) || 0), 0), n);
}

// what a key does: "prev", "next", "first", "last", "toggle", or null (the key is left to the page or the focused
// control). `target`: the focused element ({tagName}); `isSlider`: whether it is the step slider; `canPlay`:
// whether the play control is shown (without it, space does not play)
export function keyAction(key, target, { isSlider = false, canPlay = true } = {}) {
  const tag = target && target.tagName;
  if ((tag === "INPUT" || tag === "SELECT") && !isSlider) return null;
  const action = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", " ": "toggle" }[key] || null;
  if (action === "toggle" && (tag === "BUTTON" || !canPlay)) return null; // a focused button takes space itself
  return action;
}

// the count's text: the step of the steps the page names (Practice sends only the steps done: data.steps)
export function countText(k, data) {
  return `${k} / ${data.steps != null ? data.steps : data.n}`;
}

// the steps of an exported strip: from..to (either order) within the frames sent (k0..k1), at most MAX_STRIP
export function stripRange(from, to, k0, k1) {
  let a = Math.round(Number(from) || 0);
  let b = Math.round(Number(to) || 0);
  if (b < a) [a, b] = [b, a];
  a = Math.max(a, k0);
  b = Math.min(b, k1, a + MAX_STRIP - 1);
  const steps = [];
  for (let k = a; k <= b; k++) steps.push(k);
  return { steps, note: `steps ${a}–${b} (${steps.length} tile${steps.length === 1 ? "" : "s"}, at most ${MAX_STRIP})` };
}

// The control bar. `on`: {first, prev, play, next, last, slide(k, live), goto(k), speed(x), exportFrame(format),
// exportStrip(format), failed(error)}. Returns the bar and its parts by name (CONTROLS) and the inputs read later.
export function buildControls(on) {
  const bar = el("div", { class: "sx-controls" });
  const button = (label, title, fn, testid) => {
    const b = el("button", { type: "button", title, "aria-label": title, "data-testid": testid }, label);
    b.addEventListener("click", () => { fn(); });
    bar.appendChild(b);
    return b;
  };
  const parts = {};
  parts.first = button("|◀", "first step (initial state)", on.first, "player-first");
  parts.prev = button("◀", "previous step", on.prev, "player-prev");
  parts.play = button("▶ play", "play", on.play, "player-play");
  parts.next = button("▶", "next step", on.next, "player-next");
  parts.last = button("▶|", "last step (final output)", on.last, "player-last");
  const slider = el("input", { type: "range", min: "0", max: "0", value: "0", "aria-label": "step",
                               "data-testid": "player-slider", class: "sx-slider" });
  slider.addEventListener("input", () => on.slide(Number(slider.value), true));
  slider.addEventListener("change", () => on.slide(Number(slider.value), false));
  bar.appendChild(slider);
  parts.slider = slider;
  parts.count = bar.appendChild(el("span", { class: "sx-count", "data-testid": "player-count" }));
  const goto = el("label", { class: "sx-goto" }, "go to ");
  const gotoInput = el("input", { type: "number", min: "0", value: "0", "aria-label": "go to step",
                                  "data-testid": "player-goto" });
  gotoInput.addEventListener("change", () => on.goto(Number(gotoInput.value)));
  goto.appendChild(gotoInput);
  parts.goto = bar.appendChild(goto);
  const speed = el("label", { class: "sx-speed" }, "speed ");
  const speedSel = el("select", { "aria-label": "speed", "data-testid": "player-speed" });
  for (const s of SPEEDS) {
    const o = el("option", { value: String(s) }, `${s}×`);
    if (s === 1) o.selected = true;
    speedSel.appendChild(o);
  }
  speedSel.addEventListener("change", () => on.speed(Number(speedSel.value)));
  speed.appendChild(speedSel);
  parts.speed = bar.appendChild(speed);

  const exp = el("details", { class: "sx-export" });
  exp.appendChild(el("summary", { "data-testid": "player-export" }, "export"));
  const row = el("div", { class: "sx-export-row" });
  const eb = (label, fn, testid) => {
    const b = el("button", { type: "button", "data-testid": testid }, label);
    b.addEventListener("click", () => fn().catch(on.failed));
    row.appendChild(b);
  };
  eb("frame PNG", () => on.exportFrame("png"), "export-png");
  eb("frame SVG", () => on.exportFrame("svg"), "export-svg");
  const from = el("label", {}, "strip from ");
  const stripFrom = el("input", { type: "number", min: "0", value: "0", "aria-label": "strip: first step",
                                  "data-testid": "strip-from" });
  from.appendChild(stripFrom);
  const to = el("label", {}, " to ");
  const stripTo = el("input", { type: "number", min: "0", value: "0", "aria-label": "strip: last step",
                                "data-testid": "strip-to" });
  to.appendChild(stripTo);
  row.appendChild(from);
  row.appendChild(to);
  eb("step strip PNG", () => on.exportStrip("png"), "export-strip-png");
  eb("step strip SVG", () => on.exportStrip("svg"), "export-strip-svg");
  const stripNote = row.appendChild(el("span", { class: "sx-note" }));
  exp.appendChild(row);
  parts.export = bar.appendChild(exp);
  parts.keys = bar.appendChild(el("span", { class: "sx-keys" }, "keys: ← → step · space play/pause · Home/End"));
  return { bar, parts, slider, gotoInput, speedSel, stripFrom, stripTo, stripNote };
}

// show only the controls named (null: all); the others are hidden
export function showControls(parts, names) {
  for (const [name, node] of Object.entries(parts)) node.style.display = !names || names.includes(name) ? "" : "none";
}

// the play button's words while playing or paused
export function setPlaying(button, playing) {
  const [text, title] = playing ? ["❚❚ pause", "pause"] : ["▶ play", "play"];
  button.textContent = text;
  button.title = title;
  button.setAttribute("aria-label", title);
}

// At the first or last step the buttons that lead past it are marked unavailable (aria-disabled, dimmed) but stay
// focusable: a keyboard user who pressed Enter to the end keeps focus on the button (a press there does nothing).
export function setEnds(parts, k, n) {
  const mark = (b, off) => b.setAttribute("aria-disabled", off ? "true" : "false");
  mark(parts.first, k <= 0);
  mark(parts.prev, k <= 0);
  mark(parts.next, k >= n);
  mark(parts.last, k >= n);
}

// what the marks mean, in words (not colour alone: frames differ in thickness, duplicates carry ×n)
export const LEGEND = [["sx-mark-read", "thick frame: this step's read and write"], ["sx-mark-now", "filled corner: the write"],
                       ["sx-mark-written", "thin frame: written so far"],
                       ["sx-mark-times", "written n times so far (a duplicate index)"]];

// the legend, with the colour scale's note for the values kept off it, grey (Payload.apart)
export function buildLegend() {
  const legend = el("div", { class: "sx-legend", "data-testid": "player-legend" });
  for (const [mark, text] of LEGEND) {
    const item = el("span", { class: "sx-legend-item", "data-mark": mark });
    item.appendChild(el("span", { class: `sx-mark ${mark}`, "aria-hidden": "true" }, mark === "sx-mark-times" ? "×n" : ""));
    item.appendChild(el("span", {}, text));
    legend.appendChild(item);
  }
  const scaleNote = el("span", { class: "sx-legend-item", "data-mark": "sx-mark-apart", "data-testid": "player-scale-note" });
  scaleNote.appendChild(el("span", { class: "sx-mark sx-mark-apart", "aria-hidden": "true" }));
  const scaleNoteText = scaleNote.appendChild(el("span", {}));
  legend.appendChild(scaleNote);
  return { legend, scaleNote, scaleNoteText };
}
