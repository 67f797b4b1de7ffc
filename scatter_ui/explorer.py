"""The explorer page of one operator family: controls, animation, warnings, step log.

Pages call :func:`render` with a family name from the registry ("nd",
"elements", "update"); everything they show comes from the registry record,
the spec examples and the cached trace.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import scatter_core as sc
import spec_examples

from . import attribute_inputs, cache, chart, panels, session
from .crosscheck_panel import crosscheck_panel, crosscheck_refused
from .figures import overview_figure

CUSTOM = "__custom__"
TEXT_ROLES = ("data", "indices", "updates")


def _format(arr: np.ndarray) -> str:
    with np.printoptions(threshold=cache.MAX_TEXT_ELEMENTS + 1, floatmode="unique", linewidth=88):
        return repr(np.asarray(arr))


def _editable(example) -> bool:
    return attribute_inputs.editable(example, cache.MAX_TEXT_ELEMENTS)


class ExplorerPage:
    def __init__(self, family: str, url_path: str):
        self.family = family
        self.url_path = url_path
        self.members = sc.family_members(family)
        self.names = [s.name for s in self.members]

    def k(self, name: str) -> str:
        return session.key(self.family, name)

    # -- state -------------------------------------------------------------------------
    def _seed(self) -> None:
        ss = st.session_state
        fresh = session.seed_from_url(self.family, {
            "op": lambda v: v if v in self.names else None,
            "example": str, "reduction": str, "axis": int, "step": int,
            "use_init_val": lambda v: {"true": True, "false": False}.get(v.lower()),
            "follow": lambda v: {"true": True, "false": False}.get(v.lower()),
            "data": str, "indices": str, "updates": str,
            **{attribute_inputs.state_name(a.name): (int if a.kind == "int" else str) for s in self.members
               for a in s.attributes if a.name not in attribute_inputs.COMMON},  # mode, start ... as typed
        })
        linked = fresh and st.query_params.get("op") in self.names
        if self.k("op") not in ss or linked:
            ss[self.k("op")] = session.from_url(self.family, "op") or self._default_op()
            self._load_example(self._url_example(ss[self.k("op")]), from_url=True)
        for name in session.URL_KEYS:  # values the URL offered that this run did not use
            session.from_url(self.family, name)

    def _default_op(self) -> str:
        # the newest ONNX version of the family, else the newest version
        onnx = [s for s in self.members if s.framework == "ONNX"]
        pool = onnx or list(self.members)
        return max(pool, key=lambda s: s.version).name

    def _url_example(self, op: str) -> str:
        wanted = session.from_url(self.family, "example")
        examples = spec_examples.examples_for(op)
        ids = [e.id for e in examples]
        if wanted == CUSTOM or wanted in ids:
            return wanted
        return self._first_example(examples)

    @staticmethod
    def _first_example(examples) -> str:
        """The example a page opens with: the first printed one with values, else the first."""
        with_values = [e.id for e in examples if not e.shapes_only]
        return (with_values or [e.id for e in examples] or [CUSTOM])[0]

    def _load_example(self, example_id: str, from_url: bool = False) -> None:
        """Point the page at an example: its attributes, its texts, step 0 (or the URL's choices)."""
        ss = st.session_state
        op = ss[self.k("op")]
        spec = sc.OPERATORS[op]
        ss[self.k("example")] = example_id
        ex = spec_examples.by_id(example_id) if example_id != CUSTOM else None
        attrs = ex.attrs if ex else {}
        pick = (lambda name, default: session.from_url(self.family, name, default)) if from_url else (
            lambda name, default: default)
        for attr in spec.attributes:
            default = attrs.get(attr.name, attr.default)
            if attr.name == "axis" and default is None:
                default = 0
            name = attribute_inputs.state_name(attr.name)  # SliceScatter's "step" is not the page's step
            ss[self.k(name)] = pick(name, attribute_inputs.session_value(attr, default))
        if ss.get(self.k("reduction")) not in spec.reduction_spellings:
            ss[self.k("reduction")] = spec.default_reduction
        for role in TEXT_ROLES:
            text = (attribute_inputs.input_text(getattr(ex, role), _format) if ex is not None and _editable(ex)
                    else ss.get(self.k(f"text_{role}"), ""))
            ss[self.k(f"text_{role}")] = pick(role, text)
        ss[self.k("step")] = max(int(pick("step", 0)), 0)
        ss[self.k("follow")] = bool(pick("follow", True))

    def _on_op(self) -> None:
        op = st.session_state[self.k("op")]
        examples = spec_examples.examples_for(op)
        current = st.session_state.get(self.k("example"))
        self._load_example(current if current in [e.id for e in examples] else self._first_example(examples))

    def _on_example(self) -> None:
        self._load_example(st.session_state[self.k("example")])

    def _set_step(self, value: int) -> None:
        st.session_state[self.k("step")] = int(value)
        st.session_state[self.k("goto")] = int(value)

    def _on_goto(self) -> None:
        st.session_state[self.k("step")] = int(st.session_state[self.k("goto")])

    # -- controls ------------------------------------------------------------------------
    def sidebar(self):
        ss = st.session_state
        with st.sidebar:
            st.selectbox("Operator version", self.names, key=self.k("op"), on_change=self._on_op,
                         format_func=lambda n: f"{n} · {sc.OPERATORS[n].framework}")
            op = ss[self.k("op")]
            spec = sc.OPERATORS[op]
            examples = spec_examples.examples_for(op)
            titles = {e.id: f"{e.label}: {e.title}" + (" (ours)" if e.ours else "") for e in examples}
            titles[CUSTOM] = "✎ my own input"
            options = [e.id for e in examples] + [CUSTOM]
            if ss.get(self.k("example")) not in options:
                self._load_example(options[0])
            st.selectbox("Example", options, key=self.k("example"), on_change=self._on_example,
                         format_func=lambda i: titles.get(i, i))
            st.markdown("**Attributes**")
            rank = self._rank_hint()
            for attr in spec.attributes:
                if attr.name == "reduction":
                    st.selectbox("reduction", spec.reduction_spellings, key=self.k("reduction"), help=attr.doc)
                elif attr.name == "axis":
                    lo, hi = (-rank, rank - 1) if rank else (-8, 7)
                    if not lo <= ss.get(self.k("axis"), 0) <= hi:
                        ss[self.k("axis")] = 0
                    st.number_input("axis" + (" (4th input)" if attr.is_input else ""), min_value=lo,
                                    max_value=hi, step=1, key=self.k("axis"), help=attr.doc)
                elif attr.name == "use_init_val":
                    st.checkbox("use_init_val", key=self.k("use_init_val"), help=attr.doc,
                                disabled=ss.get(self.k("reduction")) == "none")
                else:  # any other attribute, drawn from its record's kind (mode, start, stop, step, axes ...)
                    attribute_inputs.widget(attr, self.k(attribute_inputs.state_name(attr.name)))
            if spec.attribute("reduction") is None:
                st.caption(f"{op} has no reduction attribute: every write replaces the cell.")
            st.divider()
            st.caption(f"[{op} spec ↗]({spec.url})")
        return spec

    def _rank_hint(self) -> int:
        ss = st.session_state
        ex_id = ss.get(self.k("example"))
        if ex_id and ex_id != CUSTOM and not self._edited(ex_id):
            return spec_examples.by_id(ex_id).data.ndim
        try:
            return sc.parse_tensor(ss.get(self.k("text_data"), ""), max_elements=cache.MAX_TEXT_ELEMENTS).ndim
        except sc.ScatterError:
            return 0

    def _edited(self, ex_id: str) -> bool:
        if ex_id == CUSTOM:
            return True
        ex = spec_examples.by_id(ex_id)
        if not _editable(ex):
            return False
        ss = st.session_state
        return any(ss.get(self.k(f"text_{r}")) != attribute_inputs.input_text(getattr(ex, r), _format)
                   for r in TEXT_ROLES)

    def editor(self, example) -> None:
        if example is not None and not _editable(example):
            with st.expander("Inputs"):
                st.caption(f"This example's tensors are too large to edit as text (limit "
                           f"{cache.MAX_TEXT_ELEMENTS:,} elements): data {example.data.shape}, indices "
                           f"{getattr(example.indices, 'shape', None)}, updates {example.updates.shape}. Pick “my own "
                           f"input” to type one.")
            return
        with st.expander("Edit inputs", expanded=example is None):
            st.caption("JSON, Python lists or NumPy repr (e.g. `array([[1, 2]], dtype=int32)`). Nothing is "
                       "evaluated; each tensor may have up to "
                       f"{cache.MAX_TEXT_ELEMENTS:,} elements.")
            cols = st.columns(3)
            for col, role in zip(cols, TEXT_ROLES):
                col.text_area(role, key=self.k(f"text_{role}"), height=160, max_chars=sc.parsing.MAX_TEXT)
            if example is not None:
                st.button("Reset to the example", on_click=self._on_example)

    # -- main ----------------------------------------------------------------------------
    def render(self) -> None:
        self._seed()
        spec = self.sidebar()
        ss = st.session_state
        op = spec.name
        ex_id = ss[self.k("example")]
        example = spec_examples.by_id(ex_id) if ex_id != CUSTOM else None
        edited = self._edited(ex_id)
        texts = tuple(ss.get(self.k(f"text_{r}"), "") for r in TEXT_ROLES) if edited else None
        shown = tuple((attribute_inputs.state_name(a.name), ss.get(self.k(attribute_inputs.state_name(a.name))))
                      for a in spec.attributes)  # as typed, under their page keys (and in the URL)
        attrs = tuple((n, int(v) if n == "axis" else v) for n, v in shown)
        st.title(f"{op}")
        st.caption(f"{sc.FAMILY_TITLES[self.family]} explorer · {spec.summary}")
        try:
            attrs = tuple((a.name, attribute_inputs.core_value(a, v)) for a, (_, v) in zip(spec.attributes, attrs))
            # (attrs: the values scatter_core takes, by the attributes' own names)
            trace = cache.trace_for(op, None if edited else ex_id, texts, attrs)
        except sc.ScatterError as exc:
            st.error(error_text(exc), icon="🛑")
            self.editor(example)
            self._url(op, ex_id, shown, 0, edited, texts)
            crosscheck_refused(op, lambda: cache.inputs_for(None if edited else ex_id, texts, op), attrs,
                               self.k("crosscheck"))
            return
        if example is not None:
            panels.example_header(example, trace, edited)
        self.editor(example)
        n = len(trace)
        step = min(max(int(ss.get(self.k("step"), 0)), 0), n)
        ss[self.k("step")] = step
        self._url(op, ex_id, shown, step, edited, texts)
        panels.findings(trace)
        self.step_controls(n, step)
        follow = bool(ss.get(self.k("follow"), True))
        pins = tuple(sorted(ss.get(self.k("pins"), {}).items())) if not follow else ()
        panel_axis = self.panel_axis_control(trace.data.ndim)
        sf = cache.step_figure(op, None if edited else ex_id, texts, attrs, follow, pins, panel_axis)
        chart.show_html(*cache.figure_page(op, None if edited else ex_id, texts, attrs, follow, pins, panel_axis,
                                           step))
        st.markdown(f"**Server step {step}:** {trace.describe(step - 1) if step else 'initial state, output is a copy of data.'}")
        out_view = sf.views_for(step)[2]
        if out_view.windowed:
            self.large_view(trace, out_view, step, follow)
        panels.step_log(trace, step, lambda: cache.step_table_csv(op, None if edited else ex_id, texts, attrs))
        from .exports_panel import render_for_trace  # export buttons: pytest, JSON, NumPy loop, ONNX
        render_for_trace(trace, self.k("exports"))
        crosscheck_panel(op, trace.data, trace.indices if trace.indices_given else None, trace.updates, attrs,
                         key=self.k("crosscheck"))
        panels.spec_facts(spec)

    def panel_axis_control(self, rank: int) -> int | None:
        """For rank >= 3: which output axis is drawn as small multiples (the last two others form the matrix)."""
        if rank < 3:
            return None
        key = self.k("panel_axis")
        if st.session_state.get(key) not in range(rank):
            st.session_state[key] = rank - 3
        with st.sidebar:
            st.selectbox("Output: small multiples over axis", list(range(rank)), key=key,
                         help="The other two innermost axes form each matrix; longer axes become sliders.")
        return int(st.session_state[key])

    def step_controls(self, n: int, step: int) -> None:
        ss = st.session_state
        if self.k("goto") not in ss or ss[self.k("goto")] != step:
            ss[self.k("goto")] = step
        cols = st.columns([1, 1, 1, 1, 2, 5], vertical_alignment="bottom")
        cols[0].button("⏮", key=self.k("first"), help="first step (initial state)", on_click=self._set_step,
                       args=(0,), disabled=step == 0, use_container_width=True)
        cols[1].button("◀", key=self.k("prev"), help="previous step", on_click=self._set_step,
                       args=(max(step - 1, 0),), disabled=step == 0, use_container_width=True)
        cols[2].button("▶", key=self.k("next"), help="next step", on_click=self._set_step,
                       args=(min(step + 1, n),), disabled=step >= n, use_container_width=True)
        cols[3].button("⏭", key=self.k("last"), help="last step (final output)", on_click=self._set_step,
                       args=(n,), disabled=step >= n, use_container_width=True)
        cols[4].number_input("go to step", min_value=0, max_value=max(n, 0), step=1, key=self.k("goto"),
                             on_change=self._on_goto)
        cols[5].caption(f"Server-side step: {step} of {n}. The ▶ play button and slider in the figure run "
                        f"in your browser.")

    def large_view(self, trace: sc.Trace, view, step: int, follow: bool) -> None:
        ss = st.session_state
        with st.expander("Which slice is shown, and where the writes land", expanded=True):
            st.checkbox("follow the current step (show the slice its target is in)", key=self.k("follow"))
            if not follow:
                pins = dict(ss.get(self.k("pins"), {}))
                cols = st.columns(max(len(view.fixed), 1))
                for col, (axis, idx) in zip(cols, view.fixed):
                    pins[axis] = int(col.number_input(f"output axis {axis}", 0, trace.data.shape[axis] - 1,
                                                      value=int(pins.get(axis, idx)), key=self.k(f"pin{axis}")))
                ss[self.k("pins")] = pins
            st.caption(f"Showing {view.label('output')} of output {trace.data.shape}.")
            st.plotly_chart(overview_figure(trace, step), theme=None, key=self.k("overview"))

    def _url(self, op, ex_id, attrs, step, edited, texts) -> None:
        values = {"op": op, "example": ex_id, "step": step}
        values.update({n: (str(v).lower() if isinstance(v, bool) else v) for n, v in attrs})
        if edited and texts and sum(len(t) for t in texts) <= session.MAX_URL_TEXT:
            values.update(dict(zip(TEXT_ROLES, texts)))
        if not st.session_state.get(self.k("follow"), True):
            values["follow"] = "false"
        session.write_url(values, self.family)
        with st.sidebar:
            st.caption("Share this view (the link reopens this operator, example, attributes and step):")
            st.code(session.share_link(self.url_path, values), language=None, wrap_lines=True)


def error_text(exc: sc.ScatterError) -> str:
    """The error with the input it names in bold (once)."""
    name = exc.argument or "input"
    message = str(exc)
    if message.startswith(f"{name}: "):
        message = message[len(name) + 2:]
    return f"**{name}**: {message}"


def render(family: str, url_path: str) -> None:
    """Render the explorer page of ``family``; never lets an exception reach the user as a traceback."""
    try:
        ExplorerPage(family, url_path).render()
    except Exception as exc:  # noqa: BLE001 - last line of defence: a message, never a traceback
        st.error(f"Something went wrong while drawing this page ({type(exc).__name__}: {exc}). Your inputs "
                 f"are kept; change them or pick another example.", icon="🛑")
