"""scatter_core.fast.buffers: freed large results are reused, never while anything still uses them."""

from __future__ import annotations

import gc
import threading
import time

import numpy as np
import pytest

from scatter_core import scatter
from scatter_core.fast import buffers
from tests.support.reference_loop import reference

BIG = (buffers.MIN_BYTES // 4 + 1024,)  # float32 elements just above the pooling threshold


@pytest.fixture(autouse=True)
def empty_pool():
    # Blocks left in reference cycles by earlier tests in this worker would otherwise come back
    # to the pool at the first gc.collect() inside a test, and be counted as this test's.
    gc.collect()
    buffers.release()
    yield
    gc.collect()
    buffers.release()


def test_small_results_are_plain_arrays():
    a = buffers.empty((3, 4), np.int16)
    assert a.flags.owndata and a.shape == (3, 4) and a.dtype == np.int16


def test_a_freed_block_serves_the_next_request_of_its_size():
    a = buffers.empty(BIG, np.float32)
    assert a.flags.writeable and a.flags.c_contiguous and a.flags.aligned and a.shape == BIG
    address = a.ctypes.data
    del a
    assert buffers.stats()["blocks"] == 1
    b = buffers.empty(BIG, np.float32)
    assert b.ctypes.data == address and buffers.stats()["blocks"] == 0
    c = buffers.empty(BIG, np.float32)  # b is alive: c gets new memory
    assert not np.shares_memory(b, c)
    del b
    other = buffers.empty((BIG[0] + 16,), np.float32)  # another size never takes the freed block
    assert other.ctypes.data != address and buffers.stats()["blocks"] == 1


def test_a_view_keeps_the_block_out_of_the_pool():
    a = buffers.empty(BIG, np.float32)
    address = a.ctypes.data
    view = a[10:20].reshape(2, 5)
    del a
    gc.collect()
    assert buffers.stats()["blocks"] == 0
    b = buffers.empty(BIG, np.float32)
    assert b.ctypes.data != address
    view[...] = 7
    del view
    assert buffers.stats()["blocks"] == 1


def test_pool_is_bounded_and_can_be_released_or_turned_off(monkeypatch):
    arrays = [buffers.empty(BIG, np.float32) for _ in range(buffers.MAX_BUFFERS + 2)]
    del arrays
    assert buffers.stats()["blocks"] == buffers.MAX_BUFFERS
    assert buffers.release() == buffers.MAX_BUFFERS * BIG[0] * 4
    assert buffers.stats()["blocks"] == 0 and buffers.stats()["bytes"] == 0
    monkeypatch.setattr(buffers, "MAX_BYTES", 0)
    a = buffers.empty(BIG, np.float32)
    assert a.flags.owndata
    del a
    assert buffers.stats()["blocks"] == 0


def test_idle_blocks_are_freed_after_keep_seconds(monkeypatch):
    monkeypatch.setattr(buffers, "KEEP_SECONDS", 0.2)
    a = buffers.empty(BIG, np.float32)
    del a
    assert buffers.stats()["blocks"] == 1
    b = buffers.empty(BIG, np.float32)  # taken again in time: still served from the pool
    assert buffers.stats()["hits"] >= 1
    del b
    deadline = time.monotonic() + 5
    while buffers.stats()["blocks"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert buffers.stats()["blocks"] == 0 and buffers.stats()["bytes"] == 0


def test_scatter_results_on_reused_memory_are_right():
    rng = np.random.default_rng(0)
    data = rng.standard_normal(BIG).astype(np.float32)
    indices = rng.integers(0, BIG[0], size=(5000, 1))
    updates = rng.standard_normal(5000).astype(np.float32)
    want = reference("ScatterND-18", data, indices, updates, reduction="add")
    first = scatter("ScatterND-18", data, indices, updates, reduction="add")
    assert first.tobytes() == want.tobytes() and first.base is not None
    first[...] = np.nan  # leave garbage behind in the block
    address = first.ctypes.data
    del first
    again = scatter("ScatterND-18", data, indices, updates, reduction="add")
    assert again.ctypes.data == address and again.tobytes() == want.tobytes()


def test_concurrent_scatters_never_share_a_block():
    data = np.zeros(BIG, np.float32)
    results, errors = {}, []

    def work(k):
        try:
            for _ in range(5):
                r = scatter("ScatterND-18", data, [[k]], np.float32([k + 1]))
                assert r[k] == k + 1 and np.count_nonzero(r) == 1
            results[k] = r
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k, r in results.items():
        assert r[k] == k + 1 and np.count_nonzero(r) == 1
    addresses = {r.ctypes.data for r in results.values()}
    assert len(addresses) == len(results)
