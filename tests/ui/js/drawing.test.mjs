// drawing.mjs: colours, the cell texts built from values and write counts, the themed traces and frames, the SVG of
// the first draw, the text form and an export's caption.
import test from "node:test";
import assert from "node:assert/strict";
import { captionHeight, captionLines, cellMarkup, cellNotes, colourAt, luminance, plain, previewSvg, rgbOf,
  tablePanels, themedFrame, themedTraces, withMarks } from "../../../scatter_ui/player/js/drawing.mjs";
import { figureLayout, withFrame } from "../../../scatter_ui/player/js/layout.mjs";
import { installFakeDocument } from "./fake_dom.mjs";
import { PALETTE, THEME, smallData } from "./fixtures.mjs";

test("colours are read and mixed as plotly does", () => {
  assert.deepEqual(rgbOf("#e8590c"), [232, 89, 12]);
  assert.deepEqual(rgbOf("#fff"), [255, 255, 255]);
  assert.deepEqual(rgbOf("rgba(250, 250, 250, 0.75)"), [250, 250, 250]);
  assert.equal(colourAt([[0, "#000000"], [1, "#ffffff"]], 0.5), "rgb(128,128,128)");
  assert.equal(colourAt([[0, "#000000"], [0.5, "#ff0000"], [1, "#ffffff"]], 0.25), "rgb(128,0,0)");
  assert.equal(colourAt([[0, "#000000"], [1, "#ffffff"]], NaN), "rgb(0,0,0)");
  assert.ok(luminance("#ffffff") > 0.99 && luminance("#0e1117") < 0.1);
});

test("a cell shows its value, and ×n under it when it was written n > 1 times", () => {
  assert.equal(cellMarkup("7", 2), "7<br><span>×2</span>");
  assert.equal(cellMarkup("7", 1), "7");
  assert.equal(cellMarkup("7", 0), "7");
  assert.equal(cellMarkup("a<b&c", 0), "a&lt;b&amp;c"); // a value is text, never markup
  assert.equal(plain(cellMarkup("a<b&c", 3)), "a<b&c×3");
});

test("the counts become the cell texts and are not passed to plotly", () => {
  const tr = withMarks({ z: [[1, 2]], text: [["1", "2"]], counts: [[3, 1]] });
  assert.deepEqual(tr, { z: [[1, 2]], text: [["1<br><span>×3</span>", "2"]] });
  const same = { z: [[1]] };
  assert.equal(withMarks(same), same);
  assert.deepEqual(withMarks({ z: [[1]], counts: [[2]] }), { z: [[1]] });
});

test("themed traces: the theme's font and colours, text sized to the cell, hidden panels left out", () => {
  const d = smallData({ hidden: [true, false, false] });
  const traces = d.figure.data.map((t) => ({ ...t }));
  withFrame(traces, { ...d.figure.layout }, d.frames[2]);
  const big = themedTraces(traces, { data: d, theme: THEME, perRow: [1, 1, 1], cells: [40, 40, 40], longest: [1, 1, 1] });
  assert.equal(big[0].visible, false);
  assert.equal(big[2].text[0][1], "7<br><span>×2</span>");
  assert.ok(!("counts" in big[2]));
  assert.equal(big[2].textfont.family, THEME.font);
  assert.equal(big[2].textfont.size, 16);
  assert.deepEqual(big[0].colorscale, [[0, THEME.second], [1, THEME.second]]); // indices: no value colours
  const tiny = themedTraces(traces, { data: d, theme: { ...THEME, cellText: "#fafafa" }, perRow: [1, 1, 1],
                                      cells: [10, 10, 10], longest: [1, 1, 1] });
  assert.equal(tiny[2].texttemplate, ""); // no room for digits: the hover has them
  assert.equal(tiny[2].textfont.color, "#fafafa");
});

test("a themed frame draws written cells in the theme's colour and carries no counts", () => {
  const d = smallData();
  const f = { ...d.frames[2], layout: { ...d.frames[2].layout,
    shapes: [{ type: "path", xref: "x3", yref: "y3", path: "M0.5,-0.5H1.5V0.5H0.5Z", line: { color: PALETTE.written, width: 1.2 } }] } };
  const out = themedFrame(f, { data: d, theme: { ...THEME, written: "rgba(250,250,250,0.75)" }, perRow: [1, 1, 1], cells: [40, 40, 40] });
  assert.equal(out.layout.shapes[0].line.color, "rgba(250,250,250,0.75)");
  assert.deepEqual(out.data[0].text[0], ["0", "7<br><span>×2</span>", "0"]);
  assert.ok(!("counts" in out.data[0]));
});

test("the text form says each value, how often a cell was written and this step's read and write", () => {
  const d = smallData();
  const [indices, updates, output] = tablePanels(d, d.frames[2], 2);
  assert.equal(output.caption, "output, after step 2 of 2");
  assert.deepEqual(output.head, ["0", "1", "2"]);
  assert.equal(output.corner, "row \\ column");
  const cell = output.rows[0].cells[1];
  assert.deepEqual(cell, { value: "7", times: 2, now: "written" });
  assert.deepEqual(cellNotes(cell), { times: " ×2: written 2 times", now: " ← written this step" });
  assert.deepEqual(output.rows[1].cells.map((c) => c.times), [0, 0, 0]);
  assert.equal(updates.rows[0].cells[1].now, "read");
  assert.equal(indices.rows[0].cells[0].now, null);
  assert.equal(tablePanels(d, d.frames[0], 0)[2].caption, "output, initial state");
  assert.equal(tablePanels({ ...d, hidden: [true, false, false] }, d.frames[0], 0).length, 2);
});

test("an export's caption wraps at the image's width, word by word", () => {
  const words = "one two three four five six seven eight nine ten eleven twelve".split(" ");
  const lines = captionLines(words.join(" "), 200);
  assert.ok(lines.length > 1);
  assert.deepEqual(lines.join(" ").split(" "), words);
  assert.ok(lines.every((l) => l.length <= Math.floor((200 - 16) / (13 * 0.56)) || !l.includes(" ")));
  assert.deepEqual(captionLines("", 400), []);
  assert.equal(captionHeight(0), captionHeight(1));
});

test("the first draw: every cell as SVG, with its value and ×n on a second line, output cells clickable", () => {
  const doc = installFakeDocument();
  const d = smallData();
  const { layout, cells, perRow } = figureLayout({ data: d, theme: THEME, width: 1000, room: () => null,
                                                   titles: () => [60, 60, 60], longest: [1, 1, 1] });
  const traces = themedTraces(d.figure.data, { data: d, theme: THEME, perRow, cells, longest: [1, 1, 1] });
  withFrame(traces, layout, themedFrame(d.frames[2], { data: d, theme: THEME, perRow, cells }));
  const svg = previewSvg(doc, { traces, layout, theme: THEME, cells, width: 1000 });
  assert.equal(svg.getAttribute("width"), "1000");
  const panels = svg.findAll((e) => e.getAttribute("data-panel") !== null);
  assert.equal(panels.length, 3);
  const outCells = svg.findAll((e) => e.getAttribute("data-cell") !== null);
  assert.equal(outCells.length, 6);
  const written = outCells.find((e) => e.getAttribute("data-cell") === "0,1").parentNode;
  assert.deepEqual(written.findAll((e) => e.tagName === "TEXT").map((e) => e.textContent), ["7", "×2"]);
  assert.equal(written.findAll((e) => e.tagName === "TITLE")[0].textContent, "output[0, 1] = 0");
  const other = outCells.find((e) => e.getAttribute("data-cell") === "1,0").parentNode;
  assert.deepEqual(other.findAll((e) => e.tagName === "TEXT").map((e) => e.textContent), ["0"]);
  const titles = svg.findAll((e) => e.tagName === "TSPAN").map((e) => e.textContent);
  assert.deepEqual(titles, ["indices", "updates", "output"]);
  assert.equal(svg.findAll((e) => e.tagName === "RECT" && e.getAttribute("stroke") === PALETTE.highlight).length, 3);
});
