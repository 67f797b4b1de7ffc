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

With tensors, the same call becomes a :class:`scatter_core.Case` of the target version and runs in its
framework: from_call_case.py (``case_for``, ``framework_code``) and from_call_run.py (the guarded run, the
exported test). Generated code never contains user text.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping

import numpy as np

import scatter_core as sc

from .guard import check_call_text
from framework_map.maps import Config, configurations
from framework_map.records import (BY_ID, CAVEATS, FRAMEWORK_RECORDS, NUMPY_PUT_ALONG_AXIS, NUMPY_PUT_MODES, TOPICS,
                                   TORCH_AUGMENTED_DUPLICATES, TORCH_INDEX_ADD_ALPHA, TORCH_INDEX_FILL_NEG,
                                   WHERE_BROADCAST, WHERE_DTYPES)

MAX_CALL_TEXT = 2_000  # characters: one call, as pasted from a model's code
MAX_NODES = 300  # syntax tree nodes
MAX_DEPTH = 24  # nesting of the syntax tree
MAX_CHAIN = 6  # a.b.c.d.e.f: the longest attribute chain read
MAX_OPEN = 8  # index names the text leaves open (mask or indices): each makes one more reading
BIG = 2 ** 63 - 1  # an unbounded slice end, as SliceScatter's (Slice-8's) clamping reads it

ONNX, OPENVINO = "ONNX", "OpenVINO"


# ----------------------------------------------------------------------------- index forms, as data
@dataclass(frozen=True, eq=False)  # one record per form, compared by identity
class Form:
    """How a call's index expression addresses data (issue 25: what differs between forms is here, as data; the
    operators each form becomes come from the family records' ``call_forms``, see :func:`targets`).

    The functions named by ``case`` and ``draw`` live in from_call_case.py (the case on tensors, example tensors);
    ``inputs`` says where the operator's indices come from."""

    name: str  # a key of the family records' call_forms
    inputs: str  # how the operator's indices input is made, a template over the slots' texts (see _inputs_text)
    case: str  # from_call_case function building the scatter_core case
    draw: str  # from_call_case function drawing example tensors
    strided: bool = False  # a strided slice: no index tensor (x[1:3] = v, slice_scatter, select_scatter)
    mask: bool = False  # a boolean mask: no operator takes one; a composition around ``core``'s operators
    core: str | None = None  # the form whose operators a composition is built on (a mask: ScatterND's)
    coordinates: bool = False  # one index tensor (or integer) per leading axis, stacked into k-tuples
    leading_slices: bool = False  # whole slices (:) before one index tensor: x[:, idx]
    flattened: bool = False  # data flattened to 1-D (np.put)
    augments: bool = False  # x[...] op= v is read for it (read, combine, write back)
    ufunc_at: bool = False  # np.<ufunc>.at reads it
    # the framework map entry an indexing call of this form is, per framework, when its function has none
    entries: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


ELEMENTS = Form("elements", "indices: {index}", "_elements_case", "_draw_elements")
ND = Form("nd", "", "_nd_case", "_draw_nd", coordinates=True, augments=True, ufunc_at=True,
          entries=MappingProxyType({"JAX": "jax.at.nd"}))
AXIS = Form("axis", "indices (ScatterUpdate): {index}; (ScatterElements): {index} reshaped and expanded to updates' "
            "shape along axis {axis}", "_axis_case", "_draw_axis", leading_slices=True, augments=True, ufunc_at=True,
            entries=MappingProxyType({"JAX": "jax.at.nd", "PyTorch": "torch.index_put"}))
SLICE = Form("slice", "", "_slice_case", "_draw_slice", strided=True, augments=True,
             entries=MappingProxyType({"JAX": "jax.at.slice", "PyTorch": "torch.slice_scatter"}))
MASK = Form("mask", "indices: NonZero({mask}) transposed, one row per True cell", "_mask_case", "_draw_mask",
            mask=True, core="nd", augments=True, ufunc_at=True,
            entries=MappingProxyType({"JAX": "jax.at.nd", "PyTorch": "torch.index_put"}))
# a 1-D mask after whole slices (x[:, m] = v, x[..., m] = v): NonZero(m) is an index along that axis
MASK_AXIS = Form("mask-axis", "index along axis {axis}: NonZero({mask}) (a 1-D mask)", "_mask_case", "_draw_mask",
                 mask=True, core="axis", leading_slices=True, augments=True, ufunc_at=True,
                 entries=MappingProxyType({"JAX": "jax.at.nd", "PyTorch": "torch.index_put"}))
# masked_fill, torch.where, tf.where, jnp.where, np.where, np.putmask: Where(mask, values, data), no scatter
WHERE = Form("where", "condition: {mask}; X (taken where True): the values; Y (taken where False): the data",
             "_where_case", "_draw_where", mask=True, core="nd")
FLAT = Form("flat", "", "_flat_case", "_draw_flat", flattened=True)
FORMS: Mapping[str, Form] = MappingProxyType({f.name: f for f in (ELEMENTS, ND, AXIS, SLICE, MASK, MASK_AXIS, WHERE,
                                                                   FLAT)})
READ_WRITE_ENTRY = MappingProxyType({"PyTorch": "torch.index_put"})  # x[idx] op= v: index_put_ without accumulate
# the elementwise ONNX / OpenVINO operator combining two values as a canonical reduction does (a composition
# that reads cells and combines them before writing: x[idx] += v)
ELEMENTWISE: Mapping[str, str] = MappingProxyType({"sum": "Add", "sub": "Sub", "prod": "Mul", "max": "Max",
                                                   "min": "Min"})


@functools.lru_cache(maxsize=None)
def targets(form: Form, standard: str) -> tuple[str, ...]:
    """The operator types ``form`` becomes in ``standard`` ("ONNX" or "OpenVINO"), most preferred first: those of
    the families whose record lists the form in ``call_forms``, less operators retired for another (a type with a
    deprecated version: Scatter, whose last version points to ScatterElements)."""
    retired = {spec.op_type for spec in sc.OPERATORS_LIST if spec.deprecated}
    ranked = sorted((f.call_forms[form.name], n, spec.op_type) for n, f in enumerate(sc.FAMILIES.values())
                    if form.name in f.call_forms for spec in sc.family_members(f.name)
                    if spec.framework == standard and spec.op_type not in retired)
    return tuple(dict.fromkeys(op for *_, op in ranked))


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
    # the record a reduction argument makes the call (scatter(..., reduce="add") is scatter_add's)
    entry_by_reduction: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # the call accepts negative indices, counting them from the end (then a version refusing them is not exact):
    # JAX and NumPy indexing, PyTorch indexing and index_fill; not PyTorch's scatter / index_* nor TensorFlow's,
    # which raise (records.py: TORCH_NEG_ERR, TF_NEG; checked on torch 2.13 and tensorflow-cpu 2.21)
    negatives: bool = False
    # topic -> the call's own sentence where it differs from its record's (index_fill shares index_copy's record)
    topics: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # a masked write by Where (WHERE form): parameter -> role ("mask", "updates": taken where True, "data": where
    # False); ``code`` is the generated call over the slots' names ({values}, {data}: a name or a number)
    roles: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    code: str = ""
    method: bool = True  # PyTorch: also read as x.<name>(...) (torch.where's method form binds self elsewhere)
    cyclic: bool = False  # np.putmask: the values repeat over data's flat positions, not over the True cells

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
       entry="torch.scatter", aliases=MappingProxyType({"value": "src"}),
       entry_by_reduction=MappingProxyType({"sum": "torch.scatter_add", "prod": "torch.scatter_reduce"})),
    _c("torch.scatter_add", "PyTorch", ("input", "dim", "index", "src"), entry="torch.scatter_add"),
    _c("torch.scatter_reduce", "PyTorch", ("input", "dim", "index", "src", "reduce"), ("include_self",),
       {"include_self": True}, entry="torch.scatter_reduce"),
    _c("torch.index_put", "PyTorch", ("input", "indices", "values", "accumulate"), (), {"accumulate": False},
       entry="torch.index_put", negatives=True),
    # index_add / index_fill have no record of their own: index_copy's (the same 1-D index along dim) says how
    # PyTorch treats their indices; its duplicates sentence is left out where the reduction differs
    _c("torch.index_add", "PyTorch", ("input", "dim", "index", "source"), ("alpha",), {"alpha": 1},
       entry="torch.index_copy"),
    _c("torch.index_copy", "PyTorch", ("input", "dim", "index", "source"), entry="torch.index_copy"),
    _c("torch.index_reduce", "PyTorch", ("input", "dim", "index", "source", "reduce"), ("include_self",),
       {"include_self": True}, entry="torch.index_reduce"),
    _c("torch.index_fill", "PyTorch", ("input", "dim", "index", "value"), entry="torch.index_copy", negatives=True,
       topics=MappingProxyType({"negative indices": TORCH_INDEX_FILL_NEG})),
    _c("torch.masked_scatter", "PyTorch", ("input", "mask", "source")),
    _c("torch.masked_fill", "PyTorch", ("input", "mask", "value"), entry=None,
       roles=MappingProxyType({"input": "data", "mask": "mask", "value": "updates"}),
       code="out = data.masked_fill(mask, {values})"),
    _c("torch.where", "PyTorch", ("condition", "input", "other"), (), {"input": None, "other": None}, method=False,
       roles=MappingProxyType({"condition": "mask", "input": "updates", "other": "data"}),
       code="out = torch.where(mask, {values}, {data})"),
    _c("torch.slice_scatter", "PyTorch", ("input", "src", "dim", "start", "end", "step"), (),
       {"dim": 0, "start": None, "end": None, "step": 1}, entry="torch.slice_scatter"),
    _c("torch.select_scatter", "PyTorch", ("input", "src", "dim", "index")),
    *(_c(f"tf.{name}", "TensorFlow", ("tensor", "indices", "updates", "name"), (), {"name": None},
         entry=f"tf.{name}") for name in TF_OPS),
    _c("tf.scatter_nd", "TensorFlow", ("indices", "updates", "shape", "name"), (), {"name": None},
       entry="tf.scatter_nd"),
    _c("tf.where", "TensorFlow", ("condition", "x", "y", "name"), (), {"x": None, "y": None, "name": None},
       roles=MappingProxyType({"condition": "mask", "x": "updates", "y": "data"}),
       code="out = tf.where(mask, {values}, {data})"),
    _c("jnp.where", "JAX", ("condition", "x", "y"), ("size", "fill_value"),
       {"x": None, "y": None, "size": None, "fill_value": None}, positional_only=True,
       roles=MappingProxyType({"condition": "mask", "x": "updates", "y": "data"}),
       code="out = jnp.where(mask, {values}, {data})"),
    *(_c(f"jax.at.{m}", "JAX", ("values",), JAX_KWONLY,
         {"indices_are_sorted": False, "unique_indices": False, "mode": None, "out_sharding": None,
          "wrap_negative_indices": True}, negatives=True) for m in JAX_METHODS),
    *(_c(f"np.{u}.at", "NumPy", ("a", "indices", "b"), (), {"b": None}, positional_only=True, negatives=True)
      for u in NUMPY_UFUNCS),
    _c("np.put_along_axis", "NumPy", ("arr", "indices", "values", "axis"), negatives=True),
    _c("np.put", "NumPy", ("a", "ind", "v", "mode"), (), {"mode": "raise"}, negatives=True),
    _c("np.where", "NumPy", ("condition", "x", "y"), (), {"x": None, "y": None}, positional_only=True,
       roles=MappingProxyType({"condition": "mask", "x": "updates", "y": "data"}),
       code="out = np.where(mask, {values}, {data})"),
    _c("np.putmask", "NumPy", ("a", "mask", "values"), cyclic=True,
       roles=MappingProxyType({"a": "data", "mask": "mask", "values": "updates"}),
       code="out = data.copy()\nnp.putmask(out, mask, {values})"),
)})
TORCH_NAMES = sorted({k.split(".", 1)[1] for k in CALLS if k.startswith("torch.")})
TORCH_METHODS = {**{n: n for n in TORCH_NAMES if CALLS[f"torch.{n}"].method},
                 **{n + "_": n for n in TORCH_NAMES if n not in ("slice_scatter", "select_scatter")
                    and CALLS[f"torch.{n}"].method}}
MODULE_ALIASES = {"torch": "torch", "tf": "tf", "tensorflow": "tf", "np": "np", "numpy": "np", "jnp": "jnp"}


def supported_text() -> str:
    """What from_call reads, in one paragraph (for messages and the page)."""
    torch = ", ".join(f"{n}" for n in TORCH_NAMES)
    return (f"PyTorch: x.<name>(...) or torch.<name>(x, ...) for {torch} (in-place _ forms too), and "
            "x[i, j] = v / x[idx] += v / x[mask] = v; TensorFlow: " + ", ".join(f"tf.{n}" for n in TF_OPS) +
            ", tf.scatter_nd, tf.where; JAX: x.at[...]." + "/".join(JAX_METHODS) + "(v), jnp.where; NumPy: " +
            ", ".join(f"np.{u}.at" for u in NUMPY_UFUNCS) + ", np.put_along_axis, np.put, np.where, np.putmask")


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

    form: Form
    canonical: str  # canonical reduction: none, sum, prod, max, min, mean, sub
    init: bool = True  # use_init_val: whether the written cell takes part
    axis: int | None = None
    parts: tuple = ()  # nd/axis: per leading coordinate ("slot", name) or ("const", int); a mask reading also
    # ("mask", name) and, beside a mask, ("colon", ":") / ("ellipsis", "...") for whole slices
    slices: tuple = ()  # slice: per data axis (start, stop, step, squeeze) or None for a whole axis
    gather_first: bool = False  # x[idx] op= v: read, combine, write (not an accumulation)
    alpha: object = None  # index_add's alpha
    wrap: str | None = None  # np.put's mode
    # a mask: the values reach the written cells by Where(mask, v, x) (a number, a value broadcast over each True
    # position's cells, masked_fill, torch.where, np.putmask), not by a scatter of one value per True cell
    where: bool = False
    broadcast_mask: bool = False  # the mask broadcasts to data from the right (masked_*), not over leading axes
    cyclic: bool = False  # np.putmask: values repeat over data's flat positions


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
    # where the text alone cannot tell a mask from indices: one Translation per reading (then ``exact`` is False
    # and the operators are empty: nothing is claimed for a guess); empty otherwise
    readings: list = field(default_factory=list)
    assumes: str = ""  # a reading's assumption, e.g. "mask is a boolean mask" (empty where nothing is assumed)
    undecided: tuple[str, ...] = ()  # the names the text leaves open (mask or indices), for an ambiguous answer

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
# syntax that is never read, as a person would name it (messages name it, not the syntax tree's class)
NOT_READ = {ast.ListComp: "a list comprehension", ast.SetComp: "a set comprehension",
            ast.DictComp: "a dict comprehension", ast.GeneratorExp: "a generator expression", ast.Await: "await",
            ast.Yield: "yield", ast.YieldFrom: "yield from", ast.NamedExpr: "an assignment expression (:=)",
            ast.Starred: "*-unpacking", ast.JoinedStr: "an f-string"}


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
        if type(node) in NOT_READ:
            what = NOT_READ[type(node)]
            raise _err(f"{what}: not read here; write the tensors as names (x, idx, src) and the attributes as "
                       "literals", argument=what, rule="no-code")
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if name is not None and name.startswith("__"):
            raise _err(f"{name}: names with double underscores are never read (nothing in the text is run)",
                       argument=name, rule="no-code")
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
    check_call_text(text)  # names in ASCII, no control characters (from_call_guard)
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
    return _err(f"{name}: not a supported scatter call. Supported: {supported_text()}", argument=name,
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
            raise _err(f"{name}: .at[...].{name} is not supported; supported: " +
                       ", ".join(f".{m}" for m in JAX_METHODS), argument=name, rule="supported")
        return CALLS[f"jax.at.{name}"], False, owner.value.value, owner
    # NumPy: np.add.at(...)
    if name == "at" and isinstance(owner, ast.Attribute) and _is_module(owner.value, "np"):
        if owner.attr not in NUMPY_UFUNCS:
            raise _err(f"np.{owner.attr}.at: not supported; supported: " +
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
        base = TORCH_METHODS.get(name) or (name if f"torch.{name}" in CALLS else None)
        if base is None:
            raise _unknown(f"torch.{name}")
        return CALLS[f"torch.{base}"], False, None, None
    if _is_module(owner, "jnp"):
        if f"jnp.{name}" not in CALLS:
            raise _unknown(f"jnp.{name}")
        return CALLS[f"jnp.{name}"], False, None, None
    base = TORCH_METHODS.get(name)
    if base is None:
        raise _unknown(f"{_src(owner)[:40]}.{name}")
    return CALLS[f"torch.{base}"], True, owner, None


# ----------------------------------------------------------------------------- index expressions
INDEX_FORMS = ("supported: x[i], x[i, j, ...] (leading index arrays, masks or integers), x[:, i] or x[..., i] "
               "(whole slices, then one index array or 1-D mask), x[a:b, ...] (slices and integers), x[mask], and "
               "whole slices beside a mask anywhere (x[i, :, m])")


def _element_kind(e, tensors: Mapping) -> str:
    """What one element of an index expression is: "colon" (a:b), "ellipsis", "int" (a literal), "mask" (a bool
    by its syntax: a comparison, ~m, a & b; or a bool tensor given for it), "array" (an integer tensor given for
    it) or "either": a name or expression the text alone cannot type (indices or a boolean mask; a name never
    decides)."""
    if isinstance(e, ast.Slice):
        return "colon"
    if isinstance(e, ast.Constant) and e.value is Ellipsis:
        return "ellipsis"
    if isinstance(e, ast.Constant) and e.value is None:
        raise _err("None (a new axis) in an index is not supported", argument="None", rule="index")
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == slice.__name__:
        raise _err("write slices as a:b inside x[...], not slice(...)", argument="slice", rule="index")
    if _is_int_literal(e):
        return "int"
    if _is_mask(e):
        return "mask"
    given = tensors.get(_src(e))
    if given is None:
        return "either"
    return "mask" if np.asarray(given).dtype == np.bool_ else "array"


class _Readings(list):
    """An index expression's readings, and those the text allows but this page does not read, as (what each
    assumes, why it is not read): the answer says them, claims nothing, and offers the others."""

    refused: tuple = ()


def _like(source, items) -> _Readings:
    out = _Readings(items)
    out.refused = getattr(source, "refused", ())
    return out


def _index_readings(sub: ast.AST, canonical: str, where: str, tensors: Mapping) -> list[tuple[Reading, list, str]]:
    """x[...] / x.at[...] / index_put's tuple: every reading its index expression can have, as (reading, the index
    slots, what it assumes). One where the text (or a tensor given for each open name) decides; otherwise the
    reading with every open element as integer indices, then one per open element read as a boolean mask."""
    elts = list(sub.elts) if isinstance(sub, ast.Tuple) else [sub]
    if not elts:
        raise _err(f"{where}: an empty index", argument="index", rule="index")
    kinds = [_element_kind(e, tensors) for e in elts]
    open_ = [j for j, kind in enumerate(kinds) if kind == "either"]
    if len(open_) > MAX_OPEN:  # one reading per open name, and the all-integer one: bounded
        raise _err(f"{where}: {len(open_)} index names could each be integer indices or a boolean mask; at most "
                   f"{MAX_OPEN} are read open: give their tensors (or dtypes) to decide", argument="index",
                   rule="size")
    # a mask given with two axes or more covers that many axes: never the one-axis reading (x[:, m2d] = v)
    wide = frozenset(j for j, e in enumerate(elts) if kinds[j] == "mask" and np.ndim(tensors.get(_src(e), ())) > 1)
    if not open_:
        slots: list = []
        return [(_index_reading(elts, kinds, slots, canonical, where, wide), slots, "")]
    choices = [(dict.fromkeys(open_, "array"), " and ".join(_src(elts[j])[:40] for j in open_) +
                (" hold" if len(open_) > 1 else " holds") + " integer indices")]
    choices += [({**dict.fromkeys(open_, "array"), j: "mask"}, f"{_src(elts[j])[:40]} is a boolean mask")
                for j in open_]
    out, refused = [], []
    for chosen, label in choices:
        slots = []
        try:
            reading = _index_reading(elts, [chosen.get(j, kind) for j, kind in enumerate(kinds)], slots, canonical,
                                     where)
        except sc.ScatterError as exc:
            refused.append((label, exc))
            continue
        out.append((reading, slots, label))
    if not out:
        raise refused[0][1]
    if refused:  # a reading the frameworks take but this page does not read: say so, claim nothing
        out = _Readings(out)
        out.refused = tuple((label, str(exc).split("; supported")[0]) for label, exc in refused)
    return out


def _index_reading(elts: list, kinds: list, slots: list, canonical: str, where: str,
                   wide: frozenset = frozenset()) -> Reading:
    """The reading of an index expression whose elements' kinds are known (see :func:`_element_kind`); ``wide``:
    the elements that are masks given with two axes or more."""
    if kinds.count("ellipsis") > 1:
        raise _err(f"{where}: an index can hold one ... only", argument="...", rule="index")
    advanced = [j for j, kind in enumerate(kinds) if kind in ("array", "mask")]
    if not advanced:  # slices and integers: a strided slice (integers are one-element slices)
        if "ellipsis" in kinds:
            raise _err(f"{where}: ... with slices and integers only is not supported; " + INDEX_FORMS,
                       argument="...", rule="index")
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
        return Reading(SLICE, canonical, slices=tuple(spans))
    whole = [j for j, kind in enumerate(kinds) if kind in ("colon", "ellipsis")]
    if any(kinds[j] == "colon" and not (elts[j].lower is None and elts[j].upper is None and elts[j].step is None)
           for j in whole) and advanced:
        raise _err(f"{where}: only whole slices (:) may stand beside an index array; " + INDEX_FORMS,
                   argument="index", rule="index")
    j = advanced[0]
    if len(advanced) == 1 and j > 0 and j not in wide and all(kinds[w] in ("colon", "ellipsis") for w in range(j)) and all(
            kinds[w] == "colon" for w in range(j + 1, len(elts))):
        # whole slices (or ...) before one index tensor or mask, and only whole slices after it: one axis
        after = len(elts) - j - 1
        axis = -(after + 1) if "ellipsis" in kinds[:j] else j
        if kinds[j] == "mask":
            name = "mask" if len(elts) == 1 else "index"
            slots.append(Slot(name, "index", _src(elts[j]), "mask"))
            return Reading(MASK_AXIS, canonical, axis=axis, parts=(("mask", name),))
        slots.append(Slot("index", "index", _src(elts[j]), "indices"))
        return Reading(AXIS, canonical, axis=axis, parts=(("slot", "index"),))
    if whole and not any(kinds[j] == "mask" for j in advanced):
        raise _err(f"{where}: this index mixes slices and index arrays in a way no single scatter writes; "
                   + INDEX_FORMS, argument="index", rule="index")
    parts = []  # a mask beside whole slices (x[i, :, m], x[m, :]): ScatterND on coordinates NumPy's rules place
    for j, (e, kind) in enumerate(zip(elts, kinds)):
        if kind in ("colon", "ellipsis"):
            parts.append((kind, ":" if kind == "colon" else "..."))
            continue
        if kind == "int":
            parts.append(("const", _literal(e, "index", (int,))))
            continue
        name = "index" if len(elts) == 1 else f"indices_{j}"
        if kind == "mask" and len(elts) == 1 and _is_mask(e):
            name = "mask"  # x[x > 0] = v: the condition's values
        slots.append(Slot(name, name, _src(e), "mask" if kind == "mask" else "indices"))
        parts.append(("mask" if kind == "mask" else "slot", name))
    if any(p[0] == "mask" for p in parts):
        return Reading(MASK, canonical, parts=tuple(parts))
    return Reading(ND, canonical, parts=tuple(parts))


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
def _with_values(prefix: list, alternatives: list, node, param: str, name: str = "values") -> list:
    """Each index reading's (slots, reading, assumption), its slots between ``prefix`` and the values' slot."""
    out = _like(alternatives, [])
    for reading, index_slots, label in alternatives:
        slots = prefix + index_slots
        _tensor(node, slots, name, param, "updates", allow_scalar=True)
        out.append((slots, reading, label))
    return out


def _read_where(call: Call, bound: dict, owner, method: bool) -> list:
    """A masked write by Where (masked_fill, torch.where, tf.where, jnp.where, np.where, np.putmask): the
    call's record names each parameter's role (``Call.roles``)."""
    given = {p: bound.get(p) for p in call.roles}
    if method:  # x.masked_fill(mask, v): the tensor the method is called on
        given[call.params[0]] = owner
    missing = [p for p, node in given.items() if node is None or _is_none(node)]
    if missing:
        first = next(p for p, r in call.roles.items() if r == "mask")
        raise _err(f"{call.key}({first}) without {' and '.join(missing)} is not a masked write: it returns the "
                   f"True cells' coordinates (NonZero); give both values to read it as one",
                   argument=missing[0], rule="signature")
    slots, names = [], {"mask": "mask", "updates": "values", "data": "data"}
    for param, role in sorted(call.roles.items(), key=lambda pr: ("data", "mask", "updates").index(pr[1])):
        if role == "mask":
            _tensor(given[param], slots, "mask", param, "mask")
        else:
            _tensor(given[param], slots, names[role], param, role, allow_scalar=True)
    if all(s.scalar is not None for s in slots if s.role != "mask"):
        raise _err(f"{call.key}: both values are numbers; give at least one tensor (the data written into)",
                   argument=next(p for p, r in call.roles.items() if r == "data"), rule="tensor")
    for p in call.kwonly:  # jnp.where(..., size=, fill_value=): only for the one-argument form
        if p in bound and not _is_none(bound[p]):
            raise _err(f"{call.key}: {p} applies to the one-argument form (coordinates) only; leave it out",
                       argument=p, rule="signature")
    return [(slots, Reading(WHERE, "none", parts=(("mask", "mask"),), where=True, broadcast_mask=not call.cyclic,
                            cyclic=call.cyclic), "")]


def _is_none(node) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _read_torch(call: Call, b: dict, slots: list, caveats: list, tensors: Mapping):
    key = call.key.split(".", 1)[1]
    dim = lambda: _literal(b["dim"], "dim", (int,))  # noqa: E731
    if key in ("scatter", "scatter_add", "scatter_reduce"):
        axis = dim()
        _tensor(b["index"], slots, "index", "index", "indices")
        _tensor(b["src"], slots, "src", "src", "updates", allow_scalar=key == "scatter")
        if key == "scatter_add":
            return Reading(ELEMENTS, "sum", axis=axis)
        if key == "scatter":
            reduce = b.get("reduce")
            red = None if reduce is None else _literal(reduce, "reduce", (str,), allow_none=True)
            if red is None:
                return Reading(ELEMENTS, "none", axis=axis)
            return Reading(ELEMENTS, TORCH_SCATTER_REDUCE[_choice(reduce, "reduce", TORCH_SCATTER_REDUCE)],
                           axis=axis)
        canonical = TORCH_REDUCE[_choice(b["reduce"], "reduce", TORCH_REDUCE)]
        init = _literal(b["include_self"], "include_self", (bool,)) if "include_self" in b else True
        return Reading(ELEMENTS, canonical, init=init, axis=axis)
    if key == "index_put":
        tup = b["indices"]
        if not isinstance(tup, (ast.Tuple, ast.List)) or not tup.elts:
            raise _err("index_put's indices must be written as a tuple of index tensors, e.g. (i, j) or (idx,)",
                       argument="indices", rule="index")
        acc = _literal(b["accumulate"], "accumulate", (bool,)) if "accumulate" in b else False
        alternatives = _index_readings(ast.Tuple(elts=list(tup.elts)), "sum" if acc else "none", "index_put", tensors)
        for reading, _, _ in alternatives:
            if not (reading.form.coordinates or reading.form is MASK):
                raise _err("index_put's indices must be index tensors or boolean masks", argument="indices",
                           rule="index")
            number = next((p[1] for p in reading.parts if p[0] == "const"), None)
            if number is not None:  # torch 2.13 raises TypeError ("expected Tensor as element 1 ...")
                raise _err(f"index_put's indices must all be tensors: PyTorch refuses the number {number} there "
                           f"(TypeError); write x[..., {number}] = v instead, where indexing takes numbers",
                           argument="indices", rule="index")
        return _with_values(slots, alternatives, b["values"], "values")
    if key in ("index_add", "index_copy", "index_reduce", "index_fill"):
        axis = dim()
        _tensor(b["index"], slots, "index", "index", "indices")
        if key == "index_fill":
            _tensor(b["value"], slots, "value", "value", "updates", allow_scalar=True)
            return Reading(AXIS, "none", axis=axis, parts=(("slot", "index"),))
        _tensor(b["source"], slots, "source", "source", "updates")
        if key == "index_copy":
            return Reading(AXIS, "none", axis=axis, parts=(("slot", "index"),))
        if key == "index_add":
            alpha = _literal(b["alpha"], "alpha", (int, float)) if "alpha" in b else 1
            return Reading(AXIS, "sum", axis=axis, parts=(("slot", "index"),), alpha=None if alpha == 1 else alpha)
        canonical = TORCH_INDEX_REDUCE[_choice(b["reduce"], "reduce", TORCH_INDEX_REDUCE)]
        init = _literal(b["include_self"], "include_self", (bool,)) if "include_self" in b else True
        return Reading(AXIS, canonical, init=init, axis=axis, parts=(("slot", "index"),))
    if key == "masked_scatter":
        _tensor(b["mask"], slots, "mask", "mask", "mask")
        _tensor(b["source"], slots, "source", "source", "updates")
        return Reading(MASK, "none", parts=(("mask", "mask"),), broadcast_mask=True)
    if key == "slice_scatter":
        _tensor(b["src"], slots, "src", "src", "updates")
        axis = _literal(b["dim"], "dim", (int,)) if "dim" in b else 0
        start = _literal(b["start"], "start", (int,), allow_none=True) if "start" in b else None
        end = _literal(b["end"], "end", (int,), allow_none=True) if "end" in b else None
        step = _literal(b["step"], "step", (int,)) if "step" in b else 1
        if step <= 0:
            raise _err(f"slice_scatter's step must be positive (PyTorch refuses {step})", argument="step",
                       rule="choice")
        return Reading(SLICE, "none", axis=axis, slices=((0 if start is None else start,
                                                            BIG if end is None else end, step, False),))
    if key == "select_scatter":
        _tensor(b["src"], slots, "src", "src", "updates")
        axis, i = dim(), _literal(b["index"], "index", (int,))
        return Reading(SLICE, "none", axis=axis, slices=((i, BIG if i == -1 else i + 1, 1, True),))
    raise _unknown(call.key)  # pragma: no cover - every torch record is handled above


def _read(kind, node, value, aug, tensors: Mapping) -> tuple[Call, dict, list, bool]:
    """(call record, bound arguments, its readings as (slots, reading, assumption), method form?)."""
    if kind == "assign":
        data = [Slot("data", "x", _src(node.value), "data")]
        alternatives = _index_readings(node.slice, aug or "none", "x[...] = v", tensors)
        if aug is not None:
            if not all(r.form.augments for r, _, _ in alternatives):
                raise _err("x[...] op= v is read for index arrays, masks and slices only (x[idx] += v, x[i, j] += v, "
                           "x[:, idx] += v, x[1:3] += v, x[m] += v)", argument="index", rule="index")
            alternatives = _like(alternatives, [(replace(r, gather_first=True), sl, lb) for r, sl, lb in alternatives])
        coordinates = all(r.form.coordinates for r, _, _ in alternatives)
        call = Call("torch.index_put" if not aug else "torch.augmented", "PyTorch", ("input", "indices", "values"),
                    entry="torch.index_put" if coordinates and not aug else None, negatives=True)
        return call, {}, _with_values(data, alternatives, value, "values"), False
    call, method, owner, at = _resolve_call(node)
    bound = _bind(call, list(node.args), list(node.keywords), method)
    if call.roles:
        return call, bound, _read_where(call, bound, owner, method), method
    readings, method_form = READERS[call.framework](call, bound, owner, method, at, tensors)
    return call, bound, readings, method_form


def _read_torch_call(call: Call, bound: dict, owner, method: bool, at, tensors: Mapping) -> tuple[list, bool]:
    slots = [Slot("data", "input", _src(owner if method else bound["input"]), "data")]
    read = _read_torch(call, bound, slots, [], tensors)
    return (read if isinstance(read, list) else [(slots, read, "")]), method


def _read_tf_call(call: Call, bound: dict, owner, method: bool, at, tensors: Mapping) -> tuple[list, bool]:
    slots: list[Slot] = []
    if call.key == "tf.scatter_nd":
        shape = bound["shape"]
        _tensor(bound["indices"], slots, "indices", "indices", "indices")
        _tensor(bound["updates"], slots, "updates", "updates", "updates")
        slots.insert(0, Slot("shape", "shape", _src(shape), "shape"))
        return [(slots, Reading(ND, "sum", parts=(("tuple", "indices"),)), "")], False
    slots.append(Slot("tensor", "tensor", _src(bound["tensor"]), "data"))
    _tensor(bound["indices"], slots, "indices", "indices", "indices")
    _tensor(bound["updates"], slots, "updates", "updates", "updates")
    return [(slots, Reading(ND, TF_OPS[call.key[3:]], parts=(("tuple", "indices"),)), "")], False


def _read_jax_call(call: Call, bound: dict, owner, method: bool, at, tensors: Mapping) -> tuple[list, bool]:
    slots = [Slot("data", "x", _src(owner), "data")]
    alternatives = _index_readings(at.slice, JAX_METHODS[call.key.rsplit(".", 1)[1]], "x.at[...]", tensors)
    if "mode" in bound:
        _choice(bound["mode"], "mode", [m for m in JAX_MODES if m is not None])
    for flag in ("indices_are_sorted", "unique_indices", "wrap_negative_indices"):
        if flag in bound:
            _literal(bound[flag], flag, (bool,))
    if "out_sharding" in bound:
        raise _err("out_sharding does not change the values; leave it out", argument="out_sharding",
                   rule="supported")
    return _with_values(slots, alternatives, bound["values"], "values"), True


def _read_numpy_call(call: Call, bound: dict, owner, method: bool, at, tensors: Mapping) -> tuple[list, bool]:
    slots: list[Slot] = []
    if call.key.endswith(".at"):
        slots.append(Slot("data", "a", _src(bound["a"]), "data"))
        if "b" not in bound:
            raise _err(f"{call.key} needs b (the values) for a binary ufunc", argument="b", rule="signature")
        alternatives = _index_readings(bound["indices"], NUMPY_UFUNCS[call.key.split(".")[1]], call.key, tensors)
        if not all(r.form.ufunc_at for r, _, _ in alternatives):
            raise _err(f"{call.key}: read for index arrays and masks only (idx, (i, j), (slice, idx) are not "
                       "supported)", argument="indices", rule="index")
        return _with_values(slots, alternatives, bound["b"], "b", "b"), False
    if call.key == "np.put_along_axis":
        slots.append(Slot("data", "arr", _src(bound["arr"]), "data"))
        axis = _literal(bound["axis"], "axis", (int,), allow_none=True)
        if axis is None:
            raise _err("np.put_along_axis with axis=None works on the flattened array; give an integer axis",
                       argument="axis", rule="choice")
        _tensor(bound["indices"], slots, "indices", "indices", "indices")
        _tensor(bound["values"], slots, "values", "values", "updates", allow_scalar=True)
        return [(slots, Reading(ELEMENTS, "none", axis=axis), "")], False
    slots.append(Slot("data", "a", _src(bound["a"]), "data"))
    mode = _choice(bound["mode"], "mode", ("raise", "wrap", "clip")) if "mode" in bound else "raise"
    _tensor(bound["ind"], slots, "ind", "ind", "indices")
    _tensor(bound["v"], slots, "v", "v", "updates", allow_scalar=True)
    return [(slots, Reading(FLAT, "none", parts=(("slot", "ind"),), wrap=mode), "")], False


# each framework's calls, read (the call records name the framework: CALLS)
READERS = MappingProxyType({"PyTorch": _read_torch_call, "TensorFlow": _read_tf_call, "JAX": _read_jax_call,
                            "NumPy": _read_numpy_call})


# ----------------------------------------------------------------------------- from the reading to operators
def _versions(reading: Reading, target: str, framework_negative: bool) -> list[tuple[sc.OpSpec, Config]]:
    """Every version of ``target`` expressing the reading exactly, oldest first (a version refusing negative
    indices only when the framework refuses them too)."""
    out = []
    for spec in sc.OPERATORS_LIST:
        if spec.framework != target or spec.op_type not in targets(reading.form, target) or spec.deprecated:
            continue
        for config in configurations(spec):
            if config.canonical == reading.canonical and (config.use_init_val == reading.init
                                                          or reading.canonical == "none"):
                if framework_negative and spec.index_rule.negative == "forbidden":
                    continue
                out.append((spec, config))
                break
    order = targets(reading.form, target)
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


def fallback_operator(reading: Reading | None) -> tuple[str, dict] | None:
    """The operator a composition is built around, with its attributes (the explorer opens it): ScatterND for a
    mask, reduction none where the call reads before it writes, the scatter after index_add's Mul."""
    if reading is None:
        return None
    probe = replace(reading, form=FORMS[reading.form.core] if reading.form.core else reading.form, alpha=None,
                    canonical="none" if reading.gather_first else reading.canonical)
    for target in (ONNX, OPENVINO):
        found = _pick(probe, target, False)[0]
        if found:
            return found[0]
    return None


def _fallback_target(reading: Reading | None) -> str | None:
    found = fallback_operator(reading)
    return None if found is None else found[0]


def _topic_sentences(entry_id: str | None, call: Call, skip: set) -> list[str]:
    """The record's sentence on each topic, or the call's own where it has one (``Call.topics``)."""
    if entry_id is None:
        return []
    entry = BY_ID[entry_id]
    out = []
    for topic in TOPICS:
        own = call.topics.get(topic)
        text = entry.divergences[topic] if own is None else own
        if topic in skip or text.startswith(("same", "n/a")):
            continue
        source = f"framework map entry {entry.id}" if own is None else call.key
        out.append(f"{call.framework}, {topic} ({source}): {text}.")
    return out


RUNTIME_TOPICS = {"none": ("duplicates", "duplicates-parallel"), "mean": ("integer-mean", "integer-mean-int16")}
ALWAYS_TOPICS = ("negative-index", "index-range")


def _runtime_sentences(ops: list, canonical: str, dtype=None, reading: Reading | None = None) -> list[str]:
    """The registry's runtime notes on the operators' topics that can apply to data of ``dtype`` (None: every
    note; a note on int8 data, ``Fact.dtypes``, is left out for float32 data) and to the call's index forms (a
    topic's caveat record, records.CAVEATS: a mask's core never meets duplicates or out-of-range indices)."""
    out = []
    kind = None if dtype is None else np.dtype(dtype).kind
    forms = _index_kinds(reading) if reading is not None else None
    for name, _ in ops:
        spec = sc.OPERATORS[name]
        for topic in RUNTIME_TOPICS.get(canonical, ()) + ALWAYS_TOPICS:
            if forms is not None and any(c.topic == topic and not c.applies(reading.canonical, kind, forms)
                                         for c in CAVEATS):
                continue
            for note in spec.notes_on(topic, dtype):
                new = "" if note.documented else " (observed by this project's tests, not yet in docs/semantics.md)"
                out.append(f"{name} on {note.runtimes}: {note.text}{new}.")
    return out


def from_call(text: str, dtype=None, tensors: Mapping | None = None) -> Translation:
    """Read one framework scatter call (never evaluated) and say which ONNX / OpenVINO operator it is.

    ``dtype``: the data's dtype where known (the tensors the call is run on); the runtime caveats are then
    those that can apply to it. The text itself says no dtype, so None gives every caveat. ``tensors`` maps the
    call's names, as written (``{"mask": array}``), to arrays: a bool array makes that index a mask, an integer
    one indices; where neither the text nor a tensor decides, the answer has one reading per possibility
    (``readings``) and claims no operator (``exact`` False)."""
    stmt = _parse(text)
    given = _given(tensors)
    kind, node, value, aug = _recognise(stmt)
    call, bound, alternatives, method = _read(kind, node, value, aug, given)
    made = [_translate(call, bound, slots, reading, method, kind, text, dtype, given, label)
            for slots, reading, label in alternatives]
    refused = getattr(alternatives, "refused", ())
    if len(made) == 1 and not refused:
        return made[0]
    undecided = tuple(dict.fromkeys(s.text for tr in made for s in tr.slots if s.role == "mask"))
    names = " and ".join(undecided)
    slots = tuple(replace(s, role="either") if s.text in undecided else s for s in made[0].slots)
    follow = f"{len(made)} readings follow, each" if len(made) > 1 else "1 reading follows"
    unread = "".join(f" Where {label}, this page does not read the call ({why})." for label, why in refused)
    return Translation(
        framework=made[0].framework, onnx=[], openvino=[], exact=False, caveats=[],
        composition=(f"The text does not say whether {names} {'is a boolean mask or holds' if len(undecided) == 1 else 'are boolean masks or hold'} "
                     f"integer indices, and the two are different operators: {follow} with its translation."
                     f"{unread} Give {names}'s values (or dtype) to decide: a bool tensor is a mask."),
        function=made[0].function, call="", entry=None, slots=slots, text=text, negatives=made[0].negatives,
        readings=made, undecided=undecided)


MAX_GIVEN = 64  # tensors given to from_call by name


def _given(tensors) -> dict:
    """The tensors given by the call's names, as arrays (only their dtypes and shapes are read here)."""
    if tensors is None:
        return {}
    if not isinstance(tensors, Mapping) or len(tensors) > MAX_GIVEN:
        raise _err(f"tensors must map at most {MAX_GIVEN} of the call's names to arrays", argument="tensors",
                   rule="type")
    out = {}
    for name, arr in tensors.items():
        if not isinstance(name, str):
            raise _err(f"tensors: the key {name!r} is not a name from the call", argument="tensors", rule="type")
        arr = np.asarray(arr)
        if arr.dtype == object:
            raise _err(f"tensors[{name[:40]!r}] is not a numeric or bool array", argument=name[:40], rule="dtype")
        out[name.strip()] = arr
    return out


def _where_fits(reading: Reading, slots: list, given: dict) -> bool:
    """Whether a mask's values reach its cells by Where alone: a number, or (the whole mask over data's leading
    axes) values broadcasting to the cells of one True position."""
    if not reading.form.mask or reading.form is WHERE:
        return reading.where
    upd = next((s for s in slots if s.role == "updates"), None)
    if upd is None or upd.param == "source" or reading.canonical != "none" and not reading.gather_first:
        return False
    if reading.form is MASK and len(reading.parts) != 1:  # x[i, m] = 0: the mask's cells on row i only, not Where
        return False
    if upd.scalar is not None:
        return True
    masks = [s for s in slots if s.role == "mask"]
    data = next((s for s in slots if s.role == "data"), None)
    if reading.form is not MASK or len(reading.parts) != 1 or data is None or not all(
            s.text in given for s in (upd, data, *masks)):
        return False
    mask, values, shape = given[masks[0].text], given[upd.text], given[data.text].shape
    rest = shape[mask.ndim:]
    vs = values.shape
    while len(vs) > len(rest) and vs[0] == 1:
        vs = vs[1:]
    try:
        return len(vs) <= len(rest) and np.broadcast_shapes(vs, rest) == tuple(rest)
    except ValueError:
        return False


def _translate(call: Call, bound: dict, slots: list, reading: Reading, method: bool, kind: str, text: str, dtype,
               given: dict, assumes: str) -> Translation:
    """One reading's translation."""
    caveats: list[str] = []
    if reading.form.strided and reading.canonical != "none":  # x.at[1:3].add(v): no slice writer reduces
        reading = replace(reading, gather_first=True)
    reading = replace(reading, where=_where_fits(reading, slots, given))
    framework = call.framework
    entry_id = call.entry_by_reduction.get(reading.canonical, call.entry)
    negative = call.negatives
    onnx, onnx_old = ([], None) if reading.gather_first else _pick(reading, ONNX, negative)
    ov, ov_old = ([], None) if reading.gather_first else _pick(reading, OPENVINO, negative)
    # indexing (an index assignment, x.at[idx]): the form says the record
    if entry_id is None and (FRAMEWORK_RECORDS[framework].calls_index or kind == "assign"):
        entry_id = (READ_WRITE_ENTRY if reading.gather_first and not reading.form.strided
                    else reading.form.entries).get(framework)
    if reading.alpha is not None:  # index_add's alpha: a Mul comes first, so no single operator is the call
        onnx, ov = [], []
    composition = _composition(reading, onnx, ov, framework)
    inputs = _inputs_text(reading, slots, call)
    skip = {"integer mean"} if reading.canonical != "mean" else set()
    if reading.canonical == "none" or reading.gather_first:
        skip.add("initial value")
    if _mode_sentence(bound, framework):
        skip.add("out-of-range indices")  # the mode's own sentence replaces the record's
    if reading.gather_first or reading.form.mask or (
            entry_id is not None and reading.canonical not in BY_ID[entry_id].reductions):
        skip.add("duplicates")  # read-combine-write (TORCH_AUGMENTED_DUPLICATES), a mask, or another reduction's
    dkind, forms = (None if dtype is None else np.dtype(dtype).kind), _index_kinds(reading)
    skip |= {c.topic for c in CAVEATS if c.topic and not c.applies(reading.canonical, dkind, forms)}
    core = onnx + ov or ([] if reading.alpha is not None else [fallback_operator(reading)])
    core_reduction = "none" if reading.gather_first or reading.form.mask else reading.canonical
    caveats = caveats + _call_caveats(call, bound, reading, framework, slots) + _topic_sentences(
        entry_id, call, skip) + _runtime_sentences([op for op in core if op], core_reduction, dtype, reading)
    if reading.form.flattened:
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
    caveats = [c for c in (_matching(c, reading.canonical, dkind, forms) for c in caveats) if c]
    return Translation(
        framework=framework, onnx=onnx, openvino=ov, exact=bool(onnx or ov),
        caveats=list(dict.fromkeys(caveats)), composition=composition,
        function=_function_name(call, method, kind), call=framework_call(call, bound, reading, slots, method),
        entry=entry_id, oldest=MappingProxyType(oldest), slots=tuple(slots), inputs=tuple(inputs), reading=reading,
        text=text, negatives=negative, assumes=assumes)


def _index_kinds(reading: Reading) -> frozenset:
    """The index forms a call has, as the caveat records name them (records.CAVEATS): its form's, and "nd" for a
    mask beside integer index tensors (x[i, m])."""
    mixed = reading.form.mask and any(p[0] == "slot" for p in reading.parts)
    return frozenset({reading.form.name, *(("nd",) if mixed else ())})


def _matching(sentence: str, canonical: str, kind: str | None, forms: frozenset) -> str:
    """``sentence`` without the clauses whose caveat record (records.CAVEATS) does not concern this call; empty
    where nothing that concerns it is left."""
    for caveat in CAVEATS:
        if not caveat.text or caveat.text not in sentence or caveat.applies(canonical, kind, forms):
            continue
        clause = caveat.text
        joined = next(j for j in ("; " + clause, clause + "; ", ", " + clause, clause) if j in sentence)
        sentence = sentence.replace(joined, "", 1)
    body = sentence.split("): ", 1)[-1]
    return sentence if body.strip(" .;,") else ""


def integer_reading(tr: Translation) -> Translation:
    """The reading with every name the text leaves open as integer indices (``tr`` itself where nothing is open):
    the framework map's own calls (their ``idx``, ``i, j`` are index tensors)."""
    return tr.readings[0] if tr.readings else tr


def _function_name(call: Call, method: bool, kind: str) -> str:
    if kind == "assign":
        return "advanced-index assignment (Tensor.__setitem__ / index_put_)" if call.key == "torch.index_put" else \
            "augmented advanced-index assignment (read, combine, write back)"
    mod, name = call.key.split(".", 1)
    spelling = FRAMEWORK_RECORDS[call.framework].spelling
    if spelling is not None:
        return spelling[0 if method else 1].format(name=name)
    if call.key.startswith("jax.at."):
        return f"jax.Array.at[...].{name.rsplit('.', 1)[1]}"
    return call.key


def _mode_sentence(bound: dict, framework: str) -> str:
    """The framework's sentence for the call's mode (out-of-range indices, instead of the record's), or ""."""
    sentences = FRAMEWORK_RECORDS[framework].mode_sentences
    if not sentences or "mode" not in bound:
        return ""
    return sentences.get(_literal(bound["mode"], "mode", (str,), allow_none=True), "")


def _call_caveats(call: Call, bound: dict, reading: Reading, framework: str, slots: list) -> list[str]:
    out = []
    if reading.gather_first and not reading.form.strided and not reading.form.mask:
        out.append(TORCH_AUGMENTED_DUPLICATES)
    fw = FRAMEWORK_RECORDS[framework]
    if fw.ufunc_at_caveat and reading.form.ufunc_at and call.key.endswith(".at"):
        out.append(fw.ufunc_at_caveat)
    out += fw.caveats
    if call.key == "np.put_along_axis":
        out.append(NUMPY_PUT_ALONG_AXIS)
    if not reading.form.strided:  # a slice has no indices to drop or clamp
        mode = _mode_sentence(bound, framework)
        if mode:  # (drop and fill: the record's own out-of-range sentence says it)
            out.append(mode)
        if fw.mask_caveat and reading.form.mask and call.key.startswith("jax.at."):
            out.append(fw.mask_caveat)
        out += [sentence for flag, (value, sentence) in fw.flag_sentences.items()
                if flag in bound and bool(_literal(bound[flag], flag, (bool,))) is value]
    if reading.alpha is not None:
        out.append(f"index_add's alpha={reading.alpha!r} scales source first (a Mul before the scatter): the "
                   "scatter alone is not the whole call.")
        if TORCH_INDEX_ADD_ALPHA:  # probed by scripts/verify_frameworks.py (verified.py)
            out.append(f"PyTorch, rounding (verified.py): {TORCH_INDEX_ADD_ALPHA}.")
    if any(s.scalar is not None for s in slots) and not reading.where:
        out.append("The value is a number, not a tensor: the operator's updates input is that number expanded to "
                   "the written cells' shape (a constant, or Expand).")
    if reading.form.mask and not reading.broadcast_mask or reading.form is WHERE:
        out += [f"{framework}, {WHERE_DTYPES}."] + ([f"{framework}, {WHERE_BROADCAST}."]
                                                   if reading.form is WHERE else [])
    return out


def _composition(reading: Reading, onnx: list, ov: list, framework: str) -> str | None:
    if reading.form.mask:
        return _mask_composition(reading)
    if reading.gather_first and reading.form.strided:
        op = ELEMENTWISE[reading.canonical]
        return (f"No operator writes a strided slice with a reduction, but a slice names each element once, so "
                f"reading it first is exact: Slice + {op} + SliceScatter-15 (OpenVINO); in ONNX, ScatterND with the "
                f"slice's coordinates (Range per sliced axis, a grid of the slice's size) and the same "
                f"combination.")
    if reading.gather_first:
        op = ELEMENTWISE[reading.canonical]
        return (f"x[idx] {dict(sum='+', sub='-', prod='*')[reading.canonical]}= v reads the cells, combines once and "
                f"writes back: GatherND (or Gather) + {op} + ScatterND (reduction none). It is not ScatterND with "
                "a reduction: with duplicate indices each duplicate combines with the ORIGINAL cell and one of them "
                "wins. If accumulation was meant, index_put_(..., accumulate=True) (or np.add.at) is ScatterND "
                "reduction=add exactly.")
    missing = [t for t, ops in ((ONNX, onnx), (OPENVINO, ov)) if not ops]
    if not missing:
        return None
    why = []
    if reading.alpha is not None:
        plain = replace(reading, alpha=None)
        op = _pick(plain, ONNX, False)[0] or _pick(plain, OPENVINO, False)[0]
        why.append(f"alpha scales the source first: Mul(source, alpha), then {op[0][0]}("
                   + ", ".join(f"{n}={v!r}" for n, v in op[0][1].items()) + ")")
    elif reading.form.strided:
        why.append("ONNX has no operator that writes a strided slice: ScatterND with the slice's coordinates "
                   "(Range per sliced axis, broadcast into a grid of the SLICE's size, not data's: onnxscript PR "
                   "#1308 built one of data's whole size) is exact; OpenVINO's SliceScatter-15 is one operator")
    elif reading.canonical == "mean" and ONNX in missing:
        why.append("ONNX has no mean reduction: exact is two ScatterElements add (sums, and counts of ones) and a "
                   "Div (integers: floor division) where the count is not zero" + (
                       "; with include_self=False (use_init_val = false) the sums start from zeros written into "
                       "the written cells first (a ScatterElements with reduction none), and Where keeps data "
                       "where the count is zero" if not reading.init else ""))
    elif not reading.init and ONNX in missing:
        why.append("include_self=False (use_init_val = false) has no ONNX attribute: exact is ScatterElements with "
                   "reduction none writing the reduction's neutral value into the written cells first, then the "
                   "reduction (two ScatterElements), as the framework map's JAX and TensorFlow entries do")
    elif reading.canonical == "sub":
        why.append("ONNX has no sub reduction: exact is ScatterND add with Neg(updates) (OpenVINO's "
                   "ScatterNDUpdate-15 has sub)")
    for target in missing:
        if not why:
            why.append(f"no {target} version has this reduction with this initial-value rule")
    return "; ".join(why) + "."


WHERE_WHY = ("Where(mask, values, x) is exact and needs no scatter: it takes the values where the mask is True "
             "and x elsewhere (a ScatterElements node for a masked fill is what pytorch#126856 saw fail in "
             "onnxruntime); OpenVINO's Select-1 is the same operator")


def _mask_composition(reading: Reading) -> str:
    """What computes a masked write exactly, by how its values reach the cells (no scatter operator takes a
    boolean mask)."""
    op = ELEMENTWISE.get(reading.canonical)
    combine = "" if reading.canonical == "none" else f" (the cells combined with the values by {op} first)"
    if reading.form is WHERE:
        return WHERE_WHY + (": np.putmask's values repeat over x's flat positions, so they are tiled to x's size "
                            "and reshaped first (Tile, Slice, Reshape)." if reading.cyclic else
                            "; the three inputs broadcast together (NumPy's rules).")
    if reading.where:
        return (WHERE_WHY.replace("values, x", f"{op or 'values'}, x") + combine +
                ("; the mask, over data's leading axes, is reshaped with trailing axes of 1 so it broadcasts."
                 if reading.form is MASK else "; the 1-D mask is reshaped to stand on its axis."))
    if reading.broadcast_mask:  # masked_scatter
        return ("No scatter operator takes a boolean mask. Exact: NonZero(mask) → Transpose (one row per True "
                "cell, row-major) → ScatterND (reduction none) with updates = the first count(mask) values of "
                "source, flattened.")
    core = ("ScatterND on coordinates built in the graph: NonZero(mask) on its axis and a Range for each whole "
            "axis before it (or ScatterElements along the axis with NonZero(mask) as the index, ScatterUpdate-3 "
            "in OpenVINO)" if reading.form is MASK_AXIS else "ScatterND, with indices NonZero(mask) transposed to "
            "one row per True cell (row-major; a mixed index x[i, m] broadcasts i with those rows, NumPy's rules)")
    ints = any(p[0] in ("slot", "const") for p in reading.parts)
    how = ("read the cells (GatherND), combine, write back with reduction none" if reading.gather_first else
           "reduction " + ("none" if reading.canonical == "none" else reading.canonical) +
           (": a repeated integer index writes a cell more than once" if ints else
            ": a mask names each cell once, so no duplicate ever meets another"))
    if reading.form is MASK and len(reading.parts) > 1:  # x[i, m], x[m1, m2]: no one mask covers the cells
        return f"No scatter operator takes a boolean mask. Exact: {core}; {how}."
    return (f"No scatter operator takes a boolean mask. Exact: {core}; {how}. Where the value is a number (or "
            "broadcasts over the cells of one True position), Where(mask, value, x) alone is exact and needs no "
            "scatter" + combine + ".")


def _inputs_text(reading: Reading, slots: list, call: Call) -> list[str]:
    names = {s.name: s.text for s in slots}
    data = next((s.text for s in slots if s.role == "data"), "zeros(shape)")
    mask = next((s.text for s in slots if s.role == "mask"), None)
    if reading.form is WHERE:
        upd = next(s.text for s in slots if s.role == "updates")
        return [f"condition: {mask}", f"X (where True): {upd}" + (" tiled to data's size" if reading.cyclic else ""),
                f"Y (where False): {data}"]
    out = [f"data: {data}" if call.key != "tf.scatter_nd" else f"data: zeros of shape {names.get('shape')}"]
    if reading.form.inputs:  # the form's own template
        out.append(reading.form.inputs.format(index=names.get("index", names.get("indices")), mask=mask,
                                              axis=reading.axis))
        if reading.form is MASK and len(reading.parts) > 1:
            out.append("indices: " + ", ".join(names[p[1]] if p[0] in ("slot", "mask") else str(p[1])
                                               for p in reading.parts)
                       + ", each mask replaced by its NonZero rows" + (
                           ", and a Range of each whole axis, placed by NumPy's rules (the indices' broadcast "
                           "axes first where a slice separates them, or in NumPy and JAX any ellipsis)" if any(
                               p[0] in ("colon", "ellipsis") for p in reading.parts) else "")
                       + ", stacked on a new last axis")
            if any(p[0] == "const" for p in reading.parts) and any(p[0] in ("colon", "ellipsis")
                                                                    for p in reading.parts):
                out.append("an integer beside slices: " + (
                    "PyTorch applies it first (a select: x[0, :, m] is x[0][:, m]), where NumPy and JAX count "
                    "it among the advanced indices" if FRAMEWORK_RECORDS[call.framework].integers_select_first else
                    f"{call.framework} counts it among the advanced indices (NumPy's rule), where PyTorch "
                    "applies it first (a select)"))
            kinds = [p[0] for p in reading.parts]
            if "ellipsis" in kinds[1:-1] and any(k != "colon" for k in kinds[:kinds.index("ellipsis")]):
                out.append("an ellipsis between indices: " + (
                    "PyTorch spreads it into its slices, so where it stands for no axis the indices stay "
                    "adjacent, where NumPy and JAX still count it as a separator (their axes first)"
                    if FRAMEWORK_RECORDS[call.framework].ellipsis_spread_first else
                    f"{call.framework} counts it as a separator even where it stands for no axis (the indices' "
                    "axes first), where PyTorch spreads it into its slices"))
    elif reading.parts:  # coordinates, stacked (a tuple tensor, one index, or one per leading axis)
        parts = [names[p[1]] if p[0] in ("slot", "tuple") else str(p[1]) for p in reading.parts]
        if reading.parts[0][0] == "tuple":
            out.append(f"indices: {parts[0]} (its last axis holds the coordinates)")
        elif len(parts) == 1:
            out.append(f"indices: {parts[0]}, with a trailing axis of 1 (Unsqueeze(-1))" +
                       ("; data flattened to 1-D and the output reshaped back" if reading.form.flattened else ""))
        else:
            out.append(f"indices: stack of ({', '.join(parts)}) broadcast together, on a new last axis")
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
    if call.code:  # a masked write by Where: the record's own code over the slots' names
        by_role = {s.role: (s.name if s.scalar is None else _lit(s.scalar)) for s in slots}
        return call.code.format(values=by_role["updates"], data=by_role["data"])
    if call.key in ("torch.index_put", "torch.augmented") and not bound:
        sub = _subscript_text(reading)
        value = names["values"]
        op = {"sum": "+=", "sub": "-=", "prod": "*="}.get(reading.canonical) if reading.gather_first else "="
        return f"out = data.clone()\nout[{sub}] {op} {value}"
    return CALL_WRITERS[call.framework](call, bound, reading, names)


def _torch_call_text(call: Call, bound: dict, reading: Reading, names: dict) -> str:
    args = []
    for p in call.params[1:]:
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


def _tf_call_text(call: Call, bound: dict, reading: Reading, names: dict) -> str:
    if call.key == "tf.scatter_nd":
        return "out = tf.scatter_nd(indices, updates, shape)"
    return f"out = {call.key}(tensor, indices, updates)"


def _jax_call_text(call: Call, bound: dict, reading: Reading, names: dict) -> str:
    kws = [f"{k}={_lit(_literal(bound[k], k, (str, bool), allow_none=True))}" for k in call.kwonly if k in bound]
    method = call.key.rsplit(".", 1)[1]
    return f"out = data.at[{_subscript_text(reading)}].{method}({', '.join([names['values']] + kws)})"


def _numpy_call_text(call: Call, bound: dict, reading: Reading, names: dict) -> str:
    if call.key.endswith(".at"):
        sub = _subscript_text(reading)
        where = f"({sub})" if "," in sub else sub
        return f"out = data.copy()\n{call.key}(out, {where}, {names['b']})"
    if call.key == "np.put_along_axis":
        return f"out = data.copy()\nnp.put_along_axis(out, indices, {names['values']}, axis={reading.axis})"
    return f"out = data.copy()\nnp.put(out, ind, {names['v']}, mode={reading.wrap!r})"


# each framework's call, written with fixed names (the call records name the framework: CALLS)
CALL_WRITERS = MappingProxyType({"PyTorch": _torch_call_text, "TensorFlow": _tf_call_text, "JAX": _jax_call_text,
                                 "NumPy": _numpy_call_text})


def _subscript_text(reading: Reading) -> str:
    if reading.form.strided:
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
    parts = [str(p[1]) for p in reading.parts]
    if reading.form.leading_slices and reading.axis < 0:  # x[..., idx], x[..., idx, :]
        return ", ".join(["...", *parts] + [":"] * (-reading.axis - 1))
    if reading.form.leading_slices:
        return ", ".join([":"] * reading.axis + parts)
    return ", ".join(parts)


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


@dataclass(frozen=True)
class ReverseLink:
    """Where a framework map entry's link opens From your code: ``call`` fills the box; ``stand_in`` is True when
    the entry is not one call the view reads (WebNN's JavaScript, or a composition with no single call at its
    core) and ``call`` is the same operation as another framework writes it (the view then explains the entry)."""

    entry: str
    call: str
    stand_in: bool


STAND_IN_ORDER = ("PyTorch", "JAX", "TensorFlow")  # whose call stands in for an entry the view cannot read


def reverse_link(entry, config: Config) -> ReverseLink | None:
    """The link of ``entry`` under ``config``: its own call, else another framework's call for the same
    configuration (None only where no framework map entry of the configuration has a call the view reads)."""
    own = call_for(entry, config)
    if own is not None:
        return ReverseLink(entry.id, own, False)
    from framework_map.maps import entries_for

    found = [text for framework in STAND_IN_ORDER for other in entries_for(config, framework)
             if (text := call_for(other, config)) is not None]
    family = sc.family_of(config.spec)

    def fit(text: str) -> tuple[bool, bool]:  # its reduction, then its operators' family, the configuration's
        tr = integer_reading(from_call(text))
        return (tr.reading.canonical != config.canonical,
                not any(sc.family_of(sc.OPERATORS[op]) is family for op, _ in tr.onnx + tr.openvino))

    return ReverseLink(entry.id, min(found, key=fit), True) if found else None  # min: the first of the best


def stand_in_note(entry_id: str, tr: Translation) -> str:
    """What the view says above a stand-in call opened from a framework map entry (plain text)."""
    entry = BY_ID[entry_id]
    why = ("From your code reads Python calls (PyTorch, TensorFlow, JAX, NumPy), not WebNN's JavaScript"
           if entry.framework not in {c.framework for c in CALLS.values()} else
           f"{entry.framework} has no single call for this: the map's entry is a composition, which From your code "
           "does not read as one call")
    return (f"Opened from the framework map's {entry.framework} entry {entry.operation} ({entry_id}): "
            f"{entry.call}. {why}. The call below is the same operation as {tr.framework} writes it (the "
            f"framework map lists how {entry.framework} differs).")
