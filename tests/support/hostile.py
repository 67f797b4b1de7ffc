"""Hostile typed text and what the message about it must say (issues #13 and #18): shared by the pages' checks."""

from __future__ import annotations


LIMIT = 2_000_000  # scatter_core.parsing.MAX_TEXT

HOSTILE_TEXT = [  # (text, what the message must say)
    # round one
    ("", "empty"),
    ("[[1, 2], [3]]", "ragged"),
    ("[1, 2", "missing"),
    ("__import__('os').system('echo pwned')", "not a number"),
    ("[1, nan, 'x']", "is not a number"),
    ("[" * 50 + "1" + "]" * 50, "deeper than"),
    ("[" + ", ".join(["1"] * 10_001) + "]", "more than 10,000 numbers"),
    ("array([1, 2], dtype=complex64)", "dtype"),
    ("[1e999]", "too large"),
    ("[[1, 2]] [[3]]", "unexpected"),
    ("{'a': 1}", "unexpected character"),
    ("<script>alert(1)</script>", "unexpected character"),
    # round two (issue #18)
    ("1" * 5000, "5,000 digits is too long"),
    ("[1, " + "9" * 5000 + "]", "5,000 digits is too long"),
    ("array([], shape=(0, 2147483648, 2147483648), dtype=float32)", "dimensions other than 0 multiply"),
    ("array([], shape=(2147483648, 0), dtype=float32)", "dimensions other than 0 multiply"),
    ("[" + "[]," * 600_000 + "]", "brackets, commas and numbers"),
    ("[" + "1," * (LIMIT // 2) + "]", f"the limit is {LIMIT:,}"),
    ("[1e309]", "too large"),
]
