"""Reading an ONNX model without running it: refuse bad files, find every scatter node.

Nothing here opens a path named inside the model: a tensor stored as external data is refused
(naming the tensor and the location it points to), never read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import scatter_core as sc

from .errors import ModelError
from .limits import MAX_CONSTANT_ELEMENTS, max_model_bytes

DEFAULT_DOMAINS = ("", "ai.onnx")
STANDARD_DOMAINS = DEFAULT_DOMAINS + ("ai.onnx.ml", "ai.onnx.preview.training")
ORT_DOMAINS = ("com.microsoft", "com.microsoft.nchwc", "com.ms.internal.nhwc")
INLINE_HINT = ("Inline it with onnx first: model = onnx.load('model.onnx') (reads the external files beside it), "
               "then onnx.save(model, 'inlined.onnx', save_as_external_data=False) (models under 2 GB).")
BIG_INITIALIZER = 4096  # bytes: larger initializers are left out of shape inference (their dims still count)


def _onnx():
    try:
        import onnx
    except ImportError as exc:  # pragma: no cover - onnx is a dependency of the app
        raise ModelError("reading an ONNX model needs the onnx package: pip install onnx", rule="missing-onnx") from exc
    return onnx


def onnx_dtype_name(elem_type: int) -> str | None:
    """numpy dtype name of an ONNX element type (None when unknown or not a plain numpy type)."""
    onnx = _onnx()
    try:
        return np.dtype(onnx.helper.tensor_dtype_to_np_dtype(elem_type)).name
    except Exception:  # noqa: BLE001 - bfloat16, float8 ..., undefined
        return None


def parse(data: bytes, where: str, max_bytes: int | None = None):
    """The ``ModelProto`` in ``data``, or a ModelError saying why not."""
    onnx = _onnx()
    limit = max_model_bytes() if max_bytes is None else int(max_bytes)
    if len(data) == 0:
        raise ModelError(f"{where} is empty (0 bytes): it is not an ONNX model", argument="model", rule="empty")
    if len(data) > limit:
        raise ModelError(f"{where} is {len(data):,} bytes, over the size limit of {limit:,} bytes (set "
                         f"SCATTER_MODELS_MAX_BYTES or open_model(..., max_bytes=...) to raise it; protobuf "
                         f"itself stops at 2 GiB)", argument="model", rule="size-limit")
    model = onnx.ModelProto()
    try:
        model.ParseFromString(bytes(data))
    except Exception as exc:  # noqa: BLE001 - DecodeError, RuntimeWarning ...
        raise ModelError(f"{where} is not an ONNX model: the protobuf does not parse ({type(exc).__name__}: "
                         f"{str(exc)[:200]}); the file may be truncated or of another format",
                         argument="model", rule="not-onnx") from None
    if not model.HasField("graph") or model.ir_version <= 0 or (not model.opset_import and model.ir_version >= 3):
        raise ModelError(f"{where} is not an ONNX model: it parses as a protobuf but has no graph, IR version or "
                         f"opset import", argument="model", rule="not-onnx")
    _refuse_external_data(model, where)
    return model


def _tensors_of_graph(graph, path):
    for t in graph.initializer:
        yield t, path
    for st in graph.sparse_initializer:
        yield st.values, path
        yield st.indices, path
    for node in graph.node:
        yield from _tensors_of_node(node, path)


def _tensors_of_node(node, path):
    onnx = _onnx()
    A = onnx.AttributeProto
    for a in node.attribute:
        if a.type == A.TENSOR:
            yield a.t, path
        elif a.type == A.TENSORS:
            for t in a.tensors:
                yield t, path
        elif a.type == A.SPARSE_TENSOR:
            yield a.sparse_tensor.values, path
        elif a.type == A.GRAPH:
            yield from _tensors_of_graph(a.g, f"{path} > {node.op_type} {a.name}")
        elif a.type == A.GRAPHS:
            for g in a.graphs:
                yield from _tensors_of_graph(g, f"{path} > {node.op_type} {a.name}")


def _refuse_external_data(model, where: str) -> None:
    onnx = _onnx()
    sources = list(_tensors_of_graph(model.graph, "main graph"))
    for f in model.functions:
        for node in f.node:
            sources.extend(_tensors_of_node(node, f"function {f.domain}.{f.name}"))
    for t, path in sources:
        if t.data_location == onnx.TensorProto.EXTERNAL or len(t.external_data):
            entries = {e.key: e.value for e in t.external_data}
            location = entries.get("location", "(no location given)")
            raise ModelError(
                f"{where}: tensor {t.name!r} ({path}) is stored as external data in {location!r}. External data is "
                f"refused: the app never opens a path named inside a model. {INLINE_HINT}",
                argument="model", rule="external-data")


def shape_of(type_proto) -> tuple[str | None, tuple | None]:
    """(dtype name, shape with symbolic dims as strings and unknown ones as '?') of a TypeProto."""
    if not type_proto.HasField("tensor_type"):
        return None, None
    tt = type_proto.tensor_type
    dtype = onnx_dtype_name(tt.elem_type) if tt.elem_type else None
    if not tt.HasField("shape"):
        return dtype, None
    dims = []
    for d in tt.shape.dim:
        if d.HasField("dim_value"):
            dims.append(int(d.dim_value))
        elif d.HasField("dim_param") and d.dim_param:
            dims.append(str(d.dim_param))
        else:
            dims.append("?")
    return dtype, tuple(dims)


def infer(model):
    """``model`` after ONNX shape inference (big initializers stand out as inputs meanwhile, so inference
    does not copy their bytes); the model itself when inference fails."""
    onnx = _onnx()
    graph = model.graph
    keep, moved = [], []
    for t in graph.initializer:
        (moved if len(t.raw_data) > BIG_INITIALIZER else keep).append(t)
    light = onnx.ModelProto()
    light.ir_version = model.ir_version
    light.opset_import.extend(model.opset_import)
    light.functions.extend(model.functions)
    g = light.graph
    g.name = graph.name
    g.node.extend(graph.node)
    g.input.extend(graph.input)
    g.output.extend(graph.output)
    g.value_info.extend(graph.value_info)
    g.initializer.extend(keep)
    g.sparse_initializer.extend(graph.sparse_initializer)
    declared = {i.name for i in graph.input}
    for t in moved:
        if t.name not in declared:
            g.input.append(onnx.helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)))
    try:
        return onnx.shape_inference.infer_shapes(light, check_type=False, strict_mode=False, data_prop=True)
    except Exception:  # noqa: BLE001 - a model shape inference cannot read still lists its nodes
        return light


def constant_array(tensor) -> np.ndarray | None:
    """A constant's values when small enough to read for static findings."""
    onnx = _onnx()
    if int(np.prod([int(d) for d in tensor.dims], dtype=np.int64)) > MAX_CONSTANT_ELEMENTS:
        return None
    try:
        return np.asarray(onnx.numpy_helper.to_array(tensor))
    except Exception:  # noqa: BLE001
        return None


def constant_node_tensor(node):
    """The tensor a Constant node makes (value, value_int(s), value_float(s)); None otherwise."""
    onnx = _onnx()
    for a in node.attribute:
        if a.name == "value" and a.type == onnx.AttributeProto.TENSOR:
            return a.t
        if a.name in ("value_int", "value_ints", "value_float", "value_floats"):
            value = onnx.helper.get_attribute_value(a)
            dtype = np.int64 if "int" in a.name else np.float32
            return onnx.numpy_helper.from_array(np.asarray(value, dtype=dtype))
    return None


@dataclass
class RawNode:
    """One scatter node as found in the model (before its table entry is made)."""

    node: object  # NodeProto
    spec: sc.OpSpec | None
    domain: str
    opset: int
    location: str
    in_subgraph: bool
    in_function: bool
    input_types: list = field(default_factory=list)  # per input: (dtype, shape) or (None, None)
    output_type: tuple = (None, None)
    constants: dict = field(default_factory=dict)  # input position -> np.ndarray (small constants)
    constant_inputs: set = field(default_factory=set)  # input positions fed by a constant of any size
    attrs: dict = field(default_factory=dict)
    parents: tuple = ()  # (NodeProto, attribute name, GraphProto) of each enclosing control-flow node, outermost first


def _attr_value(a, spec: sc.OpSpec | None):
    """An ONNX attribute's value: read by its codec where ``spec`` declares it (a value of another kind, a FLOAT
    axis, kept as given for the check to name), as the model wrote it otherwise; bytes become text."""
    onnx = _onnx()
    value = onnx.helper.get_attribute_value(a)
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")  # undecodable bytes shown, never raised on
    elif isinstance(value, (list, tuple)):
        value = tuple(v.decode("utf-8", errors="replace") if isinstance(v, bytes) else v for v in value)
    elif not isinstance(value, (int, float, str, bool)):
        return f"<{onnx.AttributeProto.AttributeType.Name(a.type).lower()}>"
    declared = spec.attribute(a.name) if spec is not None else None
    return value if declared is None else sc.codec_of(spec, declared).from_onnx(value)


def resolve(op_type: str, opset: int, framework: str = "ONNX") -> sc.OpSpec | None:
    """The newest registry version of ``op_type`` no newer than ``opset``."""
    versions = [s for s in sc.versions_of(op_type) if s.framework == framework and s.version <= opset]
    return max(versions, key=lambda s: s.version) if versions else None


def scatter_op_types(framework: str) -> frozenset[str]:
    return frozenset(s.op_type for s in sc.OPERATORS_LIST if s.framework == framework)


@dataclass
class Listing:
    nodes: list  # RawNode
    unrunnable: list  # (op_type, domain, node name, where)
    value_types: dict  # main-graph tensor name -> (dtype, shape)


def list_scatter_nodes(model) -> Listing:
    """Every scatter node of ``model`` (an inferred ModelProto), in graph order, subgraphs and functions too."""
    onnx = _onnx()
    A = onnx.AttributeProto
    scatter_types = scatter_op_types("ONNX")
    model_opsets = {(o.domain or ""): int(o.version) for o in model.opset_import}
    functions = {(f.domain, f.name) for f in model.functions}
    found: list[RawNode] = []
    unrunnable: list = []
    main_types: dict = {}

    def opset_for(domain, opsets):
        return opsets.get(domain, opsets.get("ai.onnx" if domain == "" else "", 0))

    def walk(nodes, types: dict, consts: dict, opsets: dict, location: str, in_sub: bool, in_fn: bool,
             parents: tuple = ()):
        consts = dict(consts)
        for node in nodes:
            domain = node.domain or ""
            if node.op_type == "Constant" and domain in DEFAULT_DOMAINS and len(node.output) == 1:
                t = constant_node_tensor(node)
                if t is not None:
                    consts[node.output[0]] = t
            if (domain, node.op_type) not in functions and domain not in STANDARD_DOMAINS:
                unrunnable.append((node.op_type, domain, node.name, location))
            if domain in DEFAULT_DOMAINS and node.op_type in scatter_types:
                opset = opset_for(domain, opsets)
                raw = RawNode(node, resolve(node.op_type, opset), domain, opset, location, in_sub, in_fn,
                              parents=parents)
                raw.input_types = [types.get(n, (None, None)) if n else (None, None) for n in node.input]
                raw.output_type = types.get(node.output[0], (None, None)) if node.output else (None, None)
                for pos, n in enumerate(node.input):
                    if n in consts:
                        raw.constant_inputs.add(pos)
                        arr = constant_array(consts[n])
                        if arr is not None:
                            raw.constants[pos] = arr
                raw.attrs = {a.name: _attr_value(a, raw.spec) for a in node.attribute}
                found.append(raw)
            for a in node.attribute:
                graphs = [a.g] if a.type == A.GRAPH else list(a.graphs) if a.type == A.GRAPHS else []
                for g in graphs:
                    sub_types = dict(types)
                    sub_types.update(graph_types(g))
                    sub_consts = dict(consts)
                    sub_consts.update({t.name: t for t in g.initializer})
                    label = f"{location} > {node.op_type} {node.name or '(unnamed)'!r} {a.name}"
                    walk(g.node, sub_types, sub_consts, opsets, label, True, in_fn, parents + ((node, a.name, g),))

    main_types = graph_types(model.graph)
    walk(model.graph.node, main_types, {t.name: t for t in model.graph.initializer}, model_opsets, "main graph",
         False, False)
    for f in model.functions:
        f_opsets = dict(model_opsets)
        f_opsets.update({(o.domain or ""): int(o.version) for o in f.opset_import})
        f_types = {}
        for vi in getattr(f, "value_info", []):
            f_types[vi.name] = shape_of(vi.type)
        walk(f.node, f_types, {}, f_opsets, f"function {f.domain}.{f.name}", False, True)
    return Listing(found, unrunnable, main_types)


def graph_types(graph) -> dict:
    """Tensor name -> (dtype, shape) from a graph's inputs, outputs, value_info and initializers."""
    types = {}
    for t in graph.initializer:
        types[t.name] = (onnx_dtype_name(t.data_type), tuple(int(d) for d in t.dims))
    for vi in list(graph.input) + list(graph.value_info) + list(graph.output):
        dtype, shape = shape_of(vi.type)
        if dtype is not None or shape is not None:
            types[vi.name] = (dtype, shape)
    return types


def declared_inputs(model, original=None) -> list[tuple[str, str | None, tuple | None]]:
    """(name, dtype, shape) of each graph input of ``model`` that is not an initializer of ``original``
    (the model as read, whose big initializers :func:`infer` turned into inputs)."""
    inits = {t.name for t in (original or model).graph.initializer}
    return [(i.name, *shape_of(i.type)) for i in model.graph.input if i.name not in inits]
