"""The operator registry: one record per operator version, as data.

Adding a version means adding one :class:`OpSpec` here (and one example file in
``spec_examples/``). Kernels, pages and figures read these records; none of them
branch on an operator's name.

Runtime observations come from ``../shared/semantics.md`` (onnx 1.23.2,
onnxruntime 1.31.1, OpenVINO 2026.4.1, observed 2026-11-22).
"""

from __future__ import annotations

from types import MappingProxyType

from .errors import ScatterError
from .spec import ANY_INT, AttrSpec, IndexRule, InputSpec, OpSpec, RuntimeNote

ORT = "onnxruntime 1.31.1"
ONNX_REF = "onnx.reference 1.23.2"
OV_CPU = "OpenVINO 2026.4.1 CPU plugin"
OV_REF = "OpenVINO 2026.4.1 reference"
OV_BOTH = "OpenVINO 2026.4.1 (CPU plugin and reference)"
ALL_RUNTIMES = "onnxruntime 1.31.1, onnx.reference 1.23.2 and OpenVINO 2026.4.1 (CPU and reference)"

ONNX_DOCS = "https://onnx.ai/onnx/operators/onnx__{op}.html#l-onnx-op-{anchor}-{v}"
OV_DOCS = ("https://docs.openvino.ai/2025/documentation/openvino-ir-format/"
           "operation-sets/operation-specs/movement/{page}.html")

ONNX_TYPES = ("any tensor type: bool, integers, float16/float/double, string, complex "
              "(Scatter Explorer covers bool, integer and float tensors)")
ONNX_TYPES_BF16 = ONNX_TYPES.replace("float16/", "bfloat16/float16/")
OV_TYPES = "any supported element type (Scatter Explorer covers bool, integer and float tensors)"

# -- shared pieces of text and notes ---------------------------------------
ONNX_AXIS = AttrSpec("axis", "int", default=0,
                     doc="the axis indices address; negative counts from the back, range [-r, r-1]")
OV_AXIS = AttrSpec("axis", "int", default=None, required=True, is_input=True,
                   doc="4th input: a scalar or one-element tensor; negative counts from the back, range [-r, r-1]")


def _reduction_attr(spellings: tuple[str, ...], default: str = "none") -> AttrSpec:
    return AttrSpec("reduction", "str", default=default,
                    doc="one of " + ", ".join(spellings))


LAST_WINS = RuntimeNote(
    "duplicates", ALL_RUNTIMES,
    "with reduction none the last write in row-major loop order wins, even with thousands of "
    "duplicates (OpenVINO CPU runs ScatterUpdate and ScatterND(none) with parallel_for, so with "
    "more threads the order is formally undefined)")
ORT_STRICT_DIMS = RuntimeNote(
    "dims", ORT,
    "requires indices.shape[i] <= data.shape[i] for every i != axis and accepts a longer axis dimension")
ORT_ND_INT64 = RuntimeNote("index-dtype", ORT, "rejects int32 indices for ScatterND (type constraint)")
ORT_REDUCTION_16 = RuntimeNote(
    "reduction", ORT,
    "accepts max and min at opset 16 although the text allows only none, add and mul, and silently "
    "treats unknown strings ('sum', 'mean', 'ADD') as none")
ORT_REDUCTION_18 = RuntimeNote(
    "reduction", ORT, "silently treats unknown reduction strings ('sum', 'mean', 'ADD') as none")
ORT_NO_REDUCTION_ATTR = RuntimeNote(
    "reduction", ORT, "refuses to load a model that sets reduction at this opset ('Unrecognized attribute')")
ONNX_REF_REDUCTION = RuntimeNote(
    "reduction", ONNX_REF, "does not validate reduction: it applies add/mul/max/min at any opset")
ORT_BOOL_MAXMIN = RuntimeNote(
    "bool", ORT, "refuses bool data with max/min; onnx.reference gives max = OR, min = AND")
ORT_F16 = RuntimeNote(
    "float16", ORT, "refuses float16 data with add/mul; onnx.reference rounds to float16 after every step")
ONNX_REF_LAX = RuntimeNote(
    "shape", ONNX_REF, "silently ignores an updates shape that differs from the indices shape")
OV_RANGE_LOW = RuntimeNote(
    "index-range", OV_CPU, "has no lower-bound check for the Elements ops: an index below -s crashes the process")
OV_NEGATIVE_ACCEPTED = RuntimeNote(
    "negative-index", OV_BOTH, "accept negative indices in [-s, -1] and normalise them to s + index")
OV_INT64 = RuntimeNote(
    "int64", OV_CPU, "computes int64 data in int32: 2**40 + 3 comes back as 3")
OV_REDUCTION_CASE = RuntimeNote(
    "reduction", OV_BOTH, "accept reduction names in any case ('SUM', 'Mean') and reject unknown names")
OV_ALIAS_DIMS = RuntimeNote(
    "dims", OV_BOTH,
    "accept an indices dimension larger than data's on a non-axis dimension; the writes alias into the "
    "next row (e.g. (0, 3) lands on (1, 0))")
OV_F16 = RuntimeNote(
    "float16", OV_BOTH, "accumulate float16 sums in wider precision (2048 + 1 + 1 = 2050)")
OV_ND_K0 = RuntimeNote(
    "k-zero", OV_CPU,
    "does nothing when indices.shape[-1] == 0 (it returns early because indices has no elements); "
    "onnxruntime, onnx.reference and the OpenVINO reference update the whole tensor")
ONNX_ND_K0 = RuntimeNote(
    "k-zero", ALL_RUNTIMES.replace("OpenVINO 2026.4.1 (CPU and reference)", "the OpenVINO 2026.4.1 reference"),
    "update the whole tensor when indices.shape[-1] == 0 (the OpenVINO CPU plugin does nothing)")
OV_ND_SCALAR = RuntimeNote(
    "scalar-updates", OV_CPU, "refuses a one-element updates tensor in place of a 0-d one; the reference accepts it")

# Observed by runtime_check's differential tests on the same pinned runtimes, but not in
# ../shared/semantics.md (documented=False): the pages flag them as new.
# The data dtypes OpenVINO's reference implementation has no kernel for (Node.evaluate returns False),
# by operator: runtime_check's divergence reads the record's extra["openvino_reference_no_kernel"].
OV_REF_NO_KERNEL_ELEMENTS_DTYPES = ("int8", "uint8", "uint16", "float64")
OV_REF_NO_KERNEL_ND_DTYPES = ("int8", "int16", "uint8", "uint16", "float64")


def _no_kernel_note(dtypes: tuple[str, ...], extra: str = "") -> RuntimeNote:
    return RuntimeNote(
        "reference-kernels", OV_REF,
        f"has no kernel for {', '.join(dtypes[:-1])} or {dtypes[-1]} data, whatever the reduction (Node.evaluate "
        f"returns False){extra}", documented=False)


OV_REF_NO_KERNEL_ELEMENTS = _no_kernel_note(OV_REF_NO_KERNEL_ELEMENTS_DTYPES, "; semantics.md names only int8/uint8 mean")
OV_REF_NO_KERNEL_ND = _no_kernel_note(OV_REF_NO_KERNEL_ND_DTYPES)
OV_F64 = RuntimeNote(
    "float64", OV_CPU, "computes float64 data in float32: 0.1 + 1e-10 comes back as 0.10000000149011612",
    documented=False)
OV_SIGNED_ZERO = RuntimeNote(
    "signed-zero", ALL_RUNTIMES,
    "max/min of +0.0 and -0.0 (equal values) keep the cell's current zero on some runtimes and take the "
    "update's on others: onnxruntime takes the update; the OpenVINO CPU plugin keeps the current value; the "
    "OpenVINO reference ScatterElementsUpdate takes the update, its ScatterNDUpdate keeps it; onnx.reference "
    "ScatterElements keeps it, its ScatterND behaves like NumPy (scatter_core: NumPy maximum/minimum take the "
    "update for float32/float64 and keep the current value for float16). Only the sign of a zero differs, and "
    "no spec text decides it", documented=False)
OV_RANGE_LOW_SILENT = RuntimeNote(
    "index-range-silent", OV_CPU,
    "an index only a little below -s does not always crash: the write lands outside the output buffer and the "
    "call returns (same missing lower-bound check; the result is undefined)", documented=False)
OV_BOOL_AS_UINT8 = RuntimeNote(
    "bool", OV_CPU,
    "adds and subtracts bool tensors as uint8 and converts to bool at the end, so with several updates to one "
    "cell False - True - True gives True (XOR would give False) and 256 x True gives False (OR would give "
    "True); the reference gives OR / XOR", documented=False)

# Observed 2026-11-23 by tests/test_differential.py (test_flt_max_*, test_nan_in_max_min_*) on the same runtimes.
OV_INIT_FLT_MAX = RuntimeNote(
    "use-init-val-infinity", OV_BOTH,
    "with use_init_val=false a max cell whose updates are all -inf comes out as -FLT_MAX (-3.4028235e+38), "
    "and a min cell whose updates are all +inf as +FLT_MAX: the cell starts from the lowest (highest) finite "
    "value instead of -inf (+inf). scatter_core gives -inf (+inf), as PyTorch is reported to, which fits the "
    "text ('data elements are not used')", documented=False)
NAN_KEEPS = "keeps the NaN: any NaN that takes part (in data or in an update) makes the cell NaN"
NAN_DROPS = ("ignores NaN updates (the cell keeps its value) but keeps a NaN that is already in the cell, so the "
             "result depends on where the NaN is")
NAN_REPLACES = ("lets a NaN update replace the cell, and the next update replace a NaN cell (also a NaN in data), "
                "so the result depends on the order of the writes")
ORT_NAN = RuntimeNote("nan-max-min", ORT, NAN_REPLACES, documented=False)
ONNX_REF_NAN_ELEMENTS = RuntimeNote("nan-max-min", ONNX_REF, NAN_DROPS, documented=False)
ONNX_REF_NAN_ND = RuntimeNote("nan-max-min", ONNX_REF, NAN_KEEPS + " (NumPy maximum/minimum)", documented=False)
OV_CPU_NAN = RuntimeNote("nan-max-min", OV_CPU, NAN_DROPS, documented=False)
OV_REF_NAN_ELEMENTS = RuntimeNote("nan-max-min", OV_REF, NAN_REPLACES, documented=False)
OV_REF_NAN_ND = RuntimeNote("nan-max-min", OV_REF, NAN_DROPS, documented=False)
ONNX_REF_TYPE_T = RuntimeNote(
    "dtype-mismatch", ONNX_REF,
    "does not check that data and updates share one type T (onnx's checker, onnxruntime and both specs do): "
    "float32 data with int64 updates runs, the updates cast to data's dtype", documented=False)

OV_PARALLEL_WINNER = RuntimeNote(
    "duplicates-parallel", OV_CPU,
    "splits ScatterND(none) and ScatterUpdate across threads: with 5,000 writes to one cell on 2 cores the "
    "winner was usually the last write (4999) but sometimes the last of the first thread's half (2499), so "
    "the result is not deterministic there", documented=False)

ELEMENTS_LOOP = "one iteration per element of updates (= per element of indices), row-major"
ND_LOOP = "one iteration per k-tuple of indices (over indices.shape[:-1]), row-major"

ONNX_ELEMENTS_SHAPES = (
    "rank(indices) == rank(data) == rank(updates) >= 1",
    "updates.shape == indices.shape",
    "indices.shape[i] <= data.shape[i] for every i != axis (otherwise a target falls outside data)",
)
ND_SHAPES = (
    "rank(data) = r >= 1, rank(indices) = q >= 1",
    "k = indices.shape[-1] <= r",
    "updates.shape == indices.shape[:-1] + data.shape[k:]",
)
ONNX_ELEMENTS_INDEX = IndexRule(
    "allowed", ("int32", "int64"), "every index v along axis of size s: -s <= v <= s-1; v < 0 means v + s")
ONNX_ND_INDEX = IndexRule(
    "allowed", ("int64",),
    "coordinate j of every k-tuple: -data.shape[j] <= v <= data.shape[j]-1; v < 0 means v + data.shape[j]")
ELEMENTS_FORMULA = "output[i₀…i_axis…] = f(output[…, norm(indices[i]), …], updates[i])  (the axis coordinate comes from indices)"
ND_FORMULA = "output[tuple(norm(indices[idx]))] = f(output[…], updates[idx])  for idx over indices.shape[:-1]"
NONE_ONLY = (("none", "none"),)
ONNX_16 = (("none", "none"), ("add", "sum"), ("mul", "prod"))
ONNX_18 = ONNX_16 + (("max", "max"), ("min", "min"))
ONNX_16_ATTR = _reduction_attr(tuple(spelling for spelling, _ in ONNX_16))
ONNX_18_ATTR = _reduction_attr(tuple(spelling for spelling, _ in ONNX_18))
NO_DUPLICATES_WITH_NONE_16 = ("With reduction none, indices must not contain duplicates; with add/mul "
                              "duplicates are combined.")
NO_DUPLICATES_WITH_NONE_18 = ("With reduction none, indices must not contain duplicates; with a reduction "
                              "duplicates are combined.")

OPERATORS_LIST: tuple[OpSpec, ...] = (
    # ------------------------------------------------------------------ ONNX Scatter
    OpSpec(
        name="Scatter-9", op_type="Scatter", version=9, framework="ONNX", family="elements",
        url=ONNX_DOCS.format(op="Scatter", anchor="scatter", v=9),
        summary="Copies data and writes each update along one axis at the position its index gives; "
                "the other coordinates are the update's own.",
        formula=ELEMENTS_FORMULA, loop=ELEMENTS_LOOP,
        attributes=(ONNX_AXIS,), reductions=NONE_ONLY,
        index_rule=IndexRule("unstated", ("int32", "int64"),
                             "the text gives no index range; Scatter Explorer applies Scatter-11's "
                             "-s <= v <= s-1 with v < 0 meaning v + s, as onnxruntime does"),
        shape_rules=ONNX_ELEMENTS_SHAPES,
        duplicates_forbidden_with=(), duplicate_policy="The text says nothing about duplicate indices.",
        data_types=ONNX_TYPES,
        changes=("First version of a scatter operator in ONNX.",),
        runtime_notes=(RuntimeNote("negative-index", ORT, "accepts -s..s-1 and normalises negatives"),
                       RuntimeNote("runnable", ONNX_REF, "has no Scatter kernel at opset 9 or 10"),
                       LAST_WINS),
        runnable_on=("onnxruntime",),
    ),
    OpSpec(
        name="Scatter-11", op_type="Scatter", version=11, framework="ONNX", family="elements",
        url=ONNX_DOCS.format(op="Scatter", anchor="scatter", v=11),
        summary="Deprecated alias of ScatterElements-11 with the same behaviour.",
        formula=ELEMENTS_FORMULA, loop=ELEMENTS_LOOP,
        attributes=(ONNX_AXIS,), reductions=NONE_ONLY,
        index_rule=ONNX_ELEMENTS_INDEX, shape_rules=ONNX_ELEMENTS_SHAPES,
        duplicates_forbidden_with=(), duplicate_policy="The text says nothing about duplicate indices.",
        data_types=ONNX_TYPES,
        changes=("Deprecated in favour of ScatterElements-11, which behaves identically.",
                 "Index range stated: -s..s-1, out of range is an error; negative indices count from the end.",
                 "The text now writes into output (a copy of data) rather than into data."),
        previous="Scatter-9", deprecated="ScatterElements-11",
        runtime_notes=(RuntimeNote("deprecated", "onnx 1.23.2 checker, onnxruntime 1.31.1",
                                   "refuse Scatter at opset 11 ('deprecated in domain_version of 11'); "
                                   "onnx.reference has no Scatter kernel. ScatterElements-11 is its runtime stand-in"),
                       LAST_WINS),
        runnable_on=(),
        extra=MappingProxyType({"runtime_stand_in": "ScatterElements-11"}),
    ),
    # ------------------------------------------------------------------ ONNX ScatterElements
    OpSpec(
        name="ScatterElements-11", op_type="ScatterElements", version=11, framework="ONNX", family="elements",
        url=ONNX_DOCS.format(op="ScatterElements", anchor="scatterelements", v=11),
        summary="Copies data and writes each update along one axis at the position its index gives; "
                "the other coordinates are the update's own. The inverse of GatherElements.",
        formula=ELEMENTS_FORMULA, loop=ELEMENTS_LOOP,
        attributes=(ONNX_AXIS,), reductions=NONE_ONLY,
        index_rule=ONNX_ELEMENTS_INDEX, shape_rules=ONNX_ELEMENTS_SHAPES,
        duplicates_forbidden_with=(), duplicate_policy="The text says nothing about duplicate indices.",
        data_types=ONNX_TYPES,
        changes=("New name for Scatter (Scatter-11 is deprecated in its favour); same behaviour.",),
        previous="Scatter-9",
        runtime_notes=(ORT_STRICT_DIMS, ORT_NO_REDUCTION_ATTR, ONNX_REF_LAX, LAST_WINS),
        runnable_on=("onnxruntime", "onnx.reference"),
    ),
    OpSpec(
        name="ScatterElements-13", op_type="ScatterElements", version=13, framework="ONNX", family="elements",
        url=ONNX_DOCS.format(op="ScatterElements", anchor="scatterelements", v=13),
        summary="As ScatterElements-11; bfloat16 joins the allowed types.",
        formula=ELEMENTS_FORMULA, loop=ELEMENTS_LOOP,
        attributes=(ONNX_AXIS,), reductions=NONE_ONLY,
        index_rule=ONNX_ELEMENTS_INDEX, shape_rules=ONNX_ELEMENTS_SHAPES,
        duplicates_forbidden_with=(), duplicate_policy="The text says nothing about duplicate indices.",
        data_types=ONNX_TYPES_BF16,
        changes=("Type constraint T gains bfloat16.",),
        previous="ScatterElements-11",
        runtime_notes=(ORT_STRICT_DIMS, ORT_NO_REDUCTION_ATTR, ONNX_REF_LAX, LAST_WINS),
        runnable_on=("onnxruntime", "onnx.reference"),
    ),
    OpSpec(
        name="ScatterElements-16", op_type="ScatterElements", version=16, framework="ONNX", family="elements",
        url=ONNX_DOCS.format(op="ScatterElements", anchor="scatterelements", v=16),
        summary="As ScatterElements-13, plus a reduction attribute: none, add or mul.",
        formula=ELEMENTS_FORMULA, loop=ELEMENTS_LOOP,
        attributes=(ONNX_AXIS, ONNX_16_ATTR), reductions=ONNX_16,
        index_rule=ONNX_ELEMENTS_INDEX, shape_rules=ONNX_ELEMENTS_SHAPES,
        duplicates_forbidden_with=("none",),
        duplicate_policy=NO_DUPLICATES_WITH_NONE_16,
        data_types=ONNX_TYPES_BF16,
        changes=("New attribute reduction: none (default), add, mul.",
                 "The text now forbids duplicate indices when reduction is none."),
        previous="ScatterElements-13",
        runtime_notes=(ORT_STRICT_DIMS, ORT_REDUCTION_16, ONNX_REF_REDUCTION, ORT_F16, ONNX_REF_LAX, LAST_WINS),
        runnable_on=("onnxruntime", "onnx.reference"),
    ),
    OpSpec(
        name="ScatterElements-18", op_type="ScatterElements", version=18, framework="ONNX", family="elements",
        url=ONNX_DOCS.format(op="ScatterElements", anchor="scatterelements", v=18),
        summary="As ScatterElements-16, plus max and min reductions.",
        formula=ELEMENTS_FORMULA, loop=ELEMENTS_LOOP,
        attributes=(ONNX_AXIS, ONNX_18_ATTR), reductions=ONNX_18,
        index_rule=ONNX_ELEMENTS_INDEX, shape_rules=ONNX_ELEMENTS_SHAPES,
        duplicates_forbidden_with=("none",),
        duplicate_policy=NO_DUPLICATES_WITH_NONE_18,
        data_types=ONNX_TYPES_BF16,
        changes=("reduction gains max and min.",),
        previous="ScatterElements-16",
        runtime_notes=(ORT_STRICT_DIMS, ORT_REDUCTION_18, ORT_BOOL_MAXMIN, ORT_F16, ONNX_REF_LAX, LAST_WINS, OV_SIGNED_ZERO,
                       ORT_NAN, ONNX_REF_NAN_ELEMENTS, ONNX_REF_TYPE_T),
        runnable_on=("onnxruntime", "onnx.reference"),
    ),
    # ------------------------------------------------------------------ ONNX ScatterND
    OpSpec(
        name="ScatterND-11", op_type="ScatterND", version=11, framework="ONNX", family="nd",
        url=ONNX_DOCS.format(op="ScatterND", anchor="scatternd", v=11),
        summary="Copies data and writes whole slices (or single elements) addressed by k-tuples of indices. "
                "The inverse of GatherND.",
        formula=ND_FORMULA, loop=ND_LOOP,
        attributes=(), reductions=NONE_ONLY,
        index_rule=ONNX_ND_INDEX, shape_rules=ND_SHAPES,
        duplicates_forbidden_with=("none",),
        duplicate_policy="Indices must not contain duplicates: two updates to one location are not supported, "
                         "and the loop order is unspecified.",
        data_types=ONNX_TYPES,
        changes=("First version of ScatterND.",),
        runtime_notes=(ORT_ND_INT64, ORT_NO_REDUCTION_ATTR, ONNX_ND_K0, LAST_WINS),
        runnable_on=("onnxruntime", "onnx.reference"),
    ),
    OpSpec(
        name="ScatterND-13", op_type="ScatterND", version=13, framework="ONNX", family="nd",
        url=ONNX_DOCS.format(op="ScatterND", anchor="scatternd", v=13),
        summary="As ScatterND-11; bfloat16 joins the allowed types.",
        formula=ND_FORMULA, loop=ND_LOOP,
        attributes=(), reductions=NONE_ONLY,
        index_rule=ONNX_ND_INDEX, shape_rules=ND_SHAPES,
        duplicates_forbidden_with=("none",),
        duplicate_policy="Indices must not contain duplicates: two updates to one location are not supported, "
                         "and the loop order is unspecified.",
        data_types=ONNX_TYPES_BF16,
        changes=("Type constraint T gains bfloat16.",),
        previous="ScatterND-11",
        runtime_notes=(ORT_ND_INT64, ORT_NO_REDUCTION_ATTR, ONNX_ND_K0, LAST_WINS),
        runnable_on=("onnxruntime", "onnx.reference"),
    ),
    OpSpec(
        name="ScatterND-16", op_type="ScatterND", version=16, framework="ONNX", family="nd",
        url=ONNX_DOCS.format(op="ScatterND", anchor="scatternd", v=16),
        summary="As ScatterND-13, plus a reduction attribute: none, add or mul.",
        formula=ND_FORMULA, loop=ND_LOOP,
        attributes=(ONNX_16_ATTR,), reductions=ONNX_16,
        index_rule=ONNX_ND_INDEX, shape_rules=ND_SHAPES,
        duplicates_forbidden_with=("none",),
        duplicate_policy=NO_DUPLICATES_WITH_NONE_16,
        data_types=ONNX_TYPES_BF16,
        changes=("New attribute reduction: none (default), add, mul.",
                 "The blanket ban on duplicate indices now applies only to reduction none."),
        previous="ScatterND-13",
        runtime_notes=(ORT_ND_INT64, ORT_REDUCTION_16, ONNX_REF_REDUCTION, ORT_F16, ONNX_ND_K0, LAST_WINS),
        runnable_on=("onnxruntime", "onnx.reference"),
    ),
    OpSpec(
        name="ScatterND-18", op_type="ScatterND", version=18, framework="ONNX", family="nd",
        url=ONNX_DOCS.format(op="ScatterND", anchor="scatternd", v=18),
        summary="As ScatterND-16, plus max and min reductions.",
        formula=ND_FORMULA, loop=ND_LOOP,
        attributes=(ONNX_18_ATTR,), reductions=ONNX_18,
        index_rule=ONNX_ND_INDEX, shape_rules=ND_SHAPES,
        duplicates_forbidden_with=("none",),
        duplicate_policy=NO_DUPLICATES_WITH_NONE_18,
        data_types=ONNX_TYPES_BF16,
        changes=("reduction gains max and min.",),
        previous="ScatterND-16",
        runtime_notes=(ORT_ND_INT64, ORT_REDUCTION_18, ORT_BOOL_MAXMIN, ORT_F16, ONNX_ND_K0, LAST_WINS,
                       RuntimeNote("float16", ORT, "refuses float16 ScatterND with max/min as well"), OV_SIGNED_ZERO,
                       ORT_NAN, ONNX_REF_NAN_ND, ONNX_REF_TYPE_T),
        runnable_on=("onnxruntime", "onnx.reference"),
    ),
    # ------------------------------------------------------------------ OpenVINO
    OpSpec(
        name="ScatterUpdate-3", op_type="ScatterUpdate", version=3, framework="OpenVINO", family="update",
        url=OV_DOCS.format(page="scatter-update-3"),
        summary="Copies data and replaces whole slices along one axis: the slice at position indices[j] "
                "takes updates' slice j.",
        formula="output[:, …, norm(indices[j]), …, :] = updates[:, …, j, …, :]  (slices along axis)",
        loop="one iteration per element j of indices, row-major",
        attributes=(OV_AXIS,), reductions=NONE_ONLY,
        index_rule=IndexRule("forbidden", ANY_INT, "every index v: 0 <= v <= data.shape[axis]-1; negative is an error"),
        shape_rules=("rank(data) = r >= 1; indices of any rank, 0-d allowed",
                     "updates.shape == data.shape[:axis] + indices.shape + data.shape[axis+1:]"),
        duplicates_forbidden_with=(),
        duplicate_policy="The text does not define which of several updates to one slice wins.",
        data_types=OV_TYPES,
        changes=("First version.",),
        runtime_notes=(RuntimeNote("negative-index", OV_BOTH, "reject negative indices, as the text says"),
                       RuntimeNote("scalar-indices", OV_CPU, "refuses 0-d indices; the reference accepts them"),
                       OV_INT64, LAST_WINS, OV_PARALLEL_WINNER, OV_F64,
                       RuntimeNote("negative-index", OV_CPU,
                                   "with 1-D data does not check a negative index: -1 on a size-4 tensor "
                                   "crashes the process (SIGSEGV; -2 on size 2: SIGABRT), -4 or -5 write "
                                   "nothing; with data of rank >= 2 it refuses negatives as the text says",
                                   documented=False),
                       RuntimeNote("updates-offsets", OV_REF,
                                   "reads updates at wrong offsets for some multi-dimensional indices: indices "
                                   "[[0], [1], [2]], data zeros((3, 2)), updates arange(1, 7) as (3, 1, 2), axis "
                                   "0 gives [[1, 2], [2, 3], [3, 4]] instead of [[1, 2], [3, 4], [5, 6]]; and "
                                   "with a length-1 trailing axis: data (2, 3, 1), indices [0, 1], axis 0 puts "
                                   "[2, 3, 4] in slice 1 instead of [4, 5, 6]; the CPU plugin follows the text",
                                   documented=False),
                       RuntimeNote("scalar-indices", OV_REF,
                                   "with 1-D data (so 0-d updates) refuses 0-d indices ('vector::_M_range_check'); "
                                   "with data of rank >= 2 it accepts them", documented=False)),
        runnable_on=("openvino",),
    ),
    OpSpec(
        name="ScatterNDUpdate-3", op_type="ScatterNDUpdate", version=3, framework="OpenVINO", family="nd",
        url=OV_DOCS.format(page="scatter-nd-update-3"),
        summary="OpenVINO's ScatterND without reductions: k-tuples of indices address elements or slices "
                "that updates replace.",
        formula=ND_FORMULA, loop=ND_LOOP,
        attributes=(), reductions=NONE_ONLY,
        index_rule=IndexRule("forbidden", ANY_INT,
                             "coordinate j of every k-tuple: 0 <= v <= data.shape[j]-1"),
        shape_rules=ND_SHAPES + ("a 0-d update slice may also be given as a one-element tensor",),
        duplicates_forbidden_with=("none",),
        duplicate_policy="Indices must not contain duplicates; with duplicates the result is undefined.",
        data_types=OV_TYPES,
        changes=("First version (registered in OpenVINO's opset4).",),
        one_element_for_scalar_updates=True,
        runtime_notes=(OV_NEGATIVE_ACCEPTED, OV_ND_K0, OV_ND_SCALAR, OV_INT64, LAST_WINS, OV_PARALLEL_WINNER,
                       OV_F64, OV_REF_NO_KERNEL_ND),
        runnable_on=("openvino",),
        extra=MappingProxyType({"openvino_opset": "opset4",
                                "openvino_reference_no_kernel": OV_REF_NO_KERNEL_ND_DTYPES}),
    ),
    OpSpec(
        name="ScatterNDUpdate-15", op_type="ScatterNDUpdate", version=15, framework="OpenVINO", family="nd",
        url=OV_DOCS.format(page="scatter-nd-update-15"),
        summary="ScatterNDUpdate with a reduction attribute: none, sum, sub, prod, min or max; negative "
                "indices count from the end.",
        formula=ND_FORMULA, loop=ND_LOOP,
        attributes=(_reduction_attr(("none", "sum", "sub", "prod", "min", "max")),),
        reductions=(("none", "none"), ("sum", "sum"), ("sub", "sub"), ("prod", "prod"),
                    ("min", "min"), ("max", "max")),
        index_rule=IndexRule("allowed", ANY_INT,
                             "coordinate j of every k-tuple: -data.shape[j] <= v <= data.shape[j]-1; "
                             "v < 0 means v + data.shape[j]"),
        shape_rules=ND_SHAPES + ("a 0-d update slice may also be given as a one-element tensor",),
        duplicates_forbidden_with=(),
        duplicate_policy="Duplicates are allowed; with reduction none the order of the writes, and so "
                         "the result, is undefined.",
        data_types=OV_TYPES,
        changes=("New attribute reduction: none (default), sum, sub, prod, min, max.",
                 "Negative indices are allowed and count from the end.",
                 "Duplicate indices are allowed (combined by the reduction)."),
        previous="ScatterNDUpdate-3", one_element_for_scalar_updates=True,
        runtime_notes=(OV_ND_K0, OV_ND_SCALAR, OV_INT64, OV_REDUCTION_CASE, OV_F16,
                       RuntimeNote("bool", OV_BOTH, "sum = OR, prod = AND, min = AND, max = OR, sub = XOR on bool"),
                       LAST_WINS, OV_PARALLEL_WINNER, OV_BOOL_AS_UINT8, OV_F64, OV_REF_NO_KERNEL_ND,
                       OV_SIGNED_ZERO, OV_CPU_NAN, OV_REF_NAN_ND),
        runnable_on=("openvino",),
        extra=MappingProxyType({"openvino_opset": "opset15",
                                "openvino_reference_no_kernel": OV_REF_NO_KERNEL_ND_DTYPES}),
    ),
    OpSpec(
        name="ScatterElementsUpdate-3", op_type="ScatterElementsUpdate", version=3, framework="OpenVINO",
        family="elements", url=OV_DOCS.format(page="scatter-elements-update-3"),
        summary="OpenVINO's ScatterElements without reductions; axis is the 4th input.",
        formula=ELEMENTS_FORMULA, loop=ELEMENTS_LOOP,
        attributes=(OV_AXIS,), reductions=NONE_ONLY,
        index_rule=IndexRule("forbidden", ANY_INT,
                             "every index v along axis of size s: 0 <= v <= s-1; negative is an error"),
        shape_rules=("rank(indices) == rank(data) == rank(updates) >= 1",
                     "updates.shape == indices.shape",
                     "indices.shape[i] <= data.shape[i] for every i, the axis included"),
        duplicates_forbidden_with=(),
        duplicate_policy="The text does not say which of several updates to one element wins.",
        data_types=OV_TYPES,
        changes=("First version.",),
        axis_dim_may_exceed=False,
        runtime_notes=(OV_NEGATIVE_ACCEPTED, OV_RANGE_LOW, OV_ALIAS_DIMS,
                       RuntimeNote("axis-dim", OV_BOTH, "accept an indices axis dimension larger than data's"),
                       OV_INT64, LAST_WINS,
                       OV_RANGE_LOW_SILENT, OV_F64, OV_REF_NO_KERNEL_ELEMENTS),
        runnable_on=("openvino",),
        extra=MappingProxyType({"openvino_reference_no_kernel": OV_REF_NO_KERNEL_ELEMENTS_DTYPES}),
    ),
    OpSpec(
        name="ScatterElementsUpdate-12", op_type="ScatterElementsUpdate", version=12, framework="OpenVINO",
        family="elements", url=OV_DOCS.format(page="scatter-elements-update-12"),
        summary="ScatterElementsUpdate with reductions none, sum, prod, min, max, mean and the "
                "use_init_val switch; negative indices count from the end.",
        formula=ELEMENTS_FORMULA + "; mean divides once at the end by (count + use_init_val)",
        loop=ELEMENTS_LOOP,
        attributes=(OV_AXIS, _reduction_attr(("none", "sum", "prod", "min", "max", "mean")),
                    AttrSpec("use_init_val", "bool", default=True,
                             doc="true: data's value takes part in the reduction; false: targeted cells "
                                 "start from the reduction's neutral value (no effect with none)")),
        reductions=(("none", "none"), ("sum", "sum"), ("prod", "prod"), ("min", "min"),
                    ("max", "max"), ("mean", "mean")),
        index_rule=IndexRule("allowed", ANY_INT,
                             "every index v along axis of size s: -s <= v <= s-1; v < 0 means v + s"),
        shape_rules=("rank(indices) == rank(data) == rank(updates) >= 1",
                     "updates.shape == indices.shape",
                     "indices.shape[i] <= data.shape[i] for i != axis; the axis dimension may be larger"),
        duplicates_forbidden_with=(),
        duplicate_policy="Duplicates are allowed; the order in which they are applied is undefined.",
        data_types=OV_TYPES + "; mean is not defined for bool",
        changes=("New attribute reduction: none (default), sum, prod, min, max, mean.",
                 "New attribute use_init_val (default true).",
                 "Negative indices are allowed and count from the end.",
                 "The indices dimension along axis may exceed data's."),
        previous="ScatterElementsUpdate-3",
        runtime_notes=(RuntimeNote("integer-mean", OV_CPU,
                                   "truncates an integer mean toward zero (static_cast of a double); the "
                                   "reference floors as the text says: data 0, update -3 gives -1 on CPU, -2 "
                                   "in the reference"),
                       RuntimeNote("integer-mean", OV_REF, "has no int8/uint8 mean kernel"),
                       OV_RANGE_LOW, OV_ALIAS_DIMS, OV_INT64, OV_REDUCTION_CASE, OV_F16,
                       RuntimeNote("bool", OV_BOTH, "refuse bool data with mean at node construction"),
                       LAST_WINS, OV_RANGE_LOW_SILENT, OV_BOOL_AS_UINT8, OV_F64, OV_REF_NO_KERNEL_ELEMENTS,
                       OV_SIGNED_ZERO, OV_INIT_FLT_MAX, OV_CPU_NAN, OV_REF_NAN_ELEMENTS,
                       RuntimeNote("uint64", OV_CPU,
                                   "narrows uint64 data to 32 bits: data [2**40 + 5, 1], update 2**33 at 0 "
                                   "gives [0, 1] (the reference: [2**33, 1])", documented=False),
                       RuntimeNote("integer-mean-int16", OV_CPU,
                                   "does not wrap the int16 sum before dividing for mean: data 32767, update "
                                   "32767 gives 32767 (the reference and scatter_core wrap the sum: -1)",
                                   documented=False)),
        runnable_on=("openvino",),
        extra=MappingProxyType({"openvino_reference_no_kernel": OV_REF_NO_KERNEL_ELEMENTS_DTYPES}),
    ),
    # ------------------------------------------------------------------ newest operators (issue 16)
    # One record each; their families ("cache", "slice") are planned by scatter_core/tensor_scatter.py
    # and scatter_core/slice_scatter.py. Observed on onnxruntime 1.31.1, onnx.reference 1.23.2 and
    # OpenVINO 2026.4.1 by tests/test_differential_newops.py.
    OpSpec(
        name="TensorScatter-24", op_type="TensorScatter", version=24, framework="ONNX", family="cache",
        url=ONNX_DOCS.format(op="TensorScatter", anchor="tensorscatter", v=24),
        summary="The key/value-cache update of attention layers: each batch entry's new rows are copied into a "
                "fixed-size cache along its sequence axis, starting at that entry's write index; circular mode "
                "wraps past the end back to position 0.",
        formula="present_cache[prefix, p, …] = update[prefix, s, …]  with p = write_indices[prefix[0]] + s "
                "(mod max_sequence_length in circular mode)",
        loop="one iteration per (prefix before axis, sequence position s of update), row-major: the prefix "
             "(batch first) outside, s inside",
        attributes=(AttrSpec("axis", "int", default=-2,
                             doc="the sequence axis of past_cache and update; negative counts from the back; "
                                 "never 0, the batch axis"),
                    AttrSpec("mode", "str", default="linear", choices=("linear", "circular"),
                             doc="linear: write_indices[b] + sequence_length <= max_sequence_length; circular: "
                                 "positions are taken modulo max_sequence_length (the write wraps around)")),
        reductions=NONE_ONLY,
        index_rule=IndexRule(
            "unstated", ("int64",),
            "one write index per batch entry, 0 when write_indices is left out; linear: w + sequence_length <= "
            "max_sequence_length; circular: any w, taken modulo max_sequence_length. The text gives no lower "
            "bound; Scatter Explorer refuses negative write indices, as onnxruntime does"),
        shape_rules=("rank(past_cache) = rank(update) = r >= 2; axis != 0",
                     "update.shape[i] == past_cache.shape[i] for every i != axis",
                     "sequence_length = update.shape[axis] <= max_sequence_length = past_cache.shape[axis]",
                     "write_indices (optional) has shape (batch_size,) = (past_cache.shape[0],)"),
        duplicates_forbidden_with=(),
        duplicate_policy="No two iterations write the same cell (a batch entry's sequence_length positions are "
                         "distinct, even when they wrap around), so duplicates cannot occur.",
        data_types=ONNX_TYPES_BF16 + "; write_indices is int64",
        changes=("First version: a new operator for attention's key/value cache (opset 24).",),
        runtime_notes=(
            RuntimeNote("negative-index", ORT, "refuses a negative write index in both modes ('write_indices[0] = "
                                               "-1 is negative'); onnx.reference counts it from the end, as "
                                               "Python indexing does", documented=False),
            RuntimeNote("index-range", ONNX_REF, "refuses a linear write past the end only through NumPy's "
                                                 "IndexError, and does not check w + sequence_length <= "
                                                 "max_sequence_length when sequence_length is 0 (onnxruntime "
                                                 "does)", documented=False),
            RuntimeNote("shape", ONNX_REF, "does not check the shape of write_indices: (3,) or (2, 1) for a batch "
                                           "of 2 run (onnxruntime refuses them at shape inference)",
                        documented=False),
            RuntimeNote("index-dtype", ONNX_REF, "accepts int32 write_indices; onnxruntime refuses them (type "
                                                 "constraint tensor(int64))", documented=False),
            RuntimeNote("circular", "onnxruntime 1.31.1 and onnx.reference 1.23.2",
                        "agree on circular mode, including write indices of several times max_sequence_length"),
        ),
        runnable_on=("onnxruntime", "onnx.reference"),
        inputs=(InputSpec("data", "past_cache"), InputSpec("updates", "update"),
                InputSpec("indices", "write_indices")),
    ),
    OpSpec(
        name="SliceScatter-15", op_type="SliceScatter", version=15, framework="OpenVINO", family="slice",
        url=OV_DOCS.format(page="slice-scatter-15"),
        summary="Copies data and replaces a strided slice of it, chosen by start, stop and step along some "
                "axes exactly as Slice-8 chooses it, with updates of the slice's shape.",
        formula="output[s₀, s₁, …] = updates  with s_d = start[d]:stop[d]:step[d] on the sliced axes (Slice-8 "
                "bounds: negative from the end, clamped) and ':' elsewhere",
        loop="one iteration per element of updates, row-major; element u goes to the slice's element u",
        attributes=(
            AttrSpec("start", "ints", required=True, is_input=True,
                     doc="3rd input: one first position per sliced axis; negative counts from the end; "
                         "clamped to the axis"),
            AttrSpec("stop", "ints", required=True, is_input=True,
                     doc="4th input: one end position per sliced axis, excluded; negative counts from the end; "
                         "clamped to the axis"),
            AttrSpec("step", "ints", required=True, is_input=True,
                     doc="5th input: one step per sliced axis, never 0; negative walks backwards"),
            AttrSpec("axes", "ints", default=None, is_input=True,
                     doc="6th input, optional: the axes start/stop/step apply to, unique, in [-r, r-1]; "
                         "default 0, 1, …, len(start)-1"),
        ),
        reductions=NONE_ONLY,
        index_rule=IndexRule("allowed", ("int64",),
                             "no indices input; start and stop: v < 0 means v + size, then clamped to the axis "
                             "(Slice-8)"),
        shape_rules=("rank(data) = r >= 1",
                     "start, stop, step (and axes) have one entry per sliced axis; axes unique",
                     "updates.shape == the slice's shape: len(range(start, stop, step)) after clamping on each "
                     "sliced axis, data's size elsewhere"),
        duplicates_forbidden_with=(),
        duplicate_policy="A slice never names an element twice, so duplicates cannot occur.",
        data_types=OV_TYPES,
        changes=("First version (opset 15).",),
        runtime_notes=(
            RuntimeNote("slicing", OV_CPU, "agrees with Python's slicing on random cases with negative and "
                                           "clamped bounds and negative steps"),
            RuntimeNote("negative-step-start", OV_BOTH,
                        "with a negative step read a start below -size as the first element: start -8, stop -8, "
                        "step -1 on an axis of size 3 selects element 0 where Python's slicing (which Slice-8's "
                        "text follows, and Scatter Explorer too) selects nothing; OpenVINO's Slice-8 does the "
                        "same, and its shape inference then wants updates of that shape", documented=False),
            RuntimeNote("reference-kernels", OV_REF,
                        "cannot run SliceScatter: Node.evaluate returns False for every element type and "
                        "constant folding leaves the node in place (the wheel wires the reference kernel only "
                        "into the TEMPLATE plugin, which it does not ship)", documented=False),
            OV_INT64, OV_F64,
        ),
        runnable_on=("openvino",),
        extra=MappingProxyType({"openvino_opset": "opset15",
                                "openvino_reference_no_kernel": ("bool", "int8", "int16", "int32", "int64", "uint8",
                                                                 "uint16", "uint32", "uint64", "float16", "float32",
                                                                 "float64")}),
        inputs=(InputSpec("data", "data"), InputSpec("updates", "updates")),
    ),
)

OPERATORS = MappingProxyType({spec.name: spec for spec in OPERATORS_LIST})

def _family_titles():
    from .families import FAMILIES  # the family records hold the titles; the registry only points at them

    return MappingProxyType({name: f.title for name, f in FAMILIES.items()})


def get_spec(op) -> OpSpec:
    """Look an operator up by versioned name; a spec record passes through."""
    if isinstance(op, OpSpec):
        return op
    try:
        return OPERATORS[op]
    except (KeyError, TypeError):
        raise ScatterError(
            f"op {op!r} is not a known operator version; known: {', '.join(OPERATORS)}",
            argument="op", rule="unknown-op") from None


def versions_of(op_type: str) -> tuple[OpSpec, ...]:
    return tuple(sorted((s for s in OPERATORS_LIST if s.op_type == op_type), key=lambda s: s.version))


def __getattr__(name):  # FAMILY_TITLES, read from the family records on first use (no import cycle)
    if name == "FAMILY_TITLES":
        return _family_titles()
    raise AttributeError(name)


def family_members(family: str) -> tuple[OpSpec, ...]:
    return tuple(s for s in OPERATORS_LIST if s.family == family)
