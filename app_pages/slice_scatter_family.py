"""Explorer: SliceScatter (OpenVINO), a strided slice replaced by updates."""

from scatter_ui.explorer import render

render("slice", "slice_scatter")
