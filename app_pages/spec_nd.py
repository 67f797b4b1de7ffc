"""Spec page: ScatterND / ScatterNDUpdate (timeline, version comparison, ONNX vs OpenVINO, errata, runtimes)."""

from scatter_ui.spec_page import render

render("nd")
