"""Exercises: small scatter cases a student can compute by hand, generated from a seed.

``make_exercise(seed, level, op=None)`` is deterministic on any machine (one ``numpy.random.default_rng``
seeded from seed, level and a CRC-32 of the op name; integers only; pools in registry order; a candidate that
misses the level's rules is redrawn from the same generator). ``LEVELS`` says in words what each of the five
levels adds, from reduction none on rank 1-2 to mixed rank-3 cases.

Every case is drawn by the family record's ``sample`` hook, fitted to the level's recipe; a family whose loop
reads no per-update index has its own curriculum (its record's ``lesson`` hook), and with no ``op`` a level
picks among the families whose ``practice_from`` is at most that level. Every exercise has at most
``MAX_CELLS`` output cells, ``MAX_STEPS`` steps and ``MAX_DRAWN`` cells to draw. Nothing branches on an
operator's name. The levels in full: docs/architecture.md, scatter_practice/exercises.py.
"""

from __future__ import annotations

import itertools
import zlib
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Mapping

import numpy as np

import scatter_core as sc

MAX_CELLS = 24
MAX_STEPS = 8
MAX_DRAWN = 64  # cells of indices, updates and output together (a wide rank-3 updates tensor of 8x4x3 is 96 alone)
MAX_ATTEMPTS = 400  # redraws before giving up (never reached for the pools below; a test checks 200 seeds a level)
MAX_SEED = 2**53 - 1  # seeds travel through links and number inputs (JavaScript integers)
MAX_SET = 30  # exercises in one shared set or worksheet

LEVELS = MappingProxyType({
    1: "rank 1–2, one family, reduction none, no duplicate indices, indices ≥ 0",
    2: "negative indices and other axes",
    3: "duplicate indices combined by a reduction (add/sum, mul/prod, max, min)",
    4: "OpenVINO use_init_val and mean (integers are floored), slices (ScatterND with k < rank), circular cache "
       "wrap-around, negative slice steps and clamped slice bounds",
    5: "mixed: any version and attribute, rank 3, duplicates under none (which write wins?)",
})

COMBINING = ("sum", "prod", "max", "min")  # the reductions of level 3, canonical names

RANK_SHAPES = MappingProxyType({
    1: tuple((n,) for n in range(3, 9)),
    2: tuple((r, c) for r in range(2, 5) for c in range(2, 6) if r * c <= MAX_CELLS),
    3: tuple(s for s in itertools.product(range(2, 5), repeat=3) if int(np.prod(s)) <= MAX_CELLS),
})

# update values by canonical reduction: small enough to add, multiply or compare by hand
VALUE_RANGES = MappingProxyType({
    "none": ((0, 9), (10, 99)),
    "sum": ((0, 9), (1, 9)),
    "sub": ((0, 9), (1, 9)),
    "prod": ((1, 4), (1, 4)),
    "max": ((0, 20), (0, 20)),
    "min": ((0, 20), (0, 20)),
    "mean": ((-9, 9), (-9, 9)),
})
DTYPES = ("int32", "int64")


@dataclass(frozen=True, eq=False)
class Exercise(sc.HoldsCase):
    """One practice case and its traced answer (read-only arrays; one object may be shared by many sessions).

    The operator version, inputs and attributes are the :class:`scatter_core.Case` it holds; ``op``, ``data``,
    ``indices``, ``updates``, ``spec`` and ``attrs`` read it. The Case is built from the attributes as the
    exercise spells them, so ``attrs`` shows them that way (``axis=-1`` stays -1, where ``case.attrs`` holds the
    axis it resolves to).
    """

    case: sc.Case
    seed: int
    level: int
    trace: sc.Trace = field(repr=False)
    answer: np.ndarray = field(repr=False)
    order_question: bool = False  # duplicates under reduction none: which write stays?
    topic: str = ""  # what this exercise practises, when its family's recipe says more than the level's words

    @classmethod
    def of(cls, case: sc.Case, trace: sc.Trace | None = None, **fields) -> "Exercise":
        """The exercise of ``case`` (its inputs and attributes as the exercise gives them: a left-out optional
        indices input stays left out, axis=-1 stays -1); ``trace``: the case's trace when made already."""
        t = sc.trace(case) if trace is None else trace
        return cls(case=case, trace=t, answer=t.output, **fields)

    @property
    def attrs(self) -> Mapping[str, object]:
        """The version's own attribute names, spelled as the exercise gave them (a list as a tuple), defaults
        filled in."""
        given = {k: tuple(v) if isinstance(v, list) else v for k, v in self.case.given_attrs.items()}
        return {**self.case.attrs, **given}

    @property
    def steps(self) -> int:
        return len(self.trace)

    @property
    def attrs_text(self) -> str:
        """The attributes that apply, as the exercise spells them: one that plays no part in this case is left out
        (use_init_val under reduction none, which replaces every targeted cell: there is nothing to start from)."""
        idle = {c.name for c in (sc.codec_with_role(self.spec, "init"),) if c is not None} \
            if self.trace.reduction.ufunc is None else set()
        return ", ".join(f"{k}={_show(v)}" for k, v in self.attrs.items()
                         if v is not None and k not in idle) or "no attributes"

    @property
    def inputs(self) -> tuple[tuple[str, np.ndarray], ...]:
        """The tensor inputs given, by the names the spec uses (past_cache, write_indices, update ...)."""
        given = (("data", self.data), ("indices", self.indices), ("updates", self.updates))
        return tuple((self.spec.input_name(role), arr) for role, arr in given if arr is not None)

    @property
    def left_out(self) -> str | None:
        """The name of an optional indices input the exercise leaves out (its default applies), else None."""
        if self.indices is None and sc.family_of(self.spec).indices == "optional":
            return self.spec.input_name("indices")
        return None

    @property
    def prompt(self) -> str:
        text = (f"{self.op} ({self.attrs_text}) runs {self.steps} step{'s' if self.steps != 1 else ''} over "
                f"{self.spec.input_name('data')} {self.data.dtype} {tuple(self.data.shape)}. Predict the output.")
        if self.left_out:
            text += f" {self.left_out} is left out, so its default applies."
        if self.order_question:
            text += " Several updates hit the same cell with reduction none: which one stays?"
        return text


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


# -- operator facts, read from the registry ------------------------------------------------------
def _canonical(spec) -> tuple[str, ...]:
    return tuple(c for _, c in spec.reductions)


def negatives_allowed(spec) -> bool:
    return spec.index_rule.negative == "allowed"


def _current(spec) -> bool:
    """Not a version of a deprecated operator type (Scatter): pools of levels 1-4 leave those to level 5."""
    return not any(s.deprecated for s in sc.versions_of(spec.op_type))


def _has(spec, attr: str) -> bool:
    return spec.attribute(attr) is not None


def _sub_kinds_4(spec) -> tuple[str, ...]:
    found = []
    if _has(spec, "use_init_val") and set(_canonical(spec)) & set(COMBINING):
        found.append("no-init")
    if "mean" in _canonical(spec):
        found.append("mean")
    if sc.family_of(spec).index_writes_slice:  # one index may write a whole slice
        found.append("slices")
    mode = spec.attribute("mode")
    if mode is not None and "circular" in mode.choices:  # a cache that can wrap around
        found.append("circular")
    if _has(spec, "step"):  # a strided slice: negative steps, clamped bounds
        found.append("strided")
    return tuple(found)


LEVEL_RULES: Mapping[int, Callable[[sc.OpSpec], bool]] = MappingProxyType({
    1: lambda spec: True,
    2: lambda spec: negatives_allowed(spec) or _has(spec, "axis"),
    3: lambda spec: bool(set(_canonical(spec)) & set(COMBINING)),
    4: lambda spec: bool(_sub_kinds_4(spec)),
    5: lambda spec: True,
})


def levels_for(op: str) -> tuple[int, ...]:
    """The levels an exercise restricted to ``op`` can have (none for a family practice does not draw yet)."""
    spec = sc.get_spec(op)
    if not practised(spec):
        return ()
    return tuple(level for level, rule in LEVEL_RULES.items() if rule(spec))


def practised(spec) -> bool:
    """Practice draws every exercise through the family record's sample hook: a family without one has none."""
    return sc.family_of(spec).sample is not None


def _pool(level: int) -> tuple:
    """The versions an exercise with no ``op`` may be of: their family's record lets the level pick it."""
    specs = [s for s in sc.OPERATORS_LIST
             if practised(s) and sc.family_of(s).practice_from <= level and LEVEL_RULES[level](s)]
    if level <= 4:
        specs = [s for s in specs if _current(s)]
    return tuple(specs)


# -- recipes: what one candidate looks like ------------------------------------------------------
@dataclass
class Recipe:
    spec: sc.OpSpec
    rank: int
    reduction: str  # canonical
    axis: int | None = None
    k: int | None = None  # ScatterND tuple length
    use_init_val: bool | None = None
    duplicates: str = "no"  # "yes" | "no" | "any"
    negatives: str = "no"  # "yes" | "no" | "any"
    checks: tuple[str, ...] = ()  # extra rules the traced candidate must meet
    order_question: bool = False
    features: tuple[str, ...] = ()  # wishes for the family's sample hook (e.g. "wrap", "negative-step")
    topic: str = ""  # Exercise.topic


def _pick(rng, items):
    return items[int(rng.integers(0, len(items)))]


def _coin(rng, percent: int) -> bool:
    return int(rng.integers(0, 100)) < percent


def _negatives(rng, spec) -> str:
    """Some exercises of levels 3-5 mix in negative indices where the version allows them."""
    if not negatives_allowed(spec):
        return "no"
    return "any" if _coin(rng, 40) else "no"


def _recipe_1(rng, spec) -> Recipe:
    return Recipe(spec, rank=int(rng.integers(1, 3)), reduction="none", axis=0 if _has(spec, "axis") else None)


def _recipe_2(rng, spec) -> Recipe:
    rank = int(rng.integers(1, 3))
    can_axis = _has(spec, "axis")
    use_neg = negatives_allowed(spec) and (not can_axis or _coin(rng, 60))
    if not use_neg:
        rank = 2  # the exercise is about the axis
    axis = int(rng.integers(0, rank)) if can_axis else None
    if not use_neg:
        axis = 1
    return Recipe(spec, rank=rank, reduction="none", axis=axis, negatives="yes" if use_neg else "no",
                  checks=() if use_neg else ("axis-matters",))


def _recipe_3(rng, spec) -> Recipe:
    rank = int(rng.integers(1, 3))
    reduction = _pick(rng, [c for c in _canonical(spec) if c in COMBINING])
    axis = int(rng.integers(0, rank)) if _has(spec, "axis") else None
    return Recipe(spec, rank=rank, reduction=reduction, axis=axis, duplicates="yes",
                  negatives=_negatives(rng, spec), checks=("reduction-matters",))


def _recipe_4(rng, spec) -> Recipe:
    kind = _pick(rng, _sub_kinds_4(spec))
    negatives = _negatives(rng, spec)
    if kind == "no-init":
        rank = int(rng.integers(1, 3))
        reduction = _pick(rng, [c for c in _canonical(spec) if c in COMBINING])
        axis = int(rng.integers(0, rank)) if _has(spec, "axis") else None
        return Recipe(spec, rank=rank, reduction=reduction, axis=axis, use_init_val=False, duplicates="any",
                      negatives=negatives, checks=("init-matters", "reduction-matters"))
    if kind == "mean":
        rank = int(rng.integers(1, 3))
        axis = int(rng.integers(0, rank)) if _has(spec, "axis") else None
        return Recipe(spec, rank=rank, reduction="mean", axis=axis, use_init_val=_coin(rng, 50), duplicates="yes",
                      negatives=negatives, checks=("floor-matters", "reduction-matters"))
    rank = int(rng.integers(2, 4))
    reduction = _pick(rng, _canonical(spec))
    axis = int(rng.integers(0, rank)) if _has(spec, "axis") else None
    k = int(rng.integers(1, rank)) if _has_k(spec) else None
    return Recipe(spec, rank=rank, reduction=reduction, axis=axis, k=k,
                  duplicates="no" if reduction == "none" else "any", negatives=negatives,
                  checks=() if reduction == "none" else ("reduction-matters",))


def _has_k(spec) -> bool:
    """The family addresses the output with k-tuples (the last indices axis)."""
    return sc.family_of(spec).index_tuples


def _recipe_5(rng, spec) -> Recipe:
    reduction = _pick(rng, _canonical(spec))
    axis = int(rng.integers(0, 3)) if _has(spec, "axis") else None
    k = int(rng.integers(1, 4)) if _has_k(spec) else None
    use_init = None
    if _has(spec, "use_init_val") and reduction != "none":
        use_init = _coin(rng, 50)
    order = reduction == "none" and "none" not in spec.duplicates_forbidden_with
    if reduction == "none":
        duplicates = "yes" if order else "no"
    else:
        duplicates = "any"
    checks = ("order-matters",) if order else ()
    if reduction == "mean":
        checks += ("floor-matters",)
    return Recipe(spec, rank=3, reduction=reduction, axis=axis, k=k, use_init_val=use_init, duplicates=duplicates,
                  negatives=_negatives(rng, spec), checks=checks, order_question=order)


RECIPES = MappingProxyType({1: _recipe_1, 2: _recipe_2, 3: _recipe_3, 4: _recipe_4, 5: _recipe_5})


def _recipe(rng, level: int, spec) -> Recipe:
    """The family's own curriculum where its record has one (``lesson``), else the level's recipe."""
    lesson = sc.family_of(spec).lesson
    if lesson is None:
        return RECIPES[level](rng, spec)
    wish = lesson(rng, level)
    return Recipe(spec, rank=wish.rank, reduction="none", axis=wish.axis, features=wish.features, topic=wish.topic)


def _choose_spec(rng, level: int, spec) -> sc.OpSpec:
    if spec is not None:
        return spec
    if level == 4:  # first the kind of exercise, then a version offering it: each kind equally often
        kind = _pick(rng, ("no-init", "mean", "slices"))
        return _pick(rng, [s for s in _pool(4) if kind in _sub_kinds_4(s)])
    return _pick(rng, _pool(level))


# -- index drawing ---------------------------------------------------------------------------------------------
def _sampled(rng, r: Recipe, shape: tuple[int, ...]) -> sc.Drawn | None:
    """A draw by the family record's sample hook, fitted to ``shape`` and the recipe's axis, k, duplicates and
    features (a family's own wishes: a cache mode, a wrap, a slice's bound spellings ...)."""
    limits = sc.Limits(data_shape=shape, axis=r.axis, k=r.k, duplicates=r.duplicates, max_steps=MAX_STEPS,
                       features=frozenset(r.features))
    return sc.family_of(r.spec).sample(rng, r.spec, limits)


def _apply_negatives(rng, r: Recipe, indices: np.ndarray | None, sizes: np.ndarray | None) -> np.ndarray | None:
    if r.negatives == "no" or indices is None:
        return indices
    flip = rng.integers(0, 100, indices.shape) < 40
    if r.negatives == "yes" and not flip.any():
        flip.reshape(-1)[int(rng.integers(0, flip.size))] = True
    return np.where(flip, indices - sizes, indices)


# -- building and checking one candidate ------------------------------------------------------------
def _attrs(r: Recipe) -> dict:
    spec = r.spec
    attrs = {}
    if _has(spec, "axis"):
        attrs["axis"] = r.axis
    if _has(spec, "reduction"):
        attrs["reduction"] = spec.spelling_of(r.reduction)
    if _has(spec, "use_init_val") and r.use_init_val is not None:
        attrs["use_init_val"] = r.use_init_val
    return attrs


def _draw(rng, r: Recipe):
    shape = _pick(rng, RANK_SHAPES[r.rank])
    if r.axis is not None and r.axis >= r.rank:
        return None
    drawn = _sampled(rng, r, shape)
    if drawn is None:
        return None
    indices = _apply_negatives(rng, r, drawn.indices, drawn.sizes)
    (dlo, dhi), (ulo, uhi) = VALUE_RANGES[r.reduction]
    dtype = np.dtype(_pick(rng, DTYPES))
    data = rng.integers(dlo, dhi + 1, drawn.data_shape).astype(dtype)
    updates = rng.integers(ulo, uhi + 1, drawn.updates_shape).astype(dtype)
    return data, indices, updates, drawn.attrs


def drawn_cells(indices: np.ndarray | None, updates: np.ndarray | None, output: np.ndarray) -> int:
    """The cells Practice's figure draws besides the data: the indices given, the updates and the output."""
    return sum(0 if a is None else int(np.size(a)) for a in (indices, updates)) + int(np.size(output))


def _differs(a: np.ndarray, b: np.ndarray) -> bool:
    return not np.array_equal(a, b)


def _other(r: Recipe, data, indices, updates, attrs, **change) -> np.ndarray | None:
    try:
        return sc.scatter(r.spec.name, data, indices, updates, **{**attrs, **change})
    except sc.ScatterError:
        return None


def _check(name: str, r: Recipe, t: sc.Trace, attrs: dict) -> bool:
    """One of a recipe's extra rules on a traced candidate."""
    data, indices, updates = t.data, t.indices, t.updates
    if name == "reduction-matters":  # replacing gives another output than combining
        other = _other(r, data, indices, updates, attrs, reduction=r.spec.spelling_of("none"))
        return other is not None and _differs(other, t.output)
    if name == "init-matters":
        other = _other(r, data, indices, updates, attrs, use_init_val=not attrs["use_init_val"])
        return other is not None and _differs(other, t.output)
    if name == "axis-matters":
        return any(_differs(o, t.output) for a in range(data.ndim) if a != r.axis
                   for o in [_other(r, data, indices, updates, attrs, axis=a)] if o is not None)
    if name == "order-matters":
        return t.duplicate_groups().size > 0 and _differs(t.output_in_order("reversed"), t.output)
    if name == "floor-matters":  # some mean is negative and inexact: floor and truncation differ
        return _floor_differs(t)
    raise ValueError(f"unknown recipe check {name!r}")


def _floor_differs(t: sc.Trace) -> bool:
    """Some cell's final mean is negative and inexact, so flooring and truncating differ."""
    targets = t.plan.targets.reshape(-1)
    _, first_in_reversed = np.unique(targets[::-1], return_index=True)
    last = targets.size - 1 - first_in_reversed  # each cell's last write holds its final sum and count
    acc = t.acc_after.reshape(-1)[last].astype(np.int64)
    counts = np.maximum(t.counts.reshape(-1)[last].astype(np.int64), 1)
    return bool(((acc < 0) & (acc % counts != 0)).any())


def _build(rng, r: Recipe, seed: int, level: int) -> Exercise | None:
    drawn = _draw(rng, r)
    if drawn is None:
        return None
    data, indices, updates, drawn_attrs = drawn
    attrs = {**_attrs(r), **drawn_attrs}
    try:
        case = sc.case(r.spec.name, data, indices, updates, **attrs)
    except sc.ScatterError:
        return None
    t = sc.trace(case)
    if not (1 <= len(t) <= MAX_STEPS and t.output.size <= MAX_CELLS and drawn_cells(indices, updates, t.output)
            <= MAX_DRAWN):
        return None
    dup = t.duplicate_groups().size > 0
    if (r.duplicates == "yes" and not dup) or (r.duplicates == "no" and dup):
        return None
    negative = bool((t.indices < 0).any())
    if (r.negatives == "yes" and not negative) or (r.negatives == "no" and negative):
        return None
    if not _differs(t.output, t.data):
        return None
    if not all(_check(name, r, t, attrs) for name in r.checks):
        return None
    # the case keeps the attributes as the exercise spells them (axis=-1 stays -1): Exercise.attrs shows them
    return Exercise.of(case, t, seed=seed, level=level, order_question=r.order_question, topic=r.topic)


def _check_args(seed, level, op):
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"seed = {seed!r} must be an integer in 0..{MAX_SEED}")
    if isinstance(level, bool) or not isinstance(level, (int, np.integer)) or int(level) not in LEVELS:
        raise ValueError(f"level = {level!r} must be one of {', '.join(str(x) for x in LEVELS)}")
    if op is not None:
        spec = sc.get_spec(op)  # ScatterError (a ValueError) naming op when unknown
        if not practised(spec):
            with_exercises = ", ".join(name for name, f in sc.FAMILIES.items() if f.sample is not None)
            raise ValueError(f"op = {spec.name!r}: practice has no exercises for the {spec.family!r} family yet "
                             f"(families with exercises: {with_exercises})")
        if not LEVEL_RULES[int(level)](spec):
            allowed = ", ".join(str(x) for x in levels_for(spec.name))
            raise ValueError(f"level = {level} needs {LEVELS[int(level)]}, which {spec.name} does not offer; "
                             f"levels for {spec.name}: {allowed}")
        return spec
    return None


def make_exercise(seed: int, level: int, op: str | None = None) -> Exercise:
    """The exercise of ``seed`` at ``level`` (1-5), optionally restricted to operator version ``op``.

    The same arguments give the same exercise on any machine and in any process.
    Raises ValueError naming the argument for a bad seed, level or op (or an op
    that cannot make an exercise of that level; see :func:`levels_for`).
    """
    spec = _check_args(seed, level, op)
    seed, level = int(seed), int(level)
    rng = np.random.default_rng([seed, level, zlib.crc32((spec.name if spec else "").encode())])
    for _ in range(MAX_ATTEMPTS):
        chosen = _choose_spec(rng, level, spec)
        ex = _build(rng, _recipe(rng, level, chosen), seed, level)
        if ex is not None:
            return ex
    raise RuntimeError(f"no level-{level} exercise found for seed {seed} in {MAX_ATTEMPTS} draws")  # pragma: no cover


def set_seeds(seed: int, n: int) -> tuple[int, ...]:
    """The exercise seeds of the shared set ``seed`` of ``n`` exercises: seed·1000 + i."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= int(n) <= MAX_SET:
        raise ValueError(f"n = {n!r} must be an integer in 1..{MAX_SET}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= MAX_SEED // 1000:
        raise ValueError(f"set seed = {seed!r} must be an integer in 0..{MAX_SEED // 1000}")
    return tuple(int(seed) * 1000 + i for i in range(int(n)))


def exercise_set(seed: int, level: int, n: int, op: str | None = None) -> list[Exercise]:
    """The ``n`` exercises every student of a shared set gets (``?set=SEED&level=L&n=N``)."""
    return [make_exercise(s, level, op) for s in set_seeds(seed, n)]
