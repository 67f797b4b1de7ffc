"""Explorer: Scatter, ScatterElements (ONNX) and ScatterElementsUpdate (OpenVINO)."""

from scatter_ui.explorer import render

render("elements", "elements")
