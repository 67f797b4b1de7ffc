"""Hypothesis example counts that follow the profile tests/conftest.py loads.

"quick" (the default) draws a tenth of each test's examples, for a fast loop; "thorough" (CI=true, or
HYPOTHESIS_PROFILE=thorough, or pytest --hypothesis-profile=thorough) draws every one. A test that sets its own
count writes ``settings(max_examples=examples(400))``: 400 under thorough, 40 under quick.
"""

from __future__ import annotations

from hypothesis import settings

THOROUGH = 100  # the thorough profile's default max_examples, Hypothesis's own default
QUICK = 10  # the quick profile's default max_examples
FEWEST = 10  # quick never draws fewer than this (or than the test's own count, if smaller)


def examples(n: int) -> int:
    """``n`` under the thorough profile; under quick, n scaled like the default (a tenth), at least min(n, FEWEST)."""
    scale = settings.default.max_examples / THOROUGH
    return n if scale >= 1 else max(min(n, FEWEST), round(n * scale))


def chosen(environ) -> str:
    """The profile for an environment: HYPOTHESIS_PROFILE when set, else "thorough" under CI=true, else "quick"."""
    return environ.get("HYPOTHESIS_PROFILE") or ("thorough" if environ.get("CI") == "true" else "quick")
