"""From your code: a framework's scatter call -> its ONNX / OpenVINO operator (served at /from-code)."""

from scatter_ui.pages.from_code import render

render()
