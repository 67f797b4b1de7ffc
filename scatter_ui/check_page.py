"""The "Check expected output" page: a verdict, an explanation and a ready test for a hand-computed output.

The user picks an operator version and its attributes (as on the explorer
pages), types or edits data, indices, updates and the expected output (text
in JSON / Python-list / NumPy-repr form, or a grid for rank <= 2), or starts
from a spec example. The page shows the verdict under an explicit tolerance,
expected and computed outputs side by side, each mismatched cell's chain of
writes with a link replaying it in the explorer, the diagnoses, and the
export buttons.
"""

from __future__ import annotations

import hashlib

import numpy as np
import streamlit as st

import scatter_core as sc
import spec_examples
from scatter_core.checking import DEFAULT_ATOL, DEFAULT_RTOL, versions_accepting

from . import cache, exports_panel, session
from .crosscheck_panel import crosscheck_panel
from .figures import comparison_figure

PREFIX = "check"
CUSTOM = "__custom__"
INPUTS = ("data", "indices", "updates")
ROLES = INPUTS + ("expected",)
MAX_SHOWN = 20  # mismatched cells explained on the page (all are counted and outlined)
DEFAULT_OP = "ScatterElements-18"


def k(name: str) -> str:
    return session.key(PREFIX, name)


def _format(arr: np.ndarray) -> str:
    with np.printoptions(threshold=cache.MAX_TEXT_ELEMENTS + 1, floatmode="unique", linewidth=88):
        return repr(np.asarray(arr))


def _editable(example) -> bool:
    return not example.shapes_only and all(a.size <= cache.MAX_TEXT_ELEMENTS for a in example.inputs)


def _examples(op: str) -> list:
    return [e for e in spec_examples.examples_for(op) if _editable(e)]


def _parse(role: str, text: str) -> np.ndarray:
    return sc.parse_tensor(text, name=role, max_elements=cache.MAX_TEXT_ELEMENTS)


class CheckPage:
    names = [s.name for s in sc.OPERATORS_LIST]

    # -- state ---------------------------------------------------------------------------------
    def _seed(self) -> None:
        ss = st.session_state
        session.seed_from_url(PREFIX, {"op": lambda v: v if v in self.names else None, "example": str})
        if k("op") not in ss:
            ss[k("op")] = session.from_url(PREFIX, "op") or DEFAULT_OP
            wanted = session.from_url(PREFIX, "example")
            ids = [e.id for e in _examples(ss[k("op")])]
            self._load_example(wanted if wanted in ids else (ids[0] if ids else CUSTOM))
        for role in ROLES:  # a grid edit of the previous run becomes the text (before the text widgets exist)
            pending = ss.pop(k(f"pending_{role}"), None)
            if pending is not None:
                ss[k(f"text_{role}")] = pending

    def _set_attr_defaults(self, spec, attrs: dict) -> None:
        ss = st.session_state
        for attr in spec.attributes:
            value = attrs.get(attr.name, attr.default)
            if attr.name == "axis":
                value = int(value) if value is not None else int(ss.get(k("axis"), 0) or 0)
            ss[k(attr.name)] = value
        if ss.get(k("reduction")) not in spec.reduction_spellings:
            ss[k("reduction")] = spec.default_reduction

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
            ss[k(f"text_{role}")] = _format(getattr(ex, role))
        ss[k("text_expected")] = _format(expected)
        ss[k("loaded")] = tuple(ss[k(f"text_{r}")] for r in INPUTS)

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

    # -- controls ------------------------------------------------------------------------------------
    def sidebar(self):
        ss = st.session_state
        with st.sidebar:
            st.selectbox("Operator version", self.names, key=k("op"), on_change=self._on_op,
                         format_func=lambda n: f"{n} · {sc.OPERATORS[n].framework}")
            op = ss[k("op")]
            spec = sc.OPERATORS[op]
            examples = _examples(op)
            titles = {e.id: f"{e.label}: {e.title}" + (" (ours)" if e.ours else "") for e in examples}
            titles[CUSTOM] = "✎ my own input"
            options = [CUSTOM] + [e.id for e in examples]
            if ss.get(k("example")) not in options:
                ss[k("example")] = CUSTOM
            st.selectbox("Start from an example", options, key=k("example"), on_change=self._on_example,
                         format_func=lambda i: titles.get(i, i),
                         help="Loads the example's tensors, attributes and printed output (or, when it prints "
                              "none, the spec's result) into the inputs below.")
            too_big = len(spec_examples.examples_for(op)) - len(examples)
            if too_big:
                st.caption(f"{too_big} example(s) of {op} have tensors above {cache.MAX_TEXT_ELEMENTS:,} elements "
                           f"and open only in the explorer.")
            st.markdown("**Attributes**")
            rank = self._rank_hint()
            for attr in spec.attributes:
                if attr.name == "reduction":
                    st.selectbox("reduction", spec.reduction_spellings, key=k("reduction"), help=attr.doc)
                elif attr.name == "axis":
                    lo, hi = (-rank, rank - 1) if rank else (-8, 7)
                    if not lo <= int(ss.get(k("axis"), 0) or 0) <= hi:
                        ss[k("axis")] = 0
                    st.number_input("axis" + (" (4th input)" if attr.is_input else ""), min_value=lo,
                                    max_value=hi, step=1, key=k("axis"), help=attr.doc)
                elif attr.name == "use_init_val":
                    st.checkbox("use_init_val", key=k("use_init_val"), help=attr.doc,
                                disabled=ss.get(k("reduction")) == "none")
            if spec.attribute("reduction") is None:
                st.caption(f"{op} has no reduction attribute: every write replaces the cell.")
            st.markdown("**Float tolerance**")
            ss.setdefault(k("rtol"), DEFAULT_RTOL)
            ss.setdefault(k("atol"), DEFAULT_ATOL)
            c1, c2 = st.columns(2)
            c1.number_input("rtol", min_value=0.0, format="%g", key=k("rtol"), step=1e-6)
            c2.number_input("atol", min_value=0.0, format="%g", key=k("atol"), step=1e-9)
            st.caption("Floats agree when |computed − expected| ≤ atol + rtol·|computed| (0 and 0: bit-exact). "
                       "Integers and bools compare exactly.")
            st.divider()
            st.caption(f"[{op} spec ↗]({spec.url})")
        return spec

    def _rank_hint(self) -> int:
        try:
            return _parse("data", st.session_state.get(k("text_data"), "")).ndim
        except sc.ScatterError:
            return 0

    def inputs(self) -> None:
        text_tab, grid_tab = st.tabs(["Text", "Grid (rank ≤ 2)"])
        with text_tab:
            st.caption("JSON, Python lists or NumPy repr (e.g. `array([[1, 2]], dtype=int32)`); nothing is "
                       f"evaluated. Up to {cache.MAX_TEXT_ELEMENTS:,} elements per tensor.")
            cols = st.columns(4)
            for col, role in zip(cols, ROLES):
                label = "expected output" if role == "expected" else role
                col.text_area(label, key=k(f"text_{role}"), height=170, max_chars=sc.parsing.MAX_TEXT)
        with grid_tab:
            st.caption("Edit the values cell by cell (shapes and dtypes come from the text tab).")
            for role in ROLES:
                self.grid(role)

    def grid(self, role: str) -> None:
        ss = st.session_state
        text = ss.get(k(f"text_{role}"), "")
        try:
            arr = _parse(role, text)
        except sc.ScatterError:
            st.caption(f"**{'expected output' if role == 'expected' else role}**: fix the text first (see the "
                       "message below).")
            return
        if arr.ndim > 2 or arr.ndim == 0:
            st.caption(f"**{role}** has rank {arr.ndim}: edit it in the text tab.")
            return
        import pandas as pd

        frame = pd.DataFrame(arr.reshape(1, -1) if arr.ndim == 1 else arr)
        frame.columns = [str(c) for c in frame.columns]
        digest = hashlib.sha1(text.encode()).hexdigest()[:10]
        st.markdown(f"**{'expected output' if role == 'expected' else role}** · {arr.dtype} {arr.shape}")
        edited = st.data_editor(frame, key=k(f"grid_{role}_{digest}"), num_rows="fixed", hide_index=False)
        values = edited.to_numpy()
        if arr.dtype.kind != "f" and pd.isna(values).any():
            st.error(f"**{role}**: a grid cell is empty; every {arr.dtype} cell needs a value.", icon="🛑")
            return
        try:
            with np.errstate(all="ignore"):
                new = values.astype(arr.dtype).reshape(arr.shape)
        except (TypeError, ValueError) as exc:
            st.error(f"**{role}**: a grid value is not a {arr.dtype} number ({exc}).", icon="🛑")
            return
        same = (new == arr) | ((new != new) & (arr != arr)) if arr.dtype.kind == "f" else new == arr
        if not np.all(same):
            ss[k(f"pending_{role}")] = _format(new)
            st.rerun()

    # -- results -----------------------------------------------------------------------------------------
    def render(self) -> None:
        self._seed()
        spec = self.sidebar()
        ss = st.session_state
        op = spec.name
        st.title("Check an expected output")
        st.caption("Type the inputs and the output you computed by hand; Scatter Explorer runs the spec's loop, "
                   "says whether you are right, explains every differing cell, looks for the reading of the "
                   "operator that gives your output, and exports the case as a test.")
        self.inputs()
        arrays = {}
        for role in ROLES:
            try:
                arrays[role] = _parse(role, ss.get(k(f"text_{role}"), ""))
            except sc.ScatterError as exc:
                st.error(f"**{'expected output' if role == 'expected' else role}**: {exc}", icon="🛑")
        if len(arrays) < len(ROLES):
            return
        attrs = {a.name: ss.get(k(a.name)) for a in spec.attributes}
        attrs = {n: (int(v) if n == "axis" and v is not None else v) for n, v in attrs.items()}
        rtol, atol = float(ss.get(k("rtol"), DEFAULT_RTOL)), float(ss.get(k("atol"), DEFAULT_ATOL))
        try:
            report = sc.check_expected(op, arrays["data"], arrays["indices"], arrays["updates"], arrays["expected"],
                                       rtol=rtol, atol=atol, **attrs)
        except sc.ScatterError as exc:
            st.error(f"**{exc.argument or 'input'}**: {exc}", icon="🛑")
            if exc.argument != "expected":
                for hint in versions_accepting(op, arrays["data"], arrays["indices"], arrays["updates"],
                                               arrays["expected"], rtol=rtol, atol=atol, **attrs):
                    st.info(hint.message, icon="💡")
            return
        self.verdict(report)
        self.comparison(report)
        if not report.matches:
            self.diagnoses(report, spec)
            self.mismatches(report, spec, attrs)
        self.exports(report, arrays, attrs, rtol, atol)
        crosscheck_panel(op, arrays["data"], arrays["indices"], arrays["updates"], attrs, key=k("crosscheck"))

    def verdict(self, report) -> None:
        if report.matches:
            st.success(f"✔ {report.summary}", icon="✅")
        else:
            st.error(f"✘ {report.summary} Tolerance: {report.tolerance}.", icon="❌")
        for note in report.notes:
            (st.warning if report.lossy_cast and note.startswith("Casting") else st.info)(note)

    def comparison(self, report) -> None:
        flat = np.ravel_multi_index(tuple(np.array(report.mismatches).T), report.computed.shape) \
            if report.mismatches else np.zeros(0, dtype=np.int64)
        fig = comparison_figure(report.trace, report.expected, report.computed,
                                ("your expected output", f"{report.op} computes"), flat)
        st.plotly_chart(fig, theme=None, key=k("figure"))
        if report.mismatches:
            st.caption(f"Outlined: the {len(report.mismatches)} cell(s) where the two differ.")

    def diagnoses(self, report, spec) -> None:
        st.subheader("Likely mistake")
        if not report.diagnoses:
            st.info("No alternative reading reproduces your expected output. Tried: every other reduction, "
                    "use_init_val flipped, every other axis, first-write-wins for duplicates, other handling of "
                    "negative indices, the other families' reading of the indices, the neighbouring versions and "
                    "truncated integer means. Check the chains below cell by cell.")
            return
        st.caption("Each of these readings gives exactly your expected output:")
        for d in report.diagnoses:
            change = sc.attr_text(d.change)
            target = sc.OPERATORS[d.attrs.get("op", spec.name)]
            link = ""
            if set(d.attrs) - {"op"} <= set(target.attribute_names):  # a reading the explorer can show
                attrs = {n: v for n, v in d.attrs.items() if n != "op"}
                url, _ = self._replay_link(target, attrs, len(report.trace))
                link = f" [▶ open this reading in the explorer]({url})"
            st.markdown(f"- **{d.kind}**: {d.message}{link}  \n  change: `{change}`")

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
        for name, value in attrs.items():
            values[name] = str(value).lower() if isinstance(value, bool) else value
        values["step"] = step
        return session.share_link(sc.family_of(spec).slug, values), note

    def mismatches(self, report, spec, attrs: dict) -> None:
        n = len(report.mismatches)
        st.subheader(f"Why each cell differs ({n} cell{'s' if n != 1 else ''})")
        for chain in report.chains[:MAX_SHOWN]:
            step = (chain.first_step + 1) if chain.steps else 0
            link, note = self._replay_link(spec, attrs, step)
            tail = f" ({note})" if note else ""
            text, where = chain.explain(), f"output{list(chain.cell)}"
            text = f"**{where}**{text[len(where):]}" if text.startswith(where) else f"**{where}**: {text}"
            st.markdown(f"{text} [▶ replay in the explorer]({link}){tail}")
        if n > MAX_SHOWN:
            st.caption(f"… and {n - MAX_SHOWN} more differing cell(s), outlined in the figure.")

    def exports(self, report, arrays: dict, attrs: dict, rtol: float, atol: float) -> None:
        st.subheader("Export this case")
        expected = arrays["expected"]
        if not report.matches:
            choice = st.radio("Expected output written into the exports",
                              ["the computed output (a passing test)", "your expected output (a failing test)"],
                              key=k("export_choice"), horizontal=True)
            expected = report.computed if choice.startswith("the computed") else report.expected
        exports_panel.render(report.op, arrays["data"], arrays["indices"], arrays["updates"], expected, attrs,
                             key=k("exports"), rtol=rtol, atol=atol, expanded=True)


def render() -> None:
    """Render the check page; never lets an exception reach the user as a traceback."""
    try:
        CheckPage().render()
    except Exception as exc:  # noqa: BLE001 - last line of defence: a message, never a traceback
        st.error(f"Something went wrong while drawing this page ({type(exc).__name__}: {exc}). Your inputs "
                 f"are kept; change them or pick another example.", icon="🛑")
