"""The "From your code" page: paste a framework's scatter call, get its ONNX / OpenVINO operator (issue 24).

The call lives in the URL (``?call=...``, so the spec pages' framework map links open it filled in). It is
read by :func:`from_code.translate` (never evaluated); the answer shows the operators with their
attributes and versions, the composition where no single operator is exact, and every caveat. With tensors
(typed, or made from a shape), the same case opens in the explorer and the check page, runs in the framework
where it is installed (a guarded child process) and exports as a pytest against the ONNX model.
"""

from __future__ import annotations

import hashlib

import numpy as np
import streamlit as st

import from_code as fc
import framework_map as fm
import scatter_core as sc
from from_code.translate import MAX_CALL_TEXT, Translation, stand_in_note, supported_text
from from_code.case import CallCase, case_for, example_tensors, resolve, runs_in, tensor_slots
from from_code.graph import needs_graph
from from_code.run import composition_export, installed, operator_export, run_guarded

from scatter_ui.parts import attribute_inputs
from scatter_ui.state import cache
from scatter_ui.parts import session
from scatter_ui.parts.controls import error_text, md, tensor_text

URL_PATH = "from-code"
FROM_CODE_PAGE = "app_pages/from_code.py"
CALL = "call"  # the text area's key, bound to the URL's ?call=
ENTRY = "entry"  # ?entry=: the framework map entry whose link opened the view (its stand-in call explained)
PREFIX = "fromcode"
EXAMPLES = (
    'x.scatter_reduce(1, idx, src, reduce="amax", include_self=False)',
    "x.index_add_(0, idx, src)",
    "x[idx] += v",
    "tf.tensor_scatter_nd_update(t, idx, upd)",
    "x.at[i, j].set(v)",
    "np.add.at(a, (i, j), b)",
    "torch.slice_scatter(x, src, dim=1, start=1, end=3)",
    "x[x > 0] = 0",
    "x[mask] = 0",
    "x.masked_fill(mask, 0)",
    "torch.where(mask, v, x)",
)


def k(name: str) -> str:
    return session.key(PREFIX, name)


def _use_example() -> None:
    choice = st.session_state.get(k("example"))
    if choice:
        st.session_state[CALL] = choice
        st.session_state[k("example")] = None


def _ops_block(title: str, ops: list, oldest, composition: str | None) -> None:
    st.markdown(f"**{title}**")
    if not ops:
        st.markdown("No single operator is exact" + (": see the composition below." if composition else "."))
        return
    for op, attrs in ops:
        spec = sc.OPERATORS[op]
        text = ", ".join(f"{n}={v!r}" for n, v in attrs.items())
        st.code(f"{op}({text})" if text else op, language=None, wrap_lines=True)
        old = oldest.get(op)
        # small body text, not st.caption: a caption fades its link below 4.5:1 contrast (axe color-contrast)
        st.markdown(f":small[[{md(spec.name)} spec ↗]({spec.url})" + (
            f" · the oldest version that computes it: {md(old)}]" if old and old != op
            else " · no older version computes it]"))


def verdict(tr: Translation) -> str:
    """One sentence per standard: where a single operator is exact, and where the composition is needed (a
    reading of an ambiguous call says its assumption first: nothing is claimed for a guess)."""
    def side(name, ops):
        return f"{name}: one operator is exact" if ops else f"{name}: no single operator; use the composition below"
    if tr.readings:
        n = len(tr.readings)
        return (f":material/help: **{n} reading{'s' if n != 1 else ''}, no answer yet**: " + md(tr.composition))
    if tr.assumes:  # one reading of an ambiguous call: what it would be, said as a condition
        what = ("no scatter is needed: one Where computes it exactly" if tr.reading.where else
                "one operator computes it exactly on both ONNX and OpenVINO" if tr.onnx and tr.openvino else
                "no single operator is exact on ONNX or OpenVINO; the composition below is" if not tr.openvino
                and not tr.onnx else f"{side('ONNX', tr.onnx)}; {side('OpenVINO', tr.openvino)}")
        return f":material/help: **Only if {md(tr.assumes)}**: {what}."
    if tr.reading is not None and tr.reading.where:
        return (":material/check_circle: **No scatter needed**: one Where (ONNX; Select-1 in OpenVINO) computes this "
                "call exactly, as the composition below says.")
    if tr.onnx and tr.openvino:
        return ":material/check_circle: **Exact** on both: one operator computes this call (up to the caveats below)."
    if not tr.onnx and not tr.openvino:
        return ":material/warning: **No single operator is exact** on ONNX or OpenVINO: the composition below is."
    return f":material/rule: **{side('ONNX', tr.onnx)}. {side('OpenVINO', tr.openvino)}.**"


def answer(tr: Translation) -> None:
    st.header(md(f"{tr.framework}: {tr.function}"))  # h2 under the page's h1 (axe heading-order)
    st.markdown(verdict(tr))
    if tr.readings:
        for n, reading in enumerate(tr.readings, 1):
            st.subheader(md(f"Reading {n}: {reading.assumes}"))
            st.markdown(verdict(reading))
            _details(reading)
        return
    _details(tr)


def _details(tr: Translation) -> None:
    """One reading's operators, composition, inputs, call and caveats."""
    left, right = st.columns(2)
    with left:
        _ops_block("ONNX", tr.onnx, tr.oldest, tr.composition)
    with right:
        _ops_block("OpenVINO", tr.openvino, tr.oldest, tr.composition)
    if tr.composition:
        st.markdown("**Composition**: " + md(tr.composition))
    if needs_graph(tr):
        st.markdown(":small[On your tensors (below), this composition downloads as an ONNX model of those nodes "
                    "and a pytest running it on onnxruntime and onnx.reference.]")
    st.markdown("**Where the operator's inputs come from**\n" + "\n".join(f"- {md(line)}" for line in tr.inputs))
    st.markdown("**The call as read** (your tensors under fixed names, as the equivalence test runs it)")
    st.code(tr.call, language=None)  # plain: the light theme's green strings and booleans fail AA contrast (axe)
    source = f"the framework map's record {md(tr.entry)}" if tr.entry else "the framework map's shared sentences"
    st.markdown(f"**Caveats** ({len(tr.caveats)}): from {source} and the registry's runtime notes")
    if tr.caveats:
        st.markdown("\n".join(f"- {md(c)}" for c in tr.caveats))
    else:
        st.markdown("None recorded for this call.")


# ----------------------------------------------------------------------------- tensors
def _slot_key(tr: Translation, name: str) -> str:
    return k(f"t:{hashlib.sha1(tr.text.encode()).hexdigest()[:10]}:{name}")


def _fill(tr: Translation) -> None:
    ss = st.session_state
    text = str(ss.get(k("shape"), "")).strip().strip("()[]")
    shape = None
    if text:
        try:
            shape = tuple(int(p) for p in text.replace(" ", "").split(",") if p)
            if not shape or any(n < 1 or n > 64 for n in shape) or len(shape) > 4:
                raise ValueError
        except ValueError:
            ss[k("shape_problem")] = (f"**shape**: {md(text[:60])} is not a shape of 1 to 4 sizes from 1 to 64 "
                                      "(e.g. 3, 4)")
            return
    ss.pop(k("shape_problem"), None)
    seed = int(ss.get(k("seed"), 0)) + 1
    ss[k("seed")] = seed
    try:
        tensors = example_tensors(tr, np.random.default_rng(seed), ss.get(k("dtype"), "float32"), shape)
        case_for(tr, tensors)
    except sc.ScatterError as exc:
        ss[k("shape_problem")] = error_text(exc)
        return
    for slot in tensor_slots(tr):
        ss[_slot_key(tr, slot.name)] = tensor_text(tensors[slot.name])


ROLE_WORDS = {"data": "the tensor written into", "indices": "the indices", "updates": "the values written",
              "mask": "the boolean mask", "shape": "the output's shape",
              "either": "integer indices or a boolean mask (its dtype decides)"}
READ_AS = ("not said: show every reading", "a boolean mask", "integer indices")  # an open name, read as
READ_AS_DTYPE = {READ_AS[1]: np.bool_, READ_AS[2]: np.int64}


def _role(slot) -> str:
    """What a tensor box is for, in words ("the values written"; one of several index tensors names its axis)."""
    if slot.role == "indices" and slot.name.startswith("indices_"):  # x[i, j] = v: one index tensor per axis
        return f"the indices along axis {slot.name.removeprefix('indices_')}"
    return ROLE_WORDS[slot.role]


def _parsed(tr: Translation) -> dict | None:
    ss = st.session_state
    tensors, problems = {}, []
    for slot in tensor_slots(tr):
        text = ss.get(_slot_key(tr, slot.name), "")
        if not str(text).strip():
            return None
        try:
            tensors[slot.name] = sc.parse_tensor(text, max_elements=cache.MAX_TEXT_ELEMENTS, name=slot.param)
        except sc.ScatterError as exc:
            problems.append(error_text(exc, f"{slot.text[:60]}, {_role(slot)}"))
    for p in problems:
        st.error(p, icon="🛑")
    return None if problems else tensors


def _typed(tr: Translation) -> dict:
    """The tensors typed so far that read as tensors, by slot name (a box with a problem is left out here: the
    tensors section names it)."""
    out = {}
    for slot in tensor_slots(tr):
        text = st.session_state.get(_slot_key(tr, slot.name), "")
        if str(text).strip():
            try:
                out[slot.name] = sc.parse_tensor(text, max_elements=cache.MAX_TEXT_ELEMENTS, name=slot.param)
            except sc.ScatterError:
                continue
    return out


def _read_as(tr: Translation) -> dict:
    """For an ambiguous call: a choice per open name (a boolean mask, integer indices), as an empty tensor of
    that dtype for from_call (a typed tensor decides instead, and its box says so)."""
    out = {}
    if not tr.undecided:
        return out
    st.markdown("**Read the open names as** (or type their values under *On your tensors*: a bool tensor is a "
                "mask)")
    for col, name in zip(st.columns(min(len(tr.undecided), 3)), tr.undecided):
        key = k(f"as:{hashlib.sha1(tr.text.encode()).hexdigest()[:10]}:{name}")
        choice = col.radio(md(name[:40]), READ_AS, key=key, horizontal=False)
        if choice in READ_AS_DTYPE:
            out[name] = np.zeros(0, READ_AS_DTYPE[choice])
    return out


def _data_dtype(tr: Translation):
    """The dtype of the tensor typed in the data box, when it reads as one; None otherwise (every caveat shows;
    the box itself names a problem further down)."""
    for slot in tensor_slots(tr):
        if slot.role == "data":
            text = st.session_state.get(_slot_key(tr, slot.name), "")
            try:
                return sc.parse_tensor(text, max_elements=cache.MAX_TEXT_ELEMENTS, name=slot.param).dtype \
                    if str(text).strip() else None
            except sc.ScatterError:
                return None
    return None


def _links(tr: Translation, cc: CallCase) -> None:
    spec = cc.case.spec
    data, indices, updates = cc.case.given()
    texts = {"data": tensor_text(data), "indices": tensor_text(indices), "updates": tensor_text(updates)}
    if sum(len(t) for t in texts.values()) > session.MAX_URL_TEXT:
        st.caption("The tensors are too long for a link: paste them into the explorer's inputs.")
        return
    values = {"op": spec.name, "example": "__custom__", "step": 0, **texts}
    values.update(attribute_inputs.url_params(spec, cc.case.attrs))  # each attribute's URL text, by its codec
    explorer = session.share_link(sc.family_of(spec).slug, values)
    check = session.share_link("check", {n: v for n, v in values.items() if n != session.PAGE_STEP})
    st.markdown(f"[▶ Open this case in the explorer]({explorer}) · [Open it in the check page]({check})"
                + (f"  \n{md(spec.name)}: {md(cc.note)}" if cc.note else ""))


def _run(tr: Translation, tensors: dict, framework: str) -> None:
    st.session_state[k("outcome")] = (tr.text, framework, {n: a.tobytes() for n, a in tensors.items()},
                                      run_guarded(tr, tensors, framework))


def tensors_section(tr: Translation) -> None:
    ss = st.session_state
    st.header("On your tensors")
    st.caption("Type each tensor the call takes (JSON, Python lists or NumPy repr; nothing is evaluated), or give "
               "data's shape and fill every box with example values (indices repeat, and are negative where "
               f"{md(tr.framework)} takes that).")
    c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
    c1.text_input("data's shape (optional)", key=k("shape"), placeholder="e.g. 3, 4")
    c2.selectbox("dtype", ["float32", "int32", "int64", "float64"], key=k("dtype"))
    c3.button("Fill with example values", key=k("fill"), on_click=_fill, args=(tr,), width="stretch")
    if ss.get(k("shape_problem")):
        st.error(ss[k("shape_problem")], icon="🛑")
    slots = tensor_slots(tr)
    width = min(len(slots), 3) or 1
    for row in range(0, len(slots), width):  # rows of boxes, so the page reads them in the call's order
        for col, slot in zip(st.columns(width), slots[row:row + width]):
            col.text_area(f"{md(slot.text[:60])}: {_role(slot)}", key=_slot_key(tr, slot.name), height=110)
    tensors = _parsed(tr)
    if tensors is None:
        return
    if tr.readings:  # the typed tensors decide the reading (a bool tensor: a mask)
        try:
            tr = resolve(tr, tensors)
        except sc.ScatterError as exc:
            st.error(error_text(exc), icon="🛑")
            return
    try:
        cc = case_for(tr, tensors)
        output = cc.output()
    except sc.ScatterError as exc:  # the framework may still take them (JAX drops out-of-range indices)
        cc = None
        st.error(error_text(exc), icon="🛑")
    if cc is not None:
        st.markdown(f"**The translation's result** ({md(cc.case.spec.name)}, computed by Scatter Explorer's core)")
        st.code(tensor_text(output), language=None)
        _links(tr, cc)
    for framework in runs_in(tr):
        if installed(framework):
            st.button(f"Run the call in {framework} and compare", key=k(f"run:{framework}"), on_click=_run,
                      args=(tr, tensors, framework))
        else:
            st.caption(f"{md(framework)} is not installed here: the exported test runs the call where it is.")
    outcome = ss.get(k("outcome"))
    if outcome and outcome[0] == tr.text and outcome[2] == {n: a.tobytes() for n, a in tensors.items()}:
        result = outcome[3]
        if not result.ok:
            st.error(f"**{md(result.framework)}**: {md(result.error)}", icon="🛑")
        elif result.verdict == "exact":
            st.success(f"{md(result.framework)} ({md(result.version or '')}) gives exactly the translation's result.",
                       icon="✅")
        elif result.verdict == "other-winner":
            st.info(f"{md(result.framework)} let another duplicate write win (the caveats say its winner is "
                    "unspecified); every other cell is equal.", icon="ℹ️")
        elif result.verdict.startswith("the translation refuses"):
            st.warning(f"{md(result.framework)} runs the call, but {md(result.verdict)}: see the caveats.",
                       icon="⚠️")
        else:
            st.error(f"{md(result.framework)} differs from the translation: {md(result.verdict)}", icon="🛑")
        if result.ok:
            st.code(tensor_text(np.asarray(result.output)), language=None)
    if cc is None:
        return
    downloads(tr, tensors)


PYTEST_LABEL = "Download the pytest (.py)"  # short enough for a phone's width; the caption below says what it runs


def downloads(tr: Translation, tensors: dict) -> None:
    """The call's exports on these tensors: the ONNX model (one node, or the composition's nodes) and the pytest
    running it on onnxruntime and onnx.reference, and the call in its framework where that is installed."""
    composite = needs_graph(tr)
    try:
        export = composition_export(tr, tensors) if composite else operator_export(tr, tensors)
    except sc.ScatterError as exc:
        st.caption("No ONNX export: " + md(str(exc)))
        return
    # "The composition as one ONNX model: 4 nodes (...)", not "...ONNX model: The ONNX model is 4 nodes (...)"
    title = "The composition as one ONNX model" if composite else "The ONNX model"
    st.markdown(f"**{title}**: " + md(export.summary.removeprefix("The ONNX model is ")))
    left, right = st.columns(2)
    left.download_button(f"Download the ONNX model ({export.nodes} node{'s' if export.nodes != 1 else ''}, .onnx)",
                         export.model, file_name="from_your_code.onnx" if not composite else
                         "from_your_code_composition.onnx", mime="application/octet-stream", key=k("onnx"),
                         width="stretch")
    right.download_button(PYTEST_LABEL, export.pytest, file_name="test_from_your_code.py", mime="text/x-python",
                          key=k("pytest"), width="stretch")
    st.caption("The pytest runs the model on onnxruntime and onnx.reference against Scatter Explorer's result "
               f"(no framework needed), and your call in {md(tr.framework)} where that is installed.")


def _seed_from_url() -> None:
    """A link's ?call= fills the box when it is new to this session (a framework map link, a shared URL)."""
    ss = st.session_state
    given = st.query_params.get(CALL)
    if given is not None and given != ss.get(k("seen_url")):
        ss[k("seen_url")] = given
        ss[CALL] = given
        entry = st.query_params.get(ENTRY)
        ss[k("linked")] = (entry, given) if entry in fm.BY_ID else None


def _write_url(text: str) -> None:
    """The call into the URL, so a copied address reopens it; a text over the size limit stays out of it."""
    ss = st.session_state
    wanted = text if text.strip() and len(text) <= MAX_CALL_TEXT else None
    if st.query_params.get(CALL) != wanted:
        if wanted is None:
            st.query_params.pop(CALL, None)
        else:
            st.query_params[CALL] = wanted
    ss[k("seen_url")] = wanted
    linked = ss.get(k("linked"))
    if linked and linked[1] != text:  # edited: the entry's explanation no longer applies
        ss[k("linked")] = None
        linked = None
    if st.query_params.get(ENTRY) != (linked[0] if linked else None):
        if linked:
            st.query_params[ENTRY] = linked[0]
        else:
            st.query_params.pop(ENTRY, None)


def render_page() -> None:
    st.title("From your code")
    st.caption("Paste one scatter call from your model (PyTorch, TensorFlow, JAX or NumPy): see the ONNX and "
               "OpenVINO operator it becomes, with its attributes and versions, whether that is exact, and where "
               "it differs. The text is read, never run.")
    _seed_from_url()
    st.text_area("Your call", key=CALL, height=80,
                 placeholder='x.scatter_reduce(1, idx, src, reduce="amax", include_self=False)',
                 help="One call or one assignment such as x[idx] += v. " + supported_text())
    st.selectbox("Or start from an example", EXAMPLES, index=None, key=k("example"), on_change=_use_example,
                 placeholder="Choose an example call")
    text = st.session_state.get(CALL) or ""
    _write_url(text)
    if not text.strip():
        st.info("Supported: " + md(supported_text()), icon="ℹ️")
        return
    try:
        first = fc.from_call(text)
    except sc.ScatterError as exc:
        st.error(error_text(exc), icon="🛑")
        return
    chosen = _read_as(first)
    # the tensors typed decide what the text leaves open (a bool tensor: a mask) and the caveats that can apply
    # to the data's dtype (a note on int8 data goes)
    arrays = _typed(first)
    typed = {s.text: arrays[s.name] for s in tensor_slots(first) if s.name in arrays}
    try:
        tr = fc.from_call(text, _data_dtype(first), {**chosen, **typed}) if (chosen or typed) else first
    except sc.ScatterError as exc:
        st.error(error_text(exc), icon="🛑")
        tr = first
    linked = st.session_state.get(k("linked"))
    if linked and linked[1] == text:
        st.info(md(stand_in_note(linked[0], tr)), icon="↩️")
    answer(tr)
    st.divider()
    tensors_section(tr)


def render() -> None:
    """Render the page; never lets an exception reach the user as a traceback."""
    try:
        render_page()
    except Exception as exc:  # noqa: BLE001 - last line of defence: a message, never a traceback
        st.error(f"Something went wrong while drawing this page ({type(exc).__name__}: {md(exc)}).", icon="🛑")
