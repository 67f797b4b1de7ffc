"""Widgets and conversions for what the registry records declare generically (issue 16).

The explorer and the check page draw ``reduction``, ``axis`` and ``use_init_val`` with
widgets of their own. Every other attribute is drawn from its :class:`AttrSpec` alone,
by ``kind``:

=========  =======================================  =====================================
kind       widget                                   value given to scatter_core
=========  =======================================  =====================================
``str``    a select box of ``choices``              the chosen string
``int``    a number input                           ``int``
``bool``   a checkbox                               ``bool``
``ints``   a text input, e.g. ``0, -1`` or ``[2]``  ``tuple`` of ints; empty text: None
           (read by ``parse_tensor``, never eval)   (the attribute left out)
=========  =======================================  =====================================

The session (and so the URL) keeps an ``ints`` attribute as its text.

Optional inputs: a family whose ``indices`` rule is "optional" (TensorScatter's
write_indices) or "unused" (SliceScatter) takes None; an empty text box means None,
and None shows as an empty box.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import streamlit as st

import scatter_core as sc

COMMON = ("reduction", "axis", "use_init_val")  # drawn by the pages' own widgets
MAX_LIST_TEXT = 400
# names the pages already use for their own state and URL parameters (the step shown, the example ...):
# an attribute with one of these names (SliceScatter's "step") lives under "attr_<name>" instead
PAGE_KEYS = frozenset({"op", "example", "step", "follow", "data", "indices", "updates", "expected", "goto", "pins",
                       "first", "prev", "next", "last", "crosscheck", "exports", "overview", "panel_axis", "rtol",
                       "atol", "grid"})


def state_name(name: str) -> str:
    """The session key suffix and URL parameter of an attribute: its name, or ``attr_<name>`` on a clash."""
    return f"attr_{name}" if name in PAGE_KEYS else name


def list_text(value) -> str:
    """An integer list as the text its box shows: ``0, -1``; None: an empty box."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return ", ".join(str(int(v)) for v in np.asarray(value).reshape(-1).tolist())


def parse_int_list(name: str, text) -> tuple[int, ...] | None:
    """The integers typed in an ``ints`` box (``0, -1``, ``[0, -1]``); None when it is empty."""
    if text is None or isinstance(text, (list, tuple, np.ndarray)):
        return None if text is None else tuple(int(v) for v in np.asarray(text).reshape(-1).tolist())
    body = str(text).strip()
    if not body:
        return None
    if not body.startswith("["):
        body = f"[{body}]"
    arr = sc.parse_tensor(body[:MAX_LIST_TEXT + 2], name=name, max_elements=64)
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        raise sc.ScatterError(f"{name} = {text!r} must be a list of integers, e.g. 0, -1", argument=name,
                              rule="ints")
    return tuple(int(v) for v in arr.tolist())


def session_value(attr, value):
    """What the session keeps for ``attr`` (an ``ints`` list as text; other kinds as they are)."""
    return list_text(value) if attr.kind == "ints" else value


def settle(attr, key: str) -> None:
    """Make the session's value of a choice attribute one of its choices (before it is used or drawn)."""
    if attr.kind == "str" and attr.choices and st.session_state.get(key) not in attr.choices:
        st.session_state[key] = attr.default if attr.default in attr.choices else attr.choices[0]


def widget(attr, key: str) -> None:
    """One widget for an attribute beyond the common three, by its kind (its value settled first:
    ``controls.attribute_widgets`` calls :func:`settle` through ``settle_attributes``)."""
    label = attr.name + (" (input)" if attr.is_input else "") + ("" if attr.required or attr.kind != "ints"
                                                                  else " (optional)")
    if attr.kind == "str" and attr.choices:
        st.selectbox(label, attr.choices, key=key, help=attr.doc)
    elif attr.kind == "ints":
        st.text_input(label, key=key, help=attr.doc + " — integers separated by commas", max_chars=MAX_LIST_TEXT)
    elif attr.kind == "bool":
        st.checkbox(label, key=key, help=attr.doc)
    elif attr.kind == "int":
        st.number_input(label, step=1, key=key, help=attr.doc)
    else:
        st.text_input(label, key=key, help=attr.doc)


def core_value(attr, value):
    """A session value as scatter_core takes it (``ints`` text parsed; raises ScatterError naming it)."""
    if attr.kind == "ints":
        return parse_int_list(attr.name, value)
    if attr.kind == "int" and value is not None:
        return int(value)
    return value


def parse_input(spec, role: str, text: str, parse: Callable[[str, str], np.ndarray]):
    """A typed input; an empty indices box is None where the family allows it (left out / not read)."""
    if role == "indices" and not (text or "").strip() and sc.family_of(spec).indices != "required":
        return None
    return parse(role, text)


def editable(example, limit: int) -> bool:
    """Whether an example's tensors can be edited as text (printed values, each at most ``limit`` elements)."""
    return not example.shapes_only and all(a is None or a.size <= limit for a in example.inputs)
