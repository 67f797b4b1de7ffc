"""The one table of runtime facts: what real runtimes do with scatter operators, beside the spec text.

A :class:`Fact` is one behaviour of one or more runtimes: its words (``text``, read after the runtimes'
label), its :class:`Source` (a spec page, an upstream issue, or this project's test that observed it), the
operators or families it concerns, the runtimes it holds for, and ``status`` on the verified versions.
``documented``: docs/semantics.md describes it; the app marks the others NEW until it does.

The table is data in scatter_core, so the pages and the error messages read it with no runtime installed.
No version is written in a fact: :data:`VERIFIED_ON` holds the versions every fact was verified on (the
same as constraints/verified.txt; the ``runtimes`` extra starts there), and labels carry placeholders
(``"OpenVINO {openvino} CPU plugin"``) that :func:`resolve` fills. Each fact's check on the installed
runtimes is in ``runtime_check.fact_checks`` (``scatter-explorer verify-facts``); the predicates that
match a fact to a runtime's output are in ``runtime_check.divergences``. docs/semantics.md says more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from .spec import RuntimeNote

# The runtimes a fact can name (runtime_check.RUNTIMES, in the same order) and the distribution that gives
# each one's version.
RUNTIME_NAMES = ("onnxruntime", "onnx.reference", "openvino-onnx", "openvino-cpu", "openvino-reference")
DISTRIBUTIONS = {"onnxruntime": "onnxruntime", "onnx.reference": "onnx", "openvino-onnx": "openvino",
                 "openvino-cpu": "openvino", "openvino-reference": "openvino"}
# Distribution -> the version every fact of the table was verified on (this project's tests and
# `scatter-explorer verify-facts`). constraints/verified.txt pins the same versions for the test suite.
VERIFIED_ON: Mapping[str, str] = {"onnx": "1.23.2", "onnxruntime": "1.31.1", "openvino": "2026.4.1"}
SOURCE_KINDS = ("spec", "issue", "test")
STATUSES = ("holds", "not reproduced")
_PIN = re.compile(r'"?([A-Za-z0-9_.-]+)\s*(==|>=)\s*([0-9][^";,\s]*)')
_PLACEHOLDER = re.compile(r"\{(onnx|onnxruntime|openvino)\}")
TEST_PREFIX = "tests/"  # a "test" source names ``module::function`` of a test module under tests/


@dataclass(frozen=True)
class Source:
    """Where a fact comes from. ``kind`` "test": ``where`` names this project's test that observed it
    (``"test_differential::test_bool_reductions"``); "issue": ``where`` is an upstream issue's address;
    "spec": ``where`` is the official spec page's address. ``test``: for an issue or a spec page, this
    project's test that checked it on the runtimes."""

    kind: str
    where: str
    test: str = ""

    @property
    def observed_by(self) -> str:
        """The test of this project that observed or checked the fact (``module::function``)."""
        return self.where if self.kind == "test" else self.test

    def words(self, verified: str = "") -> str:
        """The source for people: "test `m::f`", "issue <url>" or "spec page <url>", then where it was verified."""
        what = {"test": "this project's test", "issue": "upstream issue", "spec": "spec page"}[self.kind]
        text = f"{what} {self.where}" + (f", checked by this project's test {self.test}" if self.test else "")
        return text + (f"; verified on {verified}" if verified else "")


@dataclass(frozen=True)
class Fact:
    id: str
    topic: str  # a rule id: "negative-index", "duplicates", "integer-mean", ...
    runtimes: tuple[str, ...]  # names from RUNTIME_NAMES
    label: str  # how the runtimes are named in text, with {onnx}/{onnxruntime}/{openvino} for their versions
    text: str  # the behaviour, in our words, read after the label
    source: Source
    operators: tuple[str, ...] = ()  # the operator versions whose pages show it
    families: tuple[str, ...] = ()  # the families it concerns (empty: as ``operators`` say, or any)
    status: str = "holds"  # "not reproduced": a report that the verified runtimes do not bear out
    dtypes: tuple[str, ...] = ()  # the data dtypes it concerns, where its text names them (empty: any)
    rounding: str = ""  # how it rounds an integer mean, where that is the fact (a key of explaining.ROUNDINGS)
    holds_in: str = ""  # issue facts: the versions the reported behaviour holds in (older ones are named as
    #                     such; the verified one only as a placeholder) and where it was fixed
    documented: bool = False  # docs/semantics.md describes it (else the app marks it NEW)

    @property
    def distributions(self) -> tuple[str, ...]:
        """The distributions whose versions the fact was verified on ("onnx", "onnxruntime", "openvino")."""
        return tuple(dict.fromkeys(DISTRIBUTIONS[r] for r in self.runtimes))

    def verified_words(self, versions: Mapping[str, str] | None = None) -> str:
        """"onnxruntime 1.x, onnx 1.y": the versions it was verified on."""
        versions = VERIFIED_ON if versions is None else versions
        return ", ".join(f"{d} {versions.get(d, '(unknown)')}" for d in self.distributions)

    def source_words(self) -> str:
        """Its source for people, with the versions it was verified on."""
        return self.source.words(self.verified_words())

    def runtimes_label(self, pins: Mapping[str, str] | None = None) -> str:
        return resolve(self.label, VERIFIED_ON if pins is None else pins)

    def sentence(self, pins: Mapping[str, str] | None = None) -> str:
        """The fact as one sentence: label, colon, text."""
        return f"{self.runtimes_label(pins)}: {self.text}"

    def note(self, pins: Mapping[str, str] | None = None) -> RuntimeNote:
        """The fact as the operator records' ``RuntimeNote`` (versions resolved)."""
        return RuntimeNote(self.topic, self.runtimes_label(pins), self.text, documented=self.documented, fact=self.id,
                           dtypes=self.dtypes)


def pins_in(text: str, op: str = "==") -> dict[str, str]:
    """Distribution -> version, from requirement text (``"onnxruntime==1.0.0"``; ``op=">="``: lower bounds)."""
    return {name: version for name, o, version in _PIN.findall(text) if o == op}


def verified_versions() -> dict[str, str]:
    """Distribution ("onnx", "onnxruntime", "openvino") -> the version the table's facts were verified on."""
    return dict(VERIFIED_ON)


def resolve(label: str, pins: Mapping[str, str]) -> str:
    """``label`` with each ``{distribution}`` placeholder replaced by its version ("(unknown)" if none)."""
    return _PLACEHOLDER.sub(lambda m: pins.get(m.group(1), "(unknown)"), label)


ND15_PAGE = ("https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/"
             "movement/scatter-nd-update-15.html")
# the runtimes facts name most often, and how their labels read
ORT, REF, OV_CPU, OV_REF = ("onnxruntime",), ("onnx.reference",), ("openvino-cpu",), ("openvino-reference",)
OV_BOTH, ALL = OV_CPU + OV_REF, RUNTIME_NAMES
ORT_LABEL, REF_LABEL = "onnxruntime {onnxruntime}", "onnx.reference {onnx}"
OV_CPU_LABEL, OV_REF_LABEL = "OpenVINO {openvino} CPU plugin", "OpenVINO {openvino} reference"
# The CPU plugin behind an ONNX model too: OpenVINO's ONNX frontend turns ScatterND into ScatterNDUpdate-15 and
# ScatterElements (and Scatter) into ScatterElementsUpdate-12 and the CPU plugin runs them ("openvino-onnx").
# A CPU-plugin fact names it only where this project's tests saw it hold through the frontend.
OV_ONNX = ("openvino-onnx",)
OV_CPU_ANY = OV_CPU + OV_ONNX
OV_ONNX_LABEL = "OpenVINO {openvino} CPU plugin through its ONNX frontend"
ONNX_SCATTER_OPS = ("Scatter-9", "ScatterElements-11", "ScatterElements-13", "ScatterElements-16",
                    "ScatterElements-18", "ScatterND-11", "ScatterND-13", "ScatterND-16", "ScatterND-18")
OV_BOTH_LABEL = "OpenVINO {openvino} (CPU plugin and reference)"
ALL_LABEL = "onnxruntime {onnxruntime}, onnx.reference {onnx} and OpenVINO {openvino} (CPU and reference)"

FACTS: tuple[Fact, ...] = (
    Fact("ort-scatter-9-negative-index", "negative-index", ORT, ORT_LABEL,
         "accepts -s..s-1 and normalises negatives",
         Source("test", "test_differential::test_scatter_9_accepts_negative_indices_on_onnxruntime"),
         operators=("Scatter-9",), documented=True),
    Fact("onnx-ref-no-scatter-kernel", "runnable", REF, REF_LABEL,
         "has no Scatter kernel at opset 9 or 10",
         Source("test", "test_differential::test_scatter_11_cannot_run_anywhere"),
         operators=("Scatter-9",), documented=True),
    Fact("onnx-ref-loop-without-condition", "subgraph", REF, REF_LABEL,
         "runs none of the iterations of a Loop whose condition input is left out, where the spec runs the trip "
         "count M (onnxruntime does); so a scatter node in such a Loop's body would never run. scatter_models "
         "gives such a Loop a constant true condition before onnx.reference runs it, which the spec treats as "
         "the same, and says so in the capture",
         Source("test", "test_models_lift::test_a_loop_without_its_condition_runs_its_trip_count_on_onnx_reference_too")),
    Fact("last-wins", "duplicates", ALL, ALL_LABEL,
         "with reduction none the last write in row-major loop order wins, even with thousands of duplicates "
         "(OpenVINO CPU runs ScatterUpdate and ScatterND(none) with parallel_for, so with more threads the "
         "order is formally undefined)",
         Source("test", "test_differential::test_duplicates_with_none_last_write_wins_everywhere"),
         operators=("Scatter-9", "Scatter-11", "ScatterElements-11", "ScatterElements-13",
                    "ScatterElements-16", "ScatterElements-18", "ScatterND-11", "ScatterND-13",
                    "ScatterND-16", "ScatterND-18", "ScatterUpdate-3", "ScatterNDUpdate-3",
                    "ScatterNDUpdate-15", "ScatterElementsUpdate-3", "ScatterElementsUpdate-12"), documented=True),
    Fact("scatter-11-refused", "deprecated", ORT + REF, "onnx {onnx} checker, onnxruntime {onnxruntime}",
         "refuse Scatter at opset 11 ('deprecated in domain_version of 11'); onnx.reference has no Scatter "
         "kernel. ScatterElements-11 is its runtime stand-in",
         Source("test", "test_differential::test_scatter_11_cannot_run_anywhere"),
         operators=("Scatter-11",), documented=True),
    Fact("ort-strict-dims", "dims", ORT, ORT_LABEL,
         "requires indices.shape[i] <= data.shape[i] for every i != axis and accepts a longer axis dimension",
         Source("test", "test_differential::test_axis_dimension_of_indices_larger_than_datas"),
         operators=("ScatterElements-11", "ScatterElements-13", "ScatterElements-16", "ScatterElements-18"), documented=True),
    Fact("ort-no-reduction-attr", "reduction", ORT, ORT_LABEL,
         "refuses to load a model that sets reduction at this opset ('Unrecognized attribute')",
         Source("test", "test_differential::test_reduction_before_opset_16_refused_by_ort_applied_by_onnx_reference"),
         operators=("ScatterElements-11", "ScatterElements-13", "ScatterND-11", "ScatterND-13"), documented=True),
    Fact("onnx-ref-lax", "shape", REF, REF_LABEL,
         "silently ignores an updates shape that differs from the indices shape",
         Source("test", "test_differential::test_updates_shape_differs_from_indices_shape"),
         operators=("ScatterElements-11", "ScatterElements-13", "ScatterElements-16", "ScatterElements-18"), documented=True),
    Fact("ort-reduction-16", "reduction", ORT, ORT_LABEL,
         "accepts max and min at opset 16 although the text allows only none, add and mul, and silently treats"
         " unknown strings ('sum', 'mean', 'ADD') as none",
         Source("test", "test_differential::test_onnxruntime_accepts_max_min_at_opset_16"),
         operators=("ScatterElements-16", "ScatterND-16"), documented=True),
    Fact("onnx-ref-reduction", "reduction", REF, REF_LABEL,
         "does not validate reduction: it applies add/mul/max/min at any opset",
         Source("test", "test_differential::test_reduction_before_opset_16_refused_by_ort_applied_by_onnx_reference"),
         operators=("ScatterElements-16", "ScatterND-16"), documented=True),
    Fact("ort-f16", "float16", ORT, ORT_LABEL,
         "refuses float16 data with add/mul; onnx.reference rounds to float16 after every step",
         Source("test", "test_differential::test_float16_accumulation_and_refusals"),
         operators=("ScatterElements-16", "ScatterElements-18", "ScatterND-16", "ScatterND-18"), documented=True),
    Fact("ort-reduction-18", "reduction", ORT, ORT_LABEL,
         "silently treats unknown reduction strings ('sum', 'mean', 'ADD') as none",
         Source("test", "test_differential::test_onnxruntime_treats_unknown_reductions_as_none"),
         operators=("ScatterElements-18", "ScatterND-18"), documented=True),
    Fact("ort-bool-maxmin", "bool", ORT, ORT_LABEL,
         "refuses bool data with max/min; onnx.reference gives max = OR, min = AND",
         Source("test", "test_differential::test_bool_reductions"),
         operators=("ScatterElements-18", "ScatterND-18"), documented=True),
    Fact("ov-signed-zero", "signed-zero", ALL, ALL_LABEL,
         "max/min of +0.0 and -0.0 (equal values) keep the cell's current zero on some runtimes and take the "
         "update's on others: onnxruntime takes the update; the OpenVINO CPU plugin keeps the current value; "
         "the OpenVINO reference ScatterElementsUpdate takes the update, its ScatterNDUpdate keeps it; "
         "onnx.reference ScatterElements keeps it, its ScatterND behaves like NumPy (scatter_core: NumPy "
         "maximum/minimum take the update for float32/float64 and keep the current value for float16). Only "
         "the sign of a zero differs, and no spec text decides it",
         Source("test", "test_differential::test_observed_signed_zero_ties_differ_between_runtimes"),
         operators=("ScatterElements-18", "ScatterND-18", "ScatterNDUpdate-15", "ScatterElementsUpdate-12")),
    Fact("ort-nan", "nan-max-min", ORT, ORT_LABEL,
         "lets a NaN update replace the cell, and the next update replace a NaN cell (also a NaN in data), so "
         "the result depends on the order of the writes",
         Source("test", "test_differential::test_observed_nan_in_max_min_differs_between_runtimes"),
         operators=("ScatterElements-18", "ScatterND-18")),
    Fact("onnx-ref-nan-elements", "nan-max-min", REF, REF_LABEL,
         "ignores NaN updates (the cell keeps its value) but keeps a NaN that is already in the cell, so the "
         "result depends on where the NaN is",
         Source("test", "test_differential::test_observed_nan_in_max_min_differs_between_runtimes"),
         operators=("ScatterElements-18",)),
    Fact("onnx-ref-type-t", "dtype-mismatch", REF, REF_LABEL,
         "does not check that data and updates share one type T (onnx's checker, onnxruntime and both specs "
         "do): float32 data with int64 updates runs, the updates cast to data's dtype",
         Source("test", "test_runtime_check::test_compare_gives_runtimes_the_core_view_of_attributes_and_types"),
         operators=("ScatterElements-18", "ScatterND-18")),
    Fact("ort-nd-int64", "index-dtype", ORT, ORT_LABEL,
         "rejects int32 indices for ScatterND (type constraint)",
         Source("test", "test_differential::test_index_dtypes_for_scatter_nd"),
         operators=("ScatterND-11", "ScatterND-13", "ScatterND-16", "ScatterND-18"), documented=True),
    Fact("onnx-nd-k0", "k-zero", ("onnxruntime", "onnx.reference", "openvino-reference"), "onnxruntime {onnxruntime}, onnx.reference {onnx} and the OpenVINO {openvino} reference",
         "update the whole tensor when indices.shape[-1] == 0 (the OpenVINO CPU plugin does nothing)",
         Source("test", "test_differential::test_k_zero_cpu_no_op_elsewhere_whole_tensor"),
         operators=("ScatterND-11", "ScatterND-13", "ScatterND-16", "ScatterND-18"), documented=True),
    Fact("ort-f16-nd-maxmin", "float16", ORT, ORT_LABEL,
         "refuses float16 ScatterND with max/min as well",
         Source("test", "test_differential::test_float16_accumulation_and_refusals"),
         operators=("ScatterND-18",),
         families=("nd",), documented=True),
    Fact("onnx-ref-nan-nd", "nan-max-min", REF, REF_LABEL,
         "keeps the NaN: any NaN that takes part (in data or in an update) makes the cell NaN (NumPy "
         "maximum/minimum)",
         Source("test", "test_differential::test_observed_nan_in_max_min_differs_between_runtimes"),
         operators=("ScatterND-18",)),
    Fact("ov-scatter-update-negative-rejected", "negative-index", OV_BOTH, OV_BOTH_LABEL,
         "reject negative indices, as the text says",
         Source("test", "test_differential::test_negative_indices_accepted_by_openvino_v3_ops_against_their_text"),
         operators=("ScatterUpdate-3",), documented=True),
    Fact("ov-cpu-scalar-indices", "scalar-indices", OV_CPU, OV_CPU_LABEL,
         "refuses 0-d indices; the reference accepts them",
         Source("test", "test_differential::test_zero_d_indices_and_one_element_updates_on_openvino"),
         operators=("ScatterUpdate-3",), documented=True),
    Fact("ov-int64", "int64", OV_CPU_ANY, OV_CPU_LABEL,
         "computes int64 data in int32: 2**40 + 3 comes back as 3",
         Source("test", "test_differential::test_int64_data_is_computed_in_int32_on_cpu"),
         operators=("ScatterUpdate-3", "ScatterNDUpdate-3", "ScatterNDUpdate-15",
                    "ScatterElementsUpdate-3", "ScatterElementsUpdate-12", "SliceScatter-15"), documented=True),
    Fact("ov-parallel-winner", "duplicates-parallel", OV_CPU, OV_CPU_LABEL,
         "splits ScatterND(none) and ScatterUpdate across threads: with 5,000 writes to one cell on 2 cores "
         "the winner was usually the last write (4999) but sometimes the last of the first thread's half "
         "(2499), so the result is not deterministic there",
         Source("test", "test_runtime_check::test_another_order_of_duplicate_writes_is_the_documented_parallel_divergence"),
         operators=("ScatterUpdate-3", "ScatterNDUpdate-3", "ScatterNDUpdate-15"), documented=True),
    Fact("ov-f64", "float64", OV_CPU_ANY, OV_CPU_LABEL,
         "computes float64 data in float32: 0.1 + 1e-10 comes back as 0.10000000149011612",
         Source("test", "test_differential::test_observed_cpu_computes_float64_in_float32"),
         operators=("ScatterUpdate-3", "ScatterNDUpdate-3", "ScatterNDUpdate-15",
                    "ScatterElementsUpdate-3", "ScatterElementsUpdate-12", "SliceScatter-15")),
    Fact("ov-cpu-scatter-update-rank1-negative", "negative-index", OV_CPU, OV_CPU_LABEL,
         "with 1-D data does not check a negative index: -1 on a size-4 tensor crashes the process (SIGSEGV; "
         "-2 on size 2: SIGABRT), -4 or -5 write nothing; with data of rank >= 2 it refuses negatives as the "
         "text says",
         Source("test", "test_differential::test_observed_cpu_scatter_update_rank_1_negative_index_is_unchecked"),
         operators=("ScatterUpdate-3",)),
    Fact("ov-ref-scatter-update-offsets", "updates-offsets", OV_REF, OV_REF_LABEL,
         "reads updates at wrong offsets for some multi-dimensional indices: indices [[0], [1], [2]], data "
         "zeros((3, 2)), updates arange(1, 7) as (3, 1, 2), axis 0 gives [[1, 2], [2, 3], [3, 4]] instead of "
         "[[1, 2], [3, 4], [5, 6]]; and with a length-1 trailing axis: data (2, 3, 1), indices [0, 1], axis 0 "
         "puts [2, 3, 4] in slice 1 instead of [4, 5, 6]; the CPU plugin follows the text",
         Source("test", "test_differential::test_observed_reference_scatter_update_misreads_updates_for_some_nd_indices"),
         operators=("ScatterUpdate-3",)),
    Fact("ov-ref-scatter-update-scalar-indices", "scalar-indices", OV_REF, OV_REF_LABEL,
         "with 1-D data (so 0-d updates) refuses 0-d indices ('vector::_M_range_check'); with data of rank >= "
         "2 it accepts them",
         Source("test", "test_differential::test_observed_reference_refuses_zero_d_indices_with_one_d_data"),
         operators=("ScatterUpdate-3",)),
    Fact("ov-negative-accepted", "negative-index", OV_BOTH, OV_BOTH_LABEL,
         "accept negative indices in [-s, -1] and normalise them to s + index",
         Source("test", "test_differential::test_negative_indices_accepted_by_openvino_v3_ops_against_their_text"),
         operators=("ScatterNDUpdate-3", "ScatterElementsUpdate-3"), documented=True),
    Fact("ov-nd-k0", "k-zero", OV_CPU_ANY, OV_CPU_LABEL,
         "does nothing when indices.shape[-1] == 0 (it returns early because indices has no elements); "
         "onnxruntime, onnx.reference and the OpenVINO reference update the whole tensor",
         Source("test", "test_differential::test_k_zero_cpu_no_op_elsewhere_whole_tensor"),
         operators=("ScatterNDUpdate-3", "ScatterNDUpdate-15"), documented=True),
    Fact("ov-nd-scalar", "scalar-updates", OV_CPU, OV_CPU_LABEL,
         "refuses a one-element updates tensor in place of a 0-d one; the reference accepts it",
         Source("test", "test_differential::test_zero_d_indices_and_one_element_updates_on_openvino"),
         operators=("ScatterNDUpdate-3", "ScatterNDUpdate-15"), documented=True),
    Fact("ov-ref-no-kernel-nd", "reference-kernels", OV_REF, OV_REF_LABEL,
         "has no kernel for int8, int16, uint8, uint16 or float64 data, whatever the reduction (Node.evaluate "
         "returns False)",
         Source("test", "test_differential::test_observed_reference_kernels_missing_for_some_element_types"),
         operators=("ScatterNDUpdate-3", "ScatterNDUpdate-15")),
    Fact("ov-reduction-case", "reduction", OV_BOTH, OV_BOTH_LABEL,
         "accept reduction names in any case ('SUM', 'Mean') and reject unknown names",
         Source("test", "test_differential::test_openvino_reduction_names_are_case_insensitive"),
         operators=("ScatterNDUpdate-15", "ScatterElementsUpdate-12"), documented=True),
    Fact("ov-f16", "float16", OV_BOTH + OV_ONNX, OV_BOTH_LABEL,
         "accumulate float16 sums in wider precision (2048 + 1 + 1 = 2050)",
         Source("test", "test_differential::test_float16_accumulation_and_refusals"),
         operators=("ScatterNDUpdate-15", "ScatterElementsUpdate-12"), documented=True),
    Fact("ov-bool-nd", "bool", OV_BOTH, OV_BOTH_LABEL,
         "sum = OR, prod = AND, min = AND, max = OR, sub = XOR on bool",
         Source("test", "test_differential::test_bool_reductions"),
         operators=("ScatterNDUpdate-15",), documented=True),
    Fact("ov-bool-as-uint8", "bool", OV_CPU_ANY, OV_CPU_LABEL,
         "adds and subtracts bool tensors as uint8 and converts to bool at the end, so with several updates to"
         " one cell False - True - True gives True (XOR would give False) and 256 x True gives False (OR would"
         " give True); the reference gives OR / XOR",
         Source("test", "test_differential::test_observed_cpu_computes_bool_sum_and_sub_in_uint8"),
         operators=("ScatterNDUpdate-15", "ScatterElementsUpdate-12")),
    Fact("ov-cpu-nan", "nan-max-min", OV_CPU_ANY, OV_CPU_LABEL,
         "ignores NaN updates (the cell keeps its value) but keeps a NaN that is already in the cell, so the "
         "result depends on where the NaN is",
         Source("test", "test_differential::test_observed_nan_in_max_min_differs_between_runtimes"),
         operators=("ScatterNDUpdate-15", "ScatterElementsUpdate-12")),
    Fact("ov-ref-nan-nd", "nan-max-min", OV_REF, OV_REF_LABEL,
         "ignores NaN updates (the cell keeps its value) but keeps a NaN that is already in the cell, so the "
         "result depends on where the NaN is",
         Source("test", "test_differential::test_observed_nan_in_max_min_differs_between_runtimes"),
         operators=("ScatterNDUpdate-15",)),
    Fact("ov-range-low", "index-range", OV_CPU_ANY, OV_CPU_LABEL,
         "has no lower-bound check for the Elements ops: an index below -s crashes the process",
         Source("test", "test_differential::test_index_below_minus_s"),
         operators=("ScatterElementsUpdate-3", "ScatterElementsUpdate-12"), documented=True),
    Fact("ov-alias-dims", "dims", OV_BOTH + OV_ONNX, OV_BOTH_LABEL,
         "accept an indices dimension larger than data's on a non-axis dimension; the writes alias into the "
         "next row (e.g. (0, 3) lands on (1, 0))",
         Source("test", "test_differential::test_indices_dimension_larger_than_data_on_a_non_axis_dimension"),
         operators=("ScatterElementsUpdate-3", "ScatterElementsUpdate-12"), documented=True),
    Fact("ov-axis-dim", "axis-dim", OV_BOTH, OV_BOTH_LABEL,
         "accept an indices axis dimension larger than data's",
         Source("test", "test_differential::test_axis_dimension_of_indices_larger_than_datas"),
         operators=("ScatterElementsUpdate-3",), documented=True),
    Fact("ov-range-low-silent", "index-range-silent", OV_CPU_ANY, OV_CPU_LABEL,
         "an index only a little below -s does not always crash: the write lands outside the output buffer and"
         " the call returns (same missing lower-bound check; the result is undefined)",
         Source("test", "test_differential::test_observed_cpu_index_slightly_below_minus_s_may_not_crash"),
         operators=("ScatterElementsUpdate-3", "ScatterElementsUpdate-12")),
    Fact("ov-ref-no-kernel-elements", "reference-kernels", OV_REF, OV_REF_LABEL,
         "has no kernel for int8, uint8, uint16 or float64 data, whatever the reduction (Node.evaluate returns"
         " False); docs/semantics.md names only int8/uint8 mean",
         Source("test", "test_differential::test_observed_reference_kernels_missing_for_some_element_types"),
         operators=("ScatterElementsUpdate-3", "ScatterElementsUpdate-12")),
    Fact("ov-cpu-integer-mean", "integer-mean", OV_CPU, OV_CPU_LABEL,
         "divides an integer sum and truncates toward zero (static_cast of a double); the reference floors as "
         "the text says: data 0, update -3 gives -1 on CPU, -2 in the reference",
         Source("test", "test_differential::test_integer_mean_cpu_truncates_reference_floors"),
         operators=("ScatterElementsUpdate-12",), rounding="toward zero", documented=True),
    Fact("ov-ref-mean-i8", "integer-mean", OV_REF, OV_REF_LABEL,
         "has no int8/uint8 mean kernel",
         Source("test", "test_differential::test_int8_mean_only_on_cpu"),
         operators=("ScatterElementsUpdate-12",), dtypes=("int8", "uint8"), documented=True),
    Fact("ov-bool-mean-refused", "bool", OV_BOTH, OV_BOTH_LABEL,
         "refuse bool data with mean at node construction",
         Source("test", "test_differential::test_bad_axis_k_too_large_float_indices_are_refused_everywhere"),
         operators=("ScatterElementsUpdate-12",), documented=True),
    Fact("ov-init-flt-max", "use-init-val-infinity", OV_BOTH, OV_BOTH_LABEL,
         "with use_init_val=false a max cell whose updates are all -inf comes out as -FLT_MAX "
         "(-3.4028235e+38), and a min cell whose updates are all +inf as +FLT_MAX: the cell starts from the "
         "lowest (highest) finite value instead of -inf (+inf). scatter_core gives -inf (+inf), as PyTorch is "
         "reported to, which fits the text ('data elements are not used')",
         Source("test", "test_differential::test_observed_flt_max_for_all_infinite_updates_without_init_value"),
         operators=("ScatterElementsUpdate-12",), documented=True),
    Fact("ov-ref-nan-elements", "nan-max-min", OV_REF, OV_REF_LABEL,
         "lets a NaN update replace the cell, and the next update replace a NaN cell (also a NaN in data), so "
         "the result depends on the order of the writes",
         Source("test", "test_differential::test_observed_nan_in_max_min_differs_between_runtimes"),
         operators=("ScatterElementsUpdate-12",), documented=True),
    Fact("ov-cpu-uint64", "uint64", OV_CPU_ANY, OV_CPU_LABEL,
         "narrows uint64 data to 32 bits: data [2**40 + 5, 1], update 2**33 at 0 gives [0, 1] (the reference: "
         "[2**33, 1])",
         Source("test", "test_differential::test_observed_cpu_narrows_uint64_and_widens_int16_mean"),
         operators=("ScatterElementsUpdate-12",)),
    Fact("ov-cpu-mean-int16", "integer-mean-int16", OV_CPU, OV_CPU_LABEL,
         "does not wrap the int16 sum before dividing for mean: data 32767, update 32767 gives 32767 (the "
         "reference and scatter_core wrap the sum: -1)",
         Source("test", "test_differential::test_observed_cpu_narrows_uint64_and_widens_int16_mean"),
         operators=("ScatterElementsUpdate-12",)),
    Fact("ts-ort-negative-write-index", "negative-index", ORT, ORT_LABEL,
         "refuses a negative write index in both modes ('write_indices[0] = -1 is negative'); onnx.reference "
         "counts it from the end, as Python indexing does",
         Source("test", "test_differential_newops::test_invalid_tensor_scatter_inputs"),
         operators=("TensorScatter-24",)),
    Fact("ts-ref-index-range", "index-range", REF, REF_LABEL,
         "refuses a linear write past the end only through NumPy's IndexError, and does not check w + "
         "sequence_length <= max_sequence_length when sequence_length is 0 (onnxruntime does)",
         Source("test", "test_differential_newops::test_onnx_reference_takes_int32_write_indices_and_skips_the_bound_for_an_empty_update"),
         operators=("TensorScatter-24",)),
    Fact("ts-ref-write-indices-shape", "shape", REF, REF_LABEL,
         "does not check the shape of write_indices: (3,) or (2, 1) for a batch of 2 run (onnxruntime refuses "
         "them at shape inference)",
         Source("test", "test_differential_newops::test_invalid_tensor_scatter_inputs"),
         operators=("TensorScatter-24",)),
    Fact("ts-ref-int32-write-indices", "index-dtype", REF, REF_LABEL,
         "accepts int32 write_indices; onnxruntime refuses them (type constraint tensor(int64))",
         Source("test", "test_differential_newops::test_onnx_reference_takes_int32_write_indices_and_skips_the_bound_for_an_empty_update"),
         operators=("TensorScatter-24",)),
    Fact("ov-onnx-frontend-no-tensor-scatter", "runnable", OV_ONNX, "OpenVINO {openvino} ONNX frontend",
         "has no conversion rule for TensorScatter-24, so an ONNX model holding it does not load",
         Source("test", "test_models_runtimes::test_tensor_scatter_on_openvino_is_refused_before_running_naming_node_op_and_who_can"),
         operators=("TensorScatter-24",)),
    Fact("ov-onnx-frontend-kernels", "frontend", OV_ONNX, OV_ONNX_LABEL,
         "runs ScatterND as ScatterNDUpdate-15 and ScatterElements and Scatter-9 as ScatterElementsUpdate-12 "
         "(reductions add, mul, max, min as sum, prod, max, min), so the CPU plugin's own behaviour holds for an "
         "ONNX model too: int64 and uint64 data computed in 32 bits, float64 in float32, float16 sums accumulated "
         "in wider precision (2048 + 1 + 1 = 2050), bool add counted in uint8, nothing written when "
         "indices.shape[-1] == 0, NaN updates ignored by max and min, and an Elements index below -s crashes the "
         "process",
         Source("test", "test_runtime_openvino_onnx::test_frontend_facts_hold_on_the_pinned_openvino"),
         operators=ONNX_SCATTER_OPS),
    Fact("ov-onnx-frontend-reduction", "reduction", OV_ONNX, "OpenVINO {openvino} ONNX frontend",
         "does not check reduction against the opset where the OpenVINO op has it: ScatterElements runs add and "
         "mul at opset 11 and 13, and ScatterElements and ScatterND run max and min at 16, as at 18 (onnxruntime "
         "refuses a reduction at 11 and 13); ScatterND at 11 and 13 refuses any reduction but none when the model "
         "is read, and so does an unknown name ('sum') at any opset",
         Source("test", "test_runtime_openvino_onnx::test_frontend_facts_hold_on_the_pinned_openvino"),
         operators=("ScatterElements-11", "ScatterElements-13", "ScatterElements-16", "ScatterND-16")),
    Fact("ov-onnx-frontend-nd-int32-indices", "index-dtype", OV_ONNX, "OpenVINO {openvino} ONNX frontend",
         "accepts int32 indices for ScatterND (onnxruntime refuses them: type constraint)",
         Source("test", "test_runtime_openvino_onnx::test_frontend_facts_hold_on_the_pinned_openvino"),
         operators=("ScatterND-11", "ScatterND-13", "ScatterND-16", "ScatterND-18")),
    Fact("ts-circular-agree", "circular", ORT + REF, "onnxruntime {onnxruntime} and onnx.reference {onnx}",
         "agree on circular mode, including write indices of several times max_sequence_length",
         Source("test", "test_differential_newops::test_circular_wrap_and_left_out_write_indices"),
         operators=("TensorScatter-24",), documented=True),
    Fact("ov-slice-scatter-slicing", "slicing", OV_CPU, OV_CPU_LABEL,
         "agrees with Python's slicing on random cases with negative and clamped bounds and negative steps",
         Source("test", "test_differential_newops::test_negative_steps_and_clamped_bounds_agree_on_the_cpu_plugin"),
         operators=("SliceScatter-15",)),
    Fact("ov-slice-negative-step-start", "negative-step-start", OV_BOTH, OV_BOTH_LABEL,
         "with a negative step read a start below -size as the first element: start -8, stop -8, step -1 on an"
         " axis of size 3 selects element 0 where Python's slicing (which Slice-8's text follows, and Scatter "
         "Explorer too) selects nothing; OpenVINO's Slice-8 does the same, and its shape inference then wants "
         "updates of that shape",
         Source("test", "test_differential_newops::test_openvino_reads_a_start_below_minus_size_with_a_negative_step_as_the_first_element"),
         operators=("SliceScatter-15",)),
    Fact("ov-ref-slice-scatter-no-kernel", "reference-kernels", OV_REF, OV_REF_LABEL,
         "cannot run SliceScatter: Node.evaluate returns False for every element type and constant folding "
         "leaves the node in place (the wheel wires the reference kernel only into the TEMPLATE plugin, which "
         "it does not ship)",
         Source("test", "test_differential_newops::test_examples_agree_on_every_runtime"),
         operators=("SliceScatter-15",)),
    Fact("duplicates-parallel-order", "duplicates", OV_CPU_ANY, OV_CPU_LABEL,
         "Duplicates with reduction none: OV-CPU runs ScatterUpdate and ScatterND(none) with parallel_for, so "
         "with more threads the order is formally undefined; a cell written more than once may keep any of its"
         " writes, not only the last in row-major order.",
         Source("test", "test_runtime_check::test_another_order_of_duplicate_writes_is_the_documented_parallel_divergence"),
         families=("nd", "update"), documented=True),
    Fact("indices-rank-not-validated", "shape", REF, REF_LABEL,
         "Elements ops, indices rank != data rank: onnx.reference raises no error.",
         Source("test", "test_differential::test_indices_rank_differs_from_data_rank"),
         families=("elements",), documented=True),
    Fact("nd-int32-indices-accepted", "index-dtype", REF, REF_LABEL,
         "int32 indices on ScatterND: ORT rejects them (type constraint), onnx.reference accepts them.",
         Source("test", "test_differential::test_index_dtypes_for_scatter_nd"),
         families=("nd",), documented=True),
    # -- what upstream issues and spec pages report, each checked by a test of this project
    Fact("onnx-ref-nd-maxmin-tuple", "tracker-onnx-reference", REF, REF_LABEL,
         "ScatterND max/min read the current value with the index row as an array instead of a tuple, so "
         "indices that address single elements raised an error",
         Source("issue", "https://github.com/onnx/onnx/pull/8099", test="test_facts::test_onnx_reference_scatternd_max_min_on_single_elements"),
         families=("nd",),
         status="not reproduced",
         holds_in="holds in onnx 1.21.0 and 1.22.0 (their wheels' source); not in onnx {onnx}, which indexes with "
                  "a tuple on both sides"),
    Fact("onnx-ref-elements-mul-missing", "tracker-onnx-reference", REF, REF_LABEL,
         "ScatterElements had no 'mul' branch, so reduction mul fell through to none",
         Source("issue", "https://github.com/onnx/onnx/pull/7842", test="test_facts::test_onnx_reference_scatterelements_multiplies"),
         families=("elements",),
         status="not reproduced",
         holds_in="holds in onnx 1.21.0 (mul falls through to none); fixed in 1.22.0; onnx {onnx} multiplies"),
    Fact("onnx-ref-elements-rank-above-4", "tracker-onnx-reference", REF, REF_LABEL,
         "ScatterElements was written out per rank and failed for data of rank above 4",
         Source("issue", "https://github.com/onnx/onnx/issues/8299", test="test_facts::test_onnx_reference_scatterelements_above_rank_4"),
         families=("elements",),
         status="not reproduced",
         holds_in="holds in onnx 1.21.0 and 1.22.0 (NotImplementedError above rank 4); not in onnx {onnx}, which "
                  "loops over any rank (checked at ranks 5 and 6, every reduction)"),
    Fact("ov-nd-update-15-example-1-duplicate", "spec-example", OV_BOTH, OV_BOTH_LABEL,
         "give 14 at position 4 of the page's list-style Example 1, which indices 4 and -4 both address (a "
         "duplicate the page does not point out); the page prints 4 (erratum "
         "ov-scatter-nd-update-15-example-1-output)",
         Source("spec", ND15_PAGE, test="test_facts::test_scatter_nd_update_15_example_1_hides_a_duplicate"),
         families=("nd",)),
    Fact("ov-nd-update-15-prod-example", "spec-example", OV_BOTH, OV_BOTH_LABEL,
         "give [500, 2400, 60, 4] for the page's prod XML example, which prints [500, 3600, 40, 4] (erratum "
         "ov-scatter-nd-update-15-xml-example-4-output)",
         Source("spec", ND15_PAGE, test="test_facts::test_scatter_nd_update_15_prod_example"),
         families=("nd",)),
    Fact("ov-nd-update-15-snippet-raises-always", "spec-example", OV_BOTH, OV_BOTH_LABEL,
         "apply f(current value, update) to each addressed cell; the report that the page's NumPy snippet "
         "raises for every reduction does not hold as stated: the erratum records that prod raises a TypeError"
         " but min returns a tuple (erratum ov-scatter-nd-update-15-numpy-snippet)",
         Source("spec", ND15_PAGE, test="test_spec_examples::test_errata_for_op_and_example"),
         families=("nd",),
         status="not reproduced"),
)

FACT_BY_ID: Mapping[str, Fact] = {f.id: f for f in FACTS}

# A report this project could not check from the material it has (kept so that nobody re-adds it as a fact).
UNVERIFIED = {
    "webnn-scatternd-returns-rank": "WebNN's scatterND 'Returns' line is said to give gatherND's rank formula; the "
                                    "WebNN specification text was not available to the project's search tool "
                                    "(only the web-platform tests were), so it could not be verified.",
}


def facts_for(op_name: str) -> tuple[Fact, ...]:
    """The facts an operator version's pages show, in table order."""
    return tuple(f for f in FACTS if op_name in f.operators)


def notes_for(op_name: str, pins: Mapping[str, str] | None = None) -> tuple[RuntimeNote, ...]:
    """``OpSpec.runtime_notes`` for ``op_name``: its facts that hold, as notes with the versions resolved."""
    return tuple(f.note(pins) for f in facts_for(op_name) if f.status == "holds")
