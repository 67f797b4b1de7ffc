"""``scatter``: the result of one operator version on its inputs, through a planned :class:`Case`.

Building the case (checking every input and planning the loop) lives with the class, in
``case.py`` (:func:`~scatter_core.case.prepare`); attribute rules live in ``attributes.py``.
"""

from __future__ import annotations

import numpy as np

from .case import prepare

__all__ = ["prepare", "scatter"]


def scatter(op, data, indices, updates, *, out: np.ndarray | None = None, **attrs) -> np.ndarray:
    """Run operator version ``op`` on the inputs; returns a new array (or ``out``).

    ``attrs`` use the spec's names and spellings: ``axis``, ``reduction``,
    ``use_init_val`` (and any other attribute the version declares). ``out``, if
    given, must have data's shape and dtype; it receives the result, as with a
    NumPy ufunc. Invalid inputs raise :class:`ScatterError` before ``out`` is
    written.

    A new result of 8 MB or more may be built on the memory of an earlier result
    that is no longer used (:mod:`scatter_core.fast.buffers`), which spares the kernel's
    page faults; such an array reports ``owndata`` false.
    """
    return prepare(op, data, indices, updates, attrs).run(out=out)  # validates everything before touching out
