"""A translated call on tensors: run in its framework in a guarded child process, and exported as a pytest.

* ``installed(framework)``: whether the framework's module can be imported here (nothing is imported).
* ``run_guarded(tr, tensors, framework=None, timeout=120)``: the framework's own call in a child Python, like
  runtime_check's guarded runs: the tensors travel as an ``.npz`` read back with ``allow_pickle=False``, the
  call as :func:`framework_script`'s generated script (fixed names and literals we read, never the user's
  text). A crash, a hang or the framework's own error comes back as ``Outcome(ok=False)`` with a message.
* ``operator_export(tr, tensors)``: a one-operator call's ONNX model and its pytest (the model on onnxruntime and
  onnx.reference against scatter_core's result, and the framework's own call where it is installed);
  ``composition_export``: the same for a composition (from_call_graph's graph).
"""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import scatter_core as sc

from .translate import Translation
from framework_map.records import FRAMEWORK_RECORDS
from .case import (MODULE_OF, agrees, case_for, framework_code, framework_inputs, framework_script, resolve,
                             runs_in)

MAX_STDERR = 1200


def installed(framework: str) -> bool:
    return importlib.util.find_spec(MODULE_OF[framework]) is not None


@dataclass(frozen=True)
class Outcome:
    framework: str
    ok: bool
    output: np.ndarray | None = None
    error: str | None = None
    verdict: str | None = None  # agrees(): "exact", "other-winner", what differs, or "the translation refuses: ..."
    version: str | None = None


def run_guarded(tr: Translation, tensors, framework: str | None = None, timeout: float = 120) -> Outcome:
    """Run the call in ``framework`` (default: its own) in a child process and compare with scatter_core."""
    if tr.readings:
        try:
            tr = resolve(tr, tensors)
        except sc.ScatterError as exc:
            return Outcome(framework or tr.framework, False, error=str(exc))
    fw = framework or tr.framework
    if fw not in runs_in(tr):
        return Outcome(fw, False, error=f"{tr.function} does not run in {fw}")
    if not installed(fw):
        return Outcome(fw, False, error=f"{fw} is not installed here")
    try:
        cc, refused = case_for(tr, tensors), None
    except sc.ScatterError as exc:  # the framework still runs: what it does with them is the point (JAX drops ...)
        cc, refused = None, str(exc)
    with tempfile.TemporaryDirectory(prefix="from_call_") as tmp:
        directory = Path(tmp)
        arrays = framework_inputs(tr, tensors)
        if any(a.dtype == object for a in arrays.values()):
            return Outcome(fw, False, error="object arrays are not handed to the worker")
        np.savez(directory / "inputs.npz", **arrays)
        (directory / "run_call.py").write_text(framework_script(tr, fw), encoding="utf-8")
        env = dict(os.environ)
        env.setdefault("JAX_PLATFORMS", "cpu")
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        proc = subprocess.Popen([sys.executable, "run_call.py"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, cwd=tmp, env=env)
        try:
            _, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return Outcome(fw, False, error=f"{fw} timed out after {timeout:g} s")
        if proc.returncode < 0:
            try:
                name = signal.Signals(-proc.returncode).name
            except ValueError:
                name = f"signal {-proc.returncode}"
            return Outcome(fw, False, error=f"{fw} crashed ({name})")
        answer = directory / "result.json"
        if not answer.exists():
            tail = stderr.decode("utf-8", "replace").strip()[-MAX_STDERR:]
            return Outcome(fw, False, error=f"{fw} worker exited with code {proc.returncode} without an answer"
                           + (f"; stderr: {tail}" if tail else ""))
        result = json.loads(answer.read_text(encoding="utf-8"))
        if not result["ok"]:
            return Outcome(fw, False, error=result["error"], version=result.get("version"))
        with np.load(directory / "output.npz", allow_pickle=False) as npz:
            output = npz["output"]
    verdict = agrees(cc, output, tr.reading.canonical) if cc is not None else f"the translation refuses: {refused}"
    return Outcome(fw, True, output, verdict=verdict, version=result.get("version"))


# ----------------------------------------------------------------------------- the exported tests
def framework_test_lines(tr: Translation, tensors) -> list[str]:
    """A test body's lines (indented) running the framework's call on ``tensors`` (skipped where the framework
    is not installed), leaving its result in ``out``: the tensors as literals, then :func:`framework_code`."""
    from scatter_export.builders import array_literal

    alias = FRAMEWORK_RECORDS[tr.framework].alias
    skip = [f"    {alias[0]} = pytest.importorskip({alias[1]!r})"] if alias else []
    code = [line for line in framework_code(tr).strip().splitlines() if not line.startswith("import ")]
    return [*skip, *(f"    {name} = {array_literal(arr)}" for name, arr in framework_inputs(tr, tensors).items()),
            *("    " + line for line in code)]


@dataclass(frozen=True)
class CompositionExport:
    """A composition's exports on one set of tensors: the ONNX model, the pytest running it, and what it is."""

    model: bytes
    pytest: str
    summary: str  # "The ONNX model is N nodes (...): why" (plain text)
    nodes: int


def composition_export(tr: Translation, tensors) -> CompositionExport:
    """The ONNX model of ``tr``'s composition (from_call_graph) and a self-contained pytest running it on
    onnxruntime and onnx.reference against the translation's result, and the framework's own call where it is
    installed, each graded by the single-node export's conformance rule. Raises ScatterError where the call is
    one ONNX operator (:func:`equivalence_pytest` exports it) or the tensors make no case."""
    import textwrap

    from scatter_export.graphs import model_pytest

    from .graph import composition_graph

    if tr.readings:
        tr = resolve(tr, tensors)
    graph = composition_graph(tr, tensors)
    model = graph.model()
    cc = graph.call_case
    about = ["Exported by Scatter Explorer's From your code page. The call, with fixed variable names:",
             *("    " + line for line in tr.call.splitlines()), "",
             *textwrap.wrap(graph.summary, 110), "",
             *textwrap.wrap(f"EXPECTED is Scatter Explorer's result of the call ({cc.case.spec.name}, "
                            f"{cc.case.attr_text()}" + (f"; {cc.note}" if cc.note else "") + ").", 110)]
    count = f"{len(graph.nodes)} node{'s' if len(graph.nodes) != 1 else ''}"
    code = model_pytest(model, graph.feeds, cc.case, title=f"{tr.function} ({tr.framework}) as an ONNX model of "
                        f"{count}, on onnxruntime and onnx.reference.", about=about,
                        framework_test=framework_test_lines(tr, tensors))
    return CompositionExport(model, code, graph.summary, len(graph.nodes))


def operator_export(tr: Translation, tensors) -> CompositionExport:
    """A one-operator call's exports on these tensors: the ONNX model of its one node (onnx's full checker
    accepts it) and a pytest whose tests need onnxruntime or onnx alone (the model on each, against EXPECTED:
    scatter_core's result recorded at export time), plus one test running the framework's own call, which skips
    only where that framework is missing. An ambiguous call is first resolved by the tensors (a bool tensor: a
    mask). Raises :class:`scatter_core.ScatterError` when the case's operator is not an ONNX one (then no ONNX
    model can stand for the call). Generated from numbers and names we format, never from the user's text."""
    import textwrap

    from scatter_export import onnx_model
    from scatter_export.graphs import model_pytest

    if tr.readings:
        tr = resolve(tr, tensors)
    cc = case_for(tr, tensors)
    spec = cc.case.spec
    if spec.framework != "ONNX":
        raise sc.ScatterError(f"no ONNX operator computes this call; its case is {spec.name} ({spec.framework}), "
                              "so the exported test would have no ONNX model to compare with",
                              argument="export", rule="onnx-export")
    data, indices, updates = cc.case.given()
    model = onnx_model(cc.case)
    by_role = {"data": data, "indices": indices, "updates": updates}
    feeds = [(i.name, by_role[i.role]) for i in spec.inputs if by_role[i.role] is not None]
    attrs = ", ".join(f"{k}={v!r}" for k, v in cc.case.attrs.items() if v is not None)
    summary = f"The ONNX model is one {spec.name} node ({attrs}), opset {spec.version}."
    about = ["Exported by Scatter Explorer's From your code page. The call, with fixed variable names:",
             *("    " + line for line in tr.call.splitlines()), "",
             *textwrap.wrap(summary + (f" Its inputs: {cc.note}." if cc.note else ""), 110), "",
             *textwrap.wrap(f"EXPECTED is Scatter Explorer's result of the call ({spec.name}, {cc.case.attr_text()}), "
                            "recorded at export time: the model's tests need onnxruntime or onnx only; the "
                            f"framework's own call runs where {MODULE_OF[tr.framework]} is installed.", 110)]
    code = model_pytest(model, feeds, cc.case, title=f"{tr.function} ({tr.framework}) as the ONNX model of one "
                        f"{spec.op_type} node, on onnxruntime and onnx.reference.", about=about,
                        framework_test=framework_test_lines(tr, tensors))
    return CompositionExport(model, code, summary, 1)


def equivalence_pytest(tr: Translation, tensors) -> str:
    """The pytest of :func:`operator_export` (kept for callers that want the text only)."""
    return operator_export(tr, tensors).pytest
