"""The reduction table.

Each operator version names its reductions in its own spelling (ONNX ``add``, OpenVINO ``sum``); the
registry maps those spellings to the canonical rows of this table. The engine never branches on a
reduction's name: it reads the row, which says ``ufunc`` (how two values combine; ``None`` replaces),
``bool_ufunc`` (the same for bool tensors; with ``bool_ok`` False the reduction is refused on bools),
``neutral`` (where a cell starts when ``use_init_val`` is false), ``divides`` (mean: the sum divided once,
at the end, by the count, an integer one rounded as ``integer_rounding`` says) and ``total``/``joiner``
(how :mod:`scatter_core.explaining` says a cell's whole result: "the sum of {}", " + ").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .errors import ScatterError


def _zero(dtype: np.dtype):
    return np.zeros((), dtype=dtype)[()]


def _one(dtype: np.dtype):
    return np.ones((), dtype=dtype)[()]


def _highest(dtype: np.dtype):
    if dtype == np.bool_:
        return np.True_
    if dtype.kind == "f":
        return dtype.type(np.inf)
    return np.iinfo(dtype).max


def _lowest(dtype: np.dtype):
    if dtype == np.bool_:
        return np.False_
    if dtype.kind == "f":
        return dtype.type(-np.inf)
    return np.iinfo(dtype).min


@dataclass(frozen=True)
class Reduction:
    name: str
    symbol: str  # how the step log writes one application, e.g. "+"
    ufunc: np.ufunc | None
    bool_ufunc: np.ufunc | None
    bool_ok: bool
    neutral: Callable[[np.dtype], object]
    divides: bool = False
    order_sensitive_for_floats: bool = False
    words: str = ""
    bool_words: str = ""
    nan_undefined: bool = False  # neither spec says what a NaN taking part gives (max/min): a finding says so
    total: str = ""  # the cell's whole result in words, "{}" for what takes part: "the sum of {}" (empty: replace)
    joiner: str = ""  # between the terms: " + " (empty: written as symbol(a, b, ...))
    bool_total: str = ""
    bool_joiner: str = ""
    integer_rounding: str = ""  # divides: how the spec rounds an integer quotient (a key of explaining.ROUNDINGS)

    def describe(self, dtype: np.dtype) -> str:
        """What the reduction does to a cell of ``dtype``, in words."""
        return self.bool_words if dtype == np.bool_ and self.bool_words else self.words

    def combiner(self, dtype: np.dtype) -> np.ufunc | None:
        """The ufunc that folds one update into a cell of ``dtype``."""
        if dtype == np.bool_:
            return self.bool_ufunc
        return self.ufunc

    def check_dtype(self, dtype: np.dtype, spelling: str, op_name: str) -> None:
        if dtype == np.bool_ and not self.bool_ok:
            raise ScatterError(
                f"reduction {spelling!r} is not defined for bool data in {op_name} "
                f"(data has dtype bool; use a numeric dtype or another reduction)",
                argument="reduction", rule="bool-reduction")

    def neutral_for(self, dtype: np.dtype):
        return self.neutral(dtype)


def _neutral_none(dtype: np.dtype):
    return _zero(dtype)


REDUCTIONS: dict[str, Reduction] = {
    r.name: r
    for r in (
        Reduction("none", "=", None, None, True, _neutral_none,
                  words="each update replaces the cell's value"),
        Reduction("sum", "+", np.add, np.logical_or, True, _zero,
                  order_sensitive_for_floats=True,
                  words="each update is added to the cell", bool_words="the cell becomes the logical OR of itself and each update",
                  total="the sum of {}", joiner=" + ", bool_total="the logical OR of {}", bool_joiner=" or "),
        Reduction("prod", "*", np.multiply, np.logical_and, True, _one,
                  order_sensitive_for_floats=True,
                  words="the cell is multiplied by each update", bool_words="the cell becomes the logical AND of itself and each update",
                  total="the product of {}", joiner=" × ", bool_total="the logical AND of {}", bool_joiner=" and "),
        Reduction("max", "max", np.maximum, np.logical_or, True, _lowest,
                  words="the cell keeps the larger of its value and the update", bool_words="the cell becomes the logical OR of itself and each update",
                  nan_undefined=True, total="the largest of {}", bool_total="the logical OR of {}", bool_joiner=" or "),
        Reduction("min", "min", np.minimum, np.logical_and, True, _highest,
                  words="the cell keeps the smaller of its value and the update", bool_words="the cell becomes the logical AND of itself and each update",
                  nan_undefined=True, total="the smallest of {}", bool_total="the logical AND of {}", bool_joiner=" and "),
        Reduction("sub", "-", np.subtract, np.logical_xor, True, _zero,
                  order_sensitive_for_floats=True,
                  words="each update is subtracted from the cell", bool_words="the cell becomes the logical XOR of itself and each update",
                  total="the difference of {}, the updates subtracted in turn", joiner=" - ", bool_total="the logical XOR of {}", bool_joiner=" xor "),
        Reduction("mean", "mean", np.add, None, False, _zero, divides=True,
                  order_sensitive_for_floats=True,
                  words=("the cell becomes the sum of its contributions over their count, divided once after its last write "
                         "(an integer quotient rounded down)"),
                  total="the mean of {}: their sum over their count", joiner=" + ", integer_rounding="down"),
    )
}


def divide_mean(acc: np.ndarray, count: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Divide accumulated sums by contribution counts, in ``dtype``.

    Integers are rounded towards negative infinity (the spec's rule; the
    OpenVINO CPU plugin truncates instead, which the findings point out).
    """
    acc = np.asarray(acc, dtype=dtype)
    count = np.asarray(count)
    safe = np.where(count == 0, 1, count) if (count == 0).any() else count  # no copy in the usual case
    if dtype.kind in "iu":
        return np.floor_divide(acc.astype(np.int64), safe.astype(np.int64, copy=False)).astype(dtype)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        return np.divide(acc, safe.astype(dtype)).astype(dtype, copy=False)


def truncate_mean(acc, count) -> np.ndarray:
    """Integer sums divided by counts, rounded toward zero (int64): the OpenVINO CPU plugin's integer
    mean (the spec rounds down, :func:`divide_mean`). A count of 0 counts as 1."""
    acc = np.asarray(acc).astype(np.int64)
    count = np.asarray(count).astype(np.int64)
    count = np.where(count <= 0, 1, count)
    return np.where(acc < 0, -((-acc) // count), acc // count)
