"""``audit(model, inputs=None, runtimes=None)``: every scatter node of a model checked for CI.

The model is captured once on each runtime (:meth:`Model.capture`, same inputs and seed), and each node's
output is compared bit for bit with scatter_core's exact result on the inputs that reached it there. A
difference is explained by the spec (another winner or another rounding it allows where indices repeat) or
by a runtime fact (``runtime_check``'s known divergences), else it is unexplained. One :class:`AuditRow` per
scatter node; ``row.ok`` is False when a runtime differs with nothing to explain it, or when indices repeat
under reduction none. :func:`to_json` (docs/audit.md describes it), :func:`to_junit` and :func:`to_text` write
the rows as the ``scatter-explorer audit`` command prints them.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np

import scatter_core as sc

from . import static, support
from .capture import RUNTIMES, runtime_available, runtime_problem
from .errors import ModelError
from .report import _visible as visible, comparison  # visible: a name from a model may hold control characters

SCHEMA = "scatter-explorer-audit"
SCHEMA_VERSION = 1
MAX_CELLS_LISTED = 8  # differing cells listed per runtime and node (the count is always whole)
# the runtimes tried by default, the deployed one first (an IR runs on the CPU plugin; ONNX on onnxruntime)
DEFAULT_ORDER = {"onnx": ("onnxruntime", "openvino", "reference"), "openvino-ir": ("openvino", "reference")}
AGREEMENTS = ("equal", "differs", "no-kernel", "not-captured", "failed", "cannot-run")


@dataclass(frozen=True)
class Explanation:
    """Why a runtime's output may differ: ``kind`` "spec" (the spec allows it) or "fact" (a runtime fact:
    ``fact`` its id), with ``text`` in words and ``source``."""

    kind: str
    text: str
    fact: str = ""
    source: str = ""


@dataclass(frozen=True)
class RuntimeResult:
    """One runtime on one node: ``agreement`` (one of AGREEMENTS), the differing cells (``differing``: their
    count; ``cells``: the first few as (position, exact, runtime)), ``explained_by`` and a ``note``."""

    runtime: str
    name: str
    version: str | None
    agreement: str
    differing: int = 0
    cells: tuple = ()
    explained_by: tuple[Explanation, ...] = ()
    note: str = ""

    @property
    def unexplained(self) -> bool:
        return self.agreement == "differs" and not self.explained_by


@dataclass(frozen=True)
class AuditRow:
    """One scatter node: ``op`` (versioned), its static ``index_verdict`` ("unique", "may-repeat", "repeats";
    None when unknown) and ``index_proof``, ``repeats_seen`` (output cells written more than once in the
    capture; None when no runtime captured the node), ``reduction``, each runtime's :class:`RuntimeResult`."""

    node: str
    op: str
    where: str
    reduction: str | None
    index_verdict: str | None
    index_proof: str
    repeats_seen: int | None
    calls: int | None
    runtimes: tuple[RuntimeResult, ...]
    problems: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def captured(self) -> bool:
        return self.repeats_seen is not None


@dataclass
class Audit:
    """What :func:`audit_model` found: the ``rows`` and how each runtime went (``runs``: runtime -> (name,
    version, status, message))."""

    model: object
    rows: list
    runs: dict
    inputs: str | None
    seed: int
    path: str | None = None  # the model's path, when it was given as one

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rows)

    @property
    def exit_status(self) -> int:
        return 0 if self.ok else 1


def default_runtimes(model) -> list[str]:
    """The installed runtimes that can capture ``model``, the deployed one first."""
    return [r for r in DEFAULT_ORDER["onnx" if model.kind == "onnx" else "openvino-ir"]
            if runtime_available(r) and runtime_problem(model, r) is None]


def read_inputs(model, inputs):
    """``inputs`` as :meth:`Model.capture` takes them, a path read once here (a ``test_data_set_N`` folder, an
    ``.npz``, ``.npy``, ``.pb`` or zip file: :func:`scatter_models.inputs_from_path`, bounded, no pickles)."""
    if isinstance(inputs, (str, os.PathLike)):
        from scatter_models import inputs_from_path

        return inputs_from_path(inputs, model)
    return inputs


def _fact_runtime(model, runtime: str) -> str:
    table = support.FACT_RUNTIME if model.kind == "onnx" else support.IR_FACT_RUNTIME
    return table[runtime]


def _explain(model, runtime: str, record, exact: np.ndarray) -> tuple[Explanation, ...]:
    """The spec's allowance or the runtime facts that explain ``record``'s output where it differs."""
    from runtime_check.divergences import RuntimeCase, match

    case = record.case
    out = []
    try:
        report = comparison(record)
    except sc.ScatterError:
        report = None
    if report is not None and report.conforms and not report.matches:
        out.append(Explanation("spec", report.summary.replace("Your expected output",
                                                              f"The output of {support.runtime_short(runtime, model.kind)}")))
    data, indices, updates = case.given()
    fact_runtime = _fact_runtime(model, runtime)
    rcase = RuntimeCase.of(fact_runtime, case.spec, data, indices, updates, dict(case.attrs))
    found = match(rcase, "value", record.output, None, exact)
    if found is not None:
        for f in static._facts_of(found, case.spec, {fact_runtime}):
            out.append(Explanation("fact", f"{f.runtimes_label()}: {f.text}", fact=f.id, source=static.source_words(f)))
    return tuple(out)


def _cells(exact: np.ndarray, output: np.ndarray, mask: np.ndarray) -> tuple:
    where = np.argwhere(mask)[:MAX_CELLS_LISTED]
    return tuple((tuple(int(v) for v in pos), exact[tuple(pos)].item(), output[tuple(pos)].item()) for pos in where)


def _compare(model, runtime: str, name: str, version, record) -> RuntimeResult:
    import runtime_check as rc

    words = support.runtime_short(runtime, model.kind)
    if record.stood_in:
        return RuntimeResult(runtime, words, version, "no-kernel",
                             note=f"{words} has no kernel for {record.op}: scatter_core stood in, so there is no "
                                  f"runtime output to compare")
    exact = record.exact
    output = np.asarray(record.output)
    if output.shape != exact.shape or output.dtype != exact.dtype:
        return RuntimeResult(runtime, words, version, "differs", differing=int(exact.size),
                             note=f"{words} gave {output.dtype} {sc.fmt_shape(output.shape)}, the exact result is "
                                  f"{exact.dtype} {sc.fmt_shape(exact.shape)}")
    mask = rc.differing_cells(exact, output)
    n = int(mask.sum())
    if n == 0:
        return RuntimeResult(runtime, words, version, "equal")
    return RuntimeResult(runtime, words, version, "differs", differing=n, cells=_cells(exact, output, mask),
                         explained_by=_explain(model, runtime, record, exact))


def _repeats(case) -> int:
    return int(case.trace().duplicate_groups().size)


def _problems(row_reduction_none: bool, verdict, repeats, results) -> tuple[str, ...]:
    out = []
    for r in results:
        if r.unexplained:
            out.append(f"{r.name} differs from the exact result in {r.differing:,} cell{'s' if r.differing != 1 else ''}"
                       f" and no runtime fact explains it")
    if row_reduction_none and (repeats or verdict == "repeats"):
        out.append("indices repeat under reduction none: which write wins is left to the runtime"
                   + (f" ({repeats:,} output cell{'s' if repeats != 1 else ''} written more than once)" if repeats
                      else " (the constant indices repeat)"))
    return tuple(out)


def audit_model(model, inputs=None, runtimes=None, *, seed: int = 0, progress=None) -> Audit:
    """The audit of ``model`` (a :class:`Model` or a path) on ``runtimes`` (default: :func:`default_runtimes`).
    ``progress(text)``, when given, hears each step. Raises :class:`ModelError` for a model or inputs it cannot
    read, and for a runtime it does not know."""
    from .model import Model, open_model

    path = None if isinstance(model, Model) else str(model)
    if path is not None:
        model = open_model(model)
    chosen = list(dict.fromkeys(runtimes)) if runtimes else default_runtimes(model)
    for r in chosen:
        if r not in RUNTIMES:
            raise ModelError(f"runtime {r!r} is not one of {', '.join(RUNTIMES)}", argument="runtime",
                             rule="runtime")
    given = read_inputs(model, inputs)
    runs, captures = {}, {}
    for k, runtime in enumerate(chosen, start=1):
        words = support.runtime_short(runtime, model.kind)
        problem = runtime_problem(model, runtime)
        if problem is not None:
            runs[runtime] = (words, None, "cannot-run", problem)
            continue
        if progress:
            progress(f"capturing {len(model.nodes):,} scatter node(s) on {words} ({k}/{len(chosen)})")
        try:
            cap = model.capture(given, seed=seed, runtime=runtime)
        except ModelError as exc:
            if exc.argument in ("inputs", "dims") and exc.node is None:
                raise  # the given inputs do not fit the model: no runtime can run them
            runs[runtime] = (words, None, "failed", str(exc))
            continue
        runs[runtime] = (words, cap.version, "ran", "")
        captures[runtime] = cap
    rows = []
    for i, node in enumerate(model.nodes, start=1):
        if progress and len(model.nodes) >= 20 and i % max(1, len(model.nodes) // 10) == 0:
            progress(f"comparing node {i:,} of {len(model.nodes):,}")
        rows.append(_row(model, node, chosen, runs, captures))
    return Audit(model, rows, runs, None if inputs is None else str(inputs), seed, path)


def _reduction_of(node) -> tuple[str | None, bool]:
    """(the node's reduction as spelled, whether it is none) from its attributes (before a capture)."""
    if node.spec is None:
        return None, False
    codec = sc.reduction_codec(node.spec)
    value = str(node.attrs.get(codec.name, codec.default))
    return value, dict(node.spec.reductions).get(value.lower(), value) == "none"


def _row(model, node, chosen, runs, captures) -> AuditRow:
    results, repeats, calls = [], None, None
    reduction, none = _reduction_of(node)
    for runtime in chosen:
        words, version, status, message = runs[runtime]
        if status != "ran":
            results.append(RuntimeResult(runtime, words, version, status, note=message))
            continue
        cap = captures[runtime]
        record = cap.get(node.name)
        if record is None:
            results.append(RuntimeResult(runtime, words, version, "not-captured",
                                         note=cap.missing.get(node.name, "not captured")))
            continue
        if repeats is None:
            repeats, calls = _repeats(record.case), record.calls
            reduction, none = record.case.resolved.reduction, record.case.reduction.ufunc is None
        results.append(_compare(model, runtime, node.name, version, record))
    verdict, proof = node.index_verdict, node.index_proof
    return AuditRow(node.name, node.op, node.location, reduction, verdict, proof, repeats, calls, tuple(results),
                    _problems(none, verdict, repeats, results))


def audit(model, inputs=None, runtimes=None) -> list[AuditRow]:
    """One :class:`AuditRow` per scatter node of ``model`` (a :class:`Model` or a path): see the module docstring."""
    return audit_model(model, inputs, runtimes).rows


# -- output formats ---------------------------------------------------------------------------------------

def plain_value(value):
    """A cell's value for strict JSON: an int or a finite float as a number, a non-finite float as one of the
    strings "NaN", "Infinity", "-Infinity" (JSON has no token for them), a bool as a bool.

    >>> plain_value(float("nan")), plain_value(-math.inf), plain_value(2.5), plain_value(7)
    ('NaN', '-Infinity', 2.5, 7)
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def _runtime_json(r: RuntimeResult) -> dict:
    return {"runtime": r.runtime, "name": r.name, "version": r.version, "agreement": r.agreement,
            "differing_cells": r.differing,
            "cells": [{"position": list(p), "exact": plain_value(e), "runtime": plain_value(v)} for p, e, v in r.cells],
            "explained_by": [{"kind": e.kind, "fact": e.fact or None, "text": e.text, "source": e.source or None}
                             for e in r.explained_by],
            "unexplained": r.unexplained, "note": r.note or None}


def to_dict(result: Audit) -> dict:
    """The audit as the JSON document docs/audit.md describes (schema ``scatter-explorer-audit``, version 1)."""
    model = result.model
    return {
        "schema": SCHEMA, "schema_version": SCHEMA_VERSION,
        "model": {"path": result.path, "where": model.where, "kind": model.kind, "digest": model.digest, "scatter_nodes": len(model.nodes)},
        "inputs": {"given": result.inputs, "seed": result.seed},
        "runtimes": [{"runtime": r, "name": name, "version": version, "status": status, "message": message or None}
                     for r, (name, version, status, message) in result.runs.items()],
        "nodes": [{"node": row.node, "op": row.op, "where": row.where, "reduction": row.reduction,
                   "index_verdict": row.index_verdict, "index_proof": row.index_proof or None,
                   "repeats_seen": row.repeats_seen, "calls": row.calls, "ok": row.ok, "problems": list(row.problems),
                   "runtimes": [_runtime_json(r) for r in row.runtimes]} for row in result.rows],
        "summary": {"nodes": len(result.rows), "failing": sum(not r.ok for r in result.rows),
                    "exit_status": result.exit_status},
    }


def to_json(result: Audit) -> str:
    """Strict JSON (no NaN or Infinity tokens: ``allow_nan=False``)."""
    return json.dumps(to_dict(result), allow_nan=False, indent=2, ensure_ascii=False) + "\n"


def _xml_text(text) -> str:
    """``text`` with what XML 1.0 cannot hold (control characters, lone surrogates) written as escapes."""
    out = []
    for ch in str(text):
        o = ord(ch)
        ok = o in (0x9, 0xA, 0xD) or 0x20 <= o <= 0xD7FF or 0xE000 <= o <= 0xFFFD or 0x10000 <= o <= 0x10FFFF
        out.append(ch if ok else f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}")
    return "".join(out)


def to_junit(result: Audit) -> str:
    """JUnit XML: one testsuite for the model, one testcase per scatter node (a failure where the node fails, a
    skip where no runtime captured it), each with the node's text form as its output."""
    rows = result.rows
    failures = sum(not r.ok for r in rows)
    skipped = sum(r.ok and not r.captured for r in rows)
    suites = ET.Element("testsuites", name="scatter-explorer audit", tests=str(len(rows)), failures=str(failures),
                        errors="0", skipped=str(skipped))
    suite = ET.SubElement(suites, "testsuite", name=_xml_text(f"scatter-explorer audit: {result.model.where}"),
                          tests=str(len(rows)), failures=str(failures), errors="0", skipped=str(skipped))
    props = ET.SubElement(suite, "properties")
    for runtime, (name, version, status, _) in result.runs.items():
        ET.SubElement(props, "property", name=f"runtime.{runtime}",
                      value=_xml_text(f"{name}{f' ({version})' if version else ''}: {status}"))
    for row in rows:
        case = ET.SubElement(suite, "testcase", classname=_xml_text(result.model.where),
                             name=_xml_text(f"{row.node} ({row.op})"))
        if not row.ok:
            failure = ET.SubElement(case, "failure", message=_xml_text("; ".join(row.problems)), type="audit")
            failure.text = _xml_text("\n".join(row.problems))
        elif not row.captured:
            ET.SubElement(case, "skipped", message=_xml_text(_not_captured(row)))
        out = ET.SubElement(case, "system-out")
        out.text = _xml_text("\n".join(_row_lines(row)))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _not_captured(row: AuditRow) -> str:
    notes = [f"{r.name}: {r.note}" for r in row.runtimes if r.note]
    return "no runtime captured this node" + (f" ({'; '.join(notes)})" if notes else "")


def _agreement_words(r: RuntimeResult) -> str:
    version = f" ({r.version})" if r.version else ""
    if r.agreement == "equal":
        return f"{r.name}{version}: equal to the exact result, bit for bit"
    if r.agreement == "differs":
        cells = ", ".join(f"output{sc.fmt_pos(p)} exact {sc.fmt_value(e)}, runtime {sc.fmt_value(v)}"
                          for p, e, v in r.cells[:3])
        head = f"{r.name}{version}: {r.differing:,} cell{'s' if r.differing != 1 else ''} differ" + \
               ("s" if r.differing == 1 else "") + (f" ({cells}{', …' if r.differing > 3 else ''})" if cells else "")
        if r.note:
            head += f"; {r.note}"
        if not r.explained_by:
            return head + "; UNEXPLAINED: no runtime fact explains it"
        return head + "; explained: " + " ".join(
            (f"[fact {e.fact}] " if e.fact else "[spec] ") + e.text + (f" (source: {e.source})" if e.source else "")
            for e in r.explained_by)
    return f"{r.name}{version}: {r.agreement.replace('-', ' ')}" + (f" ({r.note})" if r.note else "")


def _row_lines(row: AuditRow) -> list[str]:
    verdict = row.index_verdict or "unknown"
    lines = [f"{'PASS' if row.ok else 'FAIL'}  {visible(row.node)}  {row.op}"
             + (f"  reduction {row.reduction}" if row.reduction else "") + f"  ({visible(row.where)})",
             f"      indices (from the graph): {verdict}" + (f". {visible(row.index_proof)}" if row.index_proof else ""),
             "      repeats seen in the capture: " + (
                 "not captured" if row.repeats_seen is None else
                 f"{row.repeats_seen:,} output cell{'s' if row.repeats_seen != 1 else ''} written more than once")
             + (f" (first of {row.calls} calls)" if row.calls and row.calls > 1 else "")]
    lines += [f"      {visible(_agreement_words(r))}" for r in row.runtimes]
    lines += [f"      problem: {visible(p)}" for p in row.problems]
    return lines


def to_text(result: Audit) -> str:
    model = result.model
    runs = "; ".join(f"{name}{f' ({version})' if version else ''}" + ("" if status == "ran" else f" ({status}: "
                                                                                              f"{visible(message)})")
                     for name, version, status, message in result.runs.values())
    lines = [f"scatter-explorer audit: {visible(model.where)} ({model.kind}, {len(model.nodes):,} scatter node(s))",
             f"runtimes: {runs or 'none'}",
             "inputs: " + (visible(result.inputs) if result.inputs else f"drawn from seed {result.seed}"), ""]
    for row in result.rows:
        lines += _row_lines(row)
    failing = [r for r in result.rows if not r.ok]
    lines += ["", f"{len(result.rows) - len(failing)} of {len(result.rows)} node(s) pass; "
                  f"{len(failing)} fail" + (": " + ", ".join(visible(r.node) for r in failing[:10])
                                             + (" …" if len(failing) > 10 else "") if failing else "") + "."]
    return "\n".join(lines) + "\n"
