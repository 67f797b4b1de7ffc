"""The capture's child process: ``python -m scatter_models.worker DIR``.

Reads ``DIR/request.json``, the model and the feeds (``DIR/feeds.bin``, :mod:`scatter_models.tensor_file`: no
pickles); runs the model once on the chosen runtime and writes every scatter node's first-call inputs and
output to ``DIR/captured.bin`` and what happened to ``DIR/result.json``. The parent
(:mod:`scatter_models.capture`) watches its time and memory.

* ``reference``: onnx.reference with the scatter kernels wrapped (each call checked by scatter_core first);
* ``onnxruntime``: the nodes' tensors as extra graph outputs (a subgraph's lifted out by
  :mod:`scatter_models.lift`), one run of the whole model; only where that is impossible, the node alone;
* ``openvino``: the nodes' ports as extra model outputs.

Each runtime's path in full: docs/architecture.md, scatter_models/worker.py.
"""

from __future__ import annotations

import importlib.util
import json
import os
import select
import sys
import traceback
from pathlib import Path

import numpy as np

import scatter_core as sc
from scatter_models import tensor_file

MAX_MESSAGE = 3000
_ACTIVE: dict = {}  # the run in progress: "recorder" and "wanted" (the wrapped kernels read it)
# A serving worker (--serve) keeps the last model it parsed (its nodes renamed to their keys) and its
# onnx.reference evaluator, onnxruntime session and OpenVINO compiled model, so capturing the same model
# again skips parsing, building and compiling.
_HELD: dict = {"digest": None, "payload": None, "model": None, "evaluator": None, "onnxruntime": None,
               "openvino": None, "loops_given_a_condition": 0}


class Stop(Exception):
    """A wanted node's inputs break a rule of its operator: the run stops there."""

    def __init__(self, key: str, error: sc.ScatterError):
        super().__init__(str(error))
        self.key = key
        self.error = error


class Recorder:
    def __init__(self, wanted: dict):
        self.wanted = wanted  # key -> {"op": versioned name, "attrs": {...}}
        self.first: dict = {}  # key -> (inputs tuple, output)
        self.calls: dict = {}
        self.source: dict = {}

    def check(self, key: str, args) -> None:
        info = self.wanted[key]
        spec = sc.get_spec(info["op"])
        roles = {i.role: np.asarray(a) for i, a in zip(spec.inputs, args)}
        extra = list(args[len(spec.inputs):])
        attrs = {k: v for k, v in info["attrs"].items() if spec.attribute(k) is not None}
        for a, value in zip([a for a in spec.attributes if a.is_input], extra):
            attrs[a.name] = value
        try:
            sc.case(spec, roles.get("data"), roles.get("indices"), roles.get("updates"), **attrs)
        except sc.ScatterError as exc:
            raise Stop(key, exc) from None

    def record(self, key: str, args, output, source: str) -> None:
        if output is None:
            return
        self.calls[key] = self.calls.get(key, 0) + 1
        if key not in self.first:
            self.first[key] = (tuple(None if a is None else np.array(a) for a in args), np.array(output))
            self.source[key] = source


def _stand_in_output(info: dict, args) -> np.ndarray:
    spec = sc.get_spec(info["op"])
    roles = {i.role: np.asarray(a) for i, a in zip(spec.inputs, args)}
    attrs = {k: v for k, v in info["attrs"].items() if spec.attribute(k) is not None}
    return sc.scatter(spec, roles.get("data"), roles.get("indices"), roles.get("updates"), **attrs)


def run_reference(model, feeds: dict, recorder: Recorder, wanted_keys=None):
    """onnx.reference with the scatter kernels wrapped (in this child process only)."""
    from onnx.reference import ReferenceEvaluator
    from onnx.reference.op_run import OpRun
    from onnx.reference.ops import load_op

    wanted = recorder.wanted if wanted_keys is None else {k: recorder.wanted[k] for k in wanted_keys}
    _ACTIVE.update(recorder=recorder, wanted=wanted)
    op_types = {sc.get_spec(info["op"]).op_type for info in recorder.wanted.values()}
    new_ops = []
    for op_type in sorted(op_types):
        kernel = None
        try:
            kernel = load_op("", op_type, 10 ** 4)
        except Exception:  # noqa: BLE001 - no kernel at any opset: scatter_core stands in
            kernel = None
        if kernel is not None and not getattr(kernel, "_scatter_models_wrapped", False):
            original = kernel._run

            def wrapped(self, *args, _original=original, **kwargs):
                key, active = self.onnx_node.name, _ACTIVE["recorder"]
                if key in _ACTIVE["wanted"]:
                    active.check(key, args)
                    out = _original(self, *args, **kwargs)
                    active.record(key, args, out[0], _reference_source())
                    return out
                return _original(self, *args, **kwargs)

            kernel._run = wrapped
            kernel._scatter_models_wrapped = True
        elif kernel is None:
            def stand_in(self, *args, **kwargs):  # noqa: ARG001 - attributes come from the listing
                key, active = self.onnx_node.name, _ACTIVE["recorder"]
                info = active.wanted[key]
                active.check(key, args)
                out = _stand_in_output(info, args)
                if key in _ACTIVE["wanted"]:
                    active.record(key, args, out, f"scatter_core (onnx.reference has no {self.onnx_node.op_type} "
                                                  f"kernel)")
                return (out,)

            new_ops.append(type(op_type, (OpRun,), {"op_domain": "", "_run": stand_in}))
    if model is _HELD["model"] and _HELD["evaluator"] is not None:
        evaluator = _HELD["evaluator"]
    else:
        evaluator = ReferenceEvaluator(model, new_ops=new_ops or None)
        if model is _HELD["model"]:
            _HELD["evaluator"] = evaluator
    if feeds is None:  # a prepare job: the evaluator is built and held, nothing runs
        return None
    with np.errstate(all="ignore"):
        return evaluator.run(None, feeds)


def _onnx_nodes(model, keys: list):
    """(key, NodeProto, RawNode) for each scatter node, in the listing's order."""
    from scatter_models.onnx_file import list_scatter_nodes

    listing = list_scatter_nodes(model)
    if len(listing.nodes) != len(keys):
        raise RuntimeError(f"the worker found {len(listing.nodes)} scatter nodes, the listing {len(keys)}")
    return [(k, r.node, r) for k, r in zip(keys, listing.nodes)]


class LiftFailed(Exception):
    """onnxruntime refused the model rewritten to lift subgraph tensors out: run it without the rewrite."""


def prepare_onnxruntime(model, nodes: list, request: dict, lift: bool = True, why: str | None = None) -> dict:
    """The main graph's scatter nodes' tensors as extra graph outputs; a node inside an If, Loop or Scan body
    or a local function has its tensors lifted out to extra graph outputs (:mod:`scatter_models.lift`: functions
    inlined, Loop/Scan values as extra scan outputs, one slice per iteration, If values beside an empty
    placeholder in the other branch), so the one run of the whole model gives them. Returns the session and
    what to read from its outputs; ``inner``: the keys left to a reference run and a run of the node alone
    (where the rewrite is impossible, or ``lift`` is False), ``why``: the reason for each. ``model`` is
    changed. Raises :class:`LiftFailed` when onnxruntime refuses the rewritten model."""
    import onnx
    import onnxruntime as ort
    from onnx import helper

    from scatter_models.lift import lift_nodes
    from scatter_models.onnx_file import constant_node_tensor

    top_keys = [k for k, n, raw in nodes if not raw.in_subgraph and not raw.in_function]
    deep = [(k, raw) for k, n, raw in nodes if raw.in_subgraph or raw.in_function]
    plans, reasons, inlined = {}, {}, False
    if deep and lift:
        plans, reasons, inlined = lift_nodes(model, [k for k, _ in deep], any(r.in_function for _, r in deep))
    elif deep:
        reasons = {k: why or "the rewrite was not tried" for k, _ in deep}
    inner = [k for k, _ in deep if k not in plans]
    graph = model.graph
    by_name = {n.name: n for n in graph.node}  # looked up again: inlining rebuilt the model
    top = [(k, by_name[k]) for k in top_keys if k in by_name]
    consts = {t.name: t for t in graph.initializer}
    for node in graph.node:
        if node.op_type == "Constant" and len(node.output) == 1 and (node.domain or "") in ("", "ai.onnx"):
            t = constant_node_tensor(node)
            if t is not None:
                consts.setdefault(node.output[0], t)
    present = {o.name for o in graph.output}
    inputs = {i.name for i in graph.input}
    types = request.get("types", {})

    def expose(name: str, elem: int = 0) -> None:
        if name and name not in present and name not in inputs and name not in consts:
            elem = elem or types.get(name, (0, None))[0]
            shape = types.get(name, (0, None))[1]
            graph.output.append(helper.make_tensor_value_info(name, elem, shape) if elem
                                else onnx.ValueInfoProto(name=name))
            present.add(name)

    for key, node in top:
        for name in list(node.input) + [node.output[0]]:
            expose(name)
    wanted = {name for _, node in top for name in node.input}
    for instances in plans.values():
        for inst in instances:
            for lifted in [v for v in inst.inputs if v is not None] + [inst.output] + list(inst.flags):
                expose(lifted.name)
                wanted.add(lifted.name)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.intra_op_num_threads = 1
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    except Exception as exc:
        if plans:
            raise LiftFailed(f"onnxruntime refused the model rewritten to lift the node's tensors out: "
                             f"{_first_line(exc)}") from None
        raise
    where = {k: request["nodes"].get(k, {}).get("where") or "a subgraph" for k, _ in deep}
    return {"session": session, "inner": inner, "why": reasons, "inlined": inlined,
            "top": [(key, list(node.input), node.output[0]) for key, node in top], "lifted": plans,
            "where": where, "consts": {name: onnx.numpy_helper.to_array(t) for name, t in consts.items()
                                       if name in wanted}}


def _first_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split("\n")[0].split())
    return text[:300] or type(exc).__name__


def lifted_source(where: str, instance, calls: int, inlined: bool) -> str:
    """How a lifted node's output was obtained, in words."""
    parts = []
    if inlined and "function" in where:
        parts.append("its local function inlined")
    if any(k in ("Loop", "Scan") for k in instance.kinds):
        parts.append(f"out of each Loop or Scan body as an extra scan output (one slice per iteration: the first "
                     f"of the {calls} call{'s' if calls != 1 else ''} is recorded)")
    if "If" in instance.kinds:
        parts.append("out of the If branch beside an empty placeholder in the other branch")
    how = ("; ".join(parts)) or "as extra model outputs"
    return (f"onnxruntime, running the whole model once, rewritten so that the node's tensors leave {where} as "
            f"model outputs ({how})")


def run_onnxruntime(prepared: dict, feeds: dict, recorder: Recorder) -> list:
    """One run of a prepared session; records every node it exposes; returns the keys left to onnx.reference."""
    from scatter_models.lift import read_calls

    session = prepared["session"]
    names = [o.name for o in session.get_outputs()]
    values = dict(zip(names, session.run(None, feeds)))
    values.update(feeds)
    for name, arr in prepared["consts"].items():
        values.setdefault(name, arr)
    for key, inputs, output in prepared["top"]:
        args = [values.get(name) if name else None for name in inputs]
        recorder.record(key, args, values[output], "onnxruntime")
    for key, instances in prepared.get("lifted", {}).items():
        total, first = 0, None
        for inst in instances:  # an inlined function called more than once: each call site, in graph order
            calls, args, out = read_calls(inst, values)
            total += calls
            if calls and first is None:
                first = (inst, args, out)
        if first is not None:
            inst, args, out = first
            recorder.record(key, args, out, lifted_source(prepared["where"][key], inst, total, prepared["inlined"]))
            recorder.calls[key] = total
    return prepared["inner"]


def run_alone_on_onnxruntime(recorder: Recorder, keys: list, why: dict | None = None) -> None:
    """Nodes whose tensors the rewrite could not lift out of their subgraph or function (``why``: the reason
    for each): onnx.reference captured the inputs each received (first call); here onnxruntime runs each node
    alone on those inputs, and its output becomes the record's. Where onnxruntime refuses the node alone, the
    reference's output stays and the source says why."""
    import runtime_check as rc

    for key in keys:
        if key not in recorder.first:
            continue
        args, _ = recorder.first[key]
        info = recorder.wanted[key]
        spec = sc.get_spec(info["op"])
        roles = {i.role: a for i, a in zip(spec.inputs, args)}
        attrs = {k: v for k, v in info["attrs"].items() if spec.attribute(k) is not None}
        where = info.get("where") or "a subgraph"
        reason = (why or {}).get(key) or "the rewrite is not possible"
        res = rc.run("onnxruntime", spec.name, roles.get("data"), roles.get("indices"), roles.get("updates"), **attrs)
        if res.ok:
            recorder.first[key] = (args, np.asarray(res.output))
            recorder.source[key] = (f"onnxruntime, running the node alone on the inputs it received in {where} "
                                    f"(captured by onnx.reference: the node's tensors could not be lifted out of "
                                    f"it for onnxruntime's run of the whole model: {reason})")
        else:  # the reference's own source stays first (scatter_core where it stood in)
            recorder.source[key] = (f"{recorder.source.get(key, 'onnx.reference')} (the node is in {where}, whose "
                                    f"tensors could not be lifted out for onnxruntime ({reason}), and onnxruntime "
                                    f"refused to run it alone: {str(res.error).splitlines()[0][:300]})")


def prepare_openvino(request: dict, directory: Path, wanted: dict) -> dict:
    """The model read and compiled on OpenVINO's CPU plugin, the scatter nodes' input and output ports as extra
    model outputs, and the plan to read them back: built once per model and held (``_HELD["openvino"]``)."""
    import openvino as ov

    core = ov.Core()
    if request["kind"] == "onnx":
        model = core.read_model(str(directory / "model.onnx"))
    else:
        model = core.read_model(str(directory / "model.xml"), str(directory / "model.bin"))
    ops = {op.get_friendly_name(): op for op in model.get_ops()}
    by_tensor = {}
    for op in model.get_ops():
        if op.get_type_name() == "Result":
            continue
        for out in op.outputs():
            for name in out.get_names():
                by_tensor.setdefault(name, out)
    plan = []  # (key, slots): per input and the output, ("const", array) | ("out", port) | ("missing", None)
    extra = []
    for key, info in wanted.items():
        if request["kind"] == "onnx":
            outs = [by_tensor.get(n) if n else None for n in info["inputs"] + [info["output"]]]
        else:
            op = ops.get(info["original"])
            if op is None:
                raise RuntimeError(f"OpenVINO did not keep layer {info['original']!r}")
            outs = [op.input_value(i) for i in range(op.get_input_size())] + [op.output(0)]
        slots = []
        for out in outs:
            if out is None:
                slots.append(("missing", None))
                continue
            node = out.get_node()
            if node.get_type_name() == "Constant":
                slots.append(("const", np.array(node.get_data())))
            else:
                port = (node.get_friendly_name(), out.get_index())
                slots.append(("out", port))
                extra.append(out)
        plan.append((key, slots))
    if extra:
        model.add_outputs(extra)
    position = {}
    for i, res in enumerate(model.get_results()):
        src = res.input_value(0)
        position.setdefault((src.get_node().get_friendly_name(), src.get_index()), i)
    compiled = core.compile_model(model, "CPU")
    ports = [(port, sorted(port.get_names()), port.get_node().get_friendly_name()) for port in compiled.inputs]
    return {"compiled": compiled, "request": compiled.create_infer_request(), "plan": plan, "position": position,
            "ports": ports}


def run_openvino(request: dict, directory: Path, feeds: dict, recorder: Recorder, nodes_by_layer: dict):
    """One run on the held compiled model (compiled first when the worker does not hold it for this model)."""
    prepared = _held_openvino(request, directory, recorder.wanted)
    compiled = prepared["compiled"]
    feed_by_port = {}
    for port, names, friendly in prepared["ports"]:
        for name in names:
            if name in feeds:
                feed_by_port[port] = feeds[name]
        if port not in feed_by_port and friendly in feeds:
            feed_by_port[port] = feeds[friendly]
    result = prepared["request"].infer(feed_by_port)
    values = [np.array(result[compiled.outputs[i]]) for i in range(len(compiled.outputs))]
    position = prepared["position"]
    for key, slots in prepared["plan"]:
        arrays = []
        for kind, value in slots:
            arrays.append(value if kind == "const" else values[position[value]] if kind == "out" else None)
        if arrays[-1] is not None and arrays[0] is not None:
            recorder.record(key, arrays[:-1], arrays[-1], "OpenVINO CPU")
    return []


def _held_openvino(request: dict, directory: Path, wanted: dict) -> dict:
    """The compiled model for the held model: compiled once per model (from the job's files) and held."""
    if _HELD.get("openvino") is None:
        _HELD["openvino"] = prepare_openvino(request, directory, wanted)
    return _HELD["openvino"]


def _openvino_reference_outputs(recorder: Recorder) -> None:
    """IR with runtime "reference": each node's output recomputed by OpenVINO's reference kernel
    (``Node.evaluate``, through runtime_check) on the inputs the CPU plugin gave it."""
    import runtime_check as rc

    for key, (args, out) in list(recorder.first.items()):
        info = recorder.wanted[key]
        spec = sc.get_spec(info["op"])
        roles = {i.role: a for i, a in zip(spec.inputs, args)}
        attrs = {k: v for k, v in info["attrs"].items() if spec.attribute(k) is not None}
        for a, value in zip([a for a in spec.attributes if a.is_input], args[len(spec.inputs):]):
            attrs[a.name] = value
        res = rc.run("openvino-reference", spec.name, roles.get("data"), roles.get("indices"), roles.get("updates"),
                     **attrs)
        if res.ok:
            recorder.first[key] = (args, np.asarray(res.output))
            recorder.source[key] = "OpenVINO reference kernel (Node.evaluate) on the inputs the CPU plugin gave"
        else:
            recorder.source[key] = f"OpenVINO CPU (the reference kernel refused: {res.error})"


class _Prepared(Exception):
    """A prepare job has built what a capture of its model will need: nothing runs."""


def _held_onnxruntime(request: dict, keys: list) -> dict:
    """The onnxruntime session for the held model, with the scatter nodes' tensors as extra outputs: built once
    per model and held."""
    import onnx

    prepared = _HELD.get("onnxruntime")
    if prepared is None:
        if appendable(request) and _HELD["payload"] is not None:
            prepared = prepare_onnxruntime_appended(_HELD["payload"], request)
        else:
            copy = onnx.ModelProto()  # the session's model gets extra outputs; the held one stays
            copy.CopyFrom(_onnx_model(keys))
            try:
                prepared = prepare_onnxruntime(copy, _onnx_nodes(copy, keys), request)
            except LiftFailed as failed:
                prepared = _plain_session(request, keys, str(failed))
        _HELD["onnxruntime"] = prepared
    return prepared


def _plain_session(request: dict, keys: list, why: str) -> dict:
    """The session for the model as it is (no subgraph value lifted out): its subgraph nodes run alone, ``why``."""
    import onnx

    copy = onnx.ModelProto()  # the session's model gets extra outputs; the held one stays
    copy.CopyFrom(_onnx_model(keys))
    return prepare_onnxruntime(copy, _onnx_nodes(copy, keys), request, lift=False, why=why)


def main(argv: list[str]) -> int:
    """Run the job in the folder ``argv[0]``: capture the scatter nodes of its model on its feeds, and write
    ``result.json`` (and the captured tensors, ``captured.bin``). A *prepare* job (``"prepare": true`` in its
    request, no feeds) only takes the model and builds the evaluator, session or compiled model a capture of
    it will use, so that a warm worker has it ready before the user asks (:func:`scatter_models.prewarm`)."""
    directory = Path(argv[0])
    request = json.loads((directory / "request.json").read_text(encoding="utf-8"))
    feeds = None if request.get("prepare") else tensor_file.read(directory / "feeds.bin", request["feeds"])
    recorder = Recorder({k: v for k, v in request["nodes"].items()})
    keys = list(request.get("keys") or request["nodes"])
    answer = {"ok": True, "error": None, "node": None, "rule": None, "version": None}
    runtime = request["runtime"]
    try:
        _take_payload(directory, request)
        if runtime == "reference" and request["kind"] == "onnx":
            import onnx

            answer["version"] = f"onnx {onnx.__version__}"
            run_reference(_onnx_model(keys), feeds, recorder)
        elif runtime == "onnxruntime":
            import onnxruntime

            answer["version"] = f"onnxruntime {onnxruntime.__version__}"
            try:
                prepared = _held_onnxruntime(request, keys)
                if feeds is None:  # a prepare job
                    raise _Prepared
                try:
                    inner = run_onnxruntime(prepared, feeds, recorder)
                except Stop:
                    raise
                except Exception as exc:
                    if not prepared.get("lifted"):
                        raise
                    # the rewritten model failed on these inputs (a Loop whose If branches alternate gives
                    # scan outputs of different shapes): the model as it is, the subgraph nodes run alone. The
                    # rewritten session stays held: other inputs may run on it.
                    prepared = _plain_session(request, keys, "onnxruntime's run of the model rewritten to lift "
                                              f"them failed: {_first_line(exc)}")
                    inner = run_onnxruntime(prepared, feeds, recorder)
            except (Stop, _Prepared):
                raise
            except Exception:
                if feeds is not None:
                    _locate_invalid(_onnx_model(keys), feeds, recorder)
                raise
            if inner:
                run_reference(_onnx_model(keys), feeds, recorder, wanted_keys=inner)
                run_alone_on_onnxruntime(recorder, inner, prepared.get("why"))
        else:  # openvino (and an IR's "reference")
            import openvino

            answer["version"] = f"openvino {openvino.__version__}"
            if feeds is None:  # a prepare job: the compiled model is built and held
                _held_openvino(request, directory, recorder.wanted)
                if request["kind"] == "onnx" and importlib.util.find_spec("onnxruntime") is not None:
                    try:  # and the session that checks the inputs before OpenVINO runs (_locate_invalid_first)
                        _held_onnxruntime(request, keys)
                    except Exception:  # noqa: BLE001 - the capture falls back to the reference run
                        pass
                raise _Prepared
            if request["kind"] == "onnx":
                _locate_invalid_first(request, keys, feeds, recorder)
            run_openvino(request, directory, feeds, recorder, {})
            if request["kind"] != "onnx" and runtime == "reference":
                _openvino_reference_outputs(recorder)
    except _Prepared:
        pass
    except Stop as stop:
        answer.update(ok=False, node=stop.key, rule=stop.error.rule or "invalid",
                      error=str(stop.error)[:MAX_MESSAGE])
    except Exception as exc:  # noqa: BLE001 - the runtime's own refusal, reported as it said it
        text = f"{type(exc).__name__}: {exc}".strip()
        answer.update(ok=False, rule="runtime-error", error=text[:MAX_MESSAGE],
                      trace=traceback.format_exc()[-MAX_MESSAGE:])
    arrays = {}
    meta = {}
    for i, key in enumerate(keys):
        if key not in recorder.first:
            continue
        args, out = recorder.first[key]
        fed = _fed_inputs(request, key, args, feeds)
        for j, a in enumerate(args):
            if a is not None and j not in fed:
                arrays[f"n{i}_in{j}"] = np.ascontiguousarray(a)
        arrays[f"n{i}_out"] = np.ascontiguousarray(out)
        meta[key] = {"index": i, "inputs": len(args), "calls": recorder.calls.get(key, 0),
                     "source": recorder.source.get(key, runtime), "fed": fed}
    answer["held"] = held_runtimes()
    answer["tensors"] = tensor_file.write(directory / "captured.bin", arrays) if arrays else []
    answer["captured"] = meta
    tmp = directory / "result.json.tmp"
    tmp.write_text(json.dumps(answer), encoding="utf-8")
    tmp.replace(directory / "result.json")
    return 0


def _fed_inputs(request: dict, key: str, args, feeds: dict) -> dict:
    """Input position -> model input name, for the inputs of a main-graph node that are the model's inputs as
    fed: the parent holds those arrays already, so they are not written back (a KV cache is most of a
    capture's bytes)."""
    info = request["nodes"][key]
    if request["kind"] != "onnx" or info.get("where") != "main graph":
        return {}
    out = {}
    for j, (name, a) in enumerate(zip(info["inputs"], args)):
        fed = feeds.get(name)
        if a is not None and fed is not None and a.shape == fed.shape and a.dtype == fed.dtype:
            out[j] = name
    return out


def _take_payload(directory: Path, request: dict) -> None:
    """Hold this request's model: when the parent sent a model other than the one held (``model.onnx``, or an
    IR's ``model.xml``), what was held is dropped and an ONNX model's bytes are kept; when it sent the held
    one again (OpenVINO compiles from the files), what is held stays; when it sent none, the model held must
    be this one (the parent sends none when the digest matches)."""
    path = directory / ("model.onnx" if request["kind"] == "onnx" else "model.xml")
    digest = request.get("model_digest")
    if path.exists():
        if digest and digest == _HELD["digest"]:
            return
        _HELD.update(digest=digest, payload=path.read_bytes() if request["kind"] == "onnx" else None, model=None,
                     evaluator=None, onnxruntime=None, openvino=None, loops_given_a_condition=0)
    elif not digest or _HELD["digest"] != digest:
        raise RuntimeError("the worker was sent no model and holds another one")


def held_runtimes() -> list:
    """What the worker holds built for its model: "reference" (the evaluator), "onnxruntime" (the session),
    "openvino" (the compiled model); the parent sends the model's files again only for what is not held."""
    return [name for name, slot in (("reference", "evaluator"), ("onnxruntime", "onnxruntime"),
                                    ("openvino", "openvino")) if _HELD.get(slot) is not None]


def _onnx_model(keys: list):
    """The held model parsed, its scatter nodes renamed to their keys (parsed once, on first need: an
    onnxruntime capture of main-graph nodes never needs it)."""
    import onnx

    if _HELD["model"] is None:
        model = onnx.load_model_from_string(_HELD["payload"])
        for key, node, _ in _onnx_nodes(model, keys):
            node.name = key
        given = give_loops_a_condition(model)
        _HELD.update(model=model, payload=None, loops_given_a_condition=given)  # the bytes are let go
    return _HELD["model"]


LOOP_CONDITION_FACT = "onnx-ref-loop-without-condition"


def give_loops_a_condition(model) -> int:
    """Give every Loop whose condition input is left out (in any graph, subgraph or local function) a constant
    true one, which the ONNX spec treats as the same: onnx.reference would run none of its iterations
    (``scatter_core.FACT_BY_ID[LOOP_CONDITION_FACT]``). Returns how many Loops were changed."""
    from onnx import TensorProto, helper

    changed = 0

    def nodes_list(nodes, owner: str) -> None:
        nonlocal changed
        i = 0
        while i < len(nodes):
            node = nodes[i]
            for a in node.attribute:  # subgraphs first: their own Loops
                for g in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                    nodes_list(g.node, owner)
            if node.op_type == "Loop" and node.domain in ("", "ai.onnx") and (
                    len(node.input) < 2 or not node.input[1]):
                name = f"{owner}__loop_condition_{changed}"
                while len(node.input) < 2:
                    node.input.append("")
                node.input[1] = name
                nodes.insert(i, helper.make_node("Constant", [], [name], name=name,
                                                 value=helper.make_tensor(name, TensorProto.BOOL, [], [True])))
                changed += 1
                i += 1
            i += 1

    nodes_list(model.graph.node, "scatter_models")
    for function in model.functions:
        nodes_list(function.node, f"scatter_models_{function.name}")
    return changed


def _reference_source() -> str:
    """How a node's output from onnx.reference is described: with what was changed for it to run."""
    given = _HELD.get("loops_given_a_condition") or 0
    if not given:
        return "onnx.reference"
    fact = sc.FACT_BY_ID[LOOP_CONDITION_FACT]
    return (f"onnx.reference, with {given} Loop{'s' if given > 1 else ''} whose condition input was left out given "
            f"a constant true one, the same by the spec ({fact.runtimes_label()} {fact.text.split(';')[0]})")


def appendable(request: dict) -> bool:
    """Whether onnxruntime can run the model as sent plus extra graph outputs appended to its bytes: every
    scatter node in the main graph, each constant input small enough that the parent holds its values."""
    return request["kind"] == "onnx" and bool(request["nodes"]) and all(
        info.get("where") == "main graph" and info.get("consts_known") for info in request["nodes"].values())


def prepare_onnxruntime_appended(payload: bytes, request: dict) -> dict:
    """The session for a model whose scatter nodes are all in the main graph, without parsing the model: the
    nodes' tensors become extra graph outputs by appending a serialized ``ModelProto`` holding only those
    outputs to the model's bytes (protobuf merges a message read twice: repeated fields append), so the
    model is never parsed, copied or serialised again here. Constant inputs are left out (the parent fills
    them from the listing), as are the model's inputs and outputs."""
    import onnx
    import onnxruntime as ort
    from onnx import helper

    skip = set(request["feed_names"]) | set(request.get("graph_outputs", ()))
    types = request.get("types", {})
    extra, top = [], []
    for key, info in request["nodes"].items():
        consts = set(info.get("consts", ()))
        for pos, name in enumerate(list(info["inputs"]) + [info["output"]]):
            if name and name not in skip and pos not in consts:
                skip.add(name)
                extra.append(name)
        top.append((key, [None if pos in consts else name for pos, name in enumerate(info["inputs"])],
                    info["output"]))
    fragment = onnx.ModelProto()
    for name in extra:
        elem, shape = types.get(name, (0, None))
        fragment.graph.output.append(helper.make_tensor_value_info(name, elem, shape) if elem
                                     else onnx.ValueInfoProto(name=name))
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(payload + fragment.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    return {"session": session, "inner": [], "top": top, "lifted": {}, "consts": {}}


def _import_onnxruntime():
    import onnxruntime  # noqa: F401


def _import_openvino():
    import openvino  # noqa: F401


def serve() -> int:
    """``--serve``: a warm worker. Each line on stdin names a job directory; the answer is the directory's
    result.json, as for a one-shot run. The parent watches time and memory and kills it when they run out."""
    import onnx.reference  # noqa: F401 - imported once, before the first job

    import scatter_models.onnx_file  # noqa: F401

    # the runtime the user chose: its import is paid before the job (a fixed table: nothing named by the
    # environment is imported)
    preload = {"onnxruntime": _import_onnxruntime, "openvino": _import_openvino}.get(
        os.environ.get("SCATTER_MODELS_WORKER_PRELOAD", ""))
    if preload is not None:
        try:
            preload()
        except ImportError:
            pass

    idle = float(os.environ.get("SCATTER_MODELS_WORKER_IDLE", "180"))
    # stdout is the parent's "job done" signal (a line per job); what runtimes print goes to stderr instead
    notify = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    while True:
        ready, _, _ = select.select([sys.stdin], [], [], idle)
        if not ready:  # idle: give the model and the imports' memory back; the next capture starts another
            return 0
        line = sys.stdin.readline()
        if not line:  # the parent is gone
            return 0
        directory = line.strip()
        if not directory:
            continue
        try:
            main([directory])
        except Exception as exc:  # noqa: BLE001 - an unreadable job still gets an answer
            answer = {"ok": False, "rule": "worker-error", "error": f"{type(exc).__name__}: {exc}"[:MAX_MESSAGE],
                      "captured": {}}
            tmp = Path(directory) / "result.json.tmp"
            tmp.write_text(json.dumps(answer), encoding="utf-8")
            tmp.replace(Path(directory) / "result.json")
        try:
            notify.write("\n")
            notify.flush()
        except OSError:  # the parent is gone
            return 0


def _locate_invalid(model, feeds, recorder: Recorder) -> None:
    """After a runtime refused the run: a reference run finds the node whose inputs break a rule (raises Stop)."""
    probe = Recorder(recorder.wanted)
    try:
        run_reference(model, feeds, probe)
    except Stop:
        raise
    except Exception:  # noqa: BLE001 - not a scatter node's fault: the runtime's own error stands
        return


def _locate_invalid_first(request: dict, keys: list, feeds, recorder: Recorder) -> None:
    """Before OpenVINO runs an ONNX model (its CPU plugin may crash on a bad index): a run that stops at a node
    whose inputs break a rule. onnxruntime's held session where it is installed (it refuses an index out of range
    itself, and each scatter node's recorded inputs are checked by the same rules), at a tenth of a reference
    run's cost; else, or where onnxruntime cannot run the model, the reference run (it checks every call)."""
    if importlib.util.find_spec("onnxruntime") is not None:
        probe = Recorder(recorder.wanted)
        try:
            inner = run_onnxruntime(_held_onnxruntime(request, keys), feeds, probe)
        except Exception:  # noqa: BLE001 - refused, or cannot run it: the reference run finds the node, or not
            inner = None
        if inner == []:  # every scatter node exposed and recorded: check what each received
            for key, (args, _) in probe.first.items():
                recorder.check(key, args)
            return
    _locate_invalid(_onnx_model(keys), feeds, recorder)


if __name__ == "__main__":
    sys.exit(serve() if sys.argv[1:] == ["--serve"] else main(sys.argv[1:]))
