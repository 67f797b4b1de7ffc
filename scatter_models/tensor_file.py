"""Tensors between a capture and its worker: one raw file each way, described by a small JSON-able index.

The parent writes the feeds, the worker the captured tensors, each as one file of the arrays' bytes back to
back (C order), with ``[name, dtype, shape, offset]`` per array in the job's JSON. One file and no per-array
header to parse (``.npy`` parses each header as a Python literal): a small model's capture moved 5 to 25
files per job. Only plain numeric and bool dtypes are read; anything else is refused, so no serialized
Python object and no object array can come through. Each array read back owns its memory (writable, as ``np.load`` gave).
"""

from __future__ import annotations

import numpy as np

KINDS = "biufc"  # bool, integers, floats, complex: what the worker's tensors are


def write(path, arrays: dict) -> list:
    """Write ``arrays`` (name -> array) to ``path``; returns the index :func:`read` takes."""
    index, offset = [], 0
    with open(path, "wb") as f:
        for name, value in arrays.items():
            arr = np.asarray(value)
            if arr.dtype.kind not in KINDS:
                raise TypeError(f"tensor {name!r} has dtype {arr.dtype}, not a plain numeric or bool dtype")
            index.append([name, arr.dtype.str, list(arr.shape), offset])
            if arr.nbytes:
                f.write(np.ascontiguousarray(arr).reshape(-1).view(np.uint8).data)
            offset += arr.nbytes
    return index


def _dtype(text: str) -> np.dtype:
    dtype = np.dtype(str(text))
    if dtype.kind not in KINDS or dtype.hasobject:
        raise ValueError(f"tensor dtype {text!r} is not a plain numeric or bool dtype")
    return dtype


def read(path, index: list) -> dict:
    """The arrays :func:`write` wrote to ``path``, name -> array, each with memory of its own."""
    out = {}
    with open(path, "rb") as f:
        for name, dtype, shape, offset in index:
            arr = np.empty(tuple(int(d) for d in shape), dtype=_dtype(dtype))
            if arr.nbytes:
                f.seek(int(offset))
                if f.readinto(arr.reshape(-1).view(np.uint8).data) != arr.nbytes:
                    raise ValueError(f"tensor {name!r}: the file ends before its {arr.nbytes} bytes")
            out[name] = arr
    return out
