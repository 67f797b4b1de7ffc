"""Spec page: TensorScatter (timeline, runtimes, examples)."""

from scatter_ui.spec_page import render

render("cache")
