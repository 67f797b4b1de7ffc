"""Page state in st.session_state, mirrored in the URL (st.query_params) for deep links.

A page's keys are prefixed with its family ("nd:op", "nd:step" ...). On the
first run of a page in a session the URL's parameters seed the widgets;
afterwards the widgets' values are written back to the URL, so a copied link
reopens the same view.
"""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

import scatter_core as sc

from .attribute_inputs import state_name

URL_KEYS = ("op", "example", "reduction", "axis", "use_init_val", "step", "follow", "data", "indices", "updates")
# every other attribute a registry record declares (mode, start, stop, step, axes ...) travels too
# (under "attr_<name>" where the name is a page key: SliceScatter's step is not the step shown)
URL_KEYS += tuple(sorted({state_name(a.name) for s in sc.OPERATORS_LIST for a in s.attributes} - set(URL_KEYS)))
MAX_URL_TEXT = 1500  # edited inputs travel in the URL only while they stay short


def key(family: str, name: str) -> str:
    return f"{family}:{name}"


def _signature(params) -> tuple:
    return tuple(sorted((k, str(params[k])) for k in URL_KEYS if k in params))


def seed_from_url(family: str, allowed: dict) -> bool:
    """Copy the URL's parameters into the page's state when they are new to this session.

    New means: not what this page last read or wrote itself, so a link followed from another
    page (the gallery, the check page) re-seeds a page the session has visited before.
    ``allowed`` maps a parameter to a function that validates/converts its text (returning
    None to ignore it); unknown or invalid values are dropped silently, so a hand-edited link
    never breaks the page. Returns True when the page should take its state from the URL.
    """
    flag = key(family, "_seen_url")
    params = st.query_params
    sig = _signature(params)
    if st.session_state.get(flag) == sig:
        return False
    st.session_state[flag] = sig
    for name, convert in allowed.items():
        if name not in params:
            continue
        try:
            value = convert(params[name])
        except (ValueError, TypeError):
            value = None
        if value is not None:
            st.session_state[key(family, f"url_{name}")] = value
    return True


def from_url(family: str, name: str, default=None):
    """A value the URL seeded (consumed: returned once)."""
    return st.session_state.pop(key(family, f"url_{name}"), default)


def write_url(values: dict, family: str | None = None) -> None:
    """Mirror the current view into the URL (only when it changed) and remember it as seen."""
    clean = {k: str(v) for k, v in values.items() if v is not None and k in URL_KEYS}
    current = {k: st.query_params.get(k) for k in URL_KEYS if k in st.query_params}
    if current != clean:
        st.query_params.from_dict(clean)
    if family is not None:
        st.session_state[key(family, "_seen_url")] = _signature(clean)


def share_link(path: str, values: dict) -> str:
    clean = {k: str(v) for k, v in values.items() if v is not None and k in URL_KEYS}
    base = ""
    try:
        base = (st.context.url or "").split("?")[0].rsplit("/", 1)[0]
    except Exception:  # noqa: BLE001 - no URL in bare/AppTest runs
        base = ""
    return f"{base}/{path}?{urlencode(clean)}"
