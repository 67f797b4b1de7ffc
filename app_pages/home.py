"""Home: what scatter is, and a gallery of every spec example."""

from scatter_ui.home import render

render()
