"""The "Your model" page: open an ONNX model or an OpenVINO IR, list its scatter nodes, capture one run,
and open a captured node in the explorer's player, check, cross-run and export it.

Everything about the model comes from :mod:`scatter_models` (listing never runs the model; a capture runs
in a guarded child process). A captured node is an ordinary ``scatter_core.Case``: the player, the findings,
the cross-check and the exports are the explorer's own. Names from the model are shown as text (tables,
``st.text``) or escaped (:func:`scatter_ui.figures.text.md`), never read as Markdown or HTML.

Memory: the opened model lives in the session with a summary of its capture (no tensors); the tensors of
the captured nodes the user opens live in the app's byte-bounded cache (:mod:`scatter_ui.state.cache`), one entry
per opened node, counted against its budget and dropped when unused for its time to live (opening a node
again then captures it again, with the same seed, dims and inputs).
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import dataclass, field
from urllib.parse import urlencode

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.runtime.uploaded_file_manager import DeletedFile

import scatter_core as sc
import scatter_models as sm
from scatter_models import explain
from scatter_models.limits import DEFAULT_DIM, shape_text
from scatter_models.report import bug_report, cell_lines, comparison

from scatter_ui.parts import attribute_inputs
from scatter_ui.state import cache
from scatter_ui.parts import session
from scatter_ui.parts.controls import md, tensor_text
from scatter_ui.parts.crosscheck_panel import crosscheck_panel
from scatter_ui.parts.exports_panel import render as exports_render
from scatter_ui.figures.heatmaps import comparison_figure
from scatter_ui.parts.controls import theme_is_dark
from scatter_ui.figures.history import cell_writes, parse_cell
from scatter_ui.parts.panels import findings as findings_panel
from scatter_ui.player.component import player
from scatter_ui.figures.text import file_stem

PREFIX = "model"
PAGE_SIZE = 50
MAX_SOURCES_NAMED = 8
MAX_PLAYER_ELEMENTS = 1_000_000  # the player's windowed views handle larger tensors; past this, no player


def _kind(model) -> str:
    return "onnx" if model is None else model.kind


def runtime_label(model, runtime: str, default: str | None = None) -> str:
    """The runtime as the runtime box offers it ("OpenVINO CPU (what ships, default)"), ``default`` marked."""
    return sm.runtime_choice(runtime, _kind(model), default)


def runtime_name(model, runtime: str) -> str:
    """The runtime's name for a sentence ("onnx.reference", which a version in parentheses may follow)."""
    return sm.runtime_short(runtime, _kind(model))


def runtime_in_full(model, runtime: str) -> str:
    """What runs the model, said in full (an IR's default: OpenVINO's reference kernels for the scatter nodes, the
    CPU plugin for the rest)."""
    return sm.runtime_name(runtime, _kind(model))


NO_SAMPLE = ""


def k(name: str) -> str:
    return f"{PREFIX}:{name}"


def visible(text) -> str:
    """A name with its control characters shown as escapes (still to be escaped for Markdown)."""
    return "".join(ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
                   for ch in str(text))


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return h.hexdigest()[:24]


# -- opening ------------------------------------------------------------------------------------------------

def files_held(key: str) -> list:
    """The files an uploader of this page holds on this server. After a failover the browser still lists the
    files it sent to the stopped replica: the session state gives those as ``DeletedFile`` placeholders
    (only the widget's return value is filtered), which have no name, size or bytes."""
    return [f for f in st.session_state.get(k(key)) or [] if not isinstance(f, DeletedFile)]


def _uploaded_files() -> list:
    return files_held("upload")


def model_source_id() -> str | None:
    """Which model the sidebar points at, cheaply (no hashing of the bytes on every rerun)."""
    files = _uploaded_files()
    if files:
        return "upload:" + ",".join(f"{f.file_id}:{f.size}" for f in files)
    key = st.session_state.get(k("sample")) or NO_SAMPLE
    return None if key == NO_SAMPLE else f"sample:{key}"


def _uploaded_model(files):
    """(payload, weights, name) from the uploaded files, or a ModelError when they do not make a model."""
    by_ext = {}
    for f in files:
        by_ext.setdefault(f.name.rsplit(".", 1)[-1].lower(), f)
    if "onnx" in by_ext:
        f = by_ext["onnx"]
        return f.getvalue(), None, f.name
    if "xml" in by_ext:
        if "bin" not in by_ext:
            raise sm.ModelError(f"model file {by_ext['xml'].name!r}: an OpenVINO IR needs its .bin too: upload "
                                f"both files together", argument="weights", rule="missing-weights")
        return by_ext["xml"].getvalue(), by_ext["bin"].getvalue(), by_ext["xml"].name
    raise sm.ModelError("upload an .onnx file, or an OpenVINO IR's .xml together with its .bin",
                        argument="model", rule="upload")


def current_model() -> sm.Model | None:
    """The model the sidebar points at (opened once per source), or None; ModelError when it cannot open."""
    ss = st.session_state
    source_id = model_source_id()
    if source_id is None:
        return None
    held = ss.get(k("model"))
    if held is not None and held[0] == source_id:
        return held[1]
    ss.pop(k("summary"), None)
    ss.pop(k("model"), None)
    files = _uploaded_files()
    if files:
        payload, weights, name = _uploaded_model(files)
    else:
        path = sm.sample_path(ss[k("sample")])
        payload, weights, name = path.read_bytes(), (path.with_suffix(".bin").read_bytes()
                                                     if path.suffix == ".xml" else None), path.name
    model = sm.open_model(payload, weights=weights, name=name)
    ss[k("model")] = (source_id, model)
    ss[k("runtime")] = sm.default_runtime(model)  # what gets deployed, where it can run this model
    if model.nodes:
        sm.prewarm(ss.get(k("runtime"), "reference"), model)  # the worker takes the model while the table is read
    return model


# -- the URL: which model and node the page shows (a page reopened on another replica knows what it lost) -----

URL_SAMPLE, URL_UPLOAD, URL_MODEL, URL_NODE = "sample", "upload", "model", "node"
URL_KEYS = (URL_SAMPLE, URL_UPLOAD, URL_MODEL, URL_NODE)
MAX_URL_NAME = 200


def _url_state(model) -> dict:
    """What the URL says for ``model``: a sample's key, or an upload's file name and digest; the open node."""
    ss = st.session_state
    out = {}
    files = _uploaded_files()
    if files:
        out[URL_UPLOAD] = ",".join(f.name for f in files)[:MAX_URL_NAME]
        out[URL_MODEL] = model.digest[:16]
    elif ss.get(k("sample")):
        out[URL_SAMPLE] = ss[k("sample")]
    summary = _summary()
    if summary is not None and ss.get(k("open")) in summary.names:
        out[URL_NODE] = str(ss[k("open")])[:MAX_URL_NAME]
    elif summary is None and _has_node(model, st.query_params.get(URL_NODE)):
        out[URL_NODE] = st.query_params[URL_NODE]  # named by the link, not captured yet: kept for the capture
    return out


def _has_node(model, name) -> bool:
    try:
        return bool(name) and model.node(name) is not None
    except sm.ModelError:
        return False


def sync_url(model) -> None:
    """Write the model and the open node to the address bar (only what changed: writing does not rerun)."""
    want = _url_state(model) if model is not None else {}
    params = st.query_params
    for key in URL_KEYS:
        if key in want and params.get(key) != want[key]:
            params[key] = want[key]
        elif key not in want and key in params:
            del params[key]


def lost_upload() -> str | None:
    """The file name the URL says this page showed when no upload of it is in this session: the session is new
    (the replica that held the upload stopped and the page reconnected to another, or the link was reopened
    later). None when an upload or a sample is there, or when this session held a model (the user removed it)."""
    ss = st.session_state
    name = st.query_params.get(URL_UPLOAD)
    if not name or _uploaded_files() or ss.get(k("sample")) or ss.get(k("model")) is not None:
        return None
    return str(name)


def lost_upload_message(name: str) -> str:
    node = st.query_params.get(URL_NODE)
    return (f"This page showed the model you uploaded, {visible(name)}, but this server does not have it. An "
            "uploaded model lives only in the memory of the server that received it: that server has stopped or "
            "restarted, and your page reconnected to another one (or the link was opened later). The file cannot "
            "move with the page, so choose it again in the sidebar (» at the top left on a narrow screen; if the "
            "upload box still shows its name, remove it with × first), then capture again"
            + (f" to reopen node {visible(node)}" if node else "") + ".")


# -- the capture: a small summary in the session, opened nodes' tensors in the byte-bounded cache ------------

@dataclass(frozen=True)
class Summary:
    """What the page keeps of a capture in the session: no tensors."""

    args: tuple  # (model digest, runtime, seed, dims, inputs digest): the capture's cache key
    names: tuple
    runtime: str
    version: str | None
    seed: int
    dims: dict
    missing: dict
    sources: dict  # node name -> where its output came from (CapturedNode.output_source)
    differing: dict = field(default_factory=dict)  # node name -> cells whose output differs from the exact result
    cells: dict = field(default_factory=dict)  # node name -> output cells


_PRIMED: dict = {}  # (args, name) -> the one-node capture a Capture press just made (taken by node_capture once)


def _node_key(args, name, model, inputs):
    return (args, name)


@cache.bounded(key=_node_key)
def node_capture(args, name, model, inputs):
    """One captured node (a one-record scatter_models.Capture), held only once the user opens it: the capture
    that made the page's summary hands over the node opened first; another node opened later (or one the cache
    dropped while idle) is captured again, with the same seed, dims and inputs."""
    primed = _PRIMED.pop((args, name), None)
    if primed is not None:
        return primed
    _, runtime, seed, dims, _ = args
    return _one(model.capture(inputs or None, seed=seed, dims=dict(dims), runtime=runtime), name)


def _one(cap, name):
    return sm.Capture({name: cap[name]}, feeds={}, runtime=cap.runtime, version=cap.version, missing={},
                      seed=cap.seed, dims=cap.dims)


def _summary():
    summary = st.session_state.get(k("summary"))
    model_held = st.session_state.get(k("model"))
    if summary is None or model_held is None or summary.args[0] != model_held[1].digest:
        return None
    return summary


# -- sidebar ------------------------------------------------------------------------------------------------

def sidebar(model) -> None:
    with st.sidebar:
        st.subheader("Model")
        st.file_uploader("Upload an .onnx file, or an OpenVINO IR (.xml with its .bin)", type=["onnx", "xml", "bin"],
                         accept_multiple_files=True, key=k("upload"))
        upload_mb = min(int(st.get_option("server.maxUploadSize")), int(sm.max_model_bytes() // 10**6))
        st.caption(f"Uploads up to {upload_mb:,} MB (server.maxUploadSize); models up to "
                   f"{sm.max_model_bytes() / 2**20:,.0f} MiB are read (SCATTER_MODELS_MAX_BYTES); "
                   "weights stored as external data are refused, never opened.")
        keys = [NO_SAMPLE] + list(sm.SAMPLES)
        st.selectbox("or a sample model", keys, key=k("sample"),
                     format_func=lambda s: "(none)" if s == NO_SAMPLE else sm.SAMPLES[s].title,
                     help="Small models made by scripts/make_sample_models.py; each teaches one real situation.")
        if model is None:
            return
        st.subheader("Inputs")
        st.number_input("seed (draws every input not given)", min_value=0, max_value=2**31 - 1, step=1,
                        key=k("seed"))
        dims_boxes(model)
        st.file_uploader("or upload inputs (.npz: one array per input name; .npy: one input, named by the file; "
                         "a zip of an ONNX test_data_set_N folder, or its input_K.pb files)",
                         type=["npz", "npy", "zip", "pb"], accept_multiple_files=True, key=k("input_files"))
        typed_boxes(model)
        default = sm.default_runtime(model)
        st.selectbox("runtime", list(sm.RUNTIMES), key=k("runtime"),
                     format_func=lambda r: runtime_label(model, r, default),
                     on_change=_prepare_for_runtime, args=(model,))
        runtime = st.session_state.get(k("runtime"), "reference")
        if sm.runtime_problem(model, runtime):  # the reason stands by the Capture button (seen on a phone too)
            st.warning(md(f"{runtime_name(model, runtime)} cannot capture this model: the reason is shown by "
                          f"the Capture button."), icon="🧩")


def dims_boxes(model) -> None:
    """One box per symbolic dim, empty unless the user sets it: its placeholder says the size the capture uses,
    fixed by a given input (named) or the default."""
    try:
        fixed = sm.dims_from_inputs(model, _given_inputs(model))
    except sm.ModelError:
        fixed = {}  # the refusal is shown by the Capture button
    with st.spinner("Finding sizes the model's dynamic dims accept…"):
        accepted = sm.default_dims(model, {d: v for d, (v, _, _) in fixed.items()})  # an IR's (once per model)
    for dim in model.symbolic_dims:
        if dim in fixed:
            size, name, _ = fixed[dim]
            hint = f"{size}, from input {visible(name)}"
        elif dim in accepted:
            hint = f"{accepted[dim]} (a size the model accepts)"
        else:
            hint = f"{DEFAULT_DIM} (default)"
        st.number_input(md(f"symbolic dim {visible(dim)}"), min_value=0, max_value=10**9, step=1, value=None,
                        placeholder=hint, key=k(f"dim:{dim}"),
                        help="Empty: the size a given input fixes, else the default. A size set here that "
                             "contradicts a given input is refused, naming both.")


def _set_dims(model) -> dict:
    """The dims the user set (an empty box is not set)."""
    return {d: int(v) for d in model.symbolic_dims if (v := st.session_state.get(k(f"dim:{d}"))) is not None}


MAX_TYPED_ELEMENTS = 10_000


def typed_boxes(model) -> None:
    """A text box per model input, for typing a small input's values (e.g. ``[3]`` for a cache position)."""
    with st.expander("or type a small input's values"):
        for inp in model.inputs:
            st.text_area(md(f"{visible(inp.name)} · {inp.dtype or 'dtype unknown'} · {shape_text(inp.shape)}"),
                         key=k(f"typed:{inp.name}"), height=68, placeholder="e.g. [[1, 2], [3, 4]]; empty: drawn",
                         help=f"Nested brackets, up to {MAX_TYPED_ELEMENTS:,} values; nothing typed is evaluated.")


def _typed_inputs(model) -> dict:
    """The inputs typed on the page, parsed without evaluating anything; a ModelError naming the input."""
    out = {}
    for inp in model.inputs:
        text = (st.session_state.get(k(f"typed:{inp.name}")) or "").strip()
        if not text:
            continue
        try:
            out[inp.name] = sc.parse_tensor(text, dtype=inp.dtype, max_elements=MAX_TYPED_ELEMENTS,
                                            name=f"typed input {inp.name!r}")
        except sc.ScatterError as exc:
            raise sm.ModelError(str(exc), argument=inp.name, rule=exc.rule) from None
    return out


def _given_inputs(model) -> dict:
    """Uploaded and typed inputs together; an input given both ways is refused, naming the file."""
    uploaded = _read_inputs(model)
    typed = _typed_inputs(model)
    for name in typed:
        if name in uploaded:
            raise sm.ModelError(f"input {name!r} is given twice: typed on the page and in the uploaded inputs; clear "
                                f"one", argument=name, rule="given-twice")
    return {**uploaded, **typed}


def _prepare_for_runtime(model) -> None:
    """Another runtime chosen: the capture's worker builds that runtime's session for the model ahead."""
    if model.nodes:
        sm.prewarm(st.session_state.get(k("runtime"), "reference"), model)


def _read_inputs(model) -> dict:
    """The uploaded input arrays (no pickles; sizes checked before reading), by input name; read once per set of
    files (a refusal too: the same ModelError is raised again until the files change)."""
    files = files_held("input_files")
    key = (model.digest, tuple(f.file_id for f in files))
    held = st.session_state.get(k("inputs_read"))
    if held is None or held[0] != key:
        try:
            held = (key, sm.read_inputs([(f.name, f.getvalue()) for f in files], model))
        except sm.ModelError as exc:
            held = (key, exc)
        st.session_state[k("inputs_read")] = held
    if isinstance(held[1], sm.ModelError):
        raise held[1]
    return held[1]


# -- main ---------------------------------------------------------------------------------------------------

def node_rows(model, nodes) -> list[dict]:
    rows = []
    for n in nodes:
        shapes = n.shapes
        rows.append({
            "node": visible(n.name),
            "operator": n.op,
            "indices (from the graph)": VERDICT_WORDS.get(n.index_verdict, n.index_verdict),
            "attributes": ", ".join(f"{a}={v!r}" if isinstance(v, str) else f"{a}={v}" for a, v in n.attrs.items()),
            "where": visible(n.location),
            "shapes (data · indices · updates)": " · ".join(
                "?" if s is None else shape_text(s) for s in (shapes.get("data"), shapes.get("indices"),
                                                                 shapes.get("updates"))),
            "static findings": "; ".join(dict.fromkeys(f.short for f in n.findings)) if n.findings else "none",
        })
    return rows


VERDICT_WORDS = {"unique": "unique by construction", "may-repeat": "may repeat", "repeats": "repeat"}


def proof_text(node) -> str:
    """A node's static proof as plain text, one step of its chain a line (each step back from the node)."""
    return visible(node.index_proof).replace(" ← ", "\n    ← ")


SEVERITY_WORDS = {"error": "Error", "warning": "Warning", "info": "Note"}


def runtimes_tab_link(spec) -> str:
    """A relative link to the Runtimes tab of ``spec``'s page, where every runtime fact is listed with its source."""
    return f"spec-{sc.family_of(spec).slug}?{urlencode({'tab': 'Runtimes'})}"


def findings_markdown(node) -> str:
    """A node's static findings as a Markdown list: severity, the sentences, and where a runtime fact comes from
    (with a link to the operator's runtime facts). Everything from the model or a fact is escaped."""
    lines = []
    for f in node.findings:
        line = f"- **{SEVERITY_WORDS.get(f.severity, f.severity)}**: {md(f.text)}"
        if f.source:
            line += f"  \n  :small[Source: {md(f.source)}]"
        lines.append(line)
    if node.spec is not None and any(f.source for f in node.findings):
        lines.append(f"\n:small[[Every runtime fact of {md(node.spec.name)} ↗]({runtimes_tab_link(node.spec)})]")
    return "\n".join(lines)


def node_table(model) -> None:
    query = st.text_input("Filter nodes (name, operator, attribute or where it is)", key=k("filter"))
    nodes = model.nodes
    if query:
        q = query.lower()
        nodes = [n for n in nodes if q in n.name.lower() or q in n.op.lower() or q in n.location.lower()
                 or q in str(n.attrs).lower()]
    pages = max(1, -(-len(nodes) // PAGE_SIZE))
    page = 1
    if pages > 1:
        page = int(st.number_input(f"Page (of {pages}, {PAGE_SIZE} nodes each)", 1, pages, 1, key=k("page")))
    shown = nodes[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
    st.caption(f"{len(nodes):,} of {len(model.nodes):,} scatter nodes" + (f", page {page} of {pages}"
                                                                         if pages > 1 else "")
               + ". Static findings come from the model alone: constant indices checked against the shapes, "
                 "whether the graph proves the indices unique, and the runtime facts the node's operator, dtype and "
                 "attributes meet (those about repeated indices only where repeats are possible).")
    if shown:
        st.dataframe(pd.DataFrame(node_rows(model, shown)), hide_index=True, width="stretch")
        with st.expander(f"Can the indices repeat? The static proofs ({len(shown)} node(s))"):
            st.text("\n\n".join(f"{visible(n.name)} · {n.op}: {proof_text(n)}" for n in shown))
        with_findings = [n for n in shown if n.findings]
        if with_findings:
            with st.expander(f"Static findings of the nodes shown ({len(with_findings)} node(s))"):
                for n in with_findings:
                    st.markdown(f"**{md(visible(n.name))}** · {md(n.op)}")
                    st.markdown(findings_markdown(n))


def capture_controls(model) -> bool | None:
    """The capture's budget, notes and button; False when a capture ran and failed (its error is shown)."""
    ss = st.session_state
    runtime = ss.get(k("runtime"), "reference")
    dims = _set_dims(model)
    try:
        given = _given_inputs(model)
        settled = sm.given_dims(model, dims, given)
    except sm.ModelError as exc:
        st.error(md(str(exc)), icon="🛑")
        return
    need, unknown = sm.estimate_bytes(model, settled, {n: np.shape(a) for n, a in given.items()})
    budget = sm.max_capture_bytes()
    st.caption(md(f"Runs the model once on {runtime_in_full(model, runtime)} in a separate process, limited to "
                  f"{sm.time_limit():g} s and {sm.memory_limit() / 2**20:,.0f} MiB; the inputs and scatter tensors "
                  f"take about {need / 2**20:,.2f} MiB of a {budget / 2**20:,.0f} MiB budget"
                  + (f" (not counted: {len(unknown)} tensors of unknown shape)" if unknown else "")
                  + ". Inputs not given are drawn from the seed (integers in [0, 4) unless the graph says more, "
                    "floats in quarters)."))
    derived = sm.explained_draws(model, {**{d: DEFAULT_DIM for d in model.symbolic_dims}, **sm.default_dims(model),
                                         **settled}, given)
    if derived:
        with st.expander(f"What the graph says of the drawn integer inputs ({len(derived)})"):
            st.markdown("\n".join(f"- {md(visible(t))}" for t in derived))
    if need > budget:
        st.warning(md(f"With these dims the capture would allocate about {need / 2**20:,.0f} MiB, over its budget of "
                      f"{budget / 2**20:,.0f} MiB: it will be refused. Make the symbolic dims smaller."), icon="📏")
    problem = sm.runtime_problem(model, runtime)
    if problem:
        st.warning(md(problem), icon="🧩")
    else:
        note = sm.runtime_note(model, runtime)
        if note:
            st.info(md(note), icon=":material/visibility_off:")
    if st.button("Capture", type="primary", key=k("capture"), disabled=problem is not None,
                 help=problem or "Run the model and record every scatter node's inputs and output"):
        seed = int(ss.get(k("seed"), 0))
        inputs_digest = _digest(*[n.encode() + np.ascontiguousarray(a).tobytes() + str(a.dtype).encode()
                                  for n, a in sorted(given.items())])
        # a failed attempt (a time limit hit on a busy machine) is cached like a result: the next press retries
        attempt = ss.get(k("attempt"), 0)
        args = (model.digest, runtime, seed, tuple(sorted(dims.items())), f"{inputs_digest}:{attempt}")
        ss[k("inputs_given")] = given
        with st.spinner("Running the model…"):
            try:
                cap = model.capture(given or None, seed=seed, dims=dims, runtime=runtime)
            except sm.ModelError as exc:
                ss.pop(k("summary"), None)
                ss[k("attempt")] = attempt + 1
                st.error(md(str(exc)), icon="🛑")
                return False
        names = tuple(cap)
        ss[k("summary")] = Summary(args, names, cap.runtime, cap.version, cap.seed, dict(cap.dims), dict(cap.missing),
                                   {n: r.output_source for n, r in cap.items()},
                                   {n: explain.differing_cells(r) for n, r in cap.items()},
                                   {n: int(np.asarray(r.output).size) for n, r in cap.items()})
        ss.pop(k("open"), None)
        if names:  # the node shown first is handed to the cache; the other nodes' tensors are let go
            _PRIMED.clear()  # at most one hand-over waits (another session's is captured again if dropped)
            first = _first_open(names)
            _PRIMED[(args, first)] = _one(cap, first)


def _first_open(names) -> str:
    """The node to open after a capture: the one the URL names (the node open before), else the first."""
    wanted = st.query_params.get(URL_NODE)
    return wanted if wanted in names else names[0]


def sources_text(sources: dict) -> str:
    """Which engine gave which nodes' outputs, when they did not all come from one (else ""): a node whose
    tensors onnxruntime's run of the whole model gives only after a rewrite (or, where that is impossible, a
    run of the node alone), or one scatter_core stood in for, says so here and in its record."""
    groups: dict[str, list[str]] = {}
    for name, source in sources.items():
        groups.setdefault(source, []).append(visible(name))
    if len(groups) < 2:
        return ""
    parts = []
    for source, names in groups.items():
        named = ", ".join(names[:MAX_SOURCES_NAMED]) + (f" and {len(names) - MAX_SOURCES_NAMED} more"
                                                        if len(names) > MAX_SOURCES_NAMED else "")
        parts.append(f"{named}: output from {source}")
    return "Where each output comes from: " + "; ".join(parts) + "."


def captured_node(model, cap: Summary) -> None:
    ss = st.session_state
    names = list(cap.names)
    st.header("Captured nodes")  # h2 under the page's h1, the node an h3 (axe heading-order)
    differs = explain.differs_text(runtime_name(model, cap.runtime), cap.differing, cap.cells)
    if differs:  # first, before any node's verdict and its tolerance
        st.error(md(visible(differs)), icon=":material/difference:")
    st.caption(md(f"{len(names)} node(s) captured on {runtime_name(model, cap.runtime)} ({cap.version or 'version unknown'}), seed "
                  f"{cap.seed}" + (", dims " + ", ".join(f"{visible(d)}={v}" for d, v in cap.dims.items())
                                   if cap.dims else "") + "."))
    for name, why in cap.missing.items():
        st.info(md(f"{visible(name)}: {why}"), icon="ℹ️")
    text = sources_text(cap.sources)
    if text:
        st.caption(md(text))
    if not names:
        return
    if ss.get(k("open")) not in names:
        ss[k("open")] = _first_open(names)
    st.selectbox("Open a captured node", names, key=k("open"), format_func=visible)
    name = ss[k("open")]
    try:
        one = node_capture(cap.args, name, model, ss.get(k("inputs_given")))
    except sm.ModelError as exc:
        st.error(md(str(exc)), icon="🛑")
        return
    rec = one[name]
    case = rec.case
    node = model.node(name)
    data, _, updates = case.given()
    st.markdown(f"### {md(visible(name))} · {md(case.op)}")
    st.caption(md(f"{case.attr_text() or 'no attributes'} · data {data.dtype} {sc.fmt_shape(data.shape)} · "
                  f"ran {rec.calls} time(s) (showing the first call) · output from {rec.output_source} · "
                  f"{visible(node.location)}"))
    trace = cache.trace_of(case)
    step_key = k(f"step:{case.key}")
    n = len(trace)
    step = min(max(int(ss.get(step_key, 0)), 0), n)
    st.markdown("**Findings on the real data**")
    findings_panel(trace, step, k("findings"))
    indices_verdict(node, trace)
    runtime_vs_exact(rec, trace, model, one)
    st.markdown("**Step through it**")
    if max(a.size for a in (data, updates)) > MAX_PLAYER_ELEMENTS:
        st.info(f"This node's tensors are over {MAX_PLAYER_ELEMENTS:,} elements: the player is left out; the "
                f"bug report holds every value.", icon="📏")
    else:
        panel_axis = data.ndim - 3 if data.ndim >= 3 else None
        sf = cache.step_figure(case, True, (), panel_axis)
        jumps = int(ss.get(k(f"jump:{case.key}"), 0))  # a step chosen under "Go to a cell": a new view jumps there
        view = f"model:{case.key}" + (f":{jumps}" if jumps else "")
        player(sf.figure(step), key=k("player"), view=view, step=step, name=f"{case.op}-captured",
               on_step=lambda v: ss.__setitem__(step_key, int(v)), url_param=None,
               on_cell=lambda cell: ss.__setitem__(k(f"cell:{case.key}"), ", ".join(str(c) for c in cell)))
        cell_finder(trace, sf.history, step_key, case.key)
    take_away(model, one, name, rec)
    crosscheck_panel(case, key=k("crosscheck"))


def _show_step(step_key: str, case_key: str, step: int) -> None:
    """The player jumps to ``step`` (a new view id makes the browser take the step it is sent)."""
    ss = st.session_state
    ss[step_key] = int(step)
    ss[k(f"jump:{case_key}")] = int(ss.get(k(f"jump:{case_key}"), 0)) + 1


def _step_chosen(step_key: str, case_key: str, box: str) -> None:
    _show_step(step_key, case_key, st.session_state[box])


def _step_beside(step_key: str, case_key: str, box: str, steps: list[int], later: bool) -> None:
    """The write to the cell just after (``later``) or before the player's step, also chosen in the box."""
    ss = st.session_state
    now = int(ss.get(step_key, 0))
    pick = [s for s in steps if s > now] if later else [s for s in steps if s < now]
    if pick:
        chosen = pick[0] if later else pick[-1]
        ss[box] = chosen
        _show_step(step_key, case_key, chosen)


def cell_finder(trace, history, step_key: str, case_key: str) -> None:
    """"Go to a cell": the steps that write one output cell, only those, and the player taken to the one picked
    (a big node, a GNN's max over 384 edges, is read one cell at a time)."""
    ss = st.session_state
    n = len(trace)
    st.markdown("**Go to a cell**")
    text = st.text_input("Output cell: its coordinates, e.g. " + ", ".join("0" for _ in trace.data.shape),
                         key=k(f"cell:{case_key}"),
                         help="Lists only the steps that write this cell, and takes the player to the one you pick. "
                              "Clicking an output cell in the player fills it in.")
    if not text.strip():
        st.caption(f"Type an output cell, or click one in the player, to see only the steps, of all {n:,}, that "
                   f"write it.")
        return
    try:
        cell = parse_cell(text, trace.data.shape)
    except ValueError as exc:
        st.error(md(f"Output cell {visible(text.strip())!r}: {exc}."), icon="🛑")
        return
    label = f"output{sc.fmt_pos(cell)}"
    rows = cell_writes(trace, history, cell)
    if not rows:
        st.info(md(f"No step writes {label}: it keeps data's value "
                   f"{sc.fmt_value(trace.data[cell])} through all {n:,} steps."), icon="ℹ️")
        return
    steps = [r["step"] for r in rows]
    st.caption(md(f"{label} is written by {len(rows):,} of the {n:,} steps ({sc.fmt_value(trace.data[cell])} before "
                  f"the first, {rows[-1]['after']} after the last). Pick one to show it in the player."))
    st.text(sc.chain_of(trace, cell).explain())  # the cell as the spec defines its reduction (scatter_core says it)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                 column_config={"step": st.column_config.NumberColumn("step", format="%d")})
    box = k(f"cellstep:{case_key}:{cell}")
    by_step = {r["step"]: r for r in rows}
    cols = st.columns([3, 1, 1], vertical_alignment="bottom")
    ss.setdefault(box, None)
    cols[0].selectbox(f"Show a step that writes {label}", steps, key=box,
                      placeholder=f"{len(steps):,} step(s)",
                      format_func=lambda s: f"step {s}: {by_step[s]['reads']} = {by_step[s]['value read']} "
                                            f"({by_step[s]['before']} → {by_step[s]['after']})",
                      on_change=_step_chosen, args=(step_key, case_key, box))
    now = int(ss.get(step_key, 0))
    cols[1].button("Previous write", key=k(f"cellprev:{case_key}"), disabled=not any(s < now for s in steps),
                   on_click=_step_beside, args=(step_key, case_key, box, steps, False), width="stretch",
                   help=f"The write to {label} before the player's step")
    cols[2].button("Next write", key=k(f"cellnext:{case_key}"), disabled=not any(s > now for s in steps),
                   on_click=_step_beside, args=(step_key, case_key, box, steps, True), width="stretch",
                   help=f"The write to {label} after the player's step")


def source_name(source: str) -> str:
    """The engine an output source names, without how it ran ("onnxruntime", not "onnxruntime, running the whole
    model once, rewritten so that ..."): the node's caption, just above the verdict, says the whole of it."""
    return source.split(" (")[0].split(",")[0]


def indices_verdict(node, trace) -> None:
    """The static verdict on the node's indices beside what this run's values did, and the proof behind it."""
    st.caption(md(explain.repeats_seen_text(node, trace)))
    with st.expander("Why: the static proof about repeated indices"):
        st.text(proof_text(node))


def runtime_vs_exact(rec, trace, model, cap) -> None:
    st.markdown("**The runtime's output vs scatter_core's exact result**")
    if rec.stood_in:
        st.info(md(f"No runtime output to compare: the output is from {rec.output_source}. Cross-run the node "
                   "on the installed runtimes below to compare one."), icon=":material/info:")
        return
    try:
        report = comparison(rec)
    except sc.ScatterError as exc:
        st.error(md(str(exc)), icon="🛑")
        return
    text = report.summary.replace("Your expected output", f"The output from {source_name(rec.output_source)}")
    if report.matches:
        st.success(md(text), icon="✅")
        return
    if report.conforms:  # another winner where duplicates compete: the spec allows it
        st.info(md(text), icon=":material/alt_route:")
    else:
        st.error(md(text), icon=":material/cancel:")
    fig = comparison_figure(report.comparison, (f"{rec.output_source}", f"{report.op} (exact)"),
                            dark=theme_is_dark())
    st.plotly_chart(fig, theme="streamlit", key=k("compare"))
    st.text("\n\n".join(cell_lines(model, cap, rec, report)))  # a mean: the sum over the count, then the rounding


def explorer_link(case) -> str | None:
    """A link reopening a small captured case in its family's explorer (typed tensors in the URL)."""
    data, indices, updates = case.given()
    texts = {"data": tensor_text(data), "indices": tensor_text(indices), "updates": tensor_text(updates)}
    if sum(len(t) for t in texts.values()) > session.MAX_URL_TEXT:
        return None
    values = {"op": case.op, "example": "__custom__", "step": 0, **texts}
    values.update(attribute_inputs.url_params(case.spec, case.attrs))  # each attribute's URL text, by its codec
    return session.share_link(sc.family_of(case.spec).slug, values)


def bug_report_file(model, cap, name) -> bytes:
    """The bug report zip, built when its button is clicked; never raises (a raise there would be a server log
    line and a failed download): a failure gives a zip whose ERROR.txt says what went wrong."""
    try:
        return bug_report(model, cap, name)
    except Exception as exc:  # noqa: BLE001 - said in the file, never a traceback
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            z.writestr("ERROR.txt", f"The bug report for node {name!r} could not be built ({type(exc).__name__}: "
                                    f"{exc}). The exports under 'Export this case' carry the node's tensors.\n")
        return buf.getvalue()


def take_away(model, cap, name, rec) -> None:
    case = rec.case
    cols = st.columns(2)
    slug = file_stem(f"{case.op}_{name}")  # a node's name may hold ../, control characters, look-alikes
    cols[0].download_button("Bug report (.zip)", data=lambda: bug_report_file(model, cap, name),
                            file_name=f"{slug}_bug_report.zip", mime="application/zip", key=k("bug_report"),
                            on_click="ignore", icon=":material/bug_report:",
                            help="README.md with the findings, the comparison and the cross-check on every installed "
                                 "runtime, the tensors (.npz), pytest tests, a JSON example, a NumPy loop and the node "
                                 "alone as a model of its framework (ONNX, or an OpenVINO IR with a pytest on "
                                 "OpenVINO); the README lists exactly the files in the zip")
    link = explorer_link(case)
    if link:
        cols[1].link_button("Open in the explorer", link, icon=":material/open_in_new:")
    else:
        cols[1].caption(f"Too large for an explorer link (the tensors as text exceed {session.MAX_URL_TEXT:,} "
                        f"characters); the bug report carries them.")
    exports_render(case, None, key=k("exports"))


def render() -> None:
    try:
        _render()
    except Exception as exc:  # noqa: BLE001 - a message, never a traceback
        st.error(md(f"The page could not finish ({type(exc).__name__}: {str(exc)[:500]}). What you chose is kept; "
                    f"change it or pick another model."), icon="🛑")


def _render() -> None:
    st.title("Your model")
    st.caption("Open an ONNX model or an OpenVINO IR: every scatter node is listed (subgraphs and local "
               "functions too) with what the model shows before running. Capture one run to see each node's "
               "real inputs, step through them, compare the runtime's output with the exact semantics, cross-run "
               "the node and take it away as a bug report.")
    ss = st.session_state
    ss.setdefault(k("seed"), 0)
    if k("sample") not in ss:
        wanted = st.query_params.get("sample")
        ss[k("sample")] = wanted if wanted in sm.SAMPLES else NO_SAMPLE
    lost = lost_upload()
    try:
        model = current_model()
    except sm.ModelError as exc:
        sidebar(None)
        st.error(md(str(exc)), icon="🛑")
        return
    sidebar(model)
    if model is None:
        if lost:  # keep the URL as it is: the message stays until a file or a sample is chosen
            st.warning(md(lost_upload_message(lost)), icon=":material/cloud_off:")
            return
        sync_url(None)
        st.info("Upload a model in the sidebar, or pick a sample model.", icon="👈")
        return
    try:
        _show(model)
    finally:
        sync_url(model)


def _show(model) -> None:
    ss = st.session_state
    if ss.get(k("sample")) and not _uploaded_files():
        st.info(md(sm.SAMPLES[ss[k("sample")]].teaches), icon="📘")
    opsets = ", ".join(f"{d} {v}" for d, v in model.opsets.items()) if model.kind == "onnx" else \
        ", ".join(model.opsets)
    st.caption(md(f"{visible(model.where)} · {model.kind} · {opsets} · {len(model.nodes):,} scatter node(s) · "
                  f"{model.size / 2**20:,.2f} MiB"))
    if not model.nodes:
        st.info("This model has no scatter node.", icon="ℹ️")
        return
    node_table(model)
    failed = capture_controls(model) is False  # the run just failed: its error, not "press Capture", stands
    summary = _summary()
    if summary is not None:
        captured_node(model, summary)
    elif st.query_params.get(URL_NODE) and not failed:
        node = st.query_params[URL_NODE]
        known = _has_node(model, node)
        st.info(md(f"The link names node {visible(node)}: press Capture to run the model and open it." if known else
                   f"The link names node {visible(node)}, which this model does not have."), icon="🔗")
