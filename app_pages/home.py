"""Home: what scatter is, and a gallery of every spec example."""

from scatter_ui.pages.home import render

render()
