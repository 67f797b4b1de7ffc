"""The animated figure as a small HTML component running plotly.js in the browser.

st.plotly_chart validates every frame through plotly's Python classes, which
takes seconds for a few hundred frames; the browser does that work anyway. So
the figure (a plain dict) goes to plotly.js directly, loaded from the app's own
static files: play, pause and the slider then run with no server round trip.
"""

from __future__ import annotations

import json

import streamlit as st

from .assets import ensure_plotly_js

_TEMPLATE = """<!doctype html>
<html><head><meta charset="utf-8">
<style>html,body{{margin:0;background:#fff;font-family:"DejaVu Sans",Arial,sans-serif}}
#msg{{color:#c92a2a;padding:8px}}</style>
<script src="{src}"></script></head>
<body><div id="fig" data-testid="scatter-figure" data-frames="{n_frames}"></div><div id="msg"></div>
<script>
const fig = {figure};
if (typeof Plotly === "undefined") {{
  document.getElementById("msg").textContent = "The figure could not load plotly.js from {src}.";
}} else {{
  Plotly.newPlot("fig", fig.data, fig.layout, {{displayModeBar: false, responsive: true}})
    .then(gd => fig.frames.length ? Plotly.addFrames(gd, fig.frames) : gd)
    .then(() => {{ document.getElementById("fig").dataset.ready = "1"; }});
}}
</script></body></html>"""


def figure_html(fig: dict) -> str:
    src = ensure_plotly_js()
    payload = json.dumps(fig, separators=(",", ":")).replace("</", "<\\/")
    return _TEMPLATE.format(src=src, figure=payload, n_frames=len(fig.get("frames", [])))


def animated_chart(fig: dict) -> None:
    """Show the figure in an iframe. Everything in it is generated here: numbers formatted by
    scatter_core and our own labels, JSON-encoded with "</" escaped; no user text is spliced in raw."""
    show_html(figure_html(fig), int(fig["layout"].get("height", 400)))


def show_html(html: str, height: int) -> None:
    st.iframe(html, height=height + 10)
