"""Static findings: what a scatter node shows before the model runs.

* constant indices checked against the node's static shapes by scatter_core itself (a trace on
  stand-in data of the real shapes and dtype): repeated target cells, negative or out-of-range indices;
* the registry's runtime facts (``runtime_check``'s known divergences) whose conditions the node's
  operator version, dtype and attributes already meet.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import scatter_core as sc

from .limits import MAX_STATIC_CHECK_ELEMENTS, shape_text

# core findings that depend on the values in data/updates: meaningless on stand-in zeros
VALUE_KINDS = frozenset({"order-dependent", "float-order-sensitive", "nan-in-max-min", "runtime-divergence"})
MAX_CELLS_NAMED = 4


@dataclass(frozen=True)
class Finding:
    """One static finding: ``rule`` (a short id), ``severity`` ("info" | "warning" | "error"), ``text`` (the
    sentences a user reads), ``title`` (a few words for the node table) and ``source`` (a runtime fact's)."""

    rule: str
    severity: str
    text: str
    title: str = ""  # a few words for the node table ("" : the rule, in words)
    source: str = ""  # where a runtime fact comes from, in words ("" for what scatter_core computed)

    @property
    def short(self) -> str:
        """A few words for the node table."""
        return self.title or self.rule.replace("-", " ")

    def __str__(self) -> str:
        return self.text


def order_matters(case: sc.Case) -> bool:
    """Whether repeated targets make the result depend on the order of the writes (integer division of a
    mean, or floating-point rounding of sums and products)."""
    red = case.reduction
    return bool(red.divides or (red.order_sensitive_for_floats and case.data.dtype.kind == "f"))


def duplicate_consequence(case: sc.Case) -> str:
    """What repeated targets mean for this node's reduction (from the reduction record)."""
    red = case.reduction
    if red.ufunc is None:
        return ("with reduction none only one of the competing updates survives, and which one depends on the "
                "runtime (its loop order and thread count)")
    if order_matters(case):
        return (f"with reduction {case.resolved.reduction} the result depends on the order the writes are applied "
                f"in (floating-point rounding{', integer truncation' if red.divides else ''})")
    return f"with reduction {case.resolved.reduction} the competing updates are combined ({red.words})"


def _static_shape(shape) -> tuple[int, ...] | None:
    if shape is None or any(not isinstance(d, int) for d in shape):
        return None
    return tuple(shape)


def index_findings(spec: sc.OpSpec, input_types: list, constants: dict, attrs: dict) -> list[Finding]:
    """Findings about constant indices, checked by scatter_core on stand-in data of the node's shapes."""
    roles = {i.role: pos for pos, i in enumerate(spec.inputs)}
    if "indices" not in roles or roles["indices"] not in constants:
        return []
    indices = constants[roles["indices"]]
    out = []
    if indices.dtype.kind in "iu" and indices.size and (indices < 0).any():
        notes = [f for f in sc.facts_for(spec.name) if f.topic == "negative-index" and f.status == "holds"]
        out.append(Finding("negative-index", "info",
                           f"The constant indices hold negative values (smallest {sc.fmt_value(indices.min())}). "
                           f"{spec.name}: {spec.index_rule.text.rstrip('.')}."
                           + "".join(f" {f.runtimes_label()}: {f.text.rstrip('.')}." for f in notes),
                           title="negative indices",
                           source="; ".join(dict.fromkeys(source_words(f) for f in notes))))
    arrays = {}
    for role in ("data", "updates"):
        pos = roles.get(role)
        if pos is None:
            continue
        if pos in constants:
            arrays[role] = constants[pos]
            continue
        dtype, shape = input_types[pos] if pos < len(input_types) else (None, None)
        shape = _static_shape(shape)
        if shape is None or int(np.prod(shape, dtype=np.int64)) > MAX_STATIC_CHECK_ELEMENTS:
            return out + [Finding("indices-unchecked", "info",
                                  f"The indices are constant, but {spec.input_name(role)}'s shape is not known before "
                                  f"running ({shape_text(input_types[pos][1])}): they are checked at capture.",
                                  title="indices checked at capture")]
        arrays[role] = np.zeros(shape, dtype=dtype or "float32")
    case_attrs = {k: v for k, v in attrs.items() if spec.attribute(k) is not None}
    try:
        case = sc.case(spec.name, arrays.get("data"), indices, arrays.get("updates"), **case_attrs)
    except sc.ScatterError as exc:
        return out + [Finding(exc.rule or "invalid", "error",
                              f"The constant indices (or the static shapes) break a rule of {spec.name}: {exc}",
                              title="indices break a rule")]
    trace = case.trace()
    dup = trace.duplicate_groups()
    if dup.size:
        f = next((f for f in trace.findings if f.kind == "duplicate-index"), None)
        named = ""
        if f is not None:
            named = "; ".join(f"output{sc.fmt_pos(c)} ← " + ", ".join(f"updates{sc.fmt_pos(p)}" for p in ps)
                              for c, ps in list(zip(f.cells, f.update_positions))[:MAX_CELLS_NAMED])
            if dup.size > MAX_CELLS_NAMED:
                named += f"; and {int(dup.size) - MAX_CELLS_NAMED} more"
        out.append(Finding("duplicates", "warning" if case.reduction.ufunc is None or order_matters(case) else "info",
                           f"The constant indices write {int(dup.size)} output cell"
                           f"{'s' if dup.size != 1 else ''} more than once ({named}): {duplicate_consequence(case)}.",
                           title="cells written more than once"))
    for f in trace.findings:
        if f.kind not in VALUE_KINDS and f.kind != "duplicate-index":
            out.append(Finding(f.kind, f.severity, f.message))
    return out


def source_words(fact: sc.Fact) -> str:
    """Where a runtime fact comes from, in words a user of the app can follow (:meth:`scatter_core.Fact.source_words`)."""
    return fact.source_words()


def _facts_of(d, spec: sc.OpSpec, runtimes: set) -> list:
    """The facts behind divergence ``d`` that concern ``spec`` on ``runtimes`` (the node's own runtimes)."""
    ids = (d.fact,) if d.fact else tuple(d.observed_facts)
    facts = [sc.FACT_BY_ID[i] for i in ids if i in sc.FACT_BY_ID]
    facts = [f for f in facts if set(f.runtimes) & runtimes and f.status == "holds"]
    mine = [f for f in facts if spec.name in f.operators]
    return mine or [f for f in facts if not f.operators] or facts[:1]


# the runtimes in a node table title
SHORT = {"onnxruntime": "onnxruntime", "onnx.reference": "onnx.reference", "openvino-onnx": "OpenVINO CPU (ONNX)",
         "openvino-cpu": "OpenVINO CPU", "openvino-reference": "OpenVINO reference"}
# a topic whose id alone reads as the opposite of its facts in a node table title: every "runnable" fact says
# the runtime cannot run or load the operator ("OpenVINO CPU (ONNX): runnable" read as a yes)
TOPIC_WORDS = {
    "runnable": "cannot run it",
    # the rest name what the fact is about, so a title never reads as a finding on this node's values ("duplicates"
    # above a node whose indices are all distinct)
    "duplicates": "if indices repeat, which write wins", "duplicates-parallel": "if indices repeat, with threads",
    "negative-index": "negative indices", "index-range": "out-of-range indices",
    "index-range-silent": "out-of-range indices", "nan-max-min": "NaN under max or min",
    "signed-zero": "the sign of zero", "integer-mean": "an integer mean's rounding",
    "integer-mean-int16": "an integer mean's rounding", "float16": "float16 sums", "float64": "float64 data",
    "int64": "64-bit integer data", "uint64": "uint64 data", "bool": "bool data", "k-zero": "an empty index tuple",
    "index-dtype": "the index dtype", "reduction": "which reductions it takes", "shape": "shapes",
    "dtype-mismatch": "mixed dtypes", "scalar-indices": "scalar indices", "scalar-updates": "scalar updates",
}
VALUE_FREE_TOPICS = {"runnable"}  # a runtime that cannot run or load the operator does so whatever the values
REPEAT_TOPICS = frozenset({"duplicates", "duplicates-parallel"})  # facts that need two writes on one cell


def runtime_fact_findings(spec: sc.OpSpec, input_types: list, constants: dict, attrs: dict,
                          repeats_possible: bool = True) -> list[Finding]:
    """The runtime facts whose condition this node's version, dtypes and attributes meet, on the runtimes that
    run this node's operator: each a short sentence naming the runtimes and the fact's source. A fact about
    repeated indices is left out where the indices are proved unique (``repeats_possible`` False)."""
    try:
        import runtime_check as rc
    except ImportError:  # pragma: no cover - runtime_check ships with the app
        return []
    arrays = {}
    for pos, inp in enumerate(spec.inputs):
        if pos in constants:
            arrays[inp.role] = constants[pos]
            continue
        dtype, shape = input_types[pos] if pos < len(input_types) else (None, None)
        if dtype is None:
            if inp.role == "data":
                return []
            dtype = "int64" if inp.role == "indices" else "float32"
        dims = tuple(d if isinstance(d, int) and d <= 4 else 1 for d in (shape or (1,)))
        arrays[inp.role] = np.zeros(dims, dtype=dtype)
    case_attrs = {k: v for k, v in attrs.items() if spec.attribute(k) is not None}
    indices_known = any(i.role == "indices" and pos in constants for pos, i in enumerate(spec.inputs))
    mine = rc.runtimes_for(spec)
    out, seen = [], set()
    for runtime in mine:
        case = rc.RuntimeCase.of(runtime, spec, arrays.get("data"), arrays.get("indices"), arrays.get("updates"),
                                 case_attrs)
        for d in rc.KNOWN_DIVERGENCES:
            if runtime not in d.runtimes or d.label in seen or (d.families and spec.family not in d.families):
                continue
            try:
                applies = bool(d.applies(case))
            except Exception:  # noqa: BLE001 - a predicate that needs values the model does not give
                applies = False
            if not applies:
                continue
            seen.add(d.label)
            facts = _facts_of(d, spec, set(mine))
            if not repeats_possible:
                facts = [f for f in facts if f.topic not in REPEAT_TOPICS]
            if not facts:
                continue
            names = [SHORT[r] for r in sc.RUNTIME_NAMES if r in d.runtimes and r in mine]
            words = " ".join(f"{f.runtimes_label()}: {f.text.rstrip('.')}." for f in facts)
            when = ("" if indices_known or facts[0].topic in VALUE_FREE_TOPICS
                    else " Whether it applies depends on the values that reach the node: a capture shows them.")
            out.append(Finding(f"runtime-fact:{d.label}", "warning" if d.outcome in ("value", "crash") else "info",
                               words + when, title=f"{', '.join(names)}: "
                               f"{TOPIC_WORDS.get(facts[0].topic, facts[0].topic.replace('-', ' '))}",
                               source="; ".join(dict.fromkeys(source_words(f) for f in facts))))
    return out
