"""Random valid cases for a configuration, and the comparison of a framework's result with scatter_core's.

Used by tests/from_code/test_framework_map.py (JAX, in CI) and scripts/verify_frameworks.py (PyTorch,
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
class DrawnCase(sc.HoldsCase):
    """A random case drawn for one framework record: the :class:`scatter_core.Case`, scatter_core's output as the
    expected one, and whether two iterations wrote one cell."""

    case: sc.Case
    expected: np.ndarray
    duplicates: bool

    @property
    def axis(self) -> int | None:
        """The axis the case's loop runs along (non-negative), None for a version without one."""
        return self.case.resolved.axis

    @property
    def attrs(self) -> dict:
        """The version's attributes as the case spells them (what a record's ``attr_args`` read)."""
        return dict(self.case.attrs)


# families where no two iterations can write one cell (their records say so): the differential checks cannot
# meet duplicates there
DUPLICATE_FREE = frozenset(name for name, f in sc.FAMILIES.items() if f.writes_once)


def random_case(rng: np.random.Generator, config: Config, dtype: str) -> DrawnCase:
    """One valid case for ``config``, drawn by its family's sample hook (scatter_core also gives the expected
    output)."""
    attrs = {"reduction": config.reduction} if config.spec.attribute("reduction") is not None else {}
    if config.spec.attribute("use_init_val") is not None:
        attrs["use_init_val"] = config.use_init_val
    values = (-3, 4) if config.canonical != "prod" else (-2, 3)
    try:
        case = sc.sample_case(rng, config.spec, dtype=dtype, values=values, attrs=attrs)
    except sc.ScatterError as e:
        raise RuntimeError(f"no valid random case for {config.label}: {e}") from None
    t = case.trace()
    return DrawnCase(case, t.output, bool(t.duplicate_groups().size))


def written_values(config: Config, case: DrawnCase) -> dict[int, set]:
    """Flat output cell -> every update value written there (for replacement with duplicates)."""
    t = case.case.trace()
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


# ----------------------------------------------------------------------------- a tracker report, probed
TF_OUT_OF_RANGE_MODES = ("eager", "tf.function", "tf.function(jit_compile=True)")


def tensorflow_out_of_range() -> dict:
    """What TensorFlow (installed here, on CPU) does with a negative or past-the-end index in tf.scatter_nd and
    tf.tensor_scatter_nd_update / _add, for float32 and int32 updates, run eagerly, in tf.function and XLA-compiled
    (tensorflow#56567 reported tf.scatter_nd dropping a negative index silently on CPU for float updates).

    Returns {mode: "error" | "dropped" | "mixed", "cases": n}: "error" when every call raised, "dropped" when every
    call returned with the bad index's write left out. Used by scripts/verify_frameworks.py (recorded in
    verified.py) and tests/from_code/test_framework_map.py (where TensorFlow is installed)."""
    import tensorflow as tf

    size, good = 4, 1
    ops = {
        "scatter_nd": lambda t, i, u: tf.scatter_nd(i, u, [size]),
        "tensor_scatter_nd_update": tf.tensor_scatter_nd_update,
        "tensor_scatter_nd_add": tf.tensor_scatter_nd_add,
    }
    answers: dict[str, set] = {mode: set() for mode in TF_OUT_OF_RANGE_MODES}
    cases = 0
    for dtype in (tf.float32, tf.int32):
        for name, op in ops.items():
            runners = {"eager": op, "tf.function": tf.function(op),
                       "tf.function(jit_compile=True)": tf.function(op, jit_compile=True)}
            for bad in (-1, size):
                data = tf.zeros([size], dtype)
                indices = tf.constant([[good], [bad]])
                updates = tf.constant([7, 9], dtype)
                want = np.zeros(size)
                want[good] = 7  # the good write alone: the bad one left out
                cases += 1
                for mode, run in runners.items():
                    try:
                        got = np.asarray(run(data, indices, updates))
                    except (tf.errors.InvalidArgumentError, ValueError):
                        answers[mode].add("error")
                        continue
                    answers[mode].add("dropped" if np.array_equal(got, want) else "mixed")
    return {**{mode: seen.pop() if len(seen) == 1 else "mixed" for mode, seen in answers.items()}, "cases": cases}


def _nan_answer(got: np.ndarray, other: np.ndarray) -> str:
    """"propagated" where every probed cell is NaN, "ignored" where every one holds the other value."""
    if np.isnan(got).all():
        return "propagated"
    return "ignored" if np.array_equal(got, other) else "mixed"


NAN_PROBES = ("NaN update", "NaN in data")


def _nan_max_min(run) -> dict:
    """What a max / min scatter does when a NaN takes part (neither the ONNX nor the OpenVINO text says): a NaN
    update into a number, and a number into a NaN cell, float32 and float64. ``run(data, indices, updates,
    reduction)`` runs the framework's own call on NumPy arrays (indices of shape (n, 1)) and returns NumPy.
    Returns {"NaN update": ..., "NaN in data": ..., "cases": n}, each "propagated" (the cell becomes NaN),
    "ignored" (the number stays or is written) or "mixed"."""
    answers: dict[str, set] = {k: set() for k in NAN_PROBES}
    cases = 0
    for dtype in (np.float32, np.float64):
        for reduction, number in (("max", 1.0), ("min", 1.0), ("max", -2.0), ("min", 5.0)):
            idx = np.array([[0], [1], [1]], dtype=np.int64)
            # cell 0: NaN update into the number; cell 1: two updates, one NaN (the other wins if NaN is ignored)
            got = run(np.array([number, number], dtype), idx, np.array([np.nan, np.nan, number], dtype), reduction)
            answers["NaN update"].add(_nan_answer(np.asarray(got), np.array([number, number], dtype)))
            got = run(np.array([np.nan], dtype), idx[:1], np.array([number], dtype), reduction)
            answers["NaN in data"].add(_nan_answer(np.asarray(got), np.array([number], dtype)))
            cases += 2
    return {**{k: seen.pop() if len(seen) == 1 else "mixed" for k, seen in answers.items()}, "cases": cases}


def tensorflow_nan_max_min() -> dict:
    """:func:`_nan_max_min` on tf.tensor_scatter_nd_max / _min (eager, CPU)."""
    import tensorflow as tf

    ops = {"max": tf.tensor_scatter_nd_max, "min": tf.tensor_scatter_nd_min}
    return _nan_max_min(lambda d, i, u, r: ops[r](tf.constant(d), tf.constant(i), tf.constant(u)).numpy())


def torch_nan_max_min() -> dict:
    """:func:`_nan_max_min` on torch.scatter_reduce amax / amin, include_self=True (CPU)."""
    import torch

    return _nan_max_min(lambda d, i, u, r: torch.from_numpy(d).scatter_reduce(
        0, torch.from_numpy(i[:, 0]), torch.from_numpy(u), reduce="a" + r, include_self=True).numpy())


ALPHA_RANKS = ("rank 1", "rank 2")


def torch_index_add_alpha() -> dict:
    """How torch.index_add rounds data + alpha * source on float32 (CPU): "rounded twice" (the product rounded,
    then the sum, as the composition's Mul then adding scatter does) or "rounded once" (a fused multiply-add), for
    data of rank 1 and of rank 2. The probe: -3 + 3 * (1 + 2**-23), whose product is not a float32 (once: 3 * 2**-23;
    twice: 2**-21). Found running From your code's index_add(alpha=...) on tensors with torch 2.13.0+cpu."""
    import torch

    src = np.float32(1 + 2.0 ** -23)
    once, twice = 3 * 2.0 ** -23, float(np.float32(np.float32(3) * src) + np.float32(-3))
    out = {}
    for rank, shape in zip(ALPHA_RANKS, ((8,), (1, 8))):
        data = torch.full(shape, -3.0, dtype=torch.float32)
        got = data.index_add(0, torch.arange(shape[0]), torch.full(shape, float(src)), alpha=3).reshape(-1)
        values = set(got.tolist())
        out[rank] = ("rounded once" if values == {once} else "rounded twice" if values == {twice} else
                     "mixed")
    return {**out, "cases": len(ALPHA_RANKS)}
