"""Check a hand-computed expected output: verdict, explanation, diagnosis, export."""

from scatter_ui.check_page import render

render()
