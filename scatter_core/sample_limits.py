"""What a family's ``sample`` hook is given (:class:`Limits`) and gives back (:class:`Drawn`), and the small
drawing helpers the hooks share. No values here: :func:`scatter_core.sampling.sample_case` adds them."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Limits:
    """The sizes a sample hook draws: data of rank 1..``max_rank`` (TensorScatter's caches, which need a
    batch axis: 2..``max_rank`` + 1, at most 4) with axes of 1..``max_dim`` (at most 3 from rank 4
    on); ``empty``: index axes (and so update counts) may be 0 long; ``unstated_negatives``:
    negative indices also where the version's text does not say (Scatter-9), not only where it allows them."""

    max_rank: int = 3
    max_dim: int = 4
    empty: bool = False
    unstated_negatives: bool = False
    # a draw fitted to a given data shape (Practice's exercises): the shape, the axis (families with one), k (the
    # tuple length, families reading k-tuples; None: rank), "yes" / "no" / "any" repeated index positions, and at
    # most ``max_steps`` iterations. Index values are then non-negative, with ``Drawn.sizes`` to spell them
    # negative. A hook may return None for a draw that cannot meet the wishes (the caller draws again).
    data_shape: tuple[int, ...] | None = None
    axis: int | None = None
    k: int | None = None
    duplicates: str = "any"
    max_steps: int = 8
    features: frozenset[str] = frozenset()  # a family's own wishes (its hook's docstring lists them)


@dataclass(frozen=True)
class Drawn:
    """One draw of a family's hook: data's shape, the indices (None: left out or not read), the updates' shape
    and the family's own attributes (axis, a slice, a cache mode ...)."""

    data_shape: tuple[int, ...]
    indices: np.ndarray | None
    updates_shape: tuple[int, ...]
    attrs: dict = field(default_factory=dict)
    sizes: np.ndarray | None = None  # per index value, the axis length it counts along (fitted draws only)


@dataclass(frozen=True)
class Lesson:
    """What one Practice level asks of a family that has a curriculum of its own (its record's ``lesson`` hook,
    ``(rng, level) -> Lesson``; levels as in ``scatter_practice.LEVELS``): data's rank, the axis (None: the
    version's default), the wishes for the family's fitted ``sample`` draw and a sentence saying what the level
    practises there. Practice's exercises under it use reduction none."""

    rank: int
    axis: int | None = None
    features: tuple[str, ...] = ()
    topic: str = ""


def shape(rng, rank: int, lo: int = 1, hi: int = 4) -> tuple[int, ...]:
    """``rank`` axes of ``lo..hi`` (at most 3 long from rank 4 on, so a draw stays small)."""
    return tuple(int(n) for n in rng.integers(lo, (min(hi, 3) if rank >= 4 else hi) + 1, size=rank))


def data_draw(rng, limits: Limits) -> tuple[int, tuple[int, ...]]:
    """The start of a free draw: the shortest index axis allowed (0 or 1) and data's shape (rank 1..max_rank)."""
    rank = int(rng.integers(1, limits.max_rank + 1))
    return (0 if limits.empty else 1), shape(rng, rank, hi=limits.max_dim)


def index_values(rng, spec, limits: Limits, sizes, shape_) -> np.ndarray:
    """Indices of ``shape_`` within ``sizes`` (broadcast), negative ones too where the version allows them."""
    negative = ("allowed", "unstated") if limits.unstated_negatives else ("allowed",)
    sizes = np.asarray(sizes)
    low = -sizes if spec.index_rule.negative in negative else 0
    return rng.integers(low, sizes, size=shape_).astype(np.int64)


def pick(rng, items):
    return items[int(rng.integers(0, len(items)))]


def coin(rng, percent: int) -> bool:
    return int(rng.integers(0, 100)) < percent


def line_values(rng, size: int, count: int, duplicates: str) -> np.ndarray:
    """``count`` positions in 0..size-1: distinct, drawn with replacement, or either (``duplicates``)."""
    distinct = duplicates == "no" or (duplicates == "any" and coin(rng, 50))
    if distinct and count <= size:
        return rng.permutation(size)[:count].astype(np.int64)
    return rng.integers(0, size, count).astype(np.int64)


def force_duplicate(rng, lines: np.ndarray) -> None:
    """Make one line (the last axis) repeat a value, in place, if none does."""
    flat = lines.reshape(-1, lines.shape[-1])
    if any(len(set(row.tolist())) < len(row) for row in flat):
        return
    row = flat[int(rng.integers(0, flat.shape[0]))]
    i, j = sorted(int(x) for x in rng.permutation(len(row))[:2])
    row[j] = row[i]
