"""The teacher's live view of a class (served at /class?code=CODE&key=KEY)."""

from scatter_ui.class_page import render

render()
