"""Input coercion and the checks every family shares.

Each check raises :class:`ScatterError` whose message names the input, the
rule and the values seen.
"""

from __future__ import annotations

import math

import numpy as np

from .describe import fmt_value
from .errors import ScatterError, fmt_pos
from .plan import PlanNote
from .spec import OpSpec

# Largest tensor scatter_core accepts (elements). The runnable spec examples top out at
# 38.4 million (the ScatterNDUpdate-3 layer example); the bound keeps a typo from
# allocating gigabytes. ScatterUpdate-3's layer example (updates of 375 million
# elements, 1.5 GB) is above it and is refused with this message.
MAX_ELEMENTS = 50_000_000

SUPPORTED_KINDS = {"b": "bool", "i": "signed integer", "u": "unsigned integer", "f": "float"}


class UntypedArray(np.ndarray):
    """An array whose dtype nobody stated: it was inferred from the values (``parse_tensor`` of text
    without ``dtype=``). Like a Python list or scalar, it may take data's dtype (see
    :func:`coerce_updates`); ``numpy.asarray`` turns it back into a plain ndarray."""


def untyped(values) -> np.ndarray:
    """``values`` as an :class:`UntypedArray` (its dtype inferred, not stated)."""
    return np.asarray(values).view(UntypedArray)


def is_typed(value) -> bool:
    """Does ``value`` state its dtype? NumPy arrays and scalars do; lists, Python scalars and
    :class:`UntypedArray` (text without a dtype) do not."""
    return isinstance(value, (np.ndarray, np.generic)) and not isinstance(value, UntypedArray)


def as_tensor(name: str, value) -> np.ndarray:
    """``numpy.asarray`` with the project's dtype and size rules (an :class:`UntypedArray` becomes a plain one)."""
    if isinstance(value, UntypedArray):
        arr = np.asarray(value)
    elif isinstance(value, np.ndarray):
        arr = value
    else:
        try:
            arr = np.asarray(value)
        except (ValueError, TypeError, OverflowError) as exc:
            raise ScatterError(f"{name} could not be read as a tensor: {exc}",
                               argument=name, rule="not-a-tensor") from None
    if arr.dtype.kind not in SUPPORTED_KINDS:
        what = {"O": "object (ragged or mixed values?)", "c": "complex", "U": "string", "S": "bytes",
                "V": "structured", "M": "datetime", "m": "timedelta"}.get(arr.dtype.kind, str(arr.dtype))
        raise ScatterError(
            f"{name} has dtype {arr.dtype} ({what}); Scatter Explorer works on bool, integer and float "
            f"tensors", argument=name, rule="dtype")
    if arr.size > MAX_ELEMENTS:
        raise ScatterError(
            f"{name} has {arr.size:,} elements (shape {arr.shape}); the limit is {MAX_ELEMENTS:,}",
            argument=name, rule="size")
    return arr


_DTYPE_NAMES: dict[np.dtype, str] = {}


def _dtype_name(dtype: np.dtype) -> str:
    """``dtype.name``, remembered: NumPy computes the name in Python on every access."""
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = dtype.name
    return name


def check_index_dtype(spec: OpSpec, indices: np.ndarray) -> None:
    name = spec.input_name("indices")  # "write_indices" for TensorScatter
    if indices.dtype.kind not in "iu":
        raise ScatterError(
            f"{name} has dtype {indices.dtype}; {spec.name} takes integer indices "
            f"({', '.join(spec.index_rule.dtypes)})", argument=name, rule="index-dtype")
    if _dtype_name(indices.dtype) not in spec.index_rule.dtypes:
        raise ScatterError(
            f"{name} has dtype {indices.dtype}; {spec.name} allows only "
            f"{', '.join(spec.index_rule.dtypes)} indices", argument=name, rule="index-dtype")


def coerce_updates(spec: OpSpec, data: np.ndarray, updates: np.ndarray, *, typed: bool = False):
    """Updates in data's dtype (the spec's one type T for both): ``(updates, note or None)``.

    Both specs bind data and updates to one element type T. Typed updates (a NumPy array,
    or text that states a dtype) of another dtype are refused. Untyped updates (lists,
    scalars, text without a dtype) take data's dtype when no value changes; the note says so.
    """
    if updates.dtype == data.dtype:
        return updates, None
    if typed:
        raise ScatterError(
            f"updates has dtype {updates.dtype} but data has dtype {data.dtype}; {spec.name} binds data and "
            f"updates to one element type T (both the ONNX and the OpenVINO specs do, and the runtimes refuse "
            f"the model), so typed updates must have data's dtype {data.dtype}",
            argument="updates", rule="dtype-mismatch")
    with np.errstate(all="ignore"):
        cast = updates.astype(data.dtype)
        back = cast.astype(updates.dtype)
    same = (back == updates)
    if updates.dtype.kind == "f":
        same |= np.isnan(updates) & np.isnan(back)
    if same.all():
        return cast, PlanNote(
            "updates-dtype", "info",
            f"updates were given without a dtype ({updates.dtype} by their values) and take data's dtype "
            f"{data.dtype}, which changes no value; {spec.name} binds data and updates to one type T.")
    pos = np.unravel_index(int(np.flatnonzero(~same.ravel())[0]), updates.shape)
    raise ScatterError(
        f"updates has dtype {updates.dtype} but data has dtype {data.dtype}; {spec.name} needs one type T "
        f"for both, and casting would change updates{fmt_pos(pos)} = {fmt_value(updates[pos])} into {fmt_value(cast[pos])}",
        argument="updates", rule="dtype-mismatch")


def normalize_axis(spec: OpSpec, axis, rank: int) -> int:
    arr = np.asarray(axis)
    if arr.dtype.kind not in "iu" or arr.size != 1 or arr.ndim > 1:
        raise ScatterError(
            f"axis = {axis!r} must be one integer (a scalar or a one-element tensor) for {spec.name}",
            argument="axis", rule="axis-type")
    value = int(arr.reshape(()))
    if not -rank <= value <= rank - 1:
        raise ScatterError(
            f"axis = {value} is out of range for data of rank {rank} (allowed {-rank}..{rank - 1})",
            argument="axis", rule="axis-range")
    return value + rank if value < 0 else value


def check_index_values(spec: OpSpec, indices: np.ndarray, sizes, axes, data_shape) -> np.ndarray:
    """Check every index value against its dimension and return them normalised (int64).

    ``sizes`` and ``axes`` broadcast against ``indices``: the size of the data
    dimension each index value addresses, and that dimension's number.
    """
    raw = indices.astype(np.int64, copy=False)
    if raw.size and indices.dtype == np.uint64 and int(indices.max()) > np.iinfo(np.int64).max:
        bad = np.flatnonzero(indices.ravel() > np.iinfo(np.int64).max)[0]
        pos = np.unravel_index(int(bad), indices.shape)
        raise ScatterError(f"indices{fmt_pos(pos)} = {indices[pos]} is far out of range",
                           argument="indices", rule="index-range")
    negative_ok = spec.index_rule.negative != "forbidden"
    small = np.asarray(sizes, dtype=np.int64)
    if small.ndim == 0 and raw.size:
        # One dimension for every index (the Elements and Update families): two reductions
        # decide validity; the per-element comparison below only runs to report an error.
        lo, hi = int(raw.min()), int(raw.max())
        if lo >= (-small if negative_ok else 0) and hi <= small - 1:
            if lo < 0:  # add the size to the negative ones, in place on our own copy
                norm = raw.copy() if raw is indices else raw
                np.add(norm, small, out=norm, where=norm < 0)
                return norm
            return raw
    sizes = np.broadcast_to(small, raw.shape)
    low = -sizes if negative_ok else np.zeros_like(sizes)
    bad = (raw < low) | (raw > sizes - 1)
    if bad.any():
        flat = int(np.flatnonzero(bad.ravel())[0])
        pos = np.unravel_index(flat, raw.shape)
        value = int(raw[pos])
        size = int(sizes[pos])
        axis = int(np.broadcast_to(np.asarray(axes), raw.shape)[pos])
        lo = -size if negative_ok else 0
        count = int(bad.sum())
        more = f"; {count - 1} more index value(s) are out of range too" if count > 1 else ""
        if not negative_ok and -size <= value < 0:
            note = spec.note_text("negative-index")
            raise ScatterError(
                f"indices{fmt_pos(pos)} = {value} is negative, but {spec.name} allows only {lo}..{size - 1} "
                f"for axis {axis} of data with size {size}{more}" + (f". Observed: {note}" if note else ""),
                argument="indices", rule="negative-index")
        note = spec.note_text("index-range")
        raise ScatterError(
            f"indices{fmt_pos(pos)} = {value} is out of range for axis {axis} of data with size {size} "
            f"(allowed {lo}..{size - 1}){more}" + (f". Observed: {note}" if note else ""),
            argument="indices", rule="index-range")
    return np.where(raw < 0, raw + sizes, raw)


def c_strides(shape) -> np.ndarray:
    """Element strides of a C-ordered array of ``shape``."""
    strides = np.ones(len(shape), dtype=np.int64)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    return strides


def prod(shape) -> int:
    return int(math.prod(int(s) for s in shape))
