"""Practice: predict each write, then see it (served at /practice)."""

from scatter_ui.pages.practice import render

render()
