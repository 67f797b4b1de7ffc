"""The ONNX model of a composition: a framework call that no single ONNX operator computes.

Where :func:`~from_code.translate.from_call` finds no exact ONNX operator (``Translation.onnx`` empty), its
``composition`` text says which operators are. :func:`composition_graph` builds exactly that graph on the call's
tensors, around the newest ONNX operator the composition needs (ScatterElements-18, ScatterND-18), as
:class:`scatter_export.graphs.GraphNode` records; scatter_export builds and checks the model
(:meth:`CompositionGraph.model`). The compositions: include_self=False (the reduction's neutral value written
first), mean (sums and counts, then a division), sub (Neg), index_add's alpha (Mul), read-combine-write
(``x[idx] += v``: Gather first), a strided slice (its coordinates built from Ranges, then ScatterND) and a
boolean mask (NonZero, or one Where), alone or beside indices and whole slices.

The expected output is the case's (:func:`~from_code.case.case_for`): what the page shows. Each composition
in detail, with the upstream threads: docs/architecture.md, from_code/graph.py.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

import scatter_core as sc
from scatter_export.graphs import GraphNode, graph_model

from .translate import ELEMENTWISE, MASK, MASK_AXIS, ND, ONNX, WHERE, Translation, _err, _pick
from .case import (CallCase, _slice_shape, advanced_kinds, case_for, ellipsis_separates, index_elements,
                              resolve)

CORE_REDUCTION = {"mean": "sum", "sub": "sum"}  # the reduction the core scatter runs where ONNX lacks the call's


@dataclass(frozen=True)
class CompositionGraph:
    """A composition on concrete tensors: its nodes, the graph inputs (``feeds``) and constants, the ONNX
    operator at its core, and why it takes these nodes."""

    nodes: tuple[GraphNode, ...]
    feeds: tuple[tuple[str, np.ndarray], ...]
    constants: tuple[tuple[str, np.ndarray], ...]
    core: str  # the versioned ONNX operator the composition is built around ("ScatterElements-18")
    why: str  # one paragraph, plain text
    call_case: CallCase  # the case whose output the model must give

    @property
    def opset(self) -> int:
        return sc.OPERATORS[self.core].version

    @property
    def summary(self) -> str:
        """"The ONNX model is 4 nodes (Shape → Expand → ScatterElements → ScatterElements): why." (plain text)"""
        n = len(self.nodes)
        return (f"The ONNX model is {n} node{'s' if n != 1 else ''} (" + " → ".join(x.op_type for x in self.nodes)
                + f", opset {self.opset}): {self.why}")

    def model(self) -> bytes:
        """The serialized, checked model (deterministic bytes; needs onnx)."""
        return graph_model(self.nodes, self.feeds, "output", self.call_case.case.data, constants=self.constants,
                           opset=self.opset, graph_name="from_your_code_composition")


def needs_graph(tr: Translation) -> bool:
    """Whether the call's ONNX form is a composition (no single ONNX operator is exact); an ambiguous answer
    (``readings``) has none until its tensors decide the reading."""
    return not tr.onnx and tr.composition is not None and not tr.readings


class _Graph:
    """Nodes in order, named by position (deterministic: the same call and tensors give the same graph)."""

    def __init__(self):
        self.nodes: list[GraphNode] = []
        self.constants: list[tuple[str, np.ndarray]] = []

    def const(self, name: str, value) -> str:
        self.constants.append((name, np.asarray(value)))
        return name

    def add(self, op_type: str, *inputs: str, out: str | None = None, **attrs) -> str:
        name = out or f"{op_type.lower()}_{len(self.nodes)}"
        self.nodes.append(GraphNode(op_type, tuple(inputs), (name,), dict(attrs)))
        return name


def _core(tr: Translation, cc: CallCase) -> tuple[sc.OpSpec, dict]:
    """The newest ONNX operator the composition is built around, and its node attributes in ONNX's form (through
    each attribute's codec): the call's form (a slice or a mask: ScatterND's coordinates), the reduction ONNX
    runs (none where the call reads before it writes), the case's own axis."""
    r = tr.reading
    plain = r.gather_first or r.form.strided or r.form.mask and r.canonical == "none"
    probe = replace(r, form=ND if r.form.strided or r.form.mask else r.form, alpha=None, init=True, where=False,
                    gather_first=False, canonical="none" if plain else CORE_REDUCTION.get(r.canonical, r.canonical))
    found = _pick(probe, ONNX, False)[0]
    if not found:
        raise _err(f"no ONNX operator is at the core of {tr.function}'s composition", argument="export",
                   rule="onnx-export")
    name, attrs = found[0]
    spec = sc.OPERATORS[name]
    axis = sc.codec_with_role(spec, "axis")
    if axis is not None and cc.case.resolved.axis is not None:  # the axis the case's indices were built along
        attrs = {**attrs, axis.name: cc.case.resolved.axis}
    return spec, {n: sc.codec_of(spec, n).to_onnx(v) for n, v in attrs.items()}


def _reducing(spec: sc.OpSpec, attrs: dict, canonical: str) -> dict:
    """``attrs`` with the core's reduction attribute set to ``canonical`` (in the version's spelling)."""
    codec = sc.codec_with_role(spec, "reduction")
    return {**attrs, codec.name: codec.to_onnx(spec.spelling_of(canonical))}


def _grid(g: _Graph, shape: tuple[int, ...], spans: list) -> tuple[str, int]:
    """The coordinates of a strided slice as a graph: per leading axis up to the last sliced one, a Range of the
    slice's positions on it, reshaped to stand on its own axis and expanded to the slice's size; concatenated
    on a new last axis. Returns (its output, k: the axes it addresses; the others are whole)."""
    ranges = [(0, n, 1) for n in shape]
    for a, lo, hi, st, _ in spans:
        ranges[a % len(shape)] = slice(lo, hi, st).indices(shape[a % len(shape)])
    k = max(a % len(shape) for a, *_ in spans) + 1
    sizes = [len(range(*ranges[a])) for a in range(k)]
    if 0 in sizes:  # onnxruntime's shape inference refuses an expanded grid with a zero-size axis
        axis = sizes.index(0)
        raise _err(f"the slice selects no element on axis {axis} (size {shape[axis]}): the call writes nothing, so "
                   "there is no composition to export (the output is data)", argument="index", rule="empty-slice")
    target = g.const("grid_shape", np.array(sizes + [1], dtype=np.int64))
    columns = []
    for a in range(k):
        start, limit, delta = (g.const(f"{w}_{a}", np.int64(v)) for w, v in zip(("start", "limit", "delta"),
                                                                                  ranges[a]))
        on_axis = [1] * (k + 1)
        on_axis[a] = sizes[a]
        column = g.add("Reshape", g.add("Range", start, limit, delta),
                       g.const(f"axis_{a}_shape", np.array(on_axis, dtype=np.int64)), allowzero=1)  # an empty slice
        columns.append(g.add("Expand", column, target))
    return g.add("Concat", *columns, axis=-1), k


def _gather_attrs(spec: sc.OpSpec, attrs: dict) -> dict:
    axis = sc.codec_with_role(spec, "axis")
    return {axis.name: attrs[axis.name]} if axis is not None and axis.name in attrs else {}


def composition_graph(tr: Translation, tensors) -> CompositionGraph:
    """The ONNX graph of ``tr``'s composition on ``tensors`` (raises ScatterError where the call has one ONNX
    operator, or the tensors do not make a case)."""
    if tr.readings:  # the tensors decide the reading (a bool tensor: a mask)
        tr = resolve(tr, tensors)
    if not needs_graph(tr):
        raise _err(f"{tr.function} is one ONNX operator ({tr.onnx[0][0]}): its export is that one node"
                   if tr.onnx else f"{tr.function} has no composition", argument="export", rule="onnx-export")
    cc = case_for(tr, tensors)
    r = tr.reading
    spec, attrs = _core(tr, cc)
    data, indices, updates = cc.case.given()
    dtype = data.dtype
    g = _Graph()
    scatter = spec.op_type
    feeds: list[tuple[str, np.ndarray]] = [("data", data)]
    if r.form.mask:
        why = _mask_graph(g, tr, tensors, cc, spec, attrs, feeds)
    elif r.gather_first or r.form.strided:
        if r.form.strided:
            spans, _ = _slice_shape(tr, data)
            coords, k = _grid(g, data.shape, spans)
            axes = "axis 0" if k == 1 else f"each of axes 0 to {k - 1}"
            where = (f"the slice's coordinates are built in the graph: a Range of the slice's positions on {axes}, "
                     "reshaped and expanded into a grid of the SLICE's size (not data's: onnxscript PR #1308 built "
                     "one of data's whole size) and concatenated (Concat)")
        else:
            feeds.append(("indices", indices))
            coords, where = "indices", "the indices are the call's, as the page lists them"
        if r.gather_first:
            feeds.append(("values", cc.values))
            gather = scatter.replace("Scatter", "Gather", 1)  # the Gather reading what the scatter writes
            old = g.add(gather, "data", coords, **_gather_attrs(spec, attrs))
            new = g.add(ELEMENTWISE[r.canonical], old, "values")
            g.add(scatter, "data", coords, new, out="output", **attrs)
            dups = ("" if r.form.strided else ": with duplicate indices each duplicate combines with the ORIGINAL "
                    "cell and one of them wins, as in the framework")  # a slice names each cell once
            why = (f"the call reads the cells ({gather}), combines once ({ELEMENTWISE[r.canonical]}) and writes "
                   f"back ({scatter} with reduction none){dups}; {where}.")
        else:
            feeds.append(("updates", updates))
            g.add(scatter, "data", coords, "updates", out="output", **attrs)
            why = f"ONNX has no operator that writes a strided slice: {where}, then {scatter} writes the values."
    else:
        feeds += [("indices", indices), ("updates", updates if cc.values is None else cc.values)]
        why = _reduce_graph(g, tr, spec, attrs, cc)
    return CompositionGraph(tuple(g.nodes), tuple(feeds), tuple(g.constants), spec.name, why, cc)


def _reduce_graph(g: _Graph, tr: Translation, spec: sc.OpSpec, attrs: dict, cc: CallCase) -> str:
    """The compositions around a reducing scatter on (data, indices, updates); returns why."""
    r, dtype, scatter = tr.reading, cc.case.data.dtype, spec.op_type
    if r.alpha is not None:
        scaled = g.add("Mul", "updates", g.const("alpha", np.asarray(r.alpha).astype(dtype)))
        g.add(scatter, "data", "indices", scaled, out="output", **attrs)
        return (f"index_add's alpha={sc.fmt_value(np.asarray(r.alpha).astype(dtype))} scales source first (Mul), "
                f"then {scatter} adds it.")
    if r.canonical == "mean":
        one = g.const("one", np.ones((), dtype))
        zero = None if r.init else g.const("zero", np.zeros((), dtype))
        none, add = _reducing(spec, attrs, "none"), _reducing(spec, attrs, "sum")
        shape = g.add("Shape", "updates")
        ones = g.add("Expand", one, shape)
        base = "data"
        if not r.init:  # the sums start from zeros in the written cells
            base = g.add(scatter, "data", "indices", g.add("Expand", zero, shape), **none)
        sums = g.add(scatter, base, "indices", "updates", **add)
        start = g.add("Expand", one if r.init else zero, g.add("Shape", "data"))
        counts = g.add(scatter, start, "indices", ones, **add)
        divisor = counts if r.init else g.add("Max", counts, one)
        if dtype.kind in "iu":  # floor division, exactly: (s - s mod c) / c divides without a remainder
            exact = g.add("Sub", sums, g.add("Mod", sums, divisor, fmod=0))
            mean = g.add("Div", exact, divisor, **({"out": "output"} if r.init else {}))
        else:
            mean = g.add("Div", sums, divisor, **({"out": "output"} if r.init else {}))
        if not r.init:
            g.add("Where", g.add("Greater", counts, zero), mean, "data", out="output")
        return (f"ONNX has no mean reduction: one {scatter} add sums the values"
                + (" into data" if r.init else " into zeros first written into the indexed cells (reduction none)")
                + f", another counts the contributions ({'ones: data counts once' if r.init else 'from zeros'}), "
                + "and Div divides" + (" (integers: floor division, as (sum - Mod(sum, count)) / count, which "
                                       "divides exactly)" if dtype.kind in "iu" else "")
                + ("" if r.init else "; Where keeps data where nothing was written") + ".")
    if not r.init:
        neutral = cc.case.reduction.neutral_for(dtype)
        filled = g.add("Expand", g.const("neutral", np.asarray(neutral).astype(dtype)), g.add("Shape", "updates"))
        base = g.add(scatter, "data", "indices", filled, **_reducing(spec, attrs, "none"))
        g.add(scatter, base, "indices", "updates", out="output", **attrs)
        return (f"include_self=False has no ONNX attribute: the first {scatter} (reduction none) writes the "
                f"reduction's neutral value {sc.fmt_value(neutral)} into every indexed cell (Shape, Expand: one per "
                f"update), so the second ({scatter} with the reduction) reduces the updates alone there; cells no "
                "index names keep data. torch.onnx's TorchScript exporter refuses include_self=False "
                "(pytorch#106373); onnxscript's torchlib (the dynamo exporter) first writes a start value into the "
                "indexed cells too (PR #2090), for max the dtype's lowest finite value, which differs from -inf "
                "where every contribution is -inf.")
    if r.canonical == "sub":
        g.add(scatter, "data", "indices", g.add("Neg", "updates"), out="output", **attrs)
        return (f"ONNX has no sub reduction: Neg on the updates, then {scatter} adds them (integers wrap around "
                "alike, so this is exact).")
    raise _err(f"{tr.function}: no ONNX graph is written for this composition", argument="export",
               rule="onnx-export")


def _mask_graph(g: _Graph, tr: Translation, tensors, cc: CallCase, spec: sc.OpSpec, attrs: dict, feeds: list) -> str:
    """A masked write's graph: Where where the values reach the cells without a scatter, else NonZero rows as
    ScatterND's indices; returns why. ``feeds`` holds data (the case's); the mask and values are added."""
    r, data = tr.reading, cc.case.data
    dtype = data.dtype
    named = {s.role: s for s in tr.slots}
    mslot, upd = named["mask"], named["updates"]
    mask = np.asarray(tensors[mslot.name])

    def value(slot, name):  # a number as a constant, a tensor as a graph input (in data's dtype)
        if slot.scalar is not None:
            return g.const(name, np.asarray(slot.scalar).astype(dtype))
        with np.errstate(all="ignore"):
            feeds.append((name, np.asarray(tensors[slot.name]).astype(dtype)))
        return name

    if r.form is WHERE:
        feeds.clear()
        feeds.append(("mask", mask))
        y = value(named["data"], "y")
        x = value(upd, "x")
        if r.cyclic:  # np.putmask: the values repeat over data's flat positions
            size = int(np.prod(data.shape))
            repeats = -(-size // max(int(np.asarray(tensors[upd.name]).size if upd.scalar is None else 1), 1))
            flat = g.add("Reshape", x, g.const("flat", np.array([-1], dtype=np.int64)))
            tiled = g.add("Tile", flat, g.const("repeats", np.array([repeats], dtype=np.int64)))
            cut = g.add("Slice", tiled, g.const("start", np.array([0], dtype=np.int64)),
                        g.const("size", np.array([size], dtype=np.int64)))
            x = g.add("Reshape", cut, g.const("data_shape", np.array(data.shape, dtype=np.int64)))
        g.add("Where", "mask", x, y, out="output")
        return ("Where(mask, X, Y) computes the call exactly: X where the mask is True, Y elsewhere, the three "
                "broadcast together" + ("; np.putmask's values are tiled to data's size first (Reshape, Tile, "
                                        "Slice, Reshape)" if r.cyclic else "") + ": no scatter is needed.")
    feeds.append(("mask", mask))
    if r.broadcast_mask:  # masked_scatter: the first count(mask) values of source, row-major
        feeds[-1] = ("mask", np.ascontiguousarray(np.broadcast_to(mask, data.shape)))
        rows = g.add("Transpose", g.add("NonZero", "mask"), perm=[1, 0])
        with np.errstate(all="ignore"):
            feeds.append(("source", np.asarray(tensors[upd.name]).astype(dtype)))
        flat = g.add("Reshape", "source", g.const("flat", np.array([-1], dtype=np.int64)))
        count = g.add("Shape", rows, start=0, end=1)
        values = g.add("Slice", flat, g.const("first", np.array([0], dtype=np.int64)), count)
        g.add(spec.op_type, "data", rows, values, out="output", **attrs)
        return ("no scatter takes a boolean mask: NonZero(mask), transposed to one row per True cell (row-major), "
                "is ScatterND's indices, and its updates are the first count(mask) values of source, flattened "
                "(Reshape, Shape of the rows, Slice).")
    op = ELEMENTWISE.get(r.canonical)
    if r.where:  # a number, or values broadcasting over the cells of one True position
        if r.form is MASK_AXIS:
            a = r.axis % data.ndim
            stand = (mask.size,) + (1,) * (data.ndim - a - 1)
        else:
            stand = mask.shape + (1,) * (data.ndim - mask.ndim)
        m = "mask" if stand == mask.shape else g.add("Reshape", "mask", g.const("mask_shape", np.array(
            stand, dtype=np.int64)))
        if upd.scalar is None:  # the values without the leading axes of 1 that broadcasting adds
            raw = np.asarray(tensors[upd.name])
            shape = raw.shape
            while len(shape) > data.ndim - mask.ndim and shape[0] == 1:
                shape = shape[1:]
            with np.errstate(all="ignore"):
                feeds.append(("values", raw.reshape(shape).astype(dtype)))
            v = "values"
        else:
            v = g.const("value", np.asarray(upd.scalar).astype(dtype))
        new = v if op is None else g.add(op, "data", v)
        g.add("Where", m, new, "data", out="output")
        return ("no scatter is needed: Where(mask, " + ("value" if op is None else f"{op}(x, value)") + ", x) "
                "writes wherever the mask is True" + (" (the mask reshaped with trailing axes of 1 to broadcast)"
                                                      if m != "mask" else "") +
                "; a ScatterElements node for a masked fill is what pytorch#126856 saw fail in onnxruntime.")
    if r.form is not MASK or len(r.parts) != 1:  # a mask beside integer indices or whole slices
        return _advanced_graph(g, tr, tensors, cc, spec, attrs, feeds)
    rows = g.add("Transpose", g.add("NonZero", "mask"), perm=[1, 0])
    feeds.append(("values", cc.values if cc.values is not None else cc.case.updates))
    scatter = spec.op_type
    if r.gather_first:
        old = g.add(scatter.replace("Scatter", "Gather", 1), "data", rows)
        g.add(scatter, "data", rows, g.add(op, old, "values"), out="output", **attrs)
        how = f"reads the cells (GatherND), combines once ({op}) and writes back ({scatter}, reduction none)"
    elif r.canonical == "sub":
        g.add(scatter, "data", rows, g.add("Neg", "values"), out="output", **attrs)
        how = f"adds the negated values ({scatter} reduction add after Neg)"
    else:
        g.add(scatter, "data", rows, "values", out="output", **attrs)
        how = f"writes the values ({scatter}, reduction {r.canonical})"
    return ("no scatter takes a boolean mask: NonZero(mask), transposed to one row per True cell (row-major), is "
            f"{scatter}'s indices; the graph {how}; a mask names each cell once, so no duplicate meets another.")


def _advanced_graph(g: _Graph, tr: Translation, tensors, cc: CallCase, spec: sc.OpSpec, attrs: dict,
                    feeds: list) -> str:
    """A mask beside integer indices or whole slices (x[i, m], x[:, m], x[..., m], x[i, :, m]) as ScatterND on
    coordinates built in the graph, by NumPy's advanced-indexing rules: each mask's NonZero rows (one 1-D index
    per axis it covers), the integer tensors and numbers broadcast together to the shape B; a Range per whole
    axis; B stands where the advanced indices are when they are adjacent, first when a slice separates them.
    Each coordinate is unsqueezed to its place, all are expanded to their broadcast shape and concatenated: one
    row per written cell (the axes after the last index stay whole in ScatterND's slices). The values are
    expanded to the written cells' shape. Returns why."""
    r, data = tr.reading, cc.case.data
    dtype, named = data.dtype, {s.name: s for s in tr.slots}
    elements = index_elements(tr, tensors, data)
    per_axis, ranks = [], []  # per data axis: ("whole", size) or ("adv", graph name, rank); ranks: advanced only
    for j, (kind, name) in enumerate(elements):
        if kind == "colon":
            per_axis.append(("whole", data.shape[len(per_axis)]))
        elif kind == "const":
            per_axis.append(("adv", g.const(f"index_{j}", np.int64(name)), 0))
        elif kind == "slot":
            arr = np.asarray(tensors[name]).astype(np.int64)
            feeds.append((name, arr))
            per_axis.append(("adv", name, arr.ndim))
        else:
            mask = np.asarray(tensors[name])
            feeds.append((name, mask))
            rows = g.add("NonZero", name)
            for d in range(mask.ndim):  # one 1-D index per axis the mask covers
                per_axis.append(("adv", g.add("Gather", rows, g.const(f"row_{j}_{d}", np.int64(d)), axis=0), 1))
        if kind != "colon":
            ranks.append(per_axis[-1][2])
    kept = [j for j, (kind, _) in enumerate(elements) if kind == "colon" or kind in advanced_kinds(tr)]
    advanced = [n for n, j in enumerate(kept) if elements[j][0] != "colon"]  # PyTorch's integers select first
    adjacent = advanced == list(range(advanced[0], advanced[-1] + 1)) and not ellipsis_separates(tr)
    k = max(a for a, p in enumerate(per_axis) if p[0] == "adv") + 1  # the axes after stay whole (ScatterND slices)
    b = max(ranks)
    wholes = [a for a in range(k) if per_axis[a][0] == "whole"]
    axis_of = [a for j, (kind, name) in enumerate(elements)
               for a in [sum(np.asarray(tensors[n]).ndim if kd == "mask" else 1 for kd, n in elements[:j])]]
    first = axis_of[kept[advanced[0]]]
    at_b = sum(1 for a in wholes if a < first) if adjacent else 0  # where B stands among the written cells' axes
    rank = b + len(wholes)
    columns = []
    for a in range(k):
        kind, *rest = per_axis[a]
        if kind == "whole":
            pos = (list(range(at_b)) + list(range(at_b + b, rank)) if adjacent else list(range(b, rank)))[
                wholes.index(a)]
            column, taken = g.add("Range", *(g.const(f"{w}_{a}", np.int64(v)) for w, v in
                                             zip(("start", "limit", "delta"), (0, rest[0], 1)))), [pos]
        else:
            column, taken = rest[0], list(range(at_b + b - rest[1], at_b + b))  # NumPy aligns ranks on the right
        axes = [p for p in range(rank + 1) if p not in taken]
        columns.append(g.add("Unsqueeze", column, g.const(f"axes_{a}", np.array(axes, dtype=np.int64))))
    if len(columns) > 1:
        together = columns[0]
        for c in columns[1:]:  # the shape all coordinates broadcast to (Add of the coordinates: only its shape)
            together = g.add("Add", together, c)
        shape = g.add("Shape", together)
        columns = [g.add("Expand", c, shape) for c in columns]
    coords = g.add("Concat", *columns, axis=-1) if len(columns) > 1 else columns[0]
    cells = g.add("Shape", coords, start=0, end=-1)
    if k < data.ndim:
        cells = g.add("Concat", cells, g.const("rest_shape", np.array(data.shape[k:], dtype=np.int64)), axis=0)
    upd = named[next(s.name for s in tr.slots if s.role == "updates")]
    if upd.scalar is not None:
        raw = g.const("value", np.asarray(upd.scalar).astype(dtype))
    else:  # the values without the leading axes of 1 that broadcasting adds
        values = np.asarray(tensors[upd.name])
        shape = values.shape
        while len(shape) > rank + data.ndim - k and shape[0] == 1:
            shape = shape[1:]
        with np.errstate(all="ignore"):
            feeds.append(("values", values.reshape(shape).astype(dtype)))
        raw = "values"
    new = g.add("Expand", raw, cells)
    scatter, op = spec.op_type, ELEMENTWISE.get(r.canonical)
    if r.gather_first:
        old = g.add(scatter.replace("Scatter", "Gather", 1), "data", coords)
        g.add(scatter, "data", coords, g.add(op, old, new), out="output", **attrs)
        how = f"reads the cells (GatherND), combines once ({op}) and writes back ({scatter}, reduction none)"
    elif r.canonical == "sub":
        g.add(scatter, "data", coords, g.add("Neg", new), out="output", **attrs)
        how = f"adds the negated values ({scatter} reduction add after Neg)"
    else:
        g.add(scatter, "data", coords, new, out="output", **attrs)
        how = f"writes the values ({scatter}, reduction {r.canonical})"
    ints = any(kind in ("slot", "const") for kind, _ in elements)
    order = ("" if not wholes else ", placed where the indices stand" if adjacent else
             ", then the sliced axes: a slice (or, in NumPy and JAX, an ellipsis) separates the indices, so their "
             "axes come first by NumPy's rule")
    return ("no scatter takes a boolean mask: its NonZero rows (Gather: one 1-D index per axis the mask covers)"
            + (", broadcast with the integer indices," if ints else "")
            + (" and a Range per whole axis" + (f" up to axis {k - 1}" if k < data.ndim else "") if wholes else "")
            + f" are unsqueezed to their places (the indices' "
            f"broadcast shape{order}), expanded to one shape (Add, Shape, Expand) and concatenated (Concat) into "
            f"{scatter}'s indices, one row per written cell; the values are expanded to the cells' shape (Shape, "
            + ("Concat, " if k < data.ndim else "") + f"Expand); the graph {how}"
            + ("; a repeated integer index writes a cell twice (one write wins, as in the framework)."
               if ints else "; a mask names each cell once, so no duplicate meets another."))
