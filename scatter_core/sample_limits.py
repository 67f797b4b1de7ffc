"""What a family's ``sample`` hook is given (:class:`Limits`) and gives back (:class:`Drawn`), and the small
drawing helpers the hooks share. No values here: :func:`scatter_core.sampling.sample_case` adds them."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Limits:
    """The sizes a sample hook draws: data of rank 1..``max_rank`` (a family that needs a batch axis: at least 2)
    with axes of 1..``max_dim``; ``empty``: index axes (and so update counts) may be 0 long; ``unstated_negatives``:
    negative indices also where the version's text does not say (Scatter-9), not only where it allows them."""

    max_rank: int = 3
    max_dim: int = 4
    empty: bool = False
    unstated_negatives: bool = False


@dataclass(frozen=True)
class Drawn:
    """One draw of a family's hook: data's shape, the indices (None: left out or not read), the updates' shape
    and the family's own attributes (axis, a slice, a cache mode ...)."""

    data_shape: tuple[int, ...]
    indices: np.ndarray | None
    updates_shape: tuple[int, ...]
    attrs: dict = field(default_factory=dict)


def shape(rng, rank: int, lo: int = 1, hi: int = 4) -> tuple[int, ...]:
    """``rank`` axes of ``lo..hi`` (at most 3 long from rank 4 on, so a draw stays small)."""
    return tuple(int(n) for n in rng.integers(lo, (min(hi, 3) if rank >= 4 else hi) + 1, size=rank))


def index_values(rng, spec, limits: Limits, sizes, shape_) -> np.ndarray:
    """Indices of ``shape_`` within ``sizes`` (broadcast), negative ones too where the version allows them."""
    negative = ("allowed", "unstated") if limits.unstated_negatives else ("allowed",)
    sizes = np.asarray(sizes)
    low = -sizes if spec.index_rule.negative in negative else 0
    return rng.integers(low, sizes, size=shape_).astype(np.int64)
