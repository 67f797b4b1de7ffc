"""Inputs an engineer already has (.npz, .npy, a test_data_set_N folder of input_K.pb, zipped or by path), and
hostile ones: each refused before it allocates, with a message naming the file, the input and the rule."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from numpy.lib import format as npformat

import scatter_models as sm
from scatter_models.samples import sample_path
from tests.support.model_builders import GIGA, huge_npy_header, huge_pb, npz_bytes, pb_bytes, zip_bytes

ROOT = Path(__file__).resolve().parents[2]


def _model(key="kv_cache"):
    return sm.open_model(sample_path(key))


def _npy(arr) -> bytes:
    buf = io.BytesIO()
    np.save(buf, arr)
    return buf.getvalue()


def _refused(files, model, rule, *words):
    with pytest.raises(sm.ModelError) as info:
        sm.read_inputs(files, model)
    text = str(info.value)
    assert info.value.rule == rule, text
    for w in words:
        assert w in text, (w, text)
    return text


@pytest.fixture(scope="module")
def zeros_bomb(tmp_path_factory) -> Path:
    """A deflated .npz of about 1 MB whose one member declares and holds 10^9 zero bytes."""
    path = tmp_path_factory.mktemp("bomb") / "zeros.npz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        with z.open("p.npy", "w", force_zip64=True) as m:
            npformat.write_array_header_1_0(m, {"descr": "|u1", "fortran_order": False, "shape": (GIGA,)})
            chunk, left = bytes(2**24), GIGA
            while left > 0:
                m.write(chunk[:min(left, len(chunk))])
                left -= len(chunk)
    assert path.stat().st_size < 4 * 2**20
    return path


def _peak_in_child(file: Path) -> dict:
    """Reads ``file`` as inputs of the kv_cache sample in a fresh interpreter: the rule it was refused by and how
    much memory the read took (tracemalloc's peak, and the resident peak's growth)."""
    code = f"""
import json, resource, sys, tracemalloc
import scatter_models as sm
from scatter_models.samples import sample_path
model = sm.open_model(sample_path("kv_cache"))
data = open({str(file)!r}, "rb").read()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
try:
    sm.inputs_from_file({file.name!r}, data, model)
    rule, text = None, ""
except sm.ModelError as exc:
    rule, text = exc.rule, str(exc)
peak = tracemalloc.get_traced_memory()[1]
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
print(json.dumps({{"rule": rule, "text": text, "peak": peak, "grown": grown, "size": len(data)}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_deflated_npz_of_a_billion_zeros_is_refused_from_its_declared_size_with_little_memory(zeros_bomb):
    got = _peak_in_child(zeros_bomb)
    assert got["rule"] == "unpacked-size", got
    assert "zeros.npz" in got["text"] and "'p.npy'" in got["text"] and "1,000,000,128" in got["text"]
    assert "capture budget" in got["text"]
    assert got["peak"] < got["size"] + 8 * 2**20, got  # the file's bytes, and nothing near 10^9
    assert got["grown"] < 64 * 2**20, got


def test_an_npy_header_declaring_a_billion_elements_in_a_hundred_bytes_allocates_nothing(tmp_path):
    path = tmp_path / "new_key.npy"
    path.write_bytes(huge_npy_header())
    assert path.stat().st_size < 200
    got = _peak_in_child(path)
    assert got["rule"] == "array-bytes", got
    assert "new_key.npy" in got["text"] and "8,000,000,000 bytes" in got["text"]
    assert got["peak"] < 2**20 and got["grown"] < 32 * 2**20, got


def test_a_pb_declaring_a_billion_elements_is_refused_before_any_array(tmp_path):
    path = tmp_path / "input_0.pb"
    path.write_bytes(huge_pb())
    assert path.stat().st_size < 100
    got = _peak_in_child(path)
    assert got["rule"] == "array-bytes" and "input_0.pb" in got["text"], got
    assert got["peak"] < 2**20 and got["grown"] < 32 * 2**20, got


def test_under_the_budget_a_header_that_lies_about_its_data_is_refused():
    model = _model()
    head = io.BytesIO()
    npformat.write_array_header_1_0(head, {"descr": "<f4", "fortran_order": False, "shape": (2, 4)})
    _refused([("new_key.npy", head.getvalue() + bytes(8))], model, "truncated", "new_key.npy", "32 bytes",
             "holds 8")
    from onnx import TensorProto

    short = TensorProto(name="new_key", data_type=TensorProto.FLOAT, dims=[2, 4], raw_data=bytes(8))
    _refused([("input_1.pb", short.SerializeToString())], model, "truncated", "input_1.pb", "raw data holds 8")


def test_a_member_unpacking_past_the_ratio_deflate_can_reach_is_a_zip_bomb():
    data = bytearray(zip_bytes({"p.npy": _npy(np.zeros(4, np.int64))}))
    # the central directory now says the member unpacks to 64 MiB, from a few dozen bytes
    at = data.index(b"PK\x01\x02")
    data[at + 24:at + 28] = struct.pack("<I", 64 * 2**20)
    _refused([("bomb.npz", bytes(data))], _model(), "zip-bomb", "bomb.npz", "'p.npy'", "zip bomb")


def test_a_zip_with_a_path_outside_it_is_refused_and_nothing_is_read():
    model = _model()
    for bad in ("../p.npy", "/etc/p.npy", "sets/../../p.npy", "C:/p.npy", "..\\p.npy"):
        _refused([("escape.zip", zip_bytes({"new_key.npy": _npy(np.ones((2, 4), np.float32)), bad: _npy(np.array([1]))}))],
                 model, "zip-path", "escape.zip", repr(bad), "outside the zip")


def test_object_arrays_and_pickles_are_refused_never_unpickled(tmp_path):
    model = _model()
    marker = tmp_path / "unpickled"

    class Boom:
        def __reduce__(self):
            return (Path.touch, (marker,))

    pickled = io.BytesIO()
    np.save(pickled, np.array([Boom()], dtype=object), allow_pickle=True)
    _refused([("p.npy", pickled.getvalue())], model, "object-dtype", "p.npy", "never unpickled")
    npz = io.BytesIO()
    np.savez(npz, p=np.array([Boom(), 1], dtype=object))
    _refused([("in.npz", npz.getvalue())], model, "object-dtype", "in.npz", "'p.npy'", "dtype object")
    assert not marker.exists()
    _refused([("p.npy", _npy(np.array(["a"])))], model, "dtype", "p.npy", "<U1")


def test_a_pb_that_is_not_a_tensor_is_named():
    model = _model()
    _refused([("input_0.pb", sample_path("kv_cache").read_bytes())], model, "not-tensor", "input_0.pb",
             "not an ONNX tensor")
    _refused([("input_0.pb", b"\xff\xff\xff\xff garbage")], model, "not-tensor", "input_0.pb", "does not parse")
    _refused([("input_0.pb", b"")], model, "not-tensor", "input_0.pb", "empty")
    from onnx import TensorProto

    text = TensorProto(name="p", data_type=TensorProto.STRING, dims=[1], string_data=[b"x"])
    _refused([("input_0.pb", text.SerializeToString())], model, "not-tensor", "STRING")


def test_a_pb_with_external_data_is_refused_and_its_path_never_opened(tmp_path):
    from onnx import TensorProto

    t = TensorProto(name="new_key", data_type=TensorProto.FLOAT, dims=[2, 4], data_location=TensorProto.EXTERNAL)
    entry = t.external_data.add()
    entry.key, entry.value = "location", "/etc/passwd"
    _refused([("input_1.pb", t.SerializeToString())], _model(), "external-data", "input_1.pb", "/etc/passwd",
             "never followed")


def test_an_input_that_names_no_model_input_is_named_with_the_model_inputs():
    model = _model()
    text = _refused([("in.npz", npz_bytes(nope=np.ones(2)))], model, "unknown-input", "in.npz", "'nope'", "new_key")
    assert "its inputs: past_key, new_key, query, p" in text
    _refused([("input_0.pb", pb_bytes(np.ones(2), name="nope"))], model, "unknown-input", "input_0.pb", "'nope'")
    _refused([("input_7.pb", pb_bytes(np.ones(2)))], model, "unknown-input", "input_7.pb", "unnamed")
    _refused([("a.npz", npz_bytes(p=np.array([1]))), ("p.npy", _npy(np.array([2])))], model, "given-twice",
             "'a.npz'", "'p.npy'")


def test_several_test_data_sets_in_one_zip_are_named():
    files = {f"m/test_data_set_{i}/input_0.pb": pb_bytes(np.array([i]), "p") for i in range(2)}
    _refused([("sets.zip", zip_bytes(files))], _model(), "data-sets", "test_data_set_0, test_data_set_1")


def test_the_inputs_files_size_and_every_array_together_are_bounded(monkeypatch):
    model = _model()
    monkeypatch.setenv("SCATTER_MODELS_MAX_CAPTURE_BYTES", "100")
    _refused([("a.npz", npz_bytes(new_key=np.ones((4, 4), np.float64)))], model, "array-bytes", "a.npz", "128 bytes")
    # each fits, both together do not
    _refused([("p.npy", _npy(np.zeros(8, np.int64))), ("input_1.pb", pb_bytes(np.ones((2, 4)), "new_key"))],
             model, "array-bytes", "input_1.pb")


# -- what an engineer has: a model zoo test_data_set_N folder, zipped or by path ---------------------------------

def _data_set(folder: Path, arrays: dict, model) -> Path:
    folder.mkdir(parents=True)
    names = [i.name for i in model.inputs]
    for name, arr in arrays.items():
        k = names.index(name)
        (folder / f"input_{k}.pb").write_bytes(pb_bytes(arr, name))
    (folder / "output_0.pb").write_bytes(b"expected outputs: never read")
    return folder


def test_a_test_data_set_folder_by_path_and_zipped_gives_the_same_capture(tmp_path):
    model = _model()
    given = {"p": np.array([3], np.int64), "new_key": np.arange(8, dtype=np.float32).reshape(2, 4)}
    folder = _data_set(tmp_path / "test_data_set_0", given, model)
    by_path = model.capture(folder, dims={"max_seq": 5})
    np.testing.assert_array_equal(by_path["kv_write"].output[:, 3], given["new_key"])
    for name, arr in given.items():
        np.testing.assert_array_equal(by_path.feeds[name], arr)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in sorted(folder.iterdir()):
            z.write(p, f"test_data_set_0/{p.name}")
        z.writestr("__MACOSX/test_data_set_0/._input_0.pb", b"resource fork")
    arrays = sm.inputs_from_file("test_data_set_0.zip", buf.getvalue(), model)
    assert set(arrays) == set(given)
    zipped = model.capture(arrays, dims={"max_seq": 5})
    np.testing.assert_array_equal(zipped["kv_write"].output, by_path["kv_write"].output)
    # the folder above the sets names them
    with pytest.raises(sm.ModelError, match="test_data_set_0: give one of them"):
        model.capture(tmp_path)


def test_unnamed_pb_tensors_are_the_model_inputs_in_order(tmp_path):
    model = _model()
    got = sm.read_inputs([("input_3.pb", pb_bytes(np.array([1]))), ("input_1.pb", pb_bytes(np.ones((2, 4), np.float32)))],
                         model)
    assert set(got) == {"p", "new_key"} and got["new_key"].shape == (2, 4)


def test_npz_npy_read_as_before_and_fortran_order_kept():
    model = _model()
    f = np.asfortranarray(np.arange(8, dtype=np.float32).reshape(2, 4))
    got = sm.read_inputs([("in.npz", npz_bytes(new_key=f, p=np.array([1])))], model)
    np.testing.assert_array_equal(got["new_key"], f)
    got = sm.read_inputs([("new_key.npy", _npy(f))], model)
    np.testing.assert_array_equal(got["new_key"], f)
    stored = io.BytesIO()
    np.savez(stored, p=np.array([2]))
    assert sm.read_inputs([("s.npz", stored.getvalue())], model)["p"].tolist() == [2]


# -- the page: each refusal is a message naming the file and the rule, the upload stays -----------------------

def _page_with(files):
    from tests.support.apptest_helpers import app_on

    at = app_on("app_pages/model.py")
    at.query_params["sample"] = "kv_cache"
    at.run()
    uploader = at.sidebar.file_uploader(key="model:input_files")
    uploader.set_value([(name, data, "application/octet-stream") for name, data in files]).run()
    assert not at.exception
    return at


def test_the_page_names_the_refused_file_and_rule_and_holds_no_big_array(zeros_bomb):
    import tracemalloc

    tracemalloc.start()
    try:
        at = _page_with([(zeros_bomb.name, zeros_bomb.read_bytes())])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    errors = " ".join(e.value for e in at.error).replace("\\", "")
    assert "zeros.npz" in errors and "'p.npy'" in errors and "capture budget" in errors, errors
    assert peak < 200 * 2**20, peak  # a page run, and nothing near the 10^9 bytes declared
    assert "Traceback" not in errors
    # the upload is still there to be replaced; a good file then captures
    assert [f.name for f in at.session_state["model:input_files"]] == ["zeros.npz"]
    at = _page_with([("new_key.npy", huge_npy_header())])
    errors = " ".join(e.value for e in at.error).replace("\\", "")
    assert "new_key.npy" in errors and "8,000,000,000 bytes" in errors, errors


def test_the_page_captures_a_zipped_test_data_set(tmp_path):
    model = _model()
    given = {"p": np.array([1], np.int64), "new_key": np.full((2, 4), 7, np.float32)}
    folder = _data_set(tmp_path / "test_data_set_0", given, model)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in sorted(folder.iterdir()):
            z.write(p, f"test_data_set_0/{p.name}")
    at = _page_with([("test_data_set_0.zip", buf.getvalue())])
    assert not at.error
    at.button(key="model:capture").click().run()
    assert not at.exception and not at.error
    assert any("matches ScatterND-18" in s.value for s in at.success)


# -- dims: given inputs fix the dims they determine; a dim set by hand that contradicts one is refused ------------

def test_given_inputs_fix_their_dims_and_a_contradicting_dim_names_both():
    model = _model()
    cache = np.zeros((2, 16, 4), np.float32)
    cap = model.capture({"past_key": cache, "p": np.array([15])})
    assert cap.dims == {"max_seq": 16} and cap["kv_write"].output.shape == (2, 16, 4)
    with pytest.raises(sm.ModelError) as info:
        model.capture({"past_key": cache}, dims={"max_seq": 4})
    text = str(info.value)
    assert info.value.rule == "dims-contradict"
    assert "'max_seq' is set to 4" in text and "input 'past_key' has shape 2×16×4" in text and "makes it 16" in text
    assert model.capture({"past_key": cache, "p": np.array([1])}, dims={"max_seq": 16}).dims == {"max_seq": 16}


def test_the_page_says_which_input_fixes_a_dim_and_refuses_a_box_that_contradicts_it():
    cache = np.zeros((2, 16, 4), np.float32)
    at = _page_with([("inputs.npz", npz_bytes(past_key=cache))])
    box = at.sidebar.number_input(key="model:dim:max_seq")
    assert box.value is None and box.proto.placeholder == "16, from input past_key"
    at.sidebar.text_area(key="model:typed:p").input("[15]").run()
    at.button(key="model:capture").click().run()
    assert not at.exception and not at.error
    captions = " ".join(c.value for c in at.caption).replace("\\", "")
    assert "dims max_seq=16." in captions
    at.sidebar.number_input(key="model:dim:max_seq").set_value(4).run()
    errors = " ".join(e.value for e in at.error).replace("\\", "")
    assert "'max_seq' is set to 4" in errors and "'past_key' has shape 2×16×4" in errors, errors
    assert at.sidebar.number_input(key="model:dim:max_seq").value == 4  # what the user set stays


def test_typed_values_are_parsed_never_evaluated_and_a_bad_one_names_its_input():
    at = _page_with([])
    at.sidebar.text_area(key="model:typed:p").input("__import__('os')").run()
    errors = " ".join(e.value for e in at.error).replace("\\", "")
    assert "typed input 'p'" in errors and not at.exception, errors
    assert at.sidebar.text_area(key="model:typed:p").value == "__import__('os')"  # kept, to be corrected
    at.sidebar.text_area(key="model:typed:p").input("[2]").run()
    at.button(key="model:capture").click().run()
    assert not at.error and not at.exception
    at.sidebar.file_uploader(key="model:input_files").set_value(
        [("p.npy", _npy(np.array([1])), "application/octet-stream")]).run()
    errors = " ".join(e.value for e in at.error).replace("\\", "")
    assert "input 'p' is given twice" in errors, errors


# -- draws: what the graph says of an integer input, on hand-made graphs ------------------------------------------

def _onnx_model(nodes, inputs, outputs, inits=()):
    from onnx import helper as h

    graph = h.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    return sm.open_model(h.make_model(graph, opset_imports=[h.make_opsetid("", 18)]).SerializeToString())


def test_a_length_compared_with_a_shape_is_drawn_up_to_that_dim_and_an_index_shifted_by_a_constant_stays_in_range():
    from onnx import TensorProto as T, helper as h, numpy_helper

    model = _onnx_model(
        [h.make_node("Shape", ["x"], ["shape"]), h.make_node("Gather", ["shape", "zero"], ["n"], axis=0),
         h.make_node("LessOrEqual", ["length", "n"], ["ok"]),
         h.make_node("Add", ["i", "two"], ["i2"]),
         h.make_node("ScatterElements", ["x", "i2", "x"], ["y"], axis=0, name="write")],
        [h.make_tensor_value_info("x", T.FLOAT, [3, 2]), h.make_tensor_value_info("length", T.INT64, []),
         h.make_tensor_value_info("i", T.INT64, [3, 2])],
        [h.make_tensor_value_info("y", T.FLOAT, [3, 2]), h.make_tensor_value_info("ok", T.BOOL, [])],
        [numpy_helper.from_array(np.array(0, np.int64), "zero"), numpy_helper.from_array(np.array(2, np.int64), "two")])
    words = sm.explained_draws(model, {})
    assert "length: drawn in [0, 4), in range as it is bounded by dim 0 of the shape Shape" in words[0]
    assert "i: drawn in [0, 1), as it indexes axis 0 of the data of ScatterElements 'write' (through Add), " \
           "shifted by +2 on the way" in words[1]
    for seed in range(5):
        cap = model.capture(seed=seed)
        assert cap.feeds["i"].max() == 0 and 0 <= int(cap.feeds["length"]) <= 3


def test_an_index_added_to_an_arange_is_drawn_as_a_contiguous_run_whatever_its_name():
    from onnx import TensorProto as T, helper as h, numpy_helper

    model = _onnx_model(
        [h.make_node("Add", ["start", "steps"], ["rows"]), h.make_node("Unsqueeze", ["rows", "last"], ["idx"]),
         h.make_node("ScatterND", ["cache", "idx", "new"], ["out"], name="write")],
        [h.make_tensor_value_info("cache", T.FLOAT, [8, 2]), h.make_tensor_value_info("start", T.INT64, [1]),
         h.make_tensor_value_info("new", T.FLOAT, [3, 2])],
        [h.make_tensor_value_info("out", T.FLOAT, [8, 2])],
        [numpy_helper.from_array(np.arange(3, dtype=np.int64), "steps"),
         numpy_helper.from_array(np.array([-1], np.int64), "last")])
    words = " ".join(sm.explained_draws(model, {}))
    assert "start: drawn as a contiguous run inside [0, 6)" in words and "shifted by +2" in words, words
    starts = {int(model.capture(seed=s).feeds["start"][0]) for s in range(12)}
    assert starts <= set(range(6)) and len(starts) > 1
