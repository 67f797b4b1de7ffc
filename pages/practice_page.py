"""Practice: predict each write, then see it (served at /practice; the file name differs from the url path so
Streamlit's pages/ discovery never runs it without the app's navigation)."""

from scatter_ui.practice_page import render

render()
