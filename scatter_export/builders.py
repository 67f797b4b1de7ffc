"""The export builders (see the package docstring)."""

from __future__ import annotations

import hashlib
import io
import json
import math
import zipfile
from dataclasses import dataclass

import numpy as np

import scatter_core as sc

SUPPORTED_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                    "float16", "float32", "float64")


class ExportError(sc.ScatterError):
    """The case cannot be exported in the format asked for (the message says why)."""


# -- the case -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Export:
    """What an export writes: the checked case and the output it expects (in data's dtype)."""

    case: sc.Case
    expected: np.ndarray

    @property
    def spec(self) -> sc.OpSpec:
        return self.case.spec

    @property
    def attrs(self):
        return self.case.attrs

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(data, indices, updates as given, expected)."""
        data, indices, updates = self.case.given()
        return data, indices, updates, self.expected


def _export(case: sc.Case, expected) -> Export:
    if not isinstance(case, sc.Case):
        raise ExportError(f"the exports take a scatter_core.Case, built by scatter_core.case(op, data, indices, "
                          f"updates, **attrs); got {type(case).__name__}", argument="case", rule="case")
    for role, arr in (("data", case.data), ("indices", case.indices)):
        if arr is not None and arr.dtype.name not in SUPPORTED_DTYPES:
            raise ExportError(f"{role} has dtype {arr.dtype}, which the exports do not cover", argument=role,
                              rule="dtype")
    expected = case.run() if expected is None else np.asarray(expected)
    if expected.shape != case.data.shape:
        raise ExportError(f"expected has shape {expected.shape} but the output has data's shape {case.data.shape}",
                          argument="expected", rule="shape")
    with np.errstate(all="ignore"):
        expected = expected.astype(case.data.dtype)
    return Export(case, expected)


# -- literals: numbers we format ourselves ------------------------------------------------------------
def _scalar(v, dtype=None) -> str:
    """A number as Python source; a float of a float ``dtype`` as the shortest text that reads back as the same
    value in that dtype (float32 1.1 is ``1.1``, not ``1.100000023841858``)."""
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, int):
        return str(int(v))
    f = float(v)
    if math.isnan(f):
        return "np.nan"
    if math.isinf(f):
        return "np.inf" if f > 0 else "-np.inf"
    if dtype is not None and np.dtype(dtype).kind == "f":
        return sc.float_literal(np.dtype(dtype).type(f))
    return repr(f)


def _nested(values, dtype=None) -> str:
    if isinstance(values, list):
        return "[" + ", ".join(_nested(v, dtype) for v in values) + "]"
    return _scalar(values, dtype)


def array_literal(arr: np.ndarray) -> str:
    """``np.array([...], dtype=np.int64)``: Python source for an array, built from its numbers only; read back,
    it holds the same values in the same dtype (every NaN a NaN: its sign and payload bits are not kept)."""
    arr = np.asarray(arr)
    if arr.dtype.name not in SUPPORTED_DTYPES:
        raise ExportError(f"cannot write a {arr.dtype} array", rule="dtype")
    body = _nested(arr.tolist(), arr.dtype)
    if arr.size == 0:
        return f"np.zeros({tuple(int(s) for s in arr.shape)!r}, dtype=np.{arr.dtype.name})"
    return f"np.array({body}, dtype=np.{arr.dtype.name})"


# -- the loop ---------------------------------------------------------------------------------------
def loop_source(case: sc.Case) -> str:
    """The reference loop: ``scatter_reference(data, indices, updates) -> output``.

    The loop itself is the family record's ``export_loop``; this adds the reduction."""
    dtype = case.data.dtype
    red = case.reduction
    combine = red.combiner(dtype)
    # the cells written so far: only a mean (which divides by their count) and use_init_val=false (which resets a
    # cell on its first write) read them; any other export carries no such dictionary
    counted = combine is not None and (red.divides or not case.use_init)
    lines = []
    if combine is None:
        lines += ["def apply(out, cell, value):",
                  "    out[cell] = value  # reduction none: each write replaces the cell (the last one wins)",
                  ""]
    elif not counted:
        lines += [f"COMBINE = np.{combine.__name__}  # reduction {case.attrs.get('reduction')!r}", "", "",
                  "def apply(out, cell, value):",
                  "    out[cell] = COMBINE(out[cell], value)  # data's value takes part", ""]
    else:
        lines += [f"COMBINE = np.{combine.__name__}  # reduction {case.attrs.get('reduction')!r}"]
        if not case.use_init:
            lines += [f"NEUTRAL = np.{dtype.name}({_scalar(np.asarray(red.neutral_for(dtype)).item())})"
                      "  # use_init_val=false: a targeted cell starts here"]
        lines += ["", "", "def apply(out, contributions, cell, value):",
                  "    if cell not in contributions:"]
        if case.use_init:
            lines += ["        contributions[cell] = 1  # data's value takes part"]
        else:
            lines += ["        contributions[cell] = 0", "        out[cell] = NEUTRAL"]
        lines += ["    contributions[cell] += 1", "    out[cell] = COMBINE(out[cell], value)", ""]
    lines += ["",
              "def scatter_reference(data, indices, updates):",
              f'    """{case.spec.name} ({case.attr_text()}): the spec\'s loop, one write at a time."""',
              f"    updates = updates.astype(data.dtype).reshape({tuple(case.plan.updates_shape)!r})",
              "    out = data.copy()"]
    lines += ["    contributions = {}"] if counted else []
    lines += ["    with np.errstate(all=\"ignore\"):  # integer wrap-around and float overflow are defined results"]
    loop = case.family.export_loop(case)  # its lines call apply(out, contributions, cell, value)
    lines += ["        " + (line if counted else line.replace("apply(out, contributions, ", "apply(out, "))
              for line in loop]
    if red.divides:
        lines += ["        for cell, n in contributions.items():  # mean: divide once at the end"]
        if dtype.kind in "iu":
            lines += ["            out[cell] = int(out[cell]) // n  # integers round down (toward -inf)"]
        else:
            lines += ["            out[cell] = out[cell] / out.dtype.type(n)"]
    lines += ["    return out", ""]
    return "\n".join(lines)


def _inputs(ex: Export, names=("DATA", "INDICES", "UPDATES", "EXPECTED")) -> str:
    arrays = ex.arrays()  # indices None: left out (TensorScatter) or not read at all (SliceScatter)
    return "\n".join(f"{n} = {'None' if a is None else array_literal(a)}" for n, a in zip(names, arrays)) + "\n"


def _test_name(case: sc.Case) -> str:
    return "test_" + "".join(ch if ch.isalnum() else "_" for ch in case.spec.name.lower()) + "_case"


def _open_order(case: sc.Case, rtol: float, atol: float) -> tuple[list[str], list[str]] | None:
    """For a case whose result depends on the order of the writes (``sc.open_cells``): the module-level
    lines (a comment saying why, the cells' candidate values or rounding slack, ``assert_conforms``) and the
    test's checks, which accept any output the spec allows. None when the order changes nothing."""
    trace = case.trace()
    opened = sc.open_cells(trace)
    winner = opened.kind == "winner"
    if not len(opened) or (winner and all(len(set(opened.candidates(i))) < 2 for i in range(len(opened)))):
        return None
    spelling = case.attrs.get("reduction") or "none"
    floats = case.data.dtype.kind == "f"
    if winner:
        same = (f"np.isclose(out[cell], v, rtol={rtol!r}, atol={atol!r}, equal_nan=True)" if floats
                else "out[cell] == v")
        rest = (f"np.testing.assert_allclose(out[rest], EXPECTED[rest], rtol={rtol!r}, atol={atol!r}, "
                "equal_nan=True)" if floats else "np.testing.assert_array_equal(out[rest], EXPECTED[rest])")
        if trace.reduction.name in case.spec.duplicates_forbidden_with:  # the text forbids these inputs
            lines = [
                f"# Several writes reach the cells below and the reduction is {spelling!r}: {case.spec.name}'s text",
                "# does not allow duplicate indices here, so it defines no output for these inputs. The loop above",
                "# keeps the last write in loop order, as real runtimes do today, but a kernel may keep any of",
                "# them, cell by cell. So the test accepts what a kernel may give: each of these cells holds one of",
                "# the values written to it, every other cell equals EXPECTED.",
            ]
        else:
            lines = [
                f"# Several writes reach the cells below and the reduction is {spelling!r}: the spec leaves open "
                "which",
                "# one wins. The loop above keeps the last one in loop order, as real runtimes do today, but a",
                "# conforming kernel may keep any of them, cell by cell. So the test accepts any conforming output:",
                "# each of these cells holds one of the values written to it, every other cell equals EXPECTED.",
            ]
        lines.append("CANDIDATES = {")
        lines += [f"    {opened.position(i)!r}: [{', '.join(_scalar(v) for v in opened.candidates(i))}],"
                  for i in range(len(opened))]
        lines += ["}", "", "",
                  "def assert_conforms(out):",
                  '    """``out`` is an output the spec allows for these inputs."""',
                  "    rest = np.ones(out.shape, dtype=bool)",
                  "    for cell, values in CANDIDATES.items():",
                  f"        assert any({same} for v in values), (",
                  '            f"output{list(cell)} = {out[cell]!r} is none of the values written there: {values}")',
                  "        rest[cell] = False",
                  f"    {rest}"]
        checks = ["    assert_conforms(EXPECTED)  # the expected output is one the spec allows",
                  "    assert_conforms(out)"]
        return lines, checks
    size = "product" if case.reduction.combiner(case.data.dtype) is np.multiply else "sum"
    lines = [
        f"# The spec does not fix the order in which a cell's contributions are combined, and a float {spelling!r}",
        "# rounds differently in another order. Any order lies within gamma(n) * S of the exact result (n roundings,",
        f"# gamma(n) = n*u / (1 - n*u), u = {float(np.finfo(case.data.dtype).eps) / 2!r} for {case.data.dtype}; "
        f"S the {size} of the contributions'",
        "# magnitudes), so two orders differ by at most twice that: SLACK below. The test accepts any conforming",
        "# output: these cells within SLACK more than the tolerance, every other cell within the tolerance.",
        "SLACK = {",
    ]
    lines += [f"    {opened.position(i)!r}: {_scalar(float(opened.slack[i]))}," for i in range(len(opened))]
    lines += ["}", "", "",
              f"def assert_conforms(out, rtol={rtol!r}, atol={atol!r}):",
              '    """``out`` is an output the spec allows for these inputs (NaN and ±inf must be the same)."""',
              "    room = np.zeros(out.shape)",
              "    for cell, slack in SLACK.items():",
              "        room[cell] = slack",
              "    a, b = out.astype(np.float64), EXPECTED.astype(np.float64)",
              "    with np.errstate(all=\"ignore\"):",
              "        near = np.abs(a - b) <= atol + rtol * np.abs(b) + room",
              "    same = (a == b) | (np.isnan(a) & np.isnan(b))",
              "    bad = np.argwhere(~(near | same))",
              "    assert bad.size == 0, (",
              '        f"output{bad[0].tolist()} = {a[tuple(bad[0])]!r}, expected {b[tuple(bad[0])]!r}")']
    return lines, ["    assert_conforms(out)"]


def _grading(case: sc.Case, rtol: float, atol: float) -> tuple[list[str], list[str]]:
    """How an exported test grades its ``out`` against EXPECTED: (module-level lines, the test's check lines).
    Where the spec leaves ``case``'s result open (:func:`_open_order`), any conforming output passes and the
    module lines define ``assert_conforms`` (its first check asserts EXPECTED itself conforms); otherwise
    integers must be equal and floats within the tolerance."""
    conformance = _open_order(case, rtol, atol)
    if conformance is not None:
        return conformance[0] + ["", ""], conformance[1]
    if case.data.dtype.kind == "f":
        return [], [f"    np.testing.assert_allclose(out, EXPECTED, rtol={rtol!r}, atol={atol!r}, equal_nan=True)"]
    return [], ["    np.testing.assert_array_equal(out, EXPECTED)"]


def pytest_case(case: sc.Case, expected=None, *, rtol: float = 1e-6, atol: float = 1e-9) -> str:
    """A pytest module checking the case with plain NumPy (no import of this project). Where the spec leaves
    the result open (a duplicated cell's winner, a float reduction's order), it accepts any output the spec
    allows and says why in a comment."""
    ex = _export(case, expected)
    helpers, check = _grading(case, float(rtol), float(atol))
    return "\n".join([
        f'"""{case.spec.name} ({case.attr_text()}): a scatter case exported by Scatter Explorer.',
        "",
        "Plain NumPy: the spec's loop is inlined below. Run with `python -m pytest <this file>`.",
        '"""',
        "",
        "import numpy as np",
        "",
        "",
        loop_source(case),
        "",
        _inputs(ex),
        "",
        *helpers,
        f"def {_test_name(case)}():",
        "    out = scatter_reference(DATA, INDICES, UPDATES)",
        "    assert out.shape == EXPECTED.shape",
        "    assert out.dtype == EXPECTED.dtype",
        *check,
        "",
    ])


def numpy_loop(case: sc.Case) -> str:
    """A short script that reproduces the output with NumPy alone and prints it."""
    ex = _export(case, None)
    return "\n".join([
        f'"""{case.spec.name} ({case.attr_text()}) as a plain NumPy loop (exported by Scatter Explorer)."""',
        "",
        "import numpy as np",
        "",
        "",
        loop_source(case),
        "",
        _inputs(ex, ("DATA", "INDICES", "UPDATES")).replace("\nEXPECTED", "\n# EXPECTED"),
        "",
        'if __name__ == "__main__":',
        "    print(repr(scatter_reference(DATA, INDICES, UPDATES)))",
        "",
    ])


def example_json(case: sc.Case, expected=None) -> str:
    """The case as a ``spec_examples`` data file with one teaching example (``"ours": true``)."""
    ex = _export(case, expected)
    data, indices, updates, expected = ex.arrays()
    dtypes = {"data": data.dtype.name, "indices": None if indices is None else indices.dtype.name,
              "updates": data.dtype.name}
    digest = hashlib.sha1(b"".join(a.tobytes() + repr(a.shape).encode() for a in ex.arrays() if a is not None)
                          + repr(sorted(case.attrs.items())).encode()).hexdigest()[:8]
    op_id = "".join(ch if ch.isalnum() else "-" for ch in case.spec.name.lower())
    attrs = {c.name: c.to_json(case.attrs[c.name]) for c in sc.codecs_of(case.spec)
             if case.attrs.get(c.name) is not None}  # an optional attribute left out is not written
    arrays = {role: "null" if arr is None else sc.json_array_text(arr)  # strict JSON: no NaN/Infinity tokens
              for role, arr in zip(("data", "indices", "updates", "expected"), (data, indices, updates, expected))}
    record = {
        "id": f"ours-{op_id}-{digest}",
        "title": f"{case.spec.name} case checked in Scatter Explorer ({case.attr_text()})",
        "op": case.spec.name,
        "label": "teaching case",
        "dtypes": dtypes,
        "data": "@@data@@",
        "indices": "@@indices@@",
        "updates": "@@updates@@",
        "attrs": attrs,
        "expected": "@@expected@@",
        "notes": "Exported from Scatter Explorer's 'Check expected output' page.",
        "ours": True,
    }
    doc = {"page": {"kind": "teaching", "title": "Scatter Explorer teaching cases",
                    "url": "spec_examples/data/teaching.json", "numbers": sc.JSON_NONFINITE_NOTE},
           "examples": [record]}
    text = json.dumps(doc, indent=2, allow_nan=False)
    for role in ("data", "indices", "updates", "expected"):  # arrays on one line each, as the data files have them
        text = text.replace(json.dumps(f"@@{role}@@"), arrays[role])
    return text + "\n"


# -- ONNX ----------------------------------------------------------------------------------------------
def onnx_model(case: sc.Case, expected=None) -> bytes:
    """The case as a serialized ONNX model: graph inputs data, indices, updates; graph output ``output``.

    Only ONNX operator versions that onnx's checker accepts can be built (not the deprecated
    Scatter-11, not OpenVINO operators): others raise :class:`ExportError`. The input and
    expected output tensors travel alongside, in :func:`onnx_test_case`.
    """
    return _build_model(_export(case, expected).case).SerializeToString()


def model_proto(nodes, inputs: list[tuple[str, np.ndarray]], output: str, output_like: np.ndarray, *,
                constants: list[tuple[str, np.ndarray]] = (), opset: int, graph_name: str,
                producer: str = "scatter-explorer"):
    """The one ONNX model builder: an ``onnx.ModelProto`` of ``nodes`` (``onnx.NodeProto``, in order).

    ``inputs`` are (name, array) pairs; each becomes a graph input (not an initializer, so nothing is
    constant-folded away) with the array's exact dtype and shape; ``constants`` become initializers. The output
    ``output`` has ``output_like``'s dtype and shape. The model imports exactly the default-domain ``opset``, with
    the smallest IR version that supports it. No check is run (see :func:`checked`). Needs ``onnx``."""
    from onnx import helper, numpy_helper

    def info(name, arr):
        return helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(np.asarray(arr).dtype),
                                             list(np.shape(arr)))

    # np.array, not np.ascontiguousarray: that makes a 0-d constant (Range's start) 1-d
    init = [numpy_helper.from_array(np.array(arr, order="C"), name) for name, arr in constants]
    graph = helper.make_graph(list(nodes), graph_name, [info(n, a) for n, a in inputs], [info(output, output_like)],
                              initializer=init)
    opset_id = helper.make_opsetid("", int(opset))
    return helper.make_model(graph, opset_imports=[opset_id], ir_version=helper.find_min_ir_version_for([opset_id]),
                             producer_name=producer)


def single_node_model(spec: sc.OpSpec, inputs: list[tuple[str, np.ndarray]], node_attrs: dict, *,
                      graph_name: str | None = None, producer: str = "scatter-explorer"):
    """An ``onnx.ModelProto`` with one node of ``spec.op_type`` (:func:`model_proto`).

    ``inputs`` are (name, array) pairs in the node's order (graph inputs, data first); ``node_attrs`` go onto
    the node exactly as given (the caller decides what to write). The output ``output`` has data's dtype and
    shape; the opset is ``spec.version``. No check is run: :func:`onnx_model` runs onnx's checker,
    ``runtime_check`` deliberately does not (the point there is what the runtime does). Needs ``onnx``.
    """
    from onnx import helper

    node = helper.make_node(spec.op_type, [name for name, _ in inputs], ["output"], **node_attrs)
    return model_proto([node], inputs, "output", inputs[0][1], opset=spec.version, producer=producer,
                       graph_name=graph_name or f"{spec.name.replace('-', '_')}_single_node")


MAX_IR_VERSION = 10  # what the pinned onnxruntime reads


def checked(model, refusal: str):
    """``model`` with the IR version the pinned onnxruntime reads, after onnx's checker (full check, shape
    inference included) accepts it; else :class:`ExportError` "<refusal>: <the checker's first line>"."""
    import onnx

    model.ir_version = min(onnx.IR_VERSION, MAX_IR_VERSION)
    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as exc:  # noqa: BLE001 - onnx raises several checker/inference error types
        raise ExportError(f"{refusal}: {str(exc).strip().splitlines()[0][:300]}", argument="op",
                          rule="onnx-export") from None
    return model


def _build_model(case: sc.Case):
    spec = case.spec
    if spec.framework != "ONNX":
        raise ExportError(f"{spec.name} is an {spec.framework} operator; only ONNX operators can be exported as "
                          f"an ONNX model", argument="op", rule="onnx-export")
    _need_onnx()
    node_attrs = {}
    for a in spec.attributes:
        if a.is_input:
            continue
        value = case.attrs.get(a.name)
        if value is not None:
            node_attrs[a.name] = sc.codec_of(spec, a).to_onnx(value)  # what onnx.helper.make_attribute takes
    model = single_node_model(spec, _node_inputs(case), node_attrs, graph_name=f"{spec.op_type.lower()}_case",
                              producer="scatter-explorer")
    return checked(model, f"onnx cannot build {spec.name} for this case")


def _need_onnx() -> None:
    try:
        import onnx  # noqa: F401
    except ImportError:
        raise ExportError("the ONNX export needs the onnx package (pip install -e '.[runtimes]')",
                          argument="op", rule="onnx-missing") from None


def _node_inputs(case: sc.Case) -> list[tuple[str, np.ndarray]]:
    """(name, array) of the node's inputs in the record's order (``OpSpec.inputs``: TensorScatter-24 takes
    past_cache, update, write_indices); an optional indices input the case left out is left out."""
    given = {"data": case.data, "indices": case.given()[1], "updates": case.updates}  # updates in the plan's shape
    return [(i.name, given[i.role]) for i in case.spec.inputs if given[i.role] is not None]


def onnx_test_case(case: sc.Case, expected=None) -> bytes:
    """A zip: ``model.onnx`` plus ``test_data_set_0/input_{0,1,2}.pb`` and ``output_0.pb`` (the expected output)."""
    ex = _export(case, expected)
    model = _build_model(case)
    from onnx import numpy_helper

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("model.onnx", model.SerializeToString())
        tensors = tuple((f"input_{j}", name, arr) for j, (name, arr) in enumerate(_node_inputs(case))) + (
            ("output_0", "output", ex.expected),)
        for fname, name, arr in tensors:
            z.writestr(f"test_data_set_0/{fname}.pb", numpy_helper.from_array(np.ascontiguousarray(arr), name)
                       .SerializeToString())
    return buf.getvalue()
