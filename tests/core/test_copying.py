"""scatter_core.fast.copying: the copy of data into the output, shared among cores.

* ``copy_plan`` covers every element exactly once, and streams (whole ranges of at least the
  threshold) exactly when the copy is long enough;
* every plan shape copies the same bytes as ``np.copyto``, and so does ``copy_into`` for
  overlapping, strided and small arrays;
* the threshold is read from glibc itself (a ``GLIBC_TUNABLES`` override shows), and every way
  of failing to read it falls back to chunks;
* ``copy_later`` copies while the caller works and is done when ``finish()`` returns; outputs of
  one source are filled piece by piece from the first (same bytes);
* a forked child can still copy (the parent's pool threads don't exist there).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scatter_core.fast import copying
from scatter_core.fast.copying import (CHUNK_BYTES, PARALLEL_BYTES, STREAM_MARGIN, copy_into, copy_later,
                                  copy_plan, parse_tunables, run_plan)
from tests.support.skipping import skip_or_fail
from tests.support.profiles import examples

ROOT = Path(__file__).resolve().parents[2]

MiB = 2**20


def covers_once(ranges, size) -> bool:
    """The ranges, in the order given, are back to back from 0 to size."""
    at = 0
    for a, b in ranges:
        if a != at or b <= a:
            return False
        at = b
    return at == size


@settings(max_examples=examples(400), deadline=None)
@given(size=st.integers(0, 3 * 10**8), itemsize=st.sampled_from([1, 2, 4, 8]), n_workers=st.integers(1, 4),
       threshold=st.none() | st.integers(MiB, 400 * MiB))
def test_plan_covers_every_element_once_and_streams_when_long_enough(size, itemsize, n_workers, threshold):
    ranges = copy_plan(size, itemsize, n_workers, threshold)
    assert covers_once(ranges, size)
    nbytes = size * itemsize
    if size and (n_workers < 2 or nbytes < PARALLEL_BYTES):
        assert ranges == [(0, size)]
        return
    streamed = [(a, b) for a, b in ranges if threshold is not None and (b - a) * itemsize >= threshold]
    chunked = [(a, b) for a, b in ranges if (a, b) not in streamed]
    assert all((b - a) * itemsize <= CHUNK_BYTES for a, b in chunked)
    assert ranges[:len(streamed)] == streamed  # streamed pieces are taken first
    should_stream = threshold is not None and nbytes >= threshold * STREAM_MARGIN
    assert bool(streamed) == should_stream
    assert len(streamed) <= n_workers
    if should_stream and nbytes >= n_workers * (threshold + itemsize):
        assert len(streamed) == n_workers and not chunked  # every worker streams one part
    if should_stream and len(streamed) < n_workers:
        assert len(streamed) == nbytes // ((-(-threshold // itemsize)) * itemsize)


def test_plan_shapes_on_the_spec_workloads():
    """The ND layer (144 MB float32) on the project VM's 99 MiB threshold: one streamed piece, then chunks."""
    size, threshold = 1000 * 256 * 10 * 15, 0x6300000
    ranges = copy_plan(size, 4, 2, threshold)
    assert ranges[0] == (0, threshold // 4) and all((b - a) * 4 <= CHUNK_BYTES for a, b in ranges[1:])
    assert copy_plan(size, 4, 2, None) == copy_plan(size, 4, 2, 300 * MiB)  # AMD's 288 MB: chunks only
    assert copy_plan(size, 4, 2, 60 * MiB) == [(0, size // 2), (size // 2, size)]  # two streamed halves
    ex6 = 1000 * 256 * 7 * 7  # 48 MB: under any threshold seen so far
    assert all((b - a) * 4 <= CHUNK_BYTES for a, b in copy_plan(ex6, 4, 2, 0x6300000))


@pytest.mark.parametrize("threshold", [None, 9 * MiB, 13 * MiB, 40 * MiB])
@pytest.mark.parametrize("dtype", ["float32", "int8", "bool", "float64"])
def test_every_plan_shape_copies_the_same_bytes(monkeypatch, threshold, dtype):
    """None and 40 MiB: chunks only; 13 MiB: one streamed piece then chunks; 9 MiB: two streamed halves."""
    monkeypatch.setattr(copying, "streaming_threshold", lambda: threshold)
    monkeypatch.setattr(copying, "workers", lambda: 2)
    seen = []
    real_run_plan = copying.run_plan
    monkeypatch.setattr(copying, "run_plan", lambda d, s, r, n: (seen.append(r), real_run_plan(d, s, r, n)))
    itemsize = np.dtype(dtype).itemsize
    src = (np.arange(20 * MiB // itemsize + 7) % 251).astype(dtype)
    out = np.zeros_like(src)
    copy_into(out, src)
    assert out.tobytes() == src.tobytes()
    streamed = [r for r in seen[0] if threshold and (r[1] - r[0]) * itemsize >= threshold]
    assert len(streamed) == {None: 0, 9 * MiB: 2, 13 * MiB: 1, 40 * MiB: 0}[threshold]


def test_copy_into_overlapping_strided_and_small_arrays():
    buf = np.arange(PARALLEL_BYTES // 4 * 3, dtype=np.float32)  # overlapping source and destination
    want = buf[: buf.size - 1000].copy()
    copy_into(buf[1000:], buf[: buf.size - 1000])
    assert buf[1000:].tobytes() == want.tobytes()
    strided = np.arange(40).reshape(4, 10)[:, ::2]  # not contiguous: NumPy's own copy
    out = np.empty(strided.shape, strided.dtype)
    copy_into(out, strided)
    assert out.tolist() == strided.tolist()
    small = np.arange(10, dtype=np.int16)
    out = np.empty_like(small)
    copy_into(out, small)
    assert out.tolist() == small.tolist()


def test_run_plan_on_one_thread_and_empty_plans():
    src = np.arange(1000, dtype=np.int64)
    dst = np.zeros_like(src)
    run_plan(dst, src, [(0, 300), (300, 1000)], 1)
    assert np.array_equal(dst, src)
    run_plan(dst, src, [], 2)  # nothing to copy is not an error
    assert copy_plan(0, 4, 2, 0x6300000) == []


@pytest.mark.parametrize("fan_out", [7 * 4096, 3 * MiB, 64 * MiB])  # pieces: odd, within a chunk, a whole chunk
def test_copy_later_copies_while_the_caller_works_and_fans_one_source_out(monkeypatch, fan_out):
    monkeypatch.setattr(copying, "workers", lambda: 2)
    monkeypatch.setattr(copying, "FAN_OUT_BYTES", fan_out)
    src = (np.arange(20 * MiB // 4 + 13) % 1009).astype(np.float32)
    other = np.arange(PARALLEL_BYTES // 8 + 5, dtype=np.int64)
    outs = [np.zeros_like(src), np.zeros_like(src), np.zeros_like(other)]
    small, small_out = np.arange(10, dtype=np.int16), np.zeros(10, dtype=np.int16)
    strided = np.arange(40).reshape(4, 10)[:, ::2]
    strided_out = np.empty(strided.shape, strided.dtype)
    finish = copy_later([(outs[0], src), (outs[1], src), (outs[2], other), (small_out, small),
                         (strided_out, strided)])
    assert small_out.tolist() == small.tolist() and strided_out.tolist() == strided.tolist()  # made at once
    finish()
    assert outs[0].tobytes() == outs[1].tobytes() == src.tobytes() and outs[2].tobytes() == other.tobytes()
    finish()  # calling it again is harmless


def test_copy_later_on_one_core_or_with_nothing_to_share_copies_at_once(monkeypatch):
    monkeypatch.setattr(copying, "workers", lambda: 1)
    src = np.arange(PARALLEL_BYTES // 4 + 1, dtype=np.float32)
    out = np.zeros_like(src)
    copy_later([(out, src)])  # before finish(): nothing is left to do
    assert out.tobytes() == src.tobytes()
    copy_later([])()


def test_parse_tunables():
    listing = ("glibc.cpu.x86_rep_movsb_threshold: 0x840 (min: 0x200, max: 0xffffffffffffffff)\n"
               "glibc.cpu.x86_non_temporal_threshold: 0x6300000 (min: 0x4040, max: 0xfffffffffffffff)\n")
    assert parse_tunables(listing) == 0x6300000 == 103_809_024
    assert parse_tunables("glibc.cpu.x86_non_temporal_threshold: 12345\n") == 12345
    assert parse_tunables("glibc.cpu.x86_non_temporal_threshold: 0x0\n") is None
    assert parse_tunables("glibc.malloc.mmap_threshold: 0x0\n") is None  # not on x86, or not listed
    assert parse_tunables("") is None


def _glibc_lists_x86_tunables() -> bool:
    libc = os.confstr("CS_GNU_LIBC_VERSION") if hasattr(os, "confstr") else None
    if not libc or not libc.startswith("glibc ") or platform.machine() not in ("x86_64", "AMD64"):
        return False
    major, minor = (int(x) for x in libc.split()[1].split(".")[:2])
    return (major, minor) >= (2, 33)  # --list-tunables arrived in glibc 2.33


@pytest.fixture
def fresh_threshold():
    copying.streaming_threshold.cache_clear()
    yield copying.streaming_threshold
    copying.streaming_threshold.cache_clear()


def test_threshold_is_read_from_glibc_and_follows_glibc_tunables(fresh_threshold, monkeypatch):
    if not _glibc_lists_x86_tunables():  # another libc or CPU, or glibc < 2.33: nothing to read, chunks only
        assert fresh_threshold() is None
        return
    assert fresh_threshold() > 0
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.cpu.x86_non_temporal_threshold=0x5000000")
    fresh_threshold.cache_clear()
    assert fresh_threshold() == 0x5000000


@pytest.mark.parametrize("loader", [None, "/nonexistent/ld-linux.so.2", "/bin/false"])
def test_unreadable_threshold_means_chunks(fresh_threshold, monkeypatch, loader):
    monkeypatch.setattr(copying, "loader_path", lambda: loader)
    assert fresh_threshold() is None
    assert all((b - a) * 4 <= CHUNK_BYTES for a, b in copy_plan(50 * 2**20, 4, 2, fresh_threshold()))


FORKED_COPY = """
import os, sys, time
import numpy as np
from scatter_core.fast.copying import PARALLEL_BYTES, copy_into
src = (np.arange(3 * PARALLEL_BYTES // 4) % 97).astype(np.float32)
copy_into(np.empty_like(src), src)  # the parent's pool now has threads
pid = os.fork()
if pid == 0:  # the child: its pool must be new, or submit() waits for a thread that isn't there
    ok = False
    try:
        out = np.zeros_like(src)
        copy_into(out, src)
        ok = out.tobytes() == src.tobytes()
    finally:
        os._exit(0 if ok else 1)
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        sys.exit(0 if os.waitstatus_to_exitcode(status) == 0 else 3)
    time.sleep(0.05)
os.kill(pid, 9)
os.waitpid(pid, 0)
sys.exit(4)
"""


def test_a_forked_child_can_still_copy():  # forking a threaded process is the very case under test
    """A process whose copy pool has threads forks; the child copies. It runs in a fresh interpreter, which holds
    only the pool's threads: a test worker may hold other libraries' threads too (JAX's), and a fork that copies one
    of their locks held could hang the child for a reason that is not the pool's."""
    if not hasattr(os, "fork"):
        skip_or_fail("this platform has no fork")
    run = subprocess.run([sys.executable, "-c", FORKED_COPY],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode != 4, "the forked child's copy did not finish within 60 s"
    assert run.returncode != 3, "the forked child's copy was wrong or failed"
    assert run.returncode == 0, run.stderr[-2000:]


def test_workers_follow_the_cpus_this_process_may_use():
    if not hasattr(os, "sched_setaffinity"):
        skip_or_fail("this platform has no CPU affinity")
    import subprocess
    import sys

    code = ("import os; from scatter_core.fast import copying; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
            "print(copying.workers())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "1"
    assert copying.workers() == min(len(os.sched_getaffinity(0)), copying.MAX_WORKERS)


def test_sessions_starting_their_first_copy_together_share_one_pool(monkeypatch):
    import threading
    from concurrent.futures import ThreadPoolExecutor

    made = []

    class CountingPool(ThreadPoolExecutor):
        def __init__(self, *args, **kwargs):
            made.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(copying, "ThreadPoolExecutor", CountingPool)
    copying.forget_pool()
    monkeypatch.setattr(copying, "workers", lambda: 2)
    src = (np.arange(3 * PARALLEL_BYTES // 4) % 89).astype(np.float32)
    outs = [np.zeros_like(src) for _ in range(8)]
    start = threading.Barrier(len(outs))

    def session(out):
        start.wait()
        copy_into(out, src)

    threads = [threading.Thread(target=session, args=(o,)) for o in outs]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert all(out.tobytes() == src.tobytes() for out in outs)
    assert len(made) == 1
    made[0].shutdown(wait=True)
    copying.forget_pool()  # the next copy, in any later test, makes a fresh pool
