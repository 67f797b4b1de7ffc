"""Practice: predict each write, then see it (served at /practice)."""

from scatter_ui.practice_page import render

render()
