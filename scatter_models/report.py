"""A captured node as a self-contained bug report: a zip a tracker issue can carry.

``bug_report(model, capture, name)`` -> zip bytes holding

* ``README.md``: the operator, attributes, shapes, where the node sits in the model, the run (runtime,
  version, seed, dims, calls), the findings on the real data and the runtime's output vs scatter_core's
  exact result cell by cell (with each differing cell's chain of writes);
* the existing exports of the case (``scatter_export``): a pytest test, a spec_examples JSON file, a
  NumPy loop and, for ONNX operators, a one-node ONNX model with its tensors;
* ``tensors.npz``: data, indices, updates, the runtime's output and the exact result.

Names from the model go into the Markdown inside code blocks only, so they are never read as Markdown.
"""

from __future__ import annotations

import io
import zipfile

import numpy as np

import scatter_core as sc

from . import support

MAX_CHAINS = 12
MAX_EXPORT_ELEMENTS = 100_000


def _block(text: str) -> str:
    """``text`` as a fenced block whose fence no line of the text can close."""
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}text\n{text}\n{fence}"


def _visible(text: str) -> str:
    """Control characters shown as escapes (a name may hold them)."""
    return "".join(ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
                   for ch in str(text))


RUNTIME_TEST = '''"""The output {source} gave for this {op} node, against scatter_core's exact result (both in
tensors.npz beside this file). It fails where the runtime differed from the spec's loop order: the bug this
report is about (where duplicated indices compete under reduction none, README.md says whether the spec
allows the runtime's output all the same). Needs only NumPy and pytest."""

from pathlib import Path

import numpy as np


def test_runtime_output_equals_the_exact_result():
    tensors = np.load(Path(__file__).resolve().parent / "tensors.npz")
    np.testing.assert_array_equal(tensors["runtime_output"], tensors["exact_output"])
'''


def comparison(record):
    """scatter_core's check of the runtime's output as the "expected" one (chains of writes per differing cell)."""
    case = record.case
    data, indices, updates = case.given()
    return sc.check_expected(case.spec, data, indices, updates, record.output, **dict(case.attrs))


def summary(model, capture, name: str) -> str:
    record = capture[name]
    node = model.node(name)
    case = record.case
    data, indices, updates = case.given()
    lines = [f"# Scatter node bug report: {case.op}", "",
             "Made by Scatter Explorer's \"Your model\" page from one run of the model. The files beside this one "
             "reproduce the node without the model.", "", "## The node", "",
             _block("\n".join([
                 f"model:      {_visible(model.where)}",
                 f"node:       {_visible(name)}" + (f" (named {_visible(node.original_name)!s} in the model)"
                                                    if node.original_name != name else ""),
                 f"where:      {_visible(node.location)}",
                 f"operator:   {case.op}",
                 f"attributes: {case.attr_text() or '(none)'}",
                 f"data:       {data.dtype} {sc.fmt_shape(data.shape)}",
                 f"indices:    " + ("(left out)" if indices is None else f"{indices.dtype} {sc.fmt_shape(indices.shape)}"),
                 f"updates:    {updates.dtype} {sc.fmt_shape(updates.shape)}",
             ])), "", "## The run", "",
             _block("\n".join([
                 f"runtime:        {support.runtime_name(capture.runtime, model.kind)} "
                 f"({capture.version or 'version unknown'})",
                 f"output from:    {record.output_source}",
                 f"calls:          {record.calls} (the tensors are the first call's)",
                 f"seed:           {capture.seed}",
                 "symbolic dims:  " + (", ".join(f"{_visible(d)}={v}" for d, v in capture.dims.items()) or "(none)"),
             ])), ""]
    findings = case.trace().findings
    lines += ["## Findings on the real data", ""]
    lines += [_block("\n".join(f"[{f.severity}] {f.message}" for f in findings)) if findings else "None.", ""]
    lines += ["## The runtime's output vs scatter_core's exact result", ""]
    if record.stood_in:
        lines += [f"No runtime output to compare: the output is from {record.output_source}. Run onnx_case.zip "
                  "on a runtime that has a kernel for the node to compare it.", ""]
        report = None
    else:
        report = comparison(record)
        verdict = report.summary.replace("Your expected output", f"The output from {record.output_source}")
        lines += [_block(verdict), ""]
    if report is not None and not report.matches:
        chains = [c.explain(f"{record.output_source} gave") for c in report.chains[:MAX_CHAINS]]  # each names its cell
        if len(report.mismatches) > MAX_CHAINS:
            chains.append(f"... and {len(report.mismatches) - MAX_CHAINS} more differing cells")
        lines += [_block("\n".join(chains)), ""]
    static = [f"[{f.severity}] {f.text}" + (f" (source: {f.source})" if f.source else "") for f in node.findings]
    if static:
        lines += ["## Static findings (from the model, before running)", "", _block("\n".join(static)), ""]
    lines += ["## Files", "", "- `tensors.npz`: data, indices, updates, runtime_output, exact_output",
              "- `test_case.py`: a pytest test in plain NumPy (expects scatter_core's exact result)",
              "- `test_runtime_output.py`: the runtime's captured output against the exact result, from "
              "`tensors.npz` (fails where the runtime differed)",
              "- `case.json`: the case as a spec_examples file", "- `loop.py`: the spec's loop in NumPy",
              "- `onnx_case.zip`: a one-node ONNX model with its tensors (ONNX operators)", ""]
    return "\n".join(lines)


def bug_report(model, capture, name: str) -> bytes:
    """The zip (see the module docstring)."""
    import scatter_export as se

    record = capture[name]
    case = record.case
    data, indices, updates = case.given()
    exact = case.run()
    attrs = dict(case.attrs)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("README.md", summary(model, capture, name))
        arrays = {"data": data, "updates": updates, "runtime_output": record.output, "exact_output": exact}
        if indices is not None:
            arrays["indices"] = indices
        npz = io.BytesIO()
        np.savez(npz, **arrays)
        z.writestr("tensors.npz", npz.getvalue())
        if not record.stood_in:
            z.writestr("test_runtime_output.py", RUNTIME_TEST.format(source=record.output_source, op=case.op))
        small = max(np.asarray(a).size for a in arrays.values()) <= MAX_EXPORT_ELEMENTS
        if small:
            for file, build in (("test_case.py", lambda: se.pytest_case(case.op, data, indices, updates, exact, attrs)),
                                ("case.json", lambda: se.example_json(case.op, data, indices, updates, exact, attrs)),
                                ("loop.py", lambda: se.numpy_loop(case.op, data, indices, updates, attrs))):
                try:
                    z.writestr(file, build())
                except (sc.ScatterError, ImportError) as exc:
                    z.writestr(file + ".txt", f"export failed: {exc}\n")
            if case.spec.framework == "ONNX":
                try:
                    z.writestr("onnx_case.zip", se.onnx_test_case(case.op, data, indices, updates, exact, attrs))
                except (sc.ScatterError, ImportError) as exc:
                    z.writestr("onnx_case.txt", f"no ONNX model: {exc}\n")
        else:
            z.writestr("exports.txt", f"The text exports are left out: a tensor has more than "
                                      f"{MAX_EXPORT_ELEMENTS:,} elements. tensors.npz holds every value.\n")
    return buf.getvalue()
