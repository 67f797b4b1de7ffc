"""Each runtime fact's check: small cases run on the installed runtimes, and what the fact says they give.

A fact's check is a tuple of :class:`Probe` records (data, not code: a runtime, an operator version, the
inputs, and the output, the error words or the crash the fact predicts). :func:`check` runs one fact's
probes and says whether the fact still holds, no longer holds, or could not run (a runtime is missing);
:func:`check_all` runs them all. ``scatter-explorer verify-facts`` and tests/runtimes/test_fact_checks.py both call
them. Importing this module imports no runtime.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Mapping

import numpy as np

import scatter_core

from .core import available, run
from .divergences import RuntimeCase
from .guarded import is_crash, run_guarded
from .pins import verified_versions

STATUSES = ("holds", "fails", "not run", "no check")
i8, i16, i32, i64, u64 = np.int8, np.int16, np.int32, np.int64, np.uint64
f16, f32, f64 = np.float16, np.float32, np.float64
B = np.array
NAN, INF = float("nan"), float("inf")
FLT_MAX = float(np.finfo(np.float32).max)


@dataclass(frozen=True)
class Probe:
    """One case on one runtime and what the fact predicts: ``output`` (values, NaN equal to NaN), ``error``
    (a regular expression the runtime's message must match), ``crash`` (the process dies; run in a child),
    ``core`` (the same bits as scatter_core's output) or ``accept`` (a predicate on the output, ``says``
    describing it)."""

    given: RuntimeCase  # the runtime and the case it is given (the core's Case, or the inputs as given)
    output: object = None
    error: str | None = None
    crash: bool = False
    core: bool = False
    accept: Callable[[np.ndarray], bool] | None = None
    says: str = ""
    guarded: bool = False  # run in a child process (a crash is possible)

    @property
    def runtime(self) -> str:
        return self.given.runtime

    @property
    def op(self) -> str:
        return self.given.spec.name

    def expectation(self) -> str:
        if self.crash:
            return "the process crashes"
        if self.error is not None:
            return f"refused with a message matching {self.error!r}"
        if self.core:
            return "scatter_core's output, bit for bit"
        if self.accept is not None:
            return self.says or "an output the fact allows"
        return f"output {np.asarray(self.output).tolist()}"

    def run(self) -> tuple[bool, str]:
        """(held, what happened) on the installed runtime."""
        g = self.given
        inputs, attrs = (g.data, g.indices, g.updates), dict(g.attrs)
        if self.crash or self.guarded:
            res = run_guarded(self.runtime, self.op, *inputs, **attrs)
        else:
            res = run(self.runtime, self.op, *inputs, **attrs)
        got = (f"crashed: {_first_line(res.error)}" if is_crash(res) else f"refused: {_first_line(res.error)}"
               if not res.ok else f"output {res.output.tolist()}")
        if self.crash:
            return is_crash(res), got
        if self.error is not None:
            return (not res.ok and not is_crash(res) and re.search(self.error, res.error or "") is not None), got
        if not res.ok:
            return False, got
        if self.core:
            want = g.case.run()
            same = want.dtype == res.output.dtype and want.shape == res.output.shape and \
                want.tobytes() == res.output.tobytes()
            return same, got
        if self.accept is not None:
            try:
                return bool(self.accept(res.output)), got
            except (ValueError, TypeError, IndexError):
                return False, got
        want = np.asarray(self.output, dtype=res.output.dtype)
        return (want.shape == res.output.shape
                and bool(np.array_equal(want, res.output, equal_nan=res.output.dtype.kind == "f"))), got


def _first_line(text: str | None, limit: int = 300) -> str:
    line = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    return line if len(line) <= limit else line[:limit] + " …"


@dataclass(frozen=True)
class LoopProbe:
    """An ONNX Loop whose condition input is left out (trip count 3; its body adds 5 at index 2 of a
    4-element accumulator), run whole on ``runtime``; ``output`` is the accumulator the fact predicts."""

    runtime: str
    output: tuple
    op: str = "Loop (ScatterElements-18 in its body)"

    def expectation(self) -> str:
        return f"output {list(self.output)}"

    def run(self) -> tuple[bool, str]:
        from onnx import TensorProto as T, helper as h

        body = h.make_graph(
            [h.make_node("ScatterElements", ["acc", "idx", "upd"], ["acc_out"], reduction="add"),
             h.make_node("Identity", ["cond_in"], ["cond_out"])], "body",
            [h.make_tensor_value_info("it", T.INT64, []), h.make_tensor_value_info("cond_in", T.BOOL, []),
             h.make_tensor_value_info("acc", T.FLOAT, [4])],
            [h.make_tensor_value_info("cond_out", T.BOOL, []), h.make_tensor_value_info("acc_out", T.FLOAT, [4])])
        inputs = [h.make_tensor_value_info("n", T.INT64, []), h.make_tensor_value_info("d", T.FLOAT, [4]),
                  h.make_tensor_value_info("idx", T.INT64, [1]), h.make_tensor_value_info("upd", T.FLOAT, [1])]
        graph = h.make_graph([h.make_node("Loop", ["n", "", "d"], ["final"], body=body)], "g", inputs,
                             [h.make_tensor_value_info("final", T.FLOAT, [4])])
        model = h.make_model(graph, opset_imports=[h.make_opsetid("", 18)], ir_version=8)
        feeds = {"n": np.array(3, i64), "d": f32([0, 0, 0, 0]), "idx": i64([2]), "upd": f32([5])}
        try:
            if self.runtime == "onnx.reference":
                from onnx.reference import ReferenceEvaluator

                got = ReferenceEvaluator(model).run(None, feeds)[0]
            else:
                import onnxruntime as ort

                session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
                got = session.run(None, feeds)[0]
        except Exception as exc:  # a runtime's own error, whatever its type, is what the check reports
            return False, f"refused: {_first_line(str(exc))}"
        return got.tolist() == list(self.output), f"output {got.tolist()}"


@dataclass(frozen=True)
class Result:
    """One fact's check on the installed runtimes: ``status`` is one of :data:`STATUSES`; ``details`` says, per
    probe, what was expected and what happened; ``versions``: runtime -> (installed, verified)."""

    fact: str
    status: str
    details: tuple[str, ...] = ()
    versions: Mapping[str, tuple[str | None, str | None]] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"fact": self.fact, "status": self.status, "details": list(self.details),
                "versions": {r: {"installed": i, "verified": v} for r, (i, v) in self.versions.items()}}


def _signs(*want: bool) -> Callable[[np.ndarray], bool]:
    return lambda out: tuple(bool(s) for s in np.signbit(out)) == want


def _nan_at_0(out: np.ndarray) -> bool:
    return bool(np.isnan(out[0]))


N = 5000
ZEROS2, RAMP = np.zeros(2, i32), np.arange(N, dtype=i32)
K0_DATA, K0_IDX, SEVENS = np.arange(4, dtype=i64).reshape(2, 2), np.zeros((2, 0), i64), np.full((2, 2, 2), 7, i64)
I64_BIG = i64([2**40 + 3, 5])
NAN_FIRST, NAN_LAST, NAN_DATA = ((f32([5, 1]), i64([0, 0]), f32([NAN, 3])), (f32([5, 1]), i64([0, 0]), f32([3, NAN])),
                                 (f32([NAN, 1]), i64([0]), f32([3])))
ND_NAN_FIRST, ND_NAN_DATA = (f32([5, 1]), i64([[0], [0]]), f32([NAN, 3])), (f32([NAN, 1]), i64([[0]]), f32([3]))
BOOL3 = (B([False, True, False]), B([True, False, True]))
F16_TWO = (f16([2048]), f16([1, 1]))
CACHE = np.arange(16, dtype=f32).reshape(2, 4, 2)  # TensorScatter-24: batch 2, max_sequence_length 4
UPDATE = -np.arange(1, 9, dtype=f32).reshape(2, 2, 2)
D35 = np.arange(15, dtype=f32).reshape(3, 5)
E, ND = {"axis": 0}, {}
OV = ("openvino-cpu", "openvino-reference")
ONNX = ("onnxruntime", "onnx.reference")
RANK5 = np.random.default_rng(5)
R5_DATA, R5_IDX, R5_UPD = (RANK5.integers(0, 9, (2,) * 5).astype(f32), RANK5.integers(0, 2, (2,) * 5).astype(i64),
                           RANK5.integers(1, 9, (2,) * 5).astype(f32))


def probe(runtime: str, op: str, data, indices, updates, attrs: Mapping | None = None, **want) -> Probe:
    """A :class:`Probe` of ``op`` on ``runtime``: the case checked by the core where it accepts the inputs."""
    return Probe(RuntimeCase.of(runtime, scatter_core.OPERATORS[op], data, indices, updates, attrs or {}), **want)


def _both(runtimes, op, data, indices, updates, attrs=None, **want) -> tuple[Probe, ...]:
    return tuple(probe(r, op, data, indices, updates, attrs, **want) for r in runtimes)


CHECKS: Mapping[str, tuple[Probe | LoopProbe, ...]] = {
    "onnx-ref-loop-without-condition": (LoopProbe("onnx.reference", (0, 0, 0, 0)),
                                        LoopProbe("onnxruntime", (0, 0, 15, 0))),
    "ort-scatter-9-negative-index": (probe("onnxruntime", "Scatter-9", f32([0, 0, 0]), i64([-1]), f32([1]),
                                           output=[0, 0, 1]),),
    "onnx-ref-no-scatter-kernel": (probe("onnx.reference", "Scatter-9", f32([0, 0, 0]), i64([1]), f32([1]),
                                         error="No registered implementation for operator 'Scatter'"),),
    "last-wins": (
        *_both(ONNX, "ScatterND-11", ZEROS2, np.zeros((N, 1), i64), RAMP, output=[N - 1, 0]),
        *_both(ONNX, "ScatterElements-11", ZEROS2, np.zeros(N, i64), RAMP, E, output=[N - 1, 0]),
        *_both(OV, "ScatterElementsUpdate-12", ZEROS2, np.zeros(N, i64), RAMP, E, output=[N - 1, 0]),
        probe("openvino-reference", "ScatterNDUpdate-15", ZEROS2, np.zeros((N, 1), i64), RAMP, output=[N - 1, 0]),
        probe("openvino-reference", "ScatterUpdate-3", ZEROS2, np.zeros(N, i64), RAMP, E, output=[N - 1, 0])),
    "scatter-11-refused": (probe("onnxruntime", "Scatter-11", f32([0, 0, 0]), i64([1]), f32([1]),
                                 error="deprecated in domain_version of 11"),),
    "ort-strict-dims": (
        probe("onnxruntime", "ScatterElements-18", np.zeros(2, i32), i64([0, 1, 1]), i32([1, 2, 3]), E,
              output=[1, 3]),
        probe("onnxruntime", "ScatterElements-18", np.zeros((2, 3), i32), i64([[0, 0, 0, 0]]), i32([[1, 2, 3, 4]]),
              E, error="Indices dim=4 at pos=1 is greater than input dim=3")),
    "ort-no-reduction-attr": (probe("onnxruntime", "ScatterElements-11", i32([1, 5]), i64([0, 0, 1]), i32([3, 2, 1]),
                                    {"axis": 0, "reduction": "add"}, error="Unrecognized attribute: reduction"),),
    "onnx-ref-lax": (probe("onnx.reference", "ScatterElements-18", i32([[1, 5], [2, 3]]), i64([[0, 1]]),
                           i32([[3, 4, 5]]), E, output=[[3, 5], [2, 4]]),),
    "ort-reduction-16": (
        probe("onnxruntime", "ScatterElements-16", i32([1, 5]), i64([0, 0, 1]), i32([3, 2, 1]),
              {"axis": 0, "reduction": "max"}, output=[3, 5]),
        probe("onnxruntime", "ScatterND-16", i32([1, 5]), i64([[0], [0], [1]]), i32([3, 2, 1]), {"reduction": "min"},
              output=[1, 1]),
        probe("onnxruntime", "ScatterElements-16", i32([1, 5]), i64([0, 0, 1]), i32([3, 2, 1]),
              {"axis": 0, "reduction": "sum"}, output=[2, 1])),
    "onnx-ref-reduction": (probe("onnx.reference", "ScatterElements-11", i32([1, 5]), i64([0, 0, 1]), i32([3, 2, 1]),
                                 {"axis": 0, "reduction": "add"}, output=[6, 6]),),
    "ort-f16": (
        probe("onnxruntime", "ScatterElements-16", F16_TWO[0], i64([0, 0]), F16_TWO[1], {"axis": 0, "reduction": "add"},
              error="MLFloat16 data type is not supported"),
        probe("onnx.reference", "ScatterND-16", F16_TWO[0], i64([[0], [0]]), F16_TWO[1], {"reduction": "add"},
              output=[2048])),
    "ort-reduction-18": (probe("onnxruntime", "ScatterND-18", i32([1, 5]), i64([[0], [0], [1]]), i32([3, 2, 1]),
                               {"reduction": "ADD"}, output=[2, 1]),),
    "ort-bool-maxmin": (
        probe("onnxruntime", "ScatterElements-18", BOOL3[0], i64([0, 0, 1]), BOOL3[1], {"axis": 0, "reduction": "max"},
              error="bool data type is not supported"),
        probe("onnx.reference", "ScatterElements-18", BOOL3[0], i64([0, 0, 1]), BOOL3[1],
              {"axis": 0, "reduction": "min"}, output=[False, True, False])),
    "ov-signed-zero": (  # data [-0, +0], updates [+0, -0]: signbit True where the cell's own zero stayed in cell 0
        probe("onnxruntime", "ScatterElements-18", f32([-0.0, 0.0]), i64([0, 1]), f32([0.0, -0.0]),
              {"axis": 0, "reduction": "max"}, accept=_signs(False, True), says="the update's zero"),
        probe("openvino-cpu", "ScatterElementsUpdate-12", f32([-0.0, 0.0]), i64([0, 1]), f32([0.0, -0.0]),
              {"axis": 0, "reduction": "max"}, accept=_signs(True, False), says="the cell's own zero"),
        probe("openvino-reference", "ScatterElementsUpdate-12", f32([-0.0, 0.0]), i64([0, 1]), f32([0.0, -0.0]),
              {"axis": 0, "reduction": "max"}, accept=_signs(False, True), says="the update's zero"),
        probe("openvino-reference", "ScatterNDUpdate-15", f32([-0.0, 0.0]), i64([[0], [1]]), f32([0.0, -0.0]),
              {"reduction": "max"}, accept=_signs(True, False), says="the cell's own zero"),
        probe("onnx.reference", "ScatterElements-18", f32([-0.0, 0.0]), i64([0, 1]), f32([0.0, -0.0]),
              {"axis": 0, "reduction": "max"}, accept=_signs(True, False), says="the cell's own zero")),
    "ort-nan": (
        probe("onnxruntime", "ScatterElements-18", *NAN_FIRST, {"axis": 0, "reduction": "max"}, output=[3, 1]),
        probe("onnxruntime", "ScatterElements-18", *NAN_LAST, {"axis": 0, "reduction": "max"}, output=[NAN, 1])),
    "onnx-ref-nan-elements": (
        probe("onnx.reference", "ScatterElements-18", *NAN_FIRST, {"axis": 0, "reduction": "max"}, output=[5, 1]),
        probe("onnx.reference", "ScatterElements-18", *NAN_DATA, {"axis": 0, "reduction": "max"}, output=[NAN, 1])),
    "onnx-ref-type-t": (probe("onnx.reference", "ScatterElements-18", f32([0, 0]), i64([0]), i64([3]), E,
                              output=[3, 0]),),
    "ort-nd-int64": (probe("onnxruntime", "ScatterND-18", np.zeros(2, i32), i32([[1]]), i32([1]),
                           error=r"Type 'tensor\(int32\)' of input parameter \(indices\)"),),
    "onnx-nd-k0": (*_both(ONNX, "ScatterND-11", K0_DATA, K0_IDX, SEVENS, output=[[7, 7], [7, 7]]),
                   probe("openvino-reference", "ScatterNDUpdate-3", K0_DATA, K0_IDX, SEVENS, output=[[7, 7], [7, 7]])),
    "ort-f16-nd-maxmin": (probe("onnxruntime", "ScatterND-18", F16_TWO[0], i64([[0], [0]]), F16_TWO[1],
                                {"reduction": "max"}, error="MLFloat16 data type is not supported with ScatterND"),),
    "onnx-ref-nan-nd": (probe("onnx.reference", "ScatterND-18", *ND_NAN_FIRST, {"reduction": "max"},
                              output=[NAN, 1]),),
    "ov-scatter-update-negative-rejected": (
        probe("openvino-cpu", "ScatterUpdate-3", np.zeros((2, 3), i32), i64([-1]), np.ones((1, 3), i32), E,
              error="points to non-existing output tensor element"),
        probe("openvino-reference", "ScatterUpdate-3", np.zeros((2, 3), i32), i64([-1]), np.ones((1, 3), i32), E,
              error="out of bounds")),
    "ov-cpu-scalar-indices": (
        probe("openvino-cpu", "ScatterUpdate-3", np.zeros((3, 4), i32), i64(1), i32([1, 2, 3, 4]), E,
              error="do not support scalar input"),
        probe("openvino-reference", "ScatterUpdate-3", np.zeros((3, 4), i32), i64(1), i32([1, 2, 3, 4]), E,
              output=[[0, 0, 0, 0], [1, 2, 3, 4], [0, 0, 0, 0]])),
    "ov-int64": (
        probe("openvino-cpu", "ScatterUpdate-3", I64_BIG, i64([1]), i64([1]), E, output=[3, 1]),
        probe("openvino-cpu", "ScatterNDUpdate-15", I64_BIG, i64([[1]]), i64([1]), output=[3, 1]),
        probe("openvino-onnx", "ScatterND-18", I64_BIG, i64([[1]]), i64([1]), output=[3, 1]),
        probe("openvino-reference", "ScatterUpdate-3", I64_BIG, i64([1]), i64([1]), E, output=[2**40 + 3, 1])),
    "ov-parallel-winner": (probe("openvino-cpu", "ScatterNDUpdate-15", ZEROS2, np.zeros((N, 1), i64), RAMP,
                                 accept=lambda o: o[1] == 0 and 0 <= o[0] < N, says="one of the writes wins"),),
    "ov-f64": (probe("openvino-cpu", "ScatterElementsUpdate-12", f64([0.1, 0.2]), i64([0]), f64([1e-10]),
                     {"axis": 0, "reduction": "sum"}, output=[float(f32(0.1)), float(f32(0.2))]),),
    "ov-cpu-scatter-update-rank1-negative": (
        probe("openvino-cpu", "ScatterUpdate-3", np.zeros(4, i32), i64([-1]), i32([7]), E, crash=True),
        probe("openvino-cpu", "ScatterUpdate-3", np.zeros(4, i32), i64([-4]), i32([7]), E, output=[0, 0, 0, 0],
              guarded=True),
        probe("openvino-cpu", "ScatterUpdate-3", np.zeros((4, 1), i32), i64([-1]), i32([[7]]), E,
              error="RuntimeError")),
    "ov-ref-scatter-update-offsets": (
        probe("openvino-reference", "ScatterUpdate-3", np.zeros((3, 2), f32), i64([[0], [1], [2]]),
              np.arange(1, 7, dtype=f32).reshape(3, 1, 2), E, output=[[1, 2], [2, 3], [3, 4]]),
        probe("openvino-cpu", "ScatterUpdate-3", np.zeros((3, 2), f32), i64([[0], [1], [2]]),
              np.arange(1, 7, dtype=f32).reshape(3, 1, 2), E, output=[[1, 2], [3, 4], [5, 6]])),
    "ov-ref-scatter-update-scalar-indices": (
        probe("openvino-reference", "ScatterUpdate-3", f32([1, 2]), i64(0), f32(5), E, error="_M_range_check"),),
    "ov-negative-accepted": (
        *_both(OV, "ScatterElementsUpdate-3", f32([0, 0, 0, 0]), i64([-1]), f32([1]), E, output=[0, 0, 0, 1]),
        *_both(OV, "ScatterNDUpdate-3", i64([1, 2, 3, 4]), i64([[0], [2], [-3]]), i64([10, 20, 30]),
               output=[10, 30, 20, 4])),
    "ov-nd-k0": (probe("openvino-cpu", "ScatterNDUpdate-3", K0_DATA, K0_IDX, SEVENS, output=[[0, 1], [2, 3]]),
                 probe("openvino-onnx", "ScatterND-11", K0_DATA, K0_IDX, SEVENS, output=[[0, 1], [2, 3]])),
    "ov-nd-scalar": (
        probe("openvino-cpu", "ScatterNDUpdate-15", np.zeros((2, 2), f32), i64([0, 1]), f32([7]),
              error=r"expectUpdateShape.size\(\) == updateRank"),
        probe("openvino-reference", "ScatterNDUpdate-15", np.zeros((2, 2), f32), i64([0, 1]), f32([7]),
              output=[[0, 7], [0, 0]])),
    "ov-ref-no-kernel-nd": tuple(
        probe("openvino-reference", "ScatterNDUpdate-15", np.array([1, 0, 1], d), i64([[0], [2]]), np.array([0, 1], d),
              error="Node.evaluate returned False") for d in ("int8", "int16", "uint8", "uint16", "float64")),
    "ov-reduction-case": (
        *_both(OV, "ScatterElementsUpdate-12", i32([1, 5]), i64([0, 0, 1]), i32([3, 2, 1]),
               {"axis": 0, "reduction": "SUM"}, output=[6, 6]),
        *_both(OV, "ScatterElementsUpdate-12", i32([1, 5]), i64([0, 0, 1]), i32([3, 2, 1]),
               {"axis": 0, "reduction": "bogus"}, error="is not a member of enum")),
    "ov-f16": (*_both(OV, "ScatterNDUpdate-15", F16_TWO[0], i64([[0], [0]]), F16_TWO[1], {"reduction": "sum"},
                      output=[2050]),
               probe("openvino-onnx", "ScatterND-16", F16_TWO[0], i64([[0], [0]]), F16_TWO[1], {"reduction": "add"},
                     output=[2050])),
    "ov-bool-nd": tuple(
        p for reduction, want in (("sum", [True, True, False]), ("prod", [False, True, False]),
                                  ("max", [True, True, False]), ("min", [False, True, False]))
        for p in _both(OV, "ScatterNDUpdate-15", BOOL3[0], i64([[0], [0], [1]]), BOOL3[1], {"reduction": reduction},
                       output=want)),
    "ov-bool-as-uint8": (
        probe("openvino-cpu", "ScatterNDUpdate-15", B([False, True, False]), i64([[0], [0], [1]]),
              B([True, True, True]), {"reduction": "sub"}, output=[True, False, False]),
        probe("openvino-cpu", "ScatterNDUpdate-15", B([False, True]), np.zeros((256, 1), i64), np.ones(256, bool),
              {"reduction": "sum"}, output=[False, True]),
        probe("openvino-reference", "ScatterNDUpdate-15", B([False, True]), np.zeros((256, 1), i64),
              np.ones(256, bool), {"reduction": "sum"}, output=[True, True])),
    "ov-cpu-nan": (
        probe("openvino-cpu", "ScatterElementsUpdate-12", *NAN_FIRST, {"axis": 0, "reduction": "max"}, output=[5, 1]),
        probe("openvino-cpu", "ScatterElementsUpdate-12", *NAN_DATA, {"axis": 0, "reduction": "max"},
              output=[NAN, 1]),
        probe("openvino-onnx", "ScatterElements-18", *NAN_FIRST, {"axis": 0, "reduction": "max"}, output=[5, 1])),
    "ov-ref-nan-nd": (
        probe("openvino-reference", "ScatterNDUpdate-15", *ND_NAN_FIRST, {"reduction": "max"}, output=[5, 1]),
        probe("openvino-reference", "ScatterNDUpdate-15", *ND_NAN_DATA, {"reduction": "max"}, output=[NAN, 1])),
    "ov-range-low": (
        probe("openvino-cpu", "ScatterElementsUpdate-12", np.zeros(4, i32), i64([-5]), i32([7]), E, crash=True),
        probe("openvino-onnx", "ScatterElements-18", np.zeros(4, i32), i64([-5]), i32([7]), E, crash=True)),
    "ov-alias-dims": (
        *_both(OV, "ScatterElementsUpdate-12", np.zeros((2, 3), i32), i64([[0, 0, 0, 0]]), i32([[1, 2, 3, 4]]), E,
               output=[[1, 2, 3], [4, 0, 0]]),
        probe("openvino-onnx", "ScatterElements-18", np.zeros((2, 3), i32), i64([[0, 0, 0, 0]]), i32([[1, 2, 3, 4]]),
              E, output=[[1, 2, 3], [4, 0, 0]])),
    "ov-axis-dim": _both(OV, "ScatterElementsUpdate-3", np.zeros(2, i32), i64([0, 1, 1]), i32([1, 2, 3]), E,
                         output=[1, 3]),
    "ov-range-low-silent": (
        probe("openvino-cpu", "ScatterElementsUpdate-12", i32([0, 5]), i64([-5]), i32([-3]), E, guarded=True,
              accept=lambda o: o.tolist() == [0, 5], says="returns with data unchanged"),),
    "ov-ref-no-kernel-elements": tuple(
        probe("openvino-reference", "ScatterElementsUpdate-12", np.array([1, 0, 1], d), i64([0, 2]),
              np.array([0, 1], d), E, error="Node.evaluate returned False") for d in ("int8", "uint8", "uint16",
                                                                                      "float64")),
    "ov-cpu-integer-mean": (
        probe("openvino-cpu", "ScatterElementsUpdate-12", i32([0]), i64([0]), i32([-3]),
              {"axis": 0, "reduction": "mean"}, output=[-1]),
        probe("openvino-reference", "ScatterElementsUpdate-12", i32([0]), i64([0]), i32([-3]),
              {"axis": 0, "reduction": "mean"}, output=[-2])),
    "ov-ref-mean-i8": (probe("openvino-reference", "ScatterElementsUpdate-12", i8([0]), i64([0]), i8([-3]),
                             {"axis": 0, "reduction": "mean"}, error="Node.evaluate returned False"),),
    "ov-bool-mean-refused": _both(OV, "ScatterElementsUpdate-12", B([False]), i64([0]), B([True]),
                                  {"axis": 0, "reduction": "mean"}, error="element::boolean"),
    "ov-init-flt-max": _both(OV, "ScatterElementsUpdate-12", f32([5, 1, 7]), i64([0, 0, 2]), f32([-INF, -INF, 2]),
                             {"axis": 0, "reduction": "max", "use_init_val": False}, output=[-FLT_MAX, 1, 2]),
    "ov-ref-nan-elements": (
        probe("openvino-reference", "ScatterElementsUpdate-12", *NAN_FIRST, {"axis": 0, "reduction": "max"},
              output=[3, 1]),
        probe("openvino-reference", "ScatterElementsUpdate-12", *NAN_LAST, {"axis": 0, "reduction": "max"},
              output=[NAN, 1])),
    "ov-cpu-uint64": (
        probe("openvino-cpu", "ScatterElementsUpdate-12", u64([2**40 + 5, 1]), i64([0]), u64([2**33]), E,
              output=[0, 1]),
        probe("openvino-reference", "ScatterElementsUpdate-12", u64([2**40 + 5, 1]), i64([0]), u64([2**33]), E,
              output=[2**33, 1])),
    "ov-cpu-mean-int16": (
        probe("openvino-cpu", "ScatterElementsUpdate-12", i16([32767, 0]), i64([0]), i16([32767]),
              {"axis": 0, "reduction": "mean"}, output=[32767, 0]),
        probe("openvino-reference", "ScatterElementsUpdate-12", i16([32767, 0]), i64([0]), i16([32767]),
              {"axis": 0, "reduction": "mean"}, output=[-1, 0])),
    "ts-ort-negative-write-index": (
        probe("onnxruntime", "TensorScatter-24", CACHE, i64([-1, 0]), UPDATE, {"mode": "circular"},
              error="is negative"),
        probe("onnx.reference", "TensorScatter-24", CACHE, i64([-1, 0]), UPDATE, accept=lambda o: np.array_equal(
            o, scatter_core.scatter("TensorScatter-24", CACHE, i64([3, 0]), UPDATE, mode="circular")),
            says="index -1 counted from the end (as 3)")),
    "ts-ref-index-range": (
        probe("onnx.reference", "TensorScatter-24", CACHE, i64([7, 0]), np.zeros((2, 0, 2), f32), output=CACHE),
        probe("onnxruntime", "TensorScatter-24", CACHE, i64([7, 0]), np.zeros((2, 0, 2), f32),
              error="exceeds max_sequence_length")),
    "ts-ref-write-indices-shape": (
        probe("onnx.reference", "TensorScatter-24", CACHE, i64([0, 0, 0]), UPDATE, accept=lambda o: o.shape == (2, 4, 2),
              says="an output (no shape check)"),
        probe("onnxruntime", "TensorScatter-24", CACHE, i64([0, 0, 0]), UPDATE, error="Dimension mismatch")),
    "ts-ref-int32-write-indices": (
        probe("onnx.reference", "TensorScatter-24", CACHE, i32([1, 2]), UPDATE, accept=lambda o: np.array_equal(
            o, scatter_core.scatter("TensorScatter-24", CACHE, i64([1, 2]), UPDATE)), says="int64's output"),
        probe("onnxruntime", "TensorScatter-24", CACHE, i32([1, 2]), UPDATE, error="Type Error")),
    "ov-onnx-frontend-no-tensor-scatter": (probe("openvino-onnx", "TensorScatter-24", CACHE, i64([0, 0]), UPDATE,
                                                 error="no conversion rule"),),
    "ov-onnx-frontend-kernels": (
        probe("openvino-onnx", "ScatterND-18", I64_BIG, i64([[1]]), i64([1]), output=[3, 1]),
        probe("openvino-onnx", "ScatterElements-18", f64([0.1, 0.2]), i64([0]), f64([1e-10]),
              {"axis": 0, "reduction": "add"}, output=[float(f32(0.1)), float(f32(0.2))]),
        probe("openvino-onnx", "ScatterND-16", F16_TWO[0], i64([[0], [0]]), F16_TWO[1], {"reduction": "add"},
              output=[2050])),
    "ov-onnx-frontend-reduction": (
        probe("openvino-onnx", "ScatterElements-11", i32([1, 5]), i64([0, 0, 1]), i32([3, 2, 1]),
              {"axis": 0, "reduction": "add"}, output=[6, 6]),
        probe("openvino-onnx", "ScatterND-16", i32([1, 5]), i64([[0], [0], [1]]), i32([3, 2, 1]),
              {"reduction": "max"}, output=[3, 5])),
    "ov-onnx-frontend-nd-int32-indices": (probe("openvino-onnx", "ScatterND-18", np.zeros(2, i32), i32([[1]]),
                                                i32([1]), output=[0, 1]),),
    "ts-circular-agree": _both(ONNX, "TensorScatter-24", CACHE, i64([3, 9]), UPDATE, {"mode": "circular"}, core=True),
    "ov-slice-scatter-slicing": (
        probe("openvino-cpu", "SliceScatter-15", D35, None, np.arange(100, 106, dtype=f32).reshape(3, 2),
              {"start": [4], "stop": [0], "step": [-2], "axes": [1]}, core=True),
        probe("openvino-cpu", "SliceScatter-15", D35, None, np.arange(100, 109, dtype=f32).reshape(3, 3),
              {"start": [-25], "stop": [25], "step": [2], "axes": [1]}, core=True)),
    "ov-slice-negative-step-start": _both(OV[:1], "SliceScatter-15", np.arange(3, dtype=f32), None,
                                          np.full(1, -7, f32), {"start": [-8], "stop": [-8], "step": [-1]},
                                          output=[-7, 1, 2]),
    "ov-ref-slice-scatter-no-kernel": (
        probe("openvino-reference", "SliceScatter-15", D35, None, np.zeros((3, 1), f32),
              {"start": [0], "stop": [1], "step": [1], "axes": [1]}, error="Node.evaluate returned False"),),
    "duplicates-parallel-order": (probe("openvino-cpu", "ScatterUpdate-3", ZEROS2, np.zeros(N, i64), RAMP, E,
                                        accept=lambda o: o[1] == 0 and 0 <= o[0] < N, says="one of the writes wins"),),
    "indices-rank-not-validated": (probe("onnx.reference", "ScatterElements-18", np.zeros((2, 3), i32), i64([0, 1]),
                                         i32([1, 2]), E, output=[[1, 1, 1], [2, 2, 2]]),),
    "nd-int32-indices-accepted": (probe("onnx.reference", "ScatterND-18", np.zeros(2, i32), i32([[1]]), i32([1]),
                                        output=[0, 1]),),
    "onnx-ref-nd-maxmin-tuple": tuple(
        probe("onnx.reference", "ScatterND-18", np.arange(6, dtype=f32).reshape(2, 3), i64([[0, 1], [1, 2], [0, 1]]),
              f32([9, -1, 2]), {"reduction": r}, core=True) for r in ("max", "min")),
    "onnx-ref-elements-mul-missing": (probe("onnx.reference", "ScatterElements-18",
                                            np.arange(1, 7, dtype=f32).reshape(2, 3), i64([[1, 0, 1], [1, 0, 1]]),
                                            f32([[2, 3, 4], [5, 6, 7]]), {"axis": 1, "reduction": "mul"},
                                            output=[[3, 16, 3], [24, 175, 6]]),),
    "onnx-ref-elements-rank-above-4": tuple(
        probe("onnx.reference", "ScatterElements-18", R5_DATA, R5_IDX, R5_UPD, {"axis": -1, "reduction": r}, core=True)
        for r in ("none", "add", "mul", "max", "min")),
    "ov-nd-update-15-example-1-duplicate": (
        probe("openvino-reference", "ScatterNDUpdate-15", np.arange(1, 9, dtype=i32), i32([[4], [3], [1], [7], [-2],
                                                                                           [-4]]),
              i32([9, 10, 11, 12, 13, 14]), {"reduction": "none"}, output=[1, 11, 3, 10, 14, 6, 13, 12]),),
    "ov-nd-update-15-prod-example": _both(OV, "ScatterNDUpdate-15", f32([1, 2, 3, 4]), i32([[0], [2], [-3], [-3], [0]]),
                                          f32([10, 20, 30, 40, 50]), {"reduction": "prod"}, output=[500, 2400, 60, 4]),
    "ov-nd-update-15-snippet-raises-always": _both(OV, "ScatterNDUpdate-15", f32([1, 2, 3, 4]),
                                                   i32([[0], [2], [-3], [-3], [0]]), f32([10, 20, 30, 40, 50]),
                                                   {"reduction": "min"}, output=[1, 2, 3, 4]),
}


def check(fact_id: str, checks: Mapping[str, tuple[Probe, ...]] | None = None) -> Result:
    """Run ``fact_id``'s probes on the installed runtimes (:func:`runtime_check.available`)."""
    fact = scatter_core.FACT_BY_ID.get(fact_id)
    if fact is None:
        raise KeyError(f"fact_id: {fact_id!r} is not a fact of scatter_core.FACTS")
    probes = (CHECKS if checks is None else checks).get(fact_id, ())
    installed, verified = available(), verified_versions()
    versions = {r: (installed.get(r), verified.get(r)) for r in dict.fromkeys(p.runtime for p in probes)}
    if not probes:
        return Result(fact_id, "no check", ("this fact has no check in runtime_check.fact_checks yet",), versions)
    missing = [r for r, (have, _) in versions.items() if not have]
    if missing:
        return Result(fact_id, "not run", tuple(f"{r} is not installed" for r in missing), versions)
    details, held = [], True
    for p in probes:
        ok, got = p.run()
        held = held and ok
        details.append(f"{'holds' if ok else 'FAILS'}: {p.runtime} {p.op}: expected {p.expectation()}; got {got}")
    return Result(fact_id, "holds" if held else "fails", tuple(details), versions)


def check_all(fact_ids=None, checks: Mapping[str, tuple[Probe, ...]] | None = None) -> list[Result]:
    """:func:`check` for every fact of the table (or ``fact_ids``), in table order."""
    ids = [f.id for f in scatter_core.FACTS] if fact_ids is None else list(fact_ids)
    return [check(i, checks) for i in ids]
