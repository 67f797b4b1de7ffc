"""The runtime versions ``../shared/semantics.md`` was verified on: the pins of the ``runtimes`` extra.

Read from ``pyproject.toml`` beside the package (a checkout) or, in an installed copy, from the
package metadata. No runtime is imported.
"""

from __future__ import annotations

import functools
import importlib.metadata
import re
from pathlib import Path

from ._common import RUNTIMES

# runtime -> the distribution whose pinned version semantics.md was verified on
DISTRIBUTIONS = {"onnxruntime": "onnxruntime", "onnx.reference": "onnx", "openvino-cpu": "openvino",
                 "openvino-reference": "openvino"}
_PIN = re.compile(r'"?([A-Za-z0-9_.-]+)==([0-9][^";\s]*)')


def pins_in(text: str) -> dict[str, str]:
    """Runtime -> pinned version, from requirement text (``"onnxruntime==1.31.1"`` ...)."""
    pins = dict(_PIN.findall(text))
    return {r: pins[d] for r, d in DISTRIBUTIONS.items() if d in pins and r in RUNTIMES}


@functools.lru_cache(maxsize=1)
def verified_versions() -> dict[str, str]:
    """Runtime -> the version semantics.md was verified on (the ``runtimes`` extra's pins)."""
    try:
        text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        try:
            text = "\n".join(importlib.metadata.requires("scatter-explorer") or ())
        except importlib.metadata.PackageNotFoundError:
            text = ""
    return pins_in(text)


def version_skew(runtime: str, version: str | None, verified: dict[str, str] | None = None) -> str:
    """'' when ``version`` is the one semantics.md was verified on (or either is unknown), else a short warning."""
    want = (verified_versions() if verified is None else verified).get(runtime)
    if not want or not version or version == want:
        return ""
    return f"version skew: semantics.md was verified on {want}, this is {version}"
