"""Examples above the core's element limit: their shapes, why they can't run in full, and a
labelled reduced stand-in that shows exactly where the writes land.

The stand-in keeps the example's real indices (small, generated on their own) and shrinks every
axis a write covers in one piece to length 1, so each step writes one cell instead of a slice:
which positions are written, how often, and which write wins are those of the full example.
Values are placeholders (data 0, updates numbered 1, 2, … in loop order). Which axes shrink is
the family record's ``shrink`` rule; a family without one only gets the shapes and the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import scatter_core as sc
from scatter_core import MAX_ELEMENTS, fmt_shape


@dataclass(frozen=True)
class StandIn(sc.HoldsCase):
    """The reduced stand-in of a large example: a :class:`scatter_core.Case` (the example's operator, its real
    indices and attributes, placeholder values) and the shape of one real write that each of its steps stands for."""

    case: sc.Case
    slice_shape: tuple

    @property
    def steps(self) -> int:
        return int(self.case.plan.targets.shape[0])


def too_large(example) -> bool:
    return max(int(np.prod(s)) for s in example.shapes.values()) > MAX_ELEMENTS


def stand_in(example, family: str) -> StandIn | None:
    """The stand-in of ``example`` (of ``family``), None when the family's record has no ``shrink`` rule, the
    stand-in is itself above the limit, or the core refuses it."""
    rule = sc.family_of(family).shrink
    if rule is None:
        return None
    small_data, small_updates, slice_shape = rule(example.shapes, example.attrs)
    if max(int(np.prod(small_data)), int(np.prod(small_updates))) > MAX_ELEMENTS:
        return None
    indices = example.indices  # generated on its own: the example's real index values
    data = np.zeros(small_data, dtype=np.dtype(example.dtypes["data"]))
    updates = np.arange(1, int(np.prod(small_updates)) + 1).reshape(small_updates).astype(data.dtype)
    try:
        return StandIn(sc.case(example.op, data, indices, updates, **example.attrs), slice_shape)
    except sc.ScatterError:
        return None


def _bytes(n: int) -> str:
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:,.1f} {unit}"
    return f"{n} B"


def summary(example) -> list[str]:
    """Plain sentences: the shapes, the sizes against the limit."""
    lines = []
    for role in ("data", "indices", "updates"):
        shape = tuple(example.shapes[role])
        n = int(np.prod(shape))
        itemsize = np.dtype(example.dtypes[role]).itemsize
        over = " — above the limit" if n > MAX_ELEMENTS else ""
        lines.append(f"{role}: {fmt_shape(shape)} {example.dtypes[role]}, {n:,} elements "
                     f"({_bytes(n * itemsize)}){over}")
    lines.append(f"The core takes at most {MAX_ELEMENTS:,} elements per tensor, so this example cannot run "
                 f"in full here (its tensors would need memory for every value and every recorded write).")
    return lines
