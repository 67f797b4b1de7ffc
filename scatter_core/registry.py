"""The operator registry: one record per operator version, as data.

Adding a version means adding one :class:`OpSpec` here (and one example file in
``spec_examples/``). Kernels, pages and figures read these records; none of them
branch on an operator's name.

Runtime observations are not written here: each record's ``runtime_notes`` is read from the one
table of runtime facts (:mod:`scatter_core.facts`), with the versions taken from the pins.
"""

from __future__ import annotations

from types import MappingProxyType

from .errors import ScatterError
from .facts import notes_for
from .spec import ANY_INT, AttrSpec, IndexRule, InputSpec, OpSpec


ONNX_DOCS = "https://onnx.ai/onnx/operators/onnx__{op}.html#l-onnx-op-{anchor}-{v}"
OV_DOCS = ("https://docs.openvino.ai/2025/documentation/openvino-ir-format/"
           "operation-sets/operation-specs/movement/{page}.html")

ONNX_TYPES = ("any tensor type: bool, integers, float16/float/double, string, complex "
              "(Scatter Explorer covers bool, integer and float tensors)")
ONNX_TYPES_BF16 = ONNX_TYPES.replace("float16/", "bfloat16/float16/")
OV_TYPES = "any supported element type (Scatter Explorer covers bool, integer and float tensors)"

# -- shared pieces of text and notes ---------------------------------------
ONNX_AXIS = AttrSpec("axis", "int", default=0, codec="axis",
                     doc="the axis indices address; negative counts from the back, range [-r, r-1]")
OV_AXIS = AttrSpec("axis", "int", default=None, required=True, is_input=True, codec="axis",
                   doc="4th input: a scalar or one-element tensor; negative counts from the back, range [-r, r-1]")


def _reduction_attr(spellings: tuple[str, ...], default: str = "none") -> AttrSpec:
    return AttrSpec("reduction", "str", default=default, codec="reduction",
                    doc="one of " + ", ".join(spellings))


# The data dtypes OpenVINO's reference implementation has no kernel for (Node.evaluate returns False),
# by operator: runtime_check's divergence reads the record's extra["openvino_reference_no_kernel"]
# (the facts "ov-ref-no-kernel-elements"/"-nd" in scatter_core.facts say it in words).
OV_REF_NO_KERNEL_ELEMENTS_DTYPES = ("int8", "uint8", "uint16", "float64")
OV_REF_NO_KERNEL_ND_DTYPES = ("int8", "int16", "uint8", "uint16", "float64")

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
        runtime_notes=notes_for('Scatter-9'),
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
        runtime_notes=notes_for('Scatter-11'),
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
        runtime_notes=notes_for('ScatterElements-11'),
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
        runtime_notes=notes_for('ScatterElements-13'),
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
        runtime_notes=notes_for('ScatterElements-16'),
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
        runtime_notes=notes_for('ScatterElements-18'),
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
        runtime_notes=notes_for('ScatterND-11'),
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
        runtime_notes=notes_for('ScatterND-13'),
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
        runtime_notes=notes_for('ScatterND-16'),
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
        runtime_notes=notes_for('ScatterND-18'),
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
        runtime_notes=notes_for('ScatterUpdate-3'),
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
        runtime_notes=notes_for('ScatterNDUpdate-3'),
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
        runtime_notes=notes_for('ScatterNDUpdate-15'),
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
        runtime_notes=notes_for('ScatterElementsUpdate-3'),
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
                    AttrSpec("use_init_val", "bool", default=True, codec="init",
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
        runtime_notes=notes_for('ScatterElementsUpdate-12'),
        runnable_on=("openvino",),
        extra=MappingProxyType({"openvino_reference_no_kernel": OV_REF_NO_KERNEL_ELEMENTS_DTYPES}),
    ),
    # ------------------------------------------------------------------ newest operators (issue 16)
    # One record each; their families ("cache", "slice") are planned by scatter_core/tensor_scatter.py
    # and scatter_core/slice_scatter.py. Their runtime facts were observed on the
    # pinned runtimes by tests/runtimes/test_differential_newops.py.
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
        attributes=(AttrSpec("axis", "int", default=-2, codec="axis",
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
        runtime_notes=notes_for('TensorScatter-24'),
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
        runtime_notes=notes_for('SliceScatter-15'),
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
