#!/usr/bin/env python
"""Speed of scatter_core on the spec's two large examples (issue #2, "Speed").

Usage::

    python bench/bench_core.py           # 41 timed repetitions per row
    python bench/bench_core.py --quick   # 7 repetitions, for a smoke run

Workloads (seeded, so every run times the same arrays):

* OpenVINO ScatterElementsUpdate-12 Example 6: data float32 [1000, 256, 7, 7],
  indices and updates [125, 20, 7, 6], axis 0 (105,000 steps).
* OpenVINO ScatterNDUpdate-3 layer example: data float32 [1000, 256, 10, 15],
  indices [25, 125, 3], updates [25, 125, 15] (3,125 steps of 15 cells).

Peers, each built once outside the timing loop:

* onnxruntime ScatterElements-18 / ScatterND-18 (opset 18, CPU, default thread
  settings). ``sess.run`` includes ORT's input handling and output allocation,
  the peer of ``scatter()`` returning a new array. For ``out=`` rows the peer
  is ``run_with_iobinding`` writing into a preallocated output buffer.
* OpenVINO ScatterElementsUpdate-12 (CPU plugin) for mean, which ORT lacks:
  ``infer`` with shared (zero-copy) inputs and the output copied out to the
  caller; for ``out=`` the output tensor wraps a preallocated buffer.

Every timed repetition runs ours, the peer and ``np.copy(data)`` back to back
(interleaved), so each ratio compares calls made under the same conditions:
the table reports median times, and each ratio is the median of the
per-repetition ratios (the machine's speed drifts during a run). This is a script, not a test: timings depend on the
machine and on what else runs on it. Results are recorded in docs/performance.md,
section "The core".
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

import scatter_core as sc  # noqa: E402
from scatter_core.fast import buffers, copying, segmented  # noqa: E402
from scatter_core.findings import collect  # noqa: E402

try:
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper
except ImportError:  # the table then shows "n/a" for the ORT peers
    ort = None
try:
    import openvino as ov
    import openvino.opset12 as ov_ops
except ImportError:
    ov = None

# onnxruntime 1.31 loads models up to IR version 13; opset 18 needs IR >= 8.
ONNX_IR_VERSION = 8


# -- workloads -----------------------------------------------------------------------------------
@dataclass
class Workload:
    name: str
    data: np.ndarray
    indices: np.ndarray
    updates: np.ndarray
    axis: int | None = None


def example6(seed: int = 0) -> Workload:
    rng = np.random.default_rng(seed)
    data = rng.standard_normal((1000, 256, 7, 7), dtype=np.float32)
    indices = rng.integers(0, 1000, size=(125, 20, 7, 6), dtype=np.int64)
    updates = rng.standard_normal((125, 20, 7, 6), dtype=np.float32)
    return Workload("Example 6", data, indices, updates, axis=0)


def nd_layer(seed: int = 1) -> Workload:
    rng = np.random.default_rng(seed)
    data = rng.standard_normal((1000, 256, 10, 15), dtype=np.float32)
    # non-negative, in range: ScatterNDUpdate-3 forbids negative indices; ScatterND-18 takes int64
    indices = np.stack([rng.integers(0, n, size=(25, 125), dtype=np.int64) for n in data.shape[:3]], axis=-1)
    updates = rng.standard_normal((25, 125, 15), dtype=np.float32)
    return Workload("ND layer", data, indices, updates)


# -- timing ----------------------------------------------------------------------------------------
class Timing(float):
    """A median time in ms that keeps its per-repetition samples (seconds), for paired ratios."""

    samples: list[float]

    def __new__(cls, samples: list[float]):
        obj = super().__new__(cls, statistics.median(samples) * 1e3)
        obj.samples = samples
        return obj


def paired_ratio(a: float, b: float) -> float:
    """Median over repetitions of a_i / b_i, both timed in the same repetition i.

    On this shared VM the speed of the whole machine drifts by 10-50% over a run; a ratio
    of the two medians mixes repetitions taken in fast and slow phases, a per-repetition
    ratio does not. Falls back to the ratio of medians for plain numbers.
    """
    if isinstance(a, Timing) and isinstance(b, Timing):
        return statistics.median(x / y for x, y in zip(a.samples, b.samples))
    return a / b


def time_interleaved(fns: list[Callable[[], object]], reps: int, warmup: int) -> list[Timing]:
    """Median wall time in ms of each function (with its samples), timed in turn within every repetition.

    Results are dropped after the clock stops, so each call starts from the same state.
    """
    for _ in range(warmup):
        for fn in fns:
            fn()
    samples: list[list[float]] = [[] for _ in fns]
    gc.collect()
    for _ in range(reps):
        for fn, acc in zip(fns, samples):
            t0 = time.perf_counter()
            result = fn()
            acc.append(time.perf_counter() - t0)
            del result
    return [Timing(s) for s in samples]


# -- peers -----------------------------------------------------------------------------------------
class OrtPeer:
    """One onnxruntime session of a single scatter node, plus an IOBinding into a fixed buffer."""

    def __init__(self, op_type: str, w: Workload, reduction: str):
        attrs = {"reduction": reduction}
        if w.axis is not None:
            attrs["axis"] = w.axis
        node = helper.make_node(op_type, ["data", "indices", "updates"], ["out"], **attrs)
        graph = helper.make_graph(
            [node], "scatter",
            [helper.make_tensor_value_info("data", TensorProto.FLOAT, w.data.shape),
             helper.make_tensor_value_info("indices", TensorProto.INT64, w.indices.shape),
             helper.make_tensor_value_info("updates", TensorProto.FLOAT, w.updates.shape)],
            [helper.make_tensor_value_info("out", TensorProto.FLOAT, w.data.shape)])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)],
                                  ir_version=ONNX_IR_VERSION)
        onnx.checker.check_model(model)
        self.sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        self.feeds = {"data": w.data, "indices": w.indices, "updates": w.updates}
        self.out = np.empty_like(w.data)
        self.binding = self.sess.io_binding()
        for name, arr in self.feeds.items():
            self.binding.bind_cpu_input(name, arr)
        self.binding.bind_output("out", "cpu", 0, self.out.dtype, list(self.out.shape), self.out.ctypes.data)

    def run(self) -> np.ndarray:
        return self.sess.run(None, self.feeds)[0]

    def run_into(self) -> np.ndarray:
        self.sess.run_with_iobinding(self.binding)
        return self.out


class OpenVinoPeer:
    """ScatterElementsUpdate-12 compiled once for the CPU plugin."""

    def __init__(self, w: Workload, reduction: str):
        data = ov_ops.parameter(w.data.shape, ov.Type.f32, name="data")
        indices = ov_ops.parameter(w.indices.shape, ov.Type.i64, name="indices")
        updates = ov_ops.parameter(w.updates.shape, ov.Type.f32, name="updates")
        axis = ov_ops.constant(np.array([w.axis], dtype=np.int64))
        node = ov_ops.scatter_elements_update(data, indices, updates, axis, reduction=reduction, use_init_val=True)
        self.compiled = ov.Core().compile_model(ov.Model([node], [data, indices, updates], "scatter"), "CPU")
        self.inputs = [w.data, w.indices, w.updates]
        self.request = self.compiled.create_infer_request()  # returns a copy of the output
        self.out = np.empty_like(w.data)
        self.request_into = self.compiled.create_infer_request()  # writes into self.out
        self.request_into.set_output_tensor(0, ov.Tensor(self.out, shared_memory=True))

    @property
    def threads(self) -> int:
        return int(self.compiled.get_property("INFERENCE_NUM_THREADS"))

    def run(self) -> np.ndarray:
        return self.request.infer(self.inputs, share_inputs=True)[0]

    def run_into(self) -> np.ndarray:
        self.request_into.infer(self.inputs, share_inputs=True, share_outputs=True)
        return self.out


# -- the table -------------------------------------------------------------------------------------
@dataclass
class Row:
    name: str
    ours: float
    copy: float  # np.copy(data) of the same workload, timed in the same repetitions
    peer_name: str = ""
    peer: float | None = None
    limit: float | None = None  # the target: ratio (to the peer, or to np.copy) <= limit
    versus_copy: bool = False  # the target is a ratio to np.copy rather than to the peer
    strict: bool = False  # "faster than": ratio < limit
    check: str = ""  # agreement of our result with the peer's

    @property
    def peer_ratio(self) -> float | None:
        return None if self.peer is None else paired_ratio(self.ours, self.peer)

    @property
    def target(self) -> str:
        if self.limit is None:
            return ""
        return f"{'np.copy' if self.versus_copy else self.peer_name.split()[0]} {'<' if self.strict else '<='} {self.limit}x"

    @property
    def met(self) -> str:
        if self.limit is None:
            return ""
        ratio = paired_ratio(self.ours, self.copy) if self.versus_copy else self.peer_ratio
        if ratio is None:
            return "n/a"
        ok = ratio < self.limit if self.strict else ratio <= self.limit
        return "yes" if ok else "**no**"


def fmt_ms(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.2f}"


def fmt_ratio(v: float | None) -> str:
    return "" if v is None else f"{v:.2f}x"


def print_table(rows: list[Row]) -> None:
    head = ["row", "scatter_core ms", "peer", "peer ms", "ratio to peer", "np.copy ms", "ratio to np.copy",
            "target", "met", "result check"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(" --- " for _ in head) + "|")
    for r in rows:
        cells = [r.name, fmt_ms(r.ours), r.peer_name, fmt_ms(r.peer) if r.peer_name else "",
                 fmt_ratio(r.peer_ratio), fmt_ms(r.copy), fmt_ratio(paired_ratio(r.ours, r.copy)), r.target, r.met, r.check]
        print("| " + " | ".join(cells) + " |")


def agreement(ours: np.ndarray, theirs: np.ndarray) -> str:
    if ours.tobytes() == theirs.tobytes():
        return "identical"
    if np.allclose(ours, theirs, rtol=1e-5, atol=1e-5):
        return f"close (max diff {float(np.max(np.abs(ours - theirs))):.1e})"
    return f"DIFFERENT ({int(np.count_nonzero(ours != theirs))} cells)"


def copy_of(w: Workload) -> Callable[[], np.ndarray]:
    """np.copy(data): timed alongside every row, so each ratio to it comes from the same repetitions."""
    return lambda: np.copy(w.data)


# -- rows --------------------------------------------------------------------------------------------
def scatter_rows(w: Workload, op: str, reductions: list[tuple[str, str]], peer_kind: str,
                 reps: int, warmup: int) -> list[Row]:
    """scatter() with a new result and with out=, for each (our spelling, peer spelling)."""
    rows = []
    copy = copy_of(w)
    attrs = {} if w.axis is None else {"axis": w.axis}
    out = np.empty_like(w.data)
    for ours_red, peer_red in reductions:
        kwargs = dict(attrs, reduction=ours_red)

        def fresh():
            return sc.scatter(op, w.data, w.indices, w.updates, **kwargs)

        def into():
            return sc.scatter(op, w.data, w.indices, w.updates, out=out, **kwargs)

        peer = None
        if peer_kind == "ort" and ort is not None:
            peer = OrtPeer(op.split("-")[0], w, peer_red)
            names, limits, strict = ("ORT run", "ORT IOBinding (preallocated output)"), (1.25, 1.0), False
        elif peer_kind == "ov" and ov is not None:
            peer = OpenVinoPeer(w, peer_red)
            names, limits, strict = ("OV infer", "OV infer (output tensor preset)"), (1.0, 1.0), True
        if peer is None:
            ours_new, ours_out, copy_ms = time_interleaved([fresh, into, copy], reps, warmup)
            rows += [Row(f"{w.name} scatter {ours_red}", ours_new, copy_ms),
                     Row(f"{w.name} scatter {ours_red} out=", ours_out, copy_ms)]
            continue
        check = agreement(fresh(), peer.run())
        check_out = agreement(into().copy(), peer.run_into().copy())
        ours_new, peer_new, ours_out, peer_out, copy_ms = time_interleaved(
            [fresh, peer.run, into, peer.run_into, copy], reps, warmup)
        rows.append(Row(f"{w.name} scatter {ours_red}", ours_new, copy_ms, names[0], peer_new,
                        limits[0], strict=strict, check=check))
        rows.append(Row(f"{w.name} scatter {ours_red} out=", ours_out, copy_ms, names[1], peer_out,
                        limits[1], strict=strict, check=check_out))
        del peer
        gc.collect()
    return rows


def pool_off_row(w: Workload, op: str, reps: int, warmup: int) -> list[Row]:
    """scatter() reduction none with the result pool off: every call gets new pages from the kernel.

    For context, not a target: it shows what the pool (scatter_core.fast.buffers) saves when earlier
    results are freed, as they are in the rows above.
    """
    attrs = {} if w.axis is None else {"axis": w.axis}
    saved = buffers.MAX_BYTES
    buffers.MAX_BYTES = 0
    buffers.release()
    try:
        def fresh():
            return sc.scatter(op, w.data, w.indices, w.updates, **attrs)

        fns = [fresh, copy_of(w)]
        peer = OrtPeer(op.split("-")[0], w, "none") if ort is not None else None
        if peer is not None:
            fns.insert(1, peer.run)
        times = time_interleaved(fns, reps, warmup)
    finally:
        buffers.MAX_BYTES = saved
    name = f"{w.name} scatter none, result pool off"
    if peer is None:
        return [Row(name, times[0], times[1])]
    return [Row(name, times[0], times[2], "ORT run", times[1])]


def trace_rows(w: Workload, op: str, reductions: list[str], reps: int, warmup: int,
               required: bool) -> list[Row]:
    rows = []
    attrs = {} if w.axis is None else {"axis": w.axis}
    for red in reductions:
        def run():
            return sc.trace(sc.case(op, w.data, w.indices, w.updates, reduction=red, **attrs))

        ms, copy_ms = time_interleaved([run, copy_of(w)], reps, warmup)
        # issue #2 bounds trace() of Example 6 at 4x np.copy, and issue #16 for every reduction
        limit = 4.0 if required else None
        rows.append(Row(f"{w.name} trace() {red}", ms, copy_ms, limit=limit, versus_copy=True))
    return rows


def findings_rows(w: Workload, op: str, reps: int, warmup: int) -> list[Row]:
    """trace() and then its findings (a cached property, computed on first access); findings alone."""
    def run():
        t = sc.trace(sc.case(op, w.data, w.indices, w.updates, axis=w.axis))
        t.findings
        return t

    t = sc.trace(sc.case(op, w.data, w.indices, w.updates, axis=w.axis))
    ms, alone, copy_ms = time_interleaved([run, lambda: collect(t), copy_of(w)], reps, warmup)
    return [Row(f"{w.name} trace()+findings none", ms, copy_ms),
            Row(f"{w.name} findings alone (collect) none", alone, copy_ms)]


def trace_memory(w: Workload, op: str) -> tuple[float, float]:
    """(peak MB allocated during trace(), MB still held by the Trace) as tracemalloc sees them."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    t = sc.trace(sc.case(op, w.data, w.indices, w.updates, axis=w.axis))
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del t
    return (peak - base) / 2**20, (held - base) / 2**20


def state_at_times(w: Workload, op: str, reps: int, warmup: int) -> list[tuple[int, float]]:
    t = sc.trace(sc.case(op, w.data, w.indices, w.updates, axis=w.axis))
    n = len(t)
    ks = [0, 1, 50_000, n // 2, n - 1, n]
    times = time_interleaved([lambda k=k: t.state_at(k) for k in ks], reps, warmup)
    return list(zip(ks, times))


def copy_paths(workloads: list[Workload]) -> str:
    """Which copy plan scatter_core.fast.copying uses for each workload's data on this machine."""
    threshold = copying.streaming_threshold()
    known = (f"{threshold / 2**20:.1f} MiB (glibc x86_non_temporal_threshold)" if threshold
             else "unknown (chunks only)")
    parts = []
    for w in workloads:
        ranges = copying.copy_plan(w.data.size, w.data.itemsize, copying.workers(), threshold)
        streamed = sum(1 for a, b in ranges if threshold and (b - a) * w.data.itemsize >= threshold)
        parts.append(f"{w.name} ({w.data.nbytes / 2**20:.0f} MiB): {streamed} streamed piece(s) and "
                     f"{len(ranges) - streamed} chunk(s) on {copying.workers()} threads")
    return f"copy into the output: memcpy streaming threshold {known}; " + "; ".join(parts)


# -- main --------------------------------------------------------------------------------------------
def versions() -> str:
    parts = [f"Python {platform.python_version()}", f"numpy {np.__version__}"]
    if ort is not None:
        parts += [f"onnxruntime {ort.__version__}", f"onnx {onnx.__version__}"]
    if ov is not None:
        parts.append(f"openvino {ov.__version__.split('-')[0]}")
    return ", ".join(parts)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="7 repetitions instead of 25 (a smoke run)")
    args = parser.parse_args(argv)
    # Warm-up matters: the first calls after another workload's are slower (allocator, page cache).
    reps, warmup = (7, 3) if args.quick else (41, 5)

    print(f"# scatter_core speed, {time.strftime('%Y-%m-%d')}")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores; {versions()}")
    print(f"median of {reps} interleaved repetitions after {warmup} warm-up; times in ms; ratios: median of the "
          f"per-repetition ratios; "
          f"load average at start {os.getloadavg()[0]:.2f}")
    tunables = {k: v for k, v in os.environ.items() if k.startswith("MALLOC_")}
    print("glibc malloc: " + (", ".join(f"{k}={v}" for k, v in tunables.items()) if tunables else "default settings"))
    if ort is not None:
        print("onnxruntime: CPUExecutionProvider, intra_op_num_threads left at its default (0: ORT picks "
              f"one thread per physical core; this machine has {os.cpu_count()} cores)")

    ex6 = example6()
    nd = nd_layer()
    print(copy_paths([ex6, nd]))
    sort = "the radix sort (16-bit counting sorts)" if segmented.RADIX_IS_FASTER else "the composite-key sort"
    print(f"trace() groups writes by cell with {sort} (segmented.RADIX_IS_FASTER, probed at import)")
    ex6_op = "ScatterElementsUpdate-12"
    rows: list[Row] = []

    # The first rows timed in a fresh process run ~25% slower (the allocator and the kernel's
    # page state settle); one discarded pass keeps them comparable with the rows after them.
    scatter_rows(ex6, "ScatterElements-18", [("none", "none")], "ort", reps, warmup)
    rows += scatter_rows(ex6, "ScatterElements-18", [("none", "none"), ("add", "add"), ("max", "max")],
                         "ort", reps, warmup)
    rows += pool_off_row(ex6, "ScatterElements-18", reps, warmup)
    peer_ov = OpenVinoPeer(ex6, "mean") if ov is not None else None
    if peer_ov is not None:
        print(f"OpenVINO: CPU plugin, INFERENCE_NUM_THREADS = {peer_ov.threads}")
        del peer_ov
    rows += scatter_rows(ex6, ex6_op, [("mean", "mean")], "ov", reps, warmup)
    rows += trace_rows(ex6, ex6_op, ["none", "sum", "prod", "max", "min", "mean"], reps, warmup, required=True)
    rows += findings_rows(ex6, ex6_op, reps, warmup)
    rows += scatter_rows(nd, "ScatterND-18", [("none", "none"), ("add", "add")], "ort", reps, warmup)
    rows += pool_off_row(nd, "ScatterND-18", reps, warmup)
    rows += trace_rows(nd, "ScatterND-18", ["none"], reps, warmup, required=False)

    print()
    print_table(rows)

    peak, held = trace_memory(ex6, ex6_op)
    data_mb = ex6.data.nbytes / 2**20
    print()
    print(f"trace() memory on Example 6 (tracemalloc): peak {peak:.0f} MB during the call, {held:.0f} MB held "
          f"by the Trace; data is {data_mb:.0f} MB ({peak / data_mb:.1f}x and {held / data_mb:.1f}x data)")
    times = state_at_times(ex6, ex6_op, reps, warmup)
    print("state_at(k) on Example 6: " + ", ".join(f"k={k}: {ms:.1f} ms" for k, ms in times))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
