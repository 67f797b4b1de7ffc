"""ONNX models of more than one node, and the pytest that runs one on onnxruntime and onnx.reference.

A composition (From your code: a framework call no single ONNX operator computes) is written as plain data,
:class:`GraphNode` records in order, by whoever knows the composition (from_code.graph); this
module only builds the model (:func:`graph_model`, the multi-node sibling of ``single_node_model``) and the
exported test (:func:`model_pytest`), which grades a runtime's output with the same "any conforming output" rule
as the single-node pytest export (``builders._grading``: a duplicated cell's winner, a float sum's rounding).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

import scatter_core as sc

from .builders import SUPPORTED_DTYPES, ExportError, _grading, _need_onnx, array_literal, checked, model_proto


@dataclass(frozen=True)
class GraphNode:
    """One node: its operator type (default domain), input and output names, and attributes as onnx.helper
    takes them (ints, floats, strings, lists of ints)."""

    op_type: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    attrs: Mapping[str, object] = field(default_factory=dict)


def graph_model(nodes: Sequence[GraphNode], inputs: Sequence[tuple[str, np.ndarray]], output: str,
                output_like: np.ndarray, *, constants: Sequence[tuple[str, np.ndarray]] = (), opset: int,
                graph_name: str, producer: str = "scatter-explorer") -> bytes:
    """The serialized ONNX model of ``nodes`` (:func:`~scatter_export.builders.model_proto`: ``inputs`` graph
    inputs, ``constants`` initializers, the output ``output`` shaped like ``output_like``, exactly the
    default-domain ``opset``), checked by onnx's checker (full check, shape inference included) and serialized
    deterministically: the same arguments give the same bytes. Raises :class:`ExportError` where onnx is missing
    or the checker refuses the graph."""
    _need_onnx()
    from onnx import helper

    for name, arr in [*inputs, *constants]:
        if np.asarray(arr).dtype.name not in SUPPORTED_DTYPES:
            raise ExportError(f"{name} has dtype {np.asarray(arr).dtype}, which the ONNX export does not cover "
                              f"(supported: {', '.join(SUPPORTED_DTYPES)})", argument=name, rule="dtype")
    made = [helper.make_node(n.op_type, list(n.inputs), list(n.outputs), **dict(n.attrs)) for n in nodes]
    model = model_proto(made, list(inputs), output, output_like, constants=list(constants), opset=opset,
                        graph_name=graph_name, producer=producer)
    return checked(model, f"onnx refuses the graph {graph_name}").SerializeToString(deterministic=True)


def model_pytest(model: bytes, feeds: Sequence[tuple[str, np.ndarray]], case: sc.Case, *, title: str,
                 about: Sequence[str] = (), framework_test: Sequence[str] = (), rtol: float = 1e-6,
                 atol: float = 1e-9) -> str:
    """A self-contained pytest module running ``model`` on ``feeds`` in onnxruntime and in onnx.reference, each
    asserting ``case``'s output (EXPECTED, inlined). Where the spec leaves ``case``'s result open (a duplicated
    cell's winner, a float reduction's rounding) it accepts any conforming output, as :func:`pytest_case` does.

    ``about``: docstring lines; ``framework_test``: the body of one more test (indented, leaving its result in
    ``out`` as a NumPy array), e.g. the framework's own call, graded the same way. Generated from numbers and
    fixed names only."""
    expected = case.run()
    helpers, checks = _grading(case, float(rtol), float(atol))
    conforming = bool(helpers)  # EXPECTED's own check is a test of its own here
    checks = [line for line in checks if "assert_conforms(EXPECTED)" not in line]

    def test(name: str, body: list[str]) -> list[str]:
        return [f"def {name}():", *body, "    out = out.reshape(EXPECTED.shape)", *checks, "", ""]

    ort = ["    ort = pytest.importorskip(\"onnxruntime\")",
           "    session = ort.InferenceSession(MODEL, providers=[\"CPUExecutionProvider\"])",
           "    (out,) = session.run(None, FEEDS)",
           "    assert out.dtype == EXPECTED.dtype"]
    ref = ["    reference = pytest.importorskip(\"onnx.reference\")",
           "    (out,) = reference.ReferenceEvaluator(MODEL).run(None, FEEDS)",
           "    assert out.dtype == EXPECTED.dtype"]
    lines = [
        f'"""{title}', "", *about, "",
        "Run: python -m pytest <this file>  (needs numpy, onnxruntime and onnx)", '"""', "",
        "import base64", "", "import numpy as np", "import pytest", "",
        f"MODEL = base64.b64decode({base64.b64encode(model).decode('ascii')!r})",
        "FEEDS = {" + ", ".join(f"{name!r}: {array_literal(arr)}" for name, arr in feeds) + "}",
        f"EXPECTED = {array_literal(expected)}  # Scatter Explorer's result of the call",
        "", "",
        *helpers,
        *(["def test_the_expected_output_is_one_the_spec_allows():", "    assert_conforms(EXPECTED)", "", ""]
          if conforming else []),
        *test("test_onnxruntime_runs_the_model_to_the_expected_output", ort),
        *test("test_onnx_reference_runs_the_model_to_the_expected_output", ref),
        *(test("test_the_framework_call_gives_the_expected_output", list(framework_test)) if framework_test else []),
    ]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"

