"""Random valid cases: what a family's ``sample`` hook draws, and the case built from it.

Each family record's ``sample(rng, spec, limits) -> Drawn`` draws the part of a case only the family knows:
data's shape, the indices (or None), the updates' shape and the family's own attributes (axis, a slice, a
cache mode ...). :func:`sample_case` adds values and the caller's fixed attributes (a reduction, use_init_val)
and checks the result with the core: the tests' strategies, the framework differential and the large-tensor
views read this instead of restating the shape rules.
"""

from __future__ import annotations

import numpy as np

from .case import Case, prepare
from .errors import ScatterError
from .families import family_of
from .registry import get_spec
from .sample_limits import Drawn, Lesson, Limits

__all__ = ["Drawn", "Limits", "sample_case"]


def _values(rng, shape, dtype: np.dtype, values: tuple[int, int]) -> np.ndarray:
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(bool)
    return rng.integers(values[0], values[1], size=shape).astype(dtype)


def sample_case(rng: np.random.Generator, op, *, dtype="int32", values: tuple[int, int] = (-3, 4),
                attrs=None, limits: Limits | None = None, tries: int = 100) -> Case:
    """A random valid :class:`Case` of operator version ``op``, drawn by its family's ``sample`` hook.

    ``values``: data and updates are integers in ``[values[0], values[1])`` (exact in any float dtype, so sums
    and products do not depend on the order), cast to ``dtype``. ``attrs``: attributes the caller fixes (e.g.
    ``reduction``, ``use_init_val``); the family draws its own (axis, mode, a slice). ``limits``: the sizes
    drawn (:class:`Limits`). Draws again when the core refuses a draw; a ScatterError after ``tries`` draws.
    """
    spec = get_spec(op)
    family = family_of(spec)
    if family.sample is None:
        raise ScatterError(f"the {family.name} family has no sample hook", argument="op", rule="sample")
    limits = limits or Limits()
    dtype = np.dtype(dtype)
    index_dtype = "int64" if "int64" in spec.index_rule.dtypes else spec.index_rule.dtypes[0]
    last = None
    for _ in range(tries):
        drawn = family.sample(rng, spec, limits)
        if drawn is None:  # a fitted draw that cannot meet the wishes
            continue
        data = _values(rng, drawn.data_shape, dtype, values)
        updates = _values(rng, drawn.updates_shape, dtype, values)
        indices = None if drawn.indices is None else np.asarray(drawn.indices).astype(index_dtype)
        try:
            return prepare(spec, data, indices, updates, {**drawn.attrs, **(attrs or {})})
        except ScatterError as e:
            last = e
    raise ScatterError(f"no valid random case of {spec.name} in {tries} draws (last refusal: {last})",
                       argument="op", rule="sample")
