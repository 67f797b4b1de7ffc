"""Check a hand-written expected output against the spec's result, and diagnose the mistake.

``check_expected(case, expected)`` traces the :class:`~scatter_core.Case` and returns a :class:`CheckReport`:
``matches`` / ``mismatches`` (against the spec's loop in row-major order, what runtimes give today),
``conforms`` / ``allowed`` / ``open_cells`` / ``verdict`` (``"matches"``, ``"conforms"`` or ``"differs"``:
an output the spec allows, see :mod:`scatter_core.conformance`), ``chains`` (the writes that reached each
mismatched cell) and ``diagnoses`` (every other reading of the operator that gives the expected output).

Tolerance: integers and bools compare exactly; floats agree when ``|computed - expected| <= atol + rtol *
|computed|`` (defaults ``rtol = 1e-6``, ``atol = 1e-9``; pass 0 and 0 for bit-exact); NaN agrees with NaN,
``inf`` only with ``inf`` of the same sign. A lossy cast of the expected output is reported in ``lossy_cast``.

The alternatives (``ALTERNATIVES``) come from the registry records and the trace, never from an operator's
name. Details: docs/architecture.md, scatter_core/checking.py.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Iterator, Mapping

import numpy as np

from .attributes import codec_with_role, reduction_codec, translate_attrs
from .case import Case, as_case, prepare
from .checks import as_tensor
from .conformance import DEFAULT_ATOL, DEFAULT_RTOL, ROUNDING, WINNER, OpenCell, OpenCells, open_cells
from .conformance import agree as _agree
from .describe import fmt_attr, fmt_value
from .errors import ScatterError, fmt_pos
from .families import family_of
from .plan import unravel
from .explaining import ChainStep, explain_cell, mean_roundings
from .reductions import REDUCTIONS, Reduction, truncate_mean
from .registry import OPERATORS_LIST, family_members, get_spec, versions_of
from .tracing import Trace

MAX_CHAINS = 200  # mismatched cells explained step by step (all are listed in ``mismatches``)


@dataclass(frozen=True)
class Chain:
    """How one mismatched output cell got its value."""

    cell: tuple[int, ...]
    initial: object  # data's value at the cell
    steps: tuple[ChainStep, ...]
    final: object  # the computed value
    expected: object  # the user's value (after the cast); None: nobody's (``chain_of``)
    reduction: str
    allowed: str = ""  # when the spec allows the expected value here: why, in a sentence (else "")
    not_allowed: str = ""  # a cell the spec leaves open whose expected value is still not allowed: why (else "")
    row: Reduction | None = None  # the reduction's record (None: read from ``reduction`` as a canonical name)
    use_init: bool = True  # data's value takes part (use_init_val, where the version has it)
    init_words: str = "use_init_val=false"  # how the version says it does not
    roundings: tuple[tuple[str, str], ...] = ()  # (runtime, rounding) of an integer mean, from the facts table

    @property
    def first_step(self) -> int | None:
        return self.steps[0].step if self.steps else None

    def explain(self, expected_by: str = "you expected") -> str:
        """The cell as the spec defines its reduction (:func:`scatter_core.explaining.explain_cell`: a mean as the
        sum over the count, then the rounding); ``expected_by`` says whose value ``expected`` is (a runtime's
        output is not the user's expectation: "onnxruntime gave")."""
        row = self.row if self.row is not None else REDUCTIONS[self.reduction]
        dtype = np.asarray(self.initial).dtype
        text = explain_cell(f"output{fmt_pos(self.cell)}", row, self.reduction, dtype, self.initial, self.steps,
                            final=self.final, use_init=self.use_init, init_words=self.init_words,
                            roundings=self.roundings, expected=self.expected, expected_by=expected_by)
        tail = self.allowed or self.not_allowed
        return f"{text} {tail}" if tail and self.steps else text


@dataclass(frozen=True)
class Diagnosis:
    """One other reading of the operator that reproduces the expected output."""

    # "reduction", "use_init_val", "axis", "first-write-wins", "negative-index", "family", "version",
    # "mean-truncated", or the name of a choice attribute (one with ``AttrSpec.choices``, reduction aside:
    # TensorScatter's "mode") whose other value reproduces the expected output
    kind: str
    message: str  # a plain sentence naming the change
    attrs: Mapping[str, object]  # every attribute value (and interpretation) under which it is reproduced
    change: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))  # only what differs
    # the reading gives an output the spec allows (the report conforms): an explanation of how the output
    # arose, not a mistake (first-write-wins under reduction none, say)
    allowed: bool = False


@dataclass(frozen=True)
class Comparison:
    """Two outputs of one trace cell by cell, what a side-by-side figure draws: ``left`` (the one checked)
    beside ``right`` (the reference), ``differ_flat`` the flat indices of the cells where they differ (the
    first is the one to show), ``allowed_flat`` those of them whose left value the spec allows too."""

    trace: Trace
    left: np.ndarray
    right: np.ndarray
    differ_flat: np.ndarray
    allowed_flat: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))


@dataclass(frozen=True)
class CheckReport:
    op: str
    attrs: Mapping[str, object]  # the attributes as resolved (version's names and spellings)
    computed: np.ndarray
    expected: np.ndarray  # cast to the output's dtype
    matches: bool  # equal (under the tolerance) to the spec's loop-order result, what real runtimes give
    mismatches: list[tuple[int, ...]]  # the cells that differ from that result
    chains: list[Chain]
    diagnoses: list[Diagnosis]
    rtol: float
    atol: float
    lossy_cast: tuple[tuple[int, ...], ...] = ()
    notes: tuple[str, ...] = ()  # cast and NaN remarks, in plain sentences
    trace: Trace | None = field(default=None, repr=False, compare=False)
    conforms: bool = False  # the expected output is one the spec allows (matches implies conforms)
    allowed: list[tuple[int, ...]] = field(default_factory=list)  # the mismatches the spec allows
    open_cells: tuple[OpenCell, ...] = ()  # the first MAX_CHAINS of ``allowed``, with their candidates
    opened: OpenCells | None = field(default=None, repr=False, compare=False)  # every cell the spec leaves open

    @property
    def comparison(self) -> Comparison:
        """The expected output beside the computed one, the mismatches and the allowed cells as flat indices."""
        def flat(cells):
            return np.ravel_multi_index(tuple(np.array(cells).T), self.computed.shape) if cells \
                else np.zeros(0, dtype=np.int64)
        return Comparison(self.trace, self.expected, self.computed, flat(self.mismatches), flat(self.allowed))

    @property
    def verdict(self) -> str:
        """``"matches"`` the loop-order result, ``"conforms"`` (another output the spec allows), or ``"differs"``."""
        return "matches" if self.matches else "conforms" if self.conforms else "differs"

    @property
    def violations(self) -> list[tuple[int, ...]]:
        """The mismatched cells whose value the spec does not allow."""
        allowed = set(self.allowed)
        return [c for c in self.mismatches if c not in allowed]

    @property
    def _open_kind(self) -> str:
        return self.opened.kind if self.opened is not None else ""

    @property
    def outside_spec(self) -> str:
        """The version's rule on duplicate indices (its ``duplicate_policy``, our words) when the inputs repeat an
        index the text does not allow under this reduction, so the spec defines no output for them; else "".
        Such inputs are graded as a kernel runs them: a duplicated cell may hold any one of its writes."""
        t = self.trace
        if t is None or t.reduction.name not in t.spec.duplicates_forbidden_with or not t.duplicate_groups().size:
            return ""
        return t.spec.duplicate_policy

    @property
    def tolerance(self) -> str:
        """The comparison rule in words (shown next to the verdict), with what the spec leaves open."""
        dtype = self.computed.dtype
        if dtype.kind != "f":
            rule = f"exact comparison ({dtype} output)"
        elif self.rtol == 0 and self.atol == 0:
            rule = f"bit-exact comparison ({dtype} output; NaN equals NaN)"
        else:
            rule = (f"|computed − expected| ≤ atol + rtol·|computed| with rtol = {self.rtol:g}, "
                    f"atol = {self.atol:g} ({dtype} output; NaN equals NaN, ±inf must match)")
        spelling = self.attrs.get("reduction") or "none"
        if self._open_kind == WINNER and self.outside_spec:
            rule += ("; a cell written more than once (which the text does not allow) is accepted when it holds, "
                     "by the same rule, any one of the values written to it")
        elif self._open_kind == WINNER:
            rule += ("; a cell written more than once conforms when it holds, by the same rule, any one of the "
                     "values written to it")
        elif self._open_kind == ROUNDING:
            prod = self.trace is not None and self.trace.reduction.combiner(dtype) is np.multiply
            mean = self.trace is not None and self.trace.reduction.divides
            size = "Π|x|, the product of their magnitudes" if prod else (
                "Σ|x|/n, the mean of their magnitudes" if mean else "Σ|x|, the sum of their magnitudes")
            u = float(np.finfo(dtype).eps) / 2
            rule += (f"; a cell with three or more contributions (updates, and data's value when it takes part) "
                     f"also conforms within 2·γ(n)·{size.split(',')[0]} of the computed value, the most two orders "
                     f"of a float {spelling} can differ by (n roundings, γ(n) = n·u/(1 − n·u), u = {u:g} for "
                     f"{dtype}; {size})")
        return rule

    def _differing_cells(self, limit: int = 4) -> str:
        parts = []
        for oc in self.open_cells[:limit]:
            where = f"output{fmt_pos(oc.cell)}"
            if oc.kind == WINNER:
                writes = ", ".join(f"{fmt_value(v)} at step {s + 1}" for v, s in zip(oc.candidates, oc.steps))
                parts.append(f"{where} holds {fmt_value(self.expected[oc.cell])} (writes: {writes})")
            else:
                parts.append(f"{where} holds {fmt_value(self.expected[oc.cell])}, the loop order gives "
                             f"{fmt_value(oc.loop_value)}, another order may differ by up to "
                             f"{fmt_value(oc.slack, width=9)}")
        more = len(self.allowed) - min(limit, len(self.open_cells))
        return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")

    @property
    def summary(self) -> str:
        n = len(self.mismatches)
        size = self.computed.size
        cells = f"cell{'s' if n != 1 else ''}"
        spelling = self.attrs.get("reduction") or "none"
        forbidden = self.outside_spec
        outside = (f"{self.op}'s text does not allow these inputs: {forbidden[:1].lower()}{forbidden[1:]} They "
                   f"repeat an index, so the spec itself defines no output for them; graded as a kernel runs them, "
                   f"a duplicated cell may hold any one of the values written to it, every other cell what the "
                   f"loop gives.") if forbidden else ""
        if self.matches:
            return f"Your expected output matches {self.op}'s result ({self.tolerance})." + (
                f" Note: {outside}" if outside else "")
        if self.conforms:
            if self._open_kind == WINNER and outside:
                text = (f"Your expected output has a different winner in {n} duplicated {cells}: "
                        f"{self._differing_cells()}. {outside} So yours is accepted; {self.op}'s loop order, which "
                        f"real runtimes follow today, keeps the last write. Without the duplicates, the spec "
                        f"defines the case fully.")
            elif self._open_kind == WINNER:
                text = (f"Your expected output conforms to {self.op}, with a different winner in {n} duplicated "
                        f"{cells}: {self._differing_cells()}. The spec leaves open which write to a cell wins when "
                        f"several reach it (reduction {spelling}), so a conforming kernel may return this output; "
                        f"{self.op}'s loop order, which real runtimes follow today, keeps the last write.")
            else:
                text = (f"Your expected output conforms to {self.op}, with different rounding in {n} duplicated "
                        f"{cells}: {'they differ' if n != 1 else 'it differs'} from the loop-order result by no more "
                        f"than another order of the float {spelling} may round ({self._differing_cells()}). The "
                        f"spec does not fix the order in which a cell's contributions are combined; {self.op}'s loop order is what real runtimes follow today.")
            return text
        head = (f"{n} of {size} cell{'s' if size != 1 else ''} {'differ' if n != 1 else 'differs'} from "
                f"{self.op}'s result." + (f" Note: {outside}" if outside else ""))
        if self.allowed:
            k, bad = len(self.allowed), len(self.mismatches) - len(self.allowed)
            head += (f" {k} of them {'are' if k != 1 else 'is a'} duplicated cell{'s' if k != 1 else ''} holding "
                     f"another value the spec allows there; the other {bad} {'are' if bad != 1 else 'is'} not "
                     f"allowed.")
        if not self.diagnoses:
            return head + " None of the alternative readings tried reproduces your expected output."
        return head + f" {len(self.diagnoses)} alternative reading(s) reproduce it exactly."


# -- comparison ----------------------------------------------------------------------------------
def _cast(expected: np.ndarray, dtype: np.dtype) -> tuple[np.ndarray, tuple[tuple[int, ...], ...]]:
    if expected.dtype == dtype:
        return expected, ()
    with np.errstate(all="ignore"):
        cast = expected.astype(dtype)
        back = cast.astype(expected.dtype)
    same = back == expected
    if expected.dtype.kind == "f":
        same |= np.isnan(expected) & np.isnan(back)
    if expected.dtype.kind == "f" and dtype.kind == "f":
        # narrowing floats (float64 text into a float32 output) rounds; that is the cast, not a typo
        with np.errstate(all="ignore"):
            same |= np.isclose(back, expected, rtol=float(np.finfo(dtype).eps), atol=0)
    lossy = unravel(np.flatnonzero(~same.reshape(-1)), expected.shape)
    return cast, tuple(tuple(int(c) for c in row) for row in lossy)


# -- chains ----------------------------------------------------------------------------------------
def _chains(trace: Trace, cells_flat: np.ndarray, expected: np.ndarray, allowed: Mapping[int, str],
            refused: Mapping[int, str]) -> list[Chain]:
    """``allowed``: flat cell -> why the spec allows the expected value there; ``refused``: flat cell -> why it
    does not, where the spec leaves the cell open."""
    targets = trace.plan.targets
    hit = np.isin(targets, cells_flat)
    steps, slots = np.nonzero(hit)  # row-major: loop order
    by_cell: dict[int, list[ChainStep]] = {int(c): [] for c in cells_flat}
    for i, s in zip(steps.tolist(), slots.tolist()):
        cell = int(targets[i, s])
        src = tuple(int(v) for v in unravel([trace.plan.sources[i, s]], trace.updates.shape)[0])
        by_cell[cell].append(ChainStep(i, src, trace.values[i, s], trace.before[i, s], trace.after[i, s]))
    out = []
    spelling = trace.resolved.reduction
    init = codec_with_role(trace.spec, "init")
    about = dict(row=trace.reduction, use_init=bool(trace.use_init),
                 init_words=init.display(False) if init is not None else "use_init_val=false",
                 roundings=mean_roundings(trace.spec.name, trace.data.dtype) if trace.reduction.divides else ())
    for flat in cells_flat.tolist():
        pos = tuple(int(v) for v in np.unravel_index(flat, trace.data.shape))
        out.append(Chain(pos, trace.data[pos], tuple(by_cell[flat]), trace.output[pos], expected[pos], spelling,
                         allowed.get(flat, ""), refused.get(flat, ""), **about))
    return out


def chain_of(trace: Trace, cell) -> Chain:
    """How output ``cell`` of ``trace`` gets its value (``Chain.explain()``: its writes, then the reduction as the
    spec defines it), with nobody's expected value to compare."""
    flat = int(np.ravel_multi_index(tuple(int(c) for c in cell), trace.data.shape))
    (chain,) = _chains(trace, np.array([flat]), trace.output, {}, {})
    return dataclasses.replace(chain, expected=None)


# -- alternatives ------------------------------------------------------------------------------------
# Each alternative is a generator over (case, trace): the user's case (a scatter_core.Case) and its trace.
Candidate = tuple  # (kind, attrs, message, compute: () -> ndarray | None)


def alt_reduction(c: Case, t: Trace) -> Iterator[Candidate]:
    spec, chosen = c.spec, c.attrs.get("reduction")
    if spec.attribute("reduction") is None:
        return
    flip = spec.attribute("use_init_val") is not None
    for spelling in spec.reduction_spellings:
        if spelling == chosen:
            continue
        yield ("reduction", {"reduction": spelling},
               f"Your expected output is what reduction={spelling!r} gives (you chose {chosen!r}).",
               lambda s=spelling: c.replace(reduction=s).run())
        if flip and spec.reduction(spelling).ufunc is not None:
            other = not c.attrs.get("use_init_val", True)
            yield ("reduction", {"reduction": spelling, "use_init_val": other},
                   f"Your expected output is what reduction={spelling!r} with {fmt_attr('use_init_val', other)} "
                   f"gives (you chose reduction={chosen!r}, {fmt_attr('use_init_val', not other)}).",
                   lambda s=spelling, o=other: c.replace(reduction=s, use_init_val=o).run())


def alt_use_init_val(c: Case, t: Trace) -> Iterator[Candidate]:
    spec = c.spec
    if spec.attribute("use_init_val") is None or t.reduction.ufunc is None:
        return
    old = bool(c.attrs.get("use_init_val", True))
    why = ("targeted cells start from the reduction's neutral value instead of data's" if old else
           "data's value takes part in the reduction")
    yield ("use_init_val", {"use_init_val": not old},
           f"Your expected output is what {fmt_attr('use_init_val', not old)} gives (you chose "
           f"{fmt_attr('use_init_val', old)}): with it, {why}.",
           lambda: c.replace(use_init_val=not old).run())


def alt_axis(c: Case, t: Trace) -> Iterator[Candidate]:
    if c.spec.attribute("axis") is None:
        return
    chosen = t.resolved.axis
    for axis in range(max(c.data.ndim, 1)):
        if axis == chosen:
            continue
        yield ("axis", {"axis": axis},
               f"Your expected output is what axis={axis} gives (you chose axis={c.attrs.get('axis')}).",
               lambda a=axis: c.replace(axis=a).run())


def _other_choices(spec, attrs: Mapping) -> Iterator[tuple[str, str, str]]:
    """``(name, value, chosen)`` for every other value of each attribute that picks one of a few named
    behaviours (an attribute record with ``choices``: TensorScatter's linear or circular ``mode``)."""
    for a in spec.attributes:
        chosen = attrs.get(a.name)
        chosen = a.default if chosen is None else chosen
        for value in a.choices:
            if value != chosen:
                yield a.name, value, chosen


def alt_choice(c: Case, t: Trace) -> Iterator[Candidate]:
    for name, value, chosen in _other_choices(c.spec, c.attrs):
        yield (name, {name: value},
               f"Your expected output is what {fmt_attr(name, value)} gives (you chose {fmt_attr(name, chosen)}).",
               lambda n=name, v=value: c.replace(**{n: v}).run())


def alt_first_write_wins(c: Case, t: Trace) -> Iterator[Candidate]:
    if t.reduction.ufunc is not None or t.duplicate_groups().size == 0:
        return
    forbidden = t.reduction.name in t.spec.duplicates_forbidden_with
    yield ("first-write-wins", {"duplicates": "first write wins"},
           "Your expected output is what you get when the first write to a duplicated index wins. "
           + (f"{t.spec.name}'s text does not allow duplicate indices here, so it names no winner and this output "
              "is as good as any other write's; " if forbidden else
              "The spec leaves open which write wins, so this output is allowed; ")
           + "the spec's loop order (and every runtime tried) makes the last write win.",
           lambda: t.output_in_order("reversed"))


def _skip_negative(c: Case) -> np.ndarray:
    keep = ~(c.plan.index_raw < 0).any(axis=1)
    plan = dataclasses.replace(c.plan, targets=c.plan.targets[keep], sources=c.plan.sources[keep],
                               index_cells=c.plan.index_cells[keep], index_raw=c.plan.index_raw[keep],
                               index_norm=c.plan.index_norm[keep])
    return dataclasses.replace(c, plan=plan).run()


def alt_negative_indices(c: Case, t: Trace) -> Iterator[Candidate]:
    raw = t.plan.index_raw
    negative = raw < 0
    if not negative.any():
        return
    n = int(negative.any(axis=1).sum())
    yield ("negative-index", {"negative_indices": "skipped"},
           f"Your expected output is what you get when writes with a negative index are skipped (as if out of "
           f"range) instead of counting from the end (v + size): {n} write(s) use a negative index.",
           lambda: _skip_negative(c))
    idx = c.indices.astype(np.int64)
    yield ("negative-index", {"negative_indices": "|v|"},
           "Your expected output is what you get when the minus sign of negative indices is dropped (-1 read as "
           "1) instead of counting from the end (v + size).",
           lambda: c.replace(indices=np.abs(idx).astype(c.indices.dtype)).run())
    sizes = sorted(set(c.data.shape) | set(c.indices.shape) | set(c.updates.shape))
    for size in sizes:
        if size <= 0:
            continue
        yield ("negative-index", {"negative_indices": f"v + {size}"},
               f"Your expected output is what you get when negative indices count from the end of a dimension of "
               f"size {size} (v + {size}) rather than of the dimension they index.",
               lambda s=size: c.replace(indices=np.where(idx < 0, idx + s, idx).astype(c.indices.dtype)).run())


def _mapped_attrs(c: Case, other) -> dict | None:
    """The user's attributes in ``other``'s names and spellings, axis aside (the readings choose it);
    None if ``other`` cannot express them."""
    mapped, dropped = translate_attrs(c.spec, c.attrs, other)
    mapped.pop("axis", None)
    dropped.pop("axis", None)
    if dropped:
        return None
    if other.attribute("use_init_val") is not None:
        mapped["use_init_val"] = c.use_init
    return mapped


def _readings(c: Case, other) -> Iterator[tuple[dict, np.ndarray, np.ndarray, str]]:
    """Ways to hand the same indices (and update values) to a family that reads them differently."""
    _, idx, upd = c.given()
    index_forms = [(idx, "")]
    if idx.ndim >= 1 and idx.shape[-1] == 1 and idx.ndim > 1:
        index_forms.append((idx.reshape(idx.shape[:-1]), f"indices reshaped to {idx.shape[:-1]}"))
    index_forms.append((idx[..., None], f"indices reshaped to {idx.shape + (1,)}"))
    axes = range(max(c.data.ndim, 1)) if other.attribute("axis") is not None else [None]
    for ix, note in index_forms:
        for axis in axes:
            try:
                shape = family_of(other).updates_shape(c.data.shape, ix.shape, {"axis": axis})
                wanted = [] if shape is None else [shape]
            except (IndexError, ValueError, TypeError):
                wanted = []
            forms = [(upd, "")]
            for shape in wanted:
                if tuple(shape) != upd.shape and int(np.prod(shape)) == upd.size:
                    forms.append((upd.reshape(shape), f"updates reshaped to {tuple(shape)}"))
            for uf, unote in forms:
                extra = {"axis": axis} if axis is not None else {}
                yield extra, ix, uf, ", ".join(x for x in (note, unote) if x)


def alt_family(c: Case, t: Trace) -> Iterator[Candidate]:
    spec = c.spec
    if c.given()[1] is None:  # no indices tensor given (SliceScatter, TensorScatter without write_indices)
        return
    for family in sorted({s.family for s in OPERATORS_LIST if family_of(s).indices != "unused"} - {spec.family}):
        members = sorted(family_members(family), key=lambda s: (s.framework != spec.framework, -s.version))
        for other in members:
            mapped = _mapped_attrs(c, other)
            if mapped is None:
                continue
            for extra, ix, uf, note in _readings(c, other):
                attrs = {"op": other.name, **mapped, **extra}
                if ix.shape != c.given()[1].shape:
                    attrs["indices_shape"] = tuple(int(n) for n in ix.shape)
                if uf.shape != c.updates_given_shape:
                    attrs["updates_shape"] = tuple(int(n) for n in uf.shape)
                shown = ", ".join(fmt_attr(k, v) for k, v in {**mapped, **extra}.items())
                msg = (f"Your expected output is what {other.name}{f' ({shown})' if shown else ''} gives when it "
                       f"reads the same indices as {family_of(other).reading}"
                       f"{f' ({note})' if note else ''}; you chose {spec.name}, which reads "
                       f"{family_of(spec).reading}.")
                yield ("family", attrs, msg,
                       lambda o=other, i=ix, u=uf, m={**mapped, **extra}: _run_other(c, o, i, u, m))
            break  # one record per family: the closest that can express the user's attributes


def _run_other(c: Case, other, indices, updates, attrs) -> np.ndarray:
    return prepare(other, c.data, indices, updates, attrs).run()


def _neighbours(spec) -> list:
    same = list(versions_of(spec.op_type))
    i = [s.name for s in same].index(spec.name)
    found = [s for s in (same[i - 1] if i > 0 else None, same[i + 1] if i + 1 < len(same) else None) if s]
    if spec.previous:
        found.append(get_spec(spec.previous))
    found += [s for s in OPERATORS_LIST if s.previous == spec.name]
    seen, out = set(), []
    for s in found:
        if s.name not in seen and s.name != spec.name:
            seen.add(s.name)
            out.append(s)
    return out


def alt_version(c: Case, t: Trace) -> Iterator[Candidate]:
    spec = c.spec
    _, indices, updates = c.given()
    for other in _neighbours(spec):
        attrs, dropped = translate_attrs(spec, c.attrs, other)
        axis = codec_with_role(other, "axis")
        if axis is not None and attrs.get(axis.name) is None:
            continue  # the user's reading has no axis to hand over
        tail = f"; it has no {', '.join(dropped.values())}" if dropped else ""
        yield ("version", {"op": other.name, **attrs},
               f"Your expected output is what the neighbouring version {other.name} gives (you chose "
               f"{spec.name}){tail}.",
               lambda o=other, a=attrs: _run_other(c, o, indices, updates, a))


def _truncated_mean(t: Trace) -> np.ndarray | None:
    if t.plan.targets.size == 0:
        return None
    cells, acc, count = t.mean_parts()  # per written cell: the final sum and the contributions
    out = t.output.copy()
    out.reshape(-1)[cells] = truncate_mean(acc, count).astype(out.dtype)
    return out


def alt_mean_truncated(c: Case, t: Trace) -> Iterator[Candidate]:
    if not t.reduction.divides or t.data.dtype.kind not in "iu":
        return
    notes = " ".join(f"{n.runtimes} {n.text}." for n in c.spec.notes_on("integer-mean", t.data.dtype))
    yield ("mean-truncated", {"reduction": c.attrs.get("reduction"), "rounding": "toward zero"},
           "Your expected output is the integer mean rounded toward zero (truncated); the spec rounds it down "
           "(toward −∞), which differs for negative, inexact means." + (f" Observed: {notes}" if notes else ""),
           lambda: _truncated_mean(t))


ALTERNATIVES: tuple[Callable[[Case, Trace], Iterator[Candidate]], ...] = (
    alt_reduction, alt_use_init_val, alt_axis, alt_choice, alt_first_write_wins, alt_negative_indices, alt_family,
    alt_version, alt_mean_truncated,
)


def diagnose(c: Case, t: Trace, expected: np.ndarray, rtol: float, atol: float) -> list[Diagnosis]:
    """Every alternative reading that reproduces ``expected`` (and differs from the spec's result)."""
    found: list[Diagnosis] = []
    seen = set()
    for alternative in ALTERNATIVES:
        for kind, attrs, message, compute in alternative(c, t):
            try:
                with np.errstate(all="ignore"):
                    out = compute()
            except ScatterError:
                continue
            if out is None or out.shape != expected.shape:
                continue
            out = np.asarray(out)
            if out.dtype != expected.dtype:
                continue
            if not _agree(out, expected, rtol, atol).all():
                continue
            key = (kind, tuple(sorted((k, repr(v)) for k, v in attrs.items())))
            if key in seen:
                continue
            seen.add(key)
            full = dict(attrs) if "op" in attrs else {**c.attrs, **attrs}  # another op: attrs are its own
            found.append(Diagnosis(kind, message, MappingProxyType(full), MappingProxyType(dict(attrs))))
    return found


def check_expected(case: Case, expected, *, rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL,
                   diagnose_mismatch: bool = True) -> CheckReport:
    """Compare a hand-written ``expected`` output with the result of ``case`` (a :class:`Case`, built by
    ``scatter_core.case``); see the module docstring.

    Raises :class:`ScatterError` for an expected output whose shape differs from the output's.
    """
    case = as_case(case, "check_expected")
    if not (np.isfinite(rtol) and np.isfinite(atol) and rtol >= 0 and atol >= 0):
        raise ScatterError(f"rtol = {rtol!r} and atol = {atol!r} must be finite and >= 0", argument="tolerance",
                           rule="tolerance")
    spec = case.spec
    trace = case.trace()
    computed = trace.output
    expected = as_tensor("expected", expected)
    if expected.shape != computed.shape:
        raise ScatterError(
            f"expected has shape {expected.shape} but the output of {spec.name} has data's shape {computed.shape}",
            argument="expected", rule="shape")
    notes = []
    cast, lossy = _cast(expected, computed.dtype)
    if lossy:
        first = lossy[0]
        notes.append(f"Casting expected ({expected.dtype}) to the output's dtype {computed.dtype} changes "
                     f"{len(lossy)} value(s), e.g. expected{fmt_pos(first)} = {fmt_value(expected[first])} becomes "
                     f"{fmt_value(cast[first])}; the comparison uses the cast values.")
    elif expected.dtype != computed.dtype:
        notes.append(f"expected ({expected.dtype}) was cast to the output's dtype {computed.dtype} without loss.")
    if computed.dtype.kind == "f" and (np.isnan(computed).any() or np.isnan(cast).any()):
        notes.append("NaN in the expected output agrees only with NaN in the computed output.")
    rtol, atol = float(rtol), float(atol)
    agree = _agree(computed, cast, rtol, atol).reshape(-1)
    bad_flat = np.flatnonzero(~agree)
    mismatches = [tuple(int(v) for v in row) for row in unravel(bad_flat, computed.shape)]
    opened = open_cells(trace)
    allowed_flat, allowed_ids = _allowed(opened, cast, agree, rtol, atol)
    conforms = allowed_flat.size == bad_flat.size
    forbidden = trace.reduction.name in trace.spec.duplicates_forbidden_with
    why = {int(f): _allowed_sentence(opened.cell(int(i)), cast, trace.resolved.reduction, rtol, atol, forbidden)
           for f, i in zip(allowed_flat[:MAX_CHAINS].tolist(), allowed_ids[:MAX_CHAINS].tolist())}
    refused = np.flatnonzero(np.isin(opened.cells, bad_flat[:MAX_CHAINS]) & ~np.isin(opened.cells, allowed_flat))
    why_not = {int(opened.cells[i]): _refused_sentence(opened.cell(int(i)), cast, trace.resolved.reduction)
               for i in refused.tolist()}
    chains = _chains(trace, bad_flat[:MAX_CHAINS], cast, why, why_not) if bad_flat.size else []
    resolved = dict(trace.attrs)
    diagnoses = []
    if bad_flat.size and diagnose_mismatch:
        diagnoses = [dataclasses.replace(d, allowed=conforms)
                     for d in diagnose(case, trace, cast, rtol, atol)]
    return CheckReport(op=spec.name, attrs=MappingProxyType(resolved), computed=computed, expected=cast,
                       matches=not bad_flat.size, mismatches=mismatches, chains=chains, diagnoses=diagnoses,
                       rtol=rtol, atol=atol, lossy_cast=lossy, notes=tuple(notes), trace=trace, conforms=conforms,
                       allowed=[tuple(int(v) for v in row) for row in unravel(allowed_flat, computed.shape)],
                       open_cells=tuple(opened.cell(int(i)) for i in allowed_ids[:MAX_CHAINS]), opened=opened)


def _allowed(opened: OpenCells, expected: np.ndarray, agree: np.ndarray, rtol: float,
             atol: float) -> tuple[np.ndarray, np.ndarray]:
    """(flat cells, ids into ``opened``) of the cells where ``expected`` differs from the loop-order result
    (``agree`` False) but holds a value the spec allows, ascending."""
    if not len(opened):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    ids = np.flatnonzero(opened.allows(expected, rtol, atol) & ~agree[opened.cells])
    return opened.cells[ids], ids


def _refused_sentence(oc: OpenCell, expected: np.ndarray, spelling: str) -> str:
    """Why the expected value at ``oc``, a cell the spec leaves open, is still not allowed."""
    value = fmt_value(expected[oc.cell])
    if oc.kind == WINNER:
        return (f"The spec leaves open which write wins here, but only a value written to this cell: "
                f"{', '.join(fmt_value(v) for v in oc.candidates)}; {value} is none of them.")
    return (f"Another order of the float {spelling} may change it by up to {fmt_value(oc.slack, width=9)}; {value} is "
            f"further away.")


def _allowed_sentence(oc: OpenCell, expected: np.ndarray, spelling: str, rtol: float, atol: float,
                      forbidden: bool = False) -> str:
    """Why the spec allows the expected value at ``oc``, in a sentence (``forbidden``: the version's text does not
    allow the duplicates at all, so it names no winner rather than leaving one open)."""
    value = expected[oc.cell]
    if oc.kind == WINNER:
        same = _agree(np.asarray(oc.candidates, dtype=expected.dtype), np.full(len(oc.candidates), value), rtol, atol)
        steps = [s + 1 for s, hit in zip(oc.steps, same.tolist()) if hit]
        which = f"step {steps[0]}" if len(steps) == 1 else "steps " + ", ".join(str(s) for s in steps)
        rule = ("the text does not allow duplicate indices here, so it names no winner among the "
                if forbidden else "the spec leaves open which of the ")
        return (f"{'A kernel may give' if forbidden else 'The spec allows'} {fmt_value(value)} here: {which} "
                f"{'writes' if len(steps) == 1 else 'write'} it, and {rule}{len(oc.candidates)} writes to this "
                f"cell{'' if forbidden else ' wins'}; the loop order (and real runtimes today) keeps the last one, "
                f"{fmt_value(oc.loop_value)}.")
    return (f"The spec allows {fmt_value(value)} here: it is within {fmt_value(oc.slack, width=9)} of "
            f"{fmt_value(oc.loop_value)}, the most that combining this cell's {len(oc.candidates)} updates in "
            f"another order may change a float {spelling}.")


def _gives(spec, data, indices, updates, attrs: Mapping, want: np.ndarray, rtol: float, atol: float) -> bool:
    """Whether ``spec`` accepts the inputs with ``attrs`` and gives ``want`` (cast to its output's dtype)."""
    try:
        with np.errstate(all="ignore"):
            out = prepare(spec, data, indices, updates, attrs).run()
        cast, _ = _cast(want, out.dtype)
    except ScatterError:
        return False
    return cast.shape == out.shape and bool(_agree(out, cast, rtol, atol).all())


def versions_accepting(op, data, indices, updates, expected, *, rtol: float = DEFAULT_RTOL,
                       atol: float = DEFAULT_ATOL, **attrs) -> list[Diagnosis]:
    """When ``op`` refuses the inputs: the other versions of its operator (and its ``previous``
    and successors) that accept them and give ``expected`` exactly. Never raises ScatterError."""
    try:
        spec = get_spec(op)
        want = as_tensor("expected", expected)
    except ScatterError:
        return []
    others = [s for s in versions_of(spec.op_type) if s.name != spec.name]
    others += [s for s in _neighbours(spec) if s not in others]
    found = []
    for other in others:
        mapped, dropped = translate_attrs(spec, attrs, other)
        reduction = reduction_codec(spec).name
        if dropped.get(reduction) is not None and other.attribute(reduction) is not None:
            continue
        if _gives(other, data, indices, updates, mapped, want, rtol, atol):
            shown = ", ".join(fmt_attr(k, v) for k, v in mapped.items())
            found.append(Diagnosis(
                "version", f"{spec.name} refuses these inputs, but {other.name}"
                f"{f' ({shown})' if shown else ''} accepts them and gives exactly your expected output.",
                MappingProxyType({"op": other.name, **mapped}), MappingProxyType({"op": other.name})))
    return found


def choices_accepting(op, data, indices, updates, expected, *, rtol: float = DEFAULT_RTOL,
                      atol: float = DEFAULT_ATOL, **attrs) -> list[Diagnosis]:
    """When ``op`` refuses the inputs: the other values of its choice attributes (TensorScatter's
    ``mode``: a linear write past the end is refused, a circular one wraps around) under which it
    accepts them and gives ``expected`` exactly. Never raises ScatterError."""
    try:
        spec = get_spec(op)
        want = as_tensor("expected", expected)
    except ScatterError:
        return []
    found = []
    for name, value, chosen in _other_choices(spec, attrs):
        changed = {k: v for k, v in {**attrs, name: value}.items() if v is not None}
        if _gives(spec, data, indices, updates, changed, want, rtol, atol):
            found.append(Diagnosis(
                name, f"{spec.name} refuses these inputs with {fmt_attr(name, chosen)}, but {fmt_attr(name, value)} "
                f"accepts them and gives exactly your expected output.",
                MappingProxyType(changed), MappingProxyType({name: value})))
    return found
