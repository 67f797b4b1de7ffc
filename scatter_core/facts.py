"""The one table of runtime facts: what real runtimes do with scatter operators, beside the spec text.

A :class:`Fact` is one behaviour of one or more runtimes: its words (``text``, read after the runtimes'
label: "OpenVINO 2026.x CPU plugin: computes int64 data in int32 ..."), its :class:`Source` (a passage of
``../shared/semantics.md``, an observation by this project's tests, or another project's tracker), the
topic it concerns, the operator versions (``operators``) or families (``families``) it is about, the
runtimes it holds for, and whether it holds on the pinned runtimes (``status``).

Where each part lives, and why:

* **The table is data here, in scatter_core.** The spec pages (Runtimes tab), the error messages'
  "Observed:" notes (``OpSpec.note_text``), the static findings and the tests read it without any runtime
  installed, and scatter_core may import nothing outside NumPy and the standard library. The operator
  records' ``runtime_notes`` are views of this table (:func:`notes_for`), built once.
* **No version is written in the table.** A fact names runtimes (``"openvino-cpu"``) and its label carries
  placeholders (``"OpenVINO {openvino} CPU plugin"``). :func:`resolve` fills them from pins it is given
  (a pure function); :func:`pinned_versions` reads those pins from the ``runtimes`` extra in
  ``pyproject.toml`` (or the installed package's metadata) with the standard library, importing no
  runtime. ``runtime_check.pins`` re-exports it, so the pins are read in one place.
* **The predicates live in runtime_check.** When a fact applies to a case and a runtime result (an output,
  a refusal, a crash) needs NumPy work on real runtime outputs; ``runtime_check.divergences`` keeps each
  predicate in a ``Divergence`` keyed by fact id (``Divergence.fact``; an observed one by the ids of its
  per-runtime facts, ``Divergence.observed_facts``) and takes its words and source from here. A fact
  without a divergence is shown, not matched.
* **Tracker reports** (``Source.kind == "tracker"``) are facts too, each run on the pinned runtimes by
  ``tests/core/test_facts.py``: ``status`` says whether it holds there, ``holds_in`` in which versions it holds.
  A report that could not be checked at all is listed in :data:`UNVERIFIED`, not in the table.
"""

from __future__ import annotations

import functools
import importlib.metadata
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from .spec import RuntimeNote

# The runtimes a fact can name (runtime_check.RUNTIMES, in the same order) and the distribution whose pin
# gives each one's version.
RUNTIME_NAMES = ("onnxruntime", "onnx.reference", "openvino-onnx", "openvino-cpu", "openvino-reference")
DISTRIBUTIONS = {"onnxruntime": "onnxruntime", "onnx.reference": "onnx", "openvino-onnx": "openvino",
                 "openvino-cpu": "openvino", "openvino-reference": "openvino"}
SOURCE_KINDS = ("semantics.md", "observed", "tracker")
STATUSES = ("holds", "not reproduced")
_PIN = re.compile(r'"?([A-Za-z0-9_.-]+)==([0-9][^";\s]*)')
_PLACEHOLDER = re.compile(r"\{(onnx|onnxruntime|openvino)\}")


@dataclass(frozen=True)
class Source:
    """Where a fact comes from: ``kind`` is "semantics.md" (``where`` names the section; ``quote`` is a literal
    excerpt the tests look up in the file), "observed" (``where`` says which tests, on the pinned runtimes)
    or "tracker" (``where`` is the thread's address; the fact is then checked by a test here)."""

    kind: str
    where: str
    quote: str = ""


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
    status: str = "holds"  # "not reproduced": a report that the pinned runtimes do not bear out
    dtypes: tuple[str, ...] = ()  # the data dtypes it concerns, where its text names them (empty: any)
    rounding: str = ""  # how it rounds an integer mean, where that is the fact (a key of explaining.ROUNDINGS)
    holds_in: str = ""  # tracker facts: the versions the reported behaviour holds in (older ones are named as
    #                     such; the pinned one only as a placeholder) and where it was fixed

    @property
    def documented(self) -> bool:
        """True when ``../shared/semantics.md`` records it."""
        return self.source.kind == "semantics.md"

    def runtimes_label(self, pins: Mapping[str, str] | None = None) -> str:
        return resolve(self.label, pinned_versions() if pins is None else pins)

    def sentence(self, pins: Mapping[str, str] | None = None) -> str:
        """The fact as one sentence: label, colon, text."""
        return f"{self.runtimes_label(pins)}: {self.text}"

    def note(self, pins: Mapping[str, str] | None = None) -> RuntimeNote:
        """The fact as the operator records' ``RuntimeNote`` (versions resolved)."""
        return RuntimeNote(self.topic, self.runtimes_label(pins), self.text, documented=self.documented, fact=self.id,
                           dtypes=self.dtypes)


def pins_in(text: str) -> dict[str, str]:
    """Distribution -> pinned version, from requirement text (``"onnxruntime==1.0.0"`` ...)."""
    return dict(_PIN.findall(text))


@functools.lru_cache(maxsize=1)
def pinned_versions() -> dict[str, str]:
    """Distribution ("onnx", "onnxruntime", "openvino") -> the version pinned in the ``runtimes`` extra."""
    try:
        text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        try:
            text = "\n".join(importlib.metadata.requires("scatter-explorer") or ())
        except importlib.metadata.PackageNotFoundError:
            text = ""
    pins = pins_in(text)
    return {d: pins[d] for d in set(DISTRIBUTIONS.values()) if d in pins}


def resolve(label: str, pins: Mapping[str, str]) -> str:
    """``label`` with each ``{distribution}`` placeholder replaced by its pinned version ("(unpinned)" if none)."""
    return _PLACEHOLDER.sub(lambda m: pins.get(m.group(1), "(unpinned)"), label)


SEMANTICS_MD = "semantics.md"
OBSERVED = Source("observed", "runtime_check's differential tests (tests/runtimes/test_differential*.py) on the pinned "
                              "runtimes, 2026-11-22/23; not in semantics.md")
# the runtimes facts name most often, and how their labels read
ORT, REF, OV_CPU, OV_REF = ("onnxruntime",), ("onnx.reference",), ("openvino-cpu",), ("openvino-reference",)
OV_BOTH, ALL = OV_CPU + OV_REF, RUNTIME_NAMES
ORT_LABEL, REF_LABEL = "onnxruntime {onnxruntime}", "onnx.reference {onnx}"
OV_CPU_LABEL, OV_REF_LABEL = "OpenVINO {openvino} CPU plugin", "OpenVINO {openvino} reference"
# The CPU plugin behind an ONNX model too: OpenVINO's ONNX frontend turns ScatterND into ScatterNDUpdate-15 and
# ScatterElements (and Scatter) into ScatterElementsUpdate-12 and the CPU plugin runs them ("openvino-onnx").
# A CPU-plugin fact names it only where runtime_check's tests saw it hold through the frontend
# (tests/runtimes/test_runtime_openvino_onnx.py); its label still names the plugin, which is what computes.
OV_ONNX = ("openvino-onnx",)
OV_CPU_ANY = OV_CPU + OV_ONNX
OV_ONNX_LABEL = "OpenVINO {openvino} CPU plugin through its ONNX frontend"
FRONTEND_OBSERVED = Source("observed", "tests/runtimes/test_runtime_openvino_onnx.py on the pinned runtimes, 2026-11-28; not "
                                       "in semantics.md")
ONNX_SCATTER_OPS = ("Scatter-9", "ScatterElements-11", "ScatterElements-13", "ScatterElements-16",
                    "ScatterElements-18", "ScatterND-11", "ScatterND-13", "ScatterND-16", "ScatterND-18")
OV_BOTH_LABEL = "OpenVINO {openvino} (CPU plugin and reference)"
ALL_LABEL = "onnxruntime {onnxruntime}, onnx.reference {onnx} and OpenVINO {openvino} (CPU and reference)"

FACTS: tuple[Fact, ...] = (
    Fact("ort-scatter-9-negative-index", "negative-index", ORT, ORT_LABEL,
         "accepts -s..s-1 and normalises negatives",
         Source(SEMANTICS_MD, "semantics.md §2 Per-operator table: Scatter-9",
                quote="ORT accepts [-s,s-1] (negatives normalized), else error"),
         operators=("Scatter-9",)),
    Fact("onnx-ref-no-scatter-kernel", "runnable", REF, REF_LABEL,
         "has no Scatter kernel at opset 9 or 10",
         Source(SEMANTICS_MD, "semantics.md §2 (Scatter-11)",
                quote="onnx.reference has no `Scatter` kernel"),
         operators=("Scatter-9",)),
    Fact("onnx-ref-loop-without-condition", "subgraph", REF, REF_LABEL,
         "runs none of the iterations of a Loop whose condition input is left out, where the spec runs the trip "
         "count M (onnxruntime does); so a scatter node in such a Loop's body would never run. scatter_models "
         "gives such a Loop a constant true condition before onnx.reference runs it, which the spec treats as "
         "the same, and says so in the capture",
         Source("observed", "tests/models/test_models_lift.py on the pinned runtimes, 2026-11-28; not in semantics.md")),
    Fact("last-wins", "duplicates", ALL, ALL_LABEL,
         "with reduction none the last write in row-major loop order wins, even with thousands of duplicates "
         "(OpenVINO CPU runs ScatterUpdate and ScatterND(none) with parallel_for, so with more threads the "
         "order is formally undefined)",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: duplicates with reduction none",
                quote="last iteration in row-major loop order, on every runtime tried"),
         operators=("Scatter-9", "Scatter-11", "ScatterElements-11", "ScatterElements-13",
                    "ScatterElements-16", "ScatterElements-18", "ScatterND-11", "ScatterND-13",
                    "ScatterND-16", "ScatterND-18", "ScatterUpdate-3", "ScatterNDUpdate-3",
                    "ScatterNDUpdate-15", "ScatterElementsUpdate-3", "ScatterElementsUpdate-12")),
    Fact("scatter-11-refused", "deprecated", ORT + REF, "onnx {onnx} checker, onnxruntime {onnxruntime}",
         "refuse Scatter at opset 11 ('deprecated in domain_version of 11'); onnx.reference has no Scatter "
         "kernel. ScatterElements-11 is its runtime stand-in",
         Source(SEMANTICS_MD, "semantics.md §2, after the invalid-inputs table",
                quote="Op registered for Scatter is deprecated in domain_version of 11"),
         operators=("Scatter-11",)),
    Fact("ort-strict-dims", "dims", ORT, ORT_LABEL,
         "requires indices.shape[i] <= data.shape[i] for every i != axis and accepts a longer axis dimension",
         Source(SEMANTICS_MD, "semantics.md §2 Per-operator table: ScatterElements-11/13",
                quote="ORT requires `indices.shape[i] <= data.shape[i]` for i≠axis, **accepts "
                      "indices.shape[axis] > data.shape[axis]**"),
         operators=("ScatterElements-11", "ScatterElements-13", "ScatterElements-16", "ScatterElements-18")),
    Fact("ort-no-reduction-attr", "reduction", ORT, ORT_LABEL,
         "refuses to load a model that sets reduction at this opset ('Unrecognized attribute')",
         Source(SEMANTICS_MD, "semantics.md §2 Invalid inputs: reduction not in that version",
                quote="opset 11/13: load error \"Unrecognized attribute: reduction\""),
         operators=("ScatterElements-11", "ScatterElements-13", "ScatterND-11", "ScatterND-13")),
    Fact("onnx-ref-lax", "shape", REF, REF_LABEL,
         "silently ignores an updates shape that differs from the indices shape",
         Source(SEMANTICS_MD, "semantics.md §2 Invalid inputs",
                quote="**silently ignored**"),
         operators=("ScatterElements-11", "ScatterElements-13", "ScatterElements-16", "ScatterElements-18")),
    Fact("ort-reduction-16", "reduction", ORT, ORT_LABEL,
         "accepts max and min at opset 16 although the text allows only none, add and mul, and silently treats"
         " unknown strings ('sum', 'mean', 'ADD') as none",
         Source(SEMANTICS_MD, "semantics.md §2 Invalid inputs: reduction not in that version; §3 errata 8",
                quote="**opset 16 accepts `max`/`min`**"),
         operators=("ScatterElements-16", "ScatterND-16")),
    Fact("onnx-ref-reduction", "reduction", REF, REF_LABEL,
         "does not validate reduction: it applies add/mul/max/min at any opset",
         Source(SEMANTICS_MD, "semantics.md §2 Invalid inputs: reduction not in that version",
                quote="not validated at all (applies add/mul/max/min even at opset 11/13)"),
         operators=("ScatterElements-16", "ScatterND-16")),
    Fact("ort-f16", "float16", ORT, ORT_LABEL,
         "refuses float16 data with add/mul; onnx.reference rounds to float16 after every step",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: Overflow",
                quote="ORT refuses f16 with add/mul (both ops) and ScatterND f16 with max/min"),
         operators=("ScatterElements-16", "ScatterElements-18", "ScatterND-16", "ScatterND-18")),
    Fact("ort-reduction-18", "reduction", ORT, ORT_LABEL,
         "silently treats unknown reduction strings ('sum', 'mean', 'ADD') as none",
         Source(SEMANTICS_MD, "semantics.md §2 Invalid inputs: reduction not in that version; §3 errata 8",
                quote="**silently behave as none**"),
         operators=("ScatterElements-18", "ScatterND-18")),
    Fact("ort-bool-maxmin", "bool", ORT, ORT_LABEL,
         "refuses bool data with max/min; onnx.reference gives max = OR, min = AND",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: bool",
                quote="ORT **refuses** max/min on bool"),
         operators=("ScatterElements-18", "ScatterND-18")),
    Fact("ov-signed-zero", "signed-zero", ALL, ALL_LABEL,
         "max/min of +0.0 and -0.0 (equal values) keep the cell's current zero on some runtimes and take the "
         "update's on others: onnxruntime takes the update; the OpenVINO CPU plugin keeps the current value; "
         "the OpenVINO reference ScatterElementsUpdate takes the update, its ScatterNDUpdate keeps it; "
         "onnx.reference ScatterElements keeps it, its ScatterND behaves like NumPy (scatter_core: NumPy "
         "maximum/minimum take the update for float32/float64 and keep the current value for float16). Only "
         "the sign of a zero differs, and no spec text decides it",
         OBSERVED,
         operators=("ScatterElements-18", "ScatterND-18", "ScatterNDUpdate-15", "ScatterElementsUpdate-12")),
    Fact("ort-nan", "nan-max-min", ORT, ORT_LABEL,
         "lets a NaN update replace the cell, and the next update replace a NaN cell (also a NaN in data), so "
         "the result depends on the order of the writes",
         OBSERVED,
         operators=("ScatterElements-18", "ScatterND-18")),
    Fact("onnx-ref-nan-elements", "nan-max-min", REF, REF_LABEL,
         "ignores NaN updates (the cell keeps its value) but keeps a NaN that is already in the cell, so the "
         "result depends on where the NaN is",
         OBSERVED,
         operators=("ScatterElements-18",)),
    Fact("onnx-ref-type-t", "dtype-mismatch", REF, REF_LABEL,
         "does not check that data and updates share one type T (onnx's checker, onnxruntime and both specs "
         "do): float32 data with int64 updates runs, the updates cast to data's dtype",
         OBSERVED,
         operators=("ScatterElements-18", "ScatterND-18")),
    Fact("ort-nd-int64", "index-dtype", ORT, ORT_LABEL,
         "rejects int32 indices for ScatterND (type constraint)",
         Source(SEMANTICS_MD, "semantics.md §2 Invalid inputs",
                quote="| int32 indices on ScatterND | rejected (type constraint) |"),
         operators=("ScatterND-11", "ScatterND-13", "ScatterND-16", "ScatterND-18")),
    Fact("onnx-nd-k0", "k-zero", ("onnxruntime", "onnx.reference", "openvino-reference"), "onnxruntime {onnxruntime}, onnx.reference {onnx} and the OpenVINO {openvino} reference",
         "update the whole tensor when indices.shape[-1] == 0 (the OpenVINO CPU plugin does nothing)",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: k == 0",
                quote="ORT, onnx.reference and OV-ref: full replacement (none) / accumulation"),
         operators=("ScatterND-11", "ScatterND-13", "ScatterND-16", "ScatterND-18")),
    Fact("ort-f16-nd-maxmin", "float16", ORT, ORT_LABEL,
         "refuses float16 ScatterND with max/min as well",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: Overflow",
                quote="ORT refuses f16 with add/mul (both ops) and ScatterND f16 with max/min"),
         operators=("ScatterND-18",),
         families=("nd",)),
    Fact("onnx-ref-nan-nd", "nan-max-min", REF, REF_LABEL,
         "keeps the NaN: any NaN that takes part (in data or in an update) makes the cell NaN (NumPy "
         "maximum/minimum)",
         OBSERVED,
         operators=("ScatterND-18",)),
    Fact("ov-scatter-update-negative-rejected", "negative-index", OV_BOTH, OV_BOTH_LABEL,
         "reject negative indices, as the text says",
         Source(SEMANTICS_MD, "semantics.md §2 Per-operator table: ScatterUpdate-3",
                quote="**negative → error** (spec, OV-CPU, OV-ref agree)"),
         operators=("ScatterUpdate-3",)),
    Fact("ov-cpu-scalar-indices", "scalar-indices", OV_CPU, OV_CPU_LABEL,
         "refuses 0-d indices; the reference accepts them",
         Source(SEMANTICS_MD, "semantics.md §2 Per-operator table: ScatterUpdate-3; §4",
                quote="0-D indices allowed (*spec*, OV-ref; OV-CPU refuses)"),
         operators=("ScatterUpdate-3",)),
    Fact("ov-int64", "int64", OV_CPU_ANY, OV_CPU_LABEL,
         "computes int64 data in int32: 2**40 + 3 comes back as 3",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: Overflow",
                quote="**OV-CPU computes int64 data in int32**"),
         operators=("ScatterUpdate-3", "ScatterNDUpdate-3", "ScatterNDUpdate-15",
                    "ScatterElementsUpdate-3", "ScatterElementsUpdate-12", "SliceScatter-15")),
    Fact("ov-parallel-winner", "duplicates-parallel", OV_CPU, OV_CPU_LABEL,
         "splits ScatterND(none) and ScatterUpdate across threads: with 5,000 writes to one cell on 2 cores "
         "the winner was usually the last write (4999) but sometimes the last of the first thread's half "
         "(2499), so the result is not deterministic there",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: duplicates with reduction none",
                quote="OV-CPU runs ScatterUpdate and ScatterND(none) with `parallel_for`, so with more threads the "
                      "order is formally undefined"),
         operators=("ScatterUpdate-3", "ScatterNDUpdate-3", "ScatterNDUpdate-15")),
    Fact("ov-f64", "float64", OV_CPU_ANY, OV_CPU_LABEL,
         "computes float64 data in float32: 0.1 + 1e-10 comes back as 0.10000000149011612",
         OBSERVED,
         operators=("ScatterUpdate-3", "ScatterNDUpdate-3", "ScatterNDUpdate-15",
                    "ScatterElementsUpdate-3", "ScatterElementsUpdate-12", "SliceScatter-15")),
    Fact("ov-cpu-scatter-update-rank1-negative", "negative-index", OV_CPU, OV_CPU_LABEL,
         "with 1-D data does not check a negative index: -1 on a size-4 tensor crashes the process (SIGSEGV; "
         "-2 on size 2: SIGABRT), -4 or -5 write nothing; with data of rank >= 2 it refuses negatives as the "
         "text says",
         OBSERVED,
         operators=("ScatterUpdate-3",)),
    Fact("ov-ref-scatter-update-offsets", "updates-offsets", OV_REF, OV_REF_LABEL,
         "reads updates at wrong offsets for some multi-dimensional indices: indices [[0], [1], [2]], data "
         "zeros((3, 2)), updates arange(1, 7) as (3, 1, 2), axis 0 gives [[1, 2], [2, 3], [3, 4]] instead of "
         "[[1, 2], [3, 4], [5, 6]]; and with a length-1 trailing axis: data (2, 3, 1), indices [0, 1], axis 0 "
         "puts [2, 3, 4] in slice 1 instead of [4, 5, 6]; the CPU plugin follows the text",
         OBSERVED,
         operators=("ScatterUpdate-3",)),
    Fact("ov-ref-scatter-update-scalar-indices", "scalar-indices", OV_REF, OV_REF_LABEL,
         "with 1-D data (so 0-d updates) refuses 0-d indices ('vector::_M_range_check'); with data of rank >= "
         "2 it accepts them",
         OBSERVED,
         operators=("ScatterUpdate-3",)),
    Fact("ov-negative-accepted", "negative-index", OV_BOTH, OV_BOTH_LABEL,
         "accept negative indices in [-s, -1] and normalise them to s + index",
         Source(SEMANTICS_MD, "semantics.md §2 Per-operator table; §3 errata 5",
                quote="runtimes accept and normalize it"),
         operators=("ScatterNDUpdate-3", "ScatterElementsUpdate-3")),
    Fact("ov-nd-k0", "k-zero", OV_CPU_ANY, OV_CPU_LABEL,
         "does nothing when indices.shape[-1] == 0 (it returns early because indices has no elements); "
         "onnxruntime, onnx.reference and the OpenVINO reference update the whole tensor",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: k == 0",
                quote="**OV-CPU: silent no-op**"),
         operators=("ScatterNDUpdate-3", "ScatterNDUpdate-15")),
    Fact("ov-nd-scalar", "scalar-updates", OV_CPU, OV_CPU_LABEL,
         "refuses a one-element updates tensor in place of a 0-d one; the reference accepts it",
         Source(SEMANTICS_MD, "semantics.md §2 Per-operator table: ScatterNDUpdate-3; §4",
                quote="\"0-D updates may be a 1-element tensor\" (*spec*; OV-ref OK, OV-CPU refuses)"),
         operators=("ScatterNDUpdate-3", "ScatterNDUpdate-15")),
    Fact("ov-ref-no-kernel-nd", "reference-kernels", OV_REF, OV_REF_LABEL,
         "has no kernel for int8, int16, uint8, uint16 or float64 data, whatever the reduction (Node.evaluate "
         "returns False)",
         OBSERVED,
         operators=("ScatterNDUpdate-3", "ScatterNDUpdate-15")),
    Fact("ov-reduction-case", "reduction", OV_BOTH, OV_BOTH_LABEL,
         "accept reduction names in any case ('SUM', 'Mean') and reject unknown names",
         Source(SEMANTICS_MD, "semantics.md §2 Invalid inputs: reduction not in that version",
                quote="**case-insensitive** (`SUM`, `Sum`, `MEAN`, `NONE` accepted)"),
         operators=("ScatterNDUpdate-15", "ScatterElementsUpdate-12")),
    Fact("ov-f16", "float16", OV_BOTH + OV_ONNX, OV_BOTH_LABEL,
         "accumulate float16 sums in wider precision (2048 + 1 + 1 = 2050)",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: Overflow",
                quote="OV accumulates f16 sums in wider precision (2048+1+1 = 2050, CPU and ref)"),
         operators=("ScatterNDUpdate-15", "ScatterElementsUpdate-12")),
    Fact("ov-bool-nd", "bool", OV_BOTH, OV_BOTH_LABEL,
         "sum = OR, prod = AND, min = AND, max = OR, sub = XOR on bool",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: bool",
                quote="OV (CPU=ref): sum=OR, prod=AND, min=AND, max=OR, sub=XOR"),
         operators=("ScatterNDUpdate-15",)),
    Fact("ov-bool-as-uint8", "bool", OV_CPU_ANY, OV_CPU_LABEL,
         "adds and subtracts bool tensors as uint8 and converts to bool at the end, so with several updates to"
         " one cell False - True - True gives True (XOR would give False) and 256 x True gives False (OR would"
         " give True); the reference gives OR / XOR",
         OBSERVED,
         operators=("ScatterNDUpdate-15", "ScatterElementsUpdate-12")),
    Fact("ov-cpu-nan", "nan-max-min", OV_CPU_ANY, OV_CPU_LABEL,
         "ignores NaN updates (the cell keeps its value) but keeps a NaN that is already in the cell, so the "
         "result depends on where the NaN is",
         OBSERVED,
         operators=("ScatterNDUpdate-15", "ScatterElementsUpdate-12")),
    Fact("ov-ref-nan-nd", "nan-max-min", OV_REF, OV_REF_LABEL,
         "ignores NaN updates (the cell keeps its value) but keeps a NaN that is already in the cell, so the "
         "result depends on where the NaN is",
         OBSERVED,
         operators=("ScatterNDUpdate-15",)),
    Fact("ov-range-low", "index-range", OV_CPU_ANY, OV_CPU_LABEL,
         "has no lower-bound check for the Elements ops: an index below -s crashes the process",
         Source(SEMANTICS_MD, "semantics.md §2 Invalid inputs",
                quote="Elements ops (v3/v12): **segfault** (no lower-bound check)"),
         operators=("ScatterElementsUpdate-3", "ScatterElementsUpdate-12")),
    Fact("ov-alias-dims", "dims", OV_BOTH + OV_ONNX, OV_BOTH_LABEL,
         "accept an indices dimension larger than data's on a non-axis dimension; the writes alias into the "
         "next row (e.g. (0, 3) lands on (1, 0))",
         Source(SEMANTICS_MD, "semantics.md §2 Invalid inputs",
                quote="**accepted, writes alias into the next row** (e.g. (0,3)→(1,0))"),
         operators=("ScatterElementsUpdate-3", "ScatterElementsUpdate-12")),
    Fact("ov-axis-dim", "axis-dim", OV_BOTH, OV_BOTH_LABEL,
         "accept an indices axis dimension larger than data's",
         Source(SEMANTICS_MD, "semantics.md §2 Per-operator table: ScatterElementsUpdate-3",
                quote="(runtimes accept axis dim larger)"),
         operators=("ScatterElementsUpdate-3",)),
    Fact("ov-range-low-silent", "index-range-silent", OV_CPU_ANY, OV_CPU_LABEL,
         "an index only a little below -s does not always crash: the write lands outside the output buffer and"
         " the call returns (same missing lower-bound check; the result is undefined)",
         OBSERVED,
         operators=("ScatterElementsUpdate-3", "ScatterElementsUpdate-12")),
    Fact("ov-ref-no-kernel-elements", "reference-kernels", OV_REF, OV_REF_LABEL,
         "has no kernel for int8, uint8, uint16 or float64 data, whatever the reduction (Node.evaluate returns"
         " False); semantics.md names only int8/uint8 mean",
         OBSERVED,
         operators=("ScatterElementsUpdate-3", "ScatterElementsUpdate-12")),
    Fact("ov-cpu-integer-mean", "integer-mean", OV_CPU, OV_CPU_LABEL,
         "divides an integer sum and truncates toward zero (static_cast of a double); the reference floors as "
         "the text says: data 0, update -3 gives -1 on CPU, -2 in the reference",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: mean",
                quote="**OV-ref floors; OV-CPU truncates toward zero**"),
         operators=("ScatterElementsUpdate-12",), rounding="toward zero"),
    Fact("ov-ref-mean-i8", "integer-mean", OV_REF, OV_REF_LABEL,
         "has no int8/uint8 mean kernel",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: mean",
                quote="i8/u8: OV-ref has no kernel (`evaluate` returns False)"),
         operators=("ScatterElementsUpdate-12",), dtypes=("int8", "uint8")),
    Fact("ov-bool-mean-refused", "bool", OV_BOTH, OV_BOTH_LABEL,
         "refuse bool data with mean at node construction",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: mean",
                quote="Bool + mean: rejected at node construction"),
         operators=("ScatterElementsUpdate-12",)),
    Fact("ov-init-flt-max", "use-init-val-infinity", OV_BOTH, OV_BOTH_LABEL,
         "with use_init_val=false a max cell whose updates are all -inf comes out as -FLT_MAX "
         "(-3.4028235e+38), and a min cell whose updates are all +inf as +FLT_MAX: the cell starts from the "
         "lowest (highest) finite value instead of -inf (+inf). scatter_core gives -inf (+inf), as PyTorch is "
         "reported to, which fits the text ('data elements are not used')",
         Source(SEMANTICS_MD, "semantics.md §6 More observations: use_init_val=false with max/min and infinite "
                              "updates",
                quote="OpenVINO (reference and CPU) returns −FLT_MAX (about −3.4e38) for a `max` cell whose updates "
                      "are all −inf, and +FLT_MAX for `min` with all +inf."),
         operators=("ScatterElementsUpdate-12",)),
    Fact("ov-ref-nan-elements", "nan-max-min", OV_REF, OV_REF_LABEL,
         "lets a NaN update replace the cell, and the next update replace a NaN cell (also a NaN in data), so "
         "the result depends on the order of the writes",
         Source(SEMANTICS_MD, "semantics.md §6 More observations: NaN in max/min",
                quote="A NaN update or data value survives on OpenVINO's reference and in PyTorch"),
         operators=("ScatterElementsUpdate-12",)),
    Fact("ov-cpu-uint64", "uint64", OV_CPU_ANY, OV_CPU_LABEL,
         "narrows uint64 data to 32 bits: data [2**40 + 5, 1], update 2**33 at 0 gives [0, 1] (the reference: "
         "[2**33, 1])",
         OBSERVED,
         operators=("ScatterElementsUpdate-12",)),
    Fact("ov-cpu-mean-int16", "integer-mean-int16", OV_CPU, OV_CPU_LABEL,
         "does not wrap the int16 sum before dividing for mean: data 32767, update 32767 gives 32767 (the "
         "reference and scatter_core wrap the sum: -1)",
         OBSERVED,
         operators=("ScatterElementsUpdate-12",)),
    Fact("ts-ort-negative-write-index", "negative-index", ORT, ORT_LABEL,
         "refuses a negative write index in both modes ('write_indices[0] = -1 is negative'); onnx.reference "
         "counts it from the end, as Python indexing does",
         OBSERVED,
         operators=("TensorScatter-24",)),
    Fact("ts-ref-index-range", "index-range", REF, REF_LABEL,
         "refuses a linear write past the end only through NumPy's IndexError, and does not check w + "
         "sequence_length <= max_sequence_length when sequence_length is 0 (onnxruntime does)",
         OBSERVED,
         operators=("TensorScatter-24",)),
    Fact("ts-ref-write-indices-shape", "shape", REF, REF_LABEL,
         "does not check the shape of write_indices: (3,) or (2, 1) for a batch of 2 run (onnxruntime refuses "
         "them at shape inference)",
         OBSERVED,
         operators=("TensorScatter-24",)),
    Fact("ts-ref-int32-write-indices", "index-dtype", REF, REF_LABEL,
         "accepts int32 write_indices; onnxruntime refuses them (type constraint tensor(int64))",
         OBSERVED,
         operators=("TensorScatter-24",)),
    Fact("ov-onnx-frontend-no-tensor-scatter", "runnable", OV_ONNX, "OpenVINO {openvino} ONNX frontend",
         "has no conversion rule for TensorScatter-24, so an ONNX model holding it does not load",
         Source("observed", "tests/models/test_models_runtimes.py on the pinned runtimes, 2026-11-25; not in "
                            "semantics.md"),
         operators=("TensorScatter-24",)),
    Fact("ov-onnx-frontend-kernels", "frontend", OV_ONNX, OV_ONNX_LABEL,
         "runs ScatterND as ScatterNDUpdate-15 and ScatterElements and Scatter-9 as ScatterElementsUpdate-12 "
         "(reductions add, mul, max, min as sum, prod, max, min), so the CPU plugin's own behaviour holds for an "
         "ONNX model too: int64 and uint64 data computed in 32 bits, float64 in float32, float16 sums accumulated "
         "in wider precision (2048 + 1 + 1 = 2050), bool add counted in uint8, nothing written when "
         "indices.shape[-1] == 0, NaN updates ignored by max and min, and an Elements index below -s crashes the "
         "process",
         FRONTEND_OBSERVED,
         operators=ONNX_SCATTER_OPS),
    Fact("ov-onnx-frontend-reduction", "reduction", OV_ONNX, "OpenVINO {openvino} ONNX frontend",
         "does not check reduction against the opset where the OpenVINO op has it: ScatterElements runs add and "
         "mul at opset 11 and 13, and ScatterElements and ScatterND run max and min at 16, as at 18 (onnxruntime "
         "refuses a reduction at 11 and 13); ScatterND at 11 and 13 refuses any reduction but none when the model "
         "is read, and so does an unknown name ('sum') at any opset",
         FRONTEND_OBSERVED,
         operators=("ScatterElements-11", "ScatterElements-13", "ScatterElements-16", "ScatterND-16")),
    Fact("ov-onnx-frontend-nd-int32-indices", "index-dtype", OV_ONNX, "OpenVINO {openvino} ONNX frontend",
         "accepts int32 indices for ScatterND (onnxruntime refuses them: type constraint)",
         FRONTEND_OBSERVED,
         operators=("ScatterND-11", "ScatterND-13", "ScatterND-16", "ScatterND-18")),
    Fact("ts-circular-agree", "circular", ORT + REF, "onnxruntime {onnxruntime} and onnx.reference {onnx}",
         "agree on circular mode, including write indices of several times max_sequence_length",
         Source(SEMANTICS_MD, "semantics.md §5 TensorScatter-24",
                quote="they agree on a circular test"),
         operators=("TensorScatter-24",)),
    Fact("ov-slice-scatter-slicing", "slicing", OV_CPU, OV_CPU_LABEL,
         "agrees with Python's slicing on random cases with negative and clamped bounds and negative steps",
         Source("observed", "tests/runtimes/test_differential_newops.py on the pinned runtimes, 2026-11-23; not in "
                            "semantics.md"),
         operators=("SliceScatter-15",)),
    Fact("ov-slice-negative-step-start", "negative-step-start", OV_BOTH, OV_BOTH_LABEL,
         "with a negative step read a start below -size as the first element: start -8, stop -8, step -1 on an"
         " axis of size 3 selects element 0 where Python's slicing (which Slice-8's text follows, and Scatter "
         "Explorer too) selects nothing; OpenVINO's Slice-8 does the same, and its shape inference then wants "
         "updates of that shape",
         OBSERVED,
         operators=("SliceScatter-15",)),
    Fact("ov-ref-slice-scatter-no-kernel", "reference-kernels", OV_REF, OV_REF_LABEL,
         "cannot run SliceScatter: Node.evaluate returns False for every element type and constant folding "
         "leaves the node in place (the wheel wires the reference kernel only into the TEMPLATE plugin, which "
         "it does not ship)",
         OBSERVED,
         operators=("SliceScatter-15",)),
    Fact("duplicates-parallel-order", "duplicates", OV_CPU_ANY, OV_CPU_LABEL,
         "Duplicates with reduction none: OV-CPU runs ScatterUpdate and ScatterND(none) with parallel_for, so "
         "with more threads the order is formally undefined; a cell written more than once may keep any of its"
         " writes, not only the last in row-major order.",
         Source(SEMANTICS_MD, "semantics.md §2 Reductions, exact results: duplicates with reduction none",
                quote="so with more threads the order is formally undefined"),
         families=("nd", "update")),
    Fact("indices-rank-not-validated", "shape", REF, REF_LABEL,
         "Elements ops, indices rank != data rank: onnx.reference raises no error.",
         Source(SEMANTICS_MD, "semantics.md §2 Invalid inputs",
                quote="| indices rank ≠ data rank (Elements) | error | no error |"),
         families=("elements",)),
    Fact("nd-int32-indices-accepted", "index-dtype", REF, REF_LABEL,
         "int32 indices on ScatterND: ORT rejects them (type constraint), onnx.reference accepts them.",
         Source(SEMANTICS_MD, "semantics.md §2 Invalid inputs",
                quote="| int32 indices on ScatterND | rejected (type constraint) | accepted |"),
         families=("nd",)),
    # -- what other projects' trackers report, each checked by tests/core/test_facts.py on the pinned runtimes
    Fact("onnx-ref-nd-maxmin-tuple", "tracker-onnx-reference", REF, REF_LABEL,
         "ScatterND max/min read the current value with the index row as an array instead of a tuple, so "
         "indices that address single elements raised an error",
         Source("tracker", "https://github.com/onnx/onnx/pull/8099 (fixes https://github.com/onnx/onnx/issues/8096)"),
         families=("nd",),
         status="not reproduced",
         holds_in="holds in onnx 1.21.0 and 1.22.0 (their wheels' source); not in onnx {onnx}, which indexes with "
                  "a tuple on both sides"),
    Fact("onnx-ref-elements-mul-missing", "tracker-onnx-reference", REF, REF_LABEL,
         "ScatterElements had no 'mul' branch, so reduction mul fell through to none",
         Source("tracker", "https://github.com/onnx/onnx/pull/7842"),
         families=("elements",),
         status="not reproduced",
         holds_in="holds in onnx 1.21.0 (mul falls through to none); fixed in 1.22.0; onnx {onnx} multiplies"),
    Fact("onnx-ref-elements-rank-above-4", "tracker-onnx-reference", REF, REF_LABEL,
         "ScatterElements was written out per rank and failed for data of rank above 4",
         Source("tracker", "onnx/onnx#8299 (the thread could not be found with the project's search tool)"),
         families=("elements",),
         status="not reproduced",
         holds_in="holds in onnx 1.21.0 and 1.22.0 (NotImplementedError above rank 4); not in onnx {onnx}, which "
                  "loops over any rank (checked at ranks 5 and 6, every reduction)"),
    Fact("ov-nd-update-15-example-1-duplicate", "spec-example", OV_BOTH, OV_BOTH_LABEL,
         "give 14 at position 4 of the page's list-style Example 1, which indices 4 and -4 both address (a "
         "duplicate the page does not point out); the page prints 4 (erratum "
         "ov-scatter-nd-update-15-example-1-output)",
         Source("tracker", "issue 25 (a review's report); spec_examples/data/errata.json"),
         families=("nd",)),
    Fact("ov-nd-update-15-prod-example", "spec-example", OV_BOTH, OV_BOTH_LABEL,
         "give [500, 2400, 60, 4] for the page's prod XML example, which prints [500, 3600, 40, 4] (erratum "
         "ov-scatter-nd-update-15-xml-example-4-output)",
         Source("tracker", "issue 25 (a review's report); spec_examples/data/errata.json"),
         families=("nd",)),
    Fact("ov-nd-update-15-snippet-raises-always", "spec-example", OV_BOTH, OV_BOTH_LABEL,
         "apply f(current value, update) to each addressed cell; the report that the page's NumPy snippet "
         "raises for every reduction does not hold as stated: the erratum records that prod raises a TypeError"
         " but min returns a tuple (erratum ov-scatter-nd-update-15-numpy-snippet)",
         Source("tracker", "issue 25 (a review's report); spec_examples/data/errata.json"),
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
