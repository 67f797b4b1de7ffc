"""The one exception of scatter_models."""

from __future__ import annotations

import scatter_core as sc


class ModelError(sc.ScatterError):
    """A model file that cannot be read, or a capture that cannot run.

    The message names the file, the node or the input, and the rule; ``rule`` is a short id
    (``"empty"``, ``"not-onnx"``, ``"size-limit"``, ``"external-data"``, ``"custom-op"``,
    ``"byte-budget"``, ``"time-limit"``, ``"memory-limit"``, ``"index-range"`` ...).
    """

    def __init__(self, message: str, *, argument: str | None = None, rule: str | None = None,
                 node: str | None = None):
        super().__init__(message, argument=argument, rule=rule)
        self.node = node
