"""The one exception type of scatter_core.

Every invalid input raises :class:`ScatterError`. Its message names the input
(``data``, ``indices``, ``updates``, ``axis``, ``reduction`` ...), the rule that
was broken and the values that broke it, in the spirit of NumPy's
``put_along_axis`` errors.
"""

from __future__ import annotations


class ScatterError(ValueError):
    """Invalid input to a scatter operator (or to the text parser).

    ``argument`` names the offending input when there is one, ``rule`` is a
    short machine-readable rule id (``"index-range"``, ``"shape"`` ...).
    """

    def __init__(self, message: str, *, argument: str | None = None, rule: str | None = None):
        super().__init__(message)
        self.argument = argument
        self.rule = rule


def fmt_pos(pos) -> str:
    """Format a multi-index as NumPy prints a subscript: ``[1, 0]``; ``[]`` for 0-d."""
    return "[" + ", ".join(str(int(p)) for p in pos) + "]"
