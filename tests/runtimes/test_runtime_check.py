"""runtime_check: the adapters (model building, the OpenVINO reference path, the
guarded child process) and compare()'s bookkeeping."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import runtime_check as rc
from runtime_check import divergences
import spec_examples as se
import scatter_core as sc
from scatter_core import OPERATORS, ScatterError
from tests.support.skipping import require_or_skip

ROOT = Path(__file__).resolve().parents[2]
SEMANTICS = ROOT / "docs" / "semantics.md"  # the project's own description of the runtime facts
ONNX_OPS = [name for name, spec in OPERATORS.items() if spec.framework == "ONNX"]
OV_OPS = [name for name, spec in OPERATORS.items() if spec.framework == "OpenVINO"]
i32 = np.int32
f32 = np.float32

runtimes = pytest.mark.runtimes


# -- no runtime needed -----------------------------------------------------------------
def test_importing_the_package_imports_no_runtime():
    code = ("import sys, runtime_check; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('onnx', 'onnxruntime', 'openvino')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_runtimes_for_follows_the_registry():
    for name, spec in OPERATORS.items():
        got = rc.runtimes_for(name)
        if spec.framework == "ONNX" and spec.runnable_on:
            # the registry's own runtimes, then OpenVINO's CPU plugin reading the ONNX model (its ONNX frontend)
            assert got == [r for r in ("onnxruntime", "onnx.reference") if r in spec.runnable_on] + ["openvino-onnx"]
        elif spec.framework == "OpenVINO":
            assert got == ["openvino-cpu", "openvino-reference"], name
        else:
            assert got == [], name
    assert rc.runtimes_for("ScatterND-16") == ["onnxruntime", "onnx.reference", "openvino-onnx"]
    assert rc.runtimes_for("Scatter-9") == ["onnxruntime", "openvino-onnx"]
    assert rc.runtimes_for("Scatter-11") == []
    reason = rc.not_runnable_reason("Scatter-11")
    assert "ScatterElements-11" in reason and "deprecated" in reason
    assert rc.stand_in("Scatter-11") == "ScatterElements-11"
    assert rc.not_runnable_reason("ScatterND-16") is None


def test_runtimes_for_reads_runnable_on_not_names():
    import dataclasses

    spec = dataclasses.replace(OPERATORS["ScatterND-16"], name="Imaginary-1", runnable_on=("onnxruntime",))
    assert rc.runtimes_for(spec) == ["onnxruntime", "openvino-onnx"]
    assert rc.runtimes_for(dataclasses.replace(spec, runnable_on=())) == []  # no frontend try without a runtime


def test_run_refuses_unknown_names_and_other_frameworks():
    with pytest.raises(ValueError, match="unknown runtime"):
        rc.run("tensorflow", "ScatterND-16", [1], [[0]], [2])
    with pytest.raises(ScatterError):
        rc.run("onnxruntime", "NoSuchOp-1", [1], [[0]], [2])
    res = rc.run("onnxruntime", "ScatterElementsUpdate-12", [1], [0], [2], axis=0)
    assert not res.ok and res.output is None and "OpenVINO operator" in res.error
    res = rc.run("openvino-cpu", "ScatterND-16", [1], [[0]], [2])
    assert not res.ok and "ONNX operator" in res.error


def test_guarded_refuses_object_arrays_without_pickling():
    res = rc.run_guarded("onnxruntime", "ScatterND-16", np.array([object()]), [[0]], [2])
    assert not res.ok and "could not hand the case to the worker" in res.error and "dtype object" in res.error


def test_divergence_table_is_well_formed_data():
    labels = [d.label for d in rc.KNOWN_DIVERGENCES]
    assert len(labels) == len(set(labels))
    for d in rc.KNOWN_DIVERGENCES:
        assert d.outcome in divergences.OUTCOMES
        assert d.runtimes and set(d.runtimes) <= set(rc.RUNTIMES)
        assert d.text_for(OPERATORS["ScatterND-11"]) and d.source and callable(d.applies)
        if d.outcome in ("refused", "crash"):
            assert d.error, d.label  # a refusal or crash is only "known" with the runtime's own words
        assert d.documented == (d in rc.DOCUMENTED)
        assert ("; verified on " in d.source) == d.documented  # a documented one carries its fact's source
    for label in ("integer-mean-truncation", "k-zero-noop", "int64-narrowing", "f16-accumulation",
                  "bool-maxmin-refused", "f16-add-mul-refused", "negative-index-accepted", "reduction-not-validated"):
        assert label in divergences.BY_LABEL


def test_every_divergence_points_to_its_registry_note():
    """Each runtime fact is recorded once, in the registry: every divergence names the RuntimeNote topic of
    the records it concerns; an OBSERVED one (not in docs/semantics.md) takes its words from that note."""
    for d in rc.KNOWN_DIVERGENCES:
        assert d.topic, d.label
        concerned = [s for s in OPERATORS.values() if not d.families or s.family in d.families]
        notes = [n for s in concerned for n in s.notes_on(d.topic)]
        assert notes, (d.label, d.topic)
        if not d.documented:
            assert not d.text, d.label  # no second copy of the observation here
            assert any(not n.documented for n in notes), d.label
            assert d.text_for(concerned[0]).startswith("Not in docs/semantics.md: "), d.label


def test_observed_divergence_text_is_the_records_own_note():
    d = divergences.BY_LABEL["reference-no-kernel"]
    assert "int8, int16, uint8" in d.text_for(OPERATORS["ScatterNDUpdate-15"])
    assert "int8, uint8, uint16 or float64" in d.text_for(OPERATORS["ScatterElementsUpdate-12"])
    assert OPERATORS["ScatterNDUpdate-15"].extra["openvino_reference_no_kernel"] == (
        "int8", "int16", "uint8", "uint16", "float64")


def test_documented_divergences_are_described_in_docs_semantics_md():
    """Each DOCUMENTED divergence's fact has its entry in docs/semantics.md (by id), and no OBSERVED one has."""
    text = SEMANTICS.read_text(encoding="utf-8")
    for d in rc.DOCUMENTED:
        assert f"(`{d.fact}`)" in text, (d.label, d.fact)
    for d in rc.OBSERVED:
        for fact in d.observed_facts:
            assert (f"(`{fact}`)" in text) == sc.FACT_BY_ID[fact].documented, (d.label, fact)


def test_ci_turns_a_missing_runtime_into_a_failure(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        require_or_skip("no_such_module_for_runtime_check")
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception):
        require_or_skip("no_such_module_for_runtime_check")


# -- with the runtimes ---------------------------------------------------------------
@runtimes
def test_available_reports_the_verified_versions():
    """The test suite runs on the versions the facts were verified on (constraints/verified.txt)."""
    require_or_skip(*rc.RUNTIMES)
    pinned = dict(re.findall(r"^(onnx|onnxruntime|openvino)==(\S+)$",
                             (ROOT / "constraints" / "verified.txt").read_text(), re.M))
    got = rc.available()
    assert set(got) == set(rc.RUNTIMES)
    assert got["onnxruntime"] == pinned["onnxruntime"]
    assert got["onnx.reference"] == pinned["onnx"]
    assert got["openvino-cpu"] == got["openvino-reference"] == pinned["openvino"]


@runtimes
@pytest.mark.parametrize("op", ONNX_OPS)
def test_onnx_models_import_exactly_the_versions_opset(op):
    require_or_skip("onnx")
    import onnx

    from runtime_check.onnx_backend import build_model

    spec = OPERATORS[op]
    ex = next(ex for ex in se.examples_for(op) if not ex.shapes_only)  # a valid case of this version
    model = build_model(spec, ex.data, ex.indices, ex.updates, ex.attrs)
    assert [(o.domain, o.version) for o in model.opset_import] == [("", spec.version)]
    assert [n.op_type for n in model.graph.node] == [spec.op_type]
    if spec.deprecated:
        with pytest.raises(onnx.checker.ValidationError, match="deprecated"):
            onnx.checker.check_model(model, full_check=True)
    else:
        onnx.checker.check_model(model, full_check=True)


@runtimes
@pytest.mark.parametrize("op,version", [("ScatterUpdate-3", "opset3"), ("ScatterNDUpdate-3", "opset4"),
                                        ("ScatterNDUpdate-15", "opset15"), ("ScatterElementsUpdate-3", "opset3"),
                                        ("ScatterElementsUpdate-12", "opset12")])
def test_openvino_nodes_are_built_from_the_versions_opset(op, version):
    require_or_skip("openvino")
    from runtime_check.openvino_backend import build_node

    spec = OPERATORS[op]
    data = np.zeros((2, 3), f32)
    idx = {"elements": np.zeros((1, 3), np.int64), "nd": np.zeros((1, 2), np.int64),
           "update": np.zeros((1,), np.int64)}[spec.family]
    upd = {"elements": np.ones((1, 3), f32), "nd": np.ones((1,), f32), "update": np.ones((1, 3), f32)}[spec.family]
    node, params, inputs = build_node(spec, data, idx, upd, {"axis": 0} if spec.attribute("axis") else {})
    info = node.get_type_info()
    assert (info.name, info.version_id) == (spec.op_type, version)
    assert len(params) == 3 and len(inputs) == (4 if spec.attribute("axis") else 3)


@runtimes
def test_scatter_9_runs_on_onnxruntime_at_opset_9():
    require_or_skip("onnxruntime")
    res = rc.run("onnxruntime", "Scatter-9", np.zeros(3, f32), [-1], np.ones(1, f32))
    assert res.ok and res.output.tolist() == [0, 0, 1] and res.version == rc.available()["onnxruntime"]


@runtimes
def test_run_captures_runtime_errors():
    require_or_skip("onnxruntime", "onnx.reference", "openvino-cpu", "openvino-reference")
    res = rc.run("onnxruntime", "ScatterElements-18", i32([1, 2]), [5], i32([3]), axis=0)
    assert not res.ok and res.output is None
    assert "indices element out of data bounds, idx=5 must be within the inclusive range [-2,1]" in res.error
    res = rc.run("onnx.reference", "ScatterND-18", i32([1, 2]), [[5]], i32([3]))
    assert not res.ok and res.error.startswith("IndexError")
    for runtime in ("openvino-cpu", "openvino-reference"):
        res = rc.run(runtime, "ScatterElementsUpdate-12", i32([1, 2]), [0], i32([3]), axis=0, reduction="bogus")
        assert not res.ok and '"bogus" is not a member of enum' in res.error


@runtimes
def test_openvino_reference_is_the_reference_not_the_cpu_plugin():
    """Node.evaluate and constant folding both reach the reference kernel: the integer mean
    of 0 and -3 floors to -2 there, while the CPU plugin truncates to -1."""
    require_or_skip("openvino-cpu", "openvino-reference")
    from runtime_check.openvino_backend import run_constant_folding

    args = ("ScatterElementsUpdate-12", i32([0, 7]), [0], i32([-3]))
    kw = dict(axis=0, reduction="mean")
    assert rc.run("openvino-reference", *args, **kw).output.tolist() == [-2, 7]
    assert run_constant_folding(OPERATORS[args[0]], *args[1:], kw).tolist() == [-2, 7]
    assert rc.run("openvino-cpu", *args, **kw).output.tolist() == [-1, 7]
    # the reference path covers every OpenVINO op version
    for op in OV_OPS:
        spec = OPERATORS[op]
        data = np.arange(4, dtype=f32)
        idx = {"nd": [[1]], "slice": None}.get(spec.family, [1])
        extra = {"axis": 0} if spec.attribute("axis") else {}
        if spec.attribute("start") is not None:  # SliceScatter: the slice 1:2:1 of axis 0
            extra = {"start": [1], "stop": [2], "step": [1]}
        res = rc.run("openvino-reference", op, data, idx, f32([9]), **extra)
        if "float32" in spec.extra.get("openvino_reference_no_kernel", ()):  # observed: no reference kernel at all
            assert not res.ok and "Node.evaluate returned False" in res.error, op
            assert rc.run("openvino-cpu", op, data, idx, f32([9]), **extra).output.tolist() == [0, 9, 2, 3], op
            continue
        assert res.ok and res.output.tolist() == [0, 9, 2, 3], op
        folded = run_constant_folding(spec, data, np.asarray(idx), f32([9]), extra)
        assert folded.tolist() == [0, 9, 2, 3], op


@runtimes
def test_run_guarded_gives_the_in_process_result():
    require_or_skip(*rc.RUNTIMES)
    cases = [("onnxruntime", "ScatterND-16", f32([1, 2, 3]), [[0], [0]], f32([5, 6]), {"reduction": "add"}),
             ("onnx.reference", "ScatterElements-18", i32([[1, 2]]), [[1, 0]], i32([[7, 8]]), {"axis": 1}),
             ("openvino-cpu", "ScatterUpdate-3", np.zeros((2, 2), np.int8), [1], np.ones((1, 2), np.int8),
              {"axis": np.int32([0])}),
             ("openvino-reference", "ScatterElementsUpdate-12", np.array([True, False]), [1], np.array([True]),
              {"axis": 0, "reduction": "max", "use_init_val": False})]
    for runtime, op, d, i, u, kw in cases:
        a = rc.run(runtime, op, d, i, u, **kw)
        b = rc.run_guarded(runtime, op, d, i, u, **kw)
        assert a.ok and b.ok, (a, b)
        assert (a.runtime, a.version) == (b.runtime, b.version)
        assert a.output.dtype == b.output.dtype and a.output.tobytes() == b.output.tobytes()
    b = rc.run_guarded("onnxruntime", "ScatterElements-18", i32([1, 2]), [5], i32([3]), axis=0)
    assert not b.ok and "out of data bounds" in b.error and not rc.is_crash(b)


# -- crashes and hangs stay in the child -------------------------------------------
@runtimes
@pytest.mark.parametrize("op", ["ScatterElementsUpdate-12", "ScatterElementsUpdate-3"])
def test_openvino_cpu_segfault_on_index_below_minus_s_is_contained(op):
    """A real crash: the CPU plugin has no lower-bound check for the Elements ops."""
    require_or_skip("openvino-cpu")
    res = rc.run_guarded("openvino-cpu", op, np.zeros(4, i32), np.int64([-10**9]), i32([7]), axis=0)
    assert not res.ok and res.output is None and rc.is_crash(res)
    assert res.error.startswith("openvino-cpu crashed (signal 11 / exit code -11, SIGSEGV)")
    # this process is fine and the runtime still works here
    assert rc.run("openvino-reference", op, np.zeros(4, i32), [-1], i32([7]), axis=0).output.tolist() == [0, 0, 0, 7]


@runtimes
def test_forced_segfault_hook(monkeypatch):
    require_or_skip("onnx.reference")
    monkeypatch.setenv("RUNTIME_CHECK_TEST_FAULT", "segfault")
    res = rc.run_guarded("onnx.reference", "ScatterND-16", [1, 2], [[0]], [5])
    assert not res.ok and rc.is_crash(res)
    assert res.error.startswith("onnx.reference crashed (signal 11 / exit code -11, SIGSEGV)")


@runtimes
def test_forced_hang_times_out(monkeypatch):
    require_or_skip("onnx.reference")
    monkeypatch.setenv("RUNTIME_CHECK_TEST_FAULT", "hang")
    res = rc.run_guarded("onnx.reference", "ScatterND-16", [1, 2], [[0]], [5], timeout=2)
    assert not res.ok and rc.is_crash(res) and res.error == "onnx.reference timed out after 2 s"


@runtimes
def test_forced_exit_without_answer(monkeypatch):
    require_or_skip("onnx.reference")
    monkeypatch.setenv("RUNTIME_CHECK_TEST_FAULT", "exit")
    res = rc.run_guarded("onnx.reference", "ScatterND-16", [1, 2], [[0]], [5])
    assert not res.ok and rc.is_crash(res)
    assert res.error.startswith("onnx.reference worker exited with code 3 without an answer")


@runtimes
def test_fault_hook_is_ignored_outside_pytest(monkeypatch):
    require_or_skip("onnx.reference")
    monkeypatch.setenv("RUNTIME_CHECK_TEST_FAULT", "segfault")
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    res = rc.run_guarded("onnx.reference", "ScatterND-16", [1, 2], [[0]], [5])
    assert res.ok and res.output.tolist() == [5, 2]


# -- compare() ----------------------------------------------------------------------------
@runtimes
def test_compare_names_a_documented_divergence():
    require_or_skip("openvino-cpu", "openvino-reference")
    cmp = {c.runtime: c for c in rc.compare("ScatterElementsUpdate-12", i32([0, 5]), [0], i32([-3]),
                                            axis=0, reduction="mean")}
    cpu, ref = cmp["openvino-cpu"], cmp["openvino-reference"]
    assert ref.agree and ref.outcome is None and not ref.new
    assert not cpu.agree and cpu.outcome == "value"
    assert cpu.cells == ((0,),) and cpu.n_cells == 1
    assert cpu.core_values == (-2,) and cpu.runtime_values == (-1,)
    assert cpu.known_divergence == cpu.divergence == "integer-mean-truncation" and not cpu.new
    assert "truncates toward zero" in cpu.divergence_text
    assert cpu.version == rc.available()["openvino-cpu"] and cpu.op == "ScatterElementsUpdate-12"


@runtimes
def test_compare_flags_an_unexplained_difference_as_new(monkeypatch):
    require_or_skip("openvino-cpu")
    monkeypatch.setattr(divergences, "KNOWN_DIVERGENCES", ())
    (cpu,) = rc.compare("ScatterElementsUpdate-12", i32([0]), [0], i32([-3]), axis=0, reduction="mean",
                        runtimes=["openvino-cpu"], guarded=False)
    assert not cpu.agree and cpu.new and cpu.divergence is None and cpu.known_divergence is None


@runtimes
def test_compare_names_an_observed_but_undocumented_divergence_and_still_calls_it_new():
    require_or_skip("openvino-cpu")
    (cpu,) = rc.compare("ScatterNDUpdate-15", np.array([False, True]), [[0], [0]], np.array([True, True]),
                        reduction="sub", runtimes=["openvino-cpu"], guarded=False)
    assert not cpu.agree and cpu.cells == ((0,),) and cpu.core_values == (False,) and cpu.runtime_values == (True,)
    assert cpu.divergence == "bool-sum-sub-as-uint8" and cpu.known_divergence is None and cpu.new


@runtimes
def test_compare_reports_a_crash_without_dying():
    require_or_skip("openvino-cpu", "openvino-reference")
    cmp = {c.runtime: c for c in rc.compare("ScatterElementsUpdate-12", np.zeros(4, i32), [-10**9], i32([7]),
                                            axis=0)}
    cpu, ref = cmp["openvino-cpu"], cmp["openvino-reference"]
    assert not cpu.core_ok and "out of range" in cpu.core_error
    assert cpu.outcome == "crash" and cpu.known_divergence == "index-below-range-crash" and not cpu.new
    assert "SIGSEGV" in cpu.runtime_error
    assert ref.agree and not ref.runtime_ok and "normalized >= 0" in ref.runtime_error  # both refuse


@runtimes
def test_compare_runs_scatter_11_through_its_stand_in():
    require_or_skip("onnxruntime", "onnx.reference")
    data = np.zeros((3, 3), f32)
    upd = f32([[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]])
    got = rc.compare("Scatter-11", data, [[1, 0, 2], [0, 2, 1]], upd, guarded=False,
                     runtimes=("onnxruntime", "onnx.reference"))
    assert [c.runtime for c in got] == ["onnxruntime", "onnx.reference"]
    for c in got:
        assert c.agree and c.op == "ScatterElements-11" and "ScatterElements-11" in c.note


@runtimes
def test_compare_gives_runtimes_the_core_view_of_attributes_and_types():
    """reduction='none' on a version without the attribute is 'not given' (scatter_core's rule), and
    untyped updates (a list) that cast losslessly to data's type are cast, as scatter_core does; typed
    updates of another dtype are refused by both (one type T)."""
    require_or_skip("onnxruntime", "onnx.reference")
    got = rc.compare("ScatterND-11", f32([1, 2]), [[0]], [5], reduction="none", guarded=False,
                     runtimes=("onnxruntime", "onnx.reference"))
    assert [c.agree for c in got] == [True, True]
    assert got[0].runtime_output.dtype == np.float32 and got[0].runtime_output.tolist() == [5, 2]
    typed = rc.compare("ScatterND-11", f32([1, 2]), [[0]], np.int64([5]), reduction="none", guarded=False,
                       runtimes=("onnxruntime", "onnx.reference"))
    assert [(c.agree, c.core_ok, c.runtime_ok) for c in typed] == [(True, False, False), (False, False, True)]
    assert "int64" in typed[0].core_error and "float32" in typed[0].core_error
    assert typed[1].divergence == "updates-dtype-not-validated" and typed[1].runtime_output.tolist() == [5, 2]
    assert rc.run("onnxruntime", "ScatterND-11", f32([1, 2]), [[0]], f32([5]), reduction="none").error \
        .find("Unrecognized attribute: reduction") >= 0


def test_differing_cells_compares_bits():
    a = np.array([0.0, -0.0, np.nan, 1.0], f32)
    b = np.array([-0.0, -0.0, np.nan, 1.0], f32)
    assert rc.differing_cells(a, b).tolist() == [True, False, False, False]
    assert rc.differing_cells(i32([1, 2]), i32([1, 3])).tolist() == [False, True]


def test_pretend_installed_changes_what_available_reports_inside_the_block_only(monkeypatch):
    before = rc.available()
    with rc.pretend_installed({"onnxruntime": "1.32.0", "openvino-cpu": None}):
        inside = rc.available()
        assert inside["onnxruntime"] == "1.32.0" and inside["openvino-cpu"] is None
        assert inside["onnx.reference"] == before["onnx.reference"]
    assert rc.available() == before
    monkeypatch.setenv("SCATTER_EXPLORER_PRETEND_INSTALLED", "onnxruntime=9.9.9, openvino-reference=")
    assert rc.available()["onnxruntime"] == "9.9.9" and rc.available()["openvino-reference"] is None
    with pytest.raises(ValueError, match="tensorrt"):
        with rc.pretend_installed({"tensorrt": "1"}):
            pass


def test_version_pins_are_read_from_the_runtimes_extra():
    text = 'runtimes = ["onnx==1.23.2", "onnxruntime==1.31.1", "openvino==2026.4.1"]'
    assert rc.pins_in(text) == {"onnxruntime": "1.31.1", "onnx.reference": "1.23.2", "openvino-onnx": "2026.4.1",
                                "openvino-cpu": "2026.4.1", "openvino-reference": "2026.4.1"}
    assert rc.version_skew("onnxruntime", "1.31.1", rc.pins_in(text)) == ""
    assert rc.version_skew("onnxruntime", "1.30.0", rc.pins_in(text)) == \
        "verified on onnxruntime 1.31.1; installed 1.30.0: run `scatter-explorer verify-facts`"
    assert rc.version_skew("openvino-cpu", "2026.5.0", rc.pins_in(text)).startswith("verified on openvino 2026.4.1;")
    assert rc.version_skew("onnxruntime", None) == "" and set(rc.verified_versions()) == set(rc.RUNTIMES)


def test_another_order_of_duplicate_writes_is_the_documented_parallel_divergence():
    """OV-CPU's parallel ScatterND(none) may keep any write of a duplicated cell (docs/semantics.md): an output is
    explained only when every differing cell was written more than once and holds one of its writes."""
    ex = se.by_id("ov-scatter-nd-update-15-xml-example-1")  # cell 0 gets 10 then 50, cell 1 gets 30 then 40
    d = divergences.BY_LABEL["duplicates-parallel-order"]
    case = divergences.RuntimeCase.of("openvino-cpu", OPERATORS[ex.op], ex.data, ex.indices, ex.updates, dict(ex.attrs))
    f32 = np.float32

    def explained(output, c=case):
        return d.matches(c, "value", f32(output), None, f32([50, 40, 20, 4]))

    assert explained([10, 30, 20, 4]) and explained([50, 30, 20, 4]) and explained([10, 40, 20, 4])
    assert not explained([50, 20, 20, 4])  # the spec page's print: 20 was never written to cell 1
    assert not explained([50, 40, 30, 4])  # cell 2 is written once (20)
    assert not explained([50, 40, 20, 5])  # cell 3 is never written
    assert not explained([50, 40, 20, 4])  # no difference to explain
    assert not explained([10, 30, 20, 4], dataclasses.replace(case, runtime="openvino-reference"))
    assert not explained([10, 30, 20, 4], divergences.RuntimeCase.of("openvino-cpu", OPERATORS[ex.op], ex.data,
                                                                      ex.indices, ex.updates, {"reduction": "sum"}))
    elements = se.by_id("ov-scatter-elements-update-12-example-1")
    assert not d.matches(divergences.RuntimeCase.of("openvino-cpu", OPERATORS[elements.op], elements.data,
                                                    elements.indices, elements.updates, dict(elements.attrs)),
                         "value", elements.data.copy(), None)
    assert d.documented and "formally undefined" in d.text


def test_valid_attributes_are_encoded_by_their_codec_and_others_as_given():
    """The ONNX attribute and the OpenVINO input of a value of its kind are the codec's forms; a value of
    another kind (a float axis, an int32 axis array) reaches the runtime as given, so its own reaction shows."""
    from runtime_check import onnx_backend, openvino_backend

    tse = OPERATORS["ScatterElements-18"]
    for value in (np.int64(-1), -1, [2]):
        written = onnx_backend.attribute_value(tse, "axis", value)
        assert written == sc.codec_of(tse, "axis").to_onnx(value) and type(written) is int
    assert onnx_backend.attribute_value(tse, "axis", 1.5) == 1.5  # another kind: as given (onnx refuses it)
    assert onnx_backend.attribute_value(tse, "reduction", "ADD") == "ADD"  # a spelling it lacks: as given
    assert onnx_backend.attribute_value(tse, "colour", np.int64(3)) == 3  # a name it lacks: as given

    seu, ss = OPERATORS["ScatterElementsUpdate-12"], OPERATORS["SliceScatter-15"]
    axis, start = sc.codec_of(seu, "axis"), sc.codec_of(ss, "start")
    scalar = openvino_backend.input_array(axis, np.int32(1))
    assert scalar.dtype == np.int64 and scalar.shape == () and scalar.tolist() == 1
    kept = openvino_backend.input_array(axis, np.array([1], dtype=np.int32))  # an array keeps its dtype
    assert kept.dtype == np.int32 and kept.tolist() == [1]
    listed = openvino_backend.input_array(start, (0, -1))
    assert listed.dtype == np.int64 and listed.tolist() == [0, -1]
    assert openvino_backend.input_array(start, []).shape == (0,)
    with pytest.raises(TypeError, match="axis = True must be an integer"):  # another kind: OpenVINO's rule
        openvino_backend.input_array(axis, True)


def test_a_runtime_case_holds_the_cores_case_or_only_the_unchecked_inputs():
    """RuntimeCase.of: the core's Case where it accepts the inputs (the inputs read from it as given, the
    attributes after the version's defaults); the inputs as given, in a scatter_core.Unchecked, where it refuses
    them (an index out of range), so the divergence reads what the runtime got."""
    spec = OPERATORS["ScatterElements-18"]
    data, updates = np.zeros((2, 3), np.float32), np.ones((1, 2), np.float32)
    ok = divergences.RuntimeCase.of("onnxruntime", spec, data, np.array([[1, 0]]), updates, {"axis": -1})
    assert isinstance(ok.case, sc.Case) and ok.unchecked is None and ok.spec is spec
    assert ok.data.tolist() == data.tolist() and ok.indices.tolist() == [[1, 0]] and ok.updates.shape == (1, 2)
    assert dict(ok.attrs) == {"axis": 1, "reduction": "none"} and ok.axis == 1 and ok.canonical == "none"

    refused = divergences.RuntimeCase.of("onnxruntime", spec, data, np.array([[7, 0]]), updates,
                                         {"axis": -1, "reduction": None})
    assert refused.case is None and isinstance(refused.unchecked, sc.Unchecked) and refused.spec is spec
    assert refused.indices.tolist() == [[7, 0]] and dict(refused.attrs) == {"axis": -1, "reduction": None}
    assert refused.axis == 1 and refused.reduction is None and refused.canonical == "none"
    assert divergences.RuntimeCase.of("onnxruntime", spec, data, np.array([[1, 0]]), updates,
                                      {"axis": 0, "reduction": "ADD"}).case is None  # a spelling it lacks
    with pytest.raises(ValueError, match="either the core's Case"):
        divergences.RuntimeCase("onnxruntime", ok.case, refused.unchecked)
    with pytest.raises(ValueError, match="either the core's Case"):
        divergences.RuntimeCase("onnxruntime", None)
