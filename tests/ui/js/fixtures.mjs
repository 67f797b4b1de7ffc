// Small payloads for the player's unit tests, shaped like scatter_ui/figures/heatmaps.py StepFigure.figure's.
export const THEME = { dark: false, bg: "#ffffff", text: "#31333f", second: "#f0f2f6", font: "sans-serif",
                       scale: [[0, "#f7fbff"], [1, "#6baed6"]], cellText: null, written: "#495057" };
export const PALETTE = { highlight: "#e8590c", written: "#495057", destination: "rgba(232,89,12,0.65)",
                         light: { value: THEME.scale, cell_text: null, written: "#495057" },
                         dark: { value: [[0, "#1b2633"], [1, "#3172b4"]], cell_text: "#fafafa", written: "rgba(250,250,250,0.75)" } };

const axis = (n, title) => ({ tickvals: [...Array(n).keys()], ticktext: [...Array(n).keys()].map(String),
                              ...(title ? { title: { text: `<b>${title}</b>`, font: { size: 13 } } } : {}) });

// indices 1x2, updates 1x2, output 2x3 (ScatterElements-like): step 1 writes output[0, 1], step 2 writes it again
export function smallData(over = {}) {
  const out = (vals) => vals.map((row) => row.map(String));
  const frame = (k, vals, counts, shapes = []) => ({
    name: String(k), traces: [2], data: [{ z: vals, text: out(vals), counts }],
    layout: { shapes, annotations: [], xaxis: {}, yaxis: {}, xaxis2: {}, yaxis2: {}, xaxis3: {}, yaxis3: {} },
  });
  const hl = (xref, x, y) => ({ type: "rect", xref, yref: xref.replace("x", "y"), x0: x - 0.5, x1: x + 0.5,
                                y0: y - 0.5, y1: y + 0.5, line: { color: PALETTE.highlight, width: 3 } });
  return {
    view: "v", step: 0, name: "t", report: true, url_param: null, check: false, controls: null, room_below: null,
    palette: PALETTE, n: 2, k0: 0, k1: 2, active: 0, steps: null,
    figure: {
      data: [
        { type: "heatmap", z: [[0, 0]], text: [["1", "1"]], customdata: [["indices[0] = 1", "indices[1] = 1"]], textfont: { size: 12 } },
        { type: "heatmap", z: [[5, 7]], text: [["5", "7"]], customdata: [["updates[0] = 5", "updates[1] = 7"]], textfont: { size: 12 } },
        { type: "heatmap", z: [[0, 0, 0], [0, 0, 0]], text: [["0", "0", "0"], ["0", "0", "0"]], counts: [[0, 0, 0], [0, 0, 0]],
          customdata: [["output[0, 0] = 0", "output[0, 1] = 0", "output[0, 2] = 0"], ["output[1, 0] = 0", "output[1, 1] = 0", "output[1, 2] = 0"]],
          textfont: { size: 12 } },
      ],
      layout: { coloraxis: { colorscale: THEME.scale, cmin: 0, cmax: 7, colorbar: {} }, shapes: [], annotations: [],
                xaxis: axis(2, "indices"), yaxis: axis(1), xaxis2: axis(2, "updates"), yaxis2: axis(1),
                xaxis3: axis(3, "output"), yaxis3: axis(2) },
    },
    frames: [frame(0, [[0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0]]),
             frame(1, [[0, 5, 0], [0, 0, 0]], [[0, 1, 0], [0, 0, 0]], [hl("x", 0, 0), hl("x2", 0, 0), hl("x3", 1, 0)]),
             frame(2, [[0, 7, 0], [0, 0, 0]], [[0, 2, 0], [0, 0, 0]], [hl("x", 1, 0), hl("x2", 1, 0), hl("x3", 1, 0)])],
    captions: { 0: "initial state", 1: "step 1 of 2", 2: "step 2 of 2" },
    units: [5, 5, 5], rows: [1, 1, 2], panel_cols: [2, 2, 3], multiples: [[1, 2, 1], [1, 2, 1], [1, 3, 2]], gap: 1,
    hidden: [false, false, false], apart: null, tall: null,
    ...over,
  };
}

// an output of four small multiples, each 2 columns by 3 rows, side by side one column apart
export function multiplesData() {
  const d = smallData();
  const cols = 4 * 2 + 3;
  const grid = (f) => Array.from({ length: 3 }, (_, r) => Array.from({ length: cols }, (_, c) => f(r, c)));
  const gapCol = (c) => c % 3 === 2;
  d.figure.data[2] = { ...d.figure.data[2], z: grid((r, c) => (gapCol(c) ? null : c)),
                       text: grid((r, c) => (gapCol(c) ? "" : `${Math.floor(c / 3)}:${r},${c % 3}`)),
                       counts: grid(() => 0), customdata: grid(() => "") };
  d.figure.layout.xaxis3 = { tickvals: [0, 1, 3, 4, 6, 7, 9, 10], ticktext: ["0", "1", "0", "1", "0", "1", "0", "1"] };
  d.figure.layout.yaxis3 = { tickvals: [0, 1, 2], ticktext: ["0", "1", "2"] };
  d.units = [5, 5, cols];
  d.rows = [1, 1, 3];
  d.panel_cols = [2, 2, 2];
  d.multiples = [[1, 2, 1], [1, 2, 1], [4, 2, 3]];
  d.frames = [];
  return d;
}
