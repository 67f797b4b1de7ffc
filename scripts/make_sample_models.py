"""Make the sample models of scatter_models (``scatter_models/samples/``) from onnx.helper and OpenVINO's
Python API; nothing is downloaded.

    python scripts/make_sample_models.py            # (re)write the samples
    python scripts/make_sample_models.py --check    # exit 1 when a committed sample differs from a fresh one

``build()`` returns file name -> bytes; tests/models/test_models_samples.py checks that it gives the committed
files byte for byte. Each sample teaches one real situation (see ``scatter_models.samples.SAMPLES``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "scatter_models" / "samples"
PRODUCER = "scatter-explorer scripts/make_sample_models.py"


def _model(graph, opset: int):
    from onnx import helper

    opsets = [helper.make_opsetid("", opset)]
    model = helper.make_model(graph, opset_imports=opsets, ir_version=helper.find_min_ir_version_for(opsets),
                              producer_name=PRODUCER)
    return model.SerializeToString(deterministic=True)


def _build(name: str, nodes, inputs, outputs, opset: int) -> bytes:
    """A graph of ``nodes`` with inputs and outputs given as (name, element type, shape)."""
    from onnx import helper as h

    graph = h.make_graph(nodes, name, [h.make_tensor_value_info(*i) for i in inputs],
                         [h.make_tensor_value_info(*o) for o in outputs])
    return _model(graph, opset)


def kv_cache():
    """One decode step: the new key of each head lands at position p of the cache (ScatterND-18)."""
    from onnx import TensorProto as T, helper as h

    nodes = [
        h.make_node("Constant", [], ["heads"], name="heads",
                    value=h.make_tensor("heads_value", T.INT64, [2, 1], [0, 1])),
        h.make_node("Constant", [], ["shape_11"], name="shape_11", value=h.make_tensor("s", T.INT64, [2], [1, 1])),
        h.make_node("Constant", [], ["shape_21"], name="shape_21", value=h.make_tensor("s2", T.INT64, [2], [2, 1])),
        h.make_node("Reshape", ["p", "shape_11"], ["p_11"], name="p_as_11"),
        h.make_node("Expand", ["p_11", "shape_21"], ["p_21"], name="p_per_head"),
        h.make_node("Concat", ["heads", "p_21"], ["write_at"], name="write_at", axis=1),
        h.make_node("ScatterND", ["past_key", "write_at", "new_key"], ["present_key"], name="kv_write",
                    reduction="none"),
        h.make_node("Transpose", ["present_key"], ["key_t"], name="key_t", perm=[0, 2, 1]),
        h.make_node("MatMul", ["query", "key_t"], ["scores"], name="scores"),
    ]
    return _build("kv_cache_decode", nodes, [
        ("past_key", T.FLOAT, [2, "max_seq", 4]),
        ("new_key", T.FLOAT, [2, 4]),
        ("query", T.FLOAT, [2, 1, 4]),
        ("p", T.INT64, [1]),
    ], [("present_key", T.FLOAT, [2, "max_seq", 4]), ("scores", T.FLOAT, [2, 1, "max_seq"])], 18)


def index_put():
    """table.index_put_((argmax(logits),), values, accumulate=True): ScatterND-18 add on run-time indices."""
    from onnx import TensorProto as T, helper as h

    nodes = [
        h.make_node("ArgMax", ["logits"], ["rows"], name="pick_rows", axis=1, keepdims=1),
        h.make_node("ScatterND", ["table", "rows", "values"], ["out"], name="index_put_accumulate", reduction="add"),
    ]
    return _build("index_put_accumulate", nodes, [
        ("table", T.FLOAT, [6, 3]),
        ("logits", T.FLOAT, [5, 6]),
        ("values", T.FLOAT, [5, 3]),
    ], [("out", T.FLOAT, [6, 3])], 18)


def scatter_amax():
    """x.scatter_reduce(1, i - 5, src, 'amax'): ScatterElements-18 max with negative indices made in the graph."""
    from onnx import TensorProto as T, helper as h

    nodes = [
        h.make_node("Constant", [], ["five"], name="five", value=h.make_tensor("five_value", T.INT64, [], [5])),
        h.make_node("Sub", ["positions", "five"], ["negative_index"], name="count_from_end"),
        h.make_node("ScatterElements", ["x", "negative_index", "src"], ["out"], name="scatter_reduce_amax", axis=1,
                    reduction="max"),
    ]
    return _build("scatter_reduce_amax", nodes, [
        ("x", T.FLOAT, [2, 5]),
        ("positions", T.INT64, [2, 4]),
        ("src", T.FLOAT, [2, 4]),
    ], [("out", T.FLOAT, [2, 5])], 18)


def circular_cache():
    """A TensorScatter-24 KV cache in circular mode: each batch row writes 2 steps at its own index, wrapping."""
    from onnx import TensorProto as T, helper as h

    nodes = [h.make_node("TensorScatter", ["past_cache", "update", "write_indices"], ["present_cache"],
                         name="cache_write", mode="circular", axis=-2)]
    return _build("tensor_scatter_circular", nodes, [
        ("past_cache", T.FLOAT, [2, 4, 3]),
        ("update", T.FLOAT, [2, 2, 3]),
        ("write_indices", T.INT64, [2]),
    ], [("present_cache", T.FLOAT, [2, 4, 3])], 24)


def scatter9():
    """The deprecated Scatter of opset 9 (rows of data replaced along axis 0)."""
    from onnx import TensorProto as T, helper as h

    nodes = [h.make_node("Scatter", ["data", "indices", "updates"], ["out"], name="legacy_scatter", axis=0)]
    return _build("scatter_opset9", nodes, [
        ("data", T.FLOAT, [4, 4]),
        ("indices", T.INT64, [2, 4]),
        ("updates", T.FLOAT, [2, 4]),
    ], [("out", T.FLOAT, [4, 4])], 9)


def loop_body():
    """A Loop of 3 iterations whose body adds `row` into row i of the state with ScatterElements-18 add."""
    from onnx import TensorProto as T, helper as h

    body = h.make_graph([
        h.make_node("Constant", [], ["shape_14"], name="shape_14", value=h.make_tensor("s", T.INT64, [2], [1, 4])),
        h.make_node("Expand", ["i", "shape_14"], ["row_index"], name="row_index"),
        h.make_node("ScatterElements", ["state_in", "row_index", "row"], ["state_out"], name="accumulate_row",
                    axis=0, reduction="add"),
        h.make_node("Identity", ["cond_in"], ["cond_out"], name="keep_going"),
    ], "body", [
        h.make_tensor_value_info("i", T.INT64, []),
        h.make_tensor_value_info("cond_in", T.BOOL, []),
        h.make_tensor_value_info("state_in", T.FLOAT, [3, 4]),
    ], [h.make_tensor_value_info("cond_out", T.BOOL, []),
        h.make_tensor_value_info("state_out", T.FLOAT, [3, 4])])
    nodes = [
        h.make_node("Constant", [], ["trips"], name="trips", value=h.make_tensor("t", T.INT64, [], [3])),
        h.make_node("Constant", [], ["true"], name="true", value=h.make_tensor("c", T.BOOL, [], [True])),
        h.make_node("Loop", ["trips", "true", "x"], ["out"], name="rows_loop", body=body),
    ]
    return _build("loop_body_scatter", nodes, [
        ("x", T.FLOAT, [3, 4]),
        ("row", T.FLOAT, [1, 4]),
    ], [("out", T.FLOAT, [3, 4])], 18)


MEAN_ZERO_POINT = 2  # ov_mean's inputs are stored with this zero point: drawn 0..3 reach the scatter as -2..1


def ov_mean() -> tuple[bytes, bytes]:
    """An OpenVINO IR: ScatterElementsUpdate-12 mean on int32 data (the CPU plugin truncates the mean).

    Data and updates are stored with a zero point (MEAN_ZERO_POINT) that the graph subtracts first, as a
    dequantising model does, so the capture's drawn inputs (integers in [0, 4)) reach the scatter with negative
    values, where truncating toward zero and flooring differ."""
    import openvino as ov
    import openvino.opset12 as ops

    data = ops.parameter([4, 3], np.int32, name="data")
    indices = ops.parameter([2, 3], np.int64, name="indices")
    updates = ops.parameter([2, 3], np.int32, name="updates")
    zero_point = ops.constant(np.int32(MEAN_ZERO_POINT), name="zero_point")
    centred = [ops.subtract(x, zero_point, name=f"{x.get_friendly_name()}_centred") for x in (data, updates)]
    axis = ops.constant(np.int64(0), name="axis")
    node = ops.scatter_elements_update(centred[0], indices, centred[1], axis, reduction="mean", use_init_val=True,
                                       name="mean_update")
    node.set_friendly_name("mean_update")
    result = ops.result(node.output(0), name="output")
    result.set_friendly_name("output")  # OpenVINO's default name counts every node the process made: not stable
    model = ov.Model([result], [data, indices, updates], "ov_scatter_elements_mean")
    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "m.xml"
        ov.save_model(model, str(xml), compress_to_fp16=False)
        return xml.read_bytes(), xml.with_suffix(".bin").read_bytes()


def build(include_openvino: bool = True) -> dict[str, bytes]:
    """File name -> bytes of every sample (the OpenVINO IR only when OpenVINO is installed)."""
    files = {
        "kv_cache_decode.onnx": kv_cache(),
        "index_put_accumulate.onnx": index_put(),
        "scatter_reduce_amax.onnx": scatter_amax(),
        "tensor_scatter_circular.onnx": circular_cache(),
        "scatter_opset9.onnx": scatter9(),
        "loop_body_scatter.onnx": loop_body(),
    }
    if include_openvino:
        xml, weights = ov_mean()
        files["ov_scatter_elements_mean.xml"] = xml
        files["ov_scatter_elements_mean.bin"] = weights
    return files


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    files = build()
    differ = []
    for name, data in files.items():
        path = args.out / name
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                differ.append(name)
        else:
            path.write_bytes(data)
            print(f"wrote {path} ({len(data):,} bytes)")
    if differ:
        print("differ from a fresh build: " + ", ".join(differ), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
