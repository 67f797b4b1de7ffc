"""scatter_export: the exported pytest case, NumPy loop, spec_examples JSON and ONNX model."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scatter_core as sc
import scatter_export as se
import spec_examples
from spec_examples.loader import Catalogue
from tests.support.skipping import require_or_skip
from tests.support.strategies import cases

SMALL = [ex for ex in spec_examples.load_all()
         if not ex.shapes_only and ex.data.size <= 4096 and ex.updates.size <= 4096]


def run_pytest(directory: Path) -> subprocess.CompletedProcess:
    """pytest on ``directory`` in a fresh interpreter that cannot import this project."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir",
                           str(directory), str(directory)], cwd=directory, env=env, capture_output=True,
                          text=True, timeout=300)


def write_cases(directory: Path, items) -> int:
    n = 0
    for i, (op, data, indices, updates, expected, attrs) in enumerate(items):
        (directory / f"test_case_{i}.py").write_text(se.pytest_case(sc.case(op, data, indices, updates, **attrs), expected))
        n += 1
    return n


def test_exported_pytest_cases_of_every_small_spec_example_pass_in_a_subprocess(tmp_path):
    items = []
    for ex in SMALL:
        out = sc.scatter(ex.op, ex.data, ex.indices, ex.updates, **ex.attrs)
        items.append((ex.op, ex.data, ex.indices, ex.updates, out, ex.attrs))
    n = write_cases(tmp_path, items)
    assert n > 40
    text = (tmp_path / "test_case_0.py").read_text()
    assert "scatter_core" not in text and "scatter_export" not in text and "import numpy as np" in text
    res = run_pytest(tmp_path)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
    assert f"{n} passed" in res.stdout


@settings(max_examples=1, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(cases(), min_size=40, max_size=40))
def test_exported_pytest_cases_of_random_cases_pass_in_a_subprocess(batch):
    import tempfile

    items = []
    for op, data, indices, updates, attrs in batch:
        out = sc.scatter(op, data, indices, updates, **attrs)
        items.append((op, data, indices, updates, out, attrs))
    with tempfile.TemporaryDirectory() as tmp:
        n = write_cases(Path(tmp), items)
        res = run_pytest(Path(tmp))
        assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
        assert f"{n} passed" in res.stdout


def test_exported_pytest_case_with_a_wrong_expected_output_fails(tmp_path):
    (tmp_path / "test_wrong.py").write_text(
        se.pytest_case(sc.case("ScatterND-16", [1, 2, 3, 4], [[0], [0]], [10, 20], reduction="none"), [31, 2, 3, 4]))
    res = run_pytest(tmp_path)
    assert res.returncode == 1 and "1 failed" in res.stdout


ISSUE_CASE = ("ScatterND-18", np.arange(16).reshape(4, 4), np.array([[0], [2], [0]]),
              np.arange(100, 112).reshape(3, 4))
REVERSED_KERNEL = """

_spec_loop = scatter_reference


def scatter_reference(data, indices, updates):  # a kernel running the writes in the reverse order
    return _spec_loop(data, indices[::-1], updates[::-1])
"""


def test_exported_pytest_of_an_order_dependent_case_accepts_any_conforming_output(tmp_path):
    op, data, indices, updates = ISSUE_CASE
    first_wins = sc.trace(sc.case(op, data, indices, updates)).output_in_order("reversed")
    wrong_duplicate, wrong_other = first_wins.copy(), first_wins.copy()
    wrong_duplicate[0, 1] = 105  # written to row 2, never to row 0
    wrong_other[3, 3] = 0
    mixed = first_wins.copy()
    mixed[0, 2] = 110  # one element of the slice keeps the last write
    for name, expected in (("computed", None), ("first", first_wins), ("mixed", mixed),
                           ("bad_dup", wrong_duplicate), ("bad_other", wrong_other)):
        src = se.pytest_case(sc.case(op, data, indices, updates, reduction="none"), expected)
        assert "CANDIDATES = {" in src and "(0, 1): [101, 109]," in src
        # ScatterND-18 does not allow duplicates under none: the comment says so, not that the winner is left open
        assert "ScatterND-18's text\n# does not allow duplicate indices here" in src and "leaves open" not in src
        (tmp_path / f"test_{name}.py").write_text(src)
        (tmp_path / f"test_{name}_reversed_kernel.py").write_text(src + REVERSED_KERNEL)
    res = run_pytest(tmp_path)
    assert "6 passed" in res.stdout and "4 failed" in res.stdout, res.stdout[-3000:]
    failed = {line.split()[1].split("::")[0].split("/")[-1] for line in res.stdout.splitlines()
              if line.startswith("FAILED")}
    assert failed == {"test_bad_dup.py", "test_bad_dup_reversed_kernel.py", "test_bad_other.py",
                      "test_bad_other_reversed_kernel.py"}
    assert "is none of the values written there: [101, 109]" in res.stdout


def test_exported_pytest_of_a_float_reduction_accepts_another_order_s_rounding(tmp_path):
    op, attrs = "ScatterElements-18", {"axis": 0, "reduction": "add"}
    data = np.array([1.0, 0.0], np.float32)
    updates = np.array([1e-8, 3e-8, 0.1, 1.0, 3.3], np.float32)
    indices = np.zeros(5, np.int64)
    computed = sc.scatter(op, data, indices, updates, **attrs)
    other = computed.copy()
    other[0] = np.float32(1.0) + np.float32(np.float32(3.3) + np.float32(np.float32(1.0) + np.float32(
        np.float32(0.1) + np.float32(np.float32(3e-8) + np.float32(1e-8)))))  # the reverse order
    assert other[0] != computed[0]  # the two orders round differently
    far = computed.copy()
    far[0] += np.float32(1e-3)
    for name, expected in (("other", other), ("far", far)):
        src = se.pytest_case(sc.case(op, data, indices, updates, **attrs), expected, rtol=0, atol=0)
        assert "SLACK = {" in src and "rounds differently in another order" in src
        (tmp_path / f"test_{name}.py").write_text(src)
        (tmp_path / f"test_{name}_reversed_kernel.py").write_text(src + REVERSED_KERNEL)
    res = run_pytest(tmp_path)
    assert "2 passed" in res.stdout and "2 failed" in res.stdout, res.stdout[-3000:]
    assert "test_far.py" in res.stdout and "test_other.py" not in res.stdout.split("short test summary")[-1]


def test_an_order_independent_case_is_exported_as_an_exact_check():
    src = se.pytest_case(sc.case("ScatterND-18", [1, 2, 3], [[0], [0]], [5, 5]))  # duplicates, equal values
    assert "CANDIDATES" not in src and "np.testing.assert_array_equal(out, EXPECTED)" in src
    src = se.pytest_case(sc.case("ScatterND-18", [1, 2, 3], [[0], [0]], [5, 7], reduction="add"))
    assert "CANDIDATES" not in src and "SLACK" not in src  # integers: one result in any order


def test_float_case_uses_the_tolerance_and_nan_survives(tmp_path):
    data = np.array([np.nan, 1.0, -np.inf], np.float32)
    src = se.pytest_case(sc.case("ScatterElements-18", data, [1, 1], np.array([0.1, 0.2], np.float32), axis=0, reduction="add"), rtol=1e-5, atol=0)
    assert "rtol=1e-05" in src and "np.nan" in src and "-np.inf" in src
    (tmp_path / "test_float.py").write_text(src)
    res = run_pytest(tmp_path)
    assert res.returncode == 0, res.stdout[-2000:]


def test_numpy_loop_script_prints_the_output(tmp_path):
    cases_ = [("ScatterElementsUpdate-12", [0, 5, -4], [0, 2, -1], [-3, 1, 2],
               {"axis": 0, "reduction": "mean", "use_init_val": False}),
              ("ScatterUpdate-3", np.arange(6).reshape(2, 3), [2, 0], np.array([[7, 8], [9, 10]]), {"axis": 1}),
              ("ScatterND-18", np.zeros((2, 2, 2), np.float16), [[1, 0]], np.array([[1.5, 2.5]], np.float16),
               {"reduction": "max"})]
    for op, data, indices, updates, attrs in cases_:
        script = tmp_path / "loop.py"
        script.write_text(se.numpy_loop(sc.case(op, data, indices, updates, **attrs)))
        res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                             cwd=tmp_path)
        assert res.returncode == 0, res.stderr
        printed = sc.parse_tensor(res.stdout)
        want = sc.scatter(op, data, indices, updates, **attrs)
        assert printed.dtype == want.dtype and np.array_equal(printed, want)


def test_example_json_loads_with_the_spec_examples_loader(tmp_path):
    data, indices, updates = np.array([[1, 2], [3, 4]], np.int32), np.array([[1], [-2]], np.int64), \
        np.array([[5, 6], [7, 8]], np.int32)
    doc = se.example_json(sc.case("ScatterNDUpdate-15", data, indices, updates, reduction="sum"))
    (tmp_path / "teaching.json").write_text(doc)
    (tmp_path / "errata.json").write_text(json.dumps({"errata": []}))
    cat = Catalogue(tmp_path)
    (ex,) = cat.examples.values()
    assert ex.ours and ex.op == "ScatterNDUpdate-15" and ex.attrs == {"reduction": "sum"}
    assert ex.data.dtype == np.int32 and np.array_equal(ex.indices, indices)
    assert np.array_equal(ex.expected, sc.scatter(ex.op, data, indices, updates, reduction="sum"))
    assert json.loads(doc)["examples"][0]["ours"] is True


def test_example_json_keeps_the_users_expected_output(tmp_path):
    doc = se.example_json(sc.case("ScatterND-16", [1, 2], [[0]], [5]), [9, 2])
    assert json.loads(doc)["examples"][0]["expected"] == [9, 2]


def test_exports_refuse_invalid_cases_with_scatter_error():
    with pytest.raises(sc.ScatterError):
        se.pytest_case(sc.case("ScatterND-16", [1, 2], [[5]], [1]))
    with pytest.raises(sc.ScatterError):  # a reduction string is checked, never pasted into the code
        se.numpy_loop(sc.case("ScatterND-16", [1, 2], [[0]], [1], reduction="none'); import os; ('"))
    with pytest.raises(sc.ScatterError):
        se.pytest_case(sc.case("ScatterND-16", [1, 2], [[0]], [1]), [1, 2, 3])


def test_generated_code_holds_only_our_numbers():
    src = se.pytest_case(sc.case("ScatterElements-18", np.array([1e300, -0.0, 2.5]), [0], np.array([3.0]), axis=0))
    assert "1e+300" in src and "-0.0" in src
    compile(src, "<exported>", "exec")  # it is valid Python


# -- ONNX ------------------------------------------------------------------------------------------------
ONNX_CASES = [
    ("Scatter-9", np.arange(6, dtype=np.float32).reshape(2, 3), np.array([[2, 0]], np.int64),
     np.array([[7, 8]], np.float32), {"axis": 1}),
    ("ScatterElements-11", np.zeros((3, 3), np.float32), np.array([[1, 0, 2], [0, 2, 1]], np.int64),
     np.arange(6, dtype=np.float32).reshape(2, 3), {"axis": 0}),
    ("ScatterElements-13", np.zeros(4, np.int32), np.array([-1, 0], np.int32), np.array([5, 6], np.int32),
     {"axis": 0}),
    ("ScatterElements-16", np.ones(4, np.float32), np.array([1, 1, 3], np.int64),
     np.array([2, 3, 4], np.float32), {"axis": 0, "reduction": "mul"}),
    ("ScatterElements-18", np.zeros((2, 2), np.int64), np.array([[1, 1]], np.int64), np.array([[5, 6]], np.int64),
     {"axis": 0, "reduction": "max"}),
    ("ScatterND-11", np.zeros((2, 3), np.float32), np.array([[1]], np.int64), np.array([[1, 2, 3]], np.float32), {}),
    ("ScatterND-13", np.zeros(4, np.int64), np.array([[-1], [0]], np.int64), np.array([4, 5], np.int64), {}),
    ("ScatterND-16", np.ones((2, 2), np.float32), np.array([[0, 1], [0, 1]], np.int64),
     np.array([2, 3], np.float32), {"reduction": "add"}),
    ("ScatterND-18", np.full(3, 5, np.int64), np.array([[2], [2]], np.int64), np.array([9, 1], np.int64),
     {"reduction": "min"}),
]


@pytest.mark.parametrize("op,data,indices,updates,attrs", ONNX_CASES, ids=[c[0] for c in ONNX_CASES])
def test_onnx_test_case_runs_in_onnxruntime_and_gives_the_same_output(op, data, indices, updates, attrs):
    require_or_skip("onnx", "onnxruntime")
    import onnx
    import onnxruntime as ort
    from onnx import numpy_helper

    blob = se.onnx_test_case(sc.case(op, data, indices, updates, **attrs))
    with zipfile.ZipFile(io.BytesIO(blob)) as z:
        assert set(z.namelist()) == {"model.onnx", "test_data_set_0/input_0.pb", "test_data_set_0/input_1.pb",
                                     "test_data_set_0/input_2.pb", "test_data_set_0/output_0.pb"}
        model_bytes = z.read("model.onnx")
        tensors = {}
        for name in z.namelist():
            if name.endswith(".pb"):
                t = onnx.TensorProto()
                t.ParseFromString(z.read(name))
                tensors[Path(name).stem] = (t.name, numpy_helper.to_array(t))
    model = onnx.load_from_string(model_bytes)
    onnx.checker.check_model(model, full_check=True)
    assert model.opset_import[0].version == sc.OPERATORS[op].version
    assert model_bytes == se.onnx_model(sc.case(op, data, indices, updates, **attrs))
    sess = ort.InferenceSession(model_bytes, providers=["CPUExecutionProvider"])
    feeds = {tensors[f"input_{i}"][0]: tensors[f"input_{i}"][1] for i in range(3)}
    (got,) = sess.run(None, feeds)
    want = sc.scatter(op, data, indices, updates, **attrs)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    assert np.array_equal(tensors["output_0"][1], want)


def test_onnx_export_refuses_what_onnx_cannot_build():
    require_or_skip("onnx")
    with pytest.raises(se.ExportError, match="deprecated"):
        se.onnx_model(sc.case("Scatter-11", [1.0, 2.0], [0], [3.0], axis=0))
    with pytest.raises(se.ExportError, match="OpenVINO operator"):
        se.onnx_model(sc.case("ScatterNDUpdate-15", [1, 2], [[0]], [3]))
    with pytest.raises(se.ExportError, match="OpenVINO operator"):
        se.onnx_test_case(sc.case("ScatterElementsUpdate-12", [1, 2], [0], [3], axis=0))


# -- strict JSON, read back bit-exactly ------------------------------------------------------------------------
def _strict_loads(text: str):
    def refuse(token):
        raise ValueError(f"strict JSON parsers refuse the token {token}")

    return json.loads(text, parse_constant=refuse)


def _awkward_values(dtype, n: int = 400, seed: int = 0) -> np.ndarray:
    """Random values of ``dtype`` (every bit pattern is a candidate), with ±0, ±inf, NaNs of other signs and
    payloads, the smallest subnormals, the extremes and 1.1 always in."""
    dt = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    if dt.kind == "f":
        bits = np.dtype(f"u{dt.itemsize}")
        fi = np.finfo(dt)
        special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.1, fi.max, -fi.max, fi.tiny,
                            fi.smallest_subnormal, -fi.smallest_subnormal, fi.smallest_subnormal * 3, 1e20
                            if dt.itemsize >= 4 else 1e4], dtype=dt)
        payload_nan = (np.array(np.nan, dt).view(bits) | bits.type(1)).view(dt)
        neg_nan = np.copysign(np.array(np.nan, dt), -1)
        randoms = rng.integers(0, np.iinfo(bits).max, size=n, dtype=bits, endpoint=True).view(dt)
        subnormals = (rng.integers(1, 2 ** (fi.nmant), size=n // 4, dtype=np.uint64).astype(bits)).view(dt)
        return np.concatenate([special, [payload_nan, neg_nan], randoms, subnormals]).astype(dt)
    info = np.iinfo(dt)
    return np.concatenate([np.array([info.min, info.max, 0, -1 if info.min < 0 else 1], dtype=dt),
                           rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)])


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int64", "uint64", "int8", "bool"])
def test_json_arrays_are_strict_and_read_back_bit_exactly(dtype):
    arr = _awkward_values(dtype) if dtype != "bool" else np.array([True, False, True])
    text = sc.json_array_text(arr)
    back = sc.from_json_values(_strict_loads(text), dtype)
    assert _same_bits(back, arr), np.flatnonzero(back.view(np.uint8) != arr.view(np.uint8))[:5]
    if dtype == "float32":
        assert "1.1," in text and "1e+20" in text and "1.100000023841858" not in text  # the shortest exact text


def test_json_strings_stand_only_for_floats_and_only_as_documented():
    with pytest.raises(ValueError, match="stands for a float only"):
        sc.from_json_values(["NaN"], "int32")
    for bad in ("nan", "Inf", "NaN:0x12", "NaN:0x3f800000"):  # 0x3f800000 is 1.0 in float32, not a NaN
        with pytest.raises(ValueError):
            sc.from_json_values([bad], "float32")


def test_example_json_is_strict_json_the_loader_reads_back_bit_exactly(tmp_path):
    data = _awkward_values("float32", n=60)[:90].reshape(-1, 2)
    rows = data.shape[0]
    indices = np.array([[0], [rows - 1], [-1]], np.int64)
    updates = np.array([[np.nan, -0.0], [np.inf, -np.inf], [np.float32(1e-45), np.float32(1.1)]], np.float32)
    expected = sc.scatter("ScatterND-18", data, indices, updates, reduction="max")
    doc = se.example_json(sc.case("ScatterND-18", data, indices, updates, reduction="max"), expected)
    parsed = _strict_loads(doc)  # JavaScript's JSON.parse, Go and serde_json read it too
    assert parsed["examples"][0]["updates"] == [["NaN", -0.0], ["Infinity", "-Infinity"], [1e-45, 1.1]]
    assert "bit-exactly" in parsed["page"]["numbers"] and '"NaN"' in parsed["page"]["numbers"]
    (tmp_path / "teaching.json").write_text(doc)
    (tmp_path / "errata.json").write_text(json.dumps({"errata": []}))
    (ex,) = Catalogue(tmp_path).examples.values()
    assert _same_bits(ex.data, data) and _same_bits(ex.updates, updates) and _same_bits(ex.indices, indices)
    assert _same_bits(ex.expected, expected)
    big = np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max, 0, -1], np.int64)
    doc = se.example_json(sc.case("ScatterElements-18", big, np.array([3, 0]), np.array([7, -7], np.int64), axis=0))
    (tmp_path / "teaching.json").write_text(doc)
    (ex,) = Catalogue(tmp_path).examples.values()
    assert _same_bits(ex.data, big) and ex.expected.tolist() == [-7, np.iinfo(np.int64).max, 0, 7]


@pytest.mark.parametrize("op, attrs, needs", [
    ("ScatterND-18", {"reduction": "none"}, False),
    ("ScatterND-18", {"reduction": "add"}, False),
    ("ScatterElementsUpdate-12", {"axis": 0, "reduction": "max", "use_init_val": True}, False),
    ("ScatterElementsUpdate-12", {"axis": 0, "reduction": "max", "use_init_val": False}, True),
    ("ScatterElementsUpdate-12", {"axis": 0, "reduction": "mean", "use_init_val": True}, True),
])
def test_the_exported_loop_carries_contributions_only_where_it_reads_them(op, attrs, needs, tmp_path):
    """#22: the exported pytest carried an unused `contributions` dictionary."""
    data, indices, updates = np.array([5, 1, 7, 3]), np.array([[0], [2], [0]]), np.array([4, 9, 2])
    if "axis" in attrs:
        indices = indices.reshape(-1)
    for src in (se.pytest_case(sc.case(op, data, indices, updates, **attrs)), se.numpy_loop(sc.case(op, data, indices, updates, **attrs))):
        assert ("contributions" in src) == needs, src
    path = tmp_path / "test_case.py"
    path.write_text(se.pytest_case(sc.case(op, data, indices, updates, **attrs)))
    result = run_pytest(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int64", "uint64", "int8", "uint8"])
def test_array_literals_are_the_shortest_text_and_read_back_exactly(dtype):
    """#25: float32 1.1 was written 1.100000023841858. Random bit patterns (±0, ±inf, NaN, subnormals included)
    and the extreme integers read back with the same bits; a NaN reads back a NaN."""
    arr = _awkward_values(dtype, n=1000, seed=1)
    from scatter_export.builders import array_literal

    src = array_literal(arr)
    back = eval(src, {"np": np})  # our own generated source, in a test: never user text
    assert back.dtype == arr.dtype and back.shape == arr.shape
    if arr.dtype.kind == "f":
        nan = np.isnan(arr)
        assert np.array_equal(np.isnan(back), nan)
        assert back[~nan].tobytes() == arr[~nan].tobytes()  # ±0 and subnormals too
        texts = src[src.index("[") + 1:src.rindex("]")].split(", ")
        for text, v in zip(texts, arr):
            if np.isfinite(v):
                assert text == sc.float_literal(v)  # the shortest exact text in the tensor's own dtype
        if dtype == "float32":
            assert "1.1," in src and "1.100000023841858" not in src and "1e+20" in src
    else:
        assert back.tobytes() == arr.tobytes()


def test_an_order_dependent_case_of_a_version_allowing_duplicates_says_the_winner_is_left_open():
    src = se.pytest_case(sc.case("ScatterNDUpdate-15", np.arange(4), np.array([[0], [2], [0]]), np.array([10, 20, 30]), reduction="none"))
    assert "the spec leaves open which\n# one wins" in src and "does not allow" not in src
    assert "(0,): [10, 30]," in src
