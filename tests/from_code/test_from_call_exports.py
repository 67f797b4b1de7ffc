"""Every single-operator export of From your code (issue 31): its ONNX model and a pytest that needs no framework.

Every call shape of tests/from_code/test_from_call.py that one ONNX operator computes is exported on drawn tensors: the
``.onnx`` passes onnx's full checker, and the downloaded pytest, run in a fresh interpreter where neither PyTorch
nor TensorFlow nor JAX can be imported (a meta-path blocker on a temporary PYTHONPATH), runs the model on
onnxruntime and onnx.reference and passes (the framework's own test skips, NumPy's runs), and fails against a
wrong model (the same node fed updates + 1).
"""

from __future__ import annotations

import re

import numpy as np

from from_code.case import example_tensors
from from_code.graph import needs_graph
from from_code.run import operator_export
from tests.support.skipping import require_or_skip
from tests.support.from_call import ALL, BLOCKED, BLOCKER, read, run_without_frameworks

MODEL_TESTS = ("test_onnxruntime_runs_the_model_to_the_expected_output",
               "test_onnx_reference_runs_the_model_to_the_expected_output")
FRAMEWORK_TEST = "test_the_framework_call_gives_the_expected_output"


def wrong_model(model: bytes, dtype) -> bytes:
    """The same one-node model fed updates + 1: a wrong model the exported tests must catch."""
    import onnx
    from onnx import helper, numpy_helper

    proto = onnx.load_from_string(model)
    node = proto.graph.node[0]
    node.input[list(node.input).index("updates")] = "wrong_updates"
    proto.graph.initializer.append(numpy_helper.from_array(np.array(1, dtype=dtype), "one"))
    proto.graph.node.insert(0, helper.make_node("Add", ["updates", "one"], ["wrong_updates"]))
    return proto.SerializeToString()


def test_every_single_operator_export_runs_without_any_framework_and_fails_against_a_wrong_model(tmp_path):
    require_or_skip("onnx", "onnxruntime", "onnx.reference")
    import base64

    import onnx
    import onnxruntime as ort

    blocker, good, wrong = (tmp_path / name for name in ("blocker", "good", "wrong"))
    for d in (blocker, good, wrong):
        d.mkdir()
    (blocker / "sitecustomize.py").write_text(BLOCKER)
    (good / "test_no_framework_here.py").write_text(  # the blocker works: else the skips below prove nothing
        "import importlib\nimport pytest\n\n\ndef test_cannot_import():\n    for name in " + repr(BLOCKED) + ":\n"
        "        with pytest.raises(ImportError):\n            importlib.import_module(name)\n")
    rng = np.random.default_rng(31)
    texts = [(fw, text) for fw, text in ALL if not needs_graph(read(text))]
    assert len(texts) >= 40 and {fw for fw, _ in texts} == {"PyTorch", "TensorFlow", "JAX", "NumPy"}
    written, caught = {}, set()
    for n, (framework, text) in enumerate(texts):
        tr = read(text)
        tensors = example_tensors(tr, rng, ("int32", "float32")[n % 2], (3, 4))
        export = operator_export(tr, tensors)
        onnx.checker.check_model(onnx.load_from_string(export.model), full_check=True)
        assert export.nodes == 1 and text not in export.pytest
        name = f"test_export_{n:03d}.py"
        (good / name).write_text(export.pytest)
        written[name] = (framework, text)
        scope: dict = {}
        exec(compile("\n".join(line for line in export.pytest.splitlines()  # noqa: S102 - our generated literals
                               if line.startswith(("import numpy", "FEEDS =", "EXPECTED ="))), name, "exec"), scope)
        bad = wrong_model(export.model, scope["FEEDS"]["updates"].dtype)
        got = ort.InferenceSession(bad, providers=["CPUExecutionProvider"]).run(None, scope["FEEDS"])[0]
        if np.array_equal(got.reshape(scope["EXPECTED"].shape), scope["EXPECTED"]):
            continue  # updates + 1 changed nothing here (a max that loses everywhere): no wrong model to catch
        caught.add(name)
        code = re.sub(r"^MODEL = .*$", f"MODEL = base64.b64decode({base64.b64encode(bad).decode('ascii')!r})",
                      export.pytest, count=1, flags=re.M)
        (wrong / name).write_text(code)
    assert len(caught) >= 0.8 * len(written), (len(caught), len(written))
    outcomes = run_without_frameworks(good, blocker)
    assert outcomes[("test_no_framework_here.py", "test_cannot_import")] == "PASSED"
    problems = []
    for name, (framework, text) in written.items():
        ran = {test: outcome for (f, test), outcome in outcomes.items() if f == name}
        own = "PASSED" if framework == "NumPy" else "SKIPPED"
        if [ran.get(t) for t in MODEL_TESTS] != ["PASSED", "PASSED"] or ran.get(FRAMEWORK_TEST) != own:
            problems.append(f"{name} {text}: {ran}")
    assert not problems, "\n".join(problems[:20])
    outcomes = run_without_frameworks(wrong, blocker)
    missed = [f"{name} {written[name][1]}: {[outcomes.get((name, t)) for t in MODEL_TESTS]}" for name in caught
              if [outcomes.get((name, t)) for t in MODEL_TESTS] != ["FAILED", "FAILED"]]
    assert not missed, "\n".join(missed[:20])
