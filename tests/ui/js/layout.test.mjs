// layout.mjs: panel sizes, small multiples wrapped, cell and font sizes, the projector's plan, the whole layout.
import test from "node:test";
import assert from "node:assert/strict";
import { ARRANGEMENTS, MAX_CELL, MAX_FONT, MIN_CELL, MIN_COLUMNS, MIN_FONT, NARROW, PROJECTOR_CELL, WRAP_AT,
  arrangements, cellFont, figureLayout, fitLabels, fitToWindow, longestText, panelDims, projectorPlan, textCell,
  withFrame, wrapLayout, wrapOf, wrapTrace } from "../../../scatter_ui/player/js/layout.mjs";
import { THEME, multiplesData, smallData } from "./fixtures.mjs";

const noRoom = () => null;
const titles = () => [60, 60, 60];
const lay = (data, width, room = noRoom) => figureLayout({ data, theme: THEME, width, room, titles, longest: [1, 1, 1] });

test("a panel is its units wide until its multiples wrap, and never under MIN_COLUMNS", () => {
  const d = multiplesData();
  assert.deepEqual(panelDims(d, 2, 4), [11, 3]); // all side by side: as Python laid them out
  assert.deepEqual(panelDims(d, 2, 2), [5, 7]); // two rows of two: 2*2+1 columns, 3+1+3 rows
  assert.deepEqual(panelDims(d, 2, 1), [MIN_COLUMNS, 15]); // one a row: 2 columns, widened to the minimum
  assert.deepEqual(panelDims(d, 0, 1), [5, 1]);
});

test("wrapping moves each multiple's cells, counts, shapes, labels and ticks alike", () => {
  const d = multiplesData();
  const tr = wrapTrace(d, [1, 1, 2], 2, d.figure.data[2]);
  assert.equal(tr.text.length, 7);
  assert.deepEqual(tr.text[0], ["0:0,0", "0:0,1", "", "1:0,0", "1:0,1"]);
  assert.deepEqual(tr.text[3], ["", "", "", "", ""]); // the gap row between the lines of multiples
  assert.deepEqual(tr.text[4], ["2:0,0", "2:0,1", "", "3:0,0", "3:0,1"]);
  assert.deepEqual(tr.z[4], [6, 7, null, 9, 10]);
  assert.deepEqual(tr.counts[3], [0, 0, 0, 0, 0]);
  assert.equal(wrapTrace(d, [1, 1, 4], 2, d.figure.data[2]), d.figure.data[2]); // not wrapped: the same trace
  const layout = wrapLayout(d, [1, 1, 2], {
    shapes: [{ type: "rect", xref: "x3", yref: "y3", x0: 5.5, x1: 6.5, y0: -0.5, y1: 0.5, line: {} },
             { type: "path", xref: "x3", yref: "y3", path: "M8.5,0.5H9.5V1.5H8.5Z", line: {} }],
    annotations: [{ xref: "x3", yref: "y3", x: 7, y: 3, text: "third" }],
    xaxis3: d.figure.layout.xaxis3, yaxis3: d.figure.layout.yaxis3,
  });
  assert.deepEqual([layout.shapes[0].x0, layout.shapes[0].y0], [-0.5, 3.5]); // multiple 2: first column, second line
  assert.equal(layout.shapes[1].path, "M2.5,4.5H3.5V5.5H2.5Z"); // multiple 3: second column, second line
  assert.deepEqual([layout.annotations[0].x, layout.annotations[0].y], [1, 7]);
  assert.deepEqual(layout.xaxis3.tickvals, [0, 1, 3, 4]); // column numbers once, above the first line
  assert.deepEqual(layout.yaxis3.ticktext, ["0", "1", "2", "0", "1", "2"]); // row numbers beside each line
  assert.equal(wrapOf(d, 2, 4), null);
});

test("a frame's values and layout go over the figure's", () => {
  const d = smallData();
  const traces = d.figure.data.map((t) => ({ ...t }));
  const layout = { ...d.figure.layout };
  withFrame(traces, layout, d.frames[2]);
  assert.deepEqual(traces[2].text[0], ["0", "7", "0"]);
  assert.deepEqual(traces[2].counts[0], [0, 2, 0]);
  assert.deepEqual(traces[0].text, [["1", "1"]]); // a panel the frame leaves alone
  assert.equal(layout.shapes.length, 3);
  assert.equal(layout.xaxis3.title.text, "<b>output</b>"); // an axis is merged, not replaced
});

test("cell text is as large as its cell allows, MIN_FONT on a projector's cells, none in a tiny cell", () => {
  assert.equal(cellFont(17, 1, 12), 0);
  assert.equal(cellFont(64, 1, 12), MAX_FONT);
  assert.equal(cellFont(PROJECTOR_CELL, 2, 9), MIN_FONT); // 24 px holds 2 characters at 12 px
  assert.equal(cellFont(PROJECTOR_CELL, 3, 9), 10); // not 3: 0.42 of the cell
  assert.equal(cellFont(20, 3, 12), 8); // smaller than a projector's: what fits (0.42 of the cell)
  assert.equal(cellFont(40, 6, 12), 12); // never under the size Python chose for the narrowest layout (up to 0.42 c)
  assert.equal(cellFont(40, 6, 20), 16);
  assert.equal(textCell(0), 0);
  assert.equal(textCell(1), Math.ceil(MIN_FONT / 0.42));
  assert.equal(textCell(6), Math.ceil(MIN_FONT * 0.62 * 6 / 0.9));
});

test("the longest text is read from the figure and every frame of the panel", () => {
  const d = smallData();
  d.frames[1].data[0].text[1][2] = "-12.5";
  assert.equal(longestText(d, 2), 5);
  assert.equal(longestText(d, 0), 1);
});

test("a small multiple's label gets its short form, or none, when it is wider than the panel", () => {
  const a = { xref: "x3", x: 0, y: 0, text: "a long label here", name: "ab", font: { size: 10 } };
  const [long, short, none] = [[20, 20, 40], [20, 20, 5], [20, 20, 1]]
    .map((cells) => fitLabels([a], [3, 3, 3], cells)[0].text);
  assert.deepEqual([long, short, none], ["a long label here", "ab", ""]);
  assert.equal(fitLabels([{ xref: "paper", text: "x" }], [1, 1, 1], [1, 1, 1])[0].text, "x");
});

test("a wide window: one cell size, the panels side by side in order, inside the plot", () => {
  const d = smallData();
  const { layout, cells, perRow, figW } = lay(d, 1400);
  assert.deepEqual(cells, [cells[2], cells[2], cells[2]]);
  assert.equal(cells[2], MAX_CELL); // 15 columns in 1400 px: as large as cells go
  assert.equal(lay(d, 1000).cells[2], (1000 - 34 - 90 - 2 * 36) / 15); // the width shared by 15 columns
  assert.deepEqual(perRow, [1, 1, 1]);
  assert.equal(figW, 1400);
  const xs = ["", "2", "3"].map((r) => layout[`xaxis${r}`].domain);
  for (let i = 0; i < 3; i++) assert.ok(xs[i][0] >= 0 && xs[i][1] <= 1 && xs[i][0] < xs[i][1]);
  assert.ok(xs[0][1] <= xs[1][0] && xs[1][1] <= xs[2][0]); // left to right, no overlap
  assert.equal(layout.coloraxis.colorbar.orientation, "v");
  assert.equal(layout.paper_bgcolor, THEME.bg);
  assert.equal(layout.height, Math.round(layout.height));
});

test("a phone: the panels stack, cells stay about MIN_CELL, the colour bar goes below", () => {
  const d = multiplesData();
  const { layout, cells, perRow, figW } = lay(d, 300);
  assert.ok(cells.every((c) => c >= WRAP_AT * MIN_CELL), cells);
  assert.ok(perRow[2] < 4); // the output's multiples wrapped rather than shrink under MIN_CELL
  assert.ok(figW >= 300);
  const ys = ["", "2", "3"].map((r) => layout[`yaxis${r}`].domain);
  assert.ok(ys[2][1] <= ys[0][0]); // the output below the inputs
  assert.equal(layout.coloraxis.colorbar.orientation, "h");
  assert.ok(300 < NARROW);
});

test("a hidden panel is left out and takes no room", () => {
  const d = smallData({ hidden: [true, false, false] });
  const { layout } = lay(d, 1000);
  assert.equal(layout.xaxis.visible, false);
  assert.equal(layout.xaxis2.domain[0], 0); // the updates panel starts the row
});

test("the arrangements tried on a projector leave hidden panels out, each once", () => {
  assert.equal(arrangements([0, 1, 2]).length, ARRANGEMENTS.length);
  const two = arrangements([1, 2]);
  assert.ok(two.every((a) => !JSON.stringify(a).includes("0")));
  assert.equal(new Set(two.map((a) => JSON.stringify(a))).size, two.length);
});

test("a projector's plan takes the largest cells that end inside the room", () => {
  const d = smallData({ room_below: 100 });
  const plan = (room) => projectorPlan({ data: d, avail: 1000, shown: [0, 1, 2], labelled: false, room,
                                         titles: [60, 60, 60], longest: [1, 1, 1] });
  const roomy = plan(2000);
  assert.equal(roomy.cell, MAX_CELL);
  const tight = plan(100);
  assert.ok(tight.cell >= MIN_CELL && tight.cell < MAX_CELL, tight.cell);
  assert.ok(tight.height <= 100.5);
  for (const b of tight.boxes) assert.ok(b.x >= 0 && b.x + b.w <= 1000.5);
  const none = plan(10); // nothing fits: the shortest layout at MIN_CELL (the page scrolls), never below
  assert.ok(none.cell >= PROJECTOR_CELL);
});

test("fitted to a short window side by side, the cells end inside the room", () => {
  const d = smallData();
  const dims = (i) => panelDims(d, i, 1);
  const [c, widths] = fitToWindow({ data: d, avail: 900, shown: [0, 1, 2], dims, wideCell: 40, rows: 2, room: 70,
                                    titles: [60, 60, 60] });
  assert.equal(c, 35); // room / rows
  assert.ok(Math.abs(widths.reduce((a, b) => a + b, 0) - 900) < 1e-6); // the width left over shared out
});

test("a short window (room given) sets the plan, and the room function is asked with the margin", () => {
  const d = smallData({ room_below: 50 });
  const asked = [];
  const room = (margin) => { asked.push({ ...margin }); margin.t = 40; return 150; };
  const { layout, cells } = lay(d, 1000, room);
  assert.ok(asked.length >= 1);
  assert.equal(layout.margin.t, 40);
  assert.ok(cells[2] * 2 <= 150 + 0.5);
});
