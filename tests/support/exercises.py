"""An exercise as plain JSON, to compare exercises drawn twice."""

from __future__ import annotations


def summary(ex) -> dict:
    """Everything that defines an exercise, as plain JSON."""
    return {"op": ex.op, "attrs": {k: list(v) if isinstance(v, tuple) else v for k, v in ex.attrs.items()},
            "seed": ex.seed, "level": ex.level,
            **{n: None if a is None else [str(a.dtype), a.tolist()]
               for n, a in (("data", ex.data), ("indices", ex.indices), ("updates", ex.updates),
                            ("answer", ex.answer))}}
