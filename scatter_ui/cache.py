"""Cached computations shared by the pages.

Traces are cached as resources: one immutable object per distinct case, shared
by every session (its arrays are read-only, ``state_at`` returns fresh
arrays), so a step change never copies a 50 MB tensor out of a cache. Small
derived values (tables, figures) go through ``st.cache_data``.
"""

from __future__ import annotations

import hashlib

import numpy as np
import streamlit as st

import scatter_core as sc
import spec_examples

from .figures import StepFigure

MAX_TEXT_ELEMENTS = 10_000  # typed tensors (and the text editors) stay below this many elements


def _parse(name: str, text: str) -> np.ndarray:
    return sc.parse_tensor(text, name=name, max_elements=MAX_TEXT_ELEMENTS)


def inputs_for(example_id: str | None, texts: tuple[str, str, str] | None, op: str | None = None):
    """(data, indices, updates) of an example, or parsed from the three texts (an empty indices text
    is None where ``op``'s family takes None: TensorScatter's write_indices left out, SliceScatter)."""
    if texts is not None:
        from .attribute_inputs import parse_input

        spec = sc.OPERATORS.get(op)
        return tuple(_parse(name, text) if spec is None else parse_input(spec, name, text, _parse)
                     for name, text in zip(("data", "indices", "updates"), texts))
    ex = spec_examples.by_id(example_id)
    return ex.data, ex.indices, ex.updates


@st.cache_resource(max_entries=48, show_spinner=False)
def trace_for(op: str, example_id: str | None, texts: tuple[str, str, str] | None, attrs: tuple) -> sc.Trace:
    """The trace of one case; raises ScatterError for invalid input (not cached)."""
    data, indices, updates = inputs_for(example_id, texts, op)
    return sc.trace(op, data, indices, updates, **dict(attrs))


@st.cache_resource(max_entries=48, show_spinner=False)
def step_figure(op: str, example_id: str | None, texts, attrs: tuple, follow: bool, pins: tuple,
                panel_axis: int | None = None) -> StepFigure:
    return StepFigure(trace_for(op, example_id, texts, attrs), pinned=dict(pins), follow=follow,
                      panel_axis=panel_axis)


@st.cache_data(max_entries=256, show_spinner=False)
def figure_page(op: str, example_id: str | None, texts, attrs: tuple, follow: bool, pins: tuple,
                panel_axis: int | None, step: int) -> tuple[str, int]:
    """The animated figure of one step as (HTML, height): a string, cheap to cache and copy.

    Built from the cached StepFigure, which keeps the frames of each window, so a step change
    inside the window only draws the new initial frame."""
    from .chart import figure_html

    fig = step_figure(op, example_id, texts, attrs, follow, pins, panel_axis).figure(step)
    return figure_html(fig), int(fig["layout"].get("height", 400))


@st.cache_data(max_entries=64, show_spinner=False)
def step_table_csv(op: str, example_id: str | None, texts, attrs: tuple) -> str:
    import pandas as pd

    t = trace_for(op, example_id, texts, attrs)
    return pd.DataFrame(t.step_table()).to_csv(index=False)


def case_key(op: str, example_id: str | None, texts, attrs: tuple) -> str:
    """A short stable id of a case, for widget keys."""
    h = hashlib.sha1(repr((op, example_id, texts, attrs)).encode()).hexdigest()
    return h[:12]
