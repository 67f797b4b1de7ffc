"""Explorer: ScatterND (ONNX) and ScatterNDUpdate (OpenVINO)."""

from scatter_ui.explorer import render

render("nd", "nd")
