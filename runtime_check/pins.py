"""The runtime versions ``../shared/semantics.md`` was verified on: the pins of the ``runtimes`` extra.

Read from ``pyproject.toml`` beside the package (a checkout) or, in an installed copy, from the
package metadata. No runtime is imported.
"""

from __future__ import annotations

import scatter_core

from ._common import RUNTIMES

# runtime -> the distribution whose pinned version semantics.md was verified on (scatter_core's, one mapping)
DISTRIBUTIONS = dict(scatter_core.RUNTIME_DISTRIBUTIONS)


def pins_in(text: str) -> dict[str, str]:
    """Runtime -> pinned version, from requirement text (``"onnxruntime==<version>"`` ...)."""
    pins = scatter_core.pins_in_text(text)
    return {r: pins[d] for r, d in DISTRIBUTIONS.items() if d in pins and r in RUNTIMES}


def verified_versions() -> dict[str, str]:
    """Runtime -> the version semantics.md was verified on: the ``runtimes`` extra's pins, read once by
    :func:`scatter_core.pinned_versions` (the same pins the table of runtime facts shows)."""
    pins = scatter_core.pinned_versions()
    return {r: pins[d] for r, d in DISTRIBUTIONS.items() if d in pins}


def version_skew(runtime: str, version: str | None, verified: dict[str, str] | None = None) -> str:
    """'' when ``version`` is the one semantics.md was verified on (or either is unknown), else a short warning."""
    want = (verified_versions() if verified is None else verified).get(runtime)
    if not want or not version or version == want:
        return ""
    return f"version skew: semantics.md was verified on {want}, this is {version}"
