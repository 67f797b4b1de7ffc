"""Explorer: ScatterUpdate (OpenVINO)."""

from scatter_ui.explorer import render

render("update", "update")
