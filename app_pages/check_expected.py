"""Check a hand-computed expected output: verdict, explanation, diagnosis, export."""

from scatter_ui.pages.check_expected import render

render()
