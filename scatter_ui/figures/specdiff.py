"""Pure helpers behind the spec pages: timelines, version diffs, cross-framework rows.

Everything here is computed from the registry records (``scatter_core.OpSpec``);
nothing is a hand-kept list of operator facts. No streamlit import: the
functions return plain rows, so the tests can check them directly.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

import numpy as np

import runtime_check as rc
import scatter_core as sc
import spec_examples
from scatter_core import REDUCTIONS, OpSpec

from scatter_ui.figures.text import md

# The cross-framework pairs the spec pages compare (ONNX version, OpenVINO version).
CROSS_PAIRS: tuple[tuple[str, str], ...] = (
    ("ScatterElements-18", "ScatterElementsUpdate-12"),
    ("ScatterND-18", "ScatterNDUpdate-15"),
)

NEGATIVE_WORDS = {
    "allowed": "allowed: v < 0 counts from the end",
    "forbidden": "forbidden by the text",
    "unstated": "the text does not say",
}


# ---------------------------------------------------------------------------- rule fields
def _attrs(spec: OpSpec) -> str:
    if not spec.attributes:
        return "(none)"
    parts = []
    for a in spec.attributes:
        where = "input" if a.is_input else "attribute"
        default = "required" if a.required else f"default {a.default!r}" if a.default is not None else "no default"
        parts.append(f"{a.name} ({a.kind} {where}, {default})")
    return "; ".join(parts)


def _reductions(spec: OpSpec) -> str:
    return ", ".join(s if s == c else f"{s} (= {c})" for s, c in spec.reductions)


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


# (row label, how to read it from a record). The comparison and the timeline use the same fields.
def _flag(spec: OpSpec, name: str) -> str:
    """A shape flag of the record, or n/a where the family record says the flag does not apply."""
    return _yes_no(getattr(spec, name)) if name in sc.family_of(spec).spec_flags else "n/a"


RULE_FIELDS: tuple[tuple[str, object], ...] = (
    ("framework", lambda s: s.framework),
    ("official page", lambda s: s.url),
    ("summary", lambda s: s.summary),
    ("formula", lambda s: s.formula),
    ("loop", lambda s: s.loop),
    ("attributes", _attrs),
    ("reductions (spelling = meaning)", _reductions),
    ("default reduction", lambda s: s.default_reduction),
    ("negative indices", lambda s: NEGATIVE_WORDS.get(s.index_rule.negative, s.index_rule.negative)),
    ("index range", lambda s: s.index_rule.text),
    ("index types", lambda s: ", ".join(s.index_rule.dtypes)),
    ("shape rules", lambda s: " · ".join(s.shape_rules)),
    ("duplicates forbidden", lambda s: forbidden_words(s)),
    ("duplicates", lambda s: s.duplicate_policy),
    ("data types", lambda s: s.data_types),
    ("indices axis dim may exceed data's", lambda s: _flag(s, "axis_dim_may_exceed")),
    ("0-d update slice as 1 element", lambda s: _flag(s, "one_element_for_scalar_updates")),
    ("deprecated in favour of", lambda s: s.deprecated or "(not deprecated)"),
    ("runs on", lambda s: ", ".join(s.runnable_on) or f"no runtime (stand-in: {s.extra.get('runtime_stand_in', 'none')})"),
)


def rules(spec: OpSpec) -> dict[str, str]:
    """The record's rules as label -> text."""
    return {label: str(read(spec)) for label, read in RULE_FIELDS}


@dataclass(frozen=True)
class DiffRow:
    field: str
    a: str
    b: str

    @property
    def differs(self) -> bool:
        return self.a != self.b


def diff(a: OpSpec | str, b: OpSpec | str) -> list[DiffRow]:
    """Every rule field of two records side by side (``DiffRow.differs`` marks the differences)."""
    ra, rb = rules(sc.get_spec(a)), rules(sc.get_spec(b))
    return [DiffRow(label, ra[label], rb[label]) for label, _ in RULE_FIELDS]


def differences(a: OpSpec | str, b: OpSpec | str) -> list[DiffRow]:
    return [r for r in diff(a, b) if r.differs]


def reduction_changes(old: OpSpec, new: OpSpec) -> list[str]:
    """Reductions and spellings gained, lost or renamed between two records, as sentences."""
    out = []
    old_map, new_map = dict(old.reductions), dict(new.reductions)
    old_by_c = {c: s for s, c in old.reductions}
    new_by_c = {c: s for s, c in new.reductions}
    gained = [s for s, c in new.reductions if c not in old_by_c]
    lost = [s for s, c in old.reductions if c not in new_by_c]
    renamed = [f"{old_by_c[c]} → {s}" for s, c in new.reductions if c in old_by_c and old_by_c[c] != s]
    if gained:
        out.append("reductions gained: " + ", ".join(gained))
    if lost:
        out.append("reductions dropped: " + ", ".join(lost))
    if renamed:
        out.append("reduction spellings changed: " + ", ".join(renamed))
    if old_map and new_map and old.default_reduction != new.default_reduction:
        out.append(f"default reduction {old.default_reduction} → {new.default_reduction}")
    return out


@dataclass(frozen=True)
class TimelineEntry:
    spec: OpSpec
    declared: tuple[str, ...]  # the record's own `changes`
    computed: tuple[DiffRow, ...]  # rule fields that differ from the previous record
    reduction_notes: tuple[str, ...]


SKIP_IN_TIMELINE = {"official page", "summary", "framework"}


def lineage(family: str) -> list[list[OpSpec]]:
    """The family's versions as chains: each op_type in version order; a chain whose first record
    names a previous record of another op_type (ScatterElements-11 ← Scatter-9) follows that chain."""
    members = sc.family_members(family)
    op_types = list(dict.fromkeys(s.op_type for s in sorted(members, key=lambda s: (s.framework != "ONNX",))))
    chains = [list(sc.versions_of(t)) for t in op_types]
    return chains


def timeline(family: str) -> list[tuple[str, list[TimelineEntry]]]:
    """(op_type, entries in version order) for every op_type of the family."""
    out = []
    for chain in lineage(family):
        entries = []
        for spec in chain:
            prev = sc.OPERATORS.get(spec.previous) if spec.previous else None
            computed = tuple(r for r in diff(prev, spec) if r.differs and r.field not in SKIP_IN_TIMELINE) if prev else ()
            notes = tuple(reduction_changes(prev, spec)) if prev else ()
            entries.append(TimelineEntry(spec, spec.changes, computed, notes))
        out.append((chain[0].op_type, entries))
    return out


# ---------------------------------------------------------------------------- cross-framework
def pairs_for(family: str) -> list[tuple[OpSpec, OpSpec]]:
    return [(sc.OPERATORS[a], sc.OPERATORS[b]) for a, b in CROSS_PAIRS
            if sc.OPERATORS[a].family == family and sc.OPERATORS[b].family == family]


def _spelling_cell(spec: OpSpec, canonical: str) -> str:
    s = spec.spelling_of(canonical)
    return f"✔ {s}" if s else "✘ not available"


REDUCTION_ROW = "reduction meaning {}"
AVAILABLE_ROW = "{} available"
INIT_ROW = "use_init_val"
INDEX_TYPES_ROW = "index types"
FORBIDDEN_ROW = "duplicates forbidden"
POLICY_ROW = "duplicate policy"
AXIS_ROW = "axis"


def cross_framework(a: OpSpec | str, b: OpSpec | str) -> list[tuple[str, str, str]]:
    """(topic, a, b) rows: each canonical reduction with its spelling in each framework, then
    use_init_val, mean, sub, negative indices, index types, duplicates and how axis is given."""
    a, b = sc.get_spec(a), sc.get_spec(b)
    rows = []
    canon = [c for c in REDUCTIONS if a.spelling_of(c) or b.spelling_of(c)]
    for c in canon:
        rows.append((REDUCTION_ROW.format(c), _spelling_cell(a, c), _spelling_cell(b, c)))
    rows.append(("default reduction", a.default_reduction, b.default_reduction))

    def init(spec: OpSpec) -> str:
        attr = spec.attribute("use_init_val")
        if attr is None:
            return "✘ no such attribute: the cell's current value always takes part"
        return f"✔ attribute, default {str(attr.default).lower()}"

    rows.append((INIT_ROW, init(a), init(b)))
    for c in ("mean", "sub"):
        rows.append((AVAILABLE_ROW.format(c), _yes_no(a.spelling_of(c) is not None), _yes_no(b.spelling_of(c) is not None)))
    rows.append(("negative indices", NEGATIVE_WORDS[a.index_rule.negative], NEGATIVE_WORDS[b.index_rule.negative]))
    rows.append(("index range", a.index_rule.text, b.index_rule.text))
    rows.append((INDEX_TYPES_ROW, ", ".join(a.index_rule.dtypes), ", ".join(b.index_rule.dtypes)))
    rows.append((FORBIDDEN_ROW, forbidden_words(a), forbidden_words(b)))
    rows.append((POLICY_ROW, a.duplicate_policy, b.duplicate_policy))

    def axis(spec: OpSpec) -> str:
        attr = spec.attribute("axis")
        if attr is None:
            return "no axis (k-tuples address the leading dimensions)"
        return "4th input (required)" if attr.is_input else f"attribute, default {attr.default}"

    rows.append((AXIS_ROW, axis(a), axis(b)))
    return rows


def forbidden_words(spec: OpSpec) -> str:
    """When the text forbids duplicate indices, in words no one reads as "forbids nothing"."""
    if not spec.duplicates_forbidden_with:
        return "never: the text allows duplicate indices"
    return f"with reduction {' or '.join(spec.duplicates_forbidden_with)}"


# ---------------------------------------------------------------------------- runtime notes
def fact_source(fact: sc.Fact) -> str:
    """A fact's source for people (a spec page, an upstream issue or this project's test) with the versions it was
    verified on; "NEW: " first when docs/semantics.md does not describe it yet."""
    return ("" if fact.documented else "NEW: ") + fact.source_words()


def fact_skew(fact: sc.Fact, installed: Mapping[str, str | None] | None) -> str:
    """'' when every runtime ``fact`` names is installed in the version it was verified on (or not installed), else
    what :func:`runtime_check.version_skew` says. ``installed``: runtime -> version (runtime_check.available())."""
    found = [rc.version_skew(r, (installed or {}).get(r)) for r in fact.runtimes]
    return "; ".join(dict.fromkeys(t for t in found if t))


def runtime_rows(spec: OpSpec, installed: Mapping[str, str | None] | None = None) -> list[dict[str, str]]:
    """The record's runtime notes (facts of ``scatter_core.FACTS``) as table rows, each with its source
    (:func:`fact_source`); with ``installed`` (runtime -> version), an "installed version" column where a fact's
    runtime is installed in another version than the one it was verified on."""
    rows = [{"topic": n.topic, "runtime (version)": n.runtimes, "what it does": n.text,
             "source": fact_source(sc.FACT_BY_ID[n.fact]), "installed version": fact_skew(sc.FACT_BY_ID[n.fact],
                                                                                          installed)}
            for n in spec.runtime_notes]
    if not any(r["installed version"] for r in rows):
        for r in rows:
            del r["installed version"]
    return rows


def tracker_rows(family: str, installed: Mapping[str, str | None] | None = None) -> list[dict[str, str]]:
    """Reports from upstream issues and spec pages about this family's operators, each checked on the verified
    runtimes by a test of this project (``fact``: its id; ``source``: :meth:`scatter_core.Fact.source_words`)."""
    return [{"fact": f.id, "report": f.text, "runtime (version)": f.runtimes_label(), "on the verified runtimes": f.status,
             "versions": sc.resolve_versions(f.holds_in, sc.verified_versions()), "source": f.source_words(),
             "installed version": fact_skew(f, installed)}
            for f in sc.FACTS if f.source.kind in ("issue", "spec") and family in f.families]


# ---------------------------------------------------------------------------- word diffs, Markdown-safe


BREAK = "\u200b"  # zero-width space: a place a long identifier may wrap in a narrow table cell
_LONG = re.compile(r"\S{17,}")


def breakable(text: str) -> str:
    """Long unbroken tokens (identifiers, paths) get break opportunities after _ / . and - (a table never
    grows wider than the page because of one word)."""
    return _LONG.sub(lambda m: re.sub(r"([_/.\-])", "\\1" + BREAK, m.group(0)), str(text))


def md_escape(text: str) -> str:
    """``text`` escaped for one Markdown table cell: the app's escaper (a ``*`` stays a ``*``), on one line."""
    return md(text).replace("\n", " ")


_TOKENS = re.compile(r"\s+|\w+|[^\w\s]")


def _slight(tokens: list[str]) -> bool:
    """An equal run between two changes that is only punctuation or a stray short word ("-1]") is shown as
    changed: a reader compares words, and a diff stitched together from "]" and "1" hides the change."""
    return sum(ch.isalnum() for t in tokens for ch in t) < 3


def word_diff(a: str, b: str) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
    """Both texts as (word, differs) tokens (whitespace kept as its own unmarked token)."""
    ta, tb = _TOKENS.findall(str(a)), _TOKENS.findall(str(b))
    out_a = [(t, False) for t in ta]
    out_b = [(t, False) for t in tb]
    sm = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    ops = sm.get_opcodes()
    for n, (op, i1, i2, j1, j2) in enumerate(ops):
        inner = 0 < n < len(ops) - 1
        if op == "equal" and not (inner and _slight(ta[i1:i2])):
            continue
        for i in range(i1, i2):
            out_a[i] = (ta[i], not ta[i].isspace())
        for j in range(j1, j2):
            out_b[j] = (tb[j], not tb[j].isspace())
    return out_a, out_b


def marked(tokens: list[tuple[str, bool]], directive: str = "orange-background") -> str:
    """Escaped Markdown of ``tokens`` with each run of differing words inside ``:directive[...]``."""
    out, run = [], []
    for text, differs in tokens + [("", False)]:
        if differs or (run and text.isspace() and text):
            run.append(text)
            continue
        if run:
            trail = []
            while run and run[-1].isspace():
                trail.insert(0, run.pop())
            out.append(f":{directive}[**{md_escape(''.join(run))}**]" + "".join(trail))
            run = []
        out.append(md_escape(text))
    return "".join(out)


# ---------------------------------------------------------------------------- live examples for a row
REDUCTION_TOPICS = ("reduction", "use_init_val", "mean", "sub")
NEGATIVE_TOPICS = ("negative indices", "index range")
DUPLICATE_TOPICS = ("duplicate",)
SMALL = 10_000  # examples checked for duplicates by tracing them


@lru_cache(maxsize=None)
def _example_facts(op: str) -> tuple[tuple[str, str, bool, bool], ...]:
    """(example id, reduction spelling, has negative indices, has duplicates) of each runnable example of ``op``."""
    facts = []
    for ex in spec_examples.examples_for(op):
        if ex.shapes_only or max(a.size for a in ex.inputs if a is not None) > SMALL:  # indices may be left out
            continue
        red = str(ex.attrs.get("reduction", "none"))
        try:
            t = sc.trace(ex.case)  # None where the core refuses the example: a ScatterError
            dup = bool(t.duplicate_groups().size)
        except sc.ScatterError:
            dup = False
        negative = ex.indices is not None and bool((np.asarray(ex.indices) < 0).any())
        facts.append((ex.id, red, negative, dup))
    return tuple(facts)


def _pick(op: str, topic: str, avoid: frozenset = frozenset()) -> tuple[str, str] | None:
    facts = _example_facts(op)
    if not facts:
        return None
    spec = sc.get_spec(op)
    low = topic.lower()
    if any(w in low for w in REDUCTION_TOPICS):
        canon = dict(spec.reductions)
        ranked = sorted(facts, key=lambda f: (f[1] == "none", canon.get(f[1]) in avoid))
        return ranked[0][0], ranked[0][1]
    if any(w in low for w in NEGATIVE_TOPICS):
        hit = [f for f in facts if f[2]]
    elif any(w in low for w in DUPLICATE_TOPICS):
        hit = [f for f in facts if f[3]]
    else:
        hit = []
    f = (hit or facts)[0]
    return f[0], f[1]


def live_examples(topic: str, a: OpSpec | str, b: OpSpec | str) -> list[tuple[str, str, str]]:
    """(op, example id, reduction) for each side of a comparison row: an example that shows the row's topic live
    (a reduction example for reduction rows, negative indices for index rules, duplicates for duplicate rules)."""
    a, b = sc.get_spec(a), sc.get_spec(b)
    out = []
    for mine, other in ((a, b), (b, a)):
        only_mine = frozenset(c for _, c in other.reductions)  # prefer a reduction the other side lacks
        picked = _pick(mine.name, topic, only_mine)
        if picked and (mine.name, *picked) not in out:
            out.append((mine.name, *picked))
    return out


# ---------------------------------------------------------------------------- a live case for each cross-framework row
@dataclass(frozen=True)
class LiveCase:
    """A case that shows one row of the ONNX vs OpenVINO table: the catalogue example ``base`` of ``case.op``,
    changed as ``change`` says (``""``: the example itself, else a generated case the link carries in full)."""

    case: sc.Case
    base: str
    change: str = ""

    @property
    def example(self) -> str | None:
        return self.base if not self.change else None


@lru_cache(maxsize=None)
def _runnable(op: str) -> tuple[tuple[str, sc.Case, bool], ...]:
    """(example id, its case, has duplicate targets) of each small runnable example of ``op``."""
    out = []
    for ex in spec_examples.examples_for(op):
        if ex.shapes_only or max(a.size for a in ex.inputs if a is not None) > SMALL:
            continue
        case = ex.case  # None where the core refuses the example
        if case is None:
            continue
        dup = bool(case.trace().duplicate_groups().size)
        out.append((ex.id, case, dup))
    return tuple(out)


def _changed(case: sc.Case, **attrs) -> sc.Case | None:
    try:
        return case.replace(**attrs)
    except sc.ScatterError:
        return None


def _differ(x: sc.Case, y: sc.Case) -> bool:
    return not np.array_equal(x.run(), y.run(), equal_nan=True)


def _reduction_case(spec: OpSpec, spelling: str) -> LiveCase | None:
    """An example of ``spec`` with reduction ``spelling`` (its own, else one with duplicates given it) where the
    reduction shows: the result is not what plain writes give."""
    plain = spec.spelling_of("none") or spec.default_reduction
    ranked = sorted(_runnable(spec.name), key=lambda r: (r[1].attrs.get("reduction") != spelling, not r[2]))
    for eid, case, _ in ranked:
        own = case.attrs.get("reduction") == spelling
        made = case if own else _changed(case, reduction=spelling)
        none = made and _changed(made, reduction=plain)
        if made is not None and none is not None and _differ(made, none):
            return LiveCase(made, eid, "" if own else f"reduction={spelling}")
    return None


def _init_case(spec: OpSpec) -> LiveCase | None:
    """An example of ``spec`` with a combining reduction where use_init_val=false changes the result."""
    ranked = sorted(_runnable(spec.name), key=lambda r: bool(r[1].attrs.get(INIT_ROW, True)))
    for eid, case, _ in ranked:
        if spec.reduction(case.attrs.get("reduction", spec.default_reduction)).ufunc is None:
            continue
        off = case if not case.attrs.get(INIT_ROW, True) else _changed(case, **{INIT_ROW: False})
        on = _changed(case, **{INIT_ROW: True})
        if off is not None and on is not None and _differ(off, on):
            return LiveCase(off, eid, "" if off is case else f"{INIT_ROW}=false")
    return None


def _index_type_case(spec: OpSpec, other: OpSpec) -> LiveCase | None:
    """An example of ``spec`` with its indices in a type ``other`` refuses (cast exactly when need be)."""
    extra = [d for d in spec.index_rule.dtypes if d not in other.index_rule.dtypes]
    for eid, case, _ in _runnable(spec.name):
        data, indices, updates = case.given()
        if indices is None:
            continue
        if indices.dtype.name in extra:
            return LiveCase(case, eid)
        for name in extra:
            cast = indices.astype(name)
            if np.array_equal(cast.astype(np.int64), indices.astype(np.int64)):
                try:
                    return LiveCase(sc.case(spec, data, cast, updates, **case.attrs), eid, f"indices as {name}")
                except sc.ScatterError:
                    continue
    return None


def _forbidden_case(spec: OpSpec) -> LiveCase | None:
    """An example of ``spec`` with duplicate indices under a reduction its text forbids them with."""
    for reduction in spec.duplicates_forbidden_with:
        for eid, case, dup in _runnable(spec.name):
            if not dup:
                continue
            own = case.attrs.get("reduction", spec.default_reduction) == reduction
            made = case if own else _changed(case, reduction=reduction)
            if made is not None and "spec-disallows-duplicates" in {f.kind for f in made.trace().findings}:
                return LiveCase(made, eid, "" if own else f"reduction={reduction}")
    return None


def _axis_case(spec: OpSpec) -> LiveCase | None:
    """An example of ``spec`` giving an axis other than 0 (so the way the axis is given matters)."""
    for eid, case, _ in _runnable(spec.name):
        if case.attrs.get(AXIS_ROW) not in (None, 0):
            return LiveCase(case, eid)
    return None


def _translated(live: LiveCase, other: OpSpec) -> LiveCase | None:
    """The same case under ``other`` (the same inputs, the attributes in its spelling), or None."""
    try:
        case = live.case.for_version(other)
    except sc.ScatterError:
        return None
    return LiveCase(case, live.base, "the same inputs")


def row_cases(topic: str, a: OpSpec | str, b: OpSpec | str) -> list[LiveCase]:
    """The cases a row of :func:`cross_framework` links to, each showing that row's difference:

    * a reduction (its meaning, or whether it exists): on each side that has it, a case using its spelling where
      the reduction changes the result;
    * use_init_val: a case where use_init_val=false changes the result, and the same inputs on the side
      without the attribute (where the cell's value always takes part);
    * index types: a case whose index type only one side accepts;
    * duplicates: a case with duplicate indices under the reduction one side forbids them with, and the same
      case on the other side;
    * axis: on each side, a case giving an axis other than 0.
    """
    a, b = sc.get_spec(a), sc.get_spec(b)
    canon = next((c for c in REDUCTIONS if topic in (REDUCTION_ROW.format(c), AVAILABLE_ROW.format(c))), None)
    out: list[LiveCase | None] = []
    if canon is not None:
        out = [_reduction_case(s, s.spelling_of(canon)) for s in (a, b) if s.spelling_of(canon)]
    elif topic == INIT_ROW:
        for mine, other in ((a, b), (b, a)):
            if mine.attribute(INIT_ROW) is not None and other.attribute(INIT_ROW) is None:
                live = _init_case(mine)
                on = live and _changed(live.case, **{INIT_ROW: True})
                out = [live, on and _translated(LiveCase(on, live.base, f"{INIT_ROW}=true"), other)]
    elif topic == INDEX_TYPES_ROW:
        out = [_index_type_case(mine, other) for mine, other in ((a, b), (b, a))
               if set(mine.index_rule.dtypes) - set(other.index_rule.dtypes)]
    elif topic in (FORBIDDEN_ROW, POLICY_ROW):
        for mine, other in ((a, b), (b, a)):
            if mine.duplicates_forbidden_with and not set(mine.duplicates_forbidden_with) <= set(
                    other.duplicates_forbidden_with):
                live = _forbidden_case(mine)
                out = [live, live and _translated(live, other)]
                break
    elif topic == AXIS_ROW:
        out = [_axis_case(s) for s in (a, b)]
    else:  # any other row: an example of each side that touches the topic
        cases = {(op, eid): case for op in (a.name, b.name) for eid, case, _ in _runnable(op)}
        out = [LiveCase(cases[op, eid], eid) for op, eid, _ in live_examples(topic, a, b) if (op, eid) in cases]
    return [c for c in out if c is not None]


# ---------------------------------------------------------------------------- a live case for each compared rule
def _negative_case(spec: OpSpec) -> LiveCase | None:
    """An example of ``spec`` whose indices count from the end (a negative index)."""
    for eid, case, _ in _runnable(spec.name):
        indices = case.given()[1]
        if indices is not None and (np.asarray(indices) < 0).any():
            return LiveCase(case, eid)
    return None


def _duplicates_case(spec: OpSpec) -> LiveCase | None:
    """An example of ``spec`` where two writes reach one cell."""
    return next((LiveCase(case, eid) for eid, case, dup in _runnable(spec.name) if dup), None)


def _differing_case(a: OpSpec, b: OpSpec) -> LiveCase | None:
    """An example of ``a`` that ``b`` also takes (in its own spellings) and computes otherwise; else one ``b``
    takes and computes alike, which shows that the row's difference changes no result there."""
    alike = None
    for eid, case, _ in _runnable(a.name):
        try:
            there = case.for_version(b).run()
        except sc.ScatterError:
            continue
        if not np.array_equal(case.run(), there, equal_nan=True):
            return LiveCase(case, eid)
        alike = alike or LiveCase(case, eid)
    return alike


def _both(live: LiveCase | None, other: OpSpec) -> list[LiveCase | None]:
    """``live`` and the same inputs under ``other`` (where it takes them)."""
    return [live, live and _translated(live, other)]


def _reduction_gap(mine: OpSpec, other: OpSpec) -> str | None:
    """A reduction ``mine`` has that ``other`` lacks, else one ``other`` spells otherwise (mine's spelling), or None."""
    lacks = [s for s, c in mine.reductions if other.spelling_of(c) is None]
    return next(iter(lacks), None) or next((s for s, c in mine.reductions if other.spelling_of(c) != s), None)


def compare_cases(field: str, a: OpSpec | str, b: OpSpec | str) -> list[LiveCase]:
    """The cases a row of the Compare versions table (:data:`RULE_FIELDS`) links to, each showing that row's
    difference between versions ``a`` and ``b``:

    * reductions: on each side, a case using a reduction the other side lacks (or spells otherwise), where the
      reduction changes the result;
    * attributes: the row of the attribute that differs (use_init_val, then the reductions, then axis), as in
      the ONNX vs OpenVINO table (:func:`row_cases`);
    * index types, and duplicates (forbidden, or the policy): as :func:`row_cases`; when both texts forbid
      duplicates alike, a case with duplicates on each side;
    * negative indices and the index range: a case with a negative index of the side that allows them, and the
      same inputs on the other side, which refuses them (the link says so) or reads them alike;
    * any other rule (the wording of a formula, the loop, the shape rules, the runtimes ...): an example of one
      side that the other computes otherwise, with the same inputs on the other side; where no example differs,
      one that both compute alike.
    """
    a, b = sc.get_spec(a), sc.get_spec(b)
    out: list[LiveCase | None] = []
    if field == "reductions (spelling = meaning)":
        out = [_reduction_case(mine, s) for mine, other in ((a, b), (b, a))
               if (s := _reduction_gap(mine, other)) is not None]
    elif field == "attributes":
        if (a.attribute(INIT_ROW) is None) != (b.attribute(INIT_ROW) is None):
            out = row_cases(INIT_ROW, a, b)
        elif _reduction_gap(a, b) or _reduction_gap(b, a):
            out = compare_cases("reductions (spelling = meaning)", a, b)
        elif (a.attribute(AXIS_ROW) is None) != (b.attribute(AXIS_ROW) is None) or (
                a.attribute(AXIS_ROW) and b.attribute(AXIS_ROW) and a.attribute(AXIS_ROW) != b.attribute(AXIS_ROW)):
            out = row_cases(AXIS_ROW, a, b)
    elif field == "index types":
        out = row_cases(INDEX_TYPES_ROW, a, b)
    elif field in ("duplicates forbidden", "duplicates"):
        out = row_cases(FORBIDDEN_ROW, a, b) or [_duplicates_case(s) for s in (a, b)]
    elif field in ("negative indices", "index range"):
        for mine, other in ((a, b), (b, a)):
            if mine.index_rule.negative == "allowed" and other.index_rule.negative != "allowed":
                out = _both(_negative_case(mine), other)
                break
        else:
            out = [_negative_case(s) for s in (a, b)]
    out = [c for c in out if c is not None]
    if not out:  # a rule no case shows by itself: the same inputs on both sides, computed otherwise if any are
        for mine, other in ((a, b), (b, a)):
            live = _differing_case(mine, other)
            if live is not None:
                return [c for c in _both(live, other) if c is not None]
        out = [LiveCase(case, eid) for s in (a, b) for eid, case, _ in _runnable(s.name)[:1]]  # nothing shared
    return out
