"""The known runtime divergences, as data.

Each :class:`Divergence` says *where* a runtime departs from the spec text (``applies``, a predicate over
the :class:`RuntimeCase`), *how* (``outcome``: another value, a refusal, an acceptance, a crash) and, where
predictable, *what exactly* it produces (``model``, ``relation``) or says (``error``, a regular expression).
A difference is a known divergence only when all of that holds, so a new behaviour hiding behind a known
predicate is still reported as new.

``DOCUMENTED`` holds those docs/semantics.md describes, each naming its fact in ``scatter_core.FACTS``
(``fact``), which gives its words and source. ``OBSERVED`` holds behaviours this project's tests found that
docs/semantics.md does not (yet) describe: :func:`runtime_check.compare` names them but flags them
``new=True``. Matching walks ``KNOWN_DIVERGENCES`` in order and takes the first record that fits.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Mapping

import numpy as np

import scatter_core
from scatter_core import (FACT_BY_ID, REDUCTIONS, OpSpec, ScatterError,
                          truncate_mean, versions_of)

OUTCOMES = ("value", "refused", "accepted", "crash")

ORT = ("onnxruntime",)
ONNX_REF = ("onnx.reference",)
OV_CPU = ("openvino-cpu",)
OV_REF = ("openvino-reference",)
OV_BOTH = ("openvino-cpu", "openvino-reference")
OV_ONNX = ("openvino-onnx",)  # the CPU plugin running an ONNX model through OpenVINO's ONNX frontend
OV_CPU_ANY = OV_CPU + OV_ONNX  # the CPU plugin's own kernels, whichever format the model came in


@dataclass(frozen=True)
class RuntimeCase:
    """One runtime and the case it was given: the core's :class:`scatter_core.Case` where the core accepts the
    inputs, else (``case`` None) the inputs and attributes as given in a :class:`scatter_core.Unchecked`.

    A comparison's point is often that the core refuses what a runtime takes (a negative index, a reduction
    spelling the version forbids); the divergence that explains it then reads the inputs as given. Build one
    with :meth:`of`. ``spec``, ``data``, ``indices``, ``updates`` and ``attrs`` read the held record (a Case's
    inputs as given, its attributes after the version's defaults)."""

    runtime: str
    case: scatter_core.Case | None
    unchecked: scatter_core.Unchecked | None = None

    def __post_init__(self):
        if (self.case is None) == (self.unchecked is None):
            raise ValueError("a RuntimeCase holds either the core's Case or, where the core refuses the inputs, "
                             "the Unchecked inputs; not both, not neither")

    @classmethod
    def of(cls, runtime: str, spec: OpSpec, data, indices, updates, attrs: Mapping) -> "RuntimeCase":
        """The case ``runtime`` was given: checked by the core where it accepts it, kept as given otherwise."""
        try:
            return cls(runtime, scatter_core.case(spec, data, indices, updates,
                                                  **{k: v for k, v in attrs.items() if v is not None}))
        except (ScatterError, TypeError, ValueError):  # refused (ScatterError; the others: values of no kind at all)
            return cls(runtime, None, scatter_core.Unchecked(spec, data, indices, updates, MappingProxyType(dict(attrs))))

    @property
    def spec(self) -> OpSpec:
        return self.case.spec if self.case is not None else self.unchecked.spec

    @property
    def data(self):
        return self.case.given()[0] if self.case is not None else self.unchecked.data

    @property
    def indices(self):
        return self.case.given()[1] if self.case is not None else self.unchecked.indices

    @property
    def updates(self):
        return self.case.given()[2] if self.case is not None else self.unchecked.updates

    @property
    def attrs(self) -> Mapping[str, object]:
        return self.case.attrs if self.case is not None else self.unchecked.attrs

    @property
    def reduction(self):
        """The reduction as given (None when not given), under the name its codec reads."""
        return self.attrs.get(scatter_core.reduction_codec(self.spec).name)

    @property
    def canonical(self) -> str | None:
        """The canonical reduction a spelling means in *any* version of the op (``add`` -> ``sum``),
        case-insensitively; the version's default when none is given; None for unknown strings."""
        value = self.reduction
        if value is None:
            return dict(self.spec.reductions)[self.spec.default_reduction]
        if not isinstance(value, str):
            return None
        for spec in (self.spec,) + versions_of(self.spec.op_type):
            for spelling, canonical in spec.reductions:
                if spelling == value.lower():
                    return canonical
        return None

    @property
    def axis(self) -> int | None:
        codec = scatter_core.codec_with_role(self.spec, "axis")
        given = None if codec is None else self.attrs.get(codec.name)
        if given is None:
            return None
        value = int(np.asarray(given).reshape(()))
        return value + self.data.ndim if value < 0 else value

    def checked(self, **changes) -> scatter_core.Case:
        """The core's Case of what the runtime was given, some attributes changed (None: back to the default);
        raises ScatterError where the core refuses it."""
        if self.case is not None:
            return self.case.replace(**changes) if changes else self.case
        given = self.unchecked
        attrs = {k: v for k, v in {**given.attrs, **changes}.items() if v is not None}
        return scatter_core.case(given.spec, given.data, given.indices, given.updates, **attrs)

    def core(self, spec: OpSpec | None = None, *, data=None, indices=None, updates=None, **changes):
        """scatter_core's output for this case with some parts replaced; None if it refuses them."""
        attrs = {**self.attrs, **changes}
        attrs = {k: v for k, v in attrs.items() if v is not None}
        try:
            with np.errstate(all="ignore"):
                return scatter_core.scatter(spec or self.spec, self.data if data is None else data,
                                            self.indices if indices is None else indices,
                                            self.updates if updates is None else updates, **attrs)
        except ScatterError:
            return None


@dataclass(frozen=True)
class Divergence:
    label: str
    runtimes: tuple[str, ...]
    outcome: str  # one of OUTCOMES
    applies: Callable[[RuntimeCase], bool]
    text: str = ""  # DOCUMENTED: the fact's sentence (filled from scatter_core.FACTS); OBSERVED: "" (see text_for)
    source: str = ""  # where the text comes from (the fact's source, with the versions it was verified on)
    model: Callable[[RuntimeCase], np.ndarray | None] | None = None  # the runtime's exact output
    relation: Callable[[np.ndarray, np.ndarray], bool] | None = None  # (core output, runtime output) -> explained?
    allowed: Callable[[RuntimeCase, np.ndarray], bool] | None = None  # (case, runtime output) -> explained?
    error: str | None = None  # regex the runtime's error message must match
    documented: bool = True
    topic: str = ""  # the topic of its fact(s) (filled from scatter_core.FACTS)
    families: tuple[str, ...] = ()  # the operator families it concerns (empty: any)
    fact: str = ""  # DOCUMENTED: the id of its fact in scatter_core.FACTS, which gives text, source, topic
    observed_facts: tuple[str, ...] = ()  # OBSERVED: the ids of the facts (per runtime / operator) it explains

    def __post_init__(self):
        if self.fact:  # the words, source and topic are the fact's: stated once, in scatter_core.facts
            f = FACT_BY_ID[self.fact]
            for name, value in (("text", f.sentence()), ("source", f.source_words()),
                                ("topic", f.topic), ("documented", f.documented)):
                object.__setattr__(self, name, value)

    def _facts_for(self, spec: OpSpec, runtime: str | None):
        """The observed facts that concern ``spec`` (or else the first), and ``runtime`` where one does."""
        facts = [FACT_BY_ID[i] for i in self.observed_facts]
        mine = [f for f in facts if spec.name in f.operators] or facts[:1]
        # a runtime no fact about this operator names (the OpenVINO CPU plugin on an ONNX model, through its
        # ONNX frontend) gets the facts that name it, about the operator its frontend made of the node
        return ([f for f in mine if runtime in f.runtimes] or [f for f in facts if runtime in f.runtimes]
                or mine)

    def text_for(self, spec: OpSpec, runtime: str | None = None) -> str:
        """The behaviour in words: its fact's sentence (DOCUMENTED), or those of its observed facts that concern
        ``spec`` (and ``runtime``, where one does), each not in docs/semantics.md flagged so (OBSERVED)."""
        if self.text:
            return self.text
        return " ".join(f"{'' if f.documented else 'Not in docs/semantics.md: '}{f.sentence()}."
                        for f in self._facts_for(spec, runtime))

    def documented_for(self, spec: OpSpec, runtime: str | None = None) -> bool:
        """True when docs/semantics.md describes what ``runtime`` does here: the divergence's own fact, or every
        observed fact about ``spec`` and ``runtime`` (it describes some of the observed ones)."""
        if self.documented or not self.observed_facts:
            return self.documented
        return all(f.documented for f in self._facts_for(spec, runtime))

    def matches(self, case: RuntimeCase, outcome: str, output: np.ndarray | None, error: str | None,
                core_output: np.ndarray | None = None) -> bool:
        if outcome != self.outcome or case.runtime not in self.runtimes:
            return False
        if self.families and case.spec.family not in self.families:
            return False
        try:
            if not self.applies(case):
                return False
            if self.error is not None and not re.search(self.error, error or "", re.S):
                return False
            if self.model is not None:
                want = self.model(case)
                if want is None or output is None or not _same_bits(want, output):
                    return False
            if self.relation is not None:
                if core_output is None or output is None or not self.relation(core_output, output):
                    return False
            if self.allowed is not None and (output is None or not self.allowed(case, output)):
                return False
        except (ValueError, TypeError, IndexError, KeyError, AttributeError, OverflowError, ZeroDivisionError):
            return False
        return True


# -- small predicates and models -------------------------------------------------
def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _float_bits_differ(core: np.ndarray, runtime: np.ndarray) -> np.ndarray | None:
    """Mask of the cells whose bits differ, for two float outputs of one dtype and shape (else None)."""
    if core.dtype != runtime.dtype or core.shape != runtime.shape or core.dtype.kind != "f":
        return None
    return core.view(f"u{core.dtype.itemsize}") != runtime.view(f"u{core.dtype.itemsize}")


def _only_zero_signs_differ(core: np.ndarray, runtime: np.ndarray) -> bool:
    """Equal as numbers (-0.0 == 0.0) and every differing bit pattern is a zero of either sign."""
    differ = _float_bits_differ(core, runtime)
    return bool(differ is not None and differ.any() and (core[differ] == 0).all() and (runtime[differ] == 0).all())


def _is_ov(case: RuntimeCase) -> bool:
    return case.spec.framework == "OpenVINO"


def _is_onnx(case: RuntimeCase) -> bool:
    return case.spec.framework == "ONNX"


def _int_data(case: RuntimeCase) -> bool:
    return case.data.dtype.kind in "iu"


def _has_reduction_attr(case: RuntimeCase) -> bool:
    return scatter_core.codec_with_role(case.spec, "reduction") is not None


def _unknown_to_version(case: RuntimeCase) -> bool:
    return isinstance(case.reduction, str) and case.reduction not in case.spec.reduction_spellings


def _version_with_spelling(case: RuntimeCase) -> OpSpec | None:
    """The latest version of the op whose text has the given spelling (exact case)."""
    found = [s for s in versions_of(case.spec.op_type) if case.reduction in s.reduction_spellings]
    return found[-1] if found else None


def _truncated_mean(case: RuntimeCase):
    """OpenVINO CPU's integer mean: the (wrapped) sum divided by the count, truncated toward zero."""
    mean = {scatter_core.reduction_codec(case.spec).name: case.spec.spelling_of("mean")}
    try:
        with np.errstate(all="ignore"):
            t = scatter_core.trace(case.checked(**mean))
    except ScatterError:
        return None
    cells, acc, count = t.mean_parts()
    out = case.data.copy()
    out.reshape(-1)[cells] = truncate_mean(acc, count).astype(case.data.dtype)
    return out


def _k_zero(case: RuntimeCase) -> bool:
    shape = case.indices.shape
    return len(shape) >= 1 and shape[-1] == 0 and int(np.prod(shape[:-1])) > 0


def _computed_in(dtype):
    """Model: the runtime computes in ``dtype`` and casts the result back."""
    def model(case: RuntimeCase):
        with np.errstate(all="ignore"):
            out = case.core(data=case.data.astype(dtype), updates=case.updates.astype(dtype))
        return None if out is None else out.astype(case.data.dtype)
    return model


def _bool_as_uint8(case: RuntimeCase):
    out = case.core(data=case.data.astype(np.uint8), updates=case.updates.astype(np.uint8))
    return None if out is None else out != 0


def _expected_nd_updates_shape(case: RuntimeCase):
    return tuple(case.indices.shape[:-1]) + tuple(case.data.shape[case.indices.shape[-1]:])


def _negatives(case: RuntimeCase) -> bool:
    return case.indices.dtype.kind == "i" and case.indices.size > 0 and int(case.indices.min()) < 0


def _below_minus_s(case: RuntimeCase) -> bool:
    axis = case.axis
    if axis is None or not case.indices.size:
        return False
    return int(case.indices.astype(np.int64).min()) < -case.data.shape[axis]


def _non_axis_dim_larger(case: RuntimeCase) -> bool:
    axis = case.axis
    if axis is None or case.indices.ndim != case.data.ndim:
        return False
    return any(n > d for i, (n, d) in enumerate(zip(case.indices.shape, case.data.shape)) if i != axis)


def _some_order_of_the_writes(case: RuntimeCase, output: np.ndarray) -> bool:
    """The output differs from scatter_core's only in cells written more than once, and each such cell holds
    one of the values written to it: what running the writes in another order (reduction none) can give."""
    trace = scatter_core.trace(case.checked())
    core, writes = trace.output, trace.cell_writes
    if output.dtype != core.dtype or output.shape != core.shape:
        return False
    size = core.dtype.itemsize
    core_bits, out_bits = core.reshape(-1).view(f"u{size}"), output.reshape(-1).view(f"u{size}")
    differ = np.flatnonzero(core_bits != out_bits)
    if differ.size == 0:
        return False
    groups = np.searchsorted(writes.cells, differ)
    if (groups >= writes.cells.size).any() or (writes.cells[groups] != differ).any():
        return False  # a cell no write touches
    value_bits = np.ascontiguousarray(writes.values, dtype=core.dtype).view(f"u{size}")
    for cell, g in zip(differ, groups):
        start = writes.first[g]
        if out_bits[cell] not in value_bits[start:start + writes.counts[g]]:
            return False
    return True


def _aliasing(case: RuntimeCase):
    """OpenVINO's Elements ops address cells by flat offset with data's strides, so (0, 3) of a
    (2, 3) tensor lands on (1, 0): the case as a 1-D scatter on the flattened data."""
    axis = case.axis
    strides = np.array([int(np.prod(case.data.shape[d + 1:])) for d in range(case.data.ndim)], np.int64)
    idx = case.indices.astype(np.int64)
    idx = np.where(idx < 0, idx + case.data.shape[axis], idx)
    flat = idx * strides[axis]
    for d, n in enumerate(case.indices.shape):
        if d != axis:
            shape = [1] * case.indices.ndim
            shape[d] = n
            flat = flat + (np.arange(n, dtype=np.int64) * strides[d]).reshape(shape)
    flat = flat.reshape(-1)
    if flat.size and (flat.max() >= case.data.size or flat.min() < 0):
        return None
    lax = dataclasses.replace(case.spec, axis_dim_may_exceed=True)
    out = case.core(lax, data=case.data.reshape(-1), indices=flat, updates=case.updates.reshape(-1), axis=0)
    return None if out is None else out.reshape(case.data.shape)


DOCUMENTED: tuple[Divergence, ...] = (
    # ------------------------------------------------------------ the runtime computes another value
    Divergence(
        "integer-mean-truncation", OV_CPU, "value",
        lambda c: c.canonical == "mean" and _int_data(c), fact="ov-cpu-integer-mean",
        model=_truncated_mean),
    Divergence(
        "k-zero-noop", OV_CPU_ANY, "value", _k_zero, fact="ov-nd-k0",
        model=lambda c: c.data.copy(), families=("nd",)),
    Divergence(
        "int64-narrowing", OV_CPU_ANY, "value", lambda c: c.data.dtype == np.int64, fact="ov-int64",
        model=_computed_in(np.int32)),
    Divergence(
        "f16-accumulation", OV_BOTH + OV_ONNX, "value",
        lambda c: c.data.dtype == np.float16 and c.canonical in ("sum", "prod", "mean", "sub"), fact="ov-f16",
        model=_computed_in(np.float32)),
    Divergence(
        "duplicates-parallel-order", OV_CPU_ANY, "value", lambda c: c.canonical == "none",
        fact="duplicates-parallel-order",
        allowed=_some_order_of_the_writes,
        families=("nd", "update")),
    # ------------------------------------------------------------ the runtime refuses an allowed case
    Divergence(
        "f16-add-mul-refused", ORT, "refused",
        lambda c: _is_onnx(c) and c.data.dtype == np.float16 and c.canonical in ("sum", "prod"), fact="ort-f16",
        error=r"MLFloat16 data type is not supported"),
    Divergence(
        "f16-nd-maxmin-refused", ORT, "refused",
        lambda c: _is_onnx(c) and c.data.dtype == np.float16 and c.canonical in ("max", "min"),
        fact="ort-f16-nd-maxmin",
        error=r"MLFloat16 data type is not supported", families=("nd",)),
    Divergence(
        "bool-maxmin-refused", ORT, "refused",
        lambda c: _is_onnx(c) and c.data.dtype == np.bool_ and c.canonical in ("max", "min"),
        fact="ort-bool-maxmin",
        error=r"bool data type is not supported"),
    Divergence(
        "scalar-indices-refused", OV_CPU, "refused",
        lambda c: c.indices.ndim == 0, fact="ov-cpu-scalar-indices",
        error=r"do not support scalar input", families=("update",)),
    Divergence(
        "scalar-updates-refused", OV_CPU, "refused",
        lambda c: (c.spec.one_element_for_scalar_updates and c.indices.ndim >= 1
                   and _expected_nd_updates_shape(c) == () and c.updates.shape == (1,)), fact="ov-nd-scalar",
        error=r"expectUpdateShape", families=("nd",)),
    Divergence(
        "mean-i8-no-reference-kernel", OV_REF, "refused",
        lambda c: c.canonical == "mean" and c.data.dtype in (np.int8, np.uint8), fact="ov-ref-mean-i8",
        error=r"Node\.evaluate returned False"),
    Divergence(
        "no-scatter-kernel", ONNX_REF, "refused", lambda c: "onnx.reference" not in c.spec.runnable_on,
        fact="onnx-ref-no-scatter-kernel",
        error=r"No registered implementation for operator 'Scatter'"),
    # ------------------------------------------------------------ the runtime accepts a forbidden case
    Divergence(
        "negative-index-accepted", OV_BOTH, "accepted",
        lambda c: _is_ov(c) and c.spec.index_rule.negative == "forbidden" and _negatives(c),
        fact="ov-negative-accepted",
        model=lambda c: c.core(dataclasses.replace(
            c.spec, index_rule=dataclasses.replace(c.spec.index_rule, negative="allowed")))),
    Divergence(
        "maxmin-accepted-at-opset-16", ORT, "accepted",
        lambda c: (_is_onnx(c) and _has_reduction_attr(c) and _unknown_to_version(c)
                   and _version_with_spelling(c) is not None and _version_with_spelling(c).version > c.spec.version),
        fact="ort-reduction-16",
        model=lambda c: c.core(_version_with_spelling(c))),
    Divergence(
        "unknown-reduction-ignored", ORT, "accepted",
        lambda c: (_is_onnx(c) and _has_reduction_attr(c) and _unknown_to_version(c)
                   and _version_with_spelling(c) is None), fact="ort-reduction-18",
        model=lambda c: c.core(reduction=c.spec.default_reduction)),
    Divergence(
        "reduction-not-validated", ONNX_REF, "accepted",
        lambda c: _is_onnx(c) and _unknown_to_version(c), fact="onnx-ref-reduction",
        model=lambda c: (c.core(_version_with_spelling(c)) if _version_with_spelling(c) is not None
                         else c.core(versions_of(c.spec.op_type)[-1], reduction="none"))),
    Divergence(
        "reduction-case-insensitive", OV_BOTH, "accepted",
        lambda c: _is_ov(c) and _unknown_to_version(c) and c.reduction.lower() in c.spec.reduction_spellings,
        fact="ov-reduction-case",
        model=lambda c: c.core(reduction=c.reduction.lower())),
    Divergence(
        "non-axis-dim-aliasing", OV_BOTH + OV_ONNX, "accepted", _non_axis_dim_larger, fact="ov-alias-dims",
        model=_aliasing, families=("elements",)),
    Divergence(
        "axis-dim-accepted", OV_BOTH, "accepted",
        lambda c: (_is_ov(c) and not c.spec.axis_dim_may_exceed
                   and c.axis is not None and c.indices.ndim == c.data.ndim
                   and c.indices.shape[c.axis] > c.data.shape[c.axis]), fact="ov-axis-dim",
        model=lambda c: c.core(dataclasses.replace(c.spec, axis_dim_may_exceed=True)), families=("elements",)),
    Divergence(
        "updates-shape-not-validated", ONNX_REF, "accepted",
        lambda c: _is_onnx(c) and c.updates.shape != c.indices.shape, fact="onnx-ref-lax",
        families=("elements",)),
    Divergence(
        "indices-rank-not-validated", ONNX_REF, "accepted",
        lambda c: _is_onnx(c) and c.indices.ndim != c.data.ndim, fact="indices-rank-not-validated",
        families=("elements",)),
    Divergence(
        "nd-int32-indices-accepted", ONNX_REF, "accepted",
        lambda c: _is_onnx(c) and c.indices.dtype == np.int32, fact="nd-int32-indices-accepted",
        model=lambda c: c.core(indices=c.indices.astype(np.int64)), families=("nd",)),
    # ------------------------------------------------------------ the runtime process dies
    Divergence(
        "index-below-range-crash", OV_CPU_ANY, "crash", lambda c: _below_minus_s(c), fact="ov-range-low",
        error=r"crashed", families=("elements",)),
)

OBSERVED_SOURCE = "this project's tests (each fact's own source names the test)"

NAN_FACTS = ("ort-nan", "onnx-ref-nan-elements", "onnx-ref-nan-nd", "ov-cpu-nan", "ov-ref-nan-nd",
             "ov-ref-nan-elements")


def observed(label: str, runtimes: tuple[str, ...], outcome: str, applies, facts: str | tuple[str, ...],
             **how) -> Divergence:
    """An OBSERVED divergence: its words are its facts' in ``scatter_core.FACTS`` (one per runtime and operator
    where they differ; :meth:`Divergence.text_for` picks those of the record at hand)."""
    facts = (facts,) if isinstance(facts, str) else tuple(facts)
    return Divergence(label, runtimes, outcome, applies, "", OBSERVED_SOURCE, documented=False,
                      topic=FACT_BY_ID[facts[0]].topic, observed_facts=facts, **how)


def _only_nan_cells_differ(core: np.ndarray, runtime: np.ndarray) -> bool:
    """Every differing cell is NaN in scatter_core's output (a NaN took part) and a number in the runtime's."""
    differ = _float_bits_differ(core, runtime)
    return bool(differ is not None and differ.any() and np.isnan(core[differ]).all()
                and not np.isnan(runtime[differ]).any())


def _only_infinities_became_finite_max(core: np.ndarray, runtime: np.ndarray) -> bool:
    """Every differing cell is ±inf in scatter_core's output and ±(largest finite value) in the runtime's."""
    differ = _float_bits_differ(core, runtime)
    return bool(differ is not None and differ.any() and np.isinf(core[differ]).all()
                and (runtime[differ] == np.sign(core[differ]) * np.finfo(core.dtype).max).all())


def _nan_undefined(c: RuntimeCase) -> bool:
    return c.data.dtype.kind == "f" and c.canonical is not None and REDUCTIONS[c.canonical].nan_undefined


def _without_init_value(c: RuntimeCase) -> bool:
    """The version's init switch (use_init_val, found by its codec) is set to false: data's values are not used."""
    init = scatter_core.codec_with_role(c.spec, "init")
    return init is not None and not bool(c.attrs.get(init.name, init.default))


# docs/semantics.md describes this one, so it is documented; it is here because its relation is defined above
DOCUMENTED += (
    Divergence("use-init-val-flt-max", OV_BOTH, "value",
               lambda c: _nan_undefined(c) and _without_init_value(c),
               fact="ov-init-flt-max", relation=_only_infinities_became_finite_max),
)

OBSERVED: tuple[Divergence, ...] = (
    observed("bool-sum-sub-as-uint8", OV_CPU_ANY, "value",
             lambda c: c.data.dtype == np.bool_ and c.canonical in ("sum", "sub"), "ov-bool-as-uint8",
             model=_bool_as_uint8),
    observed("f64-narrowing", OV_CPU_ANY, "value", lambda c: c.data.dtype == np.float64, "ov-f64",
             model=_computed_in(np.float32)),
    observed("signed-zero-tie", ORT + ONNX_REF + OV_ONNX + OV_BOTH, "value",
             lambda c: c.data.dtype.kind == "f" and c.canonical in ("max", "min"), "ov-signed-zero",
             relation=_only_zero_signs_differ),
    observed("nan-in-max-min", ORT + ONNX_REF + OV_ONNX + OV_BOTH, "value", _nan_undefined, NAN_FACTS,
             relation=_only_nan_cells_differ),
    observed("scatter-update-reference-nd-indices", OV_REF, "value",
             lambda c: c.indices.ndim >= 2 or 1 in c.data.shape[1:], "ov-ref-scatter-update-offsets",
             families=("update",)),
    observed("reference-no-kernel", OV_REF, "refused",
             lambda c: c.data.dtype.name in c.spec.extra.get("openvino_reference_no_kernel", ()),
             ("ov-ref-no-kernel-nd", "ov-ref-no-kernel-elements", "ov-ref-slice-scatter-no-kernel"),
             error=r"Node\.evaluate returned False"),
    observed("scatter-update-scalar-updates-reference", OV_REF, "refused",
             lambda c: c.indices.ndim == 0 and c.data.ndim == 1, "ov-ref-scatter-update-scalar-indices",
             error=r"_M_range_check",
             families=("update",)),
    observed("updates-dtype-not-validated", ONNX_REF, "accepted",
             lambda c: _is_onnx(c) and c.updates.dtype != c.data.dtype, "onnx-ref-type-t",
             model=lambda c: c.core(updates=c.updates.astype(c.data.dtype))),
    observed("index-below-range-silent", OV_CPU_ANY, "accepted", lambda c: _below_minus_s(c),
             "ov-range-low-silent", families=("elements",)),
    observed("scatter-update-rank1-negative-unchecked", OV_CPU, "crash",
             lambda c: c.data.ndim == 1 and _negatives(c), "ov-cpu-scatter-update-rank1-negative", error=r"crashed",
             families=("update",)),
    observed("scatter-update-rank1-negative-ignored", OV_CPU, "accepted",
             lambda c: c.data.ndim == 1 and _negatives(c), "ov-cpu-scatter-update-rank1-negative",
             model=lambda c: c.data.copy(),
             families=("update",)),
    observed("uint64-narrowing", OV_CPU_ANY, "value", lambda c: c.data.dtype == np.uint64, "ov-cpu-uint64",
             model=_computed_in(np.uint32)),
    # OpenVINO's ONNX frontend (openvino-onnx): what it does with the ONNX text's rules
    observed("frontend-no-conversion-rule", OV_ONNX, "refused",
             lambda c: c.spec.name in FACT_BY_ID["ov-onnx-frontend-no-tensor-scatter"].operators,
             "ov-onnx-frontend-no-tensor-scatter", error=r"has no conversion rule for"),
    observed("frontend-reduction-not-validated", OV_ONNX, "accepted",
             lambda c: (_is_onnx(c) and _unknown_to_version(c) and _version_with_spelling(c) is not None
                        and _version_with_spelling(c).version > c.spec.version),
             "ov-onnx-frontend-reduction",
             model=lambda c: c.core(_version_with_spelling(c))),
    observed("frontend-nd-int32-indices", OV_ONNX, "accepted",
             lambda c: _is_onnx(c) and c.indices.dtype == np.int32, "ov-onnx-frontend-nd-int32-indices",
             model=lambda c: c.core(indices=c.indices.astype(np.int64)), families=("nd",)),
)


# ------------------------------------------------------------ TensorScatter-24 on onnx.reference (issue 16)
def _write_indices(c: RuntimeCase) -> np.ndarray:
    return np.zeros(c.data.shape[:1], np.int64) if c.indices is None else np.asarray(c.indices)


def _cache_case(c: RuntimeCase) -> bool:
    return c.data.ndim >= 2  # (a divergence below names the family it concerns: families=("cache",))


def _sequence(c: RuntimeCase) -> tuple[int, int]:
    """(sequence_length, max_sequence_length) of a TensorScatter case."""
    codec = scatter_core.codec_with_role(c.spec, "axis")  # the sequence axis, with the version's default
    axis = int(c.attrs.get(codec.name, codec.default)) % c.data.ndim
    return c.updates.shape[axis], c.data.shape[axis]


def _python_indexing_writes(c: RuntimeCase):
    """onnx.reference's output for negative write indices: NumPy counts w + s < 0 from the end."""
    w = _write_indices(c).astype(np.int64)
    seq, max_len = _sequence(c)
    if (w < -max_len).any() or (w + seq > max_len).any():
        return None
    return c.core(indices=np.where(w < 0, w + max_len, w), mode="circular")


NEWOPS_OBSERVED: tuple[Divergence, ...] = (
    observed("tensorscatter-reference-negative-write-index", ONNX_REF, "accepted",
             lambda c: _cache_case(c) and (_write_indices(c) < 0).any(), "ts-ort-negative-write-index",
             model=_python_indexing_writes, families=("cache",)),
    observed("tensorscatter-reference-write-indices-shape", ONNX_REF, "accepted",
             lambda c: _cache_case(c) and _write_indices(c).shape != c.data.shape[:1], "ts-ref-write-indices-shape",
             model=lambda c: c.core(indices=_write_indices(c).reshape(-1)[:c.data.shape[0]]), families=("cache",)),
    observed("tensorscatter-reference-int32-write-indices", ONNX_REF, "accepted",
             lambda c: _cache_case(c) and _write_indices(c).dtype != np.int64, "ts-ref-int32-write-indices",
             model=lambda c: c.core(indices=_write_indices(c).astype(np.int64)), families=("cache",)),
    observed("tensorscatter-reference-empty-update-bound", ONNX_REF, "accepted",
             lambda c: _cache_case(c) and _sequence(c)[0] == 0 and c.attrs.get("mode", "linear") == "linear",
             "ts-ref-index-range", model=lambda c: c.data.copy(), families=("cache",)),
)

# ------------------------------------------------------------ SliceScatter-15 on OpenVINO (issue 16)
def _openvino_start(c: RuntimeCase) -> list[int] | None:
    """SliceScatter's start as OpenVINO reads it: with a negative step, a start below -size selects the
    first element (position 0) where Python's slicing, which Slice-8's text follows, selects nothing.
    None when no sliced axis is affected."""
    start, step = list(c.attrs.get("start") or ()), list(c.attrs.get("step") or ())
    axes = c.attrs.get("axes")
    axes = list(range(len(start))) if axes is None else [int(a) % c.data.ndim for a in axes]
    moved = [0 if s < 0 and b < -c.data.shape[a] else b for a, b, s in zip(axes, start, step)]
    return moved if moved != start else None


def _openvino_slice_shape(c: RuntimeCase) -> tuple | None:
    moved = _openvino_start(c)
    if moved is None:
        return None
    return scatter_core.family_of(c.spec).updates_shape(c.data.shape, None, {**c.attrs, "start": moved})


NEWOPS_OBSERVED += (
    observed("slice-negative-step-start-below", OV_BOTH, "refused",
             lambda c: _openvino_slice_shape(c) not in (None, c.updates.shape), "ov-slice-negative-step-start",
             error=r"not compatible with expected slice shape", families=("slice",)),
    observed("slice-negative-step-start-below-accepted", OV_CPU, "accepted",
             lambda c: _openvino_slice_shape(c) == c.updates.shape, "ov-slice-negative-step-start",
             model=lambda c: c.core(start=_openvino_start(c)), families=("slice",)),
)

KNOWN_DIVERGENCES: tuple[Divergence, ...] = DOCUMENTED + OBSERVED + NEWOPS_OBSERVED
BY_LABEL: Mapping[str, Divergence] = {d.label: d for d in KNOWN_DIVERGENCES}


def match(case: RuntimeCase, outcome: str, output: np.ndarray | None, error: str | None,
          core_output: np.ndarray | None = None) -> Divergence | None:
    """The first known divergence that explains this outcome, or None."""
    for divergence in KNOWN_DIVERGENCES:
        if divergence.matches(case, outcome, output, error, core_output):
            return divergence
    return None
