"""The framework map as data: one record per framework operation.

A record says which scatter_core family it writes, which canonical reductions it
covers (and the value it passes for each), how the initial value of a written
cell is controlled (``use_init_val`` in OpenVINO, ``include_self`` in PyTorch),
and where its semantics differ from the ONNX / OpenVINO texts, one sentence per
topic in :data:`TOPICS`. ``function`` names the function (in the framework's
``impl_*`` module) that the differential tests run and the exports print, so the
code a user copies is the code that was checked. ``FRAMEWORK_RECORDS`` holds one
record per framework: its module, how generated code imports and runs it, and its
reading rules where frameworks differ (code elsewhere reads them, never a name).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from .verified import VERIFIED

# Every record names these divergence topics (the schema test checks it).
TOPICS: tuple[str, ...] = ("duplicates", "initial value", "integer mean", "negative indices",
                           "out-of-range indices", "dtypes")

FRAMEWORKS: tuple[str, ...] = ("PyTorch", "TensorFlow", "JAX", "WebNN")  # the frameworks with entries

KINDS = {"direct": "direct equivalent", "composition": "no direct equivalent: shortest faithful composition"}


@dataclass(frozen=True)
class Entry:
    id: str
    framework: str  # one of FRAMEWORKS
    operation: str  # the framework operation the record is about, as the framework spells it
    family: str  # scatter_core family: "elements" | "nd" | "update"
    kind: str  # "direct" | "composition"
    reductions: Mapping[str, object]  # canonical reduction -> value passed as `reduce_arg` (None: no argument)
    call: str  # the call in one line, as a reader would write it
    divergences: Mapping[str, str]  # topic -> how it differs from the ONNX / OpenVINO texts (or "same")
    docs: str  # official documentation page
    function: str | None = None  # function in the framework's impl module (None: not executable here)
    helpers: tuple[str, ...] = ()  # other top-level names of that module the function uses
    reduce_arg: str | None = None
    reduce_is_function: bool = False  # the reduce_arg value names a function of the impl module ("tf.tensor_scatter_nd_add")
    init_arg: str | None = None  # "include_self" (bool), "init" (neutral value or None), or None (cell always takes part)
    axis_arg: bool = False
    condition: str = ""  # when the mapping is faithful, if not always
    attr_args: tuple[str, ...] = ()  # the version's other attributes, passed by name as they are ("mode", "start")
    extra: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def executable(self) -> bool:
        return self.function is not None and self.framework in MODULES


def _d(**topics: str) -> Mapping[str, str]:
    keys = {k.replace("_", " ").replace("out of range", "out-of-range"): v for k, v in topics.items()}
    return MappingProxyType(keys)


def _r(**values) -> Mapping[str, object]:
    return MappingProxyType(values)


# ----------------------------------------------------------------------------- shared sentences
# PyTorch's own words (torch 2.13): "index -1 is out of bounds for dimension 0 with size 3"
TORCH_NEG_WORDS = ("an error in PyTorch (RuntimeError or IndexError: \"index -1 is out of bounds for dimension 0 "
                   "with size n\"): its indices run from 0 to n - 1")
TORCH_NEG_ERR = (TORCH_NEG_WORDS + ", where ONNX counts negative indices from the end; add the axis size to them "
                 "first, as the framework map's function does")
TORCH_NEG_UPDATE = TORCH_NEG_WORDS + ", and ScatterUpdate-3 refuses negative indices too"
TORCH_INDEX_FILL_NEG = ("allowed: index_fill counts negative indices from the end, as ONNX does (index_copy and "
                        "index_add refuse them; torch 2.13)")
TORCH_OOR = "an error in PyTorch on CPU (RuntimeError / IndexError), like ONNX; on CUDA a device-side assert"
TORCH_DUP_NONE = ("PyTorch leaves the winner undefined when two indices hit one cell under replacement "
                  "(the ONNX loop lets the last write win); on CPU we observed the last write winning; on CUDA "
                  "the order of duplicate writes is nondeterministic")
TORCH_CUDA_ORDER = ("on CUDA the duplicates are combined in a nondeterministic order (PyTorch's reproducibility "
                    "notes), so float results may differ in the last bits from run to run")
TF_NEG_WORDS = ("an error in TensorFlow (InvalidArgumentError: \"indices[0] = [-1] does not index into shape\"): "
                "its indices run from 0 to n - 1")
TF_NEG = (TF_NEG_WORDS + ", where ONNX counts negative indices from the end; add the axis size to them first, as "
          "the framework map's function does")
TF_NEG_UPDATE = TF_NEG_WORDS + ", and ScatterUpdate-3 refuses negative indices too"
TF_56567 = ("the report that tf.scatter_nd drops a negative index silently on CPU for float updates (tensorflow#56567, "
            "TF 2.6)")


def _tf_out_of_range() -> str:
    """The TensorFlow out-of-range sentence, from what scripts/verify_frameworks.py probed (verified.py)."""
    res = VERIFIED.get("TensorFlow", {})
    probed = res.get("out_of_range")
    if not probed:
        return ("an error on CPU (InvalidArgumentError), like ONNX; on GPU TensorFlow silently ignores out-of-range "
                f"indices ({TF_56567} is not verified here)")  # before the first probe
    xla = "tf.function(jit_compile=True)"
    said = ("an error on CPU (InvalidArgumentError), like ONNX" if probed["eager"] == probed["tf.function"] == "error"
            else f"on CPU: {probed['eager']} eagerly, {probed['tf.function']} in tf.function")
    if probed[xla] == "dropped":
        said += (", eagerly and in tf.function; but an XLA-compiled function (jit_compile=True) silently drops "
                 "negative and past-the-end indices on CPU, as TensorFlow does on GPU")
    else:
        said += f"; XLA-compiled ({xla}): {probed[xla]}; on GPU TensorFlow silently ignores out-of-range indices"
    checked = f"{res['version']} on CPU ({res['date']}, float32 and int32)"
    return said + (f"; {TF_56567} is not reproduced on {checked}" if probed["eager"] == "error" else
                   f"; {TF_56567}: {probed['eager']} on {checked}")


TF_OOR = _tf_out_of_range()


def _tf_nan_max_min() -> str:
    """What tf.tensor_scatter_nd_max / _min do with a NaN, from what scripts/verify_frameworks.py probed
    (verified.py, ``differential.tensorflow_nan_max_min``); empty before the first probe."""
    res = VERIFIED.get("TensorFlow", {})
    probed = res.get("nan_max_min")
    if not probed:
        return ""
    words = {"ignored": "is ignored (the cell keeps its number, or takes another update's)",
             "propagated": "makes the cell NaN", "mixed": "sometimes makes the cell NaN and sometimes not"}
    data = {"ignored": "is replaced", "propagated": "stays NaN", "mixed": "sometimes stays NaN"}
    return (f"for max / min, a NaN update {words[probed['NaN update']]} and a NaN already in data "
            f"{data[probed['NaN in data']]}, where Scatter Explorer (NumPy's maximum / minimum) and PyTorch's "
            f"scatter_reduce make every cell a NaN takes part in NaN (neither spec says; probed on "
            f"{res['version']}, CPU, {res['date']}, float32 and float64)")


TF_NAN = _tf_nan_max_min()


def _torch_index_add_alpha() -> str:
    """How torch.index_add rounds data + alpha * source, from what scripts/verify_frameworks.py probed
    (verified.py, ``differential.torch_index_add_alpha``); empty before the first probe or where PyTorch rounded
    twice, as the composition (Mul, then the adding scatter) does."""
    res = VERIFIED.get("PyTorch", {})
    probed = res.get("index_add_alpha")
    if not probed or all(probed[r] == "rounded twice" for r in ("rank 1", "rank 2")):
        return ""
    said = "; ".join(f"data of {r}: {probed[r]}" for r in ("rank 1", "rank 2"))
    return (f"on float data, PyTorch computed data + alpha * source with a single rounding (a fused multiply-add) "
            f"where the composition's Mul rounds the product first ({res['version']}, CPU, {res['date']}: {said}), "
            "so where alpha * source is not exact in the dtype the results can differ in the last bit, and where it "
            "overflows the Mul gives inf where PyTorch may not (-inf + 2 * 3.4e38: PyTorch -inf, the Mul NaN)")


TORCH_INDEX_ADD_ALPHA = _torch_index_add_alpha()
TF_DUP_NONE = ("TensorFlow documents the order of duplicate updates as unspecified under replacement "
               "(the ONNX loop lets the last write win)")
TF_DTYPES = "indices must be int32 or int64; bool data works for update but not for add/sub/min/max"
TF_DTYPES_MAX_MIN = "; ".join(x for x in (TF_DTYPES, TF_NAN) if x)  # the records that take max or min
JAX_NEG = "allowed: JAX counts negative indices from the end, as ONNX does (OpenVINO v3 texts forbid them)"
JAX_OOR = ('silently dropped with mode="drop" (the default for scatters); mode="clip" clamps them instead; '
           "ONNX requires an error, so check the range yourself before calling")
JAX_DUP_NONE = ("JAX leaves the winner undefined under .set with duplicate indices (the ONNX loop lets the "
                "last write win)")
JAX_DTYPES = ("64-bit dtypes need jax.config.update('jax_enable_x64', True); without it int64 / float64 "
              "silently become 32-bit")
NO_MEAN = "n/a: this mapping has no mean"
JAX_CLIP = ('JAX mode="clip": out-of-range indices are clamped to the nearest edge; ONNX requires an error, so no '
            "ONNX or OpenVINO operator clamps for you: add a Clip on the indices first.")
JAX_PROMISE = ('JAX mode="promise_in_bounds": an out-of-range index is undefined behaviour in JAX; ONNX requires an '
               "error.")
JAX_UNIQUE = "JAX unique_indices=True promises no duplicates; with duplicates JAX's result is undefined."
JAX_MASK_JIT = ("JAX, a boolean mask in x.at[...]: read eagerly only; under jax.jit the number of True cells is "
                "not static and JAX raises NonConcreteBooleanIndexError, so write jnp.where(mask, v, x) there.")
JAX_NO_WRAP = ("JAX wrap_negative_indices=False: negative indices are out of range (handled by mode), where ONNX "
               "counts them from the end.")
# NumPy, and PyTorch's augmented index assignment (read by from_code.translate; NumPy has no record of its own)
NUMPY_INDEXING_NEG = ("NumPy, negative indices: allowed, counted from the end, as ONNX does (ScatterUpdate-3 and "
                      "ScatterNDUpdate-3 forbid them).")
NUMPY_INDEXING_OOR = "NumPy, out-of-range indices: an IndexError, like ONNX."
NUMPY_AT_DUPLICATES = ("NumPy ufunc.at is unbuffered: every duplicate index takes part, in index order, like the "
                       "ONNX loop with a reduction (a[idx] += b would not: it reads once and writes once).")
NUMPY_PUT_ALONG_AXIS = ("np.put_along_axis broadcasts indices (and values) against arr on every other axis: a "
                        "size-1 dimension of indices writes every row, where ScatterElements writes only the rows "
                        "indices has; expand indices to arr's shape on those axes first (Expand).")
NUMPY_PUT_MODES = {
    "raise": "np.put mode='raise': negative indices count from the end of the flattened array, out of range is an "
             "IndexError, as ONNX does; a shorter v is repeated (np.resize) to one value per index.",
    "wrap": "np.put mode='wrap': indices are taken modulo the size (a Mod on the indices before the scatter); a "
            "shorter v is repeated to one value per index.",
    "clip": "np.put mode='clip': indices are clamped to 0..size-1, so a negative index means 0, NOT the end (a Clip "
            "on the indices before the scatter); a shorter v is repeated to one value per index.",
}
TORCH_AUGMENTED_DUPLICATES = (
    "x[idx] += v (also -=, *=) reads x[idx] once, combines and writes back (index_put_ without accumulate): with "
    "duplicate indices the duplicates do NOT accumulate; each combines with the original cell and one write wins "
    "(PyTorch leaves which one undefined). NumPy's x[idx] += v does the same.")
WEBNN_NEG = ("unverified here (no WebNN implementation in this sandbox): treat negative indices as unsupported and "
             "add the axis size first, as the ONNX text does")
WEBNN_OOR = ("unverified here: implementations may clamp out-of-range indices instead of failing; ONNX requires an "
             "error, so check the range before calling")
WEBNN_DTYPES = ("indices int32 (int64 only where the backend supports it); input and updates share one data type; "
                "unverified here")
INIT_ALWAYS = "the cell's current value always takes part (use_init_val = true); no switch"
WEBNN_DOCS = "https://www.w3.org/TR/webnn/"
NO_DUPLICATES_CACHE = ("n/a: no two writes hit one cell (a batch entry's positions are distinct, even when they "
                       "wrap around)")
NO_DUPLICATES_SLICE = "n/a: a slice never names an element twice"
CACHE_NEG = ("write_indices are never negative (onnxruntime and Scatter Explorer refuse them); in linear mode {} "
             "would silently count a negative position from the end (circular mode's modulo makes it a position), "
             "so check w >= 0 yourself")
CACHE_OOR = ("linear mode needs write_indices[b] + sequence_length <= max_sequence_length (onnxruntime and "
             "Scatter Explorer refuse more); past the end, {}. Circular mode takes positions modulo "
             "max_sequence_length, as ONNX does")
SLICE_CLAMP = "no indices: start and stop past either end are clamped, as Slice-8 does; {}"
SLICE_ATTRS = ("start", "stop", "step", "axes")

# masked writes by Where (from_code.translate: masked_fill, torch.where, tf.where, jnp.where, np.where)
WHERE_DTYPES = ("Where's dtypes: ONNX's Where takes X and Y of one dtype, where the frameworks promote (a Python float "
                "with int data gives floats in PyTorch, NumPy and JAX; TensorFlow refuses the mix): Cast the "
                "values to the output's dtype first")
WHERE_BROADCAST = ("Where's broadcasting: it broadcasts condition, X and Y together (NumPy's rules), as torch.where, "
                   "jnp.where, np.where and tf.where (v2) do; PyTorch's in-place masked_fill_ keeps data's shape, "
                   "so its mask must broadcast to data")


@dataclass(frozen=True)
class Caveat:
    """The calls a caveat concerns, as data: a sentence (or the clause of a record's sentence that says it), or
    a whole topic of every record's sentences; a reduction, dtype kind or index kind it does not list means it
    does not apply (None: every one). From your code shows a caveat only where the call matches."""

    text: str = ""  # the sentence or clause; empty for a whole topic
    topic: str | None = None  # one of TOPICS: every record's sentence on it
    reductions: frozenset | None = None  # canonical reductions: none, sum, sub, prod, max, min, mean
    dtypes: str | None = None  # NumPy dtype kinds of the data: "f" floats, "iu" integers, "b" bool
    index_kinds: frozenset | None = None  # from_call's index forms: elements, nd, axis, flat, slice, mask, ...

    def applies(self, canonical: str, kind: str | None, forms: frozenset) -> bool:
        """Whether it concerns a call with this reduction, data dtype kind (None: unknown, so it may) and index
        forms."""
        return ((self.reductions is None or canonical in self.reductions)
                and (self.dtypes is None or kind is None or kind in self.dtypes)
                and (self.index_kinds is None or bool(self.index_kinds & forms)))


INDEXED = frozenset({"elements", "nd", "axis", "flat"})  # index tensors: negative, out-of-range, repeated values
ORDERED = frozenset({"sum", "sub", "prod", "mean"})  # float results that depend on the order of the duplicates
CAVEATS: tuple[Caveat, ...] = (
    # the order of combining duplicates changes a float sum or product, never a max or min (signed zeros aside),
    # never an integer's wrap-around sum, and nothing where no index repeats
    Caveat(TORCH_CUDA_ORDER, reductions=ORDERED, dtypes="f", index_kinds=INDEXED),
    Caveat("float sums with duplicates may differ in the last bit (order)", reductions=ORDERED, dtypes="f",
           index_kinds=INDEXED),
    Caveat("float products with duplicates may differ in the last bit (order)", reductions=ORDERED, dtypes="f",
           index_kinds=INDEXED),
    Caveat("no bool for mean", reductions=frozenset({"mean"})),
    Caveat("max/min are spelled amax/amin", reductions=frozenset({"max", "min"})),
    Caveat("bool has no subtraction", reductions=frozenset({"sub"}), dtypes="b"),
    # a mask, a Where or a slice has no index tensor: nothing negative, out of range or repeated
    Caveat(topic="negative indices", index_kinds=INDEXED),
    Caveat(topic="out-of-range indices", index_kinds=INDEXED),
    Caveat(topic="duplicates", index_kinds=INDEXED),
    # the registry's runtime notes on the core operator (scatter_core RuntimeNote topics): a mask's NonZero rows
    # are distinct and in range, so its core ScatterND never meets what they describe
    Caveat(topic="duplicates-parallel", index_kinds=INDEXED),
    Caveat(topic="negative-index", index_kinds=INDEXED),
    Caveat(topic="index-range", index_kinds=INDEXED),
    Caveat(NUMPY_INDEXING_NEG, index_kinds=INDEXED),
    Caveat(NUMPY_INDEXING_OOR, index_kinds=INDEXED),
    Caveat(NUMPY_AT_DUPLICATES, index_kinds=frozenset({"nd", "axis"})),
    Caveat(TORCH_AUGMENTED_DUPLICATES, index_kinds=frozenset({"nd", "axis"})),
    Caveat(JAX_UNIQUE, index_kinds=INDEXED),
    Caveat(JAX_CLIP, index_kinds=INDEXED),
    Caveat(JAX_PROMISE, index_kinds=INDEXED),
    Caveat(JAX_NO_WRAP, index_kinds=INDEXED),
    Caveat(JAX_MASK_JIT, index_kinds=frozenset({"mask", "mask-axis"})),
    Caveat(WHERE_DTYPES, index_kinds=frozenset({"where", "mask", "mask-axis"})),
    Caveat(WHERE_BROADCAST, index_kinds=frozenset({"where"})),
) + ((Caveat(TORCH_INDEX_ADD_ALPHA, dtypes="f"),) if TORCH_INDEX_ADD_ALPHA else ())


ENTRIES: tuple[Entry, ...] = (
    # ------------------------------------------------------------------ PyTorch
    Entry("torch.scatter", "PyTorch", "torch.Tensor.scatter", "elements", "direct", _r(none=None),
          "data.scatter(axis, indices, updates)",
          _d(duplicates=TORCH_DUP_NONE, initial_value="n/a: replacement", integer_mean=NO_MEAN,
             negative_indices=TORCH_NEG_ERR, out_of_range_indices=TORCH_OOR,
             dtypes="indices must be int64; updates must have data's dtype"),
          "https://pytorch.org/docs/stable/generated/torch.Tensor.scatter_.html",
          function="scatter_elements", axis_arg=True),
    Entry("torch.scatter_add", "PyTorch", "torch.Tensor.scatter_add", "elements", "direct", _r(sum=None),
          "data.scatter_add(axis, indices, updates)",
          _d(duplicates="same: every duplicate is added", initial_value=INIT_ALWAYS, integer_mean=NO_MEAN,
             negative_indices=TORCH_NEG_ERR, out_of_range_indices=TORCH_OOR,
             dtypes="indices must be int64; float sums with duplicates may differ in the last bit (order); "
                    + TORCH_CUDA_ORDER),
          "https://pytorch.org/docs/stable/generated/torch.Tensor.scatter_add_.html",
          function="scatter_elements_add", axis_arg=True),
    Entry("torch.scatter_reduce", "PyTorch", "torch.Tensor.scatter_reduce", "elements", "direct",
          _r(sum="sum", prod="prod", max="amax", min="amin", mean="mean"),
          "data.scatter_reduce(axis, indices, updates, reduce, include_self=...)",
          _d(duplicates="same: every duplicate takes part in the reduction",
             initial_value="include_self=True is use_init_val = true; include_self=False is use_init_val = false "
                           "(written cells start from the updates alone; untouched cells keep data)",
             integer_mean="floors like the OpenVINO text and reference (the OpenVINO CPU plugin truncates)",
             negative_indices=TORCH_NEG_ERR, out_of_range_indices=TORCH_OOR,
             dtypes="indices must be int64; max/min are spelled amax/amin; no bool for mean; " + TORCH_CUDA_ORDER),
          "https://pytorch.org/docs/stable/generated/torch.Tensor.scatter_reduce_.html",
          function="scatter_elements_reduce", reduce_arg="reduce", init_arg="include_self", axis_arg=True),
    Entry("torch.index_put", "PyTorch", "torch.Tensor.index_put_", "nd", "direct", _r(none=False, sum=True),
          "data.index_put(tuple(indices.unbind(-1)), updates, accumulate=...)",
          _d(duplicates=TORCH_DUP_NONE + "; with accumulate=True every duplicate is added",
             initial_value=INIT_ALWAYS, integer_mean=NO_MEAN,
             negative_indices="allowed: PyTorch indexing counts negative indices from the end, as ONNX does",
             out_of_range_indices=TORCH_OOR, dtypes="indices int64 (or int32 since 2.0); updates in data's dtype"),
          "https://pytorch.org/docs/stable/generated/torch.Tensor.index_put_.html",
          function="scatter_nd_put", reduce_arg="accumulate"),
    Entry("torch.index_put.sub", "PyTorch", "torch.Tensor.index_put_ (negated updates)", "nd", "composition",
          _r(sub=None), "data.index_put(tuple(indices.unbind(-1)), -updates, accumulate=True)",
          _d(duplicates="same: every duplicate is subtracted", initial_value=INIT_ALWAYS, integer_mean=NO_MEAN,
             negative_indices="allowed: counted from the end, as ONNX does", out_of_range_indices=TORCH_OOR,
             dtypes="no unsigned negation in PyTorch for uint16/32/64; bool has no subtraction"),
          "https://pytorch.org/docs/stable/generated/torch.Tensor.index_put_.html",
          function="scatter_nd_sub"),
    Entry("torch.index_reduce", "PyTorch", "torch.Tensor.index_reduce_", "nd", "composition",
          _r(prod="prod", max="amax", min="amin"),
          "data.reshape(-1, *slice).index_reduce(0, linear_indices, updates.reshape(-1, *slice), reduce)",
          _d(duplicates="same: every duplicate takes part in the reduction",
             initial_value="include_self=True is the ONNX rule (the cell takes part)", integer_mean=NO_MEAN,
             negative_indices="the function adds the dimension size to negative values first",
             out_of_range_indices="the function raises IndexError itself: a linear index would otherwise "
                                  "silently land in another cell",
             dtypes="indices int64; max/min are spelled amax/amin"),
          "https://pytorch.org/docs/stable/generated/torch.Tensor.index_reduce_.html",
          function="scatter_nd_reduce", helpers=("linear_indices",), reduce_arg="reduce", init_arg="include_self",
          condition="k >= 1 (indices.shape[-1] >= 1)"),
    Entry("torch.index_copy", "PyTorch", "torch.Tensor.index_copy_", "update", "direct", _r(none=None),
          "data.index_copy(axis, indices.reshape(-1), updates reshaped to one slice per index)",
          _d(duplicates=TORCH_DUP_NONE, initial_value="n/a: replacement", integer_mean=NO_MEAN,
             negative_indices=TORCH_NEG_UPDATE,
             out_of_range_indices=TORCH_OOR, dtypes="indices must be int64"),
          "https://pytorch.org/docs/stable/generated/torch.Tensor.index_copy_.html",
          function="scatter_update", axis_arg=True),
    # ------------------------------------------------------------------ TensorFlow
    *(Entry(f"tf.{op}", "TensorFlow", f"tf.{op}", "nd", "direct", _r(**{red: f"tf.{op}"}),
            f"tf.{op}(data, indices, updates)",
            _d(duplicates=TF_DUP_NONE if red == "none" else "same: every duplicate takes part",
               initial_value=INIT_ALWAYS, integer_mean=NO_MEAN, negative_indices=TF_NEG,
               out_of_range_indices=TF_OOR, dtypes=TF_DTYPES_MAX_MIN if red in ("max", "min") else TF_DTYPES),
            f"https://www.tensorflow.org/api_docs/python/tf/{op}", function="scatter_nd",
            helpers=("normalise",), reduce_arg="op", reduce_is_function=True)
      for op, red in (("tensor_scatter_nd_update", "none"), ("tensor_scatter_nd_add", "sum"),
                      ("tensor_scatter_nd_sub", "sub"), ("tensor_scatter_nd_min", "min"),
                      ("tensor_scatter_nd_max", "max"))),
    Entry("tf.scatter_nd", "TensorFlow", "tf.scatter_nd", "nd", "composition", _r(sum=None),
          "data + tf.scatter_nd(indices, updates, tf.shape(data))",
          _d(duplicates="same: duplicates are summed", initial_value=INIT_ALWAYS + " (added to the scattered zeros)",
             integer_mean=NO_MEAN, negative_indices=TF_NEG, out_of_range_indices=TF_OOR,
             dtypes="no bool (scatter_nd sums); indices int32 or int64"),
          "https://www.tensorflow.org/api_docs/python/tf/scatter_nd", function="scatter_nd_into",
          helpers=("normalise",)),
    Entry("tf.unsorted_segment_prod", "TensorFlow", "tf.math.unsorted_segment_prod", "nd", "composition",
          _r(prod=None), "rows * tf.math.unsorted_segment_prod(update rows, linear indices, number of rows)",
          _d(duplicates="same: every duplicate is multiplied in", initial_value=INIT_ALWAYS, integer_mean=NO_MEAN,
             negative_indices="the function adds the dimension size to negative values first",
             out_of_range_indices="the function raises an error itself (a linear index would land in another cell)",
             dtypes="no bool; float products with duplicates may differ in the last bit (order)"),
          "https://www.tensorflow.org/api_docs/python/tf/math/unsorted_segment_prod", function="scatter_nd_prod",
          helpers=("normalise",)),
    Entry("tf.tensor_scatter_nd.elements", "TensorFlow", "tf.tensor_scatter_nd_* on element coordinates",
          "elements", "composition",
          _r(none="tf.tensor_scatter_nd_update", sum="tf.tensor_scatter_nd_add", prod="scatter_nd_prod",
             min="tf.tensor_scatter_nd_min", max="tf.tensor_scatter_nd_max"),
          "op(data, element coordinates of indices along axis, updates)",
          _d(duplicates=TF_DUP_NONE + "; reductions combine every duplicate",
             initial_value="use_init_val = false: the function first sets written cells to the reduction's "
                           "neutral value (init=...)",
             integer_mean=NO_MEAN, negative_indices=TF_NEG, out_of_range_indices=TF_OOR, dtypes=TF_DTYPES_MAX_MIN),
          "https://www.tensorflow.org/api_docs/python/tf/tensor_scatter_nd_update", function="scatter_elements",
          helpers=("normalise", "element_coordinates", "scatter_nd_prod"), reduce_arg="op", reduce_is_function=True,
          init_arg="init",
          axis_arg=True),
    Entry("tf.tensor_scatter_nd.mean", "TensorFlow", "tf.tensor_scatter_nd_add (sums and counts)", "elements",
          "composition", _r(mean=None), "(data? + tensor_scatter_nd_add(zeros, coords, updates)) / counts",
          _d(duplicates="same: every duplicate counts", initial_value="include_self=True adds the cell and one "
             "to the count (use_init_val = true)",
             integer_mean="floors (tf.math.floordiv) like the OpenVINO text; the OpenVINO CPU plugin truncates",
             negative_indices=TF_NEG, out_of_range_indices=TF_OOR, dtypes="no bool; indices int32 or int64"),
          "https://www.tensorflow.org/api_docs/python/tf/tensor_scatter_nd_add", function="scatter_elements_mean",
          helpers=("normalise", "element_coordinates"), init_arg="include_self", axis_arg=True),
    Entry("tf.tensor_scatter_nd_update.slices", "TensorFlow", "tf.tensor_scatter_nd_update (axis moved first)",
          "update", "composition", _r(none=None),
          "moveaxis(tf.tensor_scatter_nd_update(moveaxis(data, axis, 0), indices[..., None], moved updates), 0, axis)",
          _d(duplicates=TF_DUP_NONE, initial_value="n/a: replacement", integer_mean=NO_MEAN,
             negative_indices=TF_NEG_UPDATE,
             out_of_range_indices=TF_OOR, dtypes=TF_DTYPES),
          "https://www.tensorflow.org/api_docs/python/tf/tensor_scatter_nd_update", function="scatter_update",
          helpers=("normalise",), axis_arg=True),
    # ------------------------------------------------------------------ JAX
    Entry("jax.at.nd", "JAX", "x.at[idx].set / add / multiply / min / max", "nd", "direct",
          _r(none="set", sum="add", prod="multiply", min="min", max="max"),
          'data.at[tuple(indices[..., j] for j in range(k))].<method>(updates, mode="drop")',
          _d(duplicates=JAX_DUP_NONE + "; add/multiply/min/max combine every duplicate",
             initial_value=INIT_ALWAYS, integer_mean=NO_MEAN, negative_indices=JAX_NEG,
             out_of_range_indices=JAX_OOR, dtypes=JAX_DTYPES),
          "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html", function="scatter_nd",
          reduce_arg="method"),
    Entry("jax.at.nd.sub", "JAX", "x.at[idx].add(-updates)", "nd", "composition", _r(sub=None),
          'data.at[tuple(indices[..., j] for j in range(k))].add(-updates, mode="drop")',
          _d(duplicates="same: every duplicate is subtracted", initial_value=INIT_ALWAYS, integer_mean=NO_MEAN,
             negative_indices=JAX_NEG, out_of_range_indices=JAX_OOR,
             dtypes=JAX_DTYPES + "; unsigned negation wraps, which gives the same modular result"),
          "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html", function="scatter_nd_sub"),
    Entry("jax.at.elements", "JAX", "x.at[element index].set / add / multiply / min / max", "elements",
          "composition", _r(none="set", sum="add", prod="multiply", min="min", max="max"),
          'data.at[open grid of indices.shape with axis replaced by indices].<method>(updates, mode="drop")',
          _d(duplicates=JAX_DUP_NONE + "; add/multiply/min/max combine every duplicate",
             initial_value="use_init_val = false: the function first sets written cells to the reduction's "
                           "neutral value (init=...)",
             integer_mean=NO_MEAN, negative_indices=JAX_NEG, out_of_range_indices=JAX_OOR, dtypes=JAX_DTYPES),
          "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html", function="scatter_elements",
          helpers=("element_index",), reduce_arg="method", init_arg="init", axis_arg=True),
    Entry("jax.at.elements.mean", "JAX", "x.at[element index].add (sums and counts)", "elements", "composition",
          _r(mean=None), "(data? + zeros.at[where].add(updates)) / zeros.at[where].add(1)",
          _d(duplicates="same: every duplicate counts", initial_value="include_self=True adds the cell and one "
             "to the count (use_init_val = true)",
             integer_mean="floors (jnp.floor_divide) like the OpenVINO text; the OpenVINO CPU plugin truncates",
             negative_indices=JAX_NEG, out_of_range_indices=JAX_OOR, dtypes=JAX_DTYPES),
          "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html", function="scatter_elements_mean",
          helpers=("element_index",), init_arg="include_self", axis_arg=True),
    Entry("jax.at.update", "JAX", "x.at[:, ..., idx].set", "update", "direct", _r(none=None),
          'data.at[(slice(None),) * axis + (indices,)].set(updates, mode="drop")',
          _d(duplicates=JAX_DUP_NONE, initial_value="n/a: replacement", integer_mean=NO_MEAN,
             negative_indices=JAX_NEG, out_of_range_indices=JAX_OOR, dtypes=JAX_DTYPES),
          "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html", function="scatter_update",
          axis_arg=True),
    # ------------------------------------------------------------------ WebNN (not executed here)
    Entry("webnn.scatterElements", "WebNN", "MLGraphBuilder.scatterElements", "elements", "direct", _r(none=None),
          "builder.scatterElements(input, indices, updates, {axis})",
          _d(duplicates="the WebNN draft leaves the winner of duplicate indices implementation-defined",
             initial_value="n/a: replacement only", integer_mean=NO_MEAN, negative_indices=WEBNN_NEG,
             out_of_range_indices=WEBNN_OOR, dtypes=WEBNN_DTYPES),
          WEBNN_DOCS + "#api-mlgraphbuilder-scatterelements"),
    Entry("webnn.scatterND", "WebNN", "MLGraphBuilder.scatterND", "nd", "direct", _r(none=None),
          "builder.scatterND(input, indices, updates)",
          _d(duplicates="the WebNN draft leaves the winner of duplicate indices implementation-defined",
             initial_value="n/a: replacement only", integer_mean=NO_MEAN, negative_indices=WEBNN_NEG,
             out_of_range_indices=WEBNN_OOR, dtypes=WEBNN_DTYPES),
          WEBNN_DOCS + "#api-mlgraphbuilder-scatternd"),
    Entry("webnn.scatterND.slices", "WebNN", "MLGraphBuilder.scatterND (axis moved first)", "update",
          "composition", _r(none=None),
          "transpose(scatterND(transpose(input, axis first), reshape(indices, [..., 1]), transposed updates), back)",
          _d(duplicates="the WebNN draft leaves the winner of duplicate indices implementation-defined",
             initial_value="n/a: replacement only", integer_mean=NO_MEAN, negative_indices=WEBNN_NEG,
             out_of_range_indices=WEBNN_OOR, dtypes=WEBNN_DTYPES),
          WEBNN_DOCS + "#api-mlgraphbuilder-scatternd"),
    *(Entry(f"webnn.gather-combine-scatter.{fam}", "WebNN", f"gather{op} + add / mul / max / min / sub + scatter{op}",
            fam, "composition", _r(sum="add", prod="mul", max="max", min="min", sub="sub"),
            f"builder.scatter{op}(input, indices, builder.<op>(builder.gather{op}(input, indices{ax}), updates){ax})",
            _d(duplicates="not faithful with duplicate indices: each duplicate combines with the original cell and "
                          "one of them wins; WebNN has no scatter with a reduction",
               initial_value=INIT_ALWAYS, integer_mean=NO_MEAN, negative_indices=WEBNN_NEG,
               out_of_range_indices=WEBNN_OOR, dtypes=WEBNN_DTYPES),
            WEBNN_DOCS + f"#api-mlgraphbuilder-scatter{op.lower()}",
            condition="only when no two indices address the same cell")
      for fam, op, ax in (("elements", "Elements", ", {axis}"), ("nd", "ND", ""))),
    # ------------------------------------------------------------------ TensorScatter-24 (KV cache), all frameworks
    *(Entry(eid, fw, operation, "cache", "composition", _r(none=None), call,
            _d(duplicates=NO_DUPLICATES_CACHE, initial_value="n/a: replacement", integer_mean=NO_MEAN,
               negative_indices=neg, out_of_range_indices=oor, dtypes=dtypes),
            docs, function=None if fw == "WebNN" else "tensor_scatter", axis_arg=fw != "WebNN",
            attr_args=() if fw == "WebNN" else ("mode",))
      for eid, fw, operation, call, neg, oor, dtypes, docs in (
          ("torch.index_put.cache", "PyTorch", "torch.Tensor.index_put_ (sequence axis moved next to the batch axis)",
           "cache.movedim(axis, 1).index_put((batch[:, None], positions), update.movedim(axis, 1)).movedim(1, axis)",
           CACHE_NEG.format("PyTorch indexing"), CACHE_OOR.format("PyTorch raises IndexError, like onnxruntime"),
           "write_indices int64 (or int32); update in the cache's dtype",
           "https://pytorch.org/docs/stable/generated/torch.Tensor.index_put_.html"),
          ("tf.tensor_scatter_nd_update.cache", "TensorFlow",
           "tf.tensor_scatter_nd_update (sequence axis moved next to the batch axis)",
           "moveaxis(tf.tensor_scatter_nd_update(moveaxis(cache, axis, 1), stack([batch, positions], -1), "
           "moveaxis(update, axis, 1)), 1, axis)",
           "a negative write index (refused by onnxruntime and Scatter Explorer) is an error in "
           "tensor_scatter_nd_update, except in circular mode where the modulo makes it a position",
           CACHE_OOR.format(TF_OOR.replace("an error on CPU (InvalidArgumentError), like ONNX",
                                           "TensorFlow raises InvalidArgumentError on CPU")),
           TF_DTYPES.split(";")[0],
           "https://www.tensorflow.org/api_docs/python/tf/tensor_scatter_nd_update"),
          ("jax.at.cache", "JAX", "x.at[batch, positions].set (sequence axis moved next to the batch axis)",
           'moveaxis(moveaxis(cache, axis, 1).at[batch[:, None], positions].set(moveaxis(update, axis, 1), '
           'mode="drop"), 1, axis)',
           CACHE_NEG.format("JAX indexing"),
           CACHE_OOR.format('JAX silently drops the positions past the end (mode="drop"; mode="clip" would '
                            'overwrite the last one)'),
           JAX_DTYPES, "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html"),
          ("webnn.scatterND.cache", "WebNN", "MLGraphBuilder.scatterND (sequence axis moved next to the batch axis)",
           "transpose(scatterND(transpose(past_cache, sequence axis second), coordinates (b, (w[b] + s) mod L), "
           "transposed update), back)",
           WEBNN_NEG, WEBNN_OOR + "; linear mode past the end needs your own check",
           WEBNN_DTYPES + "; the draft has no integer modulo: build circular positions on the host or with "
           "sub / mul / div", WEBNN_DOCS + "#api-mlgraphbuilder-scatternd"))),
    # ------------------------------------------------------------------ SliceScatter-15, all frameworks
    Entry("torch.slice_scatter", "PyTorch", "torch.slice_scatter (one call per sliced axis, nested)", "slice",
          "composition", _r(none=None),
          "torch.slice_scatter(data, updates, dim, start, end, step): direct for one sliced axis with a positive "
          "step; nested once per further axis",
          _d(duplicates=NO_DUPLICATES_SLICE, initial_value="n/a: replacement", integer_mean=NO_MEAN,
             negative_indices="negative start / stop count from the end as in Slice-8; torch.slice_scatter "
                              "refuses a negative step (RuntimeError: slice step must be positive), so the "
                              "function walks the same positions forwards and flips updates along that axis",
             out_of_range_indices=SLICE_CLAMP.format("torch.slice_scatter clamps start and end the same way"),
             dtypes="any dtype; updates in data's dtype"),
          "https://pytorch.org/docs/stable/generated/torch.slice_scatter.html",
          function="slice_scatter", helpers=("nested_slice_scatter",), attr_args=SLICE_ATTRS),
    Entry("tf.raw_ops.TensorStridedSliceUpdate", "TensorFlow", "tf.raw_ops.TensorStridedSliceUpdate", "slice",
          "direct", _r(none=None), "tf.raw_ops.TensorStridedSliceUpdate(input=data, begin=..., end=..., strides=..., "
          "value=updates, begin_mask=..., end_mask=...) (mask bits: the axes taken whole)",
          _d(duplicates=NO_DUPLICATES_SLICE, initial_value="n/a: replacement", integer_mean=NO_MEAN,
             negative_indices="same: negative begin / end count from the end and negative strides walk "
                              "backwards, as in Slice-8",
             out_of_range_indices=SLICE_CLAMP.format("strided slices clamp begin and end the same way"),
             dtypes="begin / end / strides int32 or int64; updates in data's dtype; a raw op: TensorFlow has no "
                    "public tf.* wrapper for it (tf.Variable's [...].assign is the stateful alternative)"),
          "https://www.tensorflow.org/api_docs/python/tf/raw_ops/TensorStridedSliceUpdate",
          function="slice_scatter", attr_args=SLICE_ATTRS),
    Entry("jax.at.slice", "JAX", "x.at[slices].set", "slice", "direct", _r(none=None),
          "data.at[tuple of slice(start, stop, step) per axis].set(updates)",
          _d(duplicates=NO_DUPLICATES_SLICE, initial_value="n/a: replacement", integer_mean=NO_MEAN,
             negative_indices="same: Python slices count negative start / stop from the end and walk a negative "
                              "step backwards, as Slice-8 does",
             out_of_range_indices=SLICE_CLAMP.format("Python slices clamp the same way"), dtypes=JAX_DTYPES),
          "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html",
          function="slice_scatter", attr_args=SLICE_ATTRS),
    Entry("webnn.scatterND.slice", "WebNN", "MLGraphBuilder.scatterND (slice coordinates)", "slice", "composition",
          _r(none=None), "builder.scatterND(input, coordinates of every slice element (built on the host from "
          "start / stop / step), updates)",
          _d(duplicates=NO_DUPLICATES_SLICE, initial_value="n/a: replacement", integer_mean=NO_MEAN,
             negative_indices="no direct equivalent: WebNN's slice reads strided slices but nothing writes one; "
                              "negative start / stop / step are resolved while building the coordinates",
             out_of_range_indices=SLICE_CLAMP.format("the coordinates are built after clamping"),
             dtypes=WEBNN_DTYPES),
          WEBNN_DOCS + "#api-mlgraphbuilder-scatternd"),
)

BY_ID: Mapping[str, Entry] = MappingProxyType({e.id: e for e in ENTRIES})


@dataclass(frozen=True)
class Framework:
    """One framework's own record: how its code is imported and run, and how it reads a call (the rules where
    frameworks differ). Code elsewhere reads these fields and never branches on a framework's name."""

    name: str
    module: str | None = None  # the top-level module its code imports (None: no Python here, WebNN)
    distributions: tuple[str, ...] = ()  # the distributions that may install ``module`` (its version comes from one)
    import_line: str = ""  # the import a generated script starts with ("": NumPy, imported anyway)
    tensor_code: str = "{}"  # a NumPy array variable ({}) made the framework's tensor, in generated code
    alias: tuple[str, str] | None = None  # an exported test's (name, module) for pytest.importorskip
    impl: str | None = None  # its module of the records' functions (None: never executed here)
    convert: str | None = None  # how the exports' snippets turn a NumPy array into its tensor
    # its indexing applies an integer first, as a select (x[0, :, m] is x[0][:, m]); NumPy and JAX count an
    # integer among the advanced indices, so there a slice between it and m puts m's axis first
    integers_select_first: bool = False
    # it spreads an ellipsis into its slices before placing the advanced indices, so one that stands for no axis
    # separates nothing (torch: x[:, i, ..., m] on 3 axes is x[:, i, m]); NumPy and JAX count any ellipsis
    # between two advanced indices as a separator, even an empty one (their axes then come first)
    ellipsis_spread_first: bool = False
    # its functions' tensor sources (slice_scatter's src, index_add's source) take the written shape exactly,
    # never broadcast (its index assignment x[i] = v does broadcast)
    sources_exact: bool = False
    src_front_read: bool = False  # an elements call reads the front of a larger src (torch.scatter)
    axis_index_1d: bool = False  # a function's index along an axis is 1-D (index_add; not its index assignment)
    # an elements call (put_along_axis) broadcasts indices against the data on the other axes
    elements_indices_broadcast: bool = False
    assignment_also_runs_in: tuple[str, ...] = ()  # where its index assignment (x[i] = v) means the same
    calls_index: bool = False  # its calls write through an index form (x.at[idx]), so the form names the record
    shape_code: str = ""  # a shape argument stays a list, made its tensor by this line after the others
    spelling: tuple[str, str] | None = None  # how a function is named, as a method and as a function ({name})
    caveats: tuple[str, ...] = ()  # sentences every call of its indexing carries
    ufunc_at_caveat: str = ""  # the sentence for <ufunc>.at (its duplicates)
    # the sentences its index calls carry (a slice has no indices, so none): by the value of mode; by a flag
    # given with the value that needs words; on a boolean mask
    mode_sentences: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    flag_sentences: Mapping[str, tuple[bool, str]] = field(default_factory=lambda: MappingProxyType({}))
    mask_caveat: str = ""


FRAMEWORK_RECORDS: Mapping[str, Framework] = MappingProxyType({f.name: f for f in (
    # (a C-ordered copy: np.ascontiguousarray would make a 0-d array, select_scatter's src, 1-d)
    Framework("PyTorch", "torch", ("torch",), "import torch", "torch.from_numpy({}.copy(order='C'))",
              ("torch", "torch"), "framework_map.impl_torch", "torch.from_numpy", integers_select_first=True,
              ellipsis_spread_first=True, sources_exact=True, src_front_read=True, axis_index_1d=True,
              assignment_also_runs_in=("NumPy",), spelling=("torch.Tensor.{name}", "torch.{name}")),
    # (the CPU build is its own distribution: with only tensorflow-cpu installed, importlib.metadata knows no
    # "tensorflow")
    Framework("TensorFlow", "tensorflow", ("tensorflow", "tensorflow-cpu"), "import tensorflow as tf",
              "tf.constant({})", ("tf", "tensorflow"), "framework_map.impl_tensorflow", "tf.constant",
              shape_code="shape = tf.constant(shape)"),
    Framework("JAX", "jax", ("jax",), "import jax.numpy as jnp", "jnp.asarray({})", ("jnp", "jax.numpy"),
              "framework_map.impl_jax", "jnp.asarray", calls_index=True,
              mode_sentences=MappingProxyType({"clip": JAX_CLIP, "promise_in_bounds": JAX_PROMISE}),
              flag_sentences=MappingProxyType({"unique_indices": (True, JAX_UNIQUE),
                                               "wrap_negative_indices": (False, JAX_NO_WRAP)}),
              mask_caveat=JAX_MASK_JIT),
    Framework("NumPy", "numpy", ("numpy",), "", "np.array({})", elements_indices_broadcast=True,
              caveats=(NUMPY_INDEXING_NEG, NUMPY_INDEXING_OOR), ufunc_at_caveat=NUMPY_AT_DUPLICATES),
    Framework("WebNN"),  # no Python implementation: never executed here
)})
MODULES = {f.name: f.impl for f in FRAMEWORK_RECORDS.values() if f.impl}
# How each framework's snippet turns a NumPy array into its own tensor (the exports print this call).
CONVERT = {f.name: f.convert for f in FRAMEWORK_RECORDS.values() if f.convert}
