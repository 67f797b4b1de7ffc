// controls.mjs: what the keys do, steps kept in range, the strip's steps, the control bar and the legend.
import test from "node:test";
import assert from "node:assert/strict";
import { CONTROLS, LEGEND, MAX_STRIP, buildControls, buildLegend, clampStep, countText, keyAction, setEnds, setPlaying,
  showControls, stripRange } from "../../../scatter_ui/player/js/controls.mjs";
import { installFakeDocument } from "./fake_dom.mjs";

test("keys step, jump and play; a focused input or button keeps its own", () => {
  const body = { tagName: "BODY" };
  assert.equal(keyAction("ArrowLeft", body), "prev");
  assert.equal(keyAction("ArrowRight", body), "next");
  assert.equal(keyAction("Home", body), "first");
  assert.equal(keyAction("End", body), "last");
  assert.equal(keyAction(" ", body), "toggle");
  assert.equal(keyAction("a", body), null);
  assert.equal(keyAction("ArrowLeft", { tagName: "INPUT" }), null); // "go to": the caret moves
  assert.equal(keyAction("ArrowLeft", { tagName: "INPUT" }, { isSlider: true }), "prev");
  assert.equal(keyAction(" ", { tagName: "BUTTON" }), null); // the button takes space itself
  assert.equal(keyAction("ArrowRight", { tagName: "BUTTON" }), "next");
  assert.equal(keyAction(" ", body, { canPlay: false }), null); // no play control: space does not play
});

test("a step asked for is rounded and kept within 0..n", () => {
  assert.deepEqual([clampStep(-3, 5), clampStep(2.6, 5), clampStep(9, 5), clampStep("4", 5), clampStep("x", 5)],
                   [0, 3, 5, 4, 0]);
  assert.equal(countText(2, { n: 5, steps: null }), "2 / 5");
  assert.equal(countText(2, { n: 2, steps: 6 }), "2 / 6"); // Practice sends only the steps done
});

test("a strip takes its steps in either order, inside the frames sent, at most MAX_STRIP", () => {
  assert.deepEqual(stripRange(3, 1, 0, 10).steps, [1, 2, 3]);
  assert.deepEqual(stripRange(0, 50, 5, 8).steps, [5, 6, 7, 8]);
  const long = stripRange(0, 100, 0, 100);
  assert.equal(long.steps.length, MAX_STRIP);
  assert.equal(long.note, `steps 0–${MAX_STRIP - 1} (${MAX_STRIP} tiles, at most ${MAX_STRIP})`);
  assert.equal(stripRange(2, 2, 0, 4).note, `steps 2–2 (1 tile, at most ${MAX_STRIP})`);
});

test("the control bar has every control, each button and input calls its handler", () => {
  installFakeDocument();
  const calls = [];
  const on = Object.fromEntries(["first", "prev", "play", "next", "last"].map((name) => [name, () => calls.push(name)]));
  Object.assign(on, { slide: (k, live) => calls.push(["slide", k, live]), goto: (k) => calls.push(["goto", k]),
                      speed: (x) => calls.push(["speed", x]), exportFrame: async () => {}, exportStrip: async () => {},
                      failed: () => {} });
  const c = buildControls(on);
  assert.deepEqual(Object.keys(c.parts).sort(), [...CONTROLS].sort());
  for (const name of ["first", "prev", "play", "next", "last"]) c.parts[name].click();
  assert.deepEqual(calls.splice(0), ["first", "prev", "play", "next", "last"]);
  c.slider.value = "3";
  c.slider.dispatch("input");
  c.slider.dispatch("change");
  c.gotoInput.value = "2";
  c.gotoInput.dispatch("change");
  c.speedSel.value = "0.5";
  c.speedSel.dispatch("change");
  assert.deepEqual(calls, [["slide", 3, true], ["slide", 3, false], ["goto", 2], ["speed", 0.5]]);
  for (const name of ["first", "prev", "play", "next", "last"]) {
    assert.ok(c.parts[name].getAttribute("aria-label"), name); // every button is named for assistive technology
  }
  showControls(c.parts, ["next", "count"]);
  assert.deepEqual(CONTROLS.filter((n) => c.parts[n].style.display !== "none"), ["next", "count"]);
  showControls(c.parts, null);
  assert.ok(CONTROLS.every((n) => c.parts[n].style.display === ""));
  setEnds(c.parts, 0, 4);
  assert.deepEqual(["first", "prev", "next", "last"].map((n) => c.parts[n].getAttribute("aria-disabled")),
                   ["true", "true", "false", "false"]);
  setPlaying(c.parts.play, true);
  assert.deepEqual([c.parts.play.textContent, c.parts.play.getAttribute("aria-label")], ["❚❚ pause", "pause"]);
  setPlaying(c.parts.play, false);
  assert.equal(c.parts.play.getAttribute("aria-label"), "play");
});

test("the legend says every mark in words, and has a place for the grey cells' note", () => {
  installFakeDocument();
  const { legend, scaleNote, scaleNoteText } = buildLegend();
  const words = legend.children.map((item) => item.textContent);
  assert.equal(words.length, LEGEND.length + 1);
  assert.ok(words.some((w) => w.includes("×n") && w.includes("written n times")));
  assert.ok(words.some((w) => w.startsWith("thick frame")));
  assert.equal(legend.children.at(-1), scaleNote);
  assert.equal(scaleNoteText.textContent, "");
});
