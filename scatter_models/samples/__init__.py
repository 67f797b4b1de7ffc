"""The sample models shipped with scatter_models, made by ``scripts/make_sample_models.py``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Sample:
    key: str
    file: str  # the .onnx or .xml (its .bin beside it)
    title: str
    teaches: str


SAMPLES = {s.key: s for s in (
    Sample("kv_cache", "kv_cache_decode.onnx", "KV-cache decode step (ScatterND)",
           "a decoder step writes this token's keys at position p of the cache with ScatterND: one write per "
           "head, so no cell is written twice"),
    Sample("index_put", "index_put_accumulate.onnx", "index_put(accumulate=True) (ScatterND add)",
           "the indices come from an ArgMax, so duplicate rows appear only at run time; reduction add sums them"),
    Sample("scatter_amax", "scatter_reduce_amax.onnx", "scatter_reduce(amax) (ScatterElements max)",
           "the indices are computed in the graph and come out negative (i - n), which ScatterElements-18 "
           "counts from the end"),
    Sample("circular_cache", "tensor_scatter_circular.onnx", "TensorScatter-24 circular cache",
           "a KV cache written at write_indices, wrapping around the cache's end (mode circular)"),
    Sample("scatter9", "scatter_opset9.onnx", "old opset-9 Scatter",
           "the deprecated Scatter of opset 9 (ScatterElements' ancestor); onnx.reference has no kernel for it"),
    Sample("ov_mean", "ov_scatter_elements_mean.xml", "OpenVINO IR: ScatterElementsUpdate-12 mean",
           "an OpenVINO IR (.xml + .bin) averaging int32 updates into a tensor: the spec floors an integer "
           "mean, the CPU plugin truncates it toward zero. Data and updates are stored with a zero point of 2 "
           "that the graph subtracts first, so the drawn inputs (0 to 3) reach the scatter as -2 to 1 and the "
           "two roundings differ where a mean is negative"),
    Sample("loop_body", "loop_body_scatter.onnx", "ScatterElements in a Loop body",
           "a scatter node inside a Loop body runs once per iteration; the capture records the first call and counts"),
)}


def sample_path(key: str) -> Path:
    return HERE / SAMPLES[key].file
