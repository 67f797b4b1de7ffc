"""The "Check expected output" page: a verdict, an explanation and a ready test for a hand-computed output.

The user picks an operator version and its attributes, types or edits data, indices, updates and the expected
output (text, or a grid for rank <= 2), or starts from a spec example. The page shows the verdict under an
explicit tolerance, expected and computed outputs side by side, each mismatched cell's chain of writes with a
link replaying it in the explorer, the diagnoses, and the export buttons.

The verdict is one of three (``CheckReport.verdict``: matches, conforms, differs), each with its own words and
icon, never told by colour alone; when the output conforms, the diagnoses say how it arose rather than name a
mistake. More: docs/architecture.md, scatter_ui/pages/check_expected.py.
"""

from __future__ import annotations

import hashlib

import numpy as np
import streamlit as st

import scatter_core as sc
import spec_examples
from scatter_core import DEFAULT_ATOL, DEFAULT_RTOL, choices_accepting, versions_accepting

from scatter_ui.parts import attribute_inputs
from scatter_ui.state import cache
from scatter_ui.parts import exports_panel
from scatter_ui.parts import panels
from scatter_ui.parts import session
from scatter_ui.parts.controls import (INPUT_FORMATS, attribute_widgets, editable, error_text, md, operator_picker,
                       spec_link, tensor_text)
from scatter_ui.parts.crosscheck_panel import crosscheck_panel
from scatter_ui.figures.heatmaps import comparison_figure
from scatter_ui.parts.controls import theme_is_dark

PREFIX = "check"
CUSTOM = "__custom__"
INPUTS = ("data", "indices", "updates")
ROLES = INPUTS + ("expected",)
MAX_SHOWN = 20  # mismatched cells explained on the page (all are counted and outlined)
DEFAULT_OP = "ScatterElements-18"
MAX_GRID_ROWS = 1_000  # the grid tab draws a tensor only within these dimensions (and MAX_TEXT_ELEMENTS cells)
MAX_GRID_COLUMNS = 100
# tolerances: finite, non-negative, and rtol at most 1 (a relative error of 100%)
TOLERANCE_RANGE = {"rtol": (0.0, 1.0), "atol": (0.0, 1e300)}
TOLERANCE_DEFAULTS = {"rtol": DEFAULT_RTOL, "atol": DEFAULT_ATOL}
# one icon per verdict (Material Symbols, drawn from Streamlit's own font, so they show without an emoji font);
# the verdict's words say it too, so neither the icon nor the colour is needed to tell them apart
VERDICT_ICONS = {"matches": ":material/check_circle:", "conforms": ":material/alt_route:",
                 "differs": ":material/cancel:"}


def outline_legend(differ: int, allowed: int, outside_spec: bool = False) -> str:
    """What the comparison's outlines mean, in words: a solid frame for a real difference, a dashed one for a
    value the spec allows too (a duplicated cell, whose result it leaves open), so the two never look alike.
    ``outside_spec``: the version's text forbids these duplicates, so the value is one a kernel may give."""
    who = "your value is one a kernel may give" if outside_spec else "the spec allows your value"
    said = (f"; {who} in all of them" if allowed == differ else f"; {who} in {allowed} of them" if allowed else "")
    frames = ([f"solid frame: differs ({differ - allowed})"] if differ > allowed else []) + \
        ([f"dashed frame: differs, but {who} there ({allowed})"] if allowed else [])
    legend = "; ".join(frames)
    return f"Outlined: the {differ} cell(s) where the two differ{said}. {legend[:1].upper()}{legend[1:]}."


def k(name: str) -> str:
    return session.key(PREFIX, name)


def _examples(op: str) -> list:
    return [e for e in spec_examples.examples_for(op) if editable(e)]


def _label(role: str) -> str:
    return "expected output" if role == "expected" else role


def _format_tolerance(value: float) -> str:
    return f"{value:g}"


def _on_tolerance(name: str) -> None:
    """Take a typed tolerance when it is a finite number in range; otherwise keep the previous value
    and say why (the typed text stays in the box)."""
    ss = st.session_state
    text = str(ss.get(k(f"{name}_text"), "")).strip()
    lo, hi = TOLERANCE_RANGE[name]
    previous = _format_tolerance(float(ss.get(k(name), TOLERANCE_DEFAULTS[name])))
    try:
        value = float(text)
    except ValueError:
        problem = f"{text[:40]!r} is not a number"
    else:
        if not np.isfinite(value):
            problem = f"{text[:40]} is not a finite number"
        elif not lo <= value <= hi:
            problem = f"{text[:40]} is outside {_format_tolerance(lo)}..{_format_tolerance(hi)}"
        else:
            ss[k(name)] = value
            ss.pop(k(f"{name}_problem"), None)
            return
    ss[k(f"{name}_problem")] = f"**{name}**: {md(problem)}; the tolerance stays {md(previous)}."


def tolerance_inputs() -> None:
    """rtol and atol as text: a typed value is used only when it is finite and in range."""
    ss = st.session_state
    st.markdown("**Float tolerance**")
    for name, default in TOLERANCE_DEFAULTS.items():
        ss.setdefault(k(name), default)
        ss.setdefault(k(f"{name}_text"), _format_tolerance(ss[k(name)]))
    c1, c2 = st.columns(2)
    for col, name in zip((c1, c2), TOLERANCE_DEFAULTS):
        lo, hi = TOLERANCE_RANGE[name]
        col.text_input(name, key=k(f"{name}_text"), on_change=_on_tolerance, args=(name,),
                       help=f"A number from {_format_tolerance(lo)} to {_format_tolerance(hi)}.")
    for name in TOLERANCE_DEFAULTS:
        problem = ss.get(k(f"{name}_problem"))
        if problem:
            st.error(problem, icon="🛑")
    st.caption("Floats agree when |computed − expected| ≤ atol + rtol·|computed| (0 and 0: bit-exact). "
               "Integers and bools compare exactly.")


def _url_tolerance(name: str):
    """A link's rtol or atol: a finite number in range, else None (the link's value is then named as ignored)."""
    lo, hi = TOLERANCE_RANGE[name]

    def read(text: str) -> float | None:
        value = float(text)
        return value if np.isfinite(value) and lo <= value <= hi else None
    return read


def _parse(role: str, text: str) -> np.ndarray:
    return cache.parse_text(role, text)  # parsed once per text, a failure too


class CheckPage:
    names = [s.name for s in sc.OPERATORS_LIST]

    # -- state ---------------------------------------------------------------------------------
    def _seed(self) -> None:
        ss = st.session_state
        attrs = attribute_inputs.url_converters(sc.OPERATORS_LIST)  # every attribute, read by its codec
        fresh = session.seed_from_url(PREFIX, {"op": lambda v: v if v in self.names else None, "example": str,
                                               "data": str, "indices": str, "updates": str, "expected": str,
                                               "rtol": _url_tolerance("rtol"), "atol": _url_tolerance("atol"),
                                               **attrs})
        linked = fresh and st.query_params.get("op") in self.names
        typed = linked and "data" in st.query_params
        if k("op") not in ss or linked:
            ss[k("op")] = session.from_url(PREFIX, "op") or DEFAULT_OP
            wanted = session.from_url(PREFIX, "example")
            ids = [e.id for e in _examples(ss[k("op")])]
            self._load_example(CUSTOM if typed else wanted if wanted in ids else (ids[0] if ids else CUSTOM))
            if typed:  # a case linked (From your code, a shared check): its tensors
                for role in INPUTS:
                    ss[k(f"text_{role}")] = session.from_url(PREFIX, role, "")
                ss[k("text_expected")] = ""
            # the expected output (from another page, the user's to type), attributes and tolerances a link gives
            ss[k("text_expected")] = session.from_url(PREFIX, "expected", ss[k("text_expected")])
            for name in attrs:
                value = session.from_url(PREFIX, name)
                if value is not None:
                    ss[k(name)] = value
            for name in TOLERANCE_DEFAULTS:
                value = session.from_url(PREFIX, name)
                if value is not None:
                    ss[k(name)], ss[k(f"{name}_text")] = value, _format_tolerance(value)
        for name in session.URL_KEYS:  # values the URL offered that this run did not use
            session.from_url(PREFIX, name)
        for role in ROLES:  # a grid edit of the previous run becomes the text (before the text widgets exist)
            pending = ss.pop(k(f"pending_{role}"), None)
            if pending is not None:
                ss[k(f"text_{role}")] = pending

    def _set_attr_defaults(self, spec, attrs: dict) -> None:
        # an attribute with no value here keeps the page's (the axis typed for the previous operator)
        attribute_inputs.load(spec, k, attrs, keep=True)

    def _load_example(self, example_id: str) -> None:
        ss = st.session_state
        spec = sc.OPERATORS[ss[k("op")]]
        ss[k("example")] = example_id
        if example_id == CUSTOM:
            self._set_attr_defaults(spec, {})
            ss[k("loaded")] = None
            return
        ex = spec_examples.by_id(example_id)
        self._set_attr_defaults(spec, ex.attrs)
        expected = ex.expected if ex.expected is not None else sc.scatter(ex.op, *ex.inputs, **ex.attrs)
        for role in INPUTS:
            ss[k(f"text_{role}")] = tensor_text(getattr(ex, role))
        ss[k("text_expected")] = tensor_text(expected)
        ss[k("loaded")] = tuple(ss[k(f"text_{r}")] for r in INPUTS)
        ss[k("loaded_expected")] = ss[k("text_expected")]

    def _on_op(self) -> None:
        ss = st.session_state
        spec = sc.OPERATORS[ss[k("op")]]
        ss[k("example")] = CUSTOM  # the typed tensors stay: check the same case under another version
        self._set_attr_defaults(spec, {})

    def _on_example(self) -> None:
        self._load_example(st.session_state[k("example")])

    def _example_unedited(self) -> str | None:
        ss = st.session_state
        ex_id = ss.get(k("example"))
        if ex_id in (None, CUSTOM) or ss.get(k("loaded")) != tuple(ss.get(k(f"text_{r}"), "") for r in INPUTS):
            return None
        return ex_id

    def _changed_from_example(self, spec) -> str | None:
        """What the user changed from the loaded example (``inputs``, ``attributes``), or None."""
        ss = st.session_state
        ex_id = ss.get(k("example"))
        if ex_id in (None, CUSTOM):
            return None
        if self._example_unedited() is None:
            return "inputs"
        return "attributes" if attribute_inputs.changed(spec, k, spec_examples.by_id(ex_id).attrs) else None

    # -- controls ------------------------------------------------------------------------------------
    def sidebar(self):
        ss = st.session_state
        with st.sidebar:
            operator_picker(self.names, k("op"), self._on_op)
            op = ss[k("op")]
            spec = sc.OPERATORS[op]
            examples = _examples(op)
            titles = {e.id: e.menu_title for e in examples}
            titles[CUSTOM] = "✎ my own input"
            options = [CUSTOM] + [e.id for e in examples]
            if ss.get(k("example")) not in options:
                ss[k("example")] = CUSTOM
            changed = self._changed_from_example(spec)
            if changed:  # the menu names the user's inputs, not the example they started from
                titles[ss[k("example")]] = f"✎ your {changed}, started from {titles[ss[k('example')]]}"
            session.redraw_choice(k("example"), titles.get(ss[k("example")]))
            st.selectbox("Start from an example", options, key=k("example"), on_change=self._on_example,
                         format_func=lambda i: titles.get(i, i),
                         help="Loads the example's tensors, attributes and printed output (or, when it prints "
                              "none, the spec's result) into the inputs below.")
            too_big = len(spec_examples.examples_for(op)) - len(examples)
            if too_big:
                st.caption(f"{too_big} example(s) of {op} have tensors above {cache.MAX_TEXT_ELEMENTS:,} elements "
                           f"and open only in the explorer.")
            attribute_widgets(spec, k, self._rank_hint())
            tolerance_inputs()
            st.divider()
            spec_link(spec)
        return spec

    def _rank_hint(self) -> int:
        try:
            return _parse("data", st.session_state.get(k("text_data"), "")).ndim
        except sc.ScatterError:
            return 0

    def inputs(self) -> None:
        text_tab, grid_tab = st.tabs(["Text", "Grid (rank ≤ 2)"])
        with text_tab:
            st.caption(INPUT_FORMATS)
            cols = st.columns(4)
            for col, role in zip(cols, ROLES):
                session.text_box(col, _label(role), key=k(f"text_{role}"), height=170)
        with grid_tab:
            st.caption("Edit the values cell by cell (shapes and dtypes come from the text tab).")
            for role in ROLES:
                self.grid(role)

    def grid(self, role: str) -> None:
        ss = st.session_state
        text = ss.get(k(f"text_{role}"), "")
        if role == "indices" and not text.strip():
            st.caption("**indices**: left out (empty text).")
            return
        try:
            arr = _parse(role, text)
        except sc.ScatterError:
            st.caption(f"**{_label(role)}**: fix the text first (see the message below).")
            return
        if arr.ndim > 2 or arr.ndim == 0:
            st.caption(f"**{_label(role)}** has rank {arr.ndim}: edit it in the text tab.")
            return
        rows, cols = (1, arr.shape[0]) if arr.ndim == 1 else arr.shape
        if rows > MAX_GRID_ROWS or cols > MAX_GRID_COLUMNS:  # by dimensions: a (huge, 0) tensor has no cells
            st.caption(f"**{_label(role)}** has shape {arr.shape}: the grid shows at most {MAX_GRID_ROWS:,} rows "
                       f"and {MAX_GRID_COLUMNS:,} columns; edit it in the text tab.")
            return
        import pandas as pd

        frame = pd.DataFrame(arr.reshape(1, -1) if arr.ndim == 1 else arr)
        frame.columns = [str(c) for c in frame.columns]
        digest = hashlib.sha1(text.encode()).hexdigest()[:10]
        st.markdown(f"**{_label(role)}** · {arr.dtype} {arr.shape}")
        edited = st.data_editor(frame, key=k(f"grid_{role}_{digest}"), num_rows="fixed", hide_index=False)
        values = edited.to_numpy()
        if arr.dtype.kind != "f" and pd.isna(values).any():
            st.error(f"**{_label(role)}**: a grid cell is empty; every {arr.dtype} cell needs a value.", icon="🛑")
            return
        try:
            with np.errstate(all="ignore"):
                new = values.astype(arr.dtype).reshape(arr.shape)
        except (TypeError, ValueError) as exc:
            st.error(f"**{_label(role)}**: a grid value is not a {arr.dtype} number ({exc}).", icon="🛑")
            return
        same = (new == arr) | ((new != new) & (arr != arr)) if arr.dtype.kind == "f" else new == arr
        if not np.all(same):
            ss[k(f"pending_{role}")] = tensor_text(new)
            st.rerun()

    # -- results -----------------------------------------------------------------------------------------
    inputs_drawn = False

    def render(self) -> None:
        self._seed()
        spec = self.sidebar()
        session.url_notice(PREFIX)  # names the link's values the page could not use
        ss = st.session_state
        op = spec.name
        st.title("Check an expected output")
        st.caption("Type the inputs and the output you computed by hand; Scatter Explorer runs the spec's loop, "
                   "says whether you are right, explains every differing cell, looks for the reading of the "
                   "operator that gives your output, and exports the case as a test.")
        self.inputs()
        self.inputs_drawn = True
        self.url(spec)
        arrays = {}
        for role in ROLES:
            text = ss.get(k(f"text_{role}"), "")
            if role == "expected" and not str(text).strip():  # nothing typed yet: what to type, not an error
                self.expected_prompt(arrays.get("data"))
                continue
            try:  # an empty indices box is None where the family takes None
                arrays[role] = cache.parse_input(spec, role, text, _parse)
            except sc.ScatterError as exc:
                st.error(error_text(exc, _label(role)), icon="🛑")
        if len(arrays) < len(ROLES):
            return
        try:
            attrs = attribute_inputs.core_values(spec, k)  # as scatter_core takes them
        except sc.ScatterError as exc:
            st.error(error_text(exc), icon="🛑")
            return
        rtol, atol = float(ss.get(k("rtol"), DEFAULT_RTOL)), float(ss.get(k("atol"), DEFAULT_ATOL))  # checked on entry
        try:
            case = sc.case(op, arrays["data"], arrays["indices"], arrays["updates"], **attrs)
        except sc.ScatterError as exc:
            st.error(error_text(exc), icon="🛑")
            for accepting in (choices_accepting, versions_accepting):  # another mode, then another version
                for hint in accepting(op, arrays["data"], arrays["indices"], arrays["updates"],
                                      arrays["expected"], rtol=rtol, atol=atol, **attrs):
                    st.info(md(hint.message), icon="💡")
            return
        try:
            report = sc.check_expected(case, arrays["expected"], rtol=rtol, atol=atol)
        except sc.ScatterError as exc:  # the expected output's shape
            st.error(error_text(exc), icon="🛑")
            return
        self.verdict(report)
        self.comparison(report)
        if not report.matches:
            (self.explanations if report.conforms else self.diagnoses)(report, spec)
            self.mismatches(report, spec, attrs)
        self.exports(report, case, arrays["expected"], rtol, atol)
        crosscheck_panel(case, key=k("crosscheck"))

    def url(self, spec) -> None:
        """Mirror the check into the URL: the operator, its attributes, the example or the typed inputs, the
        expected output and the tolerances, so a copied link reopens the same check and verdict. Texts travel
        only within the explorer's limit (session.MAX_URL_TEXT characters); past it the page says so and
        points to the JSON export, and the link keeps the operator, example and attributes."""
        ss = st.session_state
        values = {"op": spec.name, **attribute_inputs.url_values(spec, k)}
        ex_id = self._example_unedited()
        values["example"] = ex_id or CUSTOM
        texts = {} if ex_id else {r: ss.get(k(f"text_{r}"), "") for r in INPUTS}
        expected = ss.get(k("text_expected"), "")
        if not ex_id or expected != ss.get(k("loaded_expected")):
            texts["expected"] = expected
        for name, default in TOLERANCE_DEFAULTS.items():
            if float(ss.get(k(name), default)) != default:
                values[name] = repr(float(ss[k(name)]))
        size = sum(len(str(t)) for t in texts.values())
        fits = size <= session.MAX_URL_TEXT
        if fits:
            values.update(texts)
        session.write_url(values, PREFIX)
        with st.sidebar:
            if fits:
                st.caption("Share this check (the link reopens the operator, attributes, inputs, expected output and "
                           "tolerance): " + panels.inline_code(session.share_link("check", values)))
            else:
                st.warning(f"This case is too large for a link: its texts take {size:,} characters, and a link "
                           f"carries at most {session.MAX_URL_TEXT:,}. The page's link keeps only the operator and "
                           "attributes; to share the whole case, download its JSON export (\"spec_examples JSON\" "
                           "under **Export this case**).", icon=":material/link_off:")

    @staticmethod
    def expected_prompt(data) -> None:
        """The expected output box is empty: say what to type there (a prompt, not an error)."""
        shape = f" of data's shape, {sc.fmt_shape(data.shape)}," if data is not None else ""
        st.info("Type the output you computed by hand in the **expected output** box above (a tensor"
                f"{md(shape)} in any of the formats the inputs take); the verdict appears here.",
                icon=":material/edit:")

    def verdict(self, report) -> None:
        """The verdict in words, with one icon of its own (the colour only repeats it)."""
        tolerance = f"\n\nTolerance: {md(report.tolerance)}."
        if report.matches:
            st.success(f"**Matches the loop-order result.**\n\n{md(report.summary)}", icon=VERDICT_ICONS["matches"])
        elif report.conforms and report.outside_spec:  # the version's text forbids these duplicates
            st.info(f"**Outside the spec, accepted: {md(report.op)}'s text does not allow these duplicate indices.** "
                    f"Your output keeps another of the writes, as a kernel may; not the loop-order result."
                    f"\n\n{md(report.summary)}" + tolerance, icon=VERDICT_ICONS["conforms"])
        elif report.conforms:
            st.info(f"**Conforms: allowed by the spec, not the loop-order result.**\n\n{md(report.summary)}"
                    + tolerance, icon=VERDICT_ICONS["conforms"])
        else:
            st.error(f"**Differs.**\n\n{md(report.summary)}" + tolerance, icon=VERDICT_ICONS["differs"])
        for note in report.notes:
            (st.warning if report.lossy_cast and note.startswith("Casting") else st.info)(md(note))

    def comparison(self, report) -> None:
        fig = comparison_figure(report.comparison, ("your expected output", f"{report.op} computes"),
                                dark=theme_is_dark())
        st.plotly_chart(fig, theme=None, key=k("figure"))
        if report.mismatches:
            st.caption(outline_legend(len(report.mismatches), len(report.allowed), report.outside_spec))

    def explanations(self, report, spec) -> None:
        """A conforming output: the readings that give it explain the difference; none is a mistake."""
        st.header("Why it differs from the loop order")
        allowed = "a kernel may give" if report.outside_spec else "the spec allows"
        if not report.diagnoses:
            st.info("No single reading of the operator gives your output, and none needs to: each differing cell "
                    f"holds a value {allowed} there (listed below).", icon=":material/info:")
            return
        st.caption(f"Your output is one {allowed}, so these are explanations, not mistakes. Each reading gives "
                   "exactly your output:")
        self._readings(report, spec)

    def diagnoses(self, report, spec) -> None:
        st.header("Likely mistake")
        if not report.diagnoses:
            choices = "".join(f"every other {a.name}, " for a in spec.attributes if a.choices)
            st.info("No alternative reading reproduces your expected output. Tried: every other reduction, "
                    f"use_init_val flipped, every other axis, {choices}first-write-wins for duplicates, other "
                    "handling of negative indices, the other families' reading of the indices, the neighbouring "
                    "versions and truncated integer means. Check the chains below cell by cell.")
            return
        st.caption("Each of these readings gives exactly your expected output:")
        self._readings(report, spec)

    def _readings(self, report, spec) -> None:
        for d in report.diagnoses:
            change = sc.attr_text(d.change)
            target = sc.OPERATORS[d.attrs.get("op", spec.name)]
            link = ""
            if set(d.attrs) - {"op"} <= set(target.attribute_names):  # a reading the explorer can show
                attrs = {n: v for n, v in d.attrs.items() if n != "op"}
                url, _ = self._replay_link(target, attrs, len(report.trace))
                link = f" [▶ open this reading in the explorer]({url})"
            st.markdown(f"- **{md(d.kind)}**: {md(d.message)}{link}  \n  change: `{change}`")

    def _replay_link(self, spec, attrs: dict, step: int) -> tuple[str, str | None]:
        ss = st.session_state
        values = {"op": spec.name}
        ex_id = self._example_unedited()
        note = None
        if ex_id is not None and spec_examples.by_id(ex_id).op == spec.name:
            values["example"] = ex_id
        else:
            values["example"] = CUSTOM
            texts = {r: ss.get(k(f"text_{r}"), "") for r in INPUTS}
            if sum(len(t) for t in texts.values()) <= session.MAX_URL_TEXT:
                values.update(texts)
            else:
                note = "the inputs are too long for a link: paste them into the explorer's inputs"
        values.update(attribute_inputs.url_params(spec, attrs))
        values["step"] = step
        return session.share_link(sc.family_of(spec).slug, values), note

    def mismatches(self, report, spec, attrs: dict) -> None:
        n, ok = len(report.mismatches), len(report.allowed)
        cells = f"{n} cell{'s' if n != 1 else ''}"
        if report.conforms:
            title = f"Each differing cell ({cells}, all allowed)"
        elif ok:
            title = f"Why each cell differs ({cells}: {n - ok} not allowed, {ok} allowed)"
        else:
            title = f"Why each cell differs ({cells})"
        st.header(title)
        for chain in report.chains[:MAX_SHOWN]:
            step = (chain.first_step + 1) if chain.steps else 0
            link, note = self._replay_link(spec, attrs, step)
            tail = f" ({note})" if note else ""
            text, where = chain.explain(), f"output{list(chain.cell)}"
            text = (f"**{md(where)}**{md(text[len(where):])}" if text.startswith(where)
                    else f"**{md(where)}**: {md(text)}")
            mark = "≈ allowed: " if chain.allowed else ("✘ not allowed: " if ok else "")
            st.markdown(f"{mark}{text} [▶ replay in the explorer]({link}){tail}")
        if n > MAX_SHOWN:
            st.caption(f"… and {n - MAX_SHOWN} more differing cell(s), outlined in the figure.")

    def exports(self, report, case: sc.Case, expected, rtol: float, atol: float) -> None:
        st.header("Export this case")
        source = ""
        if not report.matches:
            choice = st.radio("Expected output written into the exports",
                              ["the computed output (a passing test)", "your expected output"],
                              key=k("export_choice"), horizontal=True)
            accepted = ("Your expected output is accepted, so the pytest test passes with it too: in a duplicated "
                        "cell (which the text does not allow), the test accepts any of the values written to it."
                        if report.outside_spec else
                        "Your expected output conforms, so the pytest test passes with it too: where the spec "
                        "leaves a cell open, the test accepts any value the spec allows there.")
            st.caption(accepted if report.conforms
                       else "With your expected output the exported pytest test fails: the spec does not allow it.")
            expected = report.computed if choice.startswith("the computed") else report.expected
            source = "computed" if choice.startswith("the computed") else "your-expected"  # in the file names
        exports_panel.render(case, expected, key=k("exports"), rtol=rtol, atol=atol, expanded=True,
                             expected_from=source)


def render() -> None:
    """Render the check page; never lets an exception reach the user as a traceback, and whatever
    fails, the inputs stay on the page to be seen and fixed."""
    page = CheckPage()
    try:
        page.render()
    except Exception as exc:  # noqa: BLE001 - last line of defence: a message, never a traceback
        st.error(f"Something went wrong while drawing this page ({md(type(exc).__name__)}: {md(exc)}). Your inputs "
                 f"are kept; change them or pick another example.", icon="🛑")
        if not page.inputs_drawn:
            try:
                page.inputs()
            except Exception:  # noqa: BLE001 - the message above stands
                pass
