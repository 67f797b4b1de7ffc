"""Deterministic values for the spec examples that print only shapes.

A shapes-only example names a seed and one recipe per input (``data``,
``indices``, ``updates``). Each input draws from its own PCG64 stream, a child
of ``numpy.random.SeedSequence(seed)``, and only through
``BitGenerator.random_raw`` plus integer arithmetic done here, so the bytes do
not depend on how a NumPy version turns raw bits into floats or permutations:
the same seed gives the same arrays on every machine and run.

Generated arrays are read-only. They are built on first access and kept in a
small byte-bounded cache (plus weak references, so an array a caller still
holds is never built twice while it is alive).
"""

from __future__ import annotations

import json
import math
import threading
import weakref
from collections import OrderedDict

import numpy as np

ROLES = ("data", "indices", "updates")
VALUE_RECIPES = ("uniform-0-1", "uniform-1-2")
INDEX_RECIPES = ("elements-distinct", "nd-distinct", "uniform")

_CHUNK = 1 << 20  # values produced per step, to keep temporaries small
CACHE_BYTES = 256 * 1024 * 1024


def _stream(seed: int, role: str) -> np.random.PCG64:
    child = np.random.SeedSequence(seed).spawn(len(ROLES))[ROLES.index(role)]
    return np.random.PCG64(child)


def _raw(bitgen: np.random.PCG64, n: int) -> np.ndarray:
    """``n`` raw 64-bit draws as little-endian uint64 (so later views are byte-order independent)."""
    return bitgen.random_raw(n).astype("<u8", copy=False)


def _float_bits(bitgen: np.random.PCG64, n: int, bits: int) -> np.ndarray:
    """``n`` float32 values k * 2**-bits with k uniform in [0, 2**bits), bits <= 24 (exact in float32)."""
    out = np.empty(n, dtype=np.float32)
    for start in range(0, n, _CHUNK):
        m = min(_CHUNK, n - start)
        halves = _raw(bitgen, (m + 1) // 2).view("<u4")[:m]  # two 32-bit draws per raw value
        halves >>= np.uint32(32 - bits)
        out[start:start + m] = halves  # < 2**24: converted exactly
    out *= np.float32(2.0 ** -bits)
    return out


def _values(recipe: str, bitgen: np.random.PCG64, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    n = math.prod(shape)
    if recipe == "uniform-0-1":
        flat = _float_bits(bitgen, n, 24)
    elif recipe == "uniform-1-2":
        flat = _float_bits(bitgen, n, 23)
        flat += np.float32(1.0)  # 1 + k * 2**-23 is exact in float32
    else:
        raise ValueError(f"unknown value recipe {recipe!r}; known: {', '.join(VALUE_RECIPES)}")
    return flat.astype(dtype, copy=False).reshape(shape)


def _below(bitgen: np.random.PCG64, n: int, bound: int) -> np.ndarray:
    """``n`` integers in [0, bound) (raw value modulo bound; the bias is below bound / 2**64)."""
    return (_raw(bitgen, n) % np.uint64(bound)).astype(np.int64)


def _negate_some(bitgen: np.random.PCG64, positions: np.ndarray, sizes) -> np.ndarray:
    """Write about half of the positions in their negative form, position - size."""
    flip = (_raw(bitgen, positions.size) & np.uint64(1)).astype(bool).reshape(positions.shape)
    return np.where(flip, positions - np.asarray(sizes, dtype=np.int64), positions)


def _elements_distinct(bitgen, data_shape, shape, axis: int, negative: bool) -> np.ndarray:
    size, along = data_shape[axis], shape[axis]
    if along > size:
        raise ValueError(f"cannot draw {along} distinct positions along an axis of size {size}")
    other = shape[:axis] + shape[axis + 1:]
    columns = math.prod(other)
    keys = _raw(bitgen, size * columns).reshape(size, columns)
    chosen = np.argsort(keys, axis=0, kind="stable")[:along].astype(np.int64)  # (along, columns)
    positions = np.moveaxis(chosen.reshape((along,) + other), 0, axis)
    return _negate_some(bitgen, positions, size) if negative else positions


def _nd_distinct(bitgen, data_shape, shape, negative: bool) -> np.ndarray:
    k = shape[-1]
    rows = math.prod(shape[:-1])
    space = math.prod(data_shape[:k])
    if rows > space:
        raise ValueError(f"cannot draw {rows} distinct {k}-tuples from {space}")
    picked = np.zeros(0, dtype=np.int64)
    while picked.size < rows:  # draw, keep first occurrences in draw order, top up if needed
        draw = np.concatenate([picked, _below(bitgen, rows + rows // 4 + 16, space)])
        _, first = np.unique(draw, return_index=True)
        picked = draw[np.sort(first)]
    coords = np.stack(np.unravel_index(picked[:rows], data_shape[:k]), axis=-1).astype(np.int64)
    coords = coords.reshape(shape)
    return _negate_some(bitgen, coords, data_shape[:k]) if negative else coords


def _indices(spec: dict, bitgen, data_shape, shape, axis) -> np.ndarray:
    recipe, negative = spec["recipe"], bool(spec.get("negative", False))
    if recipe == "elements-distinct":
        return _elements_distinct(bitgen, data_shape, shape, axis, negative)
    if recipe == "nd-distinct":
        return _nd_distinct(bitgen, data_shape, shape, negative)
    if recipe == "uniform":
        size = data_shape[axis]
        values = _below(bitgen, math.prod(shape), size).reshape(shape)
        return _negate_some(bitgen, values, size) if negative else values
    raise ValueError(f"unknown index recipe {recipe!r}; known: {', '.join(INDEX_RECIPES)}")


def recipe_of(generate: dict, role: str) -> dict:
    """The recipe for ``role`` as a dict (a bare string means ``{"recipe": string}``)."""
    r = generate[role]
    return {"recipe": r} if isinstance(r, str) else dict(r)


def check_recipe(generate: dict) -> None:
    """Raise ValueError if a generation block names an unknown recipe or lacks a seed."""
    if not isinstance(generate.get("seed"), int) or not isinstance(generate.get("rule"), str):
        raise ValueError("a generation block needs an integer 'seed' and a 'rule' text")
    for role in ROLES:
        r = recipe_of(generate, role)
        known = INDEX_RECIPES if role == "indices" else VALUE_RECIPES
        if r.get("recipe") not in known:
            raise ValueError(f"{role}: unknown recipe {r.get('recipe')!r}; known: {', '.join(known)}")


def cache_key(generate, role: str, shapes, dtypes) -> tuple:
    """Everything that determines a generated array."""
    return (role, json.dumps(dict(generate), sort_keys=True), tuple(shapes[role]), str(dtypes[role]),
            tuple(shapes["data"]))


def build(generate, role: str, shapes, dtypes) -> np.ndarray:
    """Generate one input afresh (no cache). The result is read-only.

    ``generate`` is the example's generation block: ``seed``, one recipe per
    input and, for the operators that have one, the normalised ``axis``.
    """
    recipe = recipe_of(generate, role)
    axis = generate.get("axis")
    bitgen = _stream(generate["seed"], role)
    shape = tuple(shapes[role])
    dtype = np.dtype(dtypes[role])
    if role == "indices":
        arr = _indices(recipe, bitgen, tuple(shapes["data"]), shape, axis).astype(dtype)
    elif recipe.get("repeat_axis0"):
        block = _values(recipe["recipe"], bitgen, (1,) + shape[1:], dtype)
        arr = np.broadcast_to(block, shape)  # a view: repeated, never copied
    else:
        arr = _values(recipe["recipe"], bitgen, shape, dtype)
    arr.flags.writeable = False
    return arr


def owned_bytes(arr: np.ndarray) -> int:
    """Memory an array really holds (a broadcast view holds only its base)."""
    base = arr
    while isinstance(base.base, np.ndarray):
        base = base.base
    return int(base.nbytes)


class GeneratedCache:
    """Byte-bounded LRU of generated arrays, with weak references behind it."""

    def __init__(self, limit: int = CACHE_BYTES):
        self.limit = limit
        self._strong: OrderedDict = OrderedDict()
        self._weak: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        self._lock = threading.Lock()

    def get(self, key, make):
        with self._lock:
            arr = self._strong.get(key)
            if arr is None:
                arr = self._weak.get(key)
            if arr is None:
                arr = make()
                self._weak[key] = arr
            self._strong[key] = arr
            self._strong.move_to_end(key)
            while len(self._strong) > 1 and sum(map(owned_bytes, self._strong.values())) > self.limit:
                self._strong.popitem(last=False)
            return arr

    def clear(self) -> None:
        with self._lock:
            self._strong.clear()
            self._weak.clear()

    def held(self) -> int:
        """How many arrays the cache keeps alive itself (the weak references behind it not counted)."""
        with self._lock:
            return len(self._strong)


CACHE = GeneratedCache()
