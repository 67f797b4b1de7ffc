"""The runtime versions the table of runtime facts was verified on, and the installed ones beside them.

The verified versions are ``scatter_core.VERIFIED_ON`` (constraints/verified.txt pins the same for the test
suite). No runtime is imported.
"""

from __future__ import annotations

from typing import Mapping

import scatter_core

from ._common import RUNTIMES

# runtime -> the distribution that gives its version (scatter_core's, one mapping)
DISTRIBUTIONS = dict(scatter_core.RUNTIME_DISTRIBUTIONS)
VERIFY_COMMAND = "scatter-explorer verify-facts"


def pins_in(text: str) -> dict[str, str]:
    """Runtime -> pinned version, from requirement text (``"onnxruntime==<version>"`` ...)."""
    pins = scatter_core.pins_in_text(text)
    return {r: pins[d] for r, d in DISTRIBUTIONS.items() if d in pins and r in RUNTIMES}


def verified_versions() -> dict[str, str]:
    """Runtime -> the version the facts were verified on (:func:`scatter_core.verified_versions`)."""
    versions = scatter_core.verified_versions()
    return {r: versions[d] for r, d in DISTRIBUTIONS.items() if d in versions}


def version_skew(runtime: str, version: str | None, verified: Mapping[str, str] | None = None) -> str:
    """'' when ``version`` is the one the facts were verified on (or either is unknown), else what to do:
    "verified on onnxruntime 1.x; installed 1.y: run `scatter-explorer verify-facts`" (the distribution named)."""
    want = (verified_versions() if verified is None else verified).get(runtime)
    if not want or not version or version == want:
        return ""
    return f"verified on {DISTRIBUTIONS.get(runtime, runtime)} {want}; installed {version}: run `{VERIFY_COMMAND}`"
