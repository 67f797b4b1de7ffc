"""Your model: list an ONNX model's or OpenVINO IR's scatter nodes, capture them, step through them."""

from scatter_ui.pages.model import render

render()
