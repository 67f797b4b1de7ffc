"""Copying data into the output: most of a large scatter's time (about 95% on the spec's large examples).

:func:`copy_plan` lays a copy out in element ranges taken in turn by this thread and a small pool (one core
rarely uses all the memory bandwidth; NumPy releases the GIL while it copies). When the copy is large enough,
the first ranges are whole pieces of at least glibc's ``x86_non_temporal_threshold``, each one streaming
``memcpy``; the rest is 4 MB chunks for whichever thread is free. The threshold is read once per process from
the dynamic loader's ``--list-tunables``; where it can't be read, every range is a chunk (always correct,
only sometimes slower). The bytes copied are the same in every case.

Why, and the measurements behind :data:`STREAM_MARGIN`: docs/architecture.md, scatter_core/fast/copying.py.
"""

from __future__ import annotations

import functools
import os
import queue
import re
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numpy as np

PARALLEL_BYTES = 8 * 2**20  # below this one thread copies faster than two can start
CHUNK_BYTES = 4 * 2**20
# Streamed pieces only when the copy is at least this many thresholds long: the threads
# left with chunks need enough work to finish beside the streamed piece (measured crossover
# about 1.06 thresholds; below it, chunks on every core are faster).
STREAM_MARGIN = 9 / 8
MAX_WORKERS = 4
POOL_THREADS = MAX_WORKERS - 1  # with the calling thread, MAX_WORKERS copy at once
FAN_OUT_BYTES = 1 * 2**20  # copy_later: a source read once, in pieces the cache holds, for all its outputs

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()  # the app's sessions may make their first large copy at the same time
_TUNABLE = re.compile(r"^glibc\.cpu\.x86_non_temporal_threshold:\s*(0x[0-9a-fA-F]+|\d+)", re.MULTILINE)


def workers() -> int:
    """Threads a large copy is shared among (this one included): the cores this process may run on, at most 4."""
    try:
        cores = len(os.sched_getaffinity(0))  # honours taskset and container cpusets
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


def parse_tunables(text: str) -> int | None:
    """The non-temporal threshold in bytes from ``ld.so --list-tunables`` output, or None."""
    match = _TUNABLE.search(text)
    if match is None:
        return None
    value = int(match.group(1), 0)
    return value if value > 0 else None


def loader_path() -> str | None:
    """The dynamic loader mapped into this process (Linux), e.g. ``/lib64/ld-linux-x86-64.so.2``."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                path = line.rstrip("\n").split(None, 5)[-1]
                if os.path.basename(path).startswith("ld-linux") and os.path.isfile(path):
                    return path
    except OSError:
        return None
    return None


@functools.cache
def streaming_threshold() -> int | None:
    """Bytes from which one glibc ``memcpy`` call streams, or None where that can't be read.

    Read once per process by running the loader with ``--list-tunables`` (an argument list,
    no shell, a 5 s limit). The child inherits this process's environment, so a
    ``GLIBC_TUNABLES`` setting is reflected.
    """
    loader = loader_path()
    if loader is None:
        return None
    try:
        done = subprocess.run([loader, "--list-tunables"], capture_output=True, text=True, timeout=5,
                              check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    return parse_tunables(done.stdout) if done.returncode == 0 else None


def copy_plan(size: int, itemsize: int, n_workers: int, threshold: int | None) -> list[tuple[int, int]]:
    """Element ranges ``(start, stop)`` covering ``[0, size)`` once, in the order threads take them.

    * Fewer than two workers or fewer than :data:`PARALLEL_BYTES`: one range (one call).
    * No known threshold, or under :data:`STREAM_MARGIN` thresholds: 4 MB chunks.
    * At least ``n_workers`` thresholds: one equal part per worker, each one streaming call.
    * In between: as many streamed pieces of one threshold as fit (fewer than the workers),
      then 4 MB chunks for the threads without a piece.
    """
    nbytes = size * itemsize
    if size == 0:
        return []
    if n_workers < 2 or nbytes < PARALLEL_BYTES:
        return [(0, size)]
    step = max(CHUNK_BYTES // itemsize, 1)
    if threshold is None or nbytes < threshold * STREAM_MARGIN:
        return _chunks(0, size, step)
    piece = -(-threshold // itemsize)  # elements in one streamed call (at least the threshold)
    k = min(n_workers, size // piece)
    if k == n_workers:  # every worker streams one part; size // n_workers >= piece
        bounds = [size * i // n_workers for i in range(n_workers + 1)]
        return list(zip(bounds[:-1], bounds[1:]))
    pieces = [(i * piece, (i + 1) * piece) for i in range(k)]
    return pieces + _chunks(k * piece, size, step)


def _chunks(start: int, stop: int, step: int) -> list[tuple[int, int]]:
    return [(a, min(a + step, stop)) for a in range(start, stop, step)]


def _shared_ranges(out: np.ndarray, src: np.ndarray, n_workers: int) -> list[tuple[int, int]] | None:
    """The ranges :func:`copy_into` shares among ``n_workers`` threads, or None when it copies in one call
    (small, one worker, other layouts, mixed dtypes or shapes, overlapping arrays: NumPy's own copy
    handles those)."""
    if (src.nbytes < PARALLEL_BYTES or n_workers < 2 or not src.flags.c_contiguous
            or not out.flags.c_contiguous or src.dtype != out.dtype or src.shape != out.shape
            or np.shares_memory(out, src)):  # overlapping ranges would race
        return None
    return copy_plan(src.size, src.itemsize, n_workers, streaming_threshold())


def copy_into(out: np.ndarray, src: np.ndarray) -> None:
    """``np.copyto(out, src)`` shared among the cores for large C-contiguous arrays (same bytes).

    Ranges from :func:`copy_plan` go into one queue; this thread and the pool threads take
    them in turn until none is left, so a thread that starts late doesn't hold up the end.
    Overlapping arrays, other layouts and mixed dtypes use NumPy's own copy, which handles them.
    """
    if src.nbytes < PARALLEL_BYTES:  # most calls: small tensors, one plain copy
        np.copyto(out, src)
        return
    n_workers = workers()
    ranges = _shared_ranges(out, src, n_workers)
    if ranges is None:
        np.copyto(out, src)
        return
    run_plan(out.reshape(-1), src.reshape(-1), ranges, n_workers)


def run_plan(dst: np.ndarray, src: np.ndarray, ranges: list[tuple[int, int]], n_workers: int) -> None:
    """Copy each range of flat ``src`` into flat ``dst``, ranges taken in order by up to ``n_workers`` threads."""
    if len(ranges) <= 1 or n_workers < 2:
        for a, b in ranges:
            np.copyto(dst[a:b], src[a:b])
        return
    _start([(src, [dst], ranges)], min(n_workers, len(ranges)) - 1)()


CopyJob = tuple[np.ndarray, list[np.ndarray], list[tuple[int, int]]]  # (flat src, flat outs, ranges)


def copy_later(pairs: list[tuple[np.ndarray, np.ndarray]]) -> Callable[[], None]:
    """Start ``np.copyto(out, src)`` for each ``(out, src)`` on the pool threads; returns ``finish``.

    For a caller with work of its own that doesn't need the copies (the trace computes its
    records while data is copied twice): the pool copies while the caller works, then
    ``finish()`` copies what is left on the calling thread too and waits until every copy is
    done. Call it before reading any ``out`` (and call it even if the work fails). Copies
    :func:`copy_into` would not share out, and all of them on a single core, are made at once.
    Outputs of one source are filled together, a cache-sized piece at a time: each piece is
    read from memory once and copied on from the cache (:data:`FAN_OUT_BYTES`).
    """
    n_workers = workers()
    shared: dict[int, CopyJob] = {}  # by id(src)
    for out, src in pairs:
        ranges = _shared_ranges(out, src, n_workers)
        if ranges is None:
            np.copyto(out, src)
        elif id(src) in shared:
            shared[id(src)][1].append(out.reshape(-1))
        else:
            shared[id(src)] = (src.reshape(-1), [out.reshape(-1)], ranges)
    if not shared:
        return lambda: None
    jobs = list(shared.values())
    # the caller is busy until finish(): every worker's share goes to a pool thread
    return _start(jobs, min(n_workers, POOL_THREADS, sum(len(r) for _, _, r in jobs)))


def _fan_out(outs: list[np.ndarray], src: np.ndarray) -> None:
    """``np.copyto(out, src)`` for every out: the first from ``src``, the others from the first, piece by piece."""
    if len(outs) == 1:
        np.copyto(outs[0], src)
        return
    step = max(FAN_OUT_BYTES // src.itemsize, 1)
    for a in range(0, src.size, step):
        first = outs[0][a:a + step]
        np.copyto(first, src[a:a + step])
        for out in outs[1:]:
            np.copyto(out[a:a + step], first)


def _start(jobs: list[CopyJob], helpers: int) -> Callable[[], None]:
    """Queue every range of every (flat src, flat outs, ranges) job, start ``helpers`` pool threads on
    the queue, and return ``finish``: take ranges on this thread until none is left, then wait."""
    todo: queue.SimpleQueue = queue.SimpleQueue()
    for src, outs, ranges in jobs:
        for a, b in ranges:
            todo.put(([o[a:b] for o in outs], src[a:b]))

    def work() -> None:
        while True:
            try:
                outs, s = todo.get_nowait()
            except queue.Empty:
                return
            _fan_out(outs, s)

    pool = _get_pool()
    started = [pool.submit(work) for _ in range(helpers)]

    def finish() -> None:
        work()
        for job in started:
            job.result()

    return finish


def _get_pool() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=POOL_THREADS, thread_name_prefix="scatter-copy")
        return _pool


def forget_pool() -> None:
    """Forget the copy threads' pool: the next parallel copy makes a new one (tests count the pools made)."""
    global _pool
    with _pool_lock:
        _pool = None


def _after_fork_in_child() -> None:
    global _pool, _pool_lock
    _pool = None  # the parent's pool threads don't exist in the child: submitting there would hang
    _pool_lock = threading.Lock()  # and the lock may have been held by one of them at the fork


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
