"""TensorScatter (ONNX 24): the key/value-cache write, one sequence position per iteration.
Equivalent to this loop (write_indices zeros when left out; linear mode needs ``write_indices[b] +
sequence_length <= max_sequence_length``; no cell written twice; docs/architecture.md says more)::

    out = past_cache.copy()
    for prefix in np.ndindex(update.shape[:axis]):
        for s in range(update.shape[axis]):
            p = write_indices[prefix[0]] + s
            if mode == "circular":
                p %= past_cache.shape[axis]
            out[prefix + (p,)] = update[prefix + (s,)]

>>> import scatter_core as sc
>>> sc.scatter("TensorScatter-24", [[0, 0, 0, 0]], [2], [[7, 8, 9]], axis=1, mode="circular").tolist()
[[9, 0, 7, 8]]
"""

from __future__ import annotations

import numpy as np

from .checks import prod
from .errors import ScatterError, fmt_pos
from .plan import Plan, PlanNote, iota
from .sample_limits import Drawn, Lesson, Limits, coin, pick, shape
from .spec import OpSpec

MODES = ("linear", "circular")


def updates_shape(data_shape, indices_shape, attrs) -> tuple[int, ...] | None:
    """The update shape is the cache's except on the sequence axis, whose length the rule leaves open."""
    return None


def check_shapes(spec: OpSpec, cache: np.ndarray, write_indices: np.ndarray, update: np.ndarray, axis: int) -> None:
    """The shape rules, each failure naming the input and the rule."""
    names = {role: spec.input_name(role) for role in ("data", "indices", "updates")}
    cache_name, wi_name, up_name = names["data"], names["indices"], names["updates"]
    if axis == 0:
        raise ScatterError(
            f"axis = 0 is the batch axis of {cache_name} (shape {cache.shape}); {spec.name} writes along a sequence "
            f"axis, 1..{cache.ndim - 1} (or {-(cache.ndim - 1)}..-1)", argument="axis", rule="batch-axis")
    if update.ndim != cache.ndim:
        raise ScatterError(
            f"{up_name} has rank {update.ndim} (shape {update.shape}) but {spec.name} needs the rank of {cache_name}, "
            f"{cache.ndim} (shape {cache.shape})", argument=up_name, rule="rank")
    for d, (nu, nc) in enumerate(zip(update.shape, cache.shape)):
        if d != axis and nu != nc:
            raise ScatterError(
                f"{up_name}.shape[{d}] = {nu} but {cache_name}.shape[{d}] = {nc}; {spec.name} needs them equal on "
                f"every axis but the sequence axis ({axis})", argument=up_name, rule="shape")
    seq, max_len = update.shape[axis], cache.shape[axis]
    if seq > max_len:
        raise ScatterError(
            f"{up_name} has sequence length {seq} (axis {axis}) but {cache_name} holds at most {max_len}; "
            f"{spec.name} needs sequence_length <= max_sequence_length", argument=up_name, rule="sequence-length")
    want = cache.shape[:1]
    if write_indices.shape != want:
        raise ScatterError(
            f"{wi_name} has shape {write_indices.shape} but {spec.name} needs one write index per batch entry: "
            f"shape {want}", argument=wi_name, rule="shape")


def check_write_indices(spec: OpSpec, write_indices: np.ndarray, seq: int, max_len: int, mode: str) -> np.ndarray:
    """The write indices as int64 after the value rules: never negative; linear: w + seq <= max_len."""
    name = spec.input_name("indices")
    w = write_indices.astype(np.int64, copy=False)
    if w.size and int(w.min()) < 0:
        b = int(np.flatnonzero(w < 0)[0])
        note = spec.note_text("negative-index")
        raise ScatterError(
            f"{name}[{b}] = {int(w[b])} is negative; a write index is a position in the cache, 0 or more"
            + (f". Observed: {note}" if note else ""), argument=name, rule="negative-index")
    if mode == "linear" and w.size and int(w.max()) > max_len - seq:
        b = int(np.flatnonzero(w > max_len - seq)[0])
        raise ScatterError(
            f"{name}[{b}] = {int(w[b])}: in linear mode {spec.name} needs {name}[b] + sequence_length <= "
            f"max_sequence_length, but {int(w[b])} + {seq} > {max_len} (the write would run past the end; "
            f"mode 'circular' wraps around instead)", argument=name, rule="index-range")
    return w


def cache_positions(w: np.ndarray, batch_of_prefix: np.ndarray, seq: int, max_len: int, mode: str) -> np.ndarray:
    """(prefixes, seq) sequence positions written: ``w[b] + s``, modulo ``max_len`` in circular mode."""
    s = np.arange(seq, dtype=np.int64)[None, :]
    start = w[batch_of_prefix][:, None]
    if mode == "circular" and max_len:
        return (start % max_len + s) % max_len  # never forms w + s, which could overflow int64
    return start + s


def plan(spec: OpSpec, data: np.ndarray, indices: np.ndarray | None, updates: np.ndarray, attrs) -> Plan:
    axis, mode = attrs.axis, attrs["mode"]
    made = indices is None  # write_indices left out: zero for every batch entry (the spec's default)
    if made:
        indices = np.zeros(data.shape[:1], dtype=np.int64)
    check_shapes(spec, data, indices, updates, axis)
    seq, max_len = updates.shape[axis], data.shape[axis]
    w = check_write_indices(spec, indices, seq, max_len, mode)
    prefix = data.shape[:axis]
    n_prefix, per_batch, inner = prod(prefix), prod(prefix[1:]), prod(data.shape[axis + 1:])
    batch_of_prefix = np.arange(n_prefix, dtype=np.int64) // max(per_batch, 1)
    pos = cache_positions(w, batch_of_prefix, seq, max_len, mode)  # (n_prefix, seq)
    rows = np.arange(n_prefix, dtype=np.int64)[:, None] * max_len + pos
    n = n_prefix * seq
    targets = np.add.outer(rows.reshape(-1) * inner, iota(inner))
    notes = []
    if mode == "circular" and seq:
        wrapped = (w[batch_of_prefix][:, None] % max_len + np.arange(seq)[None, :]) >= max_len
        if wrapped.any():
            p, s = (int(v) for v in np.argwhere(wrapped)[0])
            b = int(batch_of_prefix[p])
            notes.append(PlanNote(
                "circular-wrap", "info",
                f"The writes of {int(wrapped.any(axis=1).sum())} of {n_prefix} prefix(es) run past the end of the "
                f"sequence axis (length {max_len}) and continue at position 0; the first is "
                f"{spec.input_name('indices')}[{b}] = {int(w[b])} at sequence position {s}, written to position "
                f"{int(pos[p, s])}.", topic="circular-wrap"))
    started = np.repeat(w[batch_of_prefix], seq) + np.tile(np.arange(seq, dtype=np.int64), n_prefix)
    steps_wrapped = started != pos.reshape(n)  # the write index plus the sequence position, taken mod the length
    return Plan(
        loop_shape=tuple(prefix) + (seq,),
        targets=targets.reshape(n, inner),
        sources=iota(n * inner).reshape(n, inner),
        index_cells=np.repeat(batch_of_prefix, seq).reshape(n, 1),
        index_raw=np.repeat(w[batch_of_prefix], seq).reshape(n, 1),
        index_norm=pos.reshape(n, 1),
        target_free_axes=tuple(range(axis + 1, data.ndim)),
        source_free_axes=tuple(range(axis + 1, data.ndim)),
        updates_shape=tuple(updates.shape),
        notes=tuple(notes),
        indices=indices if made else None,
        wrapped=steps_wrapped if steps_wrapped.any() else None,
    )


def export_loop(case) -> tuple[str, ...]:
    """The spec's pseudocode as export loop lines (numbers from the case only)."""
    axis = case.resolved.axis
    lines = ("for prefix in np.ndindex(*data.shape[:%d]):" % axis,
             "    for s in range(updates.shape[%d]):" % axis,
             "        p = (0 if indices is None else int(indices[prefix[0]])) + s  # write_indices left out: 0")
    if case.resolved["mode"] == "circular":
        lines += ("        p %%= data.shape[%d]  # circular: wrap around" % axis,)
    return lines + (
        "        for rest in np.ndindex(*data.shape[%d:]):" % (axis + 1),
        "            apply(out, contributions, prefix + (p,) + rest, updates[prefix + (s,) + rest])")


def index_label(trace, i: int) -> str:
    """What step ``i`` read from write_indices and the cache position it computed (wrap-around spelled out)."""
    spec = trace.spec
    axis = trace.resolved.axis
    b = int(trace.plan.index_cells[i][0])
    w, pos = int(trace.plan.index_raw[i][0]), int(trace.plan.index_norm[i][0])
    s = trace.loop_position(i)[-1]
    max_len = trace.data.shape[axis]
    head = f"{spec.input_name('indices')}{fmt_pos((b,))} = {w}, sequence position {s}"
    if trace.wrapped(i):
        return head + f": cache position ({w} + {s}) mod {max_len} = {pos}, wrapped around"
    return head + f": cache position {w} + {s} = {pos}"


def sample(rng, spec: OpSpec, limits: Limits) -> Drawn:
    """A random valid draw: a cache of rank 2-4, a sequence axis past the batch axis, a mode, write indices that
    fit (linear) or wrap (circular), left out a quarter of the time."""
    if limits.data_shape is not None:
        return _fitted(rng, limits)
    rank = int(rng.integers(2, min(4, max(limits.max_rank + 1, 2)) + 1))
    data_shape = shape(rng, rank, hi=limits.max_dim)
    axis = int(rng.integers(1, rank))
    mode = str(rng.choice(spec.attribute("mode").choices))
    max_len = data_shape[axis]
    seq = int(rng.integers(0 if limits.empty else 1, max_len + 1))
    high = max_len - seq + 1 if mode == "linear" else 2 * max_len + 1
    indices = None if rng.random() < 0.25 else rng.integers(0, high, size=data_shape[:1]).astype(np.int64)
    return Drawn(data_shape, indices, data_shape[:axis] + (seq,) + data_shape[axis + 1:], {"axis": axis, "mode": mode})


def _fitted(rng, limits: Limits) -> Drawn | None:
    """A draw for ``limits.data_shape`` along ``limits.axis`` with the wished ``limits.features``: "mode=linear" or
    "mode=circular", "wrap" (a circular write runs past the end), "far" (write indices up to twice the length),
    "left-out" (no write indices); at most ``limits.max_steps`` steps and some of the old cache kept."""
    shape = limits.data_shape
    axis = limits.axis % len(shape)
    if axis == 0:
        return None
    mode = "circular" if "mode=circular" in limits.features else "linear"
    batch, length = shape[0], shape[axis]
    per_position = int(np.prod(shape[:axis]))  # steps per sequence position: every prefix before the axis
    low = 2 if "wrap" in limits.features else 1  # a wrap needs two positions: one before the end, one after
    # some of the old cache stays (and w matters in linear mode)
    most = min(length - 1, limits.max_steps // per_position)
    if most < low:
        return None
    seq = int(rng.integers(low, most + 1))
    ushape = tuple(shape[:axis]) + (seq,) + tuple(shape[axis + 1:])
    attrs = {"axis": limits.axis, "mode": mode}
    if "left-out" in limits.features:
        return Drawn(tuple(shape), None, ushape, attrs)
    top = length - seq if mode == "linear" else (2 * length - 1 if "far" in limits.features else length - 1)
    w = rng.integers(0, top + 1, batch).astype(np.int64)
    if "wrap" in limits.features and not ((w % length) + seq > length).any():
        w[int(rng.integers(0, batch))] = int(rng.integers(length - seq + 1, length))
    if not w.any() and top > 0:  # a given write index that is 0 everywhere reads like a left-out one
        w[int(rng.integers(0, batch))] = int(rng.integers(1, top + 1))
    return Drawn(tuple(shape), w, ushape, attrs)


# -- Practice's curriculum for the cache (Family.lesson): what each level practises ----------------------------
def lesson(rng, level: int) -> Lesson:
    """Level 1: rank 2, axis 1, linear. 2: rank 3 (axis -2 or -1), write indices sometimes left out. 4: circular
    writes that wrap around. 5: rank 3, any axis and mode. (Level 3, reductions, has no cache exercise.)"""
    features = ()
    if level == 1:
        rank, axis, mode = 2, 1, "linear"
        topic = "a linear cache write: each batch entry's new rows start at its own write index"
    elif level == 2:  # rank 3: the default axis -2 or the last one
        rank, axis, mode = 3, pick(rng, (-1, -2)), "linear"
        features = ("left-out",) if coin(rng, 30) else ()
        topic = "the sequence axis of a rank-3 cache, counted from the end"
    elif level == 4:
        rank = int(rng.integers(2, 4))
        axis, mode, features = pick(rng, tuple(range(1, rank)) + (-1,)), "circular", ("wrap",)
        topic = "circular mode: a cache write that runs past the end"
    else:
        rank, axis, mode = 3, pick(rng, (1, 2, -1, -2)), pick(rng, ("linear", "circular"))
        if mode == "circular":
            features = ("wrap", "far") if coin(rng, 30) else ("wrap",) if coin(rng, 70) else ()
        elif coin(rng, 25):
            features = ("left-out",)
        topic = "mixed: a rank-3 cache with any axis and mode"
    return Lesson(rank, axis, (f"mode={mode}",) + features, topic)
