"""What a capture and its bug report say: the dims that ran, the deployed runtime first, the runtime that
failed, a mean as the sum over the count, and a zip that holds exactly what its README lists."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import scatter_core as sc
import scatter_models as sm
from scatter_models import explain, support
from scatter_models.report import bug_report, summary
from scatter_models.samples import SAMPLES, sample_path
from tests.support.skipping import require_or_skip


def _model(key):
    return sm.open_model(sample_path(key))


def _zip(blob: bytes) -> tuple[str, list[str]]:
    with zipfile.ZipFile(io.BytesIO(blob)) as z:
        return z.read("README.md").decode(), z.namelist()


def _listed(readme: str) -> list[str]:
    files = readme.split("## Files", 1)[1]
    return re.findall(r"^- `([^`]+)`:", files, flags=re.M)


# -- the dims that ran ---------------------------------------------------------------------------------------

def test_given_inputs_fix_the_dims_the_capture_and_the_report_say():
    """An input 2×16×4 where the dims box says 4: what ran, and so what is reported, is max_seq = 16."""
    model = _model("kv_cache")
    inputs = {"past_key": np.zeros((2, 16, 4), np.float32), "p": np.array([3])}
    cap = model.capture(inputs, runtime="reference")
    assert cap.dims == {"max_seq": 16}
    assert cap["kv_write"].case.data.shape == (2, 16, 4)
    assert "symbolic dims:  max_seq=16" in summary(model, cap, "kv_write")
    try:  # a box that says otherwise never becomes what is reported: the inputs' dims win, or it is refused
        cap = model.capture(inputs, dims={"max_seq": 4}, runtime="reference")
    except sm.ModelError as exc:
        assert "max_seq" in str(exc) and "16" in str(exc)
    else:
        assert cap.dims == {"max_seq": 16}


# -- the deployed runtime first ------------------------------------------------------------------------------

def test_the_default_runtime_is_what_ships():
    require_or_skip("openvino")
    assert sm.default_runtime(_model("ov_mean")) == "openvino"
    expected = "onnxruntime" if sm.runtime_available("onnxruntime") else "reference"
    assert sm.default_runtime(_model("kv_cache")) == expected
    # a model onnxruntime cannot read (an IR version newer than it knows) falls back to the spec's reference
    model = _model("index_put")
    model.ir_version = support.ORT_MAX_IR_VERSION + 1
    assert sm.default_runtime(model) == "reference"
    assert "IR version" in sm.runtime_problem(model, "onnxruntime")


def test_the_ir_version_onnxruntime_reads_is_the_one_recorded():
    require_or_skip("onnxruntime")
    import onnxruntime as ort
    from onnx import TensorProto as T, helper as h

    def loads(ir_version: int) -> bool:
        x, y = (h.make_tensor_value_info(n, T.FLOAT, [1]) for n in "xy")
        graph = h.make_graph([h.make_node("Identity", ["x"], ["y"])], "g", [x], [y])
        model = h.make_model(graph, opset_imports=[h.make_opsetid("", 18)], ir_version=ir_version)
        try:
            ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
            return True
        except Exception:  # noqa: BLE001 - the refusal is the answer
            return False

    assert loads(support.ORT_MAX_IR_VERSION) and not loads(support.ORT_MAX_IR_VERSION + 1)


def test_an_ir_default_capture_runs_on_the_cpu_plugin_and_differs_on_two_cells():
    require_or_skip("openvino")
    cap = _model("ov_mean").capture()
    rec = cap["mean_update"]
    assert cap.runtime == "openvino" and rec.output_source == "OpenVINO CPU"
    assert explain.differing_cells(rec) == 2
    text = explain.differs_text("OpenVINO CPU", {"mean_update": 2}, {"mean_update": 12})
    assert text == "OpenVINO CPU differs from the spec's loop on 2 cells: node mean_update (2 of 12 cells)."
    assert explain.differs_text("OpenVINO CPU", {"mean_update": 0}) == ""


def test_a_failed_ir_run_names_openvino_not_onnx_reference(monkeypatch):
    """An IR on runtime "reference" runs on OpenVINO's reference kernels: a failure says so."""
    require_or_skip("openvino")
    import scatter_models.capture as capture_module

    def fail(directory, model, request, where, seconds, max_rss):  # the worker's answer: it failed
        return {"ok": False, "error": "boom"}

    monkeypatch.setattr(capture_module, "execute_request", fail)
    with pytest.raises(sm.ModelError) as err:
        _model("ov_mean").capture(runtime="reference")
    assert "OpenVINO reference kernels" in str(err.value) and "onnx.reference" not in str(err.value)


# -- a mean as the spec defines it ---------------------------------------------------------------------------

def _chain(op, data, indices, updates, given, **attrs):
    case = sc.case(op, np.asarray(data), np.asarray(indices), np.asarray(updates), **attrs)
    report = sc.check_expected(case, np.asarray(given, dtype=case.given()[0].dtype))
    return case, report.chains[0]


def test_an_integer_mean_is_the_sum_over_the_count_then_the_rounding():
    case, chain = _chain("ScatterElementsUpdate-12", np.array([-2, 5], np.int32), [0, 0],
                         np.array([0, 1], np.int32), [0, 5], axis=0, reduction="mean", use_init_val=True)
    text = explain.cell_words(chain, case, "OpenVINO CPU gave")
    assert text == chain.explain("OpenVINO CPU gave")  # scatter_core's one text, as on the Check page
    assert ("Sum -2 + 0 + 1 = -1 over count 3: -1/3 ≈ -0.3333. Rounded down (toward −∞) as the spec says: -1; "
            "truncated toward zero, as the OpenVINO") in text
    assert text.endswith("Computed -1; OpenVINO CPU gave 0, which is -1/3 ≈ -0.3333 truncated toward zero.")
    assert "→" not in text  # no running pair
    facts = explain.mean_facts(case, "openvino-cpu")
    assert len(facts) == 1 and "truncates toward zero" in facts[0]  # the int16 fact is not about int32
    assert explain.mean_facts(case, "openvino-reference") == []


def test_a_mean_without_data_counts_only_the_updates_and_a_float_mean_is_one_division():
    case, chain = _chain("ScatterElementsUpdate-12", np.array([7.0, 1.0], np.float32), [0, 0, 0],
                         np.array([1.0, 1.0, 2.0], np.float32), [1.5, 1.0], axis=0, reduction="mean",
                         use_init_val=False)
    text = explain.cell_words(chain, case, "a runtime gave")
    assert "gets 3 updates in the spec's loop order: step 1 updates[0] = 1, step 2 updates[1] = 1, step 3 updates[2] = 2" in text
    assert "Sum 1 + 1 + 2 = 4 over count 3: 1.3333334 in float32" in text and "data's value takes no part" in text


def test_other_reductions_keep_the_spec_loop_chain():
    case, chain = _chain("ScatterElements-18", np.zeros(2, np.float32), [0, 0], np.ones(2, np.float32), [1, 0],
                         reduction="add")
    assert explain.cell_words(chain, case, "x gave") == chain.explain("x gave")


# -- the bug report ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", list(SAMPLES))
def test_the_bug_report_lists_exactly_the_files_it_holds(key):
    if key == "ov_mean":
        require_or_skip("openvino")
    model = _model(key)
    cap = model.capture(runtime="reference")
    for name in cap:
        readme, names = _zip(bug_report(model, cap, name, crosscheck=False))
        assert sorted(_listed(readme)) == sorted(n for n in names if n != "README.md"), (key, names)
        if model.node(name).spec.framework == "OpenVINO":
            assert "onnx_case.zip" not in readme and {"node.xml", "node.bin", "test_openvino.py"} <= set(names)


def _run_pytest(folder, test: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test], cwd=folder,
                          capture_output=True, text=True, timeout=180)


@pytest.mark.slow
def test_an_ir_node_report_carries_a_one_node_ir_whose_pytest_fails_where_the_cpu_plugin_differs(tmp_path):
    require_or_skip("openvino")
    model = _model("ov_mean")
    cap = model.capture()  # the CPU plugin: it truncates two negative means the spec floors
    blob = bug_report(model, cap, "mean_update")
    readme, names = _zip(blob)
    assert readme.index("OpenVINO CPU differs from the spec's loop on 2 of 12 cells") < readme.index("## The node")
    cross = readme.split("## Cross-check on every installed runtime", 1)[1].split("##", 1)[0]
    assert "OpenVINO CPU plugin 2026" in cross and "differs on 2 cells (a known difference" in cross
    assert "OpenVINO reference 2026" in cross and "equal to the exact result, bit for bit" in cross
    with zipfile.ZipFile(io.BytesIO(blob)) as z:
        z.extractall(tmp_path / "differs")
    run = _run_pytest(tmp_path / "differs", "test_openvino.py")
    assert run.returncode == 1 and "1 failed" in run.stdout and "Mismatched elements: 2 / 12" in run.stdout, \
        run.stdout[-2000:]
    # where no mean is negative and inexact, the plugin agrees and the same test passes
    inputs = {"data": np.full((4, 3), 2, np.int32), "indices": np.zeros((2, 3), np.int64),
              "updates": np.full((2, 3), 5, np.int32)}
    cap = model.capture(inputs)
    with zipfile.ZipFile(io.BytesIO(bug_report(model, cap, "mean_update", crosscheck=False))) as z:
        z.extractall(tmp_path / "agrees")
    run = _run_pytest(tmp_path / "agrees", "test_openvino.py")
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout[-2000:]


def test_an_onnx_node_report_cross_checks_every_installed_runtime():
    import runtime_check as rc

    model = _model("index_put")
    cap = model.capture(runtime="reference")
    readme, _ = _zip(bug_report(model, cap, "index_put_accumulate"))
    cross = readme.split("## Cross-check on every installed runtime", 1)[1].split("##", 1)[0]
    installed = rc.available()
    for runtime in rc.runtimes_for(sc.get_spec("ScatterND-18")):
        assert (rc.RUNTIME_TITLES[runtime] in cross) == bool(installed.get(runtime)), runtime
    assert "Indices: may repeat (from the graph)" in readme and "ArgMax 'pick_rows'" in readme


def test_the_doctests_of_the_words_and_proofs_run():
    import doctest

    from scatter_models import proofs

    for module in (explain, proofs, support):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_a_missing_one_node_ir_is_said_in_the_zip_and_its_readme(monkeypatch):
    require_or_skip("openvino")
    from scatter_models import one_node_ir

    def refuse(case, timeout=60.0):
        raise sm.ModelError("OpenVINO could not save ScatterElementsUpdate-12 as a one-node IR: no openvino")

    monkeypatch.setattr(one_node_ir, "build", refuse)
    model = _model("ov_mean")
    readme, names = _zip(bug_report(model, model.capture(runtime="reference"), "mean_update", crosscheck=False))
    assert "node.xml" not in names and "test_openvino.py" not in names and "node_ir.txt" in names
    assert "- `node_ir.txt`: why the one-node IR is missing" in readme and "`node.xml`" not in readme
    assert sorted(_listed(readme)) == sorted(n for n in names if n != "README.md")
