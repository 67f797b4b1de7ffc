"""Small ONNX models and input files built in code for the model tests (a graph, a ScatterND node, .npz, .pb, .zip, a Scan)."""

from __future__ import annotations

import io
import zipfile

import numpy as np
from numpy.lib import format as npformat

import scatter_models as sm


def graph_model(nodes, inputs, outputs, initializers=(), opset=18, functions=()):
    from onnx import helper as h

    graph = h.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    opsets = [h.make_opsetid("", opset)] + [h.make_opsetid(f.domain, 1) for f in functions]
    return h.make_model(graph, opset_imports=opsets, functions=list(functions))


def scatter_nd_node(name="n", out="o", data="d"):
    from onnx import helper as h

    return h.make_node("ScatterND", [data, "i", "u"], [out], name=name)


def value_infos(n_rows=4):
    from onnx import TensorProto as T, helper as h

    return [h.make_tensor_value_info("d", T.FLOAT, [n_rows]), h.make_tensor_value_info("i", T.INT64, [1, 1]),
            h.make_tensor_value_info("u", T.FLOAT, [1])]

GIGA = 10**9


def npz_bytes(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()


def pb_bytes(arr, name="") -> bytes:
    from onnx import numpy_helper

    return numpy_helper.from_array(np.asarray(arr), name=name).SerializeToString()


def zip_bytes(members: dict, method=zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def huge_npy_header() -> bytes:
    """An .npy of about 100 bytes whose header declares 10^9 float64 elements."""
    buf = io.BytesIO()
    npformat.write_array_header_1_0(buf, {"descr": "<f8", "fortran_order": False, "shape": (GIGA,)})
    return buf.getvalue() + bytes(20)


def huge_pb() -> bytes:
    """A TensorProto of a few bytes declaring 10^9 float elements and holding none."""
    from onnx import TensorProto

    t = TensorProto(name="new_key", data_type=TensorProto.FLOAT, dims=[GIGA])
    return t.SerializeToString()


def scan_model():
    """A Scan whose body adds 1 at the scanned row's index into the state with ScatterElements (add)."""
    from onnx import TensorProto as T, helper as h, numpy_helper

    one = h.make_node("Constant", [], ["one"], value=numpy_helper.from_array(np.ones(1, np.float32)))
    body = h.make_graph(
        [one, h.make_node("ScatterElements", ["acc", "row", "one"], ["acc_out"], name="count_row", reduction="add"),
         h.make_node("Identity", ["acc_out"], ["seen"])], "body",
        [h.make_tensor_value_info("acc", T.FLOAT, [4]), h.make_tensor_value_info("row", T.INT64, [1])],
        [h.make_tensor_value_info("acc_out", T.FLOAT, [4]), h.make_tensor_value_info("seen", T.FLOAT, [4])])
    scan = h.make_node("Scan", ["start", "rows"], ["final", "history"], name="scan_rows", body=body,
                       num_scan_inputs=1)
    graph = h.make_graph([scan], "g", [h.make_tensor_value_info("start", T.FLOAT, [4]),
                                       h.make_tensor_value_info("rows", T.INT64, [3, 1])],
                         [h.make_tensor_value_info("final", T.FLOAT, [4]),
                          h.make_tensor_value_info("history", T.FLOAT, [3, 4])])
    return sm.open_model(h.make_model(graph, opset_imports=[h.make_opsetid("", 18)], ir_version=8)
                         .SerializeToString())
