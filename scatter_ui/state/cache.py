"""Cached computations shared by the pages, under one byte budget.

Everything cached here (parsed texts, cases, traces, step figures, figure pages, step tables) lives in one
process-wide :class:`BoundedCache`, with

* a byte budget (:data:`MAX_CACHE_BYTES`, env ``SCATTER_CACHE_MB``): each entry measured when stored
  (:func:`nbytes_of`), least recently used entries dropped until the total fits;
* a time to live (:data:`TTL_SECONDS`, env ``SCATTER_CACHE_IDLE_S``, 180 s), checked by a sweeper thread
  every :data:`SWEEP_SECONDS`, which also closes left sessions (:mod:`scatter_ui.state.reaper`) and gives
  freed memory back (:func:`release_idle`);
* failures cached like successes (the same ``ScatterError`` raised again).

Builders use it through :func:`bounded`. A page's inputs become a :class:`scatter_core.Case` once
(:func:`case_for`), and everything built from a case is keyed by its key (:func:`by_case`), so a case typed
as text and the same example share one trace. How entries are measured: docs/architecture.md, state/cache.py.
"""

from __future__ import annotations

import ctypes
import functools
import gc
import os
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from types import FunctionType, ModuleType
from typing import Callable

import numpy as np

import scatter_core as sc
import spec_examples

from scatter_ui.figures.heatmaps import StepFigure

MAX_TEXT_ELEMENTS = 10_000  # typed tensors (and the text editors) stay below this many elements
MAX_CACHE_BYTES = int(float(os.environ.get("SCATTER_CACHE_MB", "1024")) * 2**20)
TTL_SECONDS = max(1.0, float(os.environ.get("SCATTER_CACHE_IDLE_S", "180")))  # an entry unused this long is dropped
SWEEP_SECONDS = min(30.0, TTL_SECONDS / 4)  # how often the sweeper looks for expired entries
GROW_SECONDS = 2 * SWEEP_SECONDS  # a growing value is measured again by every sweep this long after its use


# -- measuring ------------------------------------------------------------------------------------------

_ARRAY_HEADER = 128  # an ndarray object without its buffer, about


def _array_bytes(a: np.ndarray, seen: set) -> int:
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    seen.add(id(a))
    if id(root) in seen and root is not a:
        return _ARRAY_HEADER
    seen.add(id(root))
    return int(root.nbytes) + _ARRAY_HEADER


def nbytes_of(obj, shared: tuple = (), found: list | None = None) -> int:
    """The bytes ``obj`` holds: NumPy buffers (a view's base counted once), strings, containers and
    the attributes of plain objects, each object once. Objects of a ``shared`` type met inside
    ``obj`` (a trace inside a figure) are not counted but appended to ``found``: they are cached,
    and counted, in an entry of their own. Long lists of scalars (a figure's cell values) are
    counted from a sample of their items, at twice the largest sampled size per item."""
    seen: set = set()
    total, stack = 0, [obj]
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        if shared and o is not obj and isinstance(o, shared):
            seen.add(id(o))
            if found is not None:
                found.append(o)
            continue
        if isinstance(o, np.ndarray):
            total += _array_bytes(o, seen)
            continue
        seen.add(id(o))
        if isinstance(o, (type, ModuleType, FunctionType)):
            continue
        total += sys.getsizeof(o)
        if isinstance(o, (str, bytes, bytearray, int, float, bool, complex)) or o is None:
            continue
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, (list, tuple, set, frozenset)):
            items = o if isinstance(o, (list, tuple)) else list(o)
            if len(items) > 64 and all(isinstance(x, _SCALARS) for x in items[:: len(items) // 8][:8]):
                sample = items[:: len(items) // 8][:8]
                if all(isinstance(x, _SCALARS) for x in items):
                    total += len(items) * 2 * max(sys.getsizeof(x) for x in sample)
                    continue
            stack.extend(items)
        else:
            d = getattr(o, "__dict__", None)
            if d is not None:
                stack.append(d)
            for slot in getattr(type(o), "__slots__", ()):
                if hasattr(o, slot):
                    stack.append(getattr(o, slot))
    return total


_SCALARS = (str, int, float, bool, type(None))


# -- the store --------------------------------------------------------------------------------------------

@dataclass
class _Entry:
    ok: bool
    value: object  # the result, or the ScatterError to raise again
    nbytes: int
    expires: float
    grows: bool
    measured: float
    shared: tuple  # the types measured in entries of their own (see nbytes_of)
    refs: frozenset  # ids of cached values (of a shared type) this value holds
    dirty: bool = False  # a growing value handed out since it was last measured (the sweeper measures it again)
    used: float = 0.0  # when it was last handed out (or held by an entry handed out)


class BoundedCache:
    """A thread-safe LRU store bounded by bytes, with a time to live; see the module docstring.

    An entry holding a value cached in another entry (a figure holding its trace) does not count
    that value again, and is dropped with it, so what the store accounts for is what it keeps
    alive."""

    def __init__(self, max_bytes: int = MAX_CACHE_BYTES, ttl: float = TTL_SECONDS, clock=time.monotonic):
        self.max_bytes = int(max_bytes)
        self.ttl = float(ttl)
        self.clock = clock
        self._entries: OrderedDict = OrderedDict()
        self._owner: dict = {}  # id(value) -> key, for the values other entries may hold
        self._building: dict = {}
        self._lock = threading.RLock()
        self.bytes = 0
        self.peak_bytes = 0
        self.evictions = 0
        self.expirations = 0

    def __len__(self) -> int:
        return len(self._entries)

    def _measure(self, key, value, shared: tuple) -> tuple[int, frozenset]:
        found: list = []
        n = nbytes_of((key, value), shared, found)
        refs = set()
        for obj in found:
            if id(obj) in self._owner:
                refs.add(id(obj))
            else:  # not cached on its own (too large, or already dropped): this entry keeps it alive
                n += nbytes_of(obj)
        return n, frozenset(refs)

    def _lookup(self, key, now: float):
        e = self._entries.get(key)
        if e is None:
            return None
        if e.expires <= now:
            self._drop(key)
            self.expirations += 1
            return None
        self._entries.move_to_end(key)
        self._touch(e, now)
        return e

    def _touch(self, e: _Entry, now: float) -> None:
        """``e`` is in use: it lives another ``ttl``, and a growing value is measured again by the
        sweeps of the next GROW_SECONDS (a page run may fill its caches well after it got the value,
        even after a sweep). The cached values it holds (a figure's trace) are in use too: the
        figure may fill their caches, and must not lose them to their own time to live."""
        e.expires, e.used = now + self.ttl, now
        e.dirty = e.dirty or e.grows
        for ref in e.refs:
            owner = self._entries.get(self._owner.get(ref))
            if owner is not None and owner is not e:
                self._touch(owner, now)

    def _remeasure(self, key, e: _Entry, now: float) -> None:
        try:
            new, refs = self._measure(key, e.value, e.shared)
        except RuntimeError:  # a session was adding to the value's own caches meanwhile: next sweep
            return
        e.refs = refs
        self.bytes += new - e.nbytes
        e.nbytes, e.measured = new, now
        e.dirty = now < e.used + GROW_SECONDS
        self._evict(keep=key)

    def _remeasure_dirty(self, now: float) -> None:
        """Growing values handed out since their last measure may have grown: measure them again."""
        for key, e in list(self._entries.items()):
            if e.dirty and key in self._entries:
                self._remeasure(key, e, now)

    def _drop(self, key) -> None:
        e = self._entries.pop(key, None)
        if e is None:
            return
        self.bytes -= e.nbytes
        if self._owner.get(id(e.value)) == key:
            del self._owner[id(e.value)]
            for other in [k for k, d in self._entries.items() if id(e.value) in d.refs]:
                self._drop(other)  # a figure goes with its trace

    def _evict(self, keep=None) -> None:
        """Drop least recently used entries until the total fits (``keep`` last of all)."""
        for key in list(self._entries):
            if self.bytes <= self.max_bytes:
                return
            if key != keep and key in self._entries:
                self._drop(key)
                self.evictions += 1
        if self.bytes > self.max_bytes and keep in self._entries:
            self._drop(keep)
            self.evictions += 1

    def get(self, key, build, shared: tuple = (), grows: bool = False):
        """The cached result of ``build()`` for ``key``, building it (once, even when sessions ask together)
        when absent. A ScatterError from ``build`` is cached and raised again, like a result."""
        with self._lock:
            e = self._lookup(key, self.clock())
            if e is None:
                gate = self._building.setdefault(key, threading.Lock())
        if e is None:
            with gate:
                with self._lock:
                    e = self._lookup(key, self.clock())
                if e is None:
                    e = self._build(key, build, shared, grows)
                with self._lock:
                    self._building.pop(key, None)
        if e.ok:
            return e.value
        raise e.value.with_traceback(None)

    def _build(self, key, build, shared: tuple, grows: bool) -> _Entry:
        try:
            ok, value = True, build()
        except sc.ScatterError as exc:
            ok, value = False, exc.with_traceback(None)
        with self._lock:
            nbytes, refs = self._measure(key, value if ok else str(value), shared if ok else ())
            now = self.clock()
            e = _Entry(ok, value, nbytes, now + self.ttl, grows, now, shared, refs, dirty=grows, used=now)
            if nbytes <= self.max_bytes:
                self._drop(key)
                self._entries[key] = e
                if ok:
                    self._owner[id(value)] = key
                self.bytes += nbytes
                self._evict(keep=key)
            self.peak_bytes = max(self.peak_bytes, self.bytes)
        if nbytes <= self.max_bytes:
            _start_sweeper()
        return e

    def sweep(self, now: float | None = None) -> int:
        """Drop the expired entries and re-measure the growing ones used since; returns how many were dropped."""
        now = self.clock() if now is None else now
        with self._lock:
            expired = [k for k, e in self._entries.items() if e.expires <= now]
            before = len(self._entries)
            for key in expired:
                self._drop(key)
            self._remeasure_dirty(now)
            dropped = before - len(self._entries)
            self.expirations += dropped
        return dropped

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._owner.clear()
            self.bytes = 0

    def keys(self) -> list:
        """The keys held now, least recently used first (a key starts with its function's ``cache_name``)."""
        with self._lock:
            return list(self._entries)

    def drop(self, key) -> None:
        """Drop ``key``'s entry and the entries holding its value (a case goes with its inputs)."""
        with self._lock:
            self._drop(key)

    def measured_bytes(self) -> int:
        """Every entry measured afresh now (tests compare it with the running total and the budget)."""
        with self._lock:
            return sum(self._measure(k, e.value, e.shared)[0] if e.ok else e.nbytes
                       for k, e in self._entries.items())

    def stats(self) -> dict:
        with self._lock:
            return {"entries": len(self._entries), "bytes": self.bytes, "peak_bytes": self.peak_bytes,
                    "max_bytes": self.max_bytes, "evictions": self.evictions, "expirations": self.expirations}


STORE = BoundedCache()
_sweeper: threading.Thread | None = None
_sweeper_lock = threading.Lock()


def _trim_heap() -> None:
    """Hand freed heap pages back to the system (glibc only; elsewhere a no-op)."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


MMAP_THRESHOLD = 1 << 20  # blocks this large or larger get pages of their own, returned when freed


def _fix_mmap_threshold() -> None:
    """glibc serves a block of MMAP_THRESHOLD bytes or more with pages of its own, given back when it
    is freed. Left alone, glibc raises its threshold to the size of each large block freed (to 32 MB),
    so a trace's 1 to 30 MB records came from the heap, where blocks still in use between them kept
    about 100 MB that ``malloc_trim`` could not give back (bench/idle_memory.py: +127 MB idle, +40 MB
    with this). glibc only; elsewhere a no-op."""
    try:
        ctypes.CDLL("libc.so.6").mallopt(-3, MMAP_THRESHOLD)  # M_MMAP_THRESHOLD
    except (OSError, AttributeError):
        pass


_fix_mmap_threshold()


def release_idle() -> None:
    """Once nothing is cached any more (every entry expired: no one has used the app for
    TTL_SECONDS), let go of what the store's builders keep warm beside it: the generated arrays of
    the large examples (regenerated on demand, deterministically) and the pool of freed scatter
    buffers; then collect and hand the freed heap back to the system."""
    from spec_examples.generate import CACHE as GENERATED

    GENERATED.clear()
    sc.release_buffers()
    gc.collect()
    _trim_heap()


def _close_left_sessions() -> int:
    """Close the sessions whose browser left TTL_SECONDS ago (scatter_ui.state.reaper): they hold their
    fragments' cases and traces. Waits (a few seconds at most) for Streamlit's loop to do it."""
    from scatter_ui.state import reaper

    closed: list = []
    done = threading.Event()
    if reaper.reap(TTL_SECONDS, lambda ids: (closed.extend(ids), done.set())):
        done.wait(5)
    return len(closed)


def sweep_once() -> None:
    """One sweep: close the sessions whose browser left, drop the expired entries, and when either
    happened hand the memory back (all of it once the store is empty: :func:`release_idle`)."""
    closed = _close_left_sessions()
    if STORE.sweep() or closed:
        if len(STORE) == 0:
            release_idle()
        else:
            gc.collect()
            _trim_heap()


def _sweep_forever() -> None:
    while True:
        time.sleep(SWEEP_SECONDS)
        try:
            sweep_once()
        except Exception:  # noqa: BLE001 - the sweeper must outlive any one bad sweep
            continue


def _start_sweeper() -> None:
    global _sweeper
    with _sweeper_lock:
        if _sweeper is None or not _sweeper.is_alive():
            _sweeper = threading.Thread(target=_sweep_forever, name="scatter-cache-sweeper", daemon=True)
            _sweeper.start()


def bounded(shared: tuple = (), grows: bool = False, store: BoundedCache | None = None, key=None):
    """Decorator: memoize a function in the byte-bounded store (``STORE`` unless given), keyed by its
    qualified name and arguments (which must be hashable), or by its name and ``key(*args, **kwargs)``
    when given (:func:`by_case`). ``shared``: types of cached values the result may hold (a trace),
    measured in their own entries; ``grows=True`` for results that fill caches of their own after being
    stored (a StepFigure's frame windows), re-measured as they are used. The wrapper's ``cache_name`` is the
    name its entries' keys start with."""
    def wrap(fn):
        name = f"{fn.__module__}.{fn.__qualname__}"

        @functools.wraps(fn)
        def cached(*args, **kwargs):
            parts = key(*args, **kwargs) if key is not None else (args, tuple(sorted(kwargs.items())))
            return (store or STORE).get((name, *parts), lambda: fn(*args, **kwargs), shared=shared, grows=grows)

        cached.cache_name = name
        return cached
    return wrap


def by_case(case: sc.Case, *options, **named) -> tuple:
    """The key of a builder whose first argument is a :class:`scatter_core.Case`: the case's own key
    (its operator, attributes and a digest of its tensors, not the arrays) and the other arguments.
    The same case reached two ways (typed as text, picked as an example) shares one entry."""
    return (case.key, options, tuple(sorted(named.items())))


# -- the cached builders ------------------------------------------------------------------------------------

def _refuse_oversized(name: str, text) -> None:
    """Texts over the parser's limit are refused at once (O(1)) and never become a cache key."""
    if isinstance(text, str) and len(text) > sc.MAX_TEXT:
        sc.parse_tensor(text, name=name)  # raises the ScatterError naming the size and the limit


def parse_text(name: str, text: str, max_elements: int = MAX_TEXT_ELEMENTS) -> np.ndarray:
    """``parse_tensor(text)`` for the input ``name``, parsed once per text (a failure too); read-only."""
    _refuse_oversized(name, text)
    return _parse_text(name, text, max_elements)


@bounded()
def _parse_text(name: str, text: str, max_elements: int) -> np.ndarray:
    arr = sc.parse_tensor(text, name=name, max_elements=max_elements)
    arr.flags.writeable = False
    return arr


def parse_input(spec, role: str, text: str, parse: Callable[[str, str], np.ndarray]):
    """A typed input; an empty indices box is None where the family allows it (left out / not read)."""
    if role == "indices" and not (text or "").strip() and sc.family_of(spec).indices != "required":
        return None
    return parse(role, text)


def inputs_for(example_id: str | None, texts: tuple[str, str, str] | None, op: str | None = None):
    """(data, indices, updates) of an example, or parsed from the three texts (an empty indices text
    is None where ``op``'s family takes None: TensorScatter's write_indices left out, SliceScatter)."""
    if texts is not None:
        spec = sc.OPERATORS.get(op)
        return tuple(parse_text(name, text) if spec is None else parse_input(spec, name, text, parse_text)
                     for name, text in zip(("data", "indices", "updates"), texts))
    return tuple(example_input(example_id, role) for role in ("data", "indices", "updates"))


@bounded()
def example_input(example_id: str, role: str) -> np.ndarray | None:
    """One input of an example, read-only, in an entry of its own: the cases built from it hold this
    very array, so the store counts its bytes once, here, however many attribute sets use it."""
    arr = getattr(spec_examples.by_id(example_id), role)
    if arr is None:
        return None
    view = arr.view()
    view.flags.writeable = False
    return view


def case_for(op: str, example_id: str | None, texts: tuple[str, str, str] | None, attrs: tuple) -> sc.Case:
    """The checked :class:`scatter_core.Case` of an example or three texts with the attributes ``attrs``
    (``(name, value)`` pairs), built once per (op, example_id, texts, attrs) with its key; raises
    ScatterError for invalid input (cached like a case)."""
    for name, text in zip(("data", "indices", "updates"), texts or ()):
        _refuse_oversized(name, text)
    return built_case(op, example_id, texts, attrs)


@bounded(shared=(np.ndarray,))  # its inputs are the entries of parsed texts or example inputs
def built_case(op: str, example_id: str | None, texts: tuple[str, str, str] | None, attrs: tuple) -> sc.Case:
    data, indices, updates = inputs_for(example_id, texts, op)
    case = sc.case(op, data, indices, updates, **dict(attrs))
    case.key  # noqa: B018 - computed once, here: it hashes the tensors, and every lookup below reads it
    return case


@bounded(grows=True, key=by_case)  # a trace computes some views lazily (cached properties)
def trace_of(case: sc.Case) -> sc.Trace:
    """The trace of ``case``, once per case key."""
    return case.trace()


def trace_for(op: str, example_id: str | None, texts: tuple[str, str, str] | None, attrs: tuple) -> sc.Trace:
    """The trace of one case (see :func:`case_for`); raises ScatterError for invalid input."""
    return trace_of(case_for(op, example_id, texts, attrs))


@bounded(shared=(sc.Trace,), grows=True, key=by_case)
def step_figure(case: sc.Case, follow: bool, pins: tuple, panel_axis: int | None = None, tall: bool = False) -> StepFigure:
    return StepFigure(trace_of(case), pinned=dict(pins), follow=follow, panel_axis=panel_axis, tall=tall)


@bounded(key=by_case)
def step_table_csv(case: sc.Case) -> str:
    import pandas as pd

    return pd.DataFrame(trace_of(case).step_table()).to_csv(index=False)
