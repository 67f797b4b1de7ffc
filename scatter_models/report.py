"""A captured node as a self-contained bug report: a zip a tracker issue can carry.

``bug_report(model, capture, name)`` -> zip bytes holding a ``README.md`` (the node, the run, the findings on
the real data, where the runtime differs from the spec's loop with each differing cell explained, the
cross-check of every installed runtime, and exactly the files the zip holds), the case's exports
(``scatter_export``: pytest, JSON, NumPy loop, an ONNX model for ONNX operators), for OpenVINO operators the
node alone as an IR with ``test_openvino.py``, and ``tensors.npz``.

Names from the model go into the Markdown inside code blocks only, so they are never read as Markdown.
The files in full: docs/architecture.md, scatter_models/report.py.
"""

from __future__ import annotations

import io
import zipfile

import numpy as np

import scatter_core as sc

from . import explain, support

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
    return sc.check_expected(record.case, record.output)


def _fact_runtime(model, capture) -> str | None:
    return support.fact_runtime(capture.runtime, model.kind)


def cell_lines(model, capture, record, report) -> list[str]:
    """Each differing cell in words (a mean as the sum over the count, then the rounding), then, once, the
    runtime facts about integer means that name the runtime."""
    gave = f"{support.runtime_short(capture.runtime, model.kind)} gave" if not record.stood_in else "it gave"
    lines = [explain.cell_words(c, record.case, gave) for c in report.chains[:MAX_CHAINS]]  # each names its cell
    if len(report.mismatches) > MAX_CHAINS:
        lines.append(f"... and {len(report.mismatches) - MAX_CHAINS} more differing cells")
    return lines + explain.mean_facts(record.case, _fact_runtime(model, capture))


def crosscheck_lines(case, runtimes=None) -> list[str]:
    """The node's tensors run on every installed runtime that runs its operator (each in a child process),
    each against scatter_core's exact result: equal bit for bit, differing cells (with the runtime fact that
    explains them), or the refusal."""
    import runtime_check as rc

    data, indices, updates = case.given()
    lines = []
    for c in rc.compare(case.op, data, indices, updates, runtimes=runtimes, **dict(case.attrs)):
        who = f"{rc.RUNTIME_TITLES.get(c.runtime, c.runtime)} {c.version or ''}".strip()
        if c.agree:
            lines.append(f"{who}: equal to the exact result, bit for bit" if c.runtime_ok else
                         f"{who}: refuses it, as the spec does")
        elif c.outcome == "value":
            lines.append(f"{who}: differs on {c.n_cells:,} cell{'s' if c.n_cells != 1 else ''}"
                         + (f" (a known difference: {c.divergence_text})" if c.divergence_text else
                            " (no runtime fact explains it)"))
        elif c.outcome == "refused":
            lines.append(f"{who}: refuses it: {support.plain(c.runtime_error or '', 300)}")
        else:
            lines.append(f"{who}: {c.outcome}: {support.plain(c.runtime_error or c.core_error or '', 300)}")
    return lines or ["No installed runtime runs this operator version."]


FILE_WORDS = {
    "tensors.npz": "data, indices, updates, runtime_output, exact_output",
    "test_case.py": "a pytest test in plain NumPy (expects scatter_core's exact result)",
    "test_runtime_output.py": "the runtime's captured output against the exact result, from `tensors.npz` (fails "
                              "where the runtime differed)",
    "case.json": "the case as a spec_examples file",
    "loop.py": "the spec's loop in NumPy",
    "onnx_case.zip": "a one-node ONNX model with its tensors",
    "node.xml": "the node alone as an OpenVINO IR (with `node.bin`), made with OpenVINO's Python API",
    "node.bin": "the weights of `node.xml`",
    "test_openvino.py": "runs `node.xml` on OpenVINO's CPU plugin with the tensors of `tensors.npz` and expects the "
                        "exact result (fails where the plugin differs; needs openvino, NumPy and pytest)",
    "exports.txt": "why the text exports are left out",
    "node_ir.txt": "why the one-node IR is missing (OpenVINO could not save it)",
    "onnx_case.txt": "why the one-node ONNX model is missing",
}


def file_words(name: str) -> str:
    """What a file of the zip holds, for the README's Files list (an export that failed: why it is missing)."""
    if name in FILE_WORDS:
        return FILE_WORDS[name]
    if name.endswith(".txt") and name[:-4] in FILE_WORDS:
        return f"why `{name[:-4]}` is missing (its export failed)"
    return name.rsplit(".", 1)[0].replace("_", " ")


def summary(model, capture, name: str, crosscheck: list[str] | None = None, files: list[str] | None = None) -> str:
    """The README: ``crosscheck`` the lines of :func:`crosscheck_lines` (None: not run), ``files`` the names of
    the other files in the zip (None: no Files section)."""
    record = capture[name]
    node = model.node(name)
    case = record.case
    data, indices, updates = case.given()
    runtime = support.runtime_short(capture.runtime, model.kind)
    differing = explain.differing_cells(record)
    lines = [f"# Scatter node bug report: {case.op}", ""]
    if differing:
        lines += [f"**{runtime} differs from the spec's loop on {differing:,} of {np.asarray(record.exact).size:,} "
                  f"cells of this node.**", ""]
    lines += ["Made by Scatter Explorer's \"Your model\" page from one run of the model. The files beside this "
              "one reproduce the node without the model.", "", "## The node", "",
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
             ])), "", "## The indices", "", _block(_visible(
                 explain.repeats_seen_text(node, case.trace())) + "\n" + _visible(node.index_proof)), ""]
    findings = case.trace().findings
    lines += ["## Findings on the real data", ""]
    lines += [_block("\n".join(f"[{f.severity}] {f.message}" for f in findings)) if findings else "None.", ""]
    lines += ["## The runtime's output vs scatter_core's exact result", ""]
    if record.stood_in:
        lines += [f"No runtime output to compare: the output is from {record.output_source}"
                  + (". The cross-check below runs the node on the installed runtimes." if crosscheck is not None
                     else "."), ""]
        report = None
    else:
        report = comparison(record)
        verdict = report.summary.replace("Your expected output", f"The output from {record.output_source}")
        lines += [_block(verdict), ""]
    if report is not None and not report.matches:
        lines += [_block("\n".join(cell_lines(model, capture, record, report))), ""]
    if crosscheck is not None:
        lines += ["## Cross-check on every installed runtime", "",
                  "The node alone, on these tensors, on each installed runtime that runs its operator:", "",
                  _block("\n".join(crosscheck)), ""]
    static = [f"[{f.severity}] {f.text}" + (f" (source: {f.source})" if f.source else "") for f in node.findings]
    if static:
        lines += ["## Static findings (from the model, before running)", "", _block("\n".join(static)), ""]
    if files is not None:
        lines += ["## Files", ""] + [f"- `{f}`: {file_words(f)}" for f in files] + [""]
    return "\n".join(lines)


OPENVINO_TEST = '''"""{op} as a one-node OpenVINO IR (node.xml, node.bin) on OpenVINO's CPU plugin, with the
tensors of tensors.npz, against scatter_core's exact result. It fails where the plugin differs from the spec's
loop: the bug this report is about. Needs openvino, NumPy and pytest."""

from pathlib import Path

import numpy as np
import openvino as ov

HERE = Path(__file__).resolve().parent
PARAMETERS = {names!r}  # the IR's inputs, in order (arrays of tensors.npz)


def test_openvino_cpu_gives_the_exact_result():
    tensors = np.load(HERE / "tensors.npz")
    compiled = ov.Core().compile_model(str(HERE / "node.xml"), "CPU")
    output = compiled([tensors[name] for name in PARAMETERS])[0]
    np.testing.assert_array_equal(np.asarray(output), tensors["exact_output"])
'''


def bug_report(model, capture, name: str, crosscheck: bool = True) -> bytes:
    """The zip (see the module docstring); ``crosscheck`` runs the node on every installed runtime for it."""
    import scatter_export as se

    record = capture[name]
    case = record.case
    data, indices, updates = case.given()
    exact = case.run()
    files: dict[str, bytes | str] = {}
    arrays = {"data": data, "updates": updates, "runtime_output": record.output, "exact_output": exact}
    if indices is not None:
        arrays["indices"] = indices
    npz = io.BytesIO()
    np.savez(npz, **arrays)
    files["tensors.npz"] = npz.getvalue()
    if not record.stood_in:
        files["test_runtime_output.py"] = RUNTIME_TEST.format(source=record.output_source, op=case.op)
    small = max(np.asarray(a).size for a in arrays.values()) <= MAX_EXPORT_ELEMENTS
    if small:
        for file, build in (("test_case.py", lambda: se.pytest_case(case, exact)),
                            ("case.json", lambda: se.example_json(case, exact)),
                            ("loop.py", lambda: se.numpy_loop(case))):
            try:
                files[file] = build()
            except (sc.ScatterError, ImportError) as exc:
                files[file + ".txt"] = f"export failed: {exc}\n"
        if case.spec.framework == "ONNX":
            try:
                files["onnx_case.zip"] = se.onnx_test_case(case, exact)
            except (sc.ScatterError, ImportError) as exc:
                files["onnx_case.txt"] = f"no ONNX model: {exc}\n"
    else:
        files["exports.txt"] = (f"The text exports are left out: a tensor has more than {MAX_EXPORT_ELEMENTS:,} "
                                f"elements. tensors.npz holds every value.\n")
    if case.spec.framework == "OpenVINO":
        from . import one_node_ir
        from .errors import ModelError

        try:
            xml, weights, names = one_node_ir.build(case)
            files.update({"node.xml": xml, "node.bin": weights,
                          "test_openvino.py": OPENVINO_TEST.format(op=case.op, names=names)})
        except ModelError as exc:
            files["node_ir.txt"] = f"no one-node IR: {exc}\n"
    checked = None
    if crosscheck:
        checked = crosscheck_lines(case) if small else [
            f"Left out: a tensor has more than {MAX_EXPORT_ELEMENTS:,} elements; the cross-check expander of the "
            f"\"Your model\" page runs it."]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("README.md", summary(model, capture, name, checked, list(files)))
        for file, content in files.items():
            z.writestr(file, content)
    return buf.getvalue()
