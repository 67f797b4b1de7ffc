"""Which capture runtime can run which scatter node, said before anything runs, and a runtime's refusal to
load a model said in plain words after.

Before a capture (:func:`node_problems`), from data, never from a probe: the registry's ``runnable_on`` (an
ONNX operator version onnxruntime does not run, such as the deprecated ``Scatter-11``) and the runtime facts
of topic ``runnable`` (``scatter_core.FACTS``: OpenVINO's ONNX frontend has no conversion rule for
``TensorScatter-24``). onnx.reference is never refused here: where it has no kernel (``Scatter-9``)
scatter_core's exact semantics stand in, and the record says so.

After a runtime refused to load the model (:func:`explain_load_error`): its message is read for the op it
could not convert or find a kernel for (any op, not only scatter ones), and the node is named from the
model, with the runtimes that can run it. Anything else keeps the runtime's first line, not its traceback.
"""

from __future__ import annotations

import re

import scatter_core as sc

# capture runtime -> the runtime fact name it stands for (an OpenVINO IR's "reference" is OpenVINO's; an ONNX
# model on OpenVINO is read by its ONNX frontend and run by the CPU plugin: "openvino-onnx")
FACT_RUNTIME = {"reference": "onnx.reference", "onnxruntime": "onnxruntime", "openvino": "openvino-onnx"}
IR_FACT_RUNTIME = {"reference": "openvino-reference", "onnxruntime": "onnxruntime", "openvino": "openvino-cpu"}
CAPTURE_RUNTIMES = ("reference", "onnxruntime", "openvino")
# How each capture runtime is named, per model kind: (its name in a sentence; what else it runs, said in full; the
# runtime box's note on the choice). The messages, the bug report and the page's runtime box read this table.
RUNTIME_WORDS = {
    "onnx": {"reference": ("onnx.reference", "", "the spec's reference"),
             "onnxruntime": ("onnxruntime", "", ""),
             "openvino": ("OpenVINO CPU", "", "ONNX frontend")},
    # an OpenVINO IR's "reference" is OpenVINO's own reference kernels, for the scatter nodes only
    "openvino-ir": {"reference": ("OpenVINO reference kernels", "the scatter nodes; the CPU plugin runs the rest",
                                  "the CPU plugin runs the rest"),
                    "onnxruntime": ("onnxruntime", "", "ONNX models only"),
                    "openvino": ("OpenVINO CPU", "", "what ships")},
}
# The runtime a capture uses when none is chosen, first that can run the model: what gets deployed (an IR's CPU
# plugin; onnxruntime for an ONNX model where it is installed), then the spec's reference.
DEFAULT_ORDER = {"onnx": ("onnxruntime", "reference"), "openvino-ir": ("openvino",)}
MAX_NODES_NAMED = 3
# The newest ONNX IR version the pinned onnxruntime reads (1.31.1 refuses IR 14, which onnx 1.23's helper writes;
# tests/models/test_models_words.py checks it on the installed onnxruntime).
ORT_MAX_IR_VERSION = 13

_OV_UNCONVERTED = re.compile(r"No conversion rule found for operations:\s*([^\n]+)")
_OV_OP = re.compile(r"([A-Za-z_][\w.]*)-(\d+)")
_ORT_NO_KERNEL = re.compile(r"Could not find an implementation for (\w+)\((\d+)\) node with name '([^']*)'")
_ORT_RUN_REFUSED = re.compile(r"while running (\w+) node\. Name:'([^']*)' Status Message: ([^\n\x1b]+)")
_ORT_INVALID_NODE = re.compile(r"In Node, \(\"([^\"]*)\", (\w+), \"([^\"]*)\", -?\d+\)")


def _words(runtime: str, kind: str) -> tuple[str, str, str]:
    return RUNTIME_WORDS["onnx" if kind == "onnx" else "openvino-ir"].get(runtime, (runtime, "", ""))


def _with_note(name: str, note: str) -> str:
    return f"{name} ({note})" if note else name


def runtime_name(runtime: str, kind: str = "onnx") -> str:
    """A capture runtime as messages name it in full ("onnx.reference", "onnxruntime", "OpenVINO CPU"), for a model
    of ``kind`` ("onnx", or "openvino-ir": its "reference" is OpenVINO's reference kernels, for the scatter nodes).

    >>> runtime_name("openvino", "onnx"), runtime_name("reference", "openvino-ir")
    ('OpenVINO CPU', 'OpenVINO reference kernels (the scatter nodes; the CPU plugin runs the rest)')
    """
    name, detail, _ = _words(runtime, kind)
    return _with_note(name, detail)


def runtime_short(runtime: str, kind: str = "onnx") -> str:
    """The runtime's name alone, for a sentence a version in parentheses follows.

    >>> runtime_short("reference", "openvino-ir")
    'OpenVINO reference kernels'
    """
    return _words(runtime, kind)[0]


def runtime_choice(runtime: str, kind: str = "onnx", default: str | None = None) -> str:
    """The runtime as the runtime box offers it: its name and a note on the choice (``default``: the model's
    default runtime, marked as such).

    >>> runtime_choice("reference"), runtime_choice("openvino", "openvino-ir", default="openvino")
    ("onnx.reference (the spec's reference)", 'OpenVINO CPU (what ships, default)')
    """
    name, _, note = _words(runtime, kind)
    if runtime == default:
        note = f"{note}, default" if note else "default"
    return _with_note(name, note)


def default_runtime(model, available, problem) -> str:
    """The runtime a capture of ``model`` uses when none is chosen: the first of :data:`DEFAULT_ORDER` that is
    installed (``available(runtime)``) and can run the model (``problem(model, runtime)`` None); the spec's
    reference (an ONNX model) or the CPU plugin (an IR) when none can, whose refusal then says why."""
    order = DEFAULT_ORDER["onnx" if model.kind == "onnx" else "openvino-ir"]
    for runtime in order:
        if available(runtime) and problem(model, runtime) is None:
            return runtime
    return order[-1]


def fact_runtime(runtime: str, kind: str = "onnx") -> str | None:
    """The runtime fact name (``scatter_core.RUNTIME_NAMES``) a capture runtime stands for on a model of ``kind``."""
    return (FACT_RUNTIME if kind == "onnx" else IR_FACT_RUNTIME).get(runtime)


def blocking_facts(spec: sc.OpSpec, runtime: str) -> list[sc.Fact]:
    """The runtime facts saying ``runtime`` (a capture runtime, ONNX model) cannot run ``spec`` at all."""
    name = FACT_RUNTIME[runtime]
    return [f for f in sc.facts_for(spec.name) if f.topic == "runnable" and name in f.runtimes
            and f.status == "holds"]


def why_not(spec: sc.OpSpec, runtime: str) -> str | None:
    """Why capture runtime ``runtime`` cannot run an ONNX model holding ``spec`` (None when it can)."""
    if runtime == "reference":
        return None  # scatter_core stands in where onnx.reference has no kernel
    facts = blocking_facts(spec, runtime)
    if facts:
        return " ".join(f"{f.runtimes_label()} {f.text}." for f in facts)
    if runtime == "onnxruntime" and "onnxruntime" not in spec.runnable_on:
        notes = spec.note_text("deprecated")
        return f"onnxruntime does not run {spec.name}" + (f" ({notes})" if notes else "")
    return None


def runtimes_that_can(spec: sc.OpSpec, available) -> list[str]:
    """The capture runtimes that can run ``spec`` in an ONNX model, each marked when not installed."""
    out = []
    for runtime in CAPTURE_RUNTIMES:
        if why_not(spec, runtime) is None:
            extra = " (not installed)" if not available(runtime) else ""
            out.append(runtime_name(runtime) + extra)
    return out


def _join(words: list[str], last: str = "and") -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def node_problems(model, runtime: str, available) -> str | None:
    """Why ``runtime`` cannot run the scatter nodes of ONNX ``model`` (or the file: an IR version onnxruntime does
    not read), naming the nodes, the operator and the runtimes that can; None when nothing in the data says it
    cannot."""
    if model.kind != "onnx":
        return None
    if runtime == "onnxruntime" and (getattr(model, "ir_version", None) or 0) > ORT_MAX_IR_VERSION:
        return (f"onnxruntime reads ONNX IR versions up to {ORT_MAX_IR_VERSION}, and this model declares IR version "
                f"{model.ir_version}. Choose onnx.reference or OpenVINO CPU as the runtime, or save the model with "
                f"model.ir_version = {ORT_MAX_IR_VERSION} if it uses nothing newer.")
    if runtime == "reference":
        return None  # never refused from the data (see why_not)
    by_op: dict[str, list] = {}
    reasons: dict[str, str | None] = {}  # one look-up per operator version, not per node (10,000 nodes)
    for node in model.nodes:
        if node.spec is None:
            continue
        name = node.spec.name
        if name not in reasons:
            reasons[name] = why_not(node.spec, runtime)
        if reasons[name] is not None:
            by_op.setdefault(name, []).append(node)
    if not by_op:
        return None
    parts = []
    for op, nodes in by_op.items():
        named = ", ".join(f"{n.name!r} ({n.location})" for n in nodes[:MAX_NODES_NAMED])
        if len(nodes) > MAX_NODES_NAMED:
            named += f" and {len(nodes) - MAX_NODES_NAMED} more"
        can = runtimes_that_can(nodes[0].spec, available)
        parts.append(f"{runtime_name(runtime)} cannot run {op}, the operator of node"
                     f"{'s' if len(nodes) > 1 else ''} {named}: {reasons[op]} "
                     + (f"Choose {_join(can, 'or')} as the runtime to capture it." if can else
                        "No runtime of this page runs it."))
    return " ".join(parts)


def runs_openvino(model, runtime: str) -> bool:
    """Whether the capture runs on OpenVINO (an IR always does, its "reference" included)."""
    return runtime == "openvino" or model.kind != "onnx"


def unexposed_why(model, node, runtime: str) -> str | None:
    """Why ``runtime`` runs ``node`` but cannot capture it (None when it can): OpenVINO does not expose the
    tensors of a node inside a subgraph (an If, Loop or Scan body) as outputs."""
    if not (node.in_subgraph and runs_openvino(model, runtime)):
        return None
    other = " onnx.reference and onnxruntime capture it." if model.kind == "onnx" else ""
    return (f"{runtime_name(runtime) if model.kind == 'onnx' else 'OpenVINO'} cannot capture it: "
            f"it is inside a subgraph ({node.location}), and OpenVINO does not expose the tensors of a node in a "
            f"subgraph.{other}")


def unexposed_note(model, runtime: str) -> str | None:
    """Said before a capture: the scatter nodes ``runtime`` will run but cannot capture, and which runtimes can."""
    nodes = [n for n in model.nodes if unexposed_why(model, n, runtime)]
    if not nodes:
        return None
    named = ", ".join(f"{n.name!r}" for n in nodes[:MAX_NODES_NAMED])
    if len(nodes) > MAX_NODES_NAMED:
        named += f" and {len(nodes) - MAX_NODES_NAMED} more"
    other = (" Choose onnx.reference or onnxruntime as the runtime to capture "
             + ("them." if len(nodes) > 1 else "it.")) if model.kind == "onnx" else ""
    return (f"{runtime_name(runtime) if model.kind == 'onnx' else 'OpenVINO'} will not capture node"
            f"{'s' if len(nodes) > 1 else ''} {named}: inside a subgraph (an If, Loop or Scan body), OpenVINO does "
            f"not expose a node's tensors.{other}")


def _nodes_of_type(model, op_type: str) -> list:
    return [n for n in model.nodes if n.op_type == op_type]


def explain_load_error(model, runtime: str, error: str) -> str | None:
    """A runtime's refusal to load ``model`` (its message ``error``) in plain words: which op (and node) it
    has no conversion rule or kernel for, and which runtimes can run it; None when the message says no op."""
    name = runtime_name(runtime, model.kind)
    found = _OV_UNCONVERTED.search(error or "")
    if runtime == "openvino" and found:
        ops = _OV_OP.findall(found.group(1))
        if ops:
            words, can = [], None
            for op_type, version in ops:
                nodes = _nodes_of_type(model, op_type)  # a scatter node is named; another op only by its type
                where = (" (node " + ", ".join(f"{n.name!r}" for n in nodes[:MAX_NODES_NAMED]) + ")") if nodes \
                    else ""
                words.append(f"{op_type}-{version}{where}")
                for n in nodes:
                    if n.spec is not None:
                        mine = [r for r in runtimes_that_can(n.spec, lambda r: True) if "OpenVINO" not in r]
                        can = mine if can is None else [r for r in can if r in mine]
            advice = (f"Choose {_join(can, 'or')} as the runtime." if can else
                      "Try onnx.reference or onnxruntime as the runtime.")
            return (f"{name} cannot load this model: OpenVINO's ONNX frontend has no conversion rule for "
                    f"{_join(words)}. {advice}")
    found = _ORT_NO_KERNEL.search(error or "")
    if runtime == "onnxruntime" and found:
        op_type, version, node = found.groups()
        return (f"{name} cannot run this model: it has no kernel for {op_type} at opset {version} (node "
                f"{node!r}). Choose onnx.reference as the runtime"
                + (", or OpenVINO CPU" if model.kind == "onnx" else "") + ".")
    found = _ORT_RUN_REFUSED.search(error or "")
    if runtime == "onnxruntime" and found:
        op_type, node, why = found.groups()
        return (f"{name} refused to run node {node!r} ({op_type}): {why.strip()[:300]} Choose onnx.reference as the "
                f"runtime" + (", or OpenVINO CPU" if model.kind == "onnx" else "") + ".")
    found = _ORT_INVALID_NODE.search(error or "")
    if runtime == "onnxruntime" and found:
        node, op_type, domain = found.groups()
        return (f"{name} refuses this model at node {node!r} ({op_type}"
                + (f", domain {domain!r}" if domain else "") + f"): {plain(error, 300)}. Choose onnx.reference "
                "as the runtime.")
    return None


def plain(error: str, limit: int = 600) -> str:
    """A runtime's message without the source locations and tracebacks it carries, on one line."""
    lines = [ln.strip() for ln in str(error or "").splitlines() if ln.strip()]
    useful = [ln for ln in lines if not re.match(r"(\w+: )?(Exception from src|Check '|File \"|Traceback|\^)", ln)
              and not re.search(r"\.(cpp|hpp|cc|h):\d+", ln)]
    text = " ".join(useful or lines[:1])
    return text if len(text) <= limit else text[:limit] + " …"
