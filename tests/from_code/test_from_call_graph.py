"""From your code: the ONNX model of a composition (from_code.graph, scatter_export.graphs).

A call no single ONNX operator computes (include_self=False, mean, sub, alpha, x[idx] += v, a strided slice,
a mask) gets its composition built as a real multi-node graph: these tests pin each graph's nodes, run every
composition on onnxruntime and onnx.reference over many drawn cases (duplicates and negative indices included)
against scatter_core's result of the call, and run the exported pytest files in a fresh interpreter."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import framework_map as fm
import scatter_core as sc
import scatter_export as se
from from_code.case import example_tensors
from from_code.graph import composition_graph, needs_graph
from from_code.run import composition_export
from tests.support.skipping import require_or_skip
from tests.support.from_call import ALL, read, run_model

COMPOSITIONS = [text for _, text in ALL if needs_graph(read(text))]
DTYPES = ("float32", "int32", "int64", "float64")


@pytest.fixture(autouse=True)
def _runtimes():
    require_or_skip("onnx", "onnxruntime", "onnx.reference")


# ------------------------------------------------------------------------------ which calls, which graphs
def test_the_compositions_cover_every_kind_and_one_operator_calls_have_none():
    kinds = {(tr.reading.form.name, tr.reading.canonical, tr.reading.init, tr.reading.gather_first,
              tr.reading.alpha is not None) for tr in map(read, COMPOSITIONS)}
    assert len(COMPOSITIONS) >= 30 and len(kinds) >= 15
    for text in ("x.scatter_reduce(1, idx, src, 'amax')", "x.at[i, j].add(v)", "tf.tensor_scatter_nd_max(t, idx, upd)"):
        tr = read(text)
        assert tr.onnx and not needs_graph(tr)
        with pytest.raises(sc.ScatterError, match="is one ONNX operator"):
            composition_graph(tr, example_tensors(tr, np.random.default_rng(0)))


@pytest.mark.parametrize("text,dtype,nodes", [
    ('torch.scatter_reduce(x, 0, idx, src, reduce="amax", include_self=False)', "float32",
     ["Shape", "Expand", "ScatterElements", "ScatterElements"]),
    ("x.index_reduce(0, idx, src, 'prod', include_self=False)", "int32",
     ["Shape", "Expand", "ScatterElements", "ScatterElements"]),
    ("x.scatter_reduce(0, idx, src, reduce='mean')", "float32",
     ["Shape", "Expand", "ScatterElements", "Shape", "Expand", "ScatterElements", "Div"]),
    ("x.scatter_reduce(0, idx, src, reduce='mean', include_self=False)", "int32",
     ["Shape", "Expand", "Expand", "ScatterElements", "ScatterElements", "Shape", "Expand", "ScatterElements", "Max",
      "Mod", "Sub", "Div", "Greater", "Where"]),
    ("tf.tensor_scatter_nd_sub(t, idx, upd)", "float32", ["Neg", "ScatterND"]),
    ("x.index_add_(0, idx, src, alpha=2)", "int32", ["Mul", "ScatterElements"]),
    ("x[idx] += v", "float32", ["GatherND", "Add", "ScatterND"]),
    ("x[:, idx] *= v", "int32", ["GatherElements", "Mul", "ScatterElements"]),
    ("torch.slice_scatter(x, src, dim=0, start=1, end=3)", "float32",
     ["Range", "Reshape", "Expand", "Concat", "ScatterND"]),
    ("x.at[0, 1:].add(1)", "int32", ["Range", "Reshape", "Expand", "Range", "Reshape", "Expand", "Concat", "GatherND",
                                     "Add", "ScatterND"]),
    ("x.masked_scatter(m, src)", "float32", ["NonZero", "Transpose", "Reshape", "Shape", "Slice", "ScatterND"]),
    ("x[x > 0] = v", "float32", ["NonZero", "Transpose", "ScatterND"]),
    ("x[x > 0] = 0", "int32", ["Where"]),
])
def test_each_composition_is_the_graph_its_explanation_names(text, dtype, nodes):
    import onnx

    tr = read(text)
    shape = (4, 5) if "1:" in text else (3, 4)
    graph = composition_graph(tr, example_tensors(tr, np.random.default_rng(11), dtype, shape))
    assert [n.op_type for n in graph.nodes] == nodes
    assert graph.summary.startswith(f"The ONNX model is {len(nodes)} node{'s' if len(nodes) > 1 else ''} ("
                                    + " → ".join(nodes) + ", opset 18): ")
    model = onnx.load_from_string(graph.model())
    onnx.checker.check_model(model, full_check=True)
    assert [n.op_type for n in model.graph.node] == nodes
    assert [i.name for i in model.graph.input] == [name for name, _ in graph.feeds]  # inputs, not initializers
    assert [o.version for o in model.opset_import] == [18] and model.graph.output[0].name == "output"


def test_the_model_bytes_are_deterministic():
    tr = read("x.scatter_reduce(0, idx, src, reduce='mean', include_self=False)")
    tensors = example_tensors(tr, np.random.default_rng(5), "float32", (3, 4))
    first = composition_graph(tr, tensors).model()
    assert composition_graph(tr, tensors).model() == first
    assert composition_export(tr, tensors).model == first


def test_include_self_false_writes_the_true_neutral_value():
    """max over contributions that are all -inf stays -inf (a dtype's lowest finite value would not); cells no
    index names keep data."""
    tr = read('torch.scatter_reduce(x, 0, idx, src, reduce="amax", include_self=False)')
    tensors = {"data": np.float32([7, 7, 7]), "index": np.int64([1, 1, 2]),
               "src": np.float32([-np.inf, -np.inf, 2])}
    graph = composition_graph(tr, tensors)
    want = np.float32([7, -np.inf, 2])
    assert np.array_equal(graph.call_case.output(), want)
    for runtime, got in run_model(graph.model(), dict(graph.feeds)).items():
        assert np.array_equal(got, want), runtime


def test_an_integer_mean_rounds_down_in_the_graph_too():
    """scatter_core floors an integer mean (toward -inf): -5 / 2 is -3, where a truncating Div would give -2."""
    tr = read("x.scatter_reduce(0, idx, src, reduce='mean', include_self=False)")
    tensors = {"data": np.int32([9, 9, 9]), "index": np.int64([0, 0, 2]), "src": np.int32([-3, -2, 4])}
    graph = composition_graph(tr, tensors)
    want = np.int32([-3, 9, 4])
    assert np.array_equal(graph.call_case.output(), want)
    for runtime, got in run_model(graph.model(), dict(graph.feeds)).items():
        assert np.array_equal(got, want) and got.dtype == np.int32, runtime


def test_an_empty_slice_is_named_instead_of_exported():
    tr = read("x[1:3] = v")
    with pytest.raises(sc.ScatterError, match="selects no element on axis 0 \\(size 1\\)"):
        composition_graph(tr, {"data": np.float32([[1, 2]]), "values": np.zeros((0, 2), np.float32)})


def test_graph_model_refuses_a_graph_the_checker_refuses():
    node = se.GraphNode("Add", ("a", "missing"), ("output",))
    with pytest.raises(se.ExportError, match="onnx refuses the graph broken"):
        se.graph_model([node], [("a", np.float32([1]))], "output", np.float32([1]), opset=18, graph_name="broken")


def test_graph_model_names_an_input_of_a_dtype_it_does_not_cover():
    node = se.GraphNode("Identity", ("a",), ("output",))
    with pytest.raises(se.ExportError, match="a has dtype complex64, which the ONNX export does not cover") as info:
        se.graph_model([node], [("a", np.complex64([1]))], "output", np.complex64([1]), opset=18, graph_name="c")
    assert info.value.argument == "a" and info.value.rule == "dtype"


def test_graph_model_keeps_a_scalar_constant_a_scalar():
    """numpy's ascontiguousarray turns a 0-d array into 1-d; Range needs scalars."""
    nodes = [se.GraphNode("Range", ("s", "l", "d"), ("r",)), se.GraphNode("Add", ("r", "x"), ("output",))]
    model = se.graph_model(nodes, [("x", np.int64([1, 1, 1]))], "output", np.int64([0, 0, 0]), opset=18,
                           graph_name="scalars", constants=[("s", np.int64(0)), ("l", np.int64(3)), ("d", np.int64(1))])
    for runtime, got in run_model(model, {"x": np.int64([1, 1, 1])}).items():
        assert got.tolist() == [1, 2, 3], runtime


# ------------------------------------------------------------------------------ differential, on both runtimes
DRAWS = 24  # per composition: 6 of each dtype


@pytest.mark.slow
def test_every_composition_runs_to_the_calls_result_on_onnxruntime_and_onnx_reference():
    """Random cases of every composition call shape (indices repeat, and are negative where the framework takes
    that): both runtimes' outputs are ones the spec allows for the call's case (its loop-order output, or another
    winner of a duplicated cell under replacement), with data's dtype and shape."""
    rng = np.random.default_rng()  # new cases each run; a failure prints the case
    failures, seen = [], Counter()
    for text in COMPOSITIONS:
        tr = read(text)
        for n in range(DRAWS):
            tensors = example_tensors(tr, rng, DTYPES[n % len(DTYPES)])
            try:
                graph = composition_graph(tr, tensors)
            except sc.ScatterError as exc:
                assert exc.rule == "empty-slice", (text, str(exc))
                seen["empty slice"] += 1
                continue
            case = graph.call_case.case
            trace = case.trace()
            seen["duplicates"] += bool(trace.duplicate_groups().size)
            seen["negative"] += any(a.dtype.kind == "i" and a.min(initial=0) < 0 for name, a in graph.feeds
                                    if name == "indices")
            for runtime, got in run_model(graph.model(), dict(graph.feeds)).items():
                ok = (got.dtype == case.data.dtype and got.shape == case.data.shape
                      and bool(sc.conforming(trace, got).all()))
                seen["runs"] += 1
                if not ok:
                    failures.append(f"{runtime}: {text}: {({k: v.tolist() for k, v in tensors.items()})}: "
                                    f"got {got.tolist()} want {graph.call_case.output().tolist()}")
    assert not failures, "\n".join(failures[:10])
    assert seen["runs"] >= 2 * len(COMPOSITIONS) * DRAWS * 0.8
    assert seen["duplicates"] >= len(COMPOSITIONS) and seen["negative"] >= 10, seen


# ------------------------------------------------------------------------------ the exported pytest files
def run_pytest(directory: Path) -> subprocess.CompletedProcess:
    """pytest on ``directory`` in a fresh interpreter that cannot import this project."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["JAX_PLATFORMS"] = "cpu"
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir",
                           str(directory), str(directory)], cwd=directory, env=env, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.slow
def test_the_exported_pytest_of_every_composition_passes_in_a_subprocess(tmp_path):
    rng = np.random.default_rng(2026)
    written = 0
    for text in COMPOSITIONS:
        tr = read(text)
        for dtype in ("float32", "int32"):
            tensors = example_tensors(tr, rng, dtype, (3, 4))
            export = composition_export(tr, tensors)
            assert text not in export.pytest  # generated from numbers and fixed names
            count = f"{export.nodes} node{'s' if export.nodes != 1 else ''},"
            assert f"as an ONNX model of {count} on onnxruntime" in export.pytest and "1 nodes" not in export.pytest
            (tmp_path / f"test_composition_{written}.py").write_text(export.pytest)
            written += 1
    done = run_pytest(tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    passed = int(re.search(r"(\d+) passed", done.stdout).group(1))
    assert passed >= 2 * written and "failed" not in done.stdout  # onnxruntime and onnx.reference, each file


def test_the_exported_pytest_accepts_any_winner_of_a_duplicated_cell():
    """x[idx] += v with a repeated index: which combined value wins is open, so the export lists the cell's
    candidates (the single-node export's conformance rule) rather than pinning the loop's last write."""
    tr = read("x[idx] += v")
    tensors = {"data": np.float32([1, 2, 3]), "index": np.int64([0, 0]), "values": np.float32([10, 20])}
    code = composition_export(tr, tensors).pytest
    assert "CANDIDATES = {\n    (0,): [11.0, 21.0]," in code and "def assert_conforms(out):" in code
    assert "def test_the_expected_output_is_one_the_spec_allows():" in code


def test_an_exported_pytest_fails_when_the_model_is_not_the_composition(tmp_path):
    """The test can fail: the same file with the one-node ScatterElements max (include_self=True) in place of the
    composition's model fails on both runtimes, since data's 5 takes part there."""
    tr = read('torch.scatter_reduce(x, 0, idx, src, reduce="amax", include_self=False)')
    tensors = {"data": np.float32([5, 0]), "index": np.int64([0, 0]), "src": np.float32([1, 2])}
    graph = composition_graph(tr, tensors)
    wrong = se.onnx_model(sc.case("ScatterElements-18", tensors["data"], tensors["index"], tensors["src"], axis=0, reduction="max"))
    code = se.model_pytest(wrong, graph.feeds, graph.call_case.case, title="the wrong model")
    (tmp_path / "test_wrong.py").write_text(code)
    done = run_pytest(tmp_path)
    assert done.returncode != 0 and "2 failed" in done.stdout, done.stdout[-2000:]
