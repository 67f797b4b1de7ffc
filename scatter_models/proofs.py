"""Static proofs about a scatter node's indices: can two writes land on one cell?

:func:`index_proof` follows the node's indices back through the graph (an ONNX graph or an OpenVINO IR, both
seen through a :class:`GraphView`) and returns a :class:`Proof`: ``"unique"`` with the chain that proves it (a
``Range``; a constant without repeats; either shifted by one scalar, reshaped, or concatenated beside such a
part as a coordinate), ``"repeats"`` (constant indices that name a cell twice) or ``"may-repeat"`` with where
the values come from. The rules are tables of op types (both frameworks' spellings), never a branch on a
scatter operator: what a write addresses comes from the family record (``index_tuples``, ``index_writes_slice``,
``writes_once``).
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
BROADCASTS = frozenset({"Expand", "Broadcast"})  # copies along the axes its source does not vary on
EXPLICIT_MODES = frozenset({"none", "explicit"})  # OpenVINO Broadcast: the source's axes given by axes_mapping
SLICES = frozenset({"Slice"})  # one element when its start and stop are one apart on a 1-D source
SHAPE_OPS = frozenset({"Shape", "ShapeOf"})  # a broadcast's target made of its source's own shape copies nothing
MAXES = frozenset({"Max", "Maximum"})
# op type -> why its values may repeat, for the ops that commonly make indices (others: "computes them")
REPEAT_WORDS = {"Expand": "copies values to many places", "Tile": "copies values to many places",
                "Broadcast": "copies values to many places", "ArgMax": "picks them from the data",
                "ArgMin": "picks them from the data", "TopK": "picks them from the data",
                "ConstantOfShape": "fills every place with one value", "Gather": "picks values, maybe one twice",
                "Where": "picks values from two sources", "Select": "picks values from two sources"}


@dataclass(frozen=True)
class Producer:
    """The node that makes a tensor: ``op`` type, ``name``, its input refs, ``options`` (its attributes, plain
    values) and, for a constant, its ``value`` (None when too big to read)."""

    op: str
    name: str
    inputs: tuple
    options: dict
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


def _const(view: GraphView, ref) -> np.ndarray | None:
    p = view.producer(ref) if ref is not None else None
    return None if p is None or p.value is None else np.asarray(p.value)


def _one_slice(view: GraphView, p: Producer) -> bool:
    """A Slice of a 1-D tensor whose constant start and stop are one apart and whose other constant inputs
    (axes, steps: the two frameworks order them differently) are 0 or 1: one element."""
    if len(p.inputs) < 3 or len(view.shape(p.inputs[0]) or (0, 0)) != 1:
        return False
    start, stop = _const(view, p.inputs[1]), _const(view, p.inputs[2])
    if start is None or stop is None or start.size != 1 or stop.size != 1:
        return False
    rest = [_const(view, r) for r in p.inputs[3:] if r]
    return int(stop.reshape(-1)[0]) - int(start.reshape(-1)[0]) == 1 and all(
        r is not None and r.size == 1 and int(r.reshape(-1)[0]) in (0, 1) for r in rest)


def _one_element(view: GraphView, ref) -> bool:
    p = view.producer(ref)
    if p is not None and p.value is not None:
        return p.value.size == 1
    if _size(view.shape(ref)) == 1:
        return True
    return p is not None and p.op in SLICES and _one_slice(view, p)


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


def _same_shape(a, b) -> bool:
    """Shapes known to be equal: the same ints, and the same symbolic dims by name (never "?" or a dim this
    package named after its tensor, "x[0]").

    >>> _same_shape(("boxes", 4), ("boxes", 4)), _same_shape(("x[0]",), ("x[0]",)), _same_shape((2,), (3,))
    (True, False, False)
    """
    return a is not None and b is not None and len(a) == len(b) and all(
        x == y and (isinstance(x, int) or (isinstance(x, str) and "[" not in x and x != "?")) for x, y in zip(a, b))


def _keeps_shape(view: GraphView, p: Producer, ref) -> bool:
    """A broadcast whose output has its source's shape: known equal, or a target made of Shape ops (a Max of
    them included) of tensors whose shapes equal the source's."""
    src = view.shape(p.inputs[0])
    if _same_shape(src, view.shape(ref)):
        return True
    target = view.producer(p.inputs[1]) if len(p.inputs) > 1 and p.inputs[1] else None
    shapes = [target] if target is not None and target.op in SHAPE_OPS else (
        [view.producer(r) for r in target.inputs] if target is not None and target.op in MAXES else [])
    return bool(shapes) and all(q is not None and q.op in SHAPE_OPS and not q.options.get("start")
                                and q.options.get("end") is None and _same_shape(view.shape(q.inputs[0]), src)
                                for q in shapes)


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
    if p.op in BROADCASTS and p.inputs and _keeps_shape(view, p, ref):
        ok, steps = distinct(view, p.inputs[0], depth + 1)
        return ok, [f"{here} broadcasts to its source's own shape, copying nothing"] + steps
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
    axis = p.options.get("axis")
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
    shape = view.shape(ref)
    if shape and shape[-1] == 0:
        return False, [f"{here} holds empty coordinate tuples: each one names the whole tensor"]
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


def _spread_axes(view: GraphView, p: Producer, ref) -> set | None:
    """The output axes a broadcast's source varies along (its dims other than 1), None when unknown."""
    out = view.shape(ref)
    src = view.shape(p.inputs[0]) if p.inputs else None
    if out is None or src is None:
        return None
    if str(p.options.get("mode", "")).lower() in EXPLICIT_MODES:
        mapping = _const(view, p.inputs[2]) if len(p.inputs) > 2 else None
        if mapping is None or mapping.size != len(src):
            return None
        axes = [int(a) + (len(out) if int(a) < 0 else 0) for a in mapping.reshape(-1)]
    else:
        axes = list(range(len(out) - len(src), len(out)))
    return {a for a, d in zip(axes, src) if d != 1}


def distinct_along(view: GraphView, ref, axis: int | None, depth: int = 0) -> tuple[bool, list[str]]:
    """Whether every line of ``ref`` along ``axis`` holds distinct values (the cells one index per update names:
    the update's own position gives the other coordinates), with the steps."""
    ok, steps = distinct(view, ref, depth)
    p = view.producer(ref)
    if ok or p is None or axis is None or depth > MAX_DEPTH:
        return ok, steps
    here = _label(view, ref)
    shape = view.shape(ref)
    if shape is not None and axis < 0:
        axis += len(shape)
    if p.constant and p.value is not None and np.ndim(p.value) and -np.ndim(p.value) <= axis < np.ndim(p.value):
        if _line_repeats(np.asarray(p.value), axis % np.ndim(p.value)):
            return False, [f"{here} holds one value twice on a line along axis {axis} {_values_text(p.value)}"]
        return True, [f"{here} holds no value twice on any line along axis {axis} {_values_text(p.value)}"]
    if p.op in BROADCASTS and p.inputs:
        spread = _spread_axes(view, p, ref)
        one_long = shape is not None and axis < len(shape) and shape[axis] == 1
        if spread is not None and (spread == {axis} or (not spread and one_long)):
            ok_src, more = distinct(view, p.inputs[0], depth + 1)
            if ok_src:
                return True, [f"{here} copies {_label(view, p.inputs[0])} along the other axes only, so each line "
                              f"along axis {axis} holds its values once"] + more
    if p.op in SHIFTS and len(p.inputs) == 2:
        for k in (0, 1):
            if _one_element(view, p.inputs[1 - k]):
                ok_in, more = distinct_along(view, p.inputs[k], axis, depth + 1)
                if ok_in:
                    return True, [f"{here} shifts every value by one scalar "
                                  f"({_scalar_words(view, p.inputs[1 - k])})"] + more
    if p.op in CASTS and p.inputs and _is_integer(view, p.inputs[0]):
        ok_in, more = distinct_along(view, p.inputs[0], axis, depth + 1)
        if ok_in:
            return True, [f"{here} converts integers to integers"] + more
    return False, steps


def _line_repeats(value: np.ndarray, axis: int) -> bool:
    """Whether some line of ``value`` along ``axis`` holds one value twice."""
    lines = np.sort(np.moveaxis(value, axis, -1), axis=-1)
    return bool(lines.shape[-1] > 1 and (lines[..., 1:] == lines[..., :-1]).any())


def _constant_repeats(view: GraphView, ref, family, axis) -> bool:
    """Whether indices that are a constant (read) name one cell twice by equal values: two equal coordinate
    tuples, two equal indices on one line along ``axis`` (an index per update), or two equal indices."""
    p = view.producer(ref)
    if p is None or not p.constant or p.value is None or p.value.size < 2:
        return False
    value = np.asarray(p.value)
    if family.index_tuples:
        if value.ndim == 0 or value.shape[-1] == 0:
            return False
        rows = value.reshape(-1, value.shape[-1])
        return np.unique(rows, axis=0).shape[0] < rows.shape[0]
    if not family.index_writes_slice and isinstance(axis, (int, np.integer)) and value.ndim:
        return _line_repeats(value, int(axis) % value.ndim)
    return int(np.unique(value).size) < int(value.size)


def _cells_word(family) -> str:
    return "coordinate tuples" if family.index_tuples else "indices"  # plural: "... that differ"


def index_proof(spec: sc.OpSpec | None, view: GraphView | None, indices_ref, constant_repeats: bool | None = None,
                constant_checked: bool = False, axis=None) -> Proof:
    """The static verdict on a node's indices. ``constant_repeats``: what scatter_core's own check of constant
    indices found (True: a cell written twice; False: none; None: not checked), ``constant_checked`` whether it
    ran on the node's real shapes; ``axis`` the node's axis (an index per update along it)."""
    if spec is None:
        return Proof("may-repeat", "May repeat: the operator version is not in the registry, so nothing is proved "
                                   "about its indices.")
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
    if family.index_tuples:
        ok, steps = distinct_rows(view, indices_ref)
    elif family.index_writes_slice or not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        ok, steps = distinct(view, indices_ref)  # each value a whole slice: all must differ
    else:
        ok, steps = distinct_along(view, indices_ref, int(axis))
    chain = " ← ".join(steps)
    if ok:
        return Proof("unique", f"Unique by construction: {_cells_word(family)} that differ name different cells "
                               f"(unless a negative index counts back from the end onto another). {chain}.")
    if _constant_repeats(view, indices_ref, family, axis):  # equal values always name one cell
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
                        self._constants.setdefault(t.name, _index_constant(t))

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

        options = {a.name: _plain(onnx.helper.get_attribute_value(a)) for a in node.attribute
                   if a.type in (onnx.AttributeProto.INT, onnx.AttributeProto.INTS, onnx.AttributeProto.STRING,
                                 onnx.AttributeProto.FLOAT)}
        return Producer(node.op_type, node.name or ref, tuple(node.input), options)

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


def _index_constant(tensor) -> np.ndarray | None:
    """An initializer's values when it can hold indices (int32 or int64; read within the constant limit); None
    for any other (a weight is never copied for the proof)."""
    import onnx

    from . import onnx_file

    if tensor.data_type not in (onnx.TensorProto.INT64, onnx.TensorProto.INT32):
        return None
    return onnx_file.constant_array(tensor)


def onnx_views(inferred, original) -> dict:
    """Scope -> :class:`OnnxView`: ``"main graph"`` and ``"function <domain>.<name>"`` for each local function."""
    from . import onnx_file

    constants = {t.name: _index_constant(t) for t in original.graph.initializer}
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
