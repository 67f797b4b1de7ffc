"""The known runtime divergences, as data.

Each :class:`Divergence` record says *where* a runtime departs from the spec
text (``applies``: a predicate over the :class:`RuntimeCase`: runtime, operator
record, inputs and attributes), *how* (``outcome``: it computes another value,
refuses a case the text allows, accepts a case the text forbids, or crashes),
and, where the runtime's behaviour is predictable, *what exactly* it produces
(``model``: the runtime's output, computed with scatter_core on transformed
inputs; or ``relation``: how its output relates to scatter_core's) or says
(``error``: a regular expression its message must match). A difference only
counts as a known divergence when all of that holds, so a new behaviour hiding
behind a known predicate is still reported as new.

``DOCUMENTED`` holds the divergences ``../shared/semantics.md`` records: the
behaviour in its words (``text``) and a literal excerpt (``quote``) that the
tests look up in the file. ``OBSERVED`` holds behaviours this package's tests found on the
pinned runtimes (onnx 1.23.2, onnxruntime 1.31.1, OpenVINO 2026.4.1) that
semantics.md does not (yet) record; :func:`runtime_check.compare` names them but
still flags them ``new=True``. Matching walks ``KNOWN_DIVERGENCES`` in order
and takes the first record that fits.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np

import scatter_core
from scatter_core import ScatterError, versions_of
from scatter_core.spec import OpSpec

OUTCOMES = ("value", "refused", "accepted", "crash")

ORT = ("onnxruntime",)
ONNX_REF = ("onnx.reference",)
OV_CPU = ("openvino-cpu",)
OV_REF = ("openvino-reference",)
OV_BOTH = ("openvino-cpu", "openvino-reference")


@dataclass(frozen=True)
class RuntimeCase:
    """One (runtime, operator version, inputs, attributes) as the runtime saw it."""

    runtime: str
    spec: OpSpec
    data: np.ndarray
    indices: np.ndarray | None  # None: left out (TensorScatter) or absent (SliceScatter)
    updates: np.ndarray
    attrs: Mapping[str, object]

    @property
    def reduction(self):
        """The reduction as given (None when not given)."""
        return self.attrs.get("reduction")

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
        if "axis" not in self.attrs:
            return None
        value = int(np.asarray(self.attrs["axis"]).reshape(()))
        return value + self.data.ndim if value < 0 else value

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
    text: str  # the behaviour in semantics.md's words (DOCUMENTED) or as observed (OBSERVED)
    source: str  # where the text comes from
    quote: str = ""  # DOCUMENTED: a literal excerpt of semantics.md (whitespace-normalised) - the tests check it
    model: Callable[[RuntimeCase], np.ndarray | None] | None = None  # the runtime's exact output
    relation: Callable[[np.ndarray, np.ndarray], bool] | None = None  # (core output, runtime output) -> explained?
    error: str | None = None  # regex the runtime's error message must match
    documented: bool = True

    def matches(self, case: RuntimeCase, outcome: str, output: np.ndarray | None, error: str | None,
                core_output: np.ndarray | None = None) -> bool:
        if outcome != self.outcome or case.runtime not in self.runtimes:
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
        except (ValueError, TypeError, IndexError, KeyError, OverflowError, ZeroDivisionError, AttributeError):
            return False  # (AttributeError: a predicate about indices on a case whose indices are None)
        return True


# -- small predicates and models -------------------------------------------------
def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _only_zero_signs_differ(core: np.ndarray, runtime: np.ndarray) -> bool:
    """Equal as numbers (-0.0 == 0.0) and every differing bit pattern is a zero of either sign."""
    if core.dtype != runtime.dtype or core.shape != runtime.shape or core.dtype.kind != "f":
        return False
    differ = core.view(f"u{core.dtype.itemsize}") != runtime.view(f"u{core.dtype.itemsize}")
    return bool(differ.any() and (core[differ] == 0).all() and (runtime[differ] == 0).all())


def _is_ov(case: RuntimeCase) -> bool:
    return case.spec.framework == "OpenVINO"


def _is_onnx(case: RuntimeCase) -> bool:
    return case.spec.framework == "ONNX"


def _int_data(case: RuntimeCase) -> bool:
    return case.data.dtype.kind in "iu"


def _has_reduction_attr(case: RuntimeCase) -> bool:
    return case.spec.attribute("reduction") is not None


def _unknown_to_version(case: RuntimeCase) -> bool:
    return isinstance(case.reduction, str) and case.reduction not in case.spec.reduction_spellings


def _version_with_spelling(case: RuntimeCase) -> OpSpec | None:
    """The latest version of the op whose text has the given spelling (exact case)."""
    found = [s for s in versions_of(case.spec.op_type) if case.reduction in s.reduction_spellings]
    return found[-1] if found else None


def _truncated_mean(case: RuntimeCase):
    """OpenVINO CPU's integer mean: the (wrapped) sum divided by the count, truncated toward zero."""
    spelling = case.spec.spelling_of("sum")
    use_init = bool(case.attrs.get("use_init_val", True))
    total = case.core(reduction=spelling)
    counts = case.core(data=np.zeros(case.data.shape, np.int64),
                       updates=np.ones(case.updates.shape, np.int64), reduction=spelling, use_init_val=False)
    if total is None or counts is None:
        return None
    n = counts + int(use_init)
    s = total.astype(np.int64)
    quotient = np.sign(s) * (np.abs(s) // np.maximum(n, 1))
    return np.where(counts > 0, quotient, case.data).astype(case.data.dtype)


def _k_zero(case: RuntimeCase) -> bool:
    shape = case.indices.shape
    return case.spec.family == "nd" and len(shape) >= 1 and shape[-1] == 0 and int(np.prod(shape[:-1])) > 0


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
    if axis is None or case.spec.family != "elements" or not case.indices.size:
        return False
    return int(case.indices.astype(np.int64).min()) < -case.data.shape[axis]


def _non_axis_dim_larger(case: RuntimeCase) -> bool:
    axis = case.axis
    if case.spec.family != "elements" or axis is None or case.indices.ndim != case.data.ndim:
        return False
    return any(n > d for i, (n, d) in enumerate(zip(case.indices.shape, case.data.shape)) if i != axis)


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
        lambda c: c.canonical == "mean" and _int_data(c),
        "mean (ScatterElementsUpdate-12), integers: the spec says \"rounded down (towards negative infinity)\"; "
        "OV-ref floors, OV-CPU truncates toward zero (static_cast<T>(double(sum)/N)): data 0, updates [-3] gives "
        "-2 in OV-ref, -1 on OV-CPU. Follow the spec: floor.",
        "semantics.md §2 Reductions, exact results: mean",
        quote="**OV-ref floors; OV-CPU truncates toward zero**", model=_truncated_mean),
    Divergence(
        "k-zero-noop", OV_CPU, "value", _k_zero,
        "k == 0 (indices.shape[-1] == 0): every tuple addresses the whole tensor; ORT, onnx.reference and OV-ref "
        "replace (none) or accumulate into the whole tensor. OV-CPU: silent no-op (it returns early because the "
        "indices tensor has 0 elements).",
        "semantics.md §2 Reductions, exact results: k == 0",
        quote="**OV-CPU: silent no-op**", model=lambda c: c.data.copy()),
    Divergence(
        "int64-narrowing", OV_CPU, "value", lambda c: c.data.dtype == np.int64,
        "OV-CPU computes int64 data in int32: 2^40+3 comes back as 3 (all five OV ops). Keep i64 values in "
        "int32 range when comparing with OV-CPU.",
        "semantics.md §2 Reductions, exact results: Overflow",
        quote="**OV-CPU computes int64 data in int32**", model=_computed_in(np.int32)),
    Divergence(
        "f16-accumulation", OV_BOTH, "value",
        lambda c: c.data.dtype == np.float16 and c.canonical in ("sum", "prod", "mean", "sub"),
        "float16: OV accumulates f16 sums in wider precision (2048+1+1 = 2050, CPU and ref) while onnx.reference "
        "rounds per step (2048). (Exactly: the result is computed in float32 and rounded to float16 once.)",
        "semantics.md §2 Reductions, exact results: Overflow",
        quote="OV accumulates f16 sums in wider precision (2048+1+1 = 2050, CPU and ref)",
        model=_computed_in(np.float32)),
    # ------------------------------------------------------------ the runtime refuses an allowed case
    Divergence(
        "f16-add-mul-refused", ORT, "refused",
        lambda c: _is_onnx(c) and c.data.dtype == np.float16 and c.canonical in ("sum", "prod"),
        "ORT refuses float16 data with add/mul (ScatterND and ScatterElements).",
        "semantics.md §2 Reductions, exact results: Overflow",
        quote="ORT refuses f16 with add/mul (both ops) and ScatterND f16 with max/min",
        error=r"MLFloat16 data type is not supported"),
    Divergence(
        "f16-nd-maxmin-refused", ORT, "refused",
        lambda c: (_is_onnx(c) and c.spec.family == "nd" and c.data.dtype == np.float16
                   and c.canonical in ("max", "min")),
        "ORT refuses float16 ScatterND with max/min.",
        "semantics.md §2 Reductions, exact results: Overflow",
        quote="ORT refuses f16 with add/mul (both ops) and ScatterND f16 with max/min",
        error=r"MLFloat16 data type is not supported"),
    Divergence(
        "bool-maxmin-refused", ORT, "refused",
        lambda c: _is_onnx(c) and c.data.dtype == np.bool_ and c.canonical in ("max", "min"),
        "bool: ORT add = OR, mul = AND, but ORT refuses max/min on bool (\"bool data type is not supported with "
        "ScatterND opset 18 when reduction is 'max'\"); onnx.reference gives max = OR, min = AND.",
        "semantics.md §2 Reductions, exact results: bool",
        quote="ORT **refuses** max/min on bool", error=r"bool data type is not supported"),
    Divergence(
        "scalar-indices-refused", OV_CPU, "refused",
        lambda c: c.spec.family == "update" and c.indices.ndim == 0,
        "ScatterUpdate-3: 0-D indices are allowed (spec, OV-ref); OV-CPU refuses them.",
        "semantics.md §2 Per-operator table: ScatterUpdate-3; §4",
        quote="0-D indices allowed (*spec*, OV-ref; OV-CPU refuses)", error=r"do not support scalar input"),
    Divergence(
        "scalar-updates-refused", OV_CPU, "refused",
        lambda c: (c.spec.family == "nd" and c.spec.one_element_for_scalar_updates and c.indices.ndim >= 1
                   and _expected_nd_updates_shape(c) == () and c.updates.shape == (1,)),
        "ScatterNDUpdate: \"0-D updates may be a 1-element tensor\" (spec; OV-ref accepts, OV-CPU refuses).",
        "semantics.md §2 Per-operator table: ScatterNDUpdate-3; §4",
        quote="\"0-D updates may be a 1-element tensor\" (*spec*; OV-ref OK, OV-CPU refuses)",
        error=r"expectUpdateShape"),
    Divergence(
        "mean-i8-no-reference-kernel", OV_REF, "refused",
        lambda c: c.canonical == "mean" and c.data.dtype in (np.int8, np.uint8),
        "int8/uint8 mean: OV-ref has no kernel (evaluate returns False), so only OV-CPU's truncation is observable.",
        "semantics.md §2 Reductions, exact results: mean",
        quote="i8/u8: OV-ref has no kernel (`evaluate` returns False)", error=r"Node\.evaluate returned False"),
    Divergence(
        "no-scatter-kernel", ONNX_REF, "refused", lambda c: c.spec.op_type == "Scatter",
        "onnx.reference has no Scatter kernel (any opset); ScatterElements-11 is Scatter-11's runtime stand-in.",
        "semantics.md §2 (Scatter-11)",
        quote="onnx.reference has no `Scatter` kernel", error=r"No registered implementation for operator 'Scatter'"),
    # ------------------------------------------------------------ the runtime accepts a forbidden case
    Divergence(
        "negative-index-accepted", OV_BOTH, "accepted",
        lambda c: _is_ov(c) and c.spec.index_rule.negative == "forbidden" and _negatives(c),
        "ScatterElementsUpdate-3 (spec [0, s-1], negative -> exception) and ScatterNDUpdate-3 (spec [0, s_j-1]): "
        "OV-CPU and OV-ref accept [-s, s-1] and normalise negatives to s + index.",
        "semantics.md §2 Per-operator table; §3 errata 5",
        quote="runtimes accept and normalize it",
        model=lambda c: c.core(dataclasses.replace(
            c.spec, index_rule=dataclasses.replace(c.spec.index_rule, negative="allowed")))),
    Divergence(
        "maxmin-accepted-at-opset-16", ORT, "accepted",
        lambda c: (_is_onnx(c) and _has_reduction_attr(c) and _unknown_to_version(c)
                   and _version_with_spelling(c) is not None and _version_with_spelling(c).version > c.spec.version),
        "ORT accepts reduction max/min at opset 16 (the text allows only none/add/mul) and computes them.",
        "semantics.md §2 Invalid inputs: reduction not in that version; §3 errata 8",
        quote="**opset 16 accepts `max`/`min`**", model=lambda c: c.core(_version_with_spelling(c))),
    Divergence(
        "unknown-reduction-ignored", ORT, "accepted",
        lambda c: (_is_onnx(c) and _has_reduction_attr(c) and _unknown_to_version(c)
                   and _version_with_spelling(c) is None),
        "ORT: unknown reduction strings (sum, mean, bogus, ADD) silently behave as none; the checker does not "
        "validate values.",
        "semantics.md §2 Invalid inputs: reduction not in that version; §3 errata 8",
        quote="**silently behave as none**", model=lambda c: c.core(reduction=c.spec.default_reduction)),
    Divergence(
        "reduction-not-validated", ONNX_REF, "accepted",
        lambda c: _is_onnx(c) and _unknown_to_version(c),
        "onnx.reference does not validate reduction at all: it applies add/mul/max/min even at opset 11/13 "
        "(and treats other strings as none).",
        "semantics.md §2 Invalid inputs: reduction not in that version",
        quote="not validated at all (applies add/mul/max/min even at opset 11/13)",
        model=lambda c: (c.core(_version_with_spelling(c)) if _version_with_spelling(c) is not None
                         else c.core(versions_of(c.spec.op_type)[-1], reduction="none"))),
    Divergence(
        "reduction-case-insensitive", OV_BOTH, "accepted",
        lambda c: _is_ov(c) and _unknown_to_version(c) and c.reduction.lower() in c.spec.reduction_spellings,
        "OpenVINO reads reduction names case-insensitively (SUM, Sum, MEAN, NONE accepted); unknown names are "
        "an error.",
        "semantics.md §2 Invalid inputs: reduction not in that version",
        quote="**case-insensitive** (`SUM`, `Sum`, `MEAN`, `NONE` accepted)",
        model=lambda c: c.core(reduction=c.reduction.lower())),
    Divergence(
        "non-axis-dim-aliasing", OV_BOTH, "accepted", _non_axis_dim_larger,
        "An indices dimension larger than data's on a non-axis dimension: OV-CPU and OV-ref accept it and the "
        "writes alias into the next row ((0, 3) lands on (1, 0)).",
        "semantics.md §2 Invalid inputs",
        quote="**accepted, writes alias into the next row** (e.g. (0,3)→(1,0))", model=_aliasing),
    Divergence(
        "axis-dim-accepted", OV_BOTH, "accepted",
        lambda c: (_is_ov(c) and c.spec.family == "elements" and not c.spec.axis_dim_may_exceed
                   and c.axis is not None and c.indices.ndim == c.data.ndim
                   and c.indices.shape[c.axis] > c.data.shape[c.axis]),
        "ScatterElementsUpdate-3: the text wants every indices dim <= data's; the runtimes accept a larger axis "
        "dimension.",
        "semantics.md §2 Per-operator table: ScatterElementsUpdate-3",
        quote="(runtimes accept axis dim larger)",
        model=lambda c: c.core(dataclasses.replace(c.spec, axis_dim_may_exceed=True))),
    Divergence(
        "updates-shape-not-validated", ONNX_REF, "accepted",
        lambda c: _is_onnx(c) and c.spec.family == "elements" and c.updates.shape != c.indices.shape,
        "Elements ops, updates shape != indices shape: onnx.reference silently ignores it.",
        "semantics.md §2 Invalid inputs", quote="**silently ignored**"),
    Divergence(
        "indices-rank-not-validated", ONNX_REF, "accepted",
        lambda c: _is_onnx(c) and c.spec.family == "elements" and c.indices.ndim != c.data.ndim,
        "Elements ops, indices rank != data rank: onnx.reference raises no error.",
        "semantics.md §2 Invalid inputs", quote="| indices rank ≠ data rank (Elements) | error | no error |"),
    Divergence(
        "nd-int32-indices-accepted", ONNX_REF, "accepted",
        lambda c: _is_onnx(c) and c.spec.family == "nd" and c.indices.dtype == np.int32,
        "int32 indices on ScatterND: ORT rejects them (type constraint), onnx.reference accepts them.",
        "semantics.md §2 Invalid inputs",
        quote="| int32 indices on ScatterND | rejected (type constraint) | accepted |",
        model=lambda c: c.core(indices=c.indices.astype(np.int64))),
    # ------------------------------------------------------------ the runtime process dies
    Divergence(
        "index-below-range-crash", OV_CPU, "crash", lambda c: _is_ov(c) and _below_minus_s(c),
        "An index below -s: the OV-CPU Elements ops (v3/v12) have no lower-bound check and segfault.",
        "semantics.md §2 Invalid inputs",
        quote="Elements ops (v3/v12): **segfault** (no lower-bound check)", error=r"crashed"),
)

# OpenVINO reference kernels that Node.evaluate lacks, by family (observed; see OBSERVED below).
_NO_REFERENCE_KERNEL = {
    "elements": ("int8", "uint8", "uint16", "float64"),
    "nd": ("int8", "int16", "uint8", "uint16", "float64"),
    # SliceScatter-15: no Node.evaluate kernel at all (the wheel wires it only into the TEMPLATE plugin)
    "slice": ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
              "float32", "float64"),
}
OBSERVED_SOURCE = "runtime_check tests on onnx 1.23.2 / onnxruntime 1.31.1 / OpenVINO 2026.4.1, 2026-11-22"

OBSERVED: tuple[Divergence, ...] = (
    Divergence(
        "bool-sum-sub-as-uint8", OV_CPU, "value",
        lambda c: c.data.dtype == np.bool_ and c.canonical in ("sum", "sub"),
        "Not in semantics.md (which says OV-CPU = OV-ref: sum = OR, sub = XOR): the OpenVINO CPU plugin adds "
        "and subtracts bool tensors as uint8 and converts to bool at the end, so with several updates to one cell "
        "False - True - True = 254 -> True (XOR: False) and False + 256 x True = 0 -> False (OR: True). The "
        "reference implementation gives XOR / OR.", OBSERVED_SOURCE, model=_bool_as_uint8, documented=False),
    Divergence(
        "f64-narrowing", OV_CPU, "value", lambda c: c.data.dtype == np.float64,
        "Not in semantics.md: the OpenVINO CPU plugin computes float64 data in float32 (0.1 + 1e-10 comes back "
        "as 0.10000000149011612), as it computes int64 in int32.", OBSERVED_SOURCE,
        model=_computed_in(np.float32), documented=False),
    Divergence(
        "signed-zero-tie", ORT + ONNX_REF + OV_BOTH, "value",
        lambda c: c.data.dtype.kind == "f" and c.canonical in ("max", "min"),
        "Not in semantics.md, and no spec text says: max/min of +0.0 and -0.0 (equal values) keep the cell's "
        "current zero on some runtimes and take the update's on others. scatter_core (NumPy maximum/minimum) "
        "takes the update for float32/float64 but keeps the current value for float16; onnxruntime takes the "
        "update; OV-CPU keeps the current value; OV-ref ScatterElementsUpdate takes the update, OV-ref "
        "ScatterNDUpdate keeps it; onnx.reference ScatterElements keeps it, onnx.reference ScatterND behaves "
        "like NumPy. Only the sign of a zero differs.", OBSERVED_SOURCE, relation=_only_zero_signs_differ,
        documented=False),
    Divergence(
        "scatter-update-reference-nd-indices", OV_REF, "value",
        lambda c: c.spec.family == "update" and (c.indices.ndim >= 2 or 1 in c.data.shape[1:]),
        "Not in semantics.md: OpenVINO's reference ScatterUpdate-3 reads updates at wrong offsets for some "
        "shapes: multi-dimensional indices (e.g. indices [[0], [1], [2]] of shape (3, 1) on data (3, 2), axis 0: "
        "rows [1, 2], [2, 3], [3, 4] instead of [1, 2], [3, 4], [5, 6]: the slice size is not applied), and "
        "data with a length-1 trailing axis (data (2, 3, 1), indices [0, 1], axis 0: slice 1 reads [2, 3, 4] "
        "instead of [4, 5, 6]). The CPU plugin and scatter_core agree with the spec's formula.",
        OBSERVED_SOURCE, documented=False),
    Divergence(
        "reference-no-kernel", OV_REF, "refused",
        lambda c: c.data.dtype.name in _NO_REFERENCE_KERNEL.get(c.spec.family, ()),
        "Not in semantics.md (which names only int8/uint8 mean): OpenVINO's reference implementation "
        "(Node.evaluate) has no ScatterElementsUpdate kernel for int8, uint8, uint16 and float64 data and no "
        "ScatterNDUpdate kernel for int8, int16, uint8, uint16 and float64 data, whatever the reduction, and no "
        "SliceScatter-15 kernel at all (constant folding leaves the node in place too).",
        OBSERVED_SOURCE, error=r"Node\.evaluate returned False", documented=False),
    Divergence(
        "scatter-update-scalar-updates-reference", OV_REF, "refused",
        lambda c: c.spec.family == "update" and c.indices.ndim == 0 and c.data.ndim == 1,
        "Not in semantics.md (which says OV-ref accepts 0-D indices for ScatterUpdate-3): with 1-D data (so "
        "0-D updates too) the reference implementation fails with 'vector::_M_range_check'. With data of rank "
        ">= 2 it accepts 0-D indices as documented.", OBSERVED_SOURCE, error=r"_M_range_check", documented=False),
    Divergence(
        "updates-dtype-not-validated", ONNX_REF, "accepted",
        lambda c: _is_onnx(c) and c.updates.dtype != c.data.dtype,
        "Not in semantics.md: onnx.reference does not check that data and updates share one type T (onnx's "
        "checker, onnxruntime and both specs do): float32 data with int64 updates runs, the updates cast to "
        "data's dtype.", OBSERVED_SOURCE,
        model=lambda c: c.core(updates=c.updates.astype(c.data.dtype)), documented=False),
    Divergence(
        "index-below-range-silent", OV_CPU, "accepted", lambda c: _is_ov(c) and _below_minus_s(c),
        "Not in semantics.md (which says: segfault): an index a little below -s (e.g. -5 on an axis of size 2) "
        "does not always crash the CPU plugin; the write lands outside the output buffer and the call returns. "
        "Same missing lower-bound check; the result is undefined.", OBSERVED_SOURCE, documented=False),
    Divergence(
        "scatter-update-rank1-negative-unchecked", OV_CPU, "crash",
        lambda c: c.spec.family == "update" and c.data.ndim == 1 and _negatives(c),
        "Not in semantics.md (which says OV-CPU raises for a negative ScatterUpdate-3 index): with 1-D data the "
        "CPU plugin does not check the index; -1 on a size-4 tensor crashes the process (SIGSEGV; -2 on size 2: "
        "SIGABRT 'munmap_chunk(): invalid pointer'). With data of rank >= 2 it raises as documented.",
        OBSERVED_SOURCE, error=r"crashed", documented=False),
    Divergence(
        "scatter-update-rank1-negative-ignored", OV_CPU, "accepted",
        lambda c: c.spec.family == "update" and c.data.ndim == 1 and _negatives(c),
        "Not in semantics.md: see scatter-update-rank1-negative-unchecked; when it does not crash (-4 or -5 on "
        "size 4) the negative index writes nothing.", OBSERVED_SOURCE,
        model=lambda c: c.data.copy(), documented=False),
)


# ------------------------------------------------------------ TensorScatter-24 on onnx.reference (issue 16)
def _write_indices(c: RuntimeCase) -> np.ndarray:
    return np.zeros(c.data.shape[:1], np.int64) if c.indices is None else np.asarray(c.indices)


def _cache_case(c: RuntimeCase) -> bool:
    return c.spec.family == "cache" and c.data.ndim >= 2


def _sequence(c: RuntimeCase) -> tuple[int, int]:
    """(sequence_length, max_sequence_length) of a TensorScatter case."""
    axis = int(c.attrs.get("axis", -2)) % c.data.ndim
    return c.updates.shape[axis], c.data.shape[axis]


def _python_indexing_writes(c: RuntimeCase):
    """onnx.reference's output for negative write indices: NumPy counts w + s < 0 from the end."""
    w = _write_indices(c).astype(np.int64)
    seq, max_len = _sequence(c)
    if (w < -max_len).any() or (w + seq > max_len).any():
        return None
    return c.core(indices=np.where(w < 0, w + max_len, w), mode="circular")


NEWOPS_OBSERVED: tuple[Divergence, ...] = (
    Divergence(
        "tensorscatter-reference-negative-write-index", ONNX_REF, "accepted",
        lambda c: _cache_case(c) and (_write_indices(c) < 0).any(),
        "Not in semantics.md: onnx.reference's TensorScatter indexes the cache with write_indices[b] + s as "
        "NumPy does, so a negative write index counts from the end (in both modes); onnxruntime refuses it "
        "('write_indices[0] = -1 is negative'), as scatter_core does.", OBSERVED_SOURCE,
        model=_python_indexing_writes, documented=False),
    Divergence(
        "tensorscatter-reference-write-indices-shape", ONNX_REF, "accepted",
        lambda c: _cache_case(c) and _write_indices(c).shape != c.data.shape[:1],
        "Not in semantics.md: onnx.reference does not check the shape of write_indices; it reads "
        "write_indices[b] for each batch entry b, so (3,) or (2, 1) for a batch of 2 run. onnxruntime refuses "
        "them at shape inference.", OBSERVED_SOURCE,
        model=lambda c: c.core(indices=_write_indices(c).reshape(-1)[:c.data.shape[0]]), documented=False),
    Divergence(
        "tensorscatter-reference-int32-write-indices", ONNX_REF, "accepted",
        lambda c: _cache_case(c) and _write_indices(c).dtype != np.int64,
        "Not in semantics.md: onnx.reference accepts write_indices of another integer type (int32); the "
        "operator's type constraint is tensor(int64) and onnxruntime refuses the model.", OBSERVED_SOURCE,
        model=lambda c: c.core(indices=_write_indices(c).astype(np.int64)), documented=False),
    Divergence(
        "tensorscatter-reference-empty-update-bound", ONNX_REF, "accepted",
        lambda c: _cache_case(c) and _sequence(c)[0] == 0 and c.attrs.get("mode", "linear") == "linear",
        "Not in semantics.md: with an update of sequence length 0 onnx.reference writes nothing and so never "
        "checks the linear-mode rule write_indices[b] + sequence_length <= max_sequence_length; onnxruntime "
        "checks it and refuses a write index past the end.", OBSERVED_SOURCE,
        model=lambda c: c.data.copy(), documented=False),
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
    return scatter_core.families.family_of(c.spec).updates_shape(c.data.shape, None, {**c.attrs, "start": moved})


SLICE_START_TEXT = (
    "Not in semantics.md: with a negative step OpenVINO (Slice-8 and SliceScatter-15 shape inference, so the CPU "
    "plugin and the reference alike) reads a start below -size as the first element, so start -8, stop -8, "
    "step -1 on an axis of size 3 selects element 0; Python's slicing, which Slice-8's text says it follows, "
    "selects nothing there. OpenVINO then wants updates of its own slice shape.")

NEWOPS_OBSERVED += (
    Divergence(
        "slice-negative-step-start-below", OV_BOTH, "refused",
        lambda c: c.spec.family == "slice" and _openvino_slice_shape(c) not in (None, c.updates.shape),
        SLICE_START_TEXT, OBSERVED_SOURCE, error=r"not compatible with expected slice shape", documented=False),
    Divergence(
        "slice-negative-step-start-below-accepted", OV_CPU, "accepted",
        lambda c: c.spec.family == "slice" and _openvino_slice_shape(c) == c.updates.shape,
        SLICE_START_TEXT, OBSERVED_SOURCE, model=lambda c: c.core(start=_openvino_start(c)), documented=False),
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
