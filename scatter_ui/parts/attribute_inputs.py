"""The attributes' widgets and page state, every attribute drawn and loaded by its codec (issue 25).

The one attribute-loading path of the explorer and check pages (and the links other pages make), by each
attribute's codec (``scatter_core.codec_of``):

* :func:`url_converters`: a link's text -> the session value; :func:`load`: an example's attributes (or the
  defaults) -> the session; :func:`settle_all`: the session's values made ones the widgets can show;
* :func:`widgets`: one widget per attribute, by its codec;
* :func:`core_values`: the session -> the values scatter_core takes (raises ScatterError naming it);
* :func:`url_values` / :func:`url_params`: the session, or a case's attributes -> the URL's text.

The session (and so the URL) keeps an ``ints`` attribute as its text; an optional input (TensorScatter's
write_indices, SliceScatter's unused indices) takes None, shown as an empty box. The table of each codec's
widget and value: docs/architecture.md, scatter_ui/parts/attribute_inputs.py.
"""

from __future__ import annotations

from typing import Callable, Mapping

import numpy as np
import streamlit as st

import scatter_core as sc

# names the pages already use for their own state and URL parameters (the step shown, the example ...):
# an attribute with one of these names (SliceScatter's "step") lives under "attr_<name>" instead
PAGE_KEYS = frozenset({"op", "example", "step", "follow", "data", "indices", "updates", "expected", "goto", "pins",
                       "first", "prev", "next", "last", "crosscheck", "exports", "overview", "panel_axis", "rtol",
                       "atol", "grid"})
Key = Callable[[str], str]


def state_name(name: str) -> str:
    """The session key suffix and URL parameter of an attribute: its name, or ``attr_<name>`` on a clash."""
    return f"attr_{name}" if name in PAGE_KEYS else name


def _owner(attr: sc.AttrSpec) -> sc.OpSpec | None:
    """A version declaring ``attr`` (the codec of a reduction reads its spellings from it)."""
    return next((s for s in sc.OPERATORS_LIST if attr in s.attributes), None)


def _codec(attr: sc.AttrSpec, spec: sc.OpSpec | None = None) -> sc.AttrCodec:
    return sc.codec_of(spec or _owner(attr), attr)


# -- the one loading path: link -> session -> scatter_core, and back to the link -------------------------
def url_converters(specs) -> dict:
    """For ``session.seed_from_url``: each attribute's URL parameter -> its text read as a session value
    (None: unusable, so the link names it ignored)."""
    out = {}
    for spec in specs:
        for c in sc.codecs_of(spec):
            out.setdefault(state_name(c.name), c.session_from_text)
    return out


def load(spec: sc.OpSpec, key: Key, given: Mapping, pick: Callable | None = None, keep: bool = False) -> None:
    """Set the page's attribute state from ``given`` (an example's attributes; {}: the records' defaults).

    ``pick(name, value)`` may replace a value (the link's, on a page opened from one); ``keep`` keeps the
    page's current value of a required attribute that neither ``given`` nor the record has a value for (the
    check page keeps the typed axis when the operator changes). A choice is made one of its choices."""
    ss = st.session_state
    for c in sc.codecs_of(spec):
        name = key(state_name(c.name))
        value = given.get(c.name)
        if value is None and keep and c.attr.required and c.default is None and ss.get(name) is not None:
            value = ss[name]
        else:
            value = c.to_session(c.start(value))
        if pick is not None:
            value = pick(state_name(c.name), value)
        ss[name] = c.settled(value, 0) if c.choices else value


def changed(spec: sc.OpSpec, key: Key, given: Mapping) -> bool:
    """Whether an attribute's session value differs from the one :func:`load` sets for ``given``."""
    ss = st.session_state
    return any(ss.get(key(state_name(c.name))) != c.to_session(c.start(given.get(c.name)))
               for c in sc.codecs_of(spec))


def settle_all(spec: sc.OpSpec, key: Key, rank: int) -> None:
    """Make the session's attribute values ones ``spec``'s widgets can show, before anything is computed
    from them: an axis within the data's rank, a choice one of its choices."""
    ss = st.session_state
    for c in sc.codecs_of(spec):
        name = key(state_name(c.name))
        if not c.fits(ss.get(name), rank):
            ss[name] = c.settled(ss.get(name), rank)


def shown(spec: sc.OpSpec, key: Key) -> tuple:
    """(URL parameter, session value) of each attribute, as typed."""
    ss = st.session_state
    return tuple((state_name(c.name), ss.get(key(state_name(c.name)))) for c in sc.codecs_of(spec))


def core_values(spec: sc.OpSpec, key: Key) -> dict:
    """The attributes as scatter_core takes them, by their own names (raises ScatterError naming one)."""
    ss = st.session_state
    return {c.name: c.from_session(ss.get(key(state_name(c.name)))) for c in sc.codecs_of(spec)}


def url_values(spec: sc.OpSpec, key: Key) -> dict:
    """Each attribute's URL parameter -> the text of its session value (as typed: a list's text stays)."""
    ss = st.session_state
    return {state_name(c.name): c.session_text(ss.get(key(state_name(c.name)))) for c in sc.codecs_of(spec)}


def url_params(spec: sc.OpSpec, attrs: Mapping) -> dict:
    """A case's attributes (scatter_core values) as URL parameters; None (left out) is not written."""
    return {state_name(c.name): c.to_text(attrs[c.name]) for c in sc.codecs_of(spec)
            if attrs.get(c.name) is not None}


def codec_for_param(spec: sc.OpSpec | None, param: str) -> sc.AttrCodec | None:
    """The codec of the attribute a URL parameter names: ``spec``'s, else any version's; None for a page key."""
    for s in ([spec] if spec is not None else []) + list(sc.OPERATORS_LIST):
        for c in sc.codecs_of(s):
            if state_name(c.name) == param:
                return c
    return None


# -- widgets --------------------------------------------------------------------------------------------
def _label(c: sc.AttrCodec) -> str:
    return c.name + (" (input)" if c.attr.is_input else "")


def _axis(c: sc.AttrCodec, key: str, rank: int, values: Mapping) -> None:
    low, high = c.bounds(rank)  # within the data's rank
    st.number_input(c.name + (" (4th input)" if c.attr.is_input else ""), min_value=low, max_value=high, step=1,
                    key=key, help=c.attr.doc)


def _select(c: sc.AttrCodec, key: str, rank: int, values: Mapping) -> None:
    st.selectbox(_label(c), c.choices, key=key, help=c.attr.doc)


def _list(c: sc.AttrCodec, key: str, rank: int, values: Mapping) -> None:
    st.text_input(_label(c) + ("" if c.attr.required else " (optional)"), key=key,  # empty: left out
                  help=c.attr.doc + " — integers separated by commas", max_chars=c.max_text)


def _switch(c: sc.AttrCodec, key: str, rank: int, values: Mapping) -> None:
    st.checkbox(_label(c), key=key, help=c.attr.doc, disabled=not c.applies(values))


def _number(c: sc.AttrCodec, key: str, rank: int, values: Mapping) -> None:
    st.number_input(_label(c), step=1, key=key, help=c.attr.doc)


def _text(c: sc.AttrCodec, key: str, rank: int, values: Mapping) -> None:
    st.text_input(_label(c), key=key, help=c.attr.doc)


# the drawer of each widget a codec names (``AttrCodec.widget``)
DRAWERS: Mapping[str, Callable] = {"axis": _axis, "select": _select, "list": _list, "switch": _switch,
                                   "number": _number, "text": _text}


def widget(attr, key: str, spec: sc.OpSpec | None = None, rank: int = 0, values: Mapping | None = None) -> None:
    """One widget for an attribute, the one its codec names (its value settled first: :func:`settle_all`).
    ``values``: the other attributes' session values, by name (a switch is off while it changes nothing)."""
    c = _codec(attr, spec)
    DRAWERS[c.widget](c, key, rank, values or {})


def widgets(spec: sc.OpSpec, key: Key, rank: int) -> None:
    """Every attribute ``spec`` allows, each drawn by its codec."""
    ss = st.session_state
    values = {c.name: ss.get(key(state_name(c.name))) for c in sc.codecs_of(spec)}
    for attr in spec.attributes:
        widget(attr, key(state_name(attr.name)), spec, rank, values)


def editable(example, limit: int) -> bool:
    """Whether an example's tensors can be edited as text (printed values, each at most ``limit`` elements)."""
    return not example.shapes_only and all(a is None or a.size <= limit for a in example.inputs)
