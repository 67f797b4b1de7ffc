"""scatter_ui.state.cache: the byte-bounded LRU store with a time to live that every cached builder uses."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import scatter_core as sc
from scatter_ui.state import cache
from scatter_ui.state.cache import BoundedCache, nbytes_of
from tests.support.apptest_helpers import open_page


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


MB = 2**20


def test_nbytes_counts_buffers_once_and_skips_shared_values():
    a = np.zeros(MB, dtype=np.uint8)
    assert MB <= nbytes_of(a) < MB + 1024
    assert MB <= nbytes_of([a, a[10:], a.reshape(1024, 1024)]) < MB + 4096  # views share the base
    assert nbytes_of("x" * MB) >= MB
    found = []
    holder = {"trace": a, "own": np.zeros(10)}
    assert nbytes_of(holder, shared=(np.ndarray,), found=found) < 4096
    assert {id(x) for x in found} == {id(a), id(holder["own"])}


def test_least_recently_used_entries_go_first_when_the_budget_is_exceeded():
    store = BoundedCache(max_bytes=3.5 * MB, ttl=60, clock=Clock())
    for name in "abc":
        store.get(name, lambda: np.zeros(MB, dtype=np.uint8))
    store.get("a", lambda: pytest.fail("a is cached"))  # a is now the most recently used
    store.get("d", lambda: np.zeros(MB, dtype=np.uint8))
    assert set(store.keys()) == {"c", "a", "d"} and store.evictions == 1
    assert store.bytes == store.measured_bytes() <= store.max_bytes
    store.get("huge", lambda: np.zeros(4 * MB, dtype=np.uint8))  # larger than the budget: not kept
    assert "huge" not in store.keys() and store.bytes <= store.max_bytes


def test_entries_expire_after_their_time_to_live():
    clock = Clock()
    store = BoundedCache(max_bytes=10 * MB, ttl=60, clock=clock)
    store.get("a", lambda: np.zeros(MB, dtype=np.uint8))
    clock.now += 50
    store.get("b", lambda: np.zeros(MB, dtype=np.uint8))
    store.get("a", lambda: pytest.fail("a is still fresh"))  # use renews the time to live
    clock.now += 55
    assert store.sweep() == 0
    clock.now += 10  # b unused for 65 s, a for 65 s
    assert store.sweep() == 2 and store.bytes == 0 and len(store) == 0


def test_a_failure_is_cached_and_raised_again_like_a_result():
    store = BoundedCache(max_bytes=MB, ttl=60, clock=Clock())
    calls = []

    def build():
        calls.append(1)
        raise sc.ScatterError("data: the text is empty", argument="data", rule="empty")

    for _ in range(3):
        with pytest.raises(sc.ScatterError, match="data: the text is empty") as info:
            store.get("t", build)
        assert info.value.argument == "data"
    assert len(calls) == 1


def test_a_text_is_parsed_once_whether_it_parses_or_not():
    text = "[" + "[]," * 600_000 + "]"  # 1.8 MB of empty lists
    cache.STORE.clear()
    with pytest.raises(sc.ScatterError, match="brackets, commas and numbers"):
        cache.parse_text("data", text)
    before = dict(cache.STORE.stats())
    with pytest.raises(sc.ScatterError, match="brackets, commas and numbers"):
        cache.parse_text("data", text)
    assert cache.STORE.stats()["entries"] == before["entries"] == 1
    arr = cache.parse_text("indices", "[[0], [1]]")
    assert cache.parse_text("indices", "[[0], [1]]") is arr and not arr.flags.writeable


def test_sessions_asking_together_build_once():
    store = BoundedCache(max_bytes=10 * MB, ttl=60)
    calls, barrier = [], threading.Barrier(8)

    def build():
        calls.append(1)
        return np.zeros(1000)

    results = []

    def ask():
        barrier.wait()
        results.append(store.get("k", build))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and len({id(r) for r in results}) == 1


class Holder:
    def __init__(self, trace):
        self.trace = trace
        self.own = np.zeros(MB // 8)


def test_a_value_held_by_another_entry_is_counted_once_and_dropped_with_it():
    store = BoundedCache(max_bytes=10 * MB, ttl=60, clock=Clock())
    big = store.get("trace", lambda: np.zeros(4 * MB, dtype=np.uint8))
    store.get("figure", lambda: Holder(big), shared=(np.ndarray,))
    fig_bytes = store._entries["figure"].nbytes
    assert fig_bytes < 4 * MB  # its trace is the other entry's
    assert store.bytes == store.measured_bytes() < 6 * MB
    store.drop("trace")
    assert len(store) == 0 and store.bytes == 0  # the figure went with it: nothing kept alive unaccounted
    # a holder of an uncached value pays for it
    store.get("figure2", lambda: Holder(np.zeros(4 * MB, dtype=np.uint8)), shared=(np.ndarray,))
    assert store._entries["figure2"].nbytes >= 4 * MB


class Growing:
    """A value that fills a cache of its own after it was handed out (a trace's lazy views)."""

    def __init__(self):
        self.views = []

    def fill(self):
        self.views.append(np.zeros(MB // 8))  # 1 MB


class Viewer:
    """A value holding a cached Growing (a figure holding its trace), filling it as it is used."""

    def __init__(self, growing):
        self.growing = growing


def test_a_value_that_grows_after_a_sweep_is_measured_again_by_later_sweeps():
    clock = Clock()
    store = BoundedCache(max_bytes=100 * MB, ttl=600, clock=clock)
    g = store.get("g", Growing, grows=True)
    clock.now += 1
    store.sweep()  # a sweep while the page run that got it is still going
    g.fill()  # the run goes on filling it
    clock.now += cache.SWEEP_SECONDS
    store.sweep()
    assert store.bytes == store.measured_bytes() and store.bytes > MB
    clock.now += cache.GROW_SECONDS
    store.sweep()
    assert not store._entries["g"].dirty  # long unused: no more re-measuring


def test_using_a_value_that_holds_a_cached_one_keeps_that_one_alive_and_measured():
    clock = Clock()
    store = BoundedCache(max_bytes=100 * MB, ttl=100, clock=clock)
    g = store.get("trace", Growing, grows=True)
    store.get("figure", lambda: Viewer(g), shared=(Growing,), grows=True)
    for _ in range(3):  # the figure is used every 60 s; its trace is never asked for again
        clock.now += 60
        v = store.get("figure", lambda: pytest.fail("rebuilt"), shared=(Growing,), grows=True)
        v.growing.fill()
        clock.now += 1
        store.sweep()
    assert "trace" in store.keys() and "figure" in store.keys()  # no expiry under a figure in use
    assert store.bytes == store.measured_bytes() and store.bytes >= 3 * MB  # what the figure filled is counted


def test_the_same_case_typed_as_text_or_picked_as_an_example_builds_one_trace(monkeypatch):
    import spec_examples
    from scatter_ui.parts.controls import tensor_text

    cache.STORE.clear()
    built = []
    real_trace = sc.Case.trace
    monkeypatch.setattr(sc.Case, "trace", lambda self: built.append(self.key) or real_trace(self))
    ex = spec_examples.by_id("onnx-scatterelements-18-example-2")
    attrs = (("axis", 1), ("reduction", "add"))
    texts = tuple(tensor_text(a) for a in ex.inputs)
    picked = cache.trace_for(ex.op, ex.id, None, attrs)
    typed = cache.trace_for(ex.op, None, texts, attrs)
    assert typed is picked and len(built) == 1  # two ways in, two cases, one trace
    by_text, by_example = cache.case_for(ex.op, None, texts, attrs), cache.case_for(ex.op, ex.id, None, attrs)
    assert by_text is not by_example and by_text.key == by_example.key
    figure = cache.step_figure(by_text, True, ())
    assert cache.step_figure(by_example, True, ()) is figure and figure.trace is picked
    assert cache.step_figure(by_example, False, ((0, 1),)) is not figure  # the figure's own options count
    assert cache.step_table_csv(by_example) is cache.step_table_csv(by_text)
    assert cache.step_table_csv(by_text).splitlines()[0].startswith("step,")
    other = cache.trace_for(ex.op, ex.id, None, (("axis", 1), ("reduction", "mul")))
    assert other is not picked and len(built) == 2
    assert len(built) == len(set(built)) == 2  # no trace was built twice
    # the store still accounts for what it keeps: the figure's trace counted once, in its own entry
    assert abs(cache.STORE.measured_bytes() - cache.STORE.bytes) <= 64 * 1024


def test_an_examples_inputs_are_counted_once_however_many_cases_use_them():
    import spec_examples

    cache.STORE.clear()
    ex = spec_examples.by_id("ov-scatter-elements-update-12-example-6")  # data: 48 MB
    cases = [cache.case_for(ex.op, ex.id, None, (("axis", 0), ("reduction", r))) for r in ("sum", "max", "mean")]
    assert all(c.data is cases[0].data for c in cases)  # one read-only array, in an entry of its own
    assert ex.data.nbytes <= cache.STORE.bytes < 1.5 * ex.data.nbytes
    assert abs(cache.STORE.measured_bytes() - cache.STORE.bytes) <= 64 * 1024  # small objects resize as used
    cache.STORE.drop((cache.example_input.cache_name, (ex.id, "data"), ()))
    assert not any(k[0] == cache.built_case.cache_name for k in cache.STORE.keys())  # they went with it


def test_a_refused_case_is_cached_and_refused_again_without_a_trace(monkeypatch):
    cache.STORE.clear()
    monkeypatch.setattr(sc.Case, "trace", lambda self: pytest.fail("a refused case has no trace"))
    texts = ("[[1.0, 2.0]]", "[[0, 5]]", "[[3.0, 4.0]]")  # index 5 on an axis of 2
    for _ in range(2):
        with pytest.raises(sc.ScatterError, match="indices") as info:
            cache.trace_for("ScatterElements-18", None, texts, (("axis", 1),))
        assert info.value.argument == "indices"
    assert cache.STORE.stats()["entries"] == 4  # three parsed texts and the refused case


LARGE_CASES = [  # the sequence: Example 6 with three reductions, the ScatterNDUpdate-15 layer with three
    ("elements", "ScatterElementsUpdate-12", "ov-scatter-elements-update-12-example-6", r) for r in ("sum", "max", "mean")
] + [("nd", "ScatterNDUpdate-15", "ov-scatter-nd-update-15-xml-example-5", r) for r in ("sum", "max", "min")]


@pytest.mark.slow
def test_opening_large_cases_in_turn_keeps_the_cache_within_its_byte_budget(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(cache.STORE, "max_bytes", 900 * MB)
    monkeypatch.setattr(cache.STORE, "clock", clock)
    cache.STORE.clear()
    cache.STORE.peak_bytes = 0
    for page, op, example, reduction in LARGE_CASES:
        at = open_page(page, timeout=300, op=op, example=example, reduction=reduction)
        assert not at.exception and not [e.value for e in at.error if e.icon == "🛑"], (example, reduction)
        clock.now += 5
        cache.STORE.sweep()  # re-measures what grew since it was stored (a figure's frames)
        stats = cache.STORE.stats()
        assert stats["bytes"] <= stats["max_bytes"], (example, reduction, stats)
        # the running total is what the entries hold (to 64 KiB: small objects resize as they are used)
        assert abs(cache.STORE.measured_bytes() - stats["bytes"]) <= 64 * 1024
    stats = cache.STORE.stats()
    assert stats["evictions"] > 0 and stats["peak_bytes"] <= stats["max_bytes"]
    assert stats["bytes"] > 100 * MB  # the latest large case is still cached
    clock.now += cache.TTL_SECONDS + 1  # an idle server
    cache.STORE.sweep()
    assert cache.STORE.stats()["bytes"] == 0 and len(cache.STORE) == 0
    from spec_examples.generate import CACHE as GENERATED

    assert GENERATED.held()  # the large examples' arrays, kept warm beside the store
    cache.release_idle()  # what the sweeper does once the store is empty
    assert not GENERATED.held()
