"""Reading an OpenVINO IR (``.xml`` with its ``.bin``) without OpenVINO: the layers, their ports' shapes,
the scatter layers and the constants they read (from the ``.bin``, bounded)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import numpy as np

import scatter_core as sc

from .errors import ModelError
from .limits import MAX_CONSTANT_ELEMENTS

IR_TYPES = {"f16": "float16", "f32": "float32", "f64": "float64", "i8": "int8", "i16": "int16", "i32": "int32",
            "i64": "int64", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64", "boolean": "bool",
            "u1": None, "bf16": None}


def ir_dtype(name: str | None) -> str | None:
    return IR_TYPES.get((name or "").lower())


@dataclass
class IRLayer:
    id: str
    name: str
    type: str
    version: str
    data: dict
    in_ports: list  # (port id, shape)
    out_ports: list  # (port id, shape, precision)


@dataclass
class IRNode:
    layer: IRLayer
    spec: sc.OpSpec | None
    opset: int
    input_types: list = field(default_factory=list)
    output_type: tuple = (None, None)
    constants: dict = field(default_factory=dict)  # input position -> array
    attrs: dict = field(default_factory=dict)


@dataclass
class IRModel:
    layers: dict  # id -> IRLayer
    edges: dict  # (to layer, to port) -> (from layer, from port)
    nodes: list  # IRNode
    parameters: list  # (name, dtype, shape)
    opsets: list


def _dim(text: str, owner: str, axis: int):
    text = (text or "").strip()
    try:
        value = int(text)
        return value if value >= 0 else f"{owner}[{axis}]"
    except ValueError:
        return f"{owner}[{axis}]"


def _ports(elem, owner: str, with_precision: bool = False) -> list:
    ports = []
    if elem is None:
        return ports
    for port in elem.findall("port"):
        shape = tuple(_dim(d.text, owner, i) for i, d in enumerate(port.findall("dim")))
        entry = (port.get("id"), shape, port.get("precision")) if with_precision else (port.get("id"), shape)
        ports.append(entry)
    return ports


def _opset_number(version: str) -> int:
    digits = "".join(ch for ch in (version or "") if ch.isdigit())
    return int(digits) if digits else 0


def _spec_opset(spec: sc.OpSpec) -> int:
    return _opset_number(str(spec.extra.get("openvino_opset", f"opset{spec.version}")))


def resolve_ir(op_type: str, version: str) -> sc.OpSpec | None:
    """The newest OpenVINO registry version of ``op_type`` whose opset is no newer than the layer's."""
    opset = _opset_number(version)
    versions = [s for s in sc.versions_of(op_type) if s.framework == "OpenVINO" and _spec_opset(s) <= opset]
    return max(versions, key=_spec_opset) if versions else None


def parse_ir(xml_bytes: bytes, weights: bytes | None, where: str) -> IRModel:
    if not xml_bytes.strip():
        raise ModelError(f"{where} is empty: it is not an OpenVINO IR", argument="model", rule="empty")
    head = xml_bytes[:4096].upper()
    if b"<!DOCTYPE" in head or b"<!ENTITY" in xml_bytes.upper():
        raise ModelError(f"{where}: an OpenVINO IR has no DOCTYPE or entities; this XML declares some and is refused",
                         argument="model", rule="not-ir")
    try:
        root = ET.fromstring(xml_bytes)
    except ET.ParseError as exc:
        raise ModelError(f"{where} is not an OpenVINO IR: the XML does not parse ({exc})", argument="model",
                         rule="not-ir") from None
    if root.tag != "net" or root.find("layers") is None:
        raise ModelError(f"{where} is not an OpenVINO IR: the root element is <{root.tag}>, not <net> with <layers>",
                         argument="model", rule="not-ir")
    layers = {}
    for el in root.find("layers").findall("layer"):
        data = el.find("data")
        layer = IRLayer(el.get("id", ""), el.get("name", ""), el.get("type", ""), el.get("version", ""),
                        dict(data.attrib) if data is not None else {},
                        _ports(el.find("input"), el.get("name", "")),
                        _ports(el.find("output"), el.get("name", ""), with_precision=True))
        layers[layer.id] = layer
    edges = {}
    edges_el = root.find("edges")
    for e in (edges_el.findall("edge") if edges_el is not None else []):
        edges[(e.get("to-layer"), e.get("to-port"))] = (e.get("from-layer"), e.get("from-port"))
    weights = weights or b""

    def const_of(layer: IRLayer):
        if layer.type != "Const":
            return None
        dtype = ir_dtype(layer.data.get("element_type"))
        try:
            shape = tuple(int(s) for s in layer.data.get("shape", "").split(",") if s.strip())
            offset, size = int(layer.data.get("offset", 0)), int(layer.data.get("size", 0))
        except ValueError:
            return None
        count = int(np.prod(shape, dtype=np.int64)) if shape else 1
        if dtype is None or count > MAX_CONSTANT_ELEMENTS or offset < 0 or size < 0:
            return None
        if offset + size > len(weights):
            raise ModelError(f"{where}: constant {layer.name!r} reads bytes {offset}..{offset + size} of the weights "
                             f"file, which has {len(weights)} bytes (is the .bin the one saved with this .xml?)",
                             argument="weights", rule="weights-size")
        if count * np.dtype(dtype).itemsize != size:
            return None
        return np.frombuffer(weights, dtype=dtype, count=count, offset=offset).reshape(shape).copy()

    scatter_types = frozenset(s.op_type for s in sc.OPERATORS_LIST if s.framework == "OpenVINO")
    nodes, params = [], []
    for layer in layers.values():
        if layer.type == "Parameter":
            prec = layer.out_ports[0][2] if layer.out_ports else None
            shape = layer.out_ports[0][1] if layer.out_ports else None
            params.append((layer.name, ir_dtype(layer.data.get("element_type")) or ir_dtype(prec), shape))
        if layer.type not in scatter_types:
            continue
        spec = resolve_ir(layer.type, layer.version)
        node = IRNode(layer, spec, _opset_number(layer.version))
        for pos, (port, shape) in enumerate(layer.in_ports):
            src = edges.get((layer.id, port))
            dtype = None
            if src is not None and src[0] in layers:
                src_layer = layers[src[0]]
                for p in src_layer.out_ports:
                    if p[0] == src[1]:
                        dtype = ir_dtype(p[2])
                arr = const_of(src_layer)
                if arr is not None:
                    node.constants[pos] = arr
                    dtype = dtype or arr.dtype.name
            node.input_types.append((dtype, shape))
        if layer.out_ports:
            node.output_type = (ir_dtype(layer.out_ports[0][2]), layer.out_ports[0][1])
        if spec is not None:
            for a in spec.attributes:
                if not a.is_input and a.name in layer.data:
                    node.attrs[a.name] = sc.codec_of(spec, a).from_openvino(layer.data[a.name])  # IR text
        for key, value in layer.data.items():
            node.attrs.setdefault(key, value)
        nodes.append(node)
    opsets = sorted({layer.version for layer in layers.values() if layer.version})
    return IRModel(layers, edges, nodes, params, opsets)
