"""The teacher's live view of a class (served at /class?code=CODE&key=KEY)."""

from scatter_ui.pages.class_view import render

render()
