"""Captured cases against an independent capture: each scatter node's tensors exposed by hand as graph
outputs of the model and run with onnx.reference (onnxruntime for Scatter-9, which onnx.reference lacks)."""

from __future__ import annotations

import numpy as np
import pytest

import scatter_core as sc
import scatter_models as sm
from scatter_models.samples import sample_path
from tests.support.skipping import require_or_skip


def _expose_by_hand(data: bytes, node_name: str):
    import onnx

    model = onnx.load_model_from_string(data)
    node = next(n for n in model.graph.node if n.name == node_name)
    names = list(node.input) + [node.output[0]]
    for name in names:
        if name not in {o.name for o in model.graph.output}:
            model.graph.output.append(onnx.ValueInfoProto(name=name))
    return model, node, names


def _independent(model, feeds, engine):
    if engine == "onnx.reference":
        from onnx.reference import ReferenceEvaluator

        evaluator = ReferenceEvaluator(model)
        return dict(zip(evaluator.output_names, evaluator.run(None, feeds)))
    import onnxruntime as ort

    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return dict(zip([o.name for o in session.get_outputs()], session.run(None, feeds)))


@pytest.mark.parametrize("key, engine", [("kv_cache", "onnx.reference"), ("index_put", "onnx.reference"),
                                         ("scatter_amax", "onnx.reference"), ("circular_cache", "onnx.reference"),
                                         ("scatter9", "onnxruntime")])
@pytest.mark.parametrize("seed", [0, 7])
def test_captured_case_equals_hand_exposed_tensors(key, engine, seed):
    require_or_skip(engine)
    model = sm.open_model(sample_path(key))
    cap = model.capture(seed=seed)
    for node in model.nodes:
        rec = cap[node.name]
        proto, onnx_node, names = _expose_by_hand(sample_path(key).read_bytes(), node.original_name)
        values = _independent(proto, cap.feeds, engine)
        spec = sc.get_spec(node.op)
        given = dict(zip(("data", "indices", "updates"), rec.case.given()))
        for pos, inp in enumerate(spec.inputs):
            np.testing.assert_array_equal(given[inp.role], values[names[pos]], err_msg=f"{key} {inp.role}")
        np.testing.assert_array_equal(rec.output, values[names[-1]])
