"""Lift a subgraph node's tensors out to the model's outputs, so onnxruntime's run of the whole model gives them.

onnxruntime returns only a model's graph outputs; a tensor inside an ``If``, ``Loop`` or ``Scan`` body (or a
local function) has no name there. :func:`lift_nodes` rewrites a copy of the model so it does, without
changing what it computes: local functions inlined first, a Loop or Scan body's value as an extra scan output
(one slice per iteration), an If branch's value beside an empty placeholder in the other branch (with a flag
saying which branch ran), level by level up to the main graph.

:func:`read_calls` turns the run's outputs back into each node's calls: their number, and the first call's
inputs and output, as the onnx.reference capture records them. Everything here runs in the capture's child
process; onnx is imported only there. The rewrite rule by rule: docs/architecture.md, scatter_models/lift.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

PREFIX = "__scatter_models_lift"
ITERATING = ("Loop", "Scan")


class LiftError(Exception):
    """The rewrite is not possible for a node (the reason is said to the user)."""


@dataclass
class Lifted:
    """One value as the rewritten model's output: ``name`` in the main graph, ``axes`` the depths (into the
    instance's ``parents``) of the Loop/Scan levels that stacked it, outermost first."""

    name: str
    axes: tuple = ()


@dataclass
class Instance:
    """One occurrence of a wanted node in the (inlined) model: its lifted inputs and output, and the flags of
    the If branches that hold it (each a :class:`Lifted` bool)."""

    inputs: list  # Lifted or None (an input left out)
    output: Lifted
    flags: list = field(default_factory=list)
    iter_depths: tuple = ()  # the depths of the Loop/Scan levels around the node, outermost first
    kinds: tuple = ()  # the op types around it, outermost first


def _defined_names(graph) -> set:
    """The names a graph makes: its nodes' outputs, its inputs and its initializers."""
    return ({o for n in graph.node for o in n.output} | {i.name for i in graph.input}
            | {t.name for t in graph.initializer})


def _path_key(parents: tuple) -> tuple:
    return tuple((p[0].op_type, p[0].output[0] if p[0].output else "", p[1]) for p in parents)


def walk(graph, parents=()):
    """(node, parents) for every node of ``graph`` and of its subgraphs; parents as in the listing."""
    from onnx import AttributeProto as A

    for node in graph.node:
        yield node, parents
        for a in node.attribute:
            subs = [a.g] if a.type == A.GRAPH else list(a.graphs) if a.type == A.GRAPHS else []
            for g in subs:
                yield from walk(g, parents + ((node, a.name, g),))


def value_types(model) -> dict:
    """Tensor name -> ONNX element type, from shape inference over the whole model (subgraphs too)."""
    import onnx
    from onnx import AttributeProto as A

    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except Exception:  # noqa: BLE001 - types stay unknown where inference fails
        inferred = model
    out = {}

    def visit(graph):
        for t in graph.initializer:
            out[t.name] = t.data_type
        for vi in list(graph.input) + list(graph.value_info) + list(graph.output):
            if vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type:
                out[vi.name] = vi.type.tensor_type.elem_type
        for node in graph.node:
            if node.op_type == "Constant":
                for a in node.attribute:
                    if a.name == "value" and a.type == A.TENSOR:
                        out[node.output[0]] = a.t.data_type
            for a in node.attribute:
                for g in ([a.g] if a.type == A.GRAPH else list(a.graphs) if a.type == A.GRAPHS else []):
                    visit(g)

    visit(inferred.graph)
    return out


class Lifter:
    def __init__(self, model, types: dict):
        self.model = model
        self.types = types
        self.count = 0
        self.done: dict = {}  # (path of the innermost graph, name) -> Lifted: a value lifted once serves all
        self.defined: dict = {}  # path of a graph -> the names it makes (read once, kept up to date)

    def _defined_in(self, parents: tuple, depth: int, name: str) -> bool:
        key = _path_key(parents[:depth + 1])
        if key not in self.defined:
            self.defined[key] = _defined_names(parents[depth][2])
        return name in self.defined[key]

    def _made_beside(self, parents: tuple, depth: int, name: str) -> None:
        """``name`` is now a new output of the control-flow node at ``depth``: made in the graph holding it."""
        if depth > 0 and _path_key(parents[:depth]) in self.defined:
            self.defined[_path_key(parents[:depth])].add(name)

    def fresh(self) -> str:
        self.count += 1
        return f"{PREFIX}_{self.count}"

    def lift(self, name: str, parents: tuple, elem: int | None = None) -> Lifted:
        """``name``, read in the innermost graph of ``parents``, as a main-graph value."""
        from onnx import helper

        key = (_path_key(parents), name)
        if key in self.done:
            return self.done[key]
        elem = elem or self.types.get(name)
        current, axes = name, []
        for depth in range(len(parents) - 1, -1, -1):
            node, attr, graph = parents[depth]
            if not self._defined_in(parents, depth, current):
                continue  # a value of an enclosing graph: the same at this level
            inside, outside = self.fresh(), self.fresh()
            graph.node.append(helper.make_node("Identity", [current], [inside]))
            self.defined.get(_path_key(parents[:depth + 1]), set()).add(inside)
            graph.output.append(helper.make_tensor_value_info(inside, elem, None) if elem
                                else helper.make_empty_tensor_value_info(inside))
            if node.op_type in ITERATING:
                if node.op_type == "Scan":
                    self._extend_scan_attrs(node)
                axes.insert(0, depth)
            elif node.op_type == "If":
                if not elem:
                    raise LiftError(f"the element type of {current!r} is unknown, so the other branch of If "
                                    f"{node.name!r} cannot get a placeholder of that type")
                other = _other_branch(node, attr)
                empty = helper.make_tensor(f"{PREFIX}_empty", elem, [0], [])
                holder = self.fresh()
                other.node.append(helper.make_node("Constant", [], [holder], value=empty))
                other.output.append(helper.make_tensor_value_info(holder, elem, None))
            else:
                raise LiftError(f"it is inside {node.op_type} {node.name!r}, which is not an If, Loop or Scan")
            node.output.append(outside)
            self._made_beside(parents, depth, outside)
            current = outside
        lifted = Lifted(current, tuple(axes))
        self.done[key] = lifted
        return lifted

    def flag(self, parents: tuple, depth: int) -> Lifted:
        """A bool that is true when the branch of the If at ``depth`` holding the node ran."""
        from onnx import TensorProto, helper

        node, attr, graph = parents[depth]
        mine, other = self.fresh(), self.fresh()
        graph.node.append(helper.make_node("Constant", [], [mine], value=helper.make_tensor(
            f"{PREFIX}_true", TensorProto.BOOL, [], [True])))
        branch = _other_branch(node, attr)
        branch.node.append(helper.make_node("Constant", [], [other], value=helper.make_tensor(
            f"{PREFIX}_false", TensorProto.BOOL, [], [False])))
        # a new output of both branches, true here and false there (not through lift(), which would give the
        # other branch an empty placeholder); above the If it is lifted as any value
        graph.output.append(helper.make_tensor_value_info(mine, TensorProto.BOOL, None))
        branch.output.append(helper.make_tensor_value_info(other, TensorProto.BOOL, None))
        outside = self.fresh()
        node.output.append(outside)
        self._made_beside(parents, depth, outside)
        lifted = self.lift(outside, parents[:depth], TensorProto.BOOL) if depth else Lifted(outside, ())
        return lifted

    @staticmethod
    def _extend_scan_attrs(node) -> None:
        for a in node.attribute:
            if a.name in ("scan_output_axes", "scan_output_directions"):
                a.ints.append(0)  # the new scan output: stacked along axis 0, forward


def _other_branch(node, attr: str):
    want = {"then_branch": "else_branch", "else_branch": "then_branch"}.get(attr)
    for a in node.attribute:
        if a.name == want:
            return a.g
    raise LiftError(f"If {node.name!r} has no {want}")


_SUFFIX = re.compile(r"(.+)__\d+")


def instances_of(model, keys) -> dict:
    """key -> (node, parents) of every occurrence of the node named ``key`` (an inlined function's instances
    are named ``key__<n>``), in graph order; one walk over the model."""
    wanted = set(keys)
    exact, inlined = {}, {}
    for node, parents in walk(model.graph):
        if node.name in wanted:
            exact.setdefault(node.name, []).append((node, parents))
            continue
        base = node.name
        while (found := _SUFFIX.fullmatch(base)) is not None:  # key__1, key__1__2 (nested calls) ...
            base = found.group(1)
            if base in wanted:
                inlined.setdefault(base, []).append((node, parents))
                break
    return {k: exact.get(k) or inlined.get(k) or [] for k in keys}


def lift_nodes(model, keys: list, in_function: bool) -> tuple[dict, dict, bool]:
    """Rewrite ``model`` in place so each node named in ``keys`` has its inputs and output as main-graph values.

    Returns ({key: [Instance]}, {key: why not}, whether functions were inlined). ``model`` is changed."""
    inlined = False
    if in_function:
        from onnx import inliner

        model.CopyFrom(inliner.inline_local_functions(model))
        inlined = True
    types = value_types(model)
    lifter = Lifter(model, types)
    plans, why = {}, {}
    occurrences = instances_of(model, keys)
    for key in keys:
        found = occurrences[key]
        if not found:
            why[key] = "the node was not found again after its local function was inlined"
            continue
        try:
            made = []
            for node, parents in found:
                if any(p[0].op_type == "Scan" and _opset(model) < 9 for p in parents):
                    raise LiftError("Scan before opset 9 has a batch axis that is not rewritten here")
                inputs = [lifter.lift(name, parents) if name else None for name in node.input]
                output = lifter.lift(node.output[0], parents, types.get(node.input[0]) if node.input else None)
                flags = [lifter.flag(parents, d) for d, p in enumerate(parents) if p[0].op_type == "If"]
                made.append(Instance(inputs, output, flags,
                                     tuple(d for d, p in enumerate(parents) if p[0].op_type in ITERATING),
                                     tuple(p[0].op_type for p in parents)))
            plans[key] = made
        except LiftError as exc:
            why[key] = str(exc)
    return plans, why, inlined


def _opset(model) -> int:
    return next((int(o.version) for o in model.opset_import if (o.domain or "") in ("", "ai.onnx")), 0)


def _pick(value: np.ndarray, lifted: Lifted, index: dict) -> np.ndarray | None:
    """The slice of a stacked value for one call (``index``: depth -> iteration)."""
    if value is None:
        return None
    return value[tuple(index[d] for d in lifted.axes)] if lifted.axes else value


def read_calls(instance: Instance, values: dict):
    """(number of calls, first call's inputs, first call's output) of one instance; (0, None, None) when the
    node did not run (a Loop of no iteration, a branch not taken)."""
    out = values.get(instance.output.name)
    if out is None:
        return 0, None, None
    counts = out.shape[:len(instance.iter_depths)]
    flags = [(f, values.get(f.name)) for f in instance.flags]
    calls, first = 0, None
    for position in np.ndindex(*counts) if counts else [()]:
        index = dict(zip(instance.iter_depths, position))
        if all(arr is not None and bool(np.asarray(_pick(arr, f, index))) for f, arr in flags):
            calls += 1
            if first is None:
                first = index
    if first is None:
        return 0, None, None
    inputs = [None if lf is None else _pick(values.get(lf.name), lf, first) for lf in instance.inputs]
    return calls, inputs, _pick(out, instance.output, first)
