"""From your code's exported pytest files, run with PyTorch and TensorFlow installed (issue 24).

The page exports a pytest for every call on tensors: one ONNX node (``equivalence_pytest``) or a composition's
model (``composition_export``), each with a test running the framework's own call. That test skips where the
framework is not installed, so CI (which installs neither: they are optional) never runs it. Here, where PyTorch
or TensorFlow is installed, every PyTorch and TensorFlow call shape of tests/from_code/test_from_call.py is exported on
drawn tensors with duplicate indices (wherever the call can repeat a cell) and negative indices (wherever the
call takes them), each file is run by pytest in a fresh interpreter, and the framework's test must have RUN and
passed, not skipped. Like tests/from_code/test_from_call.py's differential, these skip where the framework is absent
(``require_framework``: optional, so no failure under CI=true); scripts/verify_frameworks.py runs them too.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import from_code as fc
import framework_map as fm
import scatter_core as sc
from from_code.case import case_for, example_tensors, framework_inputs
from from_code.graph import needs_graph
from from_code.run import composition_export, equivalence_pytest
from tests.support.skipping import require_framework, require_or_skip
from tests.support.from_call import SHAPES, read

DTYPES = ("float32", "int32")
DRAWS = 60  # tensors drawn per (call, dtype) until they repeat a cell and hold a negative index
FRAMEWORK_TESTS = ("test_the_framework_call_gives_the_expected_output",  # composition_export's
                   "test_pytorch_call_equals_the_onnx_model", "test_tensorflow_call_equals_the_onnx_model")


def _negative(tr, tensors) -> bool:
    """Whether an index tensor the call takes holds a negative index."""
    names = {s.name for s in tr.slots if s.role == "indices"}
    return any(a.dtype.kind == "i" and a.min(initial=0) < 0 for k, a in framework_inputs(tr, tensors).items()
               if k in names)


def takes_negatives(tr) -> bool:
    """Whether the call takes an index tensor and counts its negative indices from the end."""
    return tr.negatives and any(s.role == "indices" for s in tr.slots)


def _duplicates(tr, tensors) -> bool:
    return bool(case_for(tr, tensors).case.trace().duplicate_groups().size)


def _export(tr, tensors) -> str:
    """The pytest the page offers for these tensors (from_call_page: a composition's, else the one node's)."""
    return composition_export(tr, tensors).pytest if needs_graph(tr) else equivalence_pytest(tr, tensors)


def draw(tr, rng, dtype):
    """Tensors for ``tr`` that repeat a cell and hold a negative index where the call allows either (each
    looked for over DRAWS draws), and the export made of them; (tensors, pytest, duplicates, negative)."""
    best = None
    for _ in range(DRAWS):
        tensors = example_tensors(tr, rng, dtype, (3, 4))
        try:
            code = _export(tr, tensors)
        except sc.ScatterError as exc:  # a slice that selects nothing: nothing to export, draw again
            assert exc.rule == "empty-slice", str(exc)
            continue
        found = (tensors, code, _duplicates(tr, tensors), _negative(tr, tensors))
        score = found[2] + (found[3] or not takes_negatives(tr))
        if best is None or score > best[0]:
            best = (score, found)
        if score == 2:
            break
    assert best is not None, f"{tr.call}: every draw was an empty slice"
    return best[1]


def run_exports(directory: Path) -> dict[tuple[str, str], str]:
    """pytest -v on the files in ``directory``, in a fresh interpreter that cannot import this project:
    {(file, test): PASSED / FAILED / SKIPPED / ERROR}."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="3")
    done = subprocess.run([sys.executable, "-m", "pytest", "-v", "-rs", "-p", "no:cacheprovider", "--rootdir",
                           str(directory), str(directory)], cwd=directory, env=env, capture_output=True, text=True,
                          timeout=1800)
    outcomes = {(m[1], m[2]): m[3] for m in re.finditer(r"^(\S+?\.py)::(\w+) (PASSED|FAILED|SKIPPED|ERROR)",
                                                          done.stdout, re.M)}
    assert outcomes, done.stdout[-3000:] + done.stderr[-2000:]
    return outcomes, done


@pytest.mark.slow
@pytest.mark.parametrize("framework", ["PyTorch", "TensorFlow"])
def test_every_exported_pytest_runs_the_frameworks_own_call_and_passes(framework, tmp_path):
    require_framework(framework)
    require_or_skip("onnx", "onnxruntime", "onnx.reference")
    rng = np.random.default_rng(24)
    written, missing = {}, []
    for text in SHAPES[framework]:
        tr = read(text)
        assert tr.framework == framework
        for dtype in DTYPES:
            tensors, code, dup, neg = draw(tr, rng, dtype)
            if takes_negatives(tr) and not neg:
                missing.append(f"{text} ({dtype}): no negative index in {DRAWS} draws")
            name = f"test_export_{len(written):03d}.py"
            (tmp_path / name).write_text(code)
            written[name] = (text, dtype, dup, {k: v.tolist() for k, v in tensors.items()})
    assert not missing, "\n".join(missing)
    dups = {text for text, _, dup, _ in written.values() if dup}
    can_repeat = [t for t in SHAPES[framework] if read(t).reading.form.name not in ("slice", "mask")]
    assert set(can_repeat) <= dups, sorted(set(can_repeat) - dups)  # every call that can repeat a cell did
    outcomes, done = run_exports(tmp_path)
    bad = []
    for name, (text, dtype, _, tensors) in written.items():
        ran = {test: outcome for (f, test), outcome in outcomes.items() if f == name}
        own = [outcome for test, outcome in ran.items() if test in FRAMEWORK_TESTS]
        if own != ["PASSED"] or any(o != "PASSED" for o in ran.values()):
            bad.append(f"{name}: {text} ({dtype}) {tensors}: {ran}")
    assert not bad, "\n".join(bad[:20]) + "\n" + done.stdout[-4000:]


def test_pytorch_refuses_the_bool_subtraction_the_translation_refuses_and_agrees_on_bool_or_and():
    """The reason from_code.case._combine refuses x[i, j] -= v on bool data: PyTorch raises for it
    as NumPy does; += and *= on bool (or / and) give the case's output."""
    require_framework("PyTorch")
    from tests.support.from_call import run_framework

    bools = {"data": np.array([[True, False], [False, True]]), "indices_0": np.array([0, -1]),
             "indices_1": np.array([1, 1]), "values": np.array([True, True])}
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors is not supported"):
        run_framework(read("x[i, j] -= v"), bools)
    with pytest.raises(sc.ScatterError, match="not defined for bool"):
        case_for(read("x[i, j] -= v"), bools)
    for text in ("x[i, j] += v", "x[i, j] *= v"):
        tr = read(text)
        assert run_framework(tr, bools).tolist() == case_for(tr, bools).output().tolist()


@pytest.mark.parametrize("framework,text", [("TensorFlow", "tf.tensor_scatter_nd_max(t, idx, upd)"),
                                            ("TensorFlow", "tf.tensor_scatter_nd_min(t, idx, upd)"),
                                            ("PyTorch", "x.scatter_reduce(0, idx, src, 'amax')"),
                                            ("PyTorch", "x.scatter_reduce(0, idx, src, 'amin')")])
def test_a_nan_in_max_min_differs_only_as_the_caveat_says(framework, text):
    """NaN updates into a max / min: PyTorch gives the case's output (NaN wherever one takes part); TensorFlow
    ignores the NaN updates, as the call's caveat (from the probe recorded in verified.py) says: it differs from
    the case exactly at the cells a NaN update takes part in, and there holds the max / min of the rest."""
    require_framework(framework)
    from tests.support.from_call import run_framework

    tr = read(text)
    names = [s.name for s in tr.slots]
    data = np.array([1.0, 4.0, -2.0, np.nan], np.float32)
    index = np.array([0, 0, 1, 2, 3], np.int64)
    values = np.array([np.nan, 3.0, np.nan, 5.0, 2.0], np.float32)
    tensors = dict(zip(names, (data, index[:, None] if framework == "TensorFlow" else index, values)))
    want = case_for(tr, tensors).output()
    got = run_framework(tr, tensors)
    np.testing.assert_array_equal(np.isnan(want), [True, True, False, True])  # scatter_core: the NaN propagates
    if framework == "PyTorch":
        np.testing.assert_array_equal(got, want)
        return
    assert any("a NaN update is ignored" in c for c in tr.caveats)
    keep = {"max": np.fmax, "min": np.fmin}[tr.reading.canonical]  # the NaN updates left out
    np.testing.assert_array_equal(got, [keep(1.0, 3.0), 4.0, keep(-2.0, 5.0), np.nan])


def test_index_add_alpha_rounds_as_the_recorded_probe_says():
    """torch.index_add(alpha=3) on float32 data of rank 2 rounds data + alpha * source once (a fused multiply-add;
    found on torch 2.13.0+cpu running From your code's calls), where the composition (Mul, then the adding scatter)
    and scatter_core round twice; on rank 1 it rounds twice. The caveat says so from verified.py; here the probe
    is run again and the call on both ranks differs from the case exactly as the record says."""
    require_framework("PyTorch")
    import importlib.metadata

    from framework_map import differential
    from framework_map.verified import VERIFIED
    from tests.support.from_call import run_framework

    res = VERIFIED["PyTorch"]
    if res["version"] != f"torch {importlib.metadata.version('torch')}":
        pytest.skip(f"torch {importlib.metadata.version('torch')} is not the version recorded ({res['version']})")
    assert differential.torch_index_add_alpha() == res["index_add_alpha"]
    tr = read("x.index_add_(0, idx, src, alpha=3)")
    assert any("PyTorch computed data + alpha * source with a single rounding" in c for c in tr.caveats)
    src = np.float32(1 + 2.0 ** -23)
    for rank, shape in zip(differential.ALPHA_RANKS, ((4,), (1, 4))):
        tensors = {"data": np.full(shape, -3, np.float32), "index": np.arange(shape[0]),
                   "source": np.full(shape, src, np.float32)}
        want = case_for(tr, tensors).output()  # rounded twice: 2**-21
        got = run_framework(tr, tensors)
        np.testing.assert_array_equal(want, np.full(shape, 2.0 ** -21, np.float32))
        expected = {"rounded twice": want, "rounded once": np.full(shape, 3 * 2.0 ** -23, np.float32)}
        np.testing.assert_array_equal(got, expected[res["index_add_alpha"][rank]], err_msg=rank)


@pytest.mark.slow
@pytest.mark.parametrize("framework,text", [
    ("PyTorch", "x.scatter_reduce(0, idx, src, reduce='mean', include_self=False)"),
    ("PyTorch", "x.index_put_((i, j), v)"), ("PyTorch", "x[idx] += v"), ("PyTorch", "x.masked_scatter(m, src)"),
    ("TensorFlow", "tf.tensor_scatter_nd_sub(t, idx, upd)"), ("TensorFlow", "tf.scatter_nd(idx, upd, shape)")])
def test_the_apps_guarded_run_of_the_frameworks_call_agrees(framework, text):
    """The page's in-app equivalence run (run_guarded: the call in a child Python) with the framework installed:
    it answers with the framework's version and a verdict of "exact" (or another duplicate winner, which the
    caveats allow under replacement) on tensors with duplicate indices. (With tensorflow-cpu alone installed,
    the worker asked importlib.metadata for "tensorflow", which it does not know: every TensorFlow run failed.)"""
    require_framework(framework)
    import importlib.metadata

    from from_code.case import DISTRIBUTIONS_OF
    from from_code.run import run_guarded

    def _has(dist):
        try:
            return bool(importlib.metadata.version(dist))
        except importlib.metadata.PackageNotFoundError:
            return False

    tr = read(text)
    tensors, _, dup, _ = draw(tr, np.random.default_rng(3), "int32")
    out = run_guarded(tr, tensors)
    assert out.ok, out.error
    assert out.version in {f"{d} {importlib.metadata.version(d)}" for d in DISTRIBUTIONS_OF[framework] if _has(d)}
    assert out.verdict == "exact" or (out.verdict == "other-winner" and tr.reading.canonical == "none" and dup), \
        out.verdict


@pytest.mark.slow
@pytest.mark.parametrize("framework", ["PyTorch", "TensorFlow"])
def test_every_masked_writes_exported_pytest_runs_the_frameworks_own_call_and_passes(framework, tmp_path):
    """masked_fill, torch.where, x[i, :, m] = v ... and tf.where (issue 31): each call's export on drawn tensors
    (a scalar, a tensor, all-False and all-True masks among them), run where the framework is installed: the
    framework's own test RAN and passed, beside the model's on onnxruntime and onnx.reference."""
    require_framework(framework)
    require_or_skip("onnx", "onnxruntime", "onnx.reference")
    from from_code.case import resolve
    from tests.support.from_call import GIVEN, MASKED, MIXED, TORCH_SELECTS

    rng = np.random.default_rng(31)
    texts = MASKED[framework] + MIXED.get(framework, []) + (TORCH_SELECTS if framework == "PyTorch" else [])
    written = {}
    for text in texts:
        first = fc.from_call(text, tensors=GIVEN)
        for n in range(3):
            tensors = example_tensors(first, rng, DTYPES[n % 2])
            name = f"test_masked_{len(written):03d}.py"
            (tmp_path / name).write_text(_export(resolve(first, tensors), tensors))
            written[name] = (text, {k: v.tolist() for k, v in tensors.items()})
    outcomes, done = run_exports(tmp_path)
    bad = []
    for name, (text, tensors) in written.items():
        ran = {test: outcome for (f, test), outcome in outcomes.items() if f == name}
        own = [outcome for test, outcome in ran.items() if test in FRAMEWORK_TESTS]
        if own != ["PASSED"] or any(o != "PASSED" for o in ran.values()):
            bad.append(f"{name}: {text} {tensors}: {ran}")
    assert not bad, "\n".join(bad[:20]) + "\n" + done.stdout[-4000:]
