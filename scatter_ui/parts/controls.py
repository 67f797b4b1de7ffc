"""Controls and text helpers shared by the explorer pages and the check page.

* :func:`md` escapes computed or transcribed text for Markdown elements, so a ``*`` in
  ``1*10*50`` stays a ``*`` (and ``_``, ``$``, ``[`` … stay themselves).
* :func:`error_text`: a ScatterError with the input it names in bold, the rest escaped.
* :func:`tensor_text` / :func:`editable`: how an example's tensors become editable text.
* :func:`operator_picker`, :func:`attribute_widgets`: the sidebar widgets of both pages;
  :func:`settle_attributes`: their values made valid before the case is computed.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import streamlit as st

import scatter_core as sc

from scatter_ui.parts import attribute_inputs
from scatter_ui.state import cache
from scatter_ui.figures.text import md  # noqa: F401 - the app's one Markdown escaper, used by every page

def error_text(exc: sc.ScatterError, label: str | None = None) -> str:
    """The error with the input it names in bold, once (shown as ``label`` when given: "expected
    output" for the argument "expected"); the message itself escaped."""
    name = exc.argument or "input"
    message = str(exc)
    if message.startswith(f"{name}: "):
        message = message[len(name) + 2:]
    return f"**{md(label or name)}**: {md(message)}"


def tensor_text(arr: np.ndarray | None) -> str:
    """A tensor as editable NumPy-repr text: every value, shortest round-trip floats; a left-out
    input (None: TensorScatter's write_indices, SliceScatter's indices) as an empty box."""
    if arr is None:
        return ""
    with np.printoptions(threshold=cache.MAX_TEXT_ELEMENTS + 1, floatmode="unique", linewidth=88):
        return repr(np.asarray(arr))


def editable(example) -> bool:
    """Whether an example's tensors can be edited as text (printed values, small enough)."""
    return attribute_inputs.editable(example, cache.MAX_TEXT_ELEMENTS)


def operator_picker(names: list[str], key: str, on_change: Callable[[], None]) -> None:
    st.selectbox("Operator version", names, key=key, on_change=on_change,
                 format_func=lambda n: f"{n} · {sc.OPERATORS[n].framework}")


def settle_attributes(spec: sc.OpSpec, key: Callable[[str], str], rank: int) -> None:
    """Make the session's attribute values ones ``spec``'s widgets can show, before anything is
    computed from them: an axis within the data's rank, a choice one of its choices."""
    attribute_inputs.settle_all(spec, key, rank)


def attribute_widgets(spec: sc.OpSpec, key: Callable[[str], str], rank: int) -> None:
    """The attributes ``spec`` allows, each drawn by its codec (an axis within the data's rank ...)."""
    settle_attributes(spec, key, rank)
    st.markdown("**Attributes**")
    attribute_inputs.widgets(spec, key, rank)
    if spec.attribute("reduction") is None:
        st.caption(f"{md(spec.name)} has no reduction attribute: every write replaces the cell.")


def spec_link(spec: sc.OpSpec, width="stretch") -> None:
    # small body text, not st.caption: a caption fades all it holds to 60% opacity, and a link so faded
    # falls below 4.5:1 contrast in either theme (axe color-contrast, issue 22)
    st.markdown(f":small[[{md(spec.name)} spec ↗]({spec.url})]", width=width)


INPUT_FORMATS = ("JSON, Python lists or NumPy repr (e.g. `array([[1, 2]], dtype=int32)`); nothing is evaluated. "
                 f"Up to {cache.MAX_TEXT_ELEMENTS:,} elements per tensor.")


def lazy_expander(label: str, key: str, expanded: bool = False):
    """An expander whose content is built only while it is open (opening it reruns the page): heavy
    elements inside it (tables, code) cost the page's first draw nothing. Returns the expander when
    open, else None; tests open it with ``session_state[key] = True``."""
    box = st.expander(label, expanded=expanded, key=key, on_change="rerun")
    return box if box.open else None


_styles: dict[str, Callable] = {}
_focus = None
FOCUS_KEY = "scatter-explorer-focus"
# Moves keyboard focus to the first element matching a selector once per token, when the run that asked for it
# has drawn it (a container gets tabindex=-1 so it can hold focus). For a few seconds it puts focus back there if
# Streamlit's redraw drops it to the body (the element replaced); focus the user moved elsewhere is left alone.
FOCUS_JS = """export default function (component) {
  const doc = component.parentElement.ownerDocument;
  const data = component.data || {};
  if (!data.selector || doc.scatterExplorerFocus === data.token) return;
  doc.scatterExplorerFocus = data.token;
  const deadline = Date.now() + 3000;
  let placed = null;
  const place = () => {
    const active = doc.activeElement;
    const lost = !active || active === doc.body || !active.isConnected;
    if (placed === null || lost) {
      const el = doc.querySelector(data.selector);
      if (el) {
        if (!el.matches("input, textarea, select, button, a[href], [tabindex]")) el.setAttribute("tabindex", "-1");
        el.focus({ preventScroll: true });
        el.scrollIntoView({ block: "nearest" });
        if (doc.activeElement === el) placed = el;
      }
    } else if (active !== placed) {
      return;  // the user moved on
    }
    if (Date.now() < deadline) doc.defaultView.setTimeout(place, 120);
  };
  doc.defaultView.setTimeout(place, 60);
}
"""


def focus(selector: str, token: int) -> None:
    """Move keyboard focus to ``selector`` (a constant of the calling page, never user text) once per ``token``,
    after this run draws it; draw it on every run of the page (an invisible components-v2 element)."""
    global _focus
    if _focus is None:
        _focus = st.components.v2.component(f"{FOCUS_KEY}.element", html="<span></span>", js=FOCUS_JS,
                                            css=f".st-key-{FOCUS_KEY} {{ display: none; }}", isolate_styles=False)
    _focus(key=FOCUS_KEY, data={"selector": selector, "token": int(token)})


def page_style(name: str, css: str) -> None:
    """Apply the app's own ``css`` (a constant of the calling module, never text from a user) to the page,
    through an invisible components-v2 element with no script (no ``st.html``: nothing is injected as
    HTML). ``name`` keys the element; its container is hidden by the same style."""
    element = _styles.get(name)
    if element is None:
        key = f"style-{name}"
        element = _styles[name] = st.components.v2.component(
            f"scatter-explorer.style-{name}", html="<span></span>",
            css=f".st-key-{key} {{ display: none; }}\n{css}", isolate_styles=False)
    element(key=f"style-{name}")



def theme_is_dark() -> bool:
    """Whether the viewer's Streamlit theme is dark (``st.context.theme``; light when unknown)."""
    try:
        return st.context.theme.type == "dark"
    except Exception:  # noqa: BLE001 - outside a Streamlit run (tests, scripts): light
        return False
