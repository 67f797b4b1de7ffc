"""Draws that run real models: what the graph says about each integer input, found before a capture.

An integer model input that the graph uses as an index gets values in range for the axis it indexes: followed
through ops that keep its values (casts, reshapes, slices, gathers of it, concatenations) and shifts by a
constant, to a Gather/GatherElements/GatherND's indices, a scatter's indices (ScatterElements, ScatterND,
OpenVINO's updates), a comparison with a dim read from a shape, a Range's limit or a Loop's trip count (drawn
from 1). The bound is the indexed axis's size (a number, or a symbolic dim resolved with the capture's dims).
Two kinds of input are drawn as real runs have them: a cache position (an index input added to an arange on its
way, or named ``*position*``) as a contiguous run inside the cache, and a batch vector (``batch``, PyTorch
Geometric's name) sorted. Each derivation is said in words (:class:`Derived`); a range the default draw,
[0, 4), already keeps to is drawn that way.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

KEEP_VALUES = {  # op -> input positions whose values flow unchanged (or reordered) to the output
    "Cast": (0,), "Convert": (0,), "Identity": (0,), "Unsqueeze": (0,), "Squeeze": (0,), "Reshape": (0,),
    "Flatten": (0,), "Expand": (0,), "Broadcast": (0,), "Transpose": (0,), "Tile": (0,), "Slice": (0,),
    "StridedSlice": (0,), "Split": (0,), "VariadicSplit": (0,), "Gather": (0,), "GatherElements": (0,),
    "Concat": None, "CastLike": (0,), "Where": (1, 2), "Select": (1, 2),
}
SHIFTS = {"Add": 1, "Sub": -1, "Subtract": -1}
INDEX_OF = {  # op -> (index input position, data input position, how the axis is found)
    "Gather": (1, 0, "axis"), "GatherElements": (1, 0, "axis"), "ScatterElements": (1, 0, "axis"),
    "Scatter": (1, 0, "axis"), "ScatterElementsUpdate": (1, 0, "axis"), "ScatterUpdate": (1, 0, "axis"),
    "GatherND": (1, 0, "nd"), "ScatterND": (1, 0, "nd"), "ScatterNDUpdate": (1, 0, "nd"),
}
COUNTS = {"Range": (1,), "Loop": (0,)}  # op -> positions read as a count (drawn from 1)
COMPARISONS = {"Less", "LessOrEqual", "Greater", "GreaterOrEqual", "LessEqual", "GreaterEqual", "Equal"}
SHAPE_OPS = {"Shape", "ShapeOf"}
MAX_STEPS = 64  # ops followed from one input
PLAIN_HIGH = 4  # the default draw of an integer input: [0, PLAIN_HIGH) (capture.DRAW_INT_HIGH)


@dataclass
class Node:
    """One op of the graph, as the walker sees it: ``inputs`` are tensor ids (None for an absent optional),
    ``shapes`` each input's dims (ints, names of the model's symbolic dims, None where unknown)."""

    op: str
    name: str
    inputs: list
    outputs: list
    attrs: dict = field(default_factory=dict)
    shapes: list = field(default_factory=list)


@dataclass
class Graph:
    nodes: list
    consts: dict  # tensor id -> small constant array

    def __post_init__(self):
        self.consumers: dict = {}
        self.producer: dict = {t: node for node in self.nodes for t in node.outputs if t}
        for node in self.nodes:
            for pos, t in enumerate(node.inputs):
                if t is not None:
                    self.consumers.setdefault(t, []).append((node, pos))


@dataclass
class Derived:
    """What the graph says of one input: values in [low, high) (``high`` an int or a symbolic dim's name; a list
    of them for ND indices, one per column), drawn as ``kind`` ("range", "count", "run", "sorted"), and why."""

    input: str
    low: int
    high: object
    kind: str
    why: str
    shift: int = 0  # the graph adds up to this to the input before indexing: the bound moves down by it
    shift_low: int = 0  # and at least this

    def bound(self, dims: dict):
        def one(h):
            v = dims.get(h) if isinstance(h, str) else h
            return None if v is None else v - self.shift
        return [one(h) for h in self.high] if isinstance(self.high, list) else one(self.high)

    def plan(self, dims: dict):
        """(how, low, high) the values are drawn with for these dims, or None when the bound is not known: "plain"
        (the default draw, [0, 4), when every such value is in range already, negative indices counted from the
        end), "range", "count", "run" or "sorted"."""
        b = self.bound(dims)
        if b is None or (isinstance(b, list) and any(x is None for x in b)):
            return None
        if isinstance(b, list):
            return ("range", self.low, b) if all(x > self.low for x in b) else None
        if b <= self.low:
            return None
        if self.kind == "count":
            return "count", 1, b
        size = b + self.shift  # the indexed axis's size
        if self.kind == "range" and PLAIN_HIGH <= b and -size - self.shift_low <= 0:
            return "plain", 0, PLAIN_HIGH
        return self.kind, self.low, b

    def text(self, dims: dict) -> str:
        plan = self.plan(dims)
        if plan is None:
            return f"{self.input}: drawn as any integer input ([0, {PLAIN_HIGH})): the bound it meets is not known"
        how, low, b = plan
        if how == "count":
            return f"{self.input}: drawn from 1 to {b}, as it is {self.why}"
        if how == "plain":
            return f"{self.input}: drawn in [0, {PLAIN_HIGH}), in range as {self.why} (values below {self.bound(dims)})"
        span = (f"[{low}, {b})" if not isinstance(b, list) else
                "columns in " + ", ".join(f"[{low}, {x})" for x in b))
        words = {"run": "as a contiguous run inside ", "sorted": "sorted, in "}.get(how, "in ")
        return f"{self.input}: drawn {words}{span}, as {self.why}"


def _axis(node: Node, graph: Graph) -> int | None:
    if "axis" in node.attrs:
        try:
            return int(node.attrs["axis"])
        except (TypeError, ValueError):
            return None
    if node.op in ("ScatterElementsUpdate", "ScatterUpdate", "Gather") and len(node.inputs) > (3 if node.op != "Gather"
                                                                                              else 2):
        arr = graph.consts.get(node.inputs[3 if node.op != "Gather" else 2])
        if arr is not None and arr.size == 1:
            return int(arr.reshape(-1)[0])
    return 0


def _shape_dim(graph: Graph, tensor, depth: int = 0):
    """The dim a tensor holds when the graph reads it from a shape (Shape, then a Gather of one constant index,
    through casts and reshapes), with words; else None."""
    node = graph.producer.get(tensor)
    if node is None or depth > 6:
        return None
    if node.op in ("Cast", "Convert", "Squeeze", "Unsqueeze", "Reshape", "Identity"):
        return _shape_dim(graph, node.inputs[0], depth + 1)
    if node.op == "Gather" and len(node.inputs) >= 2:
        src = graph.producer.get(node.inputs[0])
        index = graph.consts.get(node.inputs[1])
        if src is not None and src.op in SHAPE_OPS and index is not None and index.size == 1:
            shape = src.shapes[0] if src.shapes else None
            i = int(index.reshape(-1)[0])
            if shape is not None and -len(shape) <= i < len(shape) and shape[i] is not None:
                return shape[i], f"dim {i % len(shape)} of the shape {src.op} {src.name!r} reads"
    return None


def _compared_bound(node: Node, pos: int, graph: Graph):
    """The bound on an input compared with a dim read from a shape (a length against a sequence): [0, dim]."""
    if node.op not in COMPARISONS or len(node.inputs) != 2:
        return None
    found = _shape_dim(graph, node.inputs[1 - pos])
    if found is None:
        return None
    dim, words = found
    return (dim + 1 if isinstance(dim, int) else dim), f"{words}, as {node.op} {node.name!r} compares it with that"


def _index_bound(node: Node, pos: int, graph: Graph):
    """The bound on the values at input ``pos`` of ``node`` when it is an index input, with words; else None."""
    if node.op not in INDEX_OF or INDEX_OF[node.op][0] != pos:
        return None
    _, data_pos, how = INDEX_OF[node.op]
    shape = node.shapes[data_pos] if data_pos < len(node.shapes) else None
    if shape is None:
        return None
    if how == "axis":
        axis = _axis(node, graph)
        if axis is None or not -len(shape) <= axis < len(shape):
            return None
        axis %= len(shape)
        high = shape[axis]
        if high is None:
            return None
        return high, f"axis {axis} of the data of {node.op} {node.name!r}"
    idx_shape = node.shapes[pos] if pos < len(node.shapes) else None
    k = idx_shape[-1] if idx_shape else None
    if not isinstance(k, int) or k > len(shape) or any(d is None for d in shape[:k]):
        return None
    axes = "axis 0" if k == 1 else f"the first {k} axes"
    return list(shape[:k]), f"{axes} of the data of {node.op} {node.name!r}"


def _concat_column(node: Node, pos: int, graph: Graph, col):
    """The column the values at ``pos`` of a Concat on the last axis land in (None when not known)."""
    axis = node.attrs.get("axis", 0)
    shapes = node.shapes
    rank = len(shapes[pos]) if pos < len(shapes) and shapes[pos] is not None else None
    if rank is None or axis not in (-1, rank - 1):
        return None
    before = 0
    for p in range(pos):
        shape = shapes[p] if p < len(shapes) else None
        if shape is None or not isinstance(shape[-1], int):
            return None
        before += shape[-1]
    return before + (col or 0)


def derive_input(graph: Graph, name: str, dtype: str | None, shape=None) -> Derived | None:
    """What the graph says of integer input ``name``: the first index use found (breadth first), else a count."""
    if dtype is None or np.dtype(dtype).kind not in "iu":
        return None
    frontier, seen, steps = [(name, 0, 0, None, [], False)], {name}, 0
    found = []
    while frontier and steps < MAX_STEPS and not found:
        tensor, hi, lo, col, path, run = frontier.pop(0)
        for node, pos in graph.consumers.get(tensor, []):
            steps += 1
            bound = _index_bound(node, pos, graph) or _compared_bound(node, pos, graph)
            if bound is not None:
                found.append((bound, hi, lo, col, path, run))
                continue
            if node.op in COUNTS and pos in COUNTS[node.op]:
                return Derived(name, 1, PLAIN_HIGH, "count", f"the {'trip count' if node.op == 'Loop' else 'limit'} "
                                                             f"of {node.op} {node.name!r}")
            keep = KEEP_VALUES.get(node.op, ())
            up, down, column, arange = 0, 0, col, False
            if node.op in SHIFTS and len(node.inputs) == 2:
                other = graph.consts.get(node.inputs[1 - pos])
                maker = graph.producer.get(node.inputs[1 - pos])
                if node.op == "Add" and other is None and maker is not None and maker.op == "Range":
                    other, arange = np.zeros(1, np.int64), True  # an arange over the step's tokens: a run from here
                if other is None or other.size == 0 or (node.op != "Add" and pos != 0):
                    continue
                values = SHIFTS[node.op] * other.astype(np.int64).reshape(-1)
                up, down = int(values.max()), int(values.min())
                arange = arange or (node.op == "Add" and values.size > 1 and bool(np.all(np.diff(values) == 1)))
            elif node.op == "Concat":
                column = _concat_column(node, pos, graph, col)
            elif keep is not None and pos not in keep:
                continue
            elif node.op not in ("Cast", "Convert", "Identity", "CastLike", "Where", "Select"):
                column = None  # a reshape or a gather moves values between columns
            for out in node.outputs:
                if out and out not in seen:
                    seen.add(out)
                    frontier.append((out, hi + up, lo + down, column, path + [node], run or arange))
    if not found:
        return None
    (high, where), hi, lo, col, path, run = found[0]
    if isinstance(high, list):
        if col is not None and col < len(high):
            high, where = high[col], f"{where.replace('the first', 'column ' + str(col) + ' of the first')}"
        elif len(set(high)) == 1:
            high = high[0]
        elif all(isinstance(h, int) for h in high):
            high = min(high)  # in range whichever column it lands in
    via = f" (through {', '.join(dict.fromkeys(n.op for n in path))})" if path else ""
    verb = "is bounded by " if "compares it" in where else "indexes "
    shifted = f", shifted by {hi:+d} on the way" if hi else ""
    rank = None if shape is None else len(shape)
    kind = ("run" if (run or "position" in name.lower()) and rank is not None and rank <= 1 else
            "sorted" if name.lower() == "batch" else "range")
    return Derived(name, max(-lo, 0), high, kind, f"it {verb}{where}{via}{shifted}", hi, lo)


def derive(model, graph: Graph | None = None) -> dict:
    """Input name -> :class:`Derived`, for every integer input the graph says something of."""
    if not any(i.dtype is not None and np.dtype(i.dtype).kind in "iu" for i in model.inputs):
        return {}  # nothing to derive: the graph is not built
    graph = graph if graph is not None else graph_of(model)
    if graph is None:
        return {}
    out = {}
    for inp in model.inputs:
        d = derive_input(graph, inp.name, inp.dtype, inp.shape)
        if d is not None:
            out[inp.name] = d
    return out


def default_dims(model, given: dict | None = None) -> dict:
    """Symbolic dim -> the size a capture gives it when neither the user nor a given input does: for an OpenVINO
    IR, the sizes its shape inference accepts (:mod:`scatter_models.ir_symbols`), a dim the graph makes equal to
    one in ``given`` taking that one's size; else none (the plain default)."""
    if model.kind != "openvino-ir" or not model.symbolic_dims:
        return {}
    from .ir_symbols import ir_info

    info = ir_info(model)
    if not info:
        return {}
    sizes = dict(info["sizes"])
    for members in info.get("classes", []):
        set_here = [given[m] for m in members if given and m in given]
        if set_here:
            sizes.update({m: int(set_here[0]) for m in members})
    return sizes


def dims_refusal(model) -> str | None:
    """For an IR whose dims no tried sizes make acceptable: OpenVINO's words on the sizes tried (else None)."""
    if model.kind != "openvino-ir" or not model.symbolic_dims:
        return None
    from .ir_symbols import ir_info

    info = ir_info(model)
    return info.get("refusal") if info else None


def dims_hint(model, dims: dict) -> str:
    """For a failed IR run: the dims set away from the sizes the model accepts, or the dims no size tried made
    acceptable, each named ("" when there is nothing to say)."""
    if model.kind != "openvino-ir" or not model.symbolic_dims:
        return ""
    from .ir_symbols import ir_info

    info = ir_info(model) or {}
    accepted = info.get("sizes") or {}
    off = [f"{d} = {v} (accepted: {accepted[d]})" for d, v in dims.items() if d in accepted and accepted[d] != v]
    if off:
        return (" The dynamic dims set away from the sizes the model's shape inference and a trial run accept: "
                + ", ".join(off) + ".")
    if info.get("refusal"):
        free = [d for d in model.symbolic_dims if d not in (info.get("fixed") or {})]
        return (f" No sizes tried for the dynamic dims the graph does not fix ({', '.join(free) or 'none'}; tried "
                f"1, 2, 4, 8, 16, 32) made the model run; OpenVINO said: {info['refusal']}")
    return ""


def explained(model, dims: dict, given=()) -> list[str]:
    """What the graph says of each drawn input, in words (inputs in ``given`` are not drawn)."""
    return [d.text(dims) for name, d in derive(model).items() if name not in given]


def draw(d: Derived, shape, dtype, rng, dims: dict) -> np.ndarray | None:
    """Values for an input as ``d`` plans them (None when its bound is not known for these dims: the caller's
    plain draw stands)."""
    plan = d.plan(dims)
    if plan is None:
        return None
    how, low, b = plan
    shape = tuple(shape)
    if isinstance(b, list):
        if not shape or shape[-1] != len(b):
            return None
        return np.stack([rng.integers(low, x, size=shape[:-1]) for x in b], axis=-1).astype(dtype)
    if how == "count":
        return rng.integers(1, b + 1, size=shape).astype(dtype)
    n = int(np.prod(shape, dtype=np.int64))
    if how == "run" and n <= b - low:
        start = int(rng.integers(low, b - n + 1))
        return (start + np.arange(n)).reshape(shape).astype(dtype)
    values = rng.integers(low, b, size=shape)
    if how == "sorted":
        values = np.sort(values, axis=None).reshape(shape)
    return values.astype(dtype)


# -- the graph of an ONNX model ----------------------------------------------------------------------------------

def graph_of(model) -> Graph | None:
    """The walker's graph of ``model`` (cached on it); None when it cannot be built."""
    held = getattr(model, "_draw_graph", None)
    if held is not None:
        return held or None
    try:
        graph = _onnx_graph(model) if model.kind == "onnx" else _ir_graph(model)
    except Exception:  # noqa: BLE001 - no derivation then: the plain draws stand
        graph = None
    model._draw_graph = graph or False
    return graph


def _onnx_graph(model) -> Graph:
    import onnx
    from onnx import helper, numpy_helper

    from .onnx_file import infer, shape_of

    proto = onnx.ModelProto()
    proto.ParseFromString(model._payload)
    inferred = infer(proto)
    names = set(model.symbolic_dims)
    shapes, consts = {}, {}
    declared = {i.name: i.shape for i in model.inputs}

    def add_value(vi):
        _, shape = shape_of(vi.type)
        if shape is not None:
            shapes[vi.name] = tuple(d if isinstance(d, int) or d in names else None for d in shape)

    nodes = []

    def walk(graph):
        for vi in list(graph.input) + list(graph.value_info) + list(graph.output):
            add_value(vi)
        for t in graph.initializer:
            shapes[t.name] = tuple(int(d) for d in t.dims)
            if int(np.prod(t.dims, dtype=np.int64)) <= 64:
                consts[t.name] = numpy_helper.to_array(t)
        for n in graph.node:
            if n.op_type == "Constant" and n.output:
                for a in n.attribute:
                    if a.name == "value":
                        arr = numpy_helper.to_array(a.t)
                        shapes[n.output[0]] = arr.shape
                        if arr.size <= 64:
                            consts[n.output[0]] = arr
            attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute
                     if a.type in (onnx.AttributeProto.INT, onnx.AttributeProto.FLOAT, onnx.AttributeProto.STRING)}
            nodes.append(Node(n.op_type, n.name or n.op_type, list(n.input) or [], list(n.output), attrs))
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g)  # a body or branch names the outer values it reads: edges from them

    walk(inferred.graph)
    for name, shape in declared.items():
        if shape is not None:
            shapes[name] = shape
    for node in nodes:
        node.inputs = [t or None for t in node.inputs]
        node.shapes = [shapes.get(t) if t else None for t in node.inputs]
    return Graph(nodes, consts)


def _ir_graph(model) -> Graph | None:
    """An IR's graph as OpenVINO's shape inference sees it (dims named by the Parameter dims they stand for)."""
    from .ir_symbols import ir_info

    info = ir_info(model)
    if info is None:
        return None
    nodes = [Node(n["op"], n["name"], n["inputs"], n["outputs"], n["attrs"],
                  [None if s is None else tuple(s) for s in n["shapes"]]) for n in info["nodes"]]
    return Graph(nodes, {k: np.asarray(v) for k, v in info["consts"].items()})
