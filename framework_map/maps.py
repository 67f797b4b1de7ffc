"""Which records answer one configuration (operator version, reduction, use_init_val), and how to call them."""

from __future__ import annotations

import ast
import importlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

import scatter_core as sc

from .records import ENTRIES, FRAMEWORKS, MODULES, Entry

INITIAL_VALUE = "initial value"  # the topic of records.TOPICS that speaks of use_init_val


@dataclass(frozen=True)
class Config:
    op: str  # versioned name, e.g. "ScatterElementsUpdate-12"
    reduction: str  # the version's own spelling ("add", "sum", "none" ...)
    use_init_val: bool = True

    @property
    def spec(self) -> sc.OpSpec:
        return sc.get_spec(self.op)

    @property
    def canonical(self) -> str:
        return dict(self.spec.reductions)[self.reduction]

    @property
    def label(self) -> str:
        init = "" if self.spec.attribute("use_init_val") is None else f", use_init_val={str(self.use_init_val).lower()}"
        return f"{self.op} reduction={self.reduction}{init}"


def configurations(op: str | sc.OpSpec) -> list[Config]:
    """Every (reduction, use_init_val) the version allows."""
    spec = sc.get_spec(op)
    inits = (True, False) if spec.attribute("use_init_val") is not None else (True,)
    return [Config(spec.name, s, i) for s, _ in spec.reductions for i in inits]


def applies(entry: Entry, config: Config) -> bool:
    if entry.family != config.spec.family or config.canonical not in entry.reductions:
        return False
    return config.use_init_val or entry.init_arg is not None or config.canonical == "none"


def divergences(entry: Entry, config: Config) -> dict[str, str]:
    """``entry.divergences`` said in ``config``'s version's own terms. The records speak of use_init_val, the
    OpenVINO switch; a version without it (every ONNX version) always lets the cell's current value take part,
    so its "initial value" row says that, and how the entry is called to do the same. Under reduction none the
    row does not apply."""
    out = dict(entry.divergences)
    init = out.get(INITIAL_VALUE, "")
    if init.startswith("n/a"):
        return out
    if config.canonical == "none":
        out[INITIAL_VALUE] = "n/a: reduction none replaces the cell, whatever it held"
        return out
    if config.spec.attribute("use_init_val") is not None:
        return out
    how = {"include_self": " (the function is called with include_self=True)",
           "init": " (the function is called with init=None: no written cell is reset first)"}.get(entry.init_arg, "")
    out[INITIAL_VALUE] = (f"same: {config.op} has no switch for this, the cell's current value always takes part; "
                          f"so does {entry.operation}{how}")
    return out


def faithful_for(entry: Entry, indices_shape: tuple[int, ...]) -> bool:
    """Whether ``entry`` is within its verified domain for indices of this shape (a family reading k-tuples, e.g.
    ScatterND: k >= 1)."""
    return not (sc.family_of(entry.family).index_tuples and (len(indices_shape) == 0 or indices_shape[-1] == 0))


def entries_for(config: Config, framework: str | None = None) -> list[Entry]:
    return [e for e in ENTRIES if applies(e, config) and framework in (None, e.framework)]


def by_framework(config: Config) -> dict[str, list[Entry]]:
    """Every framework with the records that map ``config`` (an empty list: no equivalent at all)."""
    return {f: entries_for(config, f) for f in FRAMEWORKS}


def takes_indices(config: Config) -> bool:
    """Whether the version has an indices input (SliceScatter has none: its records take no indices argument)."""
    return any(i.role == "indices" for i in config.spec.inputs)


def call_kwargs(entry: Entry, config: Config, dtype, axis: int | None, attrs=None) -> dict:
    """The keyword arguments of ``entry.function`` for ``config`` (framework-independent values).

    ``attrs`` (the case's attributes, e.g. a ``Resolved``) supplies ``entry.attr_args``; without it they are left out.
    """
    kw = {}
    if entry.axis_arg:
        kw["axis"] = axis
    for name in entry.attr_args if attrs is not None else ():  # ints lists as lists, None as None ("axes" left out)
        value = attrs.get(name)
        kw[name] = list(value) if isinstance(value, (tuple, list)) else value
    if entry.reduce_arg is not None:
        kw[entry.reduce_arg] = entry.reductions[config.canonical]
    if entry.init_arg == "include_self":
        kw["include_self"] = bool(config.use_init_val)
    elif entry.init_arg == "init":
        neutral = sc.REDUCTIONS[config.canonical].neutral_for(np.dtype(dtype))
        kw["init"] = None if config.use_init_val or config.canonical == "none" else np.asarray(neutral).item()
    return kw


# ----------------------------------------------------------------------------- the code a user copies
@lru_cache(maxsize=None)
def _module_source(framework: str) -> tuple[str, dict]:
    path = Path(__file__).with_name(MODULES[framework].rsplit(".", 1)[1] + ".py")
    text = path.read_text()
    nodes = {}
    for node in ast.parse(text).body:
        if isinstance(node, (ast.FunctionDef, ast.Import, ast.ImportFrom)):
            nodes[getattr(node, "name", None) or ast.get_source_segment(text, node)] = ast.get_source_segment(text, node)
    return text, nodes


def source_of(entry: Entry) -> str:
    """The imports and functions of ``entry`` exactly as they are in its impl module (never imported here)."""
    _, nodes = _module_source(entry.framework)
    imports = [src for name, src in nodes.items() if name.startswith(("import ", "from "))]
    body = [nodes[n] for n in (*entry.helpers, entry.function)]
    return "\n".join(imports) + "\n\n\n" + "\n\n\n".join(body) + "\n"


# ----------------------------------------------------------------------------- running a record
def _resolve(module, dotted: str):
    """A function named by a record ("tf.tensor_scatter_nd_add", "scatter_nd_prod") in the impl module."""
    target = module
    for part in dotted.split("."):
        target = getattr(target, part)
    return target


def run(entry: Entry, config: Config, data, indices, updates, axis: int | None = None, attrs=None) -> np.ndarray:
    """Run ``entry`` on NumPy inputs in its framework; returns a NumPy array. Needs the framework installed.

    ``indices`` None (an optional indices input left out) is passed as None; a version without an
    indices input (SliceScatter) gets none; ``attrs`` holds the values of ``entry.attr_args``.
    """
    if not entry.executable:
        raise ValueError(f"entry {entry.id!r} ({entry.framework}) cannot be executed here")
    module = importlib.import_module(MODULES[entry.framework])
    data, updates = np.asarray(data), np.asarray(updates)
    kwargs = call_kwargs(entry, config, data.dtype, axis, attrs)
    if entry.reduce_is_function:
        kwargs[entry.reduce_arg] = _resolve(module, kwargs[entry.reduce_arg])
    convert = CONVERTERS[entry.framework]
    given = [convert(data)] + ([] if not takes_indices(config) else
                               [None if indices is None else convert(np.asarray(indices))]) + [convert(updates)]
    result = getattr(module, entry.function)(*given, **kwargs)
    return np.asarray(result)


def _torch(a):
    import torch
    return torch.from_numpy(np.asarray(a).copy(order="C"))  # (np.ascontiguousarray makes a 0-d array 1-d)


def _tf(a):
    import tensorflow as tf
    return tf.constant(a)


def _jax(a):
    import jax.numpy as jnp
    return jnp.asarray(a)


CONVERTERS = {"PyTorch": _torch, "TensorFlow": _tf, "JAX": _jax}
