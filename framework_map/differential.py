"""Random valid cases for a configuration, and the comparison of a framework's result with scatter_core's.

Used by tests/test_framework_map.py (JAX, in CI) and scripts/verify_frameworks.py (PyTorch,
TensorFlow, JAX where installed). Cases are small, integer-valued (so float sums and products are
exact in any order) and built to contain duplicate indices often.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import scatter_core as sc

from .maps import Config, run
from .records import Entry

DTYPES = ("float32", "int32")


@dataclass(frozen=True)
class DrawnCase:
    """A random case drawn for one framework record, with scatter_core's output as the expected one."""

    data: np.ndarray
    indices: np.ndarray
    updates: np.ndarray
    axis: int | None
    expected: np.ndarray
    duplicates: bool
    attrs: dict = field(default_factory=dict)  # the version's other attributes (TensorScatter's mode, a slice)


def _shape(rng, rank, lo=1, hi=4):
    return tuple(int(n) for n in rng.integers(lo, hi + 1, size=rank))


def _index_values(rng, spec, sizes, shape):
    low = -np.asarray(sizes) if spec.index_rule.negative == "allowed" else 0
    return rng.integers(low, np.asarray(sizes), size=shape).astype(np.int64)


def _raw_case(rng, spec):
    family = spec.family
    rank = int(rng.integers(1, 4))
    data_shape = _shape(rng, rank)
    axis = int(rng.integers(0, rank))
    if family == "elements":
        ishape = tuple(int(rng.integers(1, n + 1)) for n in data_shape)
        if spec.axis_dim_may_exceed:
            ishape = ishape[:axis] + (int(rng.integers(1, 6)),) + ishape[axis + 1:]
        indices = _index_values(rng, spec, data_shape[axis], ishape)
        return data_shape, indices, ishape, axis
    if family == "nd":
        k = int(rng.integers(1, rank + 1))
        batch = _shape(rng, int(rng.integers(1, 3)))
        indices = _index_values(rng, spec, data_shape[:k], batch + (k,))
        return data_shape, indices, batch + data_shape[k:], None
    ishape = _shape(rng, int(rng.integers(1, 3)), hi=3)
    indices = _index_values(rng, spec, data_shape[axis], ishape)
    return data_shape, indices, data_shape[:axis] + ishape + data_shape[axis + 1:], axis


def _cache_case(rng, spec):
    """TensorScatter: a cache of rank 2-4, a sequence axis past the batch axis, write_indices or None."""
    rank = int(rng.integers(2, 5))
    data_shape = _shape(rng, rank)
    axis = int(rng.integers(1, rank))
    mode = str(rng.choice(spec.attribute("mode").choices))
    max_len = data_shape[axis]
    seq = int(rng.integers(1, max_len + 1))
    high = max_len - seq + 1 if mode == "linear" else 2 * max_len + 1
    indices = None if rng.random() < 0.25 else rng.integers(0, high, size=data_shape[:1]).astype(np.int64)
    return data_shape, indices, data_shape[:axis] + (seq,) + data_shape[axis + 1:], axis, {"mode": mode}


def _slice_case(rng, spec):
    """SliceScatter: 1..rank sliced axes (leading, or named, either sign), bounds past both ends, steps of both signs."""
    rank = int(rng.integers(1, 4))
    data_shape = _shape(rng, rank)
    n = int(rng.integers(1, rank + 1))
    named = rng.random() < 0.5
    axes = [int(a) - rank * int(rng.integers(0, 2)) for a in rng.permutation(rank)[:n]] if named else list(range(n))
    start, stop, step, ushape = [], [], [], list(data_shape)
    for a in axes:
        size = data_shape[a]
        for _ in range(4):  # mostly non-empty slices; some stay empty
            b, e = (int(v) for v in rng.integers(-size - 2, size + 3, size=2))
            s = int(rng.choice([-3, -2, -1, 1, 2, 3]))
            if len(range(*slice(b, e, s).indices(size))):
                break
        start, stop, step = start + [b], stop + [e], step + [s]
        ushape[a] = len(range(*slice(b, e, s).indices(size)))
    attrs = {"start": start, "stop": stop, "step": step, "axes": axes if named else None}
    return data_shape, None, tuple(ushape), None, attrs


# families whose cases are not ScatterElements / ScatterND / ScatterUpdate's (indices, axis) pair
OTHER_CASES = {"cache": _cache_case, "slice": _slice_case}
# families where no two iterations can write one cell (their specs' duplicate_policy says so):
# the differential checks cannot meet duplicates there
DUPLICATE_FREE = frozenset({"cache", "slice"})


def random_case(rng: np.random.Generator, config: Config, dtype: str) -> DrawnCase:
    """One valid case for ``config`` (validated by scatter_core, which also gives the expected output)."""
    spec = config.spec
    for _ in range(100):
        maker = OTHER_CASES.get(spec.family)
        data_shape, indices, ushape, axis, others = maker(rng, spec) if maker else (*_raw_case(rng, spec), {})
        lo, hi = (-3, 4) if config.canonical != "prod" else (-2, 3)
        data = rng.integers(lo, hi, size=data_shape).astype(dtype)
        updates = rng.integers(lo, hi, size=ushape).astype(dtype)
        attrs = {"axis": axis} if spec.attribute("axis") is not None else {}
        if spec.attribute("reduction") is not None:
            attrs["reduction"] = config.reduction
        if spec.attribute("use_init_val") is not None:
            attrs["use_init_val"] = config.use_init_val
        try:
            t = sc.trace(spec.name, data, indices, updates, **attrs, **others)
        except sc.ScatterError:
            continue
        return DrawnCase(data, indices, updates, axis, t.output, bool(t.duplicate_groups().size), others)
    raise RuntimeError(f"no valid random case for {config.label}")


def written_values(config: Config, case: DrawnCase) -> dict[int, set]:
    """Flat output cell -> every update value written there (for replacement with duplicates)."""
    attrs = {"axis": case.axis} if config.spec.attribute("axis") is not None else {}
    t = sc.trace(config.op, case.data, case.indices, case.updates, **attrs, **case.attrs)
    out: dict[int, set] = {}
    for i in range(len(t)):
        for tgt, src in zip(t.plan.targets[i], t.plan.sources[i]):
            out.setdefault(int(tgt), set()).add(case.updates.reshape(-1)[src].item())
    return out


@dataclass
class Outcome:
    entry: str
    config: str
    cases: int = 0
    exact: int = 0  # equal to scatter_core (the spec's loop: last write wins)
    duplicates: int = 0  # cases with duplicate indices
    other_winner: int = 0  # replacement with duplicates: another duplicate's value won (allowed: order unspecified)
    failures: list = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return not self.failures


def compare(config: Config, case: DrawnCase, got: np.ndarray) -> str:
    """"exact", "other-winner" (replacement, duplicates, another written value won) or a failure message."""
    want = case.expected
    if got.shape == want.shape and np.array_equal(got.astype(want.dtype), want):
        return "exact"
    if got.shape != want.shape:
        return f"shape {got.shape} != {want.shape}"
    if config.canonical == "none" and case.duplicates:
        written = written_values(config, case)
        bad = [c for c, (g, w) in enumerate(zip(got.reshape(-1), want.reshape(-1)))
               if g != w and g.item() not in written.get(c, ())]
        if not bad:
            return "other-winner"
    return f"got {got.tolist()} want {want.tolist()}"


def check_entry(entry: Entry, config: Config, rng: np.random.Generator, n: int = 20) -> Outcome:
    """Run ``entry`` on ``n`` random cases of ``config`` (half float32, half int32) and compare."""
    out = Outcome(entry.id, config.label)
    for i in range(n):
        dtype = DTYPES[i % len(DTYPES)]
        case = random_case(rng, config, dtype)
        got = run(entry, config, case.data, case.indices, case.updates, case.axis, case.attrs)
        verdict = compare(config, case, got)
        out.cases += 1
        out.duplicates += case.duplicates
        if verdict == "exact":
            out.exact += 1
        elif verdict == "other-winner":
            out.other_winner += 1
        elif len(out.failures) < 3:
            out.failures.append(f"{dtype} data={case.data.tolist()} indices={np.asarray(case.indices).tolist()} "
                                f"updates={case.updates.tolist()} axis={case.axis} {case.attrs}: {verdict}")
    return out


def pairs(framework: str | None = None):
    """Every (entry, config) the map claims, over every operator version (executable entries only)."""
    from .maps import configurations, entries_for

    for spec in sc.OPERATORS_LIST:
        for config in configurations(spec):
            for entry in entries_for(config, framework):
                if entry.executable:
                    yield entry, config
