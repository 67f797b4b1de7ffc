"""The explorer page of one operator family: controls, animation, warnings, step log.

:func:`page` is a family's explorer page, built from its record (``app.py`` routes one per
record, and the other pages link to it): it calls :func:`render` with the family's name and URL
path; everything the page shows comes from the registry record, the spec examples and the cached
trace.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial

import numpy as np
import streamlit as st

import scatter_core as sc
import spec_examples
from scatter_core import fmt_shape

from scatter_ui.parts import attribute_inputs
from scatter_ui.state import cache
from scatter_ui.state import large
from scatter_ui.parts import panels
from scatter_ui.parts import session
from scatter_ui.parts.controls import (INPUT_FORMATS, attribute_widgets, editable, error_text, lazy_expander, md,
                       operator_picker, page_style, settle_attributes, spec_link, tensor_text)
from scatter_ui.player.component import player, rerun_relay, tall_window
from scatter_ui.parts.crosscheck_panel import crosscheck_panel, crosscheck_refused
from scatter_ui.figures.heatmaps import StepFigure, overview_figure
from scatter_ui.parts.controls import theme_is_dark

CUSTOM = "__custom__"
TEXT_ROLES = ("data", "indices", "updates")
# A projector (a window at most 820 px tall, 700 wide or more: 1280x720 with the sidebar open) shows the title, the
# figure with its step controls and the output on one screen: the page's top margin and gaps shrink, and the player
# fits its cells to the height left (room_below=0: nothing of the page needs to stay on screen under it). Only this
# page's own layout: Streamlit's block container, its gaps and the page's title.
PROJECTOR_CSS = """@media (max-height: 820px) and (min-width: 700px) {
  [data-testid="stMainBlockContainer"] { padding: 3.25rem 2rem 3rem; }
  [data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] { gap: 0.5rem; }
  [data-testid="stMainBlockContainer"] h1 { font-size: 2rem; padding: 0 0 0.25rem; }
}
"""


@dataclass(frozen=True)
class Slots:
    """The explorer's containers, in page order, that its step fragment (ExplorerPage.stepped) writes into."""
    player: object
    notice: object
    header: object
    findings: object
    large: object
    log: object


class ExplorerPage:
    def __init__(self, family: str, url_path: str):
        self.family = family
        self.url_path = url_path
        self.members = sc.family_members(family)
        self.names = [s.name for s in self.members]
        self._rank = 0  # the data's rank, for the axis widget (set by _settle)
        self._titles: dict = {}  # example id -> its label in the picker (set by _settle)
        self._panel_rank = 0  # the rank whose small-multiples axis the sidebar offers (panel_axis_control)

    def k(self, name: str) -> str:
        return session.key(self.family, name)

    # -- state -------------------------------------------------------------------------
    def _seed(self) -> None:
        ss = st.session_state
        fresh = session.seed_from_url(self.family, {
            "op": lambda v: v if v in self.names else None,
            "example": str, "step": int,
            "follow": lambda v: {"true": True, "false": False}.get(v.lower()),
            "data": str, "indices": str, "updates": str,
            **attribute_inputs.url_converters(self.members),  # every attribute, read by its codec
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
        attribute_inputs.load(spec, self.k, attrs, pick if from_url else None)
        for role in TEXT_ROLES:
            text = _example_text(ex.id, role) if ex is not None and editable(ex) else ss.get(self.k(f"text_{role}"), "")
            ss[self.k(f"text_{role}")] = pick(role, text)
        ss[self.k("step")] = max(int(pick("step", 0)), 0)
        ss[self.k("follow")] = bool(pick("follow", True))
        if example_id == CUSTOM:  # typed inputs: their editor opens
            ss[self.k("editor_open")] = True

    def _on_op(self) -> None:
        op = st.session_state[self.k("op")]
        examples = spec_examples.examples_for(op)
        current = st.session_state.get(self.k("example"))
        self._load_example(current if current in [e.id for e in examples] else self._first_example(examples))

    def _on_example(self) -> None:
        self._load_example(st.session_state[self.k("example")])

    def _set_cell(self, coords: list) -> None:
        st.session_state[self.k("cell")] = tuple(int(c) for c in coords)

    def cell_chain(self, sf, trace: sc.Trace, step: int, view: str) -> None:
        """The clicked output cell's chain of writes up to this step (the hover's text, for touch screens)."""
        ss = st.session_state
        cell = ss.get(self.k("cell"))
        if ss.get(self.k("cell_view")) != view:  # a click belongs to the case it was made on
            ss[self.k("cell_view")] = view
            ss.pop(self.k("cell"), None)
            return
        if cell is None or len(cell) != trace.data.ndim or not all(0 <= c < n for c, n in zip(cell, trace.data.shape)):
            return
        flat = int(np.ravel_multi_index(cell, trace.data.shape)) if trace.data.ndim else 0
        writes, total = sf.history.chain(flat, step, limit=12)
        value = sf.history.at(np.array([flat]), step)[0][0]
        lines = [f"output{list(cell)} after step {step} = {sc.fmt_value(value)}: written {total} time(s) so far"]
        if total > len(writes):
            lines.append(f"… {total - len(writes)} earlier write(s)")
        for k, src, after in writes:
            pos = list(np.unravel_index(int(src), trace.updates.shape)) if trace.updates.ndim else []
            lines.append(f"step {k + 1}: updates{[int(p) for p in pos]} = "
                         f"{sc.fmt_value(trace.updates.reshape(-1)[src])} → {sc.fmt_value(after)}")
        st.text("\n".join(lines))

    def _set_step(self, value: int) -> None:
        """The player reported a step: the page's step (URL, share link, step log) follows it."""
        st.session_state[self.k("step")] = int(value)

    # -- controls ------------------------------------------------------------------------
    def _example_titles(self, op: str) -> dict:
        titles = {e.id: e.menu_title for e in spec_examples.examples_for(op)}
        titles[CUSTOM] = "✎ my own input"
        return titles

    def _settle(self) -> sc.OpSpec:
        """The page's choices made valid before anything is computed or drawn: an example of the
        operator, attribute values its widgets can show, texts kept while their editor is closed."""
        ss = st.session_state
        spec = sc.OPERATORS[ss[self.k("op")]]
        self._titles = self._example_titles(spec.name)
        if ss.get(self.k("example")) not in self._titles:
            self._load_example(self._first_example(spec_examples.examples_for(spec.name)))
        self._rank = self._rank_hint()
        settle_attributes(spec, self.k, self._rank)
        for role in TEXT_ROLES:  # a text box not drawn in a run (its editor closed) would lose its text
            name = self.k(f"text_{role}")
            if name in ss:
                ss[name] = ss[name]
        return spec

    def _attrs_changed(self, spec: sc.OpSpec, ex_id: str) -> bool:
        """Whether an attribute now differs from the value the example loaded (as _load_example sets it)."""
        if ex_id == CUSTOM:
            return False
        return attribute_inputs.changed(spec, self.k, spec_examples.by_id(ex_id).attrs)

    def _changed(self, spec: sc.OpSpec, ex_id: str, edited: bool) -> str | None:
        """What the user changed from the example (``inputs``, ``attributes``), or None: the example as it is."""
        if ex_id == CUSTOM:
            return None
        if edited:
            return "inputs"
        return "attributes" if self._attrs_changed(spec, ex_id) else None

    def sidebar(self, box, spec: sc.OpSpec) -> None:
        """The sidebar's widgets, drawn into ``box`` (a container made first, so they sit at the top)
        after the figure: the page sends its player before any other element whose code the browser
        still has to fetch (bench/bench_player.py, docs/performance.md)."""
        titles = dict(self._titles)
        ex_id = st.session_state.get(self.k("example"))
        changed = self._change if ex_id in titles else None  # as main() found it
        if changed:  # the menu names the user's inputs, not the example
            titles[ex_id] = f"✎ your {changed}, started from {titles[ex_id]}"
        session.redraw_choice(self.k("example"), titles.get(ex_id))
        with box:
            operator_picker(self.names, self.k("op"), self._on_op)
            st.selectbox("Example", list(titles), key=self.k("example"), on_change=self._on_example,
                         format_func=lambda i: titles.get(i, i))
            attribute_widgets(spec, self.k, self._rank)
            st.divider()
            spec_link(spec)
            if self._panel_rank:
                st.selectbox("Output: small multiples over axis", list(range(self._panel_rank)),
                             key=self.k("panel_axis"),
                             help="The other two innermost axes form each matrix; longer axes become sliders.")

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
        if not editable(ex):
            return False
        ss = st.session_state
        return any(ss.get(self.k(f"text_{r}")) != _example_text(ex_id, r) for r in TEXT_ROLES)

    def text_roles(self) -> tuple[str, ...]:
        """The inputs the editor shows: no box for indices where the family's operators never read them, unless it
        holds text (a link's, refused with its reason): what the user gave stays visible, and can be cleared."""
        unused = sc.FAMILIES[self.family].indices == "unused"
        return tuple(r for r in TEXT_ROLES
                     if not (unused and r == "indices" and not st.session_state.get(self.k(f"text_{r}"))))

    def editor(self, example, error: sc.ScatterError | None = None) -> None:
        """The inputs as text; open, with the error beside the text, while the text has an error.
        Its widgets are built only while it is open (_settle keeps the texts meanwhile)."""
        if example is not None and not editable(example):
            with st.expander("Inputs"):
                st.caption(md(f"This example's tensors are too large to edit as text (limit "
                              f"{cache.MAX_TEXT_ELEMENTS:,} elements): data {example.data.shape}, indices "
                              f"{getattr(example.indices, 'shape', None)}, updates {example.updates.shape}. Pick “my own input” to "
                              f"type one."))
            return
        if error is not None:
            st.session_state[self.k("editor_open")] = True
        box = lazy_expander("Edit inputs", self.k("editor_open"))
        if box is None:
            return
        with box:
            st.caption(INPUT_FORMATS)
            if error is not None:
                st.error(error_text(error), icon="🛑")
            roles = self.text_roles()
            for col, role in zip(st.columns(len(roles)), roles):
                session.text_box(col, role, key=self.k(f"text_{role}"), height=160)
            if example is not None:
                st.button("Reset to the example", on_click=self._on_example)

    # -- main ----------------------------------------------------------------------------
    def render(self) -> None:
        self._change = None
        self._seed()
        spec = self._settle()
        side = st.sidebar.container()
        try:
            self.main(spec)
        finally:
            self.sidebar(side, spec)

    def main(self, spec: sc.OpSpec) -> None:
        ss = st.session_state
        op = spec.name
        ex_id = ss[self.k("example")]
        example = spec_examples.by_id(ex_id) if ex_id != CUSTOM else None
        edited = self._edited(ex_id)
        self._change = self._changed(spec, ex_id, edited)  # the header and the menu say the case is the user's
        texts = tuple(ss.get(self.k(f"text_{r}"), "") for r in TEXT_ROLES) if edited else None
        shown = tuple(attribute_inputs.url_values(spec, self.k).items())  # as typed, under their URL names
        attrs = None
        page_style("explorer-projector", PROJECTOR_CSS)
        st.title(f"{op}")
        st.caption(md(f"{sc.FAMILY_TITLES[self.family]} explorer · {spec.summary}"))
        try:
            attrs = tuple(attribute_inputs.core_values(spec, self.k).items())  # as scatter_core takes them
            case = cache.case_for(op, None if edited else ex_id, texts, attrs)
            trace = cache.trace_of(case)
        except sc.ScatterError as exc:
            if example is not None and not edited and large.too_large(example):
                self.large_example(example, op, shown)
                return
            if example is not None and not editable(example):
                st.error(error_text(exc), icon="🛑")
            self.editor(example, exc)
            self._url(op, ex_id, shown, 0, edited, texts)
            if attrs is not None:  # an attribute's text that does not read leaves nothing to send
                crosscheck_refused(op, lambda: cache.inputs_for(None if edited else ex_id, texts, op), attrs,
                                   self.k("crosscheck"))
            return
        n = len(trace)
        ss[self.k("step")] = min(max(int(ss.get(self.k("step"), 0)), 0), n)
        panel_axis = self.panel_axis_control(trace.data.ndim)
        # Places for what depends on the step, made in page order before the fragment that fills them
        # (it sends the player first); a step reruns only that fragment (see stepped()).
        slots = Slots(player=st.container(), notice=st.container(), header=st.container(),
                      findings=st.container(), large=st.container(), log=st.container())
        with slots.player:
            rerun_relay()  # outside the fragment: the player's way to a whole run when its reports get lost
            # the fragment gets the case's inputs, not the case: a session keeps its fragments' arguments
            # after its tab closed (Streamlit's own loop may hold the last one for good), so it must not
            # hold a trace the bounded cache has let go of (scatter_ui.state.reaper)
            st.fragment(self.stepped)((op, None if edited else ex_id, texts, attrs), (op, ex_id, shown, edited, texts),
                                      panel_axis, slots)
        with slots.notice:
            session.url_notice(self.family)  # names the link's values the page could not use, once
        with slots.header:
            if example is not None:
                panels.example_header(example, trace, self._change, self._on_example)
            self.editor(example)
        from scatter_ui.parts.exports_panel import render_computed  # export buttons: pytest, JSON, NumPy loop, ONNX
        render_computed(case, self.k("exports"))
        crosscheck_panel(case, key=self.k("crosscheck"))
        panels.spec_facts(spec, self.k("spec_facts_open"))

    def stepped(self, inputs: tuple, link: tuple, panel_axis: int | None, slots: "Slots") -> None:
        """Everything that depends on the step: the player, the clicked cell's chain, the URL and the share
        link, the findings' "at step k", a windowed output's slice, the step log. Run as an ``st.fragment``:
        the player's step report (and a click on a cell, the follow/pin widgets, these panels' expanders)
        reruns this alone, not the page; it writes into the page's ``slots`` (containers made by the page).
        ``inputs`` are :func:`cache.case_for`'s arguments, which the page's run has just built a case from."""
        ss = st.session_state
        case = cache.case_for(*inputs)
        trace = cache.trace_of(case)
        step = min(max(int(ss.get(self.k("step"), 0)), 0), len(trace))
        ss[self.k("step")] = step
        follow = bool(ss.get(self.k("follow"), True))
        pins = tuple(sorted(ss.get(self.k("pins"), {}).items())) if not follow else ()
        tall = tall_window()  # a taller window shows more of a long input's rows (views.row_window)
        sf = cache.step_figure(case, follow, pins, panel_axis, tall)
        view = f"{case.key}:{follow}:{pins}:{panel_axis}" + (":tall" if tall and sf.rows_windowed else "")
        anchor = self._anchor(sf, view, step)
        player(lambda: sf.figure(anchor), key=self.k("player"), view=view, step=anchor, name=f"{link[0]}-{link[1]}",
               on_step=self._set_step, on_cell=self._set_cell, cache_key=(view, anchor), room_below=0)
        self.cell_chain(sf, trace, step, view)
        self._url(*link[:3], step, *link[3:], notice=False)
        with slots.findings:
            panels.findings(trace, step, self.k("findings"))
        out_view = sf.views_for(step)[2]
        if out_view.windowed:
            with slots.large:
                self.large_view(trace, out_view, step, follow)
        with slots.log:
            panels.step_log(trace, step, lambda: cache.step_table_csv(case), self.k("step_log_open"))

    def _anchor(self, sf: StepFigure, view: str, step: int) -> int:
        """The step the player's figure is built around: the one it was last built around while ``step``
        is inside the frames sent then, so a step's rerun sends the player the same data (the browser
        keeps its own step; Streamlit sends a message it has already sent as a short reference)."""
        ss = st.session_state
        sent = ss.get(self.k("player_sent"))
        if sent is not None and sent[0] == view and sent[1] <= step <= sent[2]:
            return sent[3]
        k0, k1 = sf.window_for(step)
        ss[self.k("player_sent")] = (view, min(k0, step), max(k1, step), step)
        return step

    def large_example(self, example, op: str, shown: tuple) -> None:
        """An example above the core's limit: a labelled reduced stand-in, whose player, findings and URL are a step
        fragment (:meth:`stand_in_stepped`) as on a small case, first (a projector shows the title, the figure and
        its controls on one screen), then the example's header, its shapes and why it cannot run in full."""
        trace = _stand_in_trace(op, example.id, self.family)
        si = None if trace is None else large.stand_in(example, self.family)
        if si is not None:
            st.caption(md(f"A reduced stand-in (the example is too large to run): a cell a step where it writes a "
                          f"{fmt_shape(si.slice_shape)} slice; details below."))
        box, notice, findings = st.container(), st.container(), st.container()
        panels.example_header(example, None, False)
        with st.container(border=True):
            st.markdown("**Too large to run in full**")
            for line in large.summary(example):
                st.text(line)
        if trace is None:
            self._url(op, example.id, shown, 0, False, None)
            return
        st.markdown(md(f"Above: a reduced stand-in with the example's real {example.indices.size:,} index values "
                       f"and every {fmt_shape(si.slice_shape)} slice shrunk to one cell, so each step writes one "
                       f"cell where the full example writes {int(np.prod(si.slice_shape)):,}. Which positions are "
                       f"written, how often (×n) and which write wins are exactly the full example's; the values "
                       f"are placeholders (data 0, updates numbered 1, 2, … in loop order)."))
        with box:
            rerun_relay()  # outside the fragment, as on a small case (a failover)
            st.fragment(self.stand_in_stepped)(example, op, trace, shown, findings)
        with notice:
            session.url_notice(self.family)  # names the link's values the page could not use, once

    def stand_in_stepped(self, example, op: str, trace: sc.Trace, shown: tuple, findings) -> None:
        """The stand-in's step fragment: its player, the URL and share link, the findings' "at step k" (written
        into ``findings``, a container of the page). The player's step report reruns this alone."""
        ss = st.session_state
        step = min(max(int(ss.get(self.k("step"), 0)), 0), len(trace))
        ss[self.k("step")] = step
        sf = stand_in_figure(op, example.id, self.family, tall_window())
        view = f"stand-in:{example.id}" + (":tall" if sf.tall and sf.rows_windowed else "")
        anchor = self._anchor(sf, view, step)
        player(lambda: sf.figure(anchor), key=self.k("player"), view=view, step=anchor,
               name=f"{op}-{example.id}-stand-in", on_step=self._set_step, cache_key=(view, anchor), room_below=0)
        self._url(op, example.id, shown, step, False, None, notice=False)
        with findings:
            panels.findings(trace, step, self.k("findings"))

    def panel_axis_control(self, rank: int) -> int | None:
        """For rank >= 3: which output axis is drawn as small multiples (the last two others form the matrix)."""
        if rank < 3:
            return None
        key = self.k("panel_axis")
        if st.session_state.get(key) not in range(rank):
            st.session_state[key] = rank - 3
        self._panel_rank = rank  # its widget is drawn with the sidebar's others
        return int(st.session_state[key])

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
            st.caption(md(f"Showing {view.label('output')} of output {trace.data.shape}."))
        box = lazy_expander(f"Overview: where the writes land in the whole output {trace.data.shape}",
                             self.k("overview_open"))
        if box is not None:  # built only while open: a plotly chart costs the first draw a 4.7 MB script
            with box:
                st.plotly_chart(overview_figure(trace, step, dark=theme_is_dark()), theme="streamlit", key=self.k("overview"))

    def _url(self, op, ex_id, attrs, step, edited, texts, notice: bool = True) -> None:
        values = {"op": op, "example": ex_id, "step": step}
        values.update(attrs)  # each attribute's URL text (attribute_inputs.url_values)
        if edited and texts and sum(len(t) for t in texts) <= session.MAX_URL_TEXT:
            values.update(dict(zip(TEXT_ROLES, texts)))
        if not st.session_state.get(self.k("follow"), True):
            values["follow"] = "false"
        session.write_url(values, self.family)
        if notice:
            session.url_notice(self.family)  # names the link's values the page could not use, once
        with st.sidebar:
            st.caption("Share this view (the link reopens this operator, example, attributes and step): "
                       + panels.inline_code(session.share_link(self.url_path, values)))


@lru_cache(maxsize=1024)
def _example_text(example_id: str, role: str) -> str:
    """An example's tensor as its editor's text, made once per process: every full run compares the editor's
    texts with the example's (``_edited``), and printing the arrays was a sixth of a first run's time
    (bench/bench_runs.py)."""
    return tensor_text(getattr(spec_examples.by_id(example_id), role))


@st.cache_resource(max_entries=8, show_spinner=False)
def _stand_in_trace(op: str, example_id: str, family: str) -> sc.Trace | None:
    si = large.stand_in(spec_examples.by_id(example_id), family)
    return None if si is None else sc.trace(si.case)


@st.cache_resource(max_entries=8, show_spinner=False)
def stand_in_figure(op: str, example_id: str, family: str, tall: bool = False):
    """The step figure of a large example's reduced stand-in."""
    return StepFigure(_stand_in_trace(op, example_id, family), tall=tall)


def page(family: sc.Family | str) -> st.Page:
    """The explorer page of ``family`` (a record, or its name), from its record alone: a callable st.Page at the
    record's URL path, with its title and icon. app.py routes it; a link to it (st.page_link) passes the same page."""
    f = family if isinstance(family, sc.Family) else sc.family_of(family)
    return st.Page(partial(render, f.name, f.slug), title=f.explorer_title, icon=f":material/{f.icon}:",
                   url_path=f.slug)


def render(family: str, url_path: str) -> None:
    """Render the explorer page of ``family``; never lets an exception reach the user as a traceback."""
    try:
        ExplorerPage(family, url_path).render()
    except Exception as exc:  # noqa: BLE001 - last line of defence: a message, never a traceback
        st.error(f"Something went wrong while drawing this page ({md(type(exc).__name__)}: {md(exc)}). Your inputs "
                 f"are kept; change them or pick another example.", icon="🛑")
