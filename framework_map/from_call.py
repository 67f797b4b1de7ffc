"""From your framework's call: one PyTorch, TensorFlow, JAX or NumPy scatter call -> its ONNX / OpenVINO operator.

``from_call(text)`` reads ONE call (or an advanced-index assignment) with :mod:`ast` and never evaluates it:
the callee is matched against :data:`CALLS` (each function's real signature, keyword-only parameters
included), literal arguments (``dim=1``, ``reduce="amax"``, ``include_self=False``) are read as constants,
and every tensor argument is kept as the text the user wrote. The answer (:class:`Translation`) names the
newest ONNX and OpenVINO operator versions that compute the call exactly (and the oldest that can), with
attributes in scatter_core's spellings, or, where no single operator is exact, the composition and why.
Its caveats come from the one table of runtime facts: the framework map's record for the call
(``records.py``: how the framework differs on each of ``TOPICS``) and the registry's ``RuntimeNote`` of each
target version; nothing is restated here.

With tensors (``case_for``), the same call becomes a :class:`scatter_core.Case` of the target version (the
explorer and the check page open it), and ``framework_code`` writes the call in its framework with fixed
variable names, for the equivalence run and the exported test. Generated code never contains user text.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping

import numpy as np

import scatter_core as sc

from .maps import Config, configurations
from .records import (BY_ID, NUMPY_AT_DUPLICATES, NUMPY_INDEXING_NEG, NUMPY_INDEXING_OOR, NUMPY_PUT_ALONG_AXIS,
                      NUMPY_PUT_MODES, TOPICS, TORCH_AUGMENTED_DUPLICATES)

MAX_CALL_TEXT = 2_000  # characters: one call, as pasted from a model's code
MAX_NODES = 300  # syntax tree nodes
MAX_DEPTH = 24  # nesting of the syntax tree
MAX_CHAIN = 6  # a.b.c.d.e.f: the longest attribute chain read
BIG = 2 ** 63 - 1  # an unbounded slice end, as SliceScatter's (Slice-8's) clamping reads it

ONNX, OPENVINO = "ONNX", "OpenVINO"
# the operator types each reading of a call can become, per target (the registry's records give the versions)
TARGETS = MappingProxyType({
    "elements": {ONNX: ("ScatterElements",), OPENVINO: ("ScatterElementsUpdate",)},
    "nd": {ONNX: ("ScatterND",), OPENVINO: ("ScatterNDUpdate",)},
    "axis": {ONNX: ("ScatterElements",), OPENVINO: ("ScatterUpdate", "ScatterElementsUpdate")},
    "slice": {ONNX: (), OPENVINO: ("SliceScatter",)},
    "mask": {ONNX: (), OPENVINO: ()},
    "flat": {ONNX: ("ScatterND",), OPENVINO: ("ScatterNDUpdate",)},
})
# the scatter_core family each target operator type plans with
FAMILY_OF_TYPE = {s.op_type: s.family for s in sc.OPERATORS_LIST}


# ----------------------------------------------------------------------------- the supported calls, as data
@dataclass(frozen=True)
class Call:
    """One supported framework function: its real signature and what it means."""

    key: str  # "torch.scatter_reduce"
    framework: str
    params: tuple[str, ...]  # positional-or-keyword, in order (the tensor itself first: "input", "tensor", ...)
    kwonly: tuple[str, ...] = ()
    defaults: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    positional_only: bool = False
    entry: str | None = None  # the framework map record it is (records.py), if any
    aliases: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # "value" -> "src"

    @property
    def signature(self) -> str:
        text = ", ".join(self.params + (("/",) if self.positional_only else ()))
        if self.kwonly:
            text += ", *, " + ", ".join(self.kwonly)
        return f"{self.key.split('.', 1)[1]}({text})"


def _c(key, framework, params, kwonly=(), defaults=None, **kw) -> Call:
    return Call(key, framework, tuple(params), tuple(kwonly), MappingProxyType(dict(defaults or {})), **kw)


TORCH_REDUCE = {"sum": "sum", "prod": "prod", "mean": "mean", "amax": "max", "amin": "min"}
TORCH_INDEX_REDUCE = {"prod": "prod", "mean": "mean", "amax": "max", "amin": "min"}
TORCH_SCATTER_REDUCE = {"add": "sum", "multiply": "prod"}  # scatter's deprecated keyword-only reduce
JAX_METHODS = {"set": "none", "add": "sum", "multiply": "prod", "min": "min", "max": "max"}
JAX_KWONLY = ("indices_are_sorted", "unique_indices", "mode", "out_sharding", "wrap_negative_indices")
JAX_MODES = (None, "drop", "clip", "promise_in_bounds", "fill")
NUMPY_UFUNCS = {"add": "sum", "subtract": "sub", "multiply": "prod", "maximum": "max", "minimum": "min"}
TF_OPS = {"tensor_scatter_nd_update": "none", "tensor_scatter_nd_add": "sum", "tensor_scatter_nd_sub": "sub",
          "tensor_scatter_nd_max": "max", "tensor_scatter_nd_min": "min"}
AUGMENTED = {ast.Add: "sum", ast.Sub: "sub", ast.Mult: "prod"}

CALLS: Mapping[str, Call] = MappingProxyType({c.key: c for c in (
    _c("torch.scatter", "PyTorch", ("input", "dim", "index", "src"), ("reduce",), {"reduce": None},
       entry="torch.scatter", aliases=MappingProxyType({"value": "src"})),
    _c("torch.scatter_add", "PyTorch", ("input", "dim", "index", "src"), entry="torch.scatter_add"),
    _c("torch.scatter_reduce", "PyTorch", ("input", "dim", "index", "src", "reduce"), ("include_self",),
       {"include_self": True}, entry="torch.scatter_reduce"),
    _c("torch.index_put", "PyTorch", ("input", "indices", "values", "accumulate"), (), {"accumulate": False},
       entry="torch.index_put"),
    _c("torch.index_add", "PyTorch", ("input", "dim", "index", "source"), ("alpha",), {"alpha": 1}),
    _c("torch.index_copy", "PyTorch", ("input", "dim", "index", "source"), entry="torch.index_copy"),
    _c("torch.index_reduce", "PyTorch", ("input", "dim", "index", "source", "reduce"), ("include_self",),
       {"include_self": True}, entry="torch.index_reduce"),
    _c("torch.index_fill", "PyTorch", ("input", "dim", "index", "value")),
    _c("torch.masked_scatter", "PyTorch", ("input", "mask", "source")),
    _c("torch.slice_scatter", "PyTorch", ("input", "src", "dim", "start", "end", "step"), (),
       {"dim": 0, "start": None, "end": None, "step": 1}, entry="torch.slice_scatter"),
    _c("torch.select_scatter", "PyTorch", ("input", "src", "dim", "index")),
    *(_c(f"tf.{name}", "TensorFlow", ("tensor", "indices", "updates", "name"), (), {"name": None},
         entry=f"tf.{name}") for name in TF_OPS),
    _c("tf.scatter_nd", "TensorFlow", ("indices", "updates", "shape", "name"), (), {"name": None},
       entry="tf.scatter_nd"),
    *(_c(f"jax.at.{m}", "JAX", ("values",), JAX_KWONLY,
         {"indices_are_sorted": False, "unique_indices": False, "mode": None, "out_sharding": None,
          "wrap_negative_indices": True}) for m in JAX_METHODS),
    *(_c(f"np.{u}.at", "NumPy", ("a", "indices", "b"), (), {"b": None}, positional_only=True)
      for u in NUMPY_UFUNCS),
    _c("np.put_along_axis", "NumPy", ("arr", "indices", "values", "axis")),
    _c("np.put", "NumPy", ("a", "ind", "v", "mode"), (), {"mode": "raise"}),
)})
TORCH_NAMES = sorted({k.split(".", 1)[1] for k in CALLS if k.startswith("torch.")})
TORCH_METHODS = {**{n: n for n in TORCH_NAMES}, **{n + "_": n for n in TORCH_NAMES
                                                    if n not in ("slice_scatter", "select_scatter")}}
MODULE_ALIASES = {"torch": "torch", "tf": "tf", "tensorflow": "tf", "np": "np", "numpy": "np", "jnp": "jnp"}


def supported_text() -> str:
    """What from_call reads, in one paragraph (for messages and the page)."""
    torch = ", ".join(f"{n}" for n in TORCH_NAMES)
    return (f"PyTorch: x.<name>(...) or torch.<name>(x, ...) for {torch} (in-place _ forms too), and "
            "x[i, j] = v / x[idx] += v; TensorFlow: " + ", ".join(f"tf.{n}" for n in TF_OPS) + ", tf.scatter_nd; "
            "JAX: x.at[...]." + "/".join(JAX_METHODS) + "(v); NumPy: " +
            ", ".join(f"np.{u}.at" for u in NUMPY_UFUNCS) + ", np.put_along_axis, np.put")


# ----------------------------------------------------------------------------- the answer
@dataclass(frozen=True)
class Slot:
    """One tensor the call takes: its role in the call, the parameter it binds, and the text the user wrote."""

    name: str  # a fixed variable name for generated code ("data", "index", "indices_0", ...)
    param: str  # the parameter of the real signature ("input", "index", "values" ...)
    text: str  # the user's expression, verbatim (shown as text, never read)
    role: str  # "data", "indices", "updates", "mask", "shape"
    scalar: object = None  # a literal number given in place of a tensor (updates only)


@dataclass(frozen=True)
class Reading:
    """What the call does, independent of any framework: the scatter_core family reading and its parts."""

    form: str  # a key of TARGETS
    canonical: str  # canonical reduction: none, sum, prod, max, min, mean, sub
    init: bool = True  # use_init_val: whether the written cell takes part
    axis: int | None = None
    parts: tuple = ()  # nd/axis: per leading coordinate ("slot", name) or ("const", int)
    slices: tuple = ()  # slice: per data axis (start, stop, step, squeeze) or None for a whole axis
    gather_first: bool = False  # x[idx] op= v: read, combine, write (not an accumulation)
    alpha: object = None  # index_add's alpha
    wrap: str | None = None  # np.put's mode


@dataclass(frozen=True)
class Translation:
    framework: str  # "PyTorch", "TensorFlow", "JAX" or "NumPy"
    onnx: list  # [(versioned op, attrs)] the newest ONNX version that is exact; empty when none is
    openvino: list  # the same for OpenVINO
    exact: bool  # a single operator (listed above) computes the call exactly
    caveats: list  # sentences, each from the one table of runtime facts
    composition: str | None  # where no single operator is exact (in ONNX or in OpenVINO): what is, and why
    function: str = ""  # the recognised function, e.g. "torch.Tensor.scatter_reduce"
    call: str = ""  # the call as read, in the framework's own spelling with fixed variable names
    entry: str | None = None  # the framework map record (records.py) the call resolves to
    oldest: Mapping[str, str] = field(default_factory=dict)  # versioned op -> the oldest version that can
    slots: tuple[Slot, ...] = ()
    inputs: tuple[str, ...] = ()  # how the operator's inputs are made from the call's tensors
    reading: Reading | None = None
    text: str = ""  # what the user pasted
    negatives: bool = False  # the framework's call accepts negative indices (counted from the end)

    @property
    def target(self) -> str | None:
        """The versioned operator the explorer opens: ONNX's, else OpenVINO's, else the composition's core."""
        for ops in (self.onnx, self.openvino):
            if ops:
                return ops[0][0]
        return _fallback_target(self.reading)


def _err(msg: str, argument: str = "call", rule: str = "from-call") -> sc.ScatterError:
    return sc.ScatterError(msg, argument=argument, rule=rule)


# ----------------------------------------------------------------------------- reading the text safely
def _check_tree(tree: ast.AST) -> None:
    """Bounds and refusals over the whole tree, iteratively (no recursion on the user's nesting)."""
    stack, count = [(tree, 0)], 0
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise _err(f"the call has more than {MAX_NODES} syntax nodes; paste one call", rule="size")
        if depth > MAX_DEPTH:
            raise _err(f"the call nests deeper than {MAX_DEPTH} levels; paste one call", rule="size")
        if isinstance(node, ast.Lambda):
            raise _err("a lambda is not a tensor or a literal: nothing in the text is run, so a function cannot "
                       "be an argument", argument="lambda", rule="no-code")
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Await, ast.Yield,
                             ast.YieldFrom, ast.NamedExpr, ast.Starred, ast.JoinedStr)):
            raise _err(f"{type(node).__name__} is not read here: write the tensors as names (x, idx, src) and the "
                       "attributes as literals", argument=type(node).__name__, rule="no-code")
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if name is not None and name.startswith("__"):
            raise _err(f"{name!r}: dunder names are never read (nothing in the text is run)", argument=name,
                       rule="no-code")
        if isinstance(node, ast.Attribute):
            chain, inner = 1, node.value
            while isinstance(inner, ast.Attribute):
                chain, inner = chain + 1, inner.value
            if chain > MAX_CHAIN:
                raise _err(f"an attribute chain of {chain} names ({_src(node)[:60]}…): at most {MAX_CHAIN}",
                           argument=node.attr, rule="size")
        stack.extend((c, depth + 1) for c in ast.iter_child_nodes(node))


def _src(node) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # noqa: BLE001 - unparse of a node we built ourselves; never user-controlled code
        return type(node).__name__


def _parse(text: str) -> ast.stmt:
    if not isinstance(text, str):
        raise _err("the call must be text", rule="type")
    if len(text) > MAX_CALL_TEXT:
        raise _err(f"the text has {len(text):,} characters; paste one call of at most {MAX_CALL_TEXT:,}",
                   rule="size")
    if not text.strip():
        raise _err("paste one call, e.g. x.scatter_reduce(1, idx, src, reduce=\"amax\", include_self=False)",
                   rule="empty")
    try:
        module = ast.parse(text.strip(), mode="exec")
    except SyntaxError as exc:
        where = f" (line {exc.lineno}, column {exc.offset})" if exc.lineno else ""
        raise _err(f"not Python syntax{where}: {exc.msg}", rule="syntax") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise _err(f"the text cannot be read as Python ({type(exc).__name__})", rule="syntax") from None
    _check_tree(module)
    if len(module.body) != 1:
        raise _err(f"paste one call; the text holds {len(module.body)} statements", rule="one-call")
    return module.body[0]


def _literal(node, what: str, kinds=(int,), allow_none=False):
    """A literal constant (a number, a string, True/False/None, -n), never evaluated beyond that."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(
            node.operand, ast.Constant) and isinstance(node.operand.value, (int, float)) and not isinstance(
            node.operand.value, bool):
        value = -node.operand.value if isinstance(node.op, ast.USub) else node.operand.value
    elif isinstance(node, ast.Constant):
        value = node.value
    else:
        raise _err(f"{what} must be a literal ({_kinds(kinds)}), not {_src(node)[:60]!r}: the translation depends "
                   "on its value and nothing in the text is evaluated", argument=what, rule="literal")
    if value is None and allow_none:
        return None
    if isinstance(value, bool) and bool not in kinds:
        raise _err(f"{what} = {value!r} must be {_kinds(kinds)}", argument=what, rule="literal")
    if not isinstance(value, kinds):
        raise _err(f"{what} = {value!r} must be {_kinds(kinds)}", argument=what, rule="literal")
    return value


def _kinds(kinds) -> str:
    return " or ".join({int: "an integer", float: "a number", str: "a string", bool: "True or False"}[k]
                       for k in kinds)


def _choice(node, what: str, choices) -> object:
    value = _literal(node, what, (str,))
    if value not in choices:
        raise _err(f"{what}={value!r} is not supported; supported: " + ", ".join(repr(c) for c in choices),
                   argument=what, rule="choice")
    return value


def _bind(call: Call, args: list, keywords: list, method: bool) -> dict:
    """Bind the call's arguments to ``call``'s real signature (the tensor itself already taken in method form)."""
    params = call.params[1:] if method else call.params
    fn = call.signature
    if len(args) > len(params):
        raise _err(f"{fn} takes {len(params)} positional argument(s) here, {len(args)} given",
                   argument=call.key, rule="signature")
    bound = dict(zip(params, args))
    for kw in keywords:
        if kw.arg is None:
            raise _err(f"{fn}: **kwargs are not read; write each argument", argument="**", rule="signature")
        name = call.aliases.get(kw.arg, kw.arg)
        if call.positional_only and name in params:
            raise _err(f"{fn} takes {kw.arg!r} by position only", argument=kw.arg, rule="signature")
        if name not in params and name not in call.kwonly:
            raise _err(f"{fn} has no argument {kw.arg!r}", argument=kw.arg, rule="signature")
        if name in bound:
            raise _err(f"{fn} got {kw.arg!r} twice", argument=kw.arg, rule="signature")
        bound[name] = kw.value
    missing = [p for p in params if p not in bound and p not in call.defaults]
    if missing:
        raise _err(f"{fn} is missing {', '.join(missing)}", argument=missing[0], rule="signature")
    return bound


def _is_module(node, *names) -> bool:
    return isinstance(node, ast.Name) and MODULE_ALIASES.get(node.id) in names


def _recognise(stmt: ast.stmt):
    """(call record, bound arguments, tensor node for method forms, subscript, augmented op) of the statement."""
    if isinstance(stmt, (ast.Assign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if len(targets) == 1 and isinstance(targets[0], ast.Subscript):
            op = None
            if isinstance(stmt, ast.AugAssign):
                op = AUGMENTED.get(type(stmt.op))
                if op is None:
                    raise _err(f"x[...] {_op_text(stmt.op)}= v is not supported; supported: x[...] = v, +=, -=, *=",
                               argument=_op_text(stmt.op) + "=", rule="supported")
            return "assign", targets[0], stmt.value, op
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
            stmt = ast.Expr(stmt.value)  # y = x.scatter(...): read the call
        else:
            raise _err("paste one call or one assignment x[...] = v", rule="one-call")
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        raise _err("paste one call, e.g. tf.tensor_scatter_nd_add(t, idx, upd)", rule="one-call")
    return "call", stmt.value, None, None


def _op_text(op) -> str:
    return {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
            ast.Pow: "**", ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^", ast.MatMult: "@",
            ast.LShift: "<<", ast.RShift: ">>"}.get(type(op), "?")


def _unknown(name: str) -> sc.ScatterError:
    return _err(f"{name!r} is not a supported scatter call. Supported: {supported_text()}", argument=name,
                rule="supported")


def _resolve_call(node: ast.Call):
    """(Call record, method form?, the tensor the method is called on, the .at[] subscript) of a call node."""
    func = node.func
    if not isinstance(func, ast.Attribute):
        raise _unknown(_src(func)[:80])
    name, owner = func.attr, func.value
    # JAX: x.at[...].method(...)
    if isinstance(owner, ast.Subscript) and isinstance(owner.value, ast.Attribute) and owner.value.attr == "at":
        if name not in JAX_METHODS:
            raise _err(f".at[...].{name} is not supported; supported: " + ", ".join(f".{m}" for m in JAX_METHODS),
                       argument=name, rule="supported")
        return CALLS[f"jax.at.{name}"], False, owner.value.value, owner
    # NumPy: np.add.at(...)
    if name == "at" and isinstance(owner, ast.Attribute) and _is_module(owner.value, "np"):
        if owner.attr not in NUMPY_UFUNCS:
            raise _err(f"np.{owner.attr}.at is not supported; supported: " +
                       ", ".join(f"np.{u}.at" for u in NUMPY_UFUNCS), argument=f"np.{owner.attr}.at",
                       rule="supported")
        return CALLS[f"np.{owner.attr}.at"], False, None, None
    if _is_module(owner, "np"):
        key = f"np.{name}"
        if key not in CALLS:
            raise _unknown(key)
        return CALLS[key], False, None, None
    if _is_module(owner, "tf"):
        key = f"tf.{name}"
        if key not in CALLS:
            raise _unknown(key)
        return CALLS[key], False, None, None
    if _is_module(owner, "torch") or (isinstance(owner, ast.Attribute) and owner.attr == "Tensor"
                                      and _is_module(owner.value, "torch")):
        base = TORCH_METHODS.get(name)
        if base is None:
            raise _unknown(f"torch.{name}")
        return CALLS[f"torch.{base}"], False, None, None
    if _is_module(owner, "jnp"):
        raise _unknown(f"jnp.{name}")
    base = TORCH_METHODS.get(name)
    if base is None:
        raise _unknown(f"{_src(owner)[:40]}.{name}")
    return CALLS[f"torch.{base}"], True, owner, None


# ----------------------------------------------------------------------------- index expressions
INDEX_FORMS = ("supported: x[i], x[i, j, ...] (leading index arrays or integers), x[:, ..., i] (whole slices, then "
               "one index array), x[a:b, ...] (slices and integers), x[mask]")


def _index_reading(sub: ast.AST, slots: list, canonical: str, where: str) -> Reading:
    """x[...] / x.at[...]: the form its index expression has (nd, axis, slice or mask)."""
    elts = list(sub.elts) if isinstance(sub, ast.Tuple) else [sub]
    if not elts:
        raise _err(f"{where}: an empty index", argument="index", rule="index")
    if len(elts) == 1 and _is_mask(elts[0]):
        slots.append(Slot("mask", "mask", _src(elts[0]), "mask"))
        return Reading("mask", canonical)
    kinds = []
    for e in elts:
        if isinstance(e, ast.Slice):
            kinds.append("slice")
        elif isinstance(e, ast.Constant) and e.value is Ellipsis or isinstance(e, ast.Constant) and e.value is None:
            raise _err(f"{where}: ... and None in an index are not supported", argument=_src(e), rule="index")
        elif isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "slice":
            raise _err(f"{where}: write slices as a:b inside x[...], not slice(...)", argument="slice", rule="index")
        elif _is_int_literal(e):
            kinds.append("int")
        else:
            kinds.append("array")
    if "array" not in kinds:  # slices and integers: a strided slice (integers are one-element slices)
        spans = []
        for e, kind in zip(elts, kinds):
            if kind == "int":
                i = _literal(e, "index", (int,))
                spans.append((i, BIG if i == -1 else i + 1, 1, True))
            else:
                step = 1 if e.step is None else _literal(e.step, "slice step", (int,))
                if step == 0:
                    raise _err(f"{where}: a slice step of 0", argument="slice step", rule="index")
                lo = (0 if step > 0 else BIG) if e.lower is None else _literal(e.lower, "slice start", (int,))
                hi = (BIG if step > 0 else -BIG - 1) if e.upper is None else _literal(e.upper, "slice stop", (int,))
                whole = e.lower is None and e.upper is None and step == 1
                spans.append(None if whole else (lo, hi, step, False))
        if all(s is None for s in spans):
            raise _err(f"{where}: the index takes every element (x[:] = v is a copy, not a scatter)",
                       argument="index", rule="index")
        return Reading("slice", canonical, slices=tuple(spans))
    first_array = kinds.index("array")
    if all(k == "slice" for k in kinds[:first_array]) and kinds.count("array") == 1 and first_array > 0 and all(
            k == "slice" for k in kinds[first_array + 1:]):
        lead = elts[:first_array]
        if any(not (e.lower is None and e.upper is None and e.step is None) for e in lead + elts[first_array + 1:]):
            raise _err(f"{where}: only whole slices (:) may stand beside an index array; " + INDEX_FORMS,
                       argument="index", rule="index")
        slots.append(Slot("index", "index", _src(elts[first_array]), "indices"))
        return Reading("axis", canonical, axis=first_array, parts=(("slot", "index"),))
    if "slice" in kinds:
        raise _err(f"{where}: this index mixes slices and index arrays in a way no single scatter writes; "
                   + INDEX_FORMS, argument="index", rule="index")
    parts = []
    for j, (e, kind) in enumerate(zip(elts, kinds)):
        if kind == "int":
            parts.append(("const", _literal(e, "index", (int,))))
        else:
            name = "index" if len(elts) == 1 else f"indices_{j}"
            slots.append(Slot(name, name, _src(e), "indices"))
            parts.append(("slot", name))
    return Reading("nd", canonical, parts=tuple(parts))


def _is_int_literal(e) -> bool:
    try:
        _literal(e, "index", (int,))
        return True
    except sc.ScatterError:
        return False


def _is_mask(e) -> bool:
    return isinstance(e, ast.Compare) or (isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.Invert, ast.Not))) or \
        (isinstance(e, ast.BinOp) and isinstance(e.op, (ast.BitAnd, ast.BitOr)))


def _tensor(node, slots: list, name: str, param: str, role: str, allow_scalar=False) -> None:
    if allow_scalar:
        try:
            value = _literal(node, param, (int, float, bool))
        except sc.ScatterError:
            value = None
        if value is not None:
            slots.append(Slot(name, param, _src(node), role, scalar=value))
            return
    if isinstance(node, ast.Constant):
        raise _err(f"{param} must be a tensor, not the literal {node.value!r}", argument=param, rule="tensor")
    if isinstance(node, (ast.List, ast.Tuple, ast.Dict, ast.Set)) and role != "shape":
        raise _err(f"{param}: write the tensor as a name (e.g. idx) and give its values below, not as a "
                   f"{type(node).__name__.lower()} literal", argument=param, rule="tensor")
    slots.append(Slot(name, param, _src(node), role))


# ----------------------------------------------------------------------------- from the call to its reading
def _read_torch(call: Call, b: dict, slots: list, caveats: list) -> Reading:
    key = call.key.split(".", 1)[1]
    dim = lambda: _literal(b["dim"], "dim", (int,))  # noqa: E731
    if key in ("scatter", "scatter_add", "scatter_reduce"):
        axis = dim()
        _tensor(b["index"], slots, "index", "index", "indices")
        _tensor(b["src"], slots, "src", "src", "updates", allow_scalar=key == "scatter")
        if key == "scatter_add":
            return Reading("elements", "sum", axis=axis)
        if key == "scatter":
            reduce = b.get("reduce")
            red = None if reduce is None else _literal(reduce, "reduce", (str,), allow_none=True)
            if red is None:
                return Reading("elements", "none", axis=axis)
            return Reading("elements", TORCH_SCATTER_REDUCE[_choice(reduce, "reduce", TORCH_SCATTER_REDUCE)],
                           axis=axis)
        canonical = TORCH_REDUCE[_choice(b["reduce"], "reduce", TORCH_REDUCE)]
        init = _literal(b["include_self"], "include_self", (bool,)) if "include_self" in b else True
        return Reading("elements", canonical, init=init, axis=axis)
    if key == "index_put":
        tup = b["indices"]
        if not isinstance(tup, (ast.Tuple, ast.List)) or not tup.elts:
            raise _err("index_put's indices must be written as a tuple of index tensors, e.g. (i, j) or (idx,)",
                       argument="indices", rule="index")
        acc = _literal(b["accumulate"], "accumulate", (bool,)) if "accumulate" in b else False
        reading = _index_reading(ast.Tuple(elts=list(tup.elts)), slots, "sum" if acc else "none", "index_put")
        if reading.form != "nd":
            raise _err("index_put's indices must be index tensors (or integers)", argument="indices", rule="index")
        _tensor(b["values"], slots, "values", "values", "updates", allow_scalar=True)
        return reading
    if key in ("index_add", "index_copy", "index_reduce", "index_fill"):
        axis = dim()
        _tensor(b["index"], slots, "index", "index", "indices")
        if key == "index_fill":
            _tensor(b["value"], slots, "value", "value", "updates", allow_scalar=True)
            return Reading("axis", "none", axis=axis, parts=(("slot", "index"),))
        _tensor(b["source"], slots, "source", "source", "updates")
        if key == "index_copy":
            return Reading("axis", "none", axis=axis, parts=(("slot", "index"),))
        if key == "index_add":
            alpha = _literal(b["alpha"], "alpha", (int, float)) if "alpha" in b else 1
            return Reading("axis", "sum", axis=axis, parts=(("slot", "index"),), alpha=None if alpha == 1 else alpha)
        canonical = TORCH_INDEX_REDUCE[_choice(b["reduce"], "reduce", TORCH_INDEX_REDUCE)]
        init = _literal(b["include_self"], "include_self", (bool,)) if "include_self" in b else True
        return Reading("axis", canonical, init=init, axis=axis, parts=(("slot", "index"),))
    if key == "masked_scatter":
        _tensor(b["mask"], slots, "mask", "mask", "mask")
        _tensor(b["source"], slots, "source", "source", "updates")
        return Reading("mask", "none")
    if key == "slice_scatter":
        _tensor(b["src"], slots, "src", "src", "updates")
        axis = _literal(b["dim"], "dim", (int,)) if "dim" in b else 0
        start = _literal(b["start"], "start", (int,), allow_none=True) if "start" in b else None
        end = _literal(b["end"], "end", (int,), allow_none=True) if "end" in b else None
        step = _literal(b["step"], "step", (int,)) if "step" in b else 1
        if step <= 0:
            raise _err(f"slice_scatter's step must be positive (PyTorch refuses {step})", argument="step",
                       rule="choice")
        return Reading("slice", "none", axis=axis, slices=((0 if start is None else start,
                                                            BIG if end is None else end, step, False),))
    if key == "select_scatter":
        _tensor(b["src"], slots, "src", "src", "updates")
        axis, i = dim(), _literal(b["index"], "index", (int,))
        return Reading("slice", "none", axis=axis, slices=((i, BIG if i == -1 else i + 1, 1, True),))
    raise _unknown(call.key)  # pragma: no cover - every torch record is handled above


def _read(kind, node, value, aug) -> tuple[Call, dict, list, Reading, list, bool]:
    slots: list[Slot] = []
    caveats: list[str] = []
    if kind == "assign":
        slots.append(Slot("data", "x", _src(node.value), "data"))
        reading = _index_reading(node.slice, slots, aug or "none", "x[...] = v")
        if aug is not None:
            if reading.form not in ("nd", "axis", "slice"):
                raise _err("x[...] op= v is read for index arrays and slices only (x[idx] += v, x[i, j] += v, "
                           "x[:, idx] += v, x[1:3] += v)", argument="index", rule="index")
            reading = replace(reading, gather_first=True)
        _tensor(value, slots, "values", "values", "updates", allow_scalar=True)
        call = Call("torch.index_put" if not aug else "torch.augmented", "PyTorch", ("input", "indices", "values"),
                    entry="torch.index_put" if reading.form == "nd" and not aug else None)
        return call, {}, slots, reading, caveats, False
    call, method, owner, at = _resolve_call(node)
    bound = _bind(call, list(node.args), list(node.keywords), method)
    if call.framework == "PyTorch":
        slots.append(Slot("data", "input", _src(owner if method else bound["input"]), "data"))
        return call, bound, slots, _read_torch(call, bound, slots, caveats), caveats, method
    if call.framework == "TensorFlow":
        if call.key == "tf.scatter_nd":
            shape = bound["shape"]
            _tensor(bound["indices"], slots, "indices", "indices", "indices")
            _tensor(bound["updates"], slots, "updates", "updates", "updates")
            slots.insert(0, Slot("shape", "shape", _src(shape), "shape"))
            return call, bound, slots, Reading("nd", "sum", parts=(("tuple", "indices"),)), caveats, False
        slots.append(Slot("tensor", "tensor", _src(bound["tensor"]), "data"))
        _tensor(bound["indices"], slots, "indices", "indices", "indices")
        _tensor(bound["updates"], slots, "updates", "updates", "updates")
        return call, bound, slots, Reading("nd", TF_OPS[call.key[3:]], parts=(("tuple", "indices"),)), caveats, False
    if call.framework == "JAX":
        slots.append(Slot("data", "x", _src(owner), "data"))
        reading = _index_reading(at.slice, slots, JAX_METHODS[call.key.rsplit(".", 1)[1]], "x.at[...]")
        _tensor(bound["values"], slots, "values", "values", "updates", allow_scalar=True)
        if "mode" in bound:
            _choice(bound["mode"], "mode", [m for m in JAX_MODES if m is not None])
        for flag in ("indices_are_sorted", "unique_indices", "wrap_negative_indices"):
            if flag in bound:
                _literal(bound[flag], flag, (bool,))
        if "out_sharding" in bound:
            raise _err("out_sharding does not change the values; leave it out", argument="out_sharding",
                       rule="supported")
        return call, bound, slots, reading, caveats, True
    # NumPy
    if call.key.endswith(".at"):
        slots.append(Slot("data", "a", _src(bound["a"]), "data"))
        if "b" not in bound:
            raise _err(f"{call.key} needs b (the values) for a binary ufunc", argument="b", rule="signature")
        reading = _index_reading(bound["indices"], slots, NUMPY_UFUNCS[call.key.split(".")[1]], call.key)
        if reading.form not in ("nd", "axis"):
            raise _err(f"{call.key}: read for index arrays only (idx, (i, j), (slice, idx) are not supported)",
                       argument="indices", rule="index")
        _tensor(bound["b"], slots, "b", "b", "updates", allow_scalar=True)
        return call, bound, slots, reading, caveats, False
    if call.key == "np.put_along_axis":
        slots.append(Slot("data", "arr", _src(bound["arr"]), "data"))
        axis = _literal(bound["axis"], "axis", (int,), allow_none=True)
        if axis is None:
            raise _err("np.put_along_axis with axis=None works on the flattened array; give an integer axis",
                       argument="axis", rule="choice")
        _tensor(bound["indices"], slots, "indices", "indices", "indices")
        _tensor(bound["values"], slots, "values", "values", "updates", allow_scalar=True)
        return call, bound, slots, Reading("elements", "none", axis=axis), caveats, False
    slots.append(Slot("data", "a", _src(bound["a"]), "data"))
    mode = _choice(bound["mode"], "mode", ("raise", "wrap", "clip")) if "mode" in bound else "raise"
    _tensor(bound["ind"], slots, "ind", "ind", "indices")
    _tensor(bound["v"], slots, "v", "v", "updates", allow_scalar=True)
    return call, bound, slots, Reading("flat", "none", parts=(("slot", "ind"),), wrap=mode), caveats, False


# ----------------------------------------------------------------------------- from the reading to operators
def _versions(reading: Reading, target: str, framework_negative: bool) -> list[tuple[sc.OpSpec, Config]]:
    """Every version of ``target`` expressing the reading exactly, oldest first (a version refusing negative
    indices only when the framework refuses them too)."""
    out = []
    for spec in sc.OPERATORS_LIST:
        if spec.framework != target or spec.op_type not in TARGETS[reading.form][target] or spec.deprecated:
            continue
        if reading.form == "axis" and spec.family == "update" and reading.canonical != "none":
            continue
        for config in configurations(spec):
            if config.canonical == reading.canonical and (config.use_init_val == reading.init
                                                          or reading.canonical == "none"):
                if framework_negative and spec.index_rule.negative == "forbidden":
                    continue
                out.append((spec, config))
                break
    order = TARGETS[reading.form][target]
    return sorted(out, key=lambda found: (order.index(found[0].op_type), found[0].version))


def _attrs(spec: sc.OpSpec, config: Config, reading: Reading) -> dict:
    attrs = {}
    if spec.attribute("axis") is not None and reading.axis is not None:
        attrs["axis"] = reading.axis
    if spec.attribute("reduction") is not None:
        attrs["reduction"] = config.reduction
    if spec.attribute("use_init_val") is not None:
        attrs["use_init_val"] = bool(config.use_init_val)
    if spec.attribute("start") is not None:
        sliced = [(a, s) for a, s in enumerate(reading.slices) if s is not None]
        axes = [reading.axis] if reading.axis is not None else [a for a, _ in sliced]
        attrs.update(start=[s[0] for _, s in sliced], stop=[s[1] for _, s in sliced], step=[s[2] for _, s in sliced],
                     axes=axes)
    return attrs


def _pick(reading: Reading, target: str, negative: bool):
    found = _versions(reading, target, negative)
    if not found:
        return [], None
    first_type = found[0][0].op_type
    same = [f for f in found if f[0].op_type == first_type]
    newest, oldest = same[-1], same[0]
    return [(newest[0].name, _attrs(newest[0], newest[1], reading))], oldest[0].name


def _fallback(reading: Reading | None) -> tuple[str, dict] | None:
    """The operator a composition is built around, with its attributes (the explorer opens it): ScatterND for a
    mask, reduction none where the call reads before it writes, the scatter after index_add's Mul."""
    if reading is None:
        return None
    probe = replace(reading, form="nd" if reading.form == "mask" else reading.form, alpha=None,
                    canonical="none" if reading.gather_first else reading.canonical)
    for target in (ONNX, OPENVINO):
        found = _pick(probe, target, False)[0]
        if found:
            return found[0]
    return None


def _fallback_target(reading: Reading | None) -> str | None:
    found = _fallback(reading)
    return None if found is None else found[0]


def _topic_sentences(entry_id: str | None, framework: str, skip: set) -> list[str]:
    if entry_id is None:
        return []
    entry = BY_ID[entry_id]
    out = []
    for topic in TOPICS:
        text = entry.divergences[topic]
        if topic in skip or text.startswith(("same", "n/a")):
            continue
        out.append(f"{framework}, {topic} (framework map record {entry.id}): {text}.")
    return out


# the framework map record an indexing call is, when its function has none of its own
ENTRY_BY_FORM = {("JAX", "nd"): "jax.at.nd", ("JAX", "axis"): "jax.at.nd", ("JAX", "mask"): "jax.at.nd",
                 ("JAX", "slice"): "jax.at.slice", ("PyTorch", "slice"): "torch.slice_scatter",
                 ("PyTorch", "axis"): "torch.index_put", ("PyTorch", "mask"): "torch.index_put"}
RUNTIME_TOPICS = {"none": ("duplicates", "duplicates-parallel"), "mean": ("integer-mean", "integer-mean-int16")}
ALWAYS_TOPICS = ("negative-index", "index-range")


def _runtime_sentences(ops: list, canonical: str) -> list[str]:
    out = []
    for name, _ in ops:
        spec = sc.OPERATORS[name]
        for topic in RUNTIME_TOPICS.get(canonical, ()) + ALWAYS_TOPICS:
            for note in spec.notes_on(topic):
                new = "" if note.documented else " (observed by this project's tests, not in semantics.md)"
                out.append(f"{name} on {note.runtimes}: {note.text}{new}.")
    return out


def _framework_negatives(call: Call) -> bool:
    """Whether the framework call accepts negative indices (then a version refusing them is not exact):
    JAX and NumPy indexing, PyTorch indexing (x[i] = v, index_put); not PyTorch's scatter / index_* functions
    nor TensorFlow's, which raise (records.py: TORCH_NEG_ERR, TF_NEG)."""
    return call.framework in ("JAX", "NumPy") or call.key in ("torch.index_put", "torch.augmented")


def from_call(text: str) -> Translation:
    """Read one framework scatter call (never evaluated) and say which ONNX / OpenVINO operator it is."""
    stmt = _parse(text)
    kind, node, value, aug = _recognise(stmt)
    call, bound, slots, reading, caveats, method = _read(kind, node, value, aug)
    if reading.form == "slice" and reading.canonical != "none":  # x.at[1:3].add(v): no slice writer reduces
        reading = replace(reading, gather_first=True)
    framework = call.framework
    entry_id = call.entry
    negative = _framework_negatives(call)
    onnx, onnx_old = ([], None) if reading.gather_first else _pick(reading, ONNX, negative)
    ov, ov_old = ([], None) if reading.gather_first else _pick(reading, OPENVINO, negative)
    if entry_id is None and not reading.gather_first:
        entry_id = ENTRY_BY_FORM.get((framework, reading.form))
    if reading.form == "mask" and reading.canonical != "none":
        raise _err("a boolean mask is read with plain assignment or masked_scatter only", argument="mask",
                   rule="index")
    if reading.alpha is not None:  # index_add's alpha: a Mul comes first, so no single operator is the call
        onnx, ov = [], []
    composition = _composition(reading, onnx, ov, framework)
    inputs = _inputs_text(reading, slots, call)
    skip = {"integer mean"} if reading.canonical != "mean" else set()
    if reading.canonical == "none" or reading.gather_first:
        skip.add("initial value")
    caveats = caveats + _call_caveats(call, bound, reading, framework, slots) + _topic_sentences(
        entry_id, framework, skip) + _runtime_sentences(onnx + ov, reading.canonical)
    if reading.form == "flat":
        caveats.append(NUMPY_PUT_MODES[reading.wrap])
    if negative and not reading.gather_first:
        for target in (ONNX, OPENVINO):
            allowed = {s.name for s, _ in _versions(reading, target, True)}
            for spec, _ in _versions(reading, target, False):
                if spec.name not in allowed:
                    caveats.append(f"{spec.name} also has this reduction but refuses negative indices ("
                                   f"{spec.index_rule.text}): add the axis size to negative indices first to use it.")
    oldest = {}
    for ops, old in ((onnx, onnx_old), (ov, ov_old)):
        if ops and old:
            oldest[ops[0][0]] = old
    return Translation(
        framework=framework, onnx=onnx, openvino=ov, exact=bool(onnx or ov),
        caveats=list(dict.fromkeys(caveats)), composition=composition,
        function=_function_name(call, method, kind), call=framework_call(call, bound, reading, slots, method),
        entry=entry_id, oldest=MappingProxyType(oldest), slots=tuple(slots), inputs=tuple(inputs), reading=reading,
        text=text, negatives=negative)


def _function_name(call: Call, method: bool, kind: str) -> str:
    if kind == "assign":
        return "advanced-index assignment (Tensor.__setitem__ / index_put_)" if call.key == "torch.index_put" else \
            "augmented advanced-index assignment (read, combine, write back)"
    mod, name = call.key.split(".", 1)
    if call.framework == "PyTorch":
        return f"torch.Tensor.{name}" if method else f"torch.{name}"
    if call.framework == "JAX":
        return f"jax.Array.at[...].{name.rsplit('.', 1)[1]}"
    return call.key


def _call_caveats(call: Call, bound: dict, reading: Reading, framework: str, slots: list) -> list[str]:
    out = []
    if reading.gather_first and reading.form != "slice":
        out.append(TORCH_AUGMENTED_DUPLICATES)
    if framework == "NumPy" and reading.form in ("nd", "axis") and call.key.endswith(".at"):
        out.append(NUMPY_AT_DUPLICATES)
    if framework == "NumPy":
        out += [NUMPY_INDEXING_NEG, NUMPY_INDEXING_OOR]
    if call.key == "np.put_along_axis":
        out.append(NUMPY_PUT_ALONG_AXIS)
    if framework == "JAX":
        entry = BY_ID["jax.at.nd"]
        mode = _literal(bound["mode"], "mode", (str,), allow_none=True) if "mode" in bound else None
        if mode in (None, "drop", "fill"):
            out.append(f"JAX, out-of-range indices: {entry.divergences['out-of-range indices']}.")
        elif mode == "clip":
            out.append("JAX mode=\"clip\": out-of-range indices are clamped to the nearest edge; ONNX requires an "
                       "error, so no ONNX or OpenVINO operator clamps for you: add a Clip on the indices first.")
        else:
            out.append("JAX mode=\"promise_in_bounds\": an out-of-range index is undefined behaviour in JAX; "
                       "ONNX requires an error.")
        if "unique_indices" in bound and _literal(bound["unique_indices"], "unique_indices", (bool,)):
            out.append("JAX unique_indices=True promises no duplicates; with duplicates JAX's result is undefined.")
        if "wrap_negative_indices" in bound and not _literal(bound["wrap_negative_indices"],
                                                           "wrap_negative_indices", (bool,)):
            out.append("JAX wrap_negative_indices=False: negative indices are out of range (handled by mode), "
                       "where ONNX counts them from the end.")
    if reading.alpha is not None:
        out.append(f"index_add's alpha={reading.alpha!r} scales source first (a Mul before the scatter): the "
                   "scatter alone is not the whole call.")
    if any(s.scalar is not None for s in slots):
        out.append("The value is a number, not a tensor: the operator's updates input is that number expanded to "
                   "the written cells' shape (a constant, or Expand).")
    return out


def _composition(reading: Reading, onnx: list, ov: list, framework: str) -> str | None:
    if reading.gather_first and reading.form == "slice":
        op = {"sum": "Add", "sub": "Sub", "prod": "Mul", "max": "Max", "min": "Min"}[reading.canonical]
        return (f"No operator writes a strided slice with a reduction, but a slice names each element once, so "
                f"reading it first is exact: Slice + {op} + SliceScatter-15 (OpenVINO); in ONNX, ScatterND with the "
                f"slice's coordinates (Range per sliced axis, a grid of the slice's size) and the same "
                f"combination.")
    if reading.gather_first:
        op = {"sum": "Add", "sub": "Sub", "prod": "Mul"}[reading.canonical]
        return (f"x[idx] {dict(sum='+', sub='-', prod='*')[reading.canonical]}= v reads the cells, combines once and "
                f"writes back: GatherND (or Gather) + {op} + ScatterND (reduction none). It is not ScatterND with "
                "a reduction: with duplicate indices each duplicate combines with the ORIGINAL cell and one of them "
                "wins. If accumulation was meant, index_put_(..., accumulate=True) (or np.add.at) is ScatterND "
                "reduction=add exactly.")
    if reading.form == "mask":
        return ("No scatter operator takes a boolean mask. Exact: NonZero(mask) → Transpose (one row per True "
                "cell, row-major) → ScatterND (reduction none) with updates = the first count(mask) values of "
                "source, flattened; for x[mask] = scalar, Where(mask, scalar, x) needs no scatter at all (a "
                "ScatterElements node for it is what pytorch#126856 saw fail).")
    missing = [t for t, ops in ((ONNX, onnx), (OPENVINO, ov)) if not ops]
    if not missing:
        return None
    why = []
    if reading.alpha is not None:
        plain = replace(reading, alpha=None)
        op = _pick(plain, ONNX, False)[0] or _pick(plain, OPENVINO, False)[0]
        why.append(f"alpha scales the source first: Mul(source, alpha), then {op[0][0]}("
                   + ", ".join(f"{n}={v!r}" for n, v in op[0][1].items()) + ")")
    elif reading.form == "slice":
        why.append("ONNX has no operator that writes a strided slice: ScatterND with the slice's coordinates "
                   "(Range per sliced axis, broadcast into a grid of the SLICE's size, not data's: onnxscript PR "
                   "#1308 built one of data's whole size) is exact; OpenVINO's SliceScatter-15 is one operator")
    elif not reading.init and ONNX in missing:
        why.append("include_self=False (use_init_val = false) has no ONNX attribute: exact is ScatterElements with "
                   "reduction none writing the reduction's neutral value into the written cells first, then the "
                   "reduction (two ScatterElements), as framework_map's JAX and TensorFlow records do")
    elif reading.canonical == "mean":
        why.append("ONNX has no mean reduction: exact is two ScatterElements add (sums, and counts of ones) and a "
                   "Div (integers: floor division) where the count is not zero")
    elif reading.canonical == "sub":
        why.append("ONNX has no sub reduction: exact is ScatterND add with Neg(updates) (OpenVINO's "
                   "ScatterNDUpdate-15 has sub)")
    for target in missing:
        if not why:
            why.append(f"no {target} version has this reduction with this initial-value rule")
    return "; ".join(why) + "."


def _inputs_text(reading: Reading, slots: list, call: Call) -> list[str]:
    names = {s.name: s.text for s in slots}
    data = next((s.text for s in slots if s.role == "data"), "zeros(shape)")
    out = [f"data: {data}" if call.key != "tf.scatter_nd" else f"data: zeros of shape {names.get('shape')}"]
    if reading.form == "elements":
        out.append(f"indices: {names.get('index', names.get('indices'))}")
    elif reading.form in ("nd", "flat"):
        parts = [names[p[1]] if p[0] in ("slot", "tuple") else str(p[1]) for p in reading.parts]
        if reading.parts and reading.parts[0][0] == "tuple":
            out.append(f"indices: {parts[0]} (its last axis holds the coordinates)")
        elif len(parts) == 1:
            out.append(f"indices: {parts[0]}, with a trailing axis of 1 (Unsqueeze(-1))" +
                       ("; data flattened to 1-D and the output reshaped back" if reading.form == "flat" else ""))
        else:
            out.append(f"indices: stack of ({', '.join(parts)}) broadcast together, on a new last axis")
    elif reading.form == "axis":
        out.append(f"indices (ScatterUpdate): {names['index']}; (ScatterElements): {names['index']} reshaped and "
                   f"expanded to updates' shape along axis {reading.axis}")
    upd = next((s for s in slots if s.role == "updates"), None)
    if upd is not None:
        out.append(f"updates: {upd.text}" + (" (a number, expanded)" if upd.scalar is not None else ""))
    return out


# ----------------------------------------------------------------------------- the call in its framework (generated)
def _lit(v) -> str:
    return repr(v) if isinstance(v, (bool, int, float, str)) or v is None else "None"


def framework_call(call: Call, bound: dict, reading: Reading, slots: list, method: bool) -> str:
    """The call with fixed variable names (data, index, src, ...) and the literal values read: ``out = ...``."""
    names = {s.param: (s.name if s.scalar is None else _lit(s.scalar)) for s in slots}
    fw = call.framework
    if call.key in ("torch.index_put", "torch.augmented") and not bound:
        sub = _subscript_text(reading)
        value = names["values"]
        op = {"sum": "+=", "sub": "-=", "prod": "*="}.get(reading.canonical) if reading.gather_first else "="
        return f"out = data.clone()\nout[{sub}] {op} {value}"
    if fw == "PyTorch":
        params = call.params[1:]
        args = []
        for p in params:
            if p not in bound:
                continue
            if p == "indices":
                sub = _subscript_text(reading)
                args.append(f"({sub},)" if len(reading.parts) == 1 else f"({sub})")
            elif p in names:
                args.append(names[p])
            else:
                args.append(_lit(_literal(bound[p], p, (int, float, str, bool), allow_none=True)))
        kws = [f"{k}={_lit(_literal(bound[k], k, (int, float, str, bool), allow_none=True))}" for k in call.kwonly
               if k in bound]
        return f"out = data.{call.key.split('.', 1)[1]}({', '.join(args + kws)})"
    if fw == "TensorFlow":
        if call.key == "tf.scatter_nd":
            return "out = tf.scatter_nd(indices, updates, shape)"
        return f"out = {call.key}(tensor, indices, updates)"
    if fw == "JAX":
        kws = [f"{k}={_lit(_literal(bound[k], k, (str, bool), allow_none=True))}" for k in call.kwonly if k in bound]
        method = call.key.rsplit(".", 1)[1]
        return f"out = data.at[{_subscript_text(reading)}].{method}({', '.join([names['values']] + kws)})"
    if call.key.endswith(".at"):
        sub = _subscript_text(reading)
        where = f"({sub})" if "," in sub else sub
        return f"out = data.copy()\n{call.key}(out, {where}, {names['b']})"
    if call.key == "np.put_along_axis":
        return f"out = data.copy()\nnp.put_along_axis(out, indices, {names['values']}, axis={reading.axis})"
    return f"out = data.copy()\nnp.put(out, ind, {names['v']}, mode={reading.wrap!r})"


def _subscript_text(reading: Reading) -> str:
    if reading.form == "mask":
        return "mask"
    if reading.form == "slice":
        out = []
        for s in reading.slices:
            if s is None:
                out.append(":")
            elif s[3]:
                out.append(str(s[0]))
            else:
                lo = "" if s[0] in (0, BIG) and (s[0] == 0) == (s[2] > 0) else str(s[0])
                hi = "" if s[1] in (BIG, -BIG - 1) else str(s[1])
                out.append(f"{lo}:{hi}" + ("" if s[2] == 1 else f":{s[2]}"))
        return ", ".join(out)
    parts = [p[1] if p[0] == "slot" else str(p[1]) for p in reading.parts]
    if reading.form == "axis":
        return ", ".join([":"] * reading.axis + parts)
    return ", ".join(parts)


# ----------------------------------------------------------------------------- with tensors: the case and the run
@dataclass(frozen=True)
class CallCase:
    """The call on concrete tensors: the scatter_core case of its target operator, and how its output maps back."""

    case: sc.Case
    shape: tuple[int, ...]  # the framework's output shape (np.put: the case runs on data flattened)
    note: str = ""  # what the case is, where it is the core of a composition

    def output(self) -> np.ndarray:
        return self.case.run().reshape(self.shape)


def tensor_slots(tr: Translation) -> list[Slot]:
    """The slots that take a tensor (a number written in the call needs none)."""
    return [s for s in tr.slots if s.scalar is None]


def _get(tensors: Mapping[str, np.ndarray], name: str) -> np.ndarray:
    if name not in tensors:
        raise _err(f"no tensor given for {name}", argument=name, rule="tensor")
    return np.asarray(tensors[name])


def _updates(tr: Translation, tensors, shape, dtype, broadcast=True) -> np.ndarray:
    slot = next(s for s in tr.slots if s.role == "updates")
    with np.errstate(all="ignore"):
        if slot.scalar is not None:
            return np.full(shape, slot.scalar).astype(dtype)
        value = _get(tensors, slot.name)
        if not broadcast:
            return value.astype(dtype)
        try:
            return np.broadcast_to(value, shape).astype(dtype)
        except ValueError:
            raise _err(f"{slot.param} has shape {value.shape}, which does not broadcast to the written cells' shape "
                       f"{tuple(shape)}", argument=slot.param, rule="shape") from None


def _combine(canonical: str, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return {"sum": np.add, "sub": np.subtract, "prod": np.multiply, "max": np.maximum,
                "min": np.minimum}[canonical](old, new).astype(old.dtype)


def _nd_parts(tr: Translation, tensors, data) -> np.ndarray:
    r = tr.reading
    if r.parts[0][0] == "tuple":
        return _get(tensors, r.parts[0][1]).astype(np.int64)
    arrays = [_get(tensors, p[1]).astype(np.int64) if p[0] == "slot" else np.int64(p[1]) for p in r.parts]
    try:
        arrays = np.broadcast_arrays(*arrays)
    except ValueError:
        raise _err("the index arrays do not broadcast together: " + ", ".join(str(np.shape(a)) for a in arrays),
                   argument="indices", rule="shape") from None
    return np.stack(arrays, axis=-1)


def _slice_shape(tr: Translation, data) -> tuple[list, tuple]:
    """(per sliced axis (axis, start, stop, step, squeeze), the updates' shape with squeezed axes kept as 1)."""
    r = tr.reading
    spans = [(r.axis, *r.slices[0])] if r.axis is not None else [(a, *s) for a, s in enumerate(r.slices)
                                                                 if s is not None]
    if any(not -data.ndim <= a < data.ndim for a, *_ in spans) or len(r.slices) > data.ndim:
        raise _err(f"the slice names more axes than data has ({data.ndim})", argument="index", rule="shape")
    shape = list(data.shape)
    for a, lo, hi, st, _ in spans:
        shape[a] = len(range(*slice(lo, hi, st).indices(data.shape[a])))
    return spans, tuple(shape)


def case_for(tr: Translation, tensors: Mapping[str, np.ndarray]) -> CallCase:
    """The call on these tensors (named by ``tensor_slots``) as a case of its target operator (raises ScatterError)."""
    r = tr.reading
    op = tr.target
    ops = tr.onnx or tr.openvino or [_fallback(r)]
    attrs = dict(ops[0][1])
    if tr.slots and tr.slots[0].role == "shape":
        upd = _get(tensors, "updates")
        shape = tuple(int(v) for v in _get(tensors, "shape").reshape(-1))
        data = np.zeros(shape, upd.dtype)
    else:
        data = _get(tensors, next(s.name for s in tr.slots if s.role == "data"))
    dtype = data.dtype
    if r.form == "elements":
        index = _get(tensors, next(s.name for s in tr.slots if s.role == "indices")).astype(np.int64)
        if tr.framework == "PyTorch" and next(s for s in tr.slots if s.role == "updates").scalar is None:
            src = _get(tensors, next(s.name for s in tr.slots if s.role == "updates"))
            if src.ndim != index.ndim or any(a < b for a, b in zip(src.shape, index.shape)):
                raise _err(f"src has shape {src.shape}; PyTorch needs src at least as large as index {index.shape} "
                           "in every dimension", argument="src", rule="shape")
            updates = src[tuple(slice(0, n) for n in index.shape)].astype(dtype)  # PyTorch reads only that part
        else:
            if tr.framework == "NumPy":  # put_along_axis broadcasts indices against arr on the other axes
                a = r.axis % max(data.ndim, 1)
                want = tuple(index.shape[d] if d == a else n for d, n in enumerate(data.shape))
                try:
                    index = np.ascontiguousarray(np.broadcast_to(index, want)) if index.ndim == data.ndim else index
                except ValueError:
                    raise _err(f"indices {index.shape} do not broadcast against arr {data.shape} on the axes other "
                               f"than {a}", argument="indices", rule="shape") from None
            updates = _updates(tr, tensors, index.shape, dtype)
        return CallCase(sc.case(op, data, index, updates, **attrs), data.shape)
    if r.form == "slice":
        spans, shape = _slice_shape(tr, data)
        squeezed = tuple(s for s in shape) if not any(sp[4] for sp in spans) else tuple(
            n for a, n in enumerate(shape) if not any(sp[4] and sp[0] % data.ndim == a for sp in spans))
        broadcast = tr.framework != "PyTorch" or r.axis is None
        updates = _updates(tr, tensors, squeezed, dtype, broadcast=broadcast).reshape(shape)
        attrs = {"start": [sp[1] for sp in spans], "stop": [sp[2] for sp in spans], "step": [sp[3] for sp in spans],
                 "axes": [sp[0] for sp in spans]}
        note = ""
        if r.gather_first:  # read the slice, combine, write it back
            where = [slice(None)] * data.ndim
            for a, lo, hi, st, _ in spans:
                where[a] = slice(lo, hi, st)
            updates = _combine(r.canonical, data[tuple(where)], updates)
            note = "the SliceScatter writing back the slice combined with the values"
        return CallCase(sc.case(op, data, None, updates, **attrs), data.shape, note=note)
    if r.form == "mask":
        mask = _get(tensors, "mask")
        if mask.dtype != np.bool_:
            raise _err(f"mask must be a bool tensor, not {mask.dtype}", argument="mask", rule="dtype")
        try:
            mask = np.broadcast_to(mask, data.shape)
        except ValueError:
            raise _err(f"mask {mask.shape} does not broadcast to data {data.shape}", argument="mask",
                       rule="shape") from None
        where = np.argwhere(mask).astype(np.int64)
        n = len(where)
        slot = next(s for s in tr.slots if s.role == "updates")
        if slot.param == "source":  # masked_scatter: the first n values of source, row-major
            source = _get(tensors, slot.name).reshape(-1)
            if source.size < n:
                raise _err(f"source has {source.size} elements but mask selects {n}", argument="source",
                           rule="shape")
            updates = source[:n].astype(dtype)
        else:
            updates = _updates(tr, tensors, (n,), dtype)
        return CallCase(sc.case(op, data, where, updates, reduction=_spelling(op, "none")), data.shape,
                        note="the ScatterND at the core of the composition (indices = NonZero(mask), transposed)")
    if r.form == "flat":
        flat = data.reshape(-1)
        ind = _get(tensors, "ind").astype(np.int64).reshape(-1)
        if r.wrap == "wrap" and flat.size:
            ind = ind % flat.size
        elif r.wrap == "clip" and flat.size:
            ind = np.clip(ind, 0, flat.size - 1)
        slot = next(s for s in tr.slots if s.role == "updates")
        values = np.full(1, slot.scalar) if slot.scalar is not None else _get(tensors, slot.name).reshape(-1)
        updates = np.resize(values, ind.shape).astype(dtype)
        return CallCase(sc.case(op, flat, ind[:, None], updates, **attrs), data.shape,
                        note="data flattened to 1-D (np.put writes the flattened array)")
    if r.form == "nd":
        indices = _nd_parts(tr, tensors, data)
        k = indices.shape[-1]
        updates = _updates(tr, tensors, indices.shape[:-1] + data.shape[k:], dtype)
        if r.gather_first:
            inside = all(-n <= v < n for j, n in enumerate(data.shape[:k]) for v in indices[..., j].reshape(-1))
            if not inside:
                raise _err("an index is out of range for data", argument="indices", rule="range")
            old = data[tuple(indices[..., j] for j in range(k))]
            return CallCase(sc.case(op, data, indices, _combine(r.canonical, old, updates),
                                    reduction=_spelling(op, "none")), data.shape,
                            note="the ScatterND (reduction none) writing back x[idx] combined with v")
        return CallCase(sc.case(op, data, indices, updates, **attrs), data.shape)
    # axis: one index array along an axis (index_add / index_copy / x[:, idx] = v ...)
    a = r.axis if r.axis is None or r.axis >= 0 else r.axis + data.ndim
    if not 0 <= a < max(data.ndim, 1):
        raise _err(f"axis {r.axis} is outside data's {data.ndim} axes", argument="dim", rule="range")
    index = _get(tensors, r.parts[0][1]).astype(np.int64)
    full = data.shape[:a] + index.shape + data.shape[a + 1:]
    slot = next(s for s in tr.slots if s.role == "updates")
    updates = _updates(tr, tensors, full, dtype, broadcast=not (tr.framework == "PyTorch" and slot.param == "source"))
    if updates.shape != full:
        raise _err(f"{slot.param} has shape {updates.shape}; it must be {full}", argument=slot.param, rule="shape")
    if r.alpha is not None:
        with np.errstate(all="ignore"):
            updates = (updates * np.asarray(r.alpha, dtype=dtype)).astype(dtype)
    spec = sc.get_spec(op)
    if spec.family == FAMILY_OF_TYPE["ScatterUpdate"] and not r.gather_first:
        return CallCase(sc.case(op, data, index, updates, **attrs), data.shape)
    n = index.size
    flat_updates = updates.reshape(data.shape[:a] + (n,) + data.shape[a + 1:])
    expanded = np.broadcast_to(index.reshape((1,) * a + (n,) + (1,) * (data.ndim - a - 1)), flat_updates.shape)
    expanded = np.ascontiguousarray(expanded)
    if r.gather_first:
        if n and (expanded.min() < -data.shape[a] or expanded.max() >= data.shape[a]):
            raise _err("an index is out of range for data", argument="index", rule="range")
        old = np.take_along_axis(data, expanded, axis=a)
        return CallCase(sc.case(op, data, expanded, _combine(r.canonical, old, flat_updates), axis=a,
                                reduction=_spelling(op, "none")), data.shape,
                        note="the ScatterElements (reduction none) writing back x[:, idx] combined with v")
    if "axis" in attrs:
        attrs["axis"] = a
    return CallCase(sc.case(op, data, expanded, flat_updates, **attrs), data.shape,
                    note=f"indices: the index expanded to updates' shape along axis {a}")


def _spelling(op: str, canonical: str) -> str:
    return sc.get_spec(op).spelling_of(canonical)


# ----------------------------------------------------------------------------- running the framework's own call
CONVERT_CODE = {"PyTorch": "torch.from_numpy(np.ascontiguousarray({}))", "TensorFlow": "tf.constant({})",
                "JAX": "jnp.asarray({})", "NumPy": "np.array({})"}
IMPORTS = {"PyTorch": "import torch", "TensorFlow": "import tensorflow as tf",
           "JAX": "import jax.numpy as jnp", "NumPy": ""}
MODULE_OF = {"PyTorch": "torch", "TensorFlow": "tensorflow", "JAX": "jax", "NumPy": "numpy"}


def framework_inputs(tr: Translation, tensors: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The tensors the framework's call takes, by variable name (index tensors as int64; a shape as int64)."""
    out = {}
    for s in tensor_slots(tr):
        arr = _get(tensors, s.name)
        out[s.name] = arr.astype(np.int64) if s.role in ("indices", "shape") else arr
    return out


def runs_in(tr: Translation) -> tuple[str, ...]:
    """The frameworks that can run the call as written: its own, and NumPy for an index assignment (x[i] = v,
    x[idx] += v mean the same in NumPy, records.py says so)."""
    return (tr.framework, "NumPy") if tr.framework == "PyTorch" and tr.function.startswith(
        ("advanced", "augmented")) else (tr.framework,)


def framework_code(tr: Translation, framework: str | None = None) -> str:
    """Python running the call in its framework on variables named after the slots; leaves the result in ``out``.

    Built from the parsed call (fixed names, literal values we read), never from the user's text. ``framework``
    "NumPy" runs an index assignment in NumPy (see :func:`runs_in`)."""
    fw = framework or tr.framework
    if fw not in runs_in(tr):
        raise _err(f"{tr.function} does not run in {fw}", argument="framework", rule="framework")
    convert = "\n".join(f"{s.name} = {CONVERT_CODE[fw].format(s.name)}" for s in tensor_slots(tr)
                        if not (fw == "TensorFlow" and s.role == "shape"))
    shape_fix = ""
    if fw == "TensorFlow" and any(s.role == "shape" for s in tr.slots):
        shape_fix = "shape = tf.constant(shape)\n"
    call = tr.call.replace("data.clone()", "data.copy()") if fw != tr.framework else tr.call
    return "\n".join(x for x in (IMPORTS[fw], "import numpy as np", convert, shape_fix.rstrip(), call,
                                 "out = np.asarray(out)") if x) + "\n"


def run_framework(tr: Translation, tensors: Mapping[str, np.ndarray], framework: str | None = None) -> np.ndarray:
    """Run the call in its framework in THIS process (tests; the app runs it guarded in a child process).

    Executes only :func:`framework_code`'s generated text, never the user's."""
    namespace: dict = dict(framework_inputs(tr, tensors))
    exec(compile(framework_code(tr, framework), "<framework_map.from_call>", "exec"), namespace)  # noqa: S102
    return namespace["out"]


def agrees(cc: CallCase, got: np.ndarray, canonical: str) -> str:
    """"exact", "other-winner" (replacement with duplicates: another written value won) or a failure message."""
    want = cc.output()
    got = np.asarray(got)
    if got.shape != want.shape:
        return f"shape {got.shape} != {want.shape}"
    if np.array_equal(got.astype(want.dtype), want, equal_nan=want.dtype.kind == "f"):
        return "exact"
    if canonical == "none":
        t = cc.case.trace()
        written: dict[int, set] = {}
        flat_updates = cc.case.updates.reshape(-1)
        for i in range(len(t)):
            for tgt, src in zip(t.plan.targets[i], t.plan.sources[i]):
                written.setdefault(int(tgt), set()).add(flat_updates[src].item())
        bad = [c for c, (g, w) in enumerate(zip(got.reshape(-1), want.reshape(-1)))
               if g != w and g.item() not in written.get(c, ())]
        if not bad:
            return "other-winner"
    return f"got {got.tolist()} want {want.tolist()}"


# ----------------------------------------------------------------------------- example tensors (shapes, random cases)
def example_tensors(tr: Translation, rng: np.random.Generator, dtype="float32",
                    shape: tuple[int, ...] | None = None) -> dict[str, np.ndarray]:
    """Valid tensors for the call's slots, drawn to repeat indices often (and negative ones where the framework
    takes them); ``shape`` fixes data's shape. Values are small integers, so sums and products are exact."""
    r = tr.reading
    neg = tr.negatives

    def idx(n, size):
        lo = -n if neg else 0
        return rng.integers(lo, max(n, 1), size=size).astype(np.int64)

    def vals(size):
        return rng.integers(-3, 4, size=size).astype(dtype)

    need = 1
    if r.axis is not None:
        need = max(need, r.axis + 1 if r.axis >= 0 else -r.axis)
    if r.form in ("nd", "flat") and r.parts and r.parts[0][0] != "tuple":
        need = max(need, len(r.parts))
    if r.form == "slice" and r.axis is None:
        need = max(need, len(r.slices))
    if shape is None:
        rank = int(rng.integers(need, max(need, 3) + 1))
        dims = [int(v) for v in rng.integers(1, 5, size=rank)]
        for j, part in enumerate(r.parts if r.form == "nd" else ()):  # an integer index needs room on its axis
            if part[0] == "const":
                dims[j] = max(dims[j], part[1] + 1 if part[1] >= 0 else -part[1])
        for j, s in enumerate(r.slices if r.axis is None else ()):
            if s is not None and s[3]:
                dims[j] = max(dims[j], s[0] + 1 if s[0] >= 0 else -s[0])
        if r.form == "slice" and r.axis is not None and r.slices[0][3]:
            i = r.slices[0][0]
            dims[r.axis] = max(dims[r.axis], i + 1 if i >= 0 else -i)
        shape = tuple(dims)
    shape = tuple(int(n) for n in shape)
    data = vals(shape)
    out: dict[str, np.ndarray] = {}
    slots = {s.role: s for s in tr.slots}
    data_slot = slots.get("data")
    if data_slot is not None:
        out[data_slot.name] = data
    else:  # tf.scatter_nd: the shape
        out["shape"] = np.asarray(shape, dtype=np.int64)
    upd = slots.get("updates")

    def put_updates(target_shape):
        if upd is not None and upd.scalar is None:
            out[upd.name] = vals(target_shape)

    rank = len(shape)
    if r.form == "elements":
        a = r.axis % rank
        if tr.framework == "NumPy":  # put_along_axis: the other axes are data's or 1 (broadcast)
            ishape = tuple(int(rng.choice([1, n])) if d != a else int(rng.integers(1, 6)) for d, n in enumerate(shape))
        else:
            ishape = tuple(int(rng.integers(1, n + 1)) if d != a else int(rng.integers(1, 6))
                           for d, n in enumerate(shape))
        out[slots["indices"].name] = idx(shape[a], ishape)
        grow = tr.framework == "PyTorch" and rng.random() < 0.3  # PyTorch reads the front of a larger src
        put_updates(tuple(n + int(grow) for n in ishape))
    elif r.form == "nd":
        batch = tuple(int(v) for v in rng.integers(1, 4, size=int(rng.integers(1, 3))))
        if r.parts[0][0] == "tuple":
            k = int(rng.integers(1, rank + 1))
            out[r.parts[0][1]] = np.stack([idx(shape[j], batch) for j in range(k)], axis=-1)
        else:
            k = len(r.parts)
            for j, part in enumerate(r.parts):
                if part[0] == "slot":
                    out[part[1]] = idx(shape[j], batch)
        put_updates(batch + shape[k:])
    elif r.form == "axis":
        a = r.axis % rank
        one_d = tr.framework == "PyTorch" and not tr.function.startswith(("advanced", "augmented"))
        ishape = (int(rng.integers(1, 6)),) if one_d else tuple(
            int(v) for v in rng.integers(1, 4, size=int(rng.integers(1, 3))))
        out[r.parts[0][1]] = idx(shape[a], ishape)
        put_updates(shape[:a] + ishape + shape[a + 1:])
    elif r.form == "slice":
        spans, full = _slice_shape(tr, np.zeros(shape))
        squeezed = tuple(n for d, n in enumerate(full) if not any(sp[4] and sp[0] % rank == d for sp in spans))
        put_updates(squeezed)
    elif r.form == "mask":
        mask = rng.random(shape) < 0.5
        out["mask"] = mask
        n = int(mask.sum())
        if upd is not None and upd.scalar is None:
            out[upd.name] = vals(shape if upd.param == "source" else (n,))
    elif r.form == "flat":
        size = int(np.prod(shape))
        n = int(rng.integers(1, 7))
        wide = 3 * size if r.wrap in ("wrap", "clip") else size
        out["ind"] = rng.integers(-wide, max(wide, 1), size=n).astype(np.int64)
        put_updates((int(rng.integers(1, n + 1)),))
    return out


# ----------------------------------------------------------------------------- the reverse: a record's call
# The call a framework map record stands for, as a person would write it (the spec pages' Framework map tab
# links each record to the From your code view with it filled in). {axis}, {reduce}, {include_self} and
# {method} come from the configuration; None: the record is not one call this module reads (WebNN, or a
# composition with no single framework call at its core).
ENTRY_CALLS: Mapping[str, str | None] = MappingProxyType({
    "torch.scatter": "x.scatter({axis}, idx, src)",
    "torch.scatter_add": "x.scatter_add({axis}, idx, src)",
    "torch.scatter_reduce": "x.scatter_reduce({axis}, idx, src, reduce={reduce!r}, include_self={include_self})",
    "torch.index_put": "x.index_put_((i, j), v, accumulate={reduce})",
    "torch.index_put.sub": "x.index_put_((i, j), -v, accumulate=True)",
    "torch.index_reduce": "x.index_reduce(0, idx, src, {reduce!r}, include_self={include_self})",
    "torch.index_copy": "x.index_copy({axis}, idx, src)",
    **{f"tf.{op}": f"tf.{op}(t, idx, upd)" for op in TF_OPS},
    "tf.scatter_nd": "tf.scatter_nd(idx, upd, shape)",
    "tf.tensor_scatter_nd.elements": "{reduce}(t, coords, upd)",
    "tf.tensor_scatter_nd_update.slices": "tf.tensor_scatter_nd_update(t, idx, upd)",
    "jax.at.nd": "x.at[i, j].{method}(v)",
    "jax.at.nd.sub": "x.at[i, j].add(-v)",
    "jax.at.elements": "x.at[rows, idx].{method}(v)",
    "jax.at.update": "x.at[:, idx].set(v)",
    "torch.index_put.cache": "cache.index_put_((batch, positions), update)",
    "tf.tensor_scatter_nd_update.cache": "tf.tensor_scatter_nd_update(cache, coords, update)",
    "jax.at.cache": "cache.at[batch, positions].set(update)",
    "torch.slice_scatter": "torch.slice_scatter(x, src, dim=0, start=1, end=3)",
    "jax.at.slice": "x.at[1:3].set(v)",
})


def call_for(entry, config: Config) -> str | None:
    """The call ``entry`` stands for under ``config``, as text ``from_call`` reads; None where there is none."""
    template = ENTRY_CALLS.get(entry.id)
    if template is None:
        return None
    value = entry.reductions.get(config.canonical)
    text = template.format(axis=1, reduce=value, include_self=bool(config.use_init_val), method=value)
    try:
        from_call(text)
    except sc.ScatterError:
        return None  # e.g. a TensorFlow composition whose step is the map's own helper (scatter_nd_prod)
    return text
