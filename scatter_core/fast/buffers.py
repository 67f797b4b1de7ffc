"""Warm memory for large results: a small pool of freed output buffers.

A new 48 MB array costs more than its copy (the kernel maps, faults and zeroes every page on first touch);
onnxruntime avoids that with an arena. This pool does the same for ``scatter()``'s new results, bounded:

* only results of at least :data:`MIN_BYTES` are pooled;
* a freed block returns to the pool, which keeps at most :data:`MAX_BUFFERS` blocks and :data:`MAX_BYTES`
  (least recently freed dropped first);
* a block not taken again within :data:`KEEP_SECONDS` is freed;
* :func:`release` frees everything; ``MAX_BYTES = 0`` turns the pool off.

A pooled result is an ordinary writeable, aligned, C-contiguous ``ndarray`` that does not own its memory
(``base`` is a :class:`Block`), so ``ndarray.resize`` in place is refused.
More: docs/architecture.md, scatter_core/fast/buffers.py.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections import deque

import numpy as np

MIN_BYTES = 8 * 2**20
MAX_BUFFERS = 2
MAX_BYTES = 512 * 2**20
KEEP_SECONDS = 5.0

# Reentrant: a block's finalizer can run inside a garbage collection that starts while this
# thread holds the lock.
_lock = threading.RLock()
_free: deque[tuple[float, np.ndarray]] = deque()  # (time freed, raw uint8 block), oldest first
_stats = {"hits": 0, "misses": 0, "bytes": 0}
_timer: threading.Timer | None = None


class Block:
    """The owner of a pooled result's memory; NumPy arrays built on it keep it alive."""

    __slots__ = ("__array_interface__", "__weakref__")

    def __init__(self, raw: np.ndarray, shape: tuple[int, ...], dtype: np.dtype):
        self.__array_interface__ = {
            "shape": tuple(shape), "typestr": dtype.str, "version": 3,
            "data": (raw.ctypes.data, False),  # False: writeable
        }
        # the block's memory goes back to the pool when the last array using it is gone
        weakref.finalize(self, _give_back, raw).atexit = False


def empty(shape, dtype) -> np.ndarray:
    """An uninitialised C-contiguous array, from a freed block of the same size when there is one."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if nbytes < MIN_BYTES or MAX_BYTES <= 0 or dtype.hasobject:
        return np.empty(shape, dtype=dtype)
    raw = _take(nbytes)
    if raw is None:
        raw = np.empty(nbytes, dtype=np.uint8)
    return np.asarray(Block(raw, shape, dtype))


def _take(nbytes: int) -> np.ndarray | None:
    with _lock:
        for i in range(len(_free) - 1, -1, -1):
            if _free[i][1].nbytes == nbytes:
                raw = _free[i][1]
                del _free[i]
                _stats["bytes"] -= nbytes
                _stats["hits"] += 1
                return raw
        _stats["misses"] += 1
    return None


def _give_back(raw: np.ndarray) -> None:
    with _lock:
        if MAX_BYTES <= 0 or raw.nbytes > MAX_BYTES:
            return
        _free.append((time.monotonic(), raw))
        _stats["bytes"] += raw.nbytes
        while len(_free) > MAX_BUFFERS or _stats["bytes"] > MAX_BYTES:
            _stats["bytes"] -= _free.popleft()[1].nbytes
        _arm_expiry()


def _arm_expiry() -> None:
    """Start the timer that frees the oldest block when it has been idle KEEP_SECONDS (lock held)."""
    global _timer
    if _timer is not None or not _free:
        return
    wait = max(KEEP_SECONDS - (time.monotonic() - _free[0][0]), 0.0)
    timer = threading.Timer(wait, _expire)
    timer.daemon = True
    try:
        timer.start()
    except RuntimeError:  # no new threads while the interpreter shuts down: keep nothing
        _free.clear()
        _stats["bytes"] = 0
        return
    _timer = timer


def _expire() -> None:
    global _timer
    with _lock:
        _timer = None
        now = time.monotonic()
        while _free and now - _free[0][0] >= KEEP_SECONDS:
            _stats["bytes"] -= _free.popleft()[1].nbytes
        _arm_expiry()


def release() -> int:
    """Free every block the pool holds; returns the bytes released."""
    global _timer
    with _lock:
        held = _stats["bytes"]
        _free.clear()
        _stats["bytes"] = 0
        if _timer is not None:
            _timer.cancel()
            _timer = None
    return held


def stats() -> dict[str, int]:
    """Blocks and bytes held, and how many requests a freed block served (hits) or not (misses)."""
    with _lock:
        return {"blocks": len(_free), **_stats}


def _after_fork_in_child() -> None:
    global _timer
    _timer = None  # the parent's timer thread doesn't exist here (nothing to cancel)
    release()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
