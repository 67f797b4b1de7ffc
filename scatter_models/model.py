"""``open_model`` and the :class:`Model` it returns: the scatter nodes and declared inputs of a model file."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import scatter_core as sc

from . import ir_file, onnx_file, proofs, static
from .errors import ModelError
from .limits import max_model_bytes


@dataclass(frozen=True)
class ModelInput:
    """A declared model input: ``name``, numpy ``dtype`` name (None when not a numpy type) and ``shape``
    (ints, symbolic dims as strings; None when the model gives no shape)."""

    name: str
    dtype: str | None
    shape: tuple | None

    @property
    def symbolic(self) -> tuple[str, ...]:
        return tuple(d for d in (self.shape or ()) if isinstance(d, str))


@dataclass(eq=False)
class ScatterNode:
    """One scatter node of a model: ``name`` (the key; unique), ``op`` (versioned, e.g. ``"ScatterND-18"``),
    ``attrs`` (scatter_core's spelling, defaults filled in) and ``findings`` (static, computed on first use).

    It keeps ``attrs`` of its own rather than a :class:`scatter_core.Case` or ``Unchecked``: a node declares only
    attributes (its tensors are the model's, known after a capture, which gives the node's real Case), its
    operator may be one the registry lacks (``spec`` None) and a value may be of the wrong kind, which the static
    check must name. It is the guard's reasoned exception (``CASE_HOLDERS_ALLOWED`` in tests/core/test_families.py)."""

    name: str
    op: str
    op_type: str
    domain: str
    attrs: dict
    location: str
    input_names: tuple[str, ...]
    input_types: tuple  # per node input: (dtype, shape)
    output_name: str
    output_type: tuple
    original_name: str
    spec: sc.OpSpec | None
    in_subgraph: bool = False
    in_function: bool = False
    opset: int = 0
    constants: dict = field(default_factory=dict, repr=False)
    constant_inputs: frozenset = frozenset()  # input positions fed by a constant of any size (ONNX)
    graph: object = field(default=None, repr=False)  # a proofs.GraphView of the node's scope (None: unknown)
    input_refs: tuple = field(default=(), repr=False)  # per node input: its ref in ``graph``

    def _by_role(self, part: int) -> dict:
        if self.spec is None:
            return {}
        return {i.role: (self.input_types[p][part] if p < len(self.input_types) else None)
                for p, i in enumerate(self.spec.inputs)}

    @property
    def shapes(self) -> dict:
        """Role ("data", "indices", "updates") -> shape known from the model (None when unknown)."""
        return self._by_role(1)

    @property
    def dtypes(self) -> dict:
        """Role -> numpy dtype name known from the model (None when unknown)."""
        return self._by_role(0)

    @cached_property
    def findings(self) -> list:
        if self.spec is None:
            return [static.Finding("unknown-version", "warning",
                                   f"{self.op_type} at opset {self.opset} is older than every version in the registry.",
                                   title="version not in the registry")]
        try:
            return (list(self._index_findings)
                    + static.runtime_fact_findings(self.spec, list(self.input_types), self.constants, self.attrs,
                                                   repeats_possible=self.index_verdict != "unique"))
        except Exception as exc:  # noqa: BLE001 - a finding must never take the listing down
            return [static.Finding("unchecked", "info", f"The static checks stopped: {type(exc).__name__}: {exc}",
                                   title="static checks stopped")]

    @cached_property
    def _index_findings(self) -> tuple:
        return tuple(static.index_findings(self.spec, list(self.input_types), self.constants, self.attrs))

    @cached_property
    def _proof(self) -> proofs.Proof:
        pos = next((p for p, i in enumerate(self.spec.inputs) if i.role == "indices"), None) if self.spec else None
        repeats, checked = None, False
        if pos is not None and pos in self.constants:
            try:
                rules = {f.rule: f.severity for f in self._index_findings}
            except Exception:  # noqa: BLE001 - the proof falls back to the graph
                rules = {"unchecked": "info"}
            repeats = "duplicates" in rules
            checked = "indices-unchecked" not in rules and "error" not in rules.values()
        ref = self.input_refs[pos] if pos is not None and pos < len(self.input_refs) else None
        try:
            return proofs.index_proof(self.spec, self.graph, ref, repeats, checked, self.attrs.get("axis"))
        except Exception as exc:  # noqa: BLE001 - a proof must never take the listing down
            return proofs.Proof("may-repeat", f"May repeat: the proof stopped ({type(exc).__name__}: {exc}).")

    @property
    def index_verdict(self) -> str:
        """The static verdict on the indices: ``"unique"`` (no two writes can meet), ``"may-repeat"`` or
        ``"repeats"`` (constant indices that write a cell twice); :attr:`index_proof` says why."""
        return self._proof.verdict

    @property
    def index_proof(self) -> str:
        """The chain of graph facts behind :attr:`index_verdict`, in words."""
        return self._proof.text


def _assemble_attrs(spec: sc.OpSpec | None, given: dict, constants: dict) -> dict:
    attrs = {}
    if spec is not None:
        n_tensors = len(spec.inputs)
        for k, a in enumerate(a for a in spec.attributes if a.is_input):
            pos = n_tensors + k
            if pos in constants:
                attrs[a.name] = sc.codec_of(spec, a).from_openvino(constants[pos])  # an input's array
        for a in spec.attributes:
            if not a.is_input and a.default is not None:
                attrs[a.name] = a.default
    attrs.update(given)  # read by their codecs already (onnx_file.from_onnx, ir_file.from_openvino): ONNX's 1 is true
    return attrs


def _unique_names(entries: list[tuple[str, str]]) -> list[str]:
    """Stable keys: a node's own name when it is unique and non-empty, else a generated one."""
    counts: dict[str, int] = {}
    for name, _ in entries:
        counts[name] = counts.get(name, 0) + 1
    taken = {name for name, _ in entries if name and counts[name] == 1}
    keys, seen = [], {}
    for name, op_type in entries:
        if name and counts[name] == 1:
            keys.append(name)
            continue
        base = name if name else f"{op_type}"
        n = seen.get(base, 0)
        while True:
            n += 1
            candidate = f"{base}#{n}"
            if candidate not in taken:
                break
        seen[base] = n
        taken.add(candidate)
        keys.append(candidate)
    return keys


class Model:
    """A model's scatter nodes and declared inputs. Listing never runs the model."""

    def __init__(self, *, where: str, kind: str, nodes: list, inputs: list, unrunnable: list, opsets: dict,
                 payload: bytes, weights: bytes | None, size: int, proto=None, ir=None):
        self.where = where
        self.kind = kind  # "onnx" | "openvino-ir"
        self.nodes: list[ScatterNode] = nodes
        self.inputs: list[ModelInput] = inputs
        self.unrunnable = unrunnable  # (op_type, domain, node name, location)
        self.opsets = opsets
        self.size = size
        self._payload = payload
        self._weights = weights
        self._proto = proto
        self._ir = ir
        self._by_name = {n.name: n for n in nodes}
        self.graph_outputs: tuple = ()  # the main graph's output names (ONNX)
        self.ir_version: int | None = None  # the ONNX IR version the file declares (None: an OpenVINO IR)

    @cached_property
    def digest(self) -> str:
        """Identifies the model's bytes (computed on first use: listing never pays for it)."""
        h = hashlib.blake2b(self._payload, digest_size=16)
        h.update(self._weights or b"")
        return h.hexdigest()

    def __repr__(self) -> str:
        return f"Model({self.where!r}, {self.kind}, {len(self.nodes)} scatter nodes)"

    def node(self, name: str) -> ScatterNode:
        try:
            return self._by_name[name]
        except KeyError:
            raise ModelError(f"{self.where} has no scatter node named {name!r}", argument="node",
                             rule="unknown-node") from None

    @property
    def symbolic_dims(self) -> tuple[str, ...]:
        """Every symbolic dim of the declared inputs, in first-seen order."""
        out = []
        for i in self.inputs:
            for d in i.symbolic:
                if d not in out:
                    out.append(d)
        return tuple(out)

    def capture(self, inputs=None, *, seed: int = 0, dims=None, runtime: str | None = None, **limits):
        """Run the model once and record every scatter node's real inputs and output; see :mod:`.capture`.
        ``runtime`` None: :func:`scatter_models.default_runtime` (what gets deployed: an IR's CPU plugin,
        onnxruntime for ONNX where installed). Given inputs fix the symbolic dims they determine."""
        from .capture import capture

        try:
            return capture(self, inputs, seed=seed, dims=dims, runtime=runtime, **limits)
        except ModelError:
            raise
        except Exception as exc:  # noqa: BLE001 - the only exception a capture raises is ModelError
            raise ModelError(f"{self.where}: the capture failed ({type(exc).__name__}: {str(exc)[:500]})",
                             rule="capture-failed") from exc


def _read_source(source, max_bytes: int) -> tuple[bytes, str, Path | None]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "the uploaded model", None
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        where = f"model file {path.name!r}"
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise ModelError(f"{where} cannot be read: {exc.strerror or exc}", argument="model",
                             rule="unreadable") from None
        if size > max_bytes:
            raise ModelError(f"{where} is {size:,} bytes, over the size limit of {max_bytes:,} bytes (set "
                             f"SCATTER_MODELS_MAX_BYTES or open_model(..., max_bytes=...) to raise it)",
                             argument="model", rule="size-limit")
        try:
            return path.read_bytes(), where, path
        except OSError as exc:
            raise ModelError(f"{where} cannot be read: {exc.strerror or exc}", argument="model",
                             rule="unreadable") from None
    raise ModelError(f"open_model takes a path or the bytes of a model, not {type(source).__name__}",
                     argument="source", rule="type")


def _looks_like_xml(data: bytes) -> bool:
    head = data[:256].lstrip()
    return head.startswith(b"<?xml") or head.startswith(b"<net")


def open_model(source, **options) -> Model:
    """Open an ONNX model (a ``.onnx`` path or its bytes) or an OpenVINO IR (an ``.xml`` path with its ``.bin``
    beside it, or the XML's bytes with ``weights=`` the ``.bin``'s bytes). ``name=`` names uploaded bytes in
    messages; ``max_bytes=`` overrides the size limit (:func:`scatter_models.max_model_bytes`).

    Raises :class:`ModelError` (and nothing else) for anything that is not a readable model.
    """
    try:
        return _open(source, **options)
    except ModelError:
        raise
    except RecursionError:
        raise ModelError("the model nests subgraphs too deeply to read", argument="model", rule="nesting") from None
    except Exception as exc:  # noqa: BLE001 - a hostile file must not surface anything but ModelError
        raise ModelError(f"the model cannot be read ({type(exc).__name__}: {str(exc)[:300]})", argument="model",
                         rule="unreadable") from exc


def _open(source, *, weights: bytes | None = None, name: str | None = None,
               max_bytes: int | None = None) -> Model:
    limit = max_model_bytes() if max_bytes is None else int(max_bytes)
    data, where, path = _read_source(source, limit)
    if name:
        where = f"model file {name!r}"
    is_ir = (path is not None and path.suffix.lower() == ".xml") or (path is None and _looks_like_xml(data))
    if is_ir:
        if weights is None and path is not None:
            bin_path = path.with_suffix(".bin")
            if not bin_path.exists():
                raise ModelError(f"{where}: an OpenVINO IR needs its weights {bin_path.name!r} beside it",
                                 argument="weights", rule="missing-weights")
            if bin_path.stat().st_size > limit:
                raise ModelError(f"{where}: weights {bin_path.name!r} are over the size limit of {limit:,} bytes",
                                 argument="weights", rule="size-limit")
            weights = bin_path.read_bytes()
        if len(data) + len(weights or b"") > limit:
            raise ModelError(f"{where} with its weights is over the size limit of {limit:,} bytes",
                             argument="model", rule="size-limit")
        return _open_ir(data, weights or b"", where)
    return _open_onnx(data, where, limit)


def _open_onnx(data: bytes, where: str, limit: int) -> Model:
    proto = onnx_file.parse(data, where, limit)
    inferred = onnx_file.infer(proto)
    listing = onnx_file.list_scatter_nodes(inferred)
    views = proofs.onnx_views(inferred, proto) if listing.nodes else {}
    keys = _unique_names([(r.node.name, r.node.op_type) for r in listing.nodes])
    nodes = []
    for key, r in zip(keys, listing.nodes):
        attrs = _assemble_attrs(r.spec, r.attrs, r.constants)
        op = r.spec.name if r.spec is not None else f"{r.node.op_type}-{r.opset}"
        nodes.append(ScatterNode(key, op, r.node.op_type, r.domain, attrs, r.location, tuple(r.node.input),
                                 tuple(r.input_types), r.node.output[0] if r.node.output else "",
                                 r.output_type, r.node.name, r.spec, r.in_subgraph, r.in_function, r.opset,
                                 r.constants, frozenset(r.constant_inputs), proofs.onnx_view_for(views, r.location),
                                 tuple(r.node.input)))
    inputs = []
    for name, dtype, shape in onnx_file.declared_inputs(inferred, proto):
        if shape is not None:
            shape = tuple(f"{name}[{i}]" if d == "?" else d for i, d in enumerate(shape))
        inputs.append(ModelInput(name, dtype, shape))
    opsets = {(o.domain or "ai.onnx"): int(o.version) for o in proto.opset_import}
    model = Model(where=where, kind="onnx", nodes=nodes, inputs=inputs, unrunnable=listing.unrunnable,
                  opsets=opsets, payload=data, weights=None, size=len(data))
    model.graph_outputs = tuple(o.name for o in proto.graph.output)
    model.ir_version = int(proto.ir_version)
    return model


def _open_ir(xml: bytes, weights: bytes, where: str) -> Model:
    ir = ir_file.parse_ir(xml, weights, where)
    keys = _unique_names([(n.layer.name, n.layer.type) for n in ir.nodes])
    nodes = []
    view = proofs.IRView(ir, weights)
    for key, n in zip(keys, ir.nodes):
        attrs = _assemble_attrs(n.spec, n.attrs, n.constants)
        op = n.spec.name if n.spec is not None else f"{n.layer.type}-{n.opset}"
        nodes.append(ScatterNode(key, op, n.layer.type, n.layer.version, attrs, "main graph",
                                 tuple(f"port {p}" for p, _ in n.layer.in_ports), tuple(n.input_types),
                                 n.layer.out_ports[0][0] if n.layer.out_ports else "", n.output_type, n.layer.name,
                                 n.spec, False, False, n.opset, n.constants, graph=view,
                                 input_refs=tuple(ir.edges.get((n.layer.id, p)) for p, _ in n.layer.in_ports)))
    inputs = [ModelInput(name, dtype, shape) for name, dtype, shape in ir.parameters]
    return Model(where=where, kind="openvino-ir", nodes=nodes, inputs=inputs, unrunnable=[],
                 opsets={v: 1 for v in ir.opsets}, payload=xml, weights=weights, size=len(xml) + len(weights), ir=ir)
