"""Explorer: TensorScatter (ONNX), the key/value-cache write."""

from scatter_ui.explorer import render

render("cache", "tensor_scatter")
