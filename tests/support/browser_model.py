"""The model page in a browser: waiting until a rerun has finished."""

from __future__ import annotations


def settle(pg, timeout: float = 90_000):
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)
    pg.wait_for_timeout(300)
