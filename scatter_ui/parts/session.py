"""Page state in st.session_state, mirrored in the URL (st.query_params) for deep links.

A page's keys are prefixed with its family ("nd:op", "nd:step" ...). On the
first run of a page in a session the URL's parameters seed the widgets;
afterwards the widgets' values are written back to the URL, so a copied link
reopens the same view.

A link's value the page cannot use (an unknown ``op``, an example id that does not
exist, a ``step`` past the last one, an ``axis`` outside the data's rank ...) falls
back to the example's own value, and :func:`url_notice` names it once, with the
reason, in a notice the user can dismiss.
"""

from __future__ import annotations

import time
from urllib.parse import urlencode

import streamlit as st

import scatter_core as sc
import spec_examples

from scatter_ui.parts.attribute_inputs import codec_for_param, state_name

URL_KEYS = ("op", "example", "step", "follow", "data", "indices", "updates", "expected", "rtol", "atol")  # the last three: the check page
# every attribute a registry record declares (axis, reduction, use_init_val, mode, start, stop, step, axes ...)
# travels too (under "attr_<name>" where the name is a page key: SliceScatter's step is not the step shown)
URL_KEYS += tuple(sorted({state_name(a.name) for s in sc.OPERATORS_LIST for a in s.attributes} - set(URL_KEYS)))
PAGE_STEP, PAGE_FOLLOW = "step", "follow"  # the page's own parameters: the step shown, whether the view follows it
MAX_URL_TEXT = 1500  # edited inputs travel in the URL only while they stay short
MAX_SHOWN_VALUE = 40  # characters of an ignored value quoted in the notice
CUSTOM = "__custom__"  # the example id of typed inputs (as on the pages)
OWN_URLS, ECHO_S = 8, 10.0  # the page's latest URLs: one of them coming back within ECHO_S s is an echo, not a link


def key(family: str, name: str) -> str:
    return f"{family}:{name}"


def text_box(container, label: str, key: str, limit: int | None = None, **kwargs) -> None:
    """A tensor's text area, and right under it, when the text is over ``limit`` (the parser's limit
    unless given), the limit and the size that was pasted (the parser refuses such a text without reading it).

    The box itself sets no max_chars: the browser would drop a longer paste silently, leaving the
    old text and no word of why, and a character cap in the browser protects the server from
    nothing (the size of a message is bounded by server.maxMessageSize)."""
    limit = sc.MAX_TEXT if limit is None else limit
    container.text_area(label, key=key, help=f"At most {limit:,} characters.", **kwargs)
    size = len(st.session_state.get(key) or "")
    if size > limit:
        container.error(f"**{label}**: {size:,} characters pasted; the limit is {limit:,}.", icon="✂️")


def redraw_choice(key: str, title) -> None:
    """Before a keyed selectbox whose chosen option's title may change while the choice stays (an example the
    user edited): when the title differs from the last run's, set the choice again. The browser keeps showing
    the old title of an unchanged choice; a value set by the server is drawn anew."""
    seen = f"{key}:_shown_title"
    if key in st.session_state and st.session_state.get(seen, title) != title:
        st.session_state[key] = st.session_state[key]
    st.session_state[seen] = title


def _signature(params) -> tuple:
    return tuple(sorted((k, str(params[k])) for k in URL_KEYS if k in params))


def seed_from_url(family: str, allowed: dict) -> bool:
    """Copy the URL's parameters into the page's state when they are new to this session.

    New means: not what this page last read or wrote itself (nor an echo of a URL it wrote moments
    ago: :func:`echoes_own_url`), so a link followed from another page (the gallery, the check page)
    re-seeds a page the session has visited before. Once the page's own state is gone (its ``op``:
    Streamlit drops a widget's value after a run of another page), any URL is read again, even the
    page's own last one: the browser's Back button returns to it from another page.
    ``allowed`` maps a parameter to a function that validates/converts its text (returning
    None to ignore it); unknown or invalid values are dropped silently, so a hand-edited link
    never breaks the page. Returns True when the page should take its state from the URL.
    """
    flag = key(family, "_seen_url")
    params = st.query_params.to_dict()  # one read: each access through st.query_params costs a context lookup
    sig = _signature(params)
    kept = key(family, "op") in st.session_state  # gone once a run of another page did not draw the page's widgets
    if kept and (st.session_state.get(flag) == sig or echoes_own_url(family, sig)):
        _drop_stale_check(family)
        return False
    st.session_state[flag] = sig
    ss = st.session_state
    ss[key(family, "_url_given")] = {k: str(params[k]) for k in URL_KEYS if k in params}
    ss[key(family, "_url_ignored")] = {}
    ss[key(family, "_url_checked")] = False
    for name, convert in allowed.items():
        if name not in params:
            continue
        try:
            value = convert(params[name])
        except (ValueError, TypeError):
            value = None
        if value is not None:
            ss[key(family, f"url_{name}")] = value
    return True


def _drop_stale_check(family: str) -> None:
    """A run that reads no new link, after one that read a link and ended before :func:`url_notice` compared
    it with the page (Streamlit stops a run at its next element when a newer rerun is asked for: a step
    report, the player's rerun relay, a click). The page has moved on since (a step, a choice), so comparing
    now would name values the user replaced as ignored ("step=1 was ignored" while stepping fast): the
    comparison is dropped. What :func:`ignore` recorded while the link was read (an axis outside the data,
    an example the operator lacks) was true of the link itself, and is still named."""
    ss = st.session_state
    if ss.get(key(family, "_url_given")) and not ss.get(key(family, "_url_checked"), True):
        ss[key(family, "_url_checked")] = True


def echoes_own_url(family: str, sig: tuple) -> bool:
    """Whether ``sig`` is a URL this page wrote itself moments ago. A rerun the browser asked for before
    it had applied the page's newest URL carries the one before (a step, say): that follows no link, and
    re-seeding from it would put the page back on the older step. The browser's Back and Forward buttons
    do follow an older URL of the page (Streamlit marks their rerun), so they are never an echo."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx(suppress_warning=True)
    except Exception:  # noqa: BLE001 - no run context (bare mode): no history navigation either
        ctx = None
    if ctx is not None and getattr(ctx, "is_history_navigation", False):
        return False
    now = time.monotonic()
    return any(s == sig and now - t <= ECHO_S for s, t in st.session_state.get(key(family, "_own_urls"), ()))


def from_url(family: str, name: str, default=None):
    """A value the URL seeded (consumed: returned once). An ``axis`` outside the rank of the page's
    current example, or an ``example`` its operator doesn't have, is refused: ``default`` (the
    example's own value) is returned, and :func:`url_notice` will say why."""
    value = st.session_state.pop(key(family, f"url_{name}"), default)
    if value is default:
        return default
    reason = _refusal(family, name, value)
    if reason:
        ignore(family, name, reason)
        return default
    return value


def _rank_of_example(family: str) -> int | None:
    ss = st.session_state
    ex_id = ss.get(key(family, "example"))
    if ex_id and ex_id != CUSTOM:
        try:
            return spec_examples.by_id(ex_id).data.ndim
        except (KeyError, ValueError):
            return None
    text = ss.get(key(family, "url_data")) or ss.get(key(family, "text_data"))
    if not text:
        return None
    from scatter_ui.state.cache import parse_text

    try:
        return parse_text("data", str(text)).ndim
    except sc.ScatterError:
        return None


def _codec(family: str, name: str):
    """The codec of the attribute the URL parameter ``name`` stands for on this page (None: a page key)."""
    return codec_for_param(sc.OPERATORS.get(st.session_state.get(key(family, "op"))), name)


def _refusal(family: str, name: str, value) -> str | None:
    """Why a seeded value can't be used on the page as it stands, or None."""
    ss = st.session_state
    codec = _codec(family, name)
    if codec is not None:  # an attribute: its codec says (an axis outside the example's rank)
        bounded = codec.bounds(1) is not None  # the data's rank is read only for an attribute it bounds
        return codec.refusal(value, _rank_of_example(family)) if bounded else None
    if name == "example":
        op = ss.get(key(family, "op"))
        if op in sc.OPERATORS and value != CUSTOM:
            ids = [e.id for e in spec_examples.examples_for(op)]
            if value not in ids:
                return f"{op} has no example with this id"
    return None


def ignore(family: str, name: str, reason: str) -> None:
    """Record that the link's ``name`` was not used, and why (shown by :func:`url_notice`)."""
    ignored = st.session_state.setdefault(key(family, "_url_ignored"), {})
    ignored.setdefault(name, reason)


def _shown(value: str) -> str:
    value = str(value)
    return value if len(value) <= MAX_SHOWN_VALUE else f"{value[:MAX_SHOWN_VALUE]}… ({len(value):,} characters)"


def _as_int(text: str) -> int | None:
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def _unused_reason(family: str, name: str, given: str) -> str | None:
    """Why the link's value ``given`` for ``name`` is not what the page shows, or None when it is."""
    ss = st.session_state
    if name in ("data", "indices", "updates"):
        return None if ss.get(key(family, f"text_{name}")) == given else "the inputs come from the example"
    state = ss.get(key(family, name))
    if name == "op":
        return None if state == given else "not an operator version this page shows"
    if name == "example":
        return None if state == given else "not an example of the operator shown"
    codec = _codec(family, name)
    if codec is not None:  # an attribute (axis, reduction, mode, start ...): read and compared by its codec
        op = ss.get(key(family, "op"))
        if op in sc.OPERATORS and codec.spec.name != op:  # another version's codec: the one shown has none
            return codec.absent_from(op)
        read = codec.session_from_text(given)
        if read is None:
            return codec.unreadable
        return None if state is None or codec.session_text(state) == codec.session_text(read) else codec.replaced
    if name == PAGE_STEP:  # the step shown (SliceScatter's step attribute is attr_step)
        number = _as_int(given)
        if number is None:
            return "not an integer"
        if state is not None and int(state) != number:
            return f"past the last step ({int(state)})" if number > int(state) else "steps start at 0"
        return None
    if name == PAGE_FOLLOW:
        if given.lower() not in ("true", "false"):
            return "not true or false"
        return None if state is None or bool(state) == (given.lower() == "true") else "not available here"
    return None if state is None or str(state) == given else "not a value the page offers"


def url_notice(family: str) -> None:
    """Name once, in a dismissible notice, each value of the link that the page did not use, and why.

    Call it after the page has settled its state (the step clamped to the trace, the axis to the
    data). It compares what the link asked for with what the page shows, so any fallback the page
    made is reported, with the reason recorded by :func:`ignore` when there is one."""
    ss = st.session_state
    given = ss.get(key(family, "_url_given")) or {}
    ignored = ss.setdefault(key(family, "_url_ignored"), {})
    if not ss.get(key(family, "_url_checked")):
        ss[key(family, "_url_checked")] = True
        for name, value in given.items():
            reason = _unused_reason(family, name, value)
            if reason:
                ignored.setdefault(name, reason)
    shown = {n: r for n, r in ignored.items() if n in given}
    if not shown:
        return
    box = st.container(border=True)
    lines = "\n".join(f"- `` {n}={_shown(given[n]).replace('`', chr(0x2035))} `` was ignored: {r}."
                      for n, r in shown.items())
    box.warning(f"This link has value(s) the page could not use, so it shows its defaults instead:\n{lines}",
                icon="🔗")
    box.button("Dismiss", key=key(family, "_url_dismiss"), on_click=_dismiss, args=(family,))


def _dismiss(family: str) -> None:
    st.session_state[key(family, "_url_ignored")] = {}
    st.session_state[key(family, "_url_given")] = {}


def write_url(values: dict, family: str | None = None) -> None:
    """Mirror the current view into the URL (only when it changed) and remember it as seen."""
    clean = {k: str(v) for k, v in values.items() if v is not None and k in URL_KEYS}
    current = {k: v for k, v in st.query_params.to_dict().items() if k in URL_KEYS}
    if current != clean:
        st.query_params.from_dict(clean)
    if family is not None:
        sig = _signature(clean)
        st.session_state[key(family, "_seen_url")] = sig
        remember_own_url(family, sig)


def remember_own_url(family: str, sig) -> None:
    """Note that the page ``family`` has just written the URL of signature ``sig`` (see :func:`echoes_own_url`)."""
    own = [(s, t) for s, t in st.session_state.get(key(family, "_own_urls"), ()) if s != sig]
    st.session_state[key(family, "_own_urls")] = own[-(OWN_URLS - 1):] + [(sig, time.monotonic())]


def share_link(path: str, values: dict) -> str:
    clean = {k: str(v) for k, v in values.items() if v is not None and k in URL_KEYS}
    base = ""
    try:
        base = (st.context.url or "").split("?")[0].rsplit("/", 1)[0]
    except Exception:  # noqa: BLE001 - no URL in bare/AppTest runs
        base = ""
    return f"{base}/{path}?{urlencode(clean)}"
