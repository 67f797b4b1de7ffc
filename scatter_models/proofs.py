"""Static proofs about a scatter node's indices: can two writes land on one cell?

:func:`index_proof` follows the node's indices back through the graph (an ONNX graph or an OpenVINO IR, both
seen through a :class:`GraphView`) and returns a :class:`Proof`: ``"unique"`` with the chain that proves it (a
``Range``; a constant without repeats; either shifted by one scalar, reshaped, or concatenated beside such a
part as a coordinate), ``"repeats"`` (constant indices that name a cell twice) or ``"may-repeat"`` with where
the values come from. The rules are tables of op types (both frameworks' spellings), never a branch on a
scatter operator: what a write addresses comes from the family record (``index_tuples``, ``writes_once``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import scatter_core as sc

VERDICTS = ("unique", "may-repeat", "repeats")
MAX_DEPTH = 24  # producers followed back from the node, at most
MAX_VALUES_SHOWN = 6

# op type -> what it does to "every element distinct" (input 0 carries the values)
KEEPS_ORDER = frozenset({"Identity", "Reshape", "Unsqueeze", "Squeeze", "Flatten", "Transpose"})  # same elements
CASTS = frozenset({"Cast", "Convert"})  # keeps distinct integers distinct (an integer source only)
SHIFTS = frozenset({"Add", "Sub", "Subtract"})  # x ± one scalar: a translation
SCALES = frozenset({"Mul", "Multiply"})  # x · a nonzero scalar constant
NEGATES = frozenset({"Neg", "Negative"})
RANGES = frozenset({"Range"})
CONCATS = frozenset({"Concat"})
# op type -> why its values may repeat, for the ops that commonly make indices (others: "computes them")
REPEAT_WORDS = {"Expand": "copies values to many places", "Tile": "copies values to many places",
                "Broadcast": "copies values to many places", "ArgMax": "picks them from the data",
                "ArgMin": "picks them from the data", "TopK": "picks them from the data",
                "ConstantOfShape": "fills every place with one value", "Gather": "picks values, maybe one twice",
                "Where": "picks values from two sources", "Select": "picks values from two sources"}


@dataclass(frozen=True)
class Producer:
    """The node that makes a tensor: ``op`` type, ``name``, its input refs, ``attrs`` (plain values) and, for a
    constant, its ``value`` (None when too big to read)."""

    op: str
    name: str
    inputs: tuple
    attrs: dict
    value: np.ndarray | None = None
    constant: bool = False


class GraphView:
    """What the proof reads of a graph: the producer of a tensor ref, its shape and dtype, its words."""

    def producer(self, ref) -> Producer | None:  # None: a graph input (or unknown)
        raise NotImplementedError

    def shape(self, ref) -> tuple | None:
        raise NotImplementedError

    def dtype(self, ref) -> str | None:
        raise NotImplementedError

    def words(self, ref) -> str:
        """How a tensor that no node makes is named (a graph input, a parameter)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Proof:
    """A static verdict on a node's indices: ``verdict`` (one of :data:`VERDICTS`) and ``text`` (the chain)."""

    verdict: str
    text: str

    @property
    def repeats_possible(self) -> bool:
        return self.verdict != "unique"


def _values_text(arr: np.ndarray, rows: bool = False) -> str:
    arr = np.asarray(arr)
    if rows and arr.ndim >= 1:
        tuples = arr.reshape(-1, arr.shape[-1]) if arr.shape[-1] else arr.reshape(-1, 1)
        shown = ["(" + ", ".join(sc.fmt_value(v) for v in t) + ")" for t in tuples[:MAX_VALUES_SHOWN]]
        return ", ".join(shown) + (", …" if len(tuples) > MAX_VALUES_SHOWN else "")
    flat = [sc.fmt_value(v) for v in arr.reshape(-1)[:MAX_VALUES_SHOWN]]
    return "[" + ", ".join(flat) + (", …" if arr.size > MAX_VALUES_SHOWN else "") + "]"


def _size(shape) -> int | None:
    if shape is None or any(not isinstance(d, int) for d in shape):
        return None
    return int(np.prod(shape, dtype=np.int64))


def _one_element(view: GraphView, ref) -> bool:
    p = view.producer(ref)
    if p is not None and p.value is not None:
        return p.value.size == 1
    return _size(view.shape(ref)) == 1


def _is_integer(view: GraphView, ref) -> bool:
    p = view.producer(ref)
    if p is not None and p.value is not None:
        return p.value.dtype.kind in "iu"
    dtype = view.dtype(ref)
    return dtype is not None and np.dtype(dtype).kind in "iu"


def _label(view: GraphView, ref) -> str:
    p = view.producer(ref)
    if p is None:
        return view.words(ref)
    if p.constant:
        return f"constant {p.name!r}"
    return f"{p.op} {p.name!r}"


def _scalar_words(view: GraphView, ref) -> str:
    p = view.producer(ref)
    if p is not None and p.value is not None:
        return f"{_label(view, ref)} = {sc.fmt_value(np.asarray(p.value).reshape(-1)[0])}"
    return f"{_label(view, ref)}, one element"


def distinct(view: GraphView, ref, depth: int = 0) -> tuple[bool, list[str]]:
    """Whether every element of ``ref`` differs from every other, with the steps that prove it (True) or the
    steps to where the values come from (False)."""
    p = view.producer(ref)
    here = _label(view, ref)
    if p is None:
        return False, [f"{here}: its values are the caller's"]
    if depth > MAX_DEPTH:
        return False, [f"{here}: the proof stops after {MAX_DEPTH} steps back"]
    if p.constant:
        if p.value is None:
            return False, [f"{here}: too big to read before running"]
        n, u = int(p.value.size), int(np.unique(p.value).size)
        if n == u:
            return True, [f"{here} holds {n} distinct value{'s' if n != 1 else ''} {_values_text(p.value)}"]
        return False, [f"{here} holds {n} values of which only {u} differ {_values_text(p.value)}"]
    if p.op in RANGES:
        return True, [f"{here} counts from start by a nonzero step: every value differs"]
    if p.op in KEEPS_ORDER and p.inputs:
        ok, steps = distinct(view, p.inputs[0], depth + 1)
        return ok, [f"{here} moves the same values"] + steps
    if p.op in CASTS and p.inputs:
        if not _is_integer(view, p.inputs[0]):
            return False, [f"{here} converts values that are not known to be integers (distinct ones may meet)"]
        ok, steps = distinct(view, p.inputs[0], depth + 1)
        return ok, [f"{here} converts integers to integers"] + steps
    if p.op in NEGATES and p.inputs:
        ok, steps = distinct(view, p.inputs[0], depth + 1)
        return ok, [f"{here} negates every value"] + steps
    if (p.op in SHIFTS or p.op in SCALES) and len(p.inputs) == 2:
        for k in (0, 1):
            other = p.inputs[1 - k]
            if not _one_element(view, other):
                continue
            if p.op in SCALES:
                q = view.producer(other)
                if q is None or q.value is None or np.asarray(q.value).reshape(-1)[0] == 0:
                    continue
            ok, steps = distinct(view, p.inputs[k], depth + 1)
            verb = "scales every value by one nonzero" if p.op in SCALES else "shifts every value by one scalar"
            return ok, [f"{here} {verb} ({_scalar_words(view, other)})"] + steps
        return False, [f"{here} combines {_label(view, p.inputs[0])} and {_label(view, p.inputs[1])}, neither "
                       f"one scalar"]
    return False, [f"{here} {REPEAT_WORDS.get(p.op, 'computes them')}"]


def _concat_axis(view: GraphView, p: Producer, ref) -> int | None:
    axis = p.attrs.get("axis")
    try:
        axis = int(axis)
    except (TypeError, ValueError):
        return None
    shape = view.shape(ref)
    if axis < 0 and shape is not None:
        axis += len(shape)
    return axis


def distinct_rows(view: GraphView, ref, depth: int = 0) -> tuple[bool, list[str]]:
    """Whether the rows of ``ref``'s last axis (coordinate tuples) all differ, with the steps."""
    p = view.producer(ref)
    here = _label(view, ref)
    if p is not None and p.constant and p.value is not None and p.value.ndim >= 1:
        rows = p.value.reshape(-1, p.value.shape[-1]) if p.value.shape[-1] else p.value.reshape(-1, 1)
        n, u = rows.shape[0], np.unique(rows, axis=0).shape[0]
        if n == u:
            return True, [f"{here} holds {n} distinct coordinate tuple{'s' if n != 1 else ''} "
                          f"{_values_text(p.value, rows=True)}"]
        return False, [f"{here} holds {n} coordinate tuples of which only {u} differ "
                       f"{_values_text(p.value, rows=True)}"]
    ok, steps = distinct(view, ref, depth)
    if ok or p is None or depth > MAX_DEPTH:
        return ok, steps
    shape = view.shape(ref)
    if p.op in CONCATS and shape is not None and _concat_axis(view, p, ref) == len(shape) - 1:
        notes = []
        for part in p.inputs:
            ok_part, part_steps = distinct_rows(view, part, depth + 1)
            if ok_part:
                return True, [f"{here} puts {_label(view, part)} beside the other coordinates: tuples whose "
                              f"parts differ differ"] + part_steps
            notes.append(part_steps[-1])
        return False, [f"{here} joins coordinates none of which is proved distinct"] + notes
    if p.op in SHIFTS and len(p.inputs) == 2:
        for k in (0, 1):
            if _one_element(view, p.inputs[1 - k]):
                ok, more = distinct_rows(view, p.inputs[k], depth + 1)
                if ok:
                    return True, [f"{here} shifts every coordinate by one scalar "
                                  f"({_scalar_words(view, p.inputs[1 - k])})"] + more
    return False, steps


def _cells_word(family) -> str:
    return "coordinate tuples" if family.index_tuples else "indices"


def index_proof(spec: sc.OpSpec | None, view: GraphView | None, indices_ref, constant_repeats: bool | None = None,
                constant_checked: bool = False) -> Proof:
    """The static verdict on a node's indices. ``constant_repeats``: what scatter_core's own check of constant
    indices found (True: a cell written twice; False: none; None: not checked), ``constant_checked`` whether it
    ran on the node's real shapes."""
    if spec is None:
        return Proof("may-repeat", "The operator version is not in the registry: nothing is proved about its "
                                   "indices.")
    family = sc.family_of(spec)
    if family.writes_once or family.indices == "unused":
        return Proof("unique", f"Unique by construction: {family.title} reads {family.reading}, which names each "
                               f"cell at most once.")
    if constant_repeats is True:
        return Proof("repeats", "Repeats: the indices are a constant, and scatter_core's check of them against "
                                "the node's shapes finds cells written more than once (see the findings).")
    if constant_repeats is False and constant_checked:
        return Proof("unique", "Unique by construction: the indices are a constant, and scatter_core's check of "
                               "them against the node's shapes finds every write on its own cell.")
    if view is None or indices_ref is None:
        return Proof("may-repeat", "May repeat: the graph around the node is not available to follow.")
    ok, steps = (distinct_rows if family.index_tuples else distinct)(view, indices_ref)
    chain = " ← ".join(steps)
    if ok:
        return Proof("unique", f"Unique by construction: distinct {_cells_word(family)} name distinct cells "
                               f"(unless a negative index counts back from the end onto another). {chain}.")
    if steps and " only " in steps[-1] and view.producer(indices_ref) is not None \
            and view.producer(indices_ref).constant:
        return Proof("repeats", f"Repeats: {chain}.")
    return Proof("may-repeat", f"May repeat: nothing in the graph keeps two writes off one cell. {chain}.")


# -- the two graph views ----------------------------------------------------------------------------------
def _plain(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    if isinstance(value, (int, float, str, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    return None


class OnnxView(GraphView):
    """An ONNX model's producers, shapes and small constants (one scope: the main graph with its subgraphs, or
    one local function). Built from the inferred model (see :func:`onnx_file.infer`); ``constants`` maps the
    names of the original's initializers to their arrays (None: too big to read)."""

    def __init__(self, nodes, types: dict, constants: dict, inputs: frozenset = frozenset()):
        from . import onnx_file

        self._types = types
        self._constants = constants
        self._inputs = inputs
        self._made = {}
        stack = list(nodes)
        while stack:
            node = stack.pop()
            for out in node.output:
                if out:
                    self._made.setdefault(out, node)
            for a in node.attribute:
                for g in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                    stack.extend(g.node)
                    self._types.update(onnx_file.graph_types(g))
                    for t in g.initializer:
                        self._constants.setdefault(t.name, onnx_file.constant_array(t))

    def producer(self, ref):
        from . import onnx_file

        if ref in self._constants:
            return Producer("Constant", ref, (), {}, self._constants[ref], constant=True)
        node = self._made.get(ref)
        if node is None:
            return None
        if node.op_type == "Constant" and (node.domain or "") in onnx_file.DEFAULT_DOMAINS:
            t = onnx_file.constant_node_tensor(node)
            value = onnx_file.constant_array(t) if t is not None else None
            return Producer("Constant", node.name or ref, (), {}, value, constant=True)
        import onnx

        attrs = {a.name: _plain(onnx.helper.get_attribute_value(a)) for a in node.attribute
                 if a.type in (onnx.AttributeProto.INT, onnx.AttributeProto.INTS, onnx.AttributeProto.STRING,
                               onnx.AttributeProto.FLOAT)}
        return Producer(node.op_type, node.name or ref, tuple(node.input), attrs)

    def shape(self, ref):
        c = self._constants.get(ref)
        if c is not None:
            return tuple(c.shape)
        return self._types.get(ref, (None, None))[1]

    def dtype(self, ref):
        c = self._constants.get(ref)
        if c is not None:
            return c.dtype.name
        return self._types.get(ref, (None, None))[0]

    def words(self, ref):
        return f"{'graph input' if ref in self._inputs else 'tensor'} {ref!r}"


def onnx_views(inferred, original) -> dict:
    """Scope -> :class:`OnnxView`: ``"main graph"`` and ``"function <domain>.<name>"`` for each local function."""
    from . import onnx_file

    constants = {t.name: onnx_file.constant_array(t) for t in original.graph.initializer}
    inputs = frozenset(i.name for i in original.graph.input if i.name not in constants)
    views = {"main graph": OnnxView(inferred.graph.node, onnx_file.graph_types(inferred.graph), constants, inputs)}
    for f in inferred.functions:
        types = {vi.name: onnx_file.shape_of(vi.type) for vi in getattr(f, "value_info", [])}
        views[f"function {f.domain}.{f.name}"] = OnnxView(f.node, types, {}, frozenset(f.input))
    return views


def onnx_view_for(views: dict, location: str) -> OnnxView | None:
    """The view of the scope a node's ``location`` names (a subgraph's location starts with its scope's)."""
    for scope, view in views.items():
        if location == scope or location.startswith(scope + " >"):
            return view
    return None


class IRView(GraphView):
    """An OpenVINO IR's producers (refs are (layer id, output port)), shapes and small constants."""

    def __init__(self, ir, weights: bytes):
        self._ir = ir
        self._weights = weights or b""

    def _layer(self, ref):
        return self._ir.layers.get(ref[0]) if ref is not None else None

    def producer(self, ref):
        from . import ir_file
        from .limits import MAX_CONSTANT_ELEMENTS

        layer = self._layer(ref)
        if layer is None or layer.type == "Parameter":
            return None
        if layer.type == "Const":
            value = None
            dtype = ir_file.ir_dtype(layer.data.get("element_type"))
            try:
                shape = tuple(int(s) for s in layer.data.get("shape", "").split(",") if s.strip())
                offset, size = int(layer.data.get("offset", 0)), int(layer.data.get("size", 0))
                count = int(np.prod(shape, dtype=np.int64)) if shape else 1
                if (dtype is not None and count <= MAX_CONSTANT_ELEMENTS and 0 <= offset
                        and offset + size <= len(self._weights) and count * np.dtype(dtype).itemsize == size):
                    value = np.frombuffer(self._weights, dtype=dtype, count=count, offset=offset).reshape(shape)
            except ValueError:
                value = None
            return Producer("Constant", layer.name, (), {}, value, constant=True)
        inputs = tuple(self._ir.edges.get((layer.id, port)) for port, _ in layer.in_ports)
        return Producer(layer.type, layer.name, inputs, dict(layer.data))

    def _port(self, ref):
        layer = self._layer(ref)
        if layer is None:
            return None
        return next((p for p in layer.out_ports if p[0] == ref[1]), None)

    def shape(self, ref):
        port = self._port(ref)
        return tuple(port[1]) if port is not None else None

    def dtype(self, ref):
        from . import ir_file

        port = self._port(ref)
        return ir_file.ir_dtype(port[2]) if port is not None else None

    def words(self, ref):
        layer = self._layer(ref)
        if layer is not None and layer.type == "Parameter":
            return f"parameter {layer.name!r}"
        return "a tensor the IR does not connect"
