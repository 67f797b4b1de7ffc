"""The Practice page under AppTest: open it with URL parameters, predict a cell, type an output, press a button."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.support.apptest_helpers import app_on


PAGE = "app_pages/practice.py"


def open_practice(timeout: float = 120, **params) -> AppTest:
    at = app_on(PAGE, timeout)
    at.query_params.update({k: str(v) for k, v in params.items()})
    at.run()
    assert not at.exception, at.exception
    assert not [e.value for e in at.error if "went wrong" in e.value]
    return at


def text_input(at: AppTest, label_start: str):
    return next(t for t in at.text_input if t.label.startswith(label_start))


def button(at: AppTest, label: str):
    return next(b for b in at.button if b.label == label)


# -- step by step ------------------------------------------------------------------------------------------------
def predict(at: AppTest, cell, value) -> AppTest:
    text_input(at, "Target cell").set_value(", ".join(str(c) for c in cell))
    text_input(at, "Value after the step").set_value(str(value))
    button(at, "Check").click().run()
    assert not at.exception, at.exception
    return at


# -- whole output ---------------------------------------------------------------------------------------------------
def type_output(at: AppTest, text: str) -> AppTest:
    entries = [r for r in at.radio if r.label == "Enter the output as"]  # none for rank 3: text only
    if entries and entries[0].value != "text":
        entries[0].set_value("text").run()
    next(t for t in at.text_area if t.label.startswith("Output")).set_value(text)
    button(at, "Check my output").click().run()
    assert not at.exception, at.exception
    return at
