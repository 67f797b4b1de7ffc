"""From your code: a framework's scatter call -> its ONNX / OpenVINO operator (served at /from-code)."""

from scatter_ui.from_call_page import render

render()
