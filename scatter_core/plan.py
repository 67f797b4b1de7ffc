"""The loop plan every family reduces to.

A family module turns (data, indices, updates, axis) into a :class:`Plan`: for
each iteration of its spec's loop, in row-major order, the flat positions it
writes in the output and the flat positions it reads in updates. Everything
after that (the fast kernel, the trace, the findings) is shared.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class PlanNote:
    """Something the planner noticed that deserves a finding (e.g. k == 0)."""

    kind: str
    severity: str
    message: str
    topic: str = ""  # runtime-note topic in the spec record, if any


@dataclass(frozen=True)
class Plan:
    loop_shape: tuple[int, ...]  # the spec loop's domain; len(trace) == prod(loop_shape)
    targets: np.ndarray  # (n, S) int64 flat positions in output, S = cells written per iteration
    sources: np.ndarray  # (n, S) int64 flat positions in updates, aligned with targets
    index_cells: np.ndarray  # (n, k) int64 flat positions in indices read by each iteration
    index_raw: np.ndarray  # (n, k) index values as given
    index_norm: np.ndarray  # (n, k) index values after normalising negatives
    target_free_axes: tuple[int, ...]  # output axes a slice write spans (":" in a label)
    source_free_axes: tuple[int, ...]  # updates axes a slice read spans
    updates_shape: tuple[int, ...]  # shape of updates as used (after accepting a 1-element 0-d slice)
    notes: tuple[PlanNote, ...] = field(default=())

    @property
    def n_steps(self) -> int:
        return int(self.targets.shape[0])

    @property
    def slice_size(self) -> int:
        return int(self.targets.shape[1])
