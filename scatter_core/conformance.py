"""What the spec leaves open: the set of outputs a conforming kernel may return.

scatter_core runs the spec's loop in row-major order, which gives the output real runtimes give today. No text
in scope fixes the order of the writes, so where the order matters other outputs conform too:

* reduction none, a cell written more than once: the cell may hold any one of the values written to it,
  each cell independently;
* a float reduction that rounds (add/sum, mul/prod, sub, mean), a cell with at least three contributions:
  another order rounds differently, within the cell's ``slack`` (twice the bound ``γ(n)·Σ|x|``);
* everything else is fixed (integer and bool reductions, max and min, a cell written once).

:func:`open_cells` lists the cells left open for one trace, with their candidate values or slack;
:func:`conforming` says, cell by cell, whether an output is one the spec allows. The bound, its limits
(``n·u ≥ 1``, ±inf and NaN) and why: docs/architecture.md, scatter_core/conformance.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DEFAULT_RTOL = 1e-6  # the float comparison's defaults (check_expected's too)
DEFAULT_ATOL = 1e-9
WINNER = "winner"  # reduction none: any one of the writes to a duplicated cell may win
ROUNDING = "rounding"  # a float reduction: another order of the contributions may round differently


def agree(reference: np.ndarray, other: np.ndarray, rtol: float, atol: float) -> np.ndarray:
    """Cell-wise agreement of ``other`` with ``reference``: exact for integer and bool tensors, and for
    floats ``|reference − other| ≤ atol + rtol·|reference|``, NaN agreeing with NaN and ±inf only with
    itself.

    >>> agree(np.array([1.0, np.nan, np.inf]), np.array([1.0 + 1e-9, np.nan, 1e300]), 1e-6, 1e-9).tolist()
    [True, True, False]
    """
    if reference.dtype.kind == "f":
        a = reference.astype(np.float64)
        b = np.asarray(other).astype(np.float64)
        with np.errstate(all="ignore"):
            close = np.isclose(b, a, rtol=rtol, atol=atol, equal_nan=True)
        # isclose calls inf == inf close; make sure a finite value is never close to an inf
        return close & (np.isinf(a) == np.isinf(b))
    return reference == other


@dataclass(frozen=True)
class OpenCell:
    """One output cell whose value the spec leaves open."""

    cell: tuple[int, ...]  # the output position
    kind: str  # WINNER or ROUNDING
    candidates: tuple  # WINNER: the values written to it, in loop order; ROUNDING: its updates, in loop order
    steps: tuple[int, ...]  # the 0-based loop steps of those writes
    loop_value: object  # what the spec's loop order gives (for WINNER: the last write)
    slack: float  # ROUNDING: how far another order's result may be from loop_value (0.0 for WINNER)


@dataclass(frozen=True)
class OpenCells:
    """The cells of one run that the spec leaves open (see the module docstring), as arrays.

    ``cells`` are flat output positions, ascending; cell ``i``'s writes are entries
    ``first[i] .. first[i] + counts[i] - 1`` of ``values`` (the value each write applies, in data's
    dtype) and ``steps`` (its 0-based loop step), in loop order. ``loop`` is each cell's value in the
    loop order, ``slack`` its rounding leeway (float64; zeros for ``WINNER``). ``kind`` is ``""`` when
    nothing is left open.
    """

    kind: str
    shape: tuple[int, ...]
    cells: np.ndarray
    counts: np.ndarray
    first: np.ndarray
    values: np.ndarray
    steps: np.ndarray
    loop: np.ndarray
    slack: np.ndarray

    def __len__(self) -> int:
        return int(self.cells.size)

    def position(self, i: int) -> tuple[int, ...]:
        """Cell ``i``'s output position."""
        return tuple(int(v) for v in np.unravel_index(int(self.cells[i]), self.shape)) if self.shape else ()

    def candidates(self, i: int) -> tuple:
        """Cell ``i``'s writes (values in loop order, as Python numbers)."""
        a = int(self.first[i])
        return tuple(self.values[a:a + int(self.counts[i])].tolist())

    def cell(self, i: int) -> OpenCell:
        a, n = int(self.first[i]), int(self.counts[i])
        return OpenCell(self.position(i), self.kind, tuple(self.values[a:a + n].tolist()),
                        tuple(int(s) for s in self.steps[a:a + n]), self.loop[i].item(), float(self.slack[i]))

    def allows(self, expected, rtol: float, atol: float) -> np.ndarray:
        """Per open cell (bool, like ``cells``): whether ``expected`` (an output-shaped array in data's dtype)
        holds a value the spec allows there."""
        if not len(self):
            return np.zeros(0, dtype=bool)
        e = np.asarray(expected).reshape(-1)[self.cells]
        if self.kind == WINNER:  # any one write, under the comparison's own tolerance
            ok = agree(self.values, np.repeat(e, self.counts), rtol, atol)
            return np.logical_or.reduceat(ok, self.first)
        a, b = self.loop.astype(np.float64), e.astype(np.float64)
        with np.errstate(all="ignore"):
            near = np.abs(b - a) <= atol + rtol * np.abs(a) + self.slack
        return near & np.isfinite(a) & np.isfinite(b)


def _gamma(n: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """γ(n) = n·u / (1 − n·u), the classic bound on n roundings of unit roundoff u; inf once n·u ≥ 1."""
    nu = n.astype(np.float64) * (float(np.finfo(dtype).eps) / 2)
    with np.errstate(divide="ignore"):
        return np.where(nu < 1, nu / np.maximum(1 - nu, 0), np.inf)


def open_cells(trace) -> OpenCells:
    """The cells of ``trace``'s run whose value the spec leaves open (see the module docstring).

    >>> import scatter_core as sc
    >>> t = sc.trace(sc.case("ScatterND-18", [1, 2, 3, 4], [[0], [2], [0]], [10, 20, 30]))
    >>> o = sc.open_cells(t)
    >>> o.kind, o.position(0), o.candidates(0), o.cell(0).steps, o.cell(0).loop_value
    ('winner', (0,), (10, 30), (0, 2), 30)
    >>> len(sc.open_cells(sc.trace(sc.case("ScatterND-18", [1, 2, 3, 4], [[0], [0]], [10, 20], reduction="add"))))
    0
    """
    red, dtype = trace.reduction, trace.data.dtype
    w = trace.cell_writes
    contributions = w.counts + int(trace.use_init)  # data's value takes part under use_init_val
    if red.ufunc is None:
        kind, pick = WINNER, w.counts > 1
    elif dtype.kind == "f" and red.order_sensitive_for_floats:
        kind, pick = ROUNDING, contributions >= 3  # two contributions combine in one rounding: no order to choose
    else:
        kind, pick = "", np.zeros(w.cells.size, dtype=bool)
    ids = np.flatnonzero(pick)
    counts = w.counts[ids]
    first = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64) if ids.size else np.zeros(0, np.int64)
    within = np.arange(int(counts.sum())) - np.repeat(first, counts)
    sorted_pos = np.repeat(w.first[ids], counts) + within
    loop_pos = w.loop_positions[sorted_pos]
    cells = w.cells[ids]
    values = w.values[sorted_pos]
    steps = loop_pos // max(trace.slice_size, 1)
    loop = trace.output.reshape(-1)[cells]
    slack = np.zeros(ids.size, dtype=np.float64)
    if kind == ROUNDING and ids.size:
        mags = np.abs(values.astype(np.float64))
        start = np.abs(trace.data.reshape(-1)[cells].astype(np.float64)) if trace.use_init else None
        n = contributions[ids]
        with np.errstate(all="ignore"):
            if red.combiner(dtype) is np.multiply:
                size = np.multiply.reduceat(mags, first) * (start if start is not None else 1.0)
                rounds = n - 1
            else:
                size = np.add.reduceat(mags, first) + (start if start is not None else 0.0)
                rounds = n - 1
                if red.divides:  # the mean's one division rounds once more
                    size, rounds = size / n, n
            slack = 2 * _gamma(rounds, dtype) * size
        slack = np.where(np.isnan(slack), np.inf, slack)
    return OpenCells(kind if ids.size else "", tuple(trace.data.shape), cells, counts, first, values, steps, loop,
                     slack)


def conforming(trace, expected, rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL,
               opened: OpenCells | None = None) -> np.ndarray:
    """Cell by cell (an output-shaped bool array): whether ``expected`` (in data's dtype) holds a value the
    spec allows, i.e. agrees with the loop-order result under the tolerance, or is a cell the spec leaves
    open holding one of its allowed values. ``opened``: ``open_cells(trace)`` when already computed.

    >>> import scatter_core as sc
    >>> t = sc.trace(sc.case("ScatterND-18", [1, 2, 3, 4], [[0], [2], [0]], [10, 20, 30]))
    >>> sc.conforming(t, [10, 2, 20, 4]).tolist()  # the first write kept: allowed
    [True, True, True, True]
    >>> sc.conforming(t, [20, 2, 20, 4]).tolist()  # 20 is never written to output[0]
    [False, True, True, True]
    """
    computed = trace.output
    expected = np.asarray(expected)
    ok = np.array(agree(computed, expected, rtol, atol), dtype=bool).reshape(-1)
    opened = open_cells(trace) if opened is None else opened
    if len(opened):
        ok[opened.cells] |= opened.allows(expected, rtol, atol)
    return ok.reshape(computed.shape)

