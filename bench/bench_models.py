"""scatter_models' speed (issue #23), measured side by side (never by a timed test).

    python bench/bench_models.py            # about 2 minutes; --quick for a smaller model and fewer runs

A decoder block is generated at run time (never committed): hidden size H, four H×H float32 weight
matrices (q, k, v, o), T tokens written into a KV cache of 16 heads at positions p..p+T-1 by two
ScatterND-18 nodes, attention over the cache and the output projection. With H = 2048 the weights are
64 MiB; the listing bench uses H = 2560 (100 MiB).

Printed, each the median of N runs:

* capture time on onnx.reference vs a plain onnx.reference run of the same model with the same inputs: the
  run alone (evaluator built beforehand), load + build + run in-process (``ReferenceEvaluator(model).run``),
  and all of it in a fresh Python process (what any guarded run pays:
  the interpreter, imports and reading the model). The capture is timed three ways: the first one (it
  starts the warm worker, which parses the model), again on the same model (the warm worker holds it:
  what a user pressing Capture with another seed waits), and in a fresh process every time
  (``SCATTER_MODELS_WARM_WORKER=0``); and the first capture once more with the worker started 3 s before
  (``scatter_models.prewarm()``, which the page calls when a model opens);
* the same for onnxruntime;
* ``open_model`` (listing, with shape inference) vs ``onnx.load`` of the 100 MiB model.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# one BLAS thread on both sides, as the capture's worker runs (on a shared 2-core machine, spinning BLAS
# threads make the in-process runs slower and noisier than the run itself)
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HEADS = 16
PREWARM_SECONDS = 3.0


def decoder_block(hidden: int, max_seq: int, tokens: int, seed: int = 0) -> bytes:
    from onnx import TensorProto as T, helper as h, numpy_helper

    rng = np.random.default_rng(seed)
    head = hidden // HEADS
    inits = [numpy_helper.from_array((rng.standard_normal((hidden, hidden)) / np.sqrt(hidden)).astype(np.float32),
                                     f"W{n}") for n in "qkvo"]
    inits += [numpy_helper.from_array(np.asarray(v, np.int64), n) for n, v in (
        ("heads_shape", [tokens, HEADS, head]), ("out_shape", [tokens, hidden]),
        ("head_ids", np.repeat(np.arange(HEADS), tokens).reshape(HEADS, tokens, 1)),
        ("token_ids", np.arange(tokens)), ("idx_shape", [HEADS, tokens, 1]))]
    nodes = [
        h.make_node("MatMul", ["x", "Wq"], ["q2"]), h.make_node("MatMul", ["x", "Wk"], ["k2"]),
        h.make_node("MatMul", ["x", "Wv"], ["v2"]),
        *[h.make_node("Reshape", [f"{n}2", "heads_shape"], [f"{n}3"]) for n in "qkv"],
        *[h.make_node("Transpose", [f"{n}3"], [f"{n}h"], perm=[1, 0, 2]) for n in "qkv"],  # heads, tokens, head
        h.make_node("Add", ["token_ids", "p"], ["positions"]),
        h.make_node("Expand", ["positions", "idx_shape_2"], ["pos_exp"]),
        h.make_node("Constant", [], ["idx_shape_2"], value=h.make_tensor("s", T.INT64, [2], [HEADS, tokens])),
        h.make_node("Unsqueeze", ["pos_exp", "minus1"], ["pos3"]),
        h.make_node("Constant", [], ["minus1"], value=h.make_tensor("m", T.INT64, [1], [-1])),
        h.make_node("Concat", ["head_ids", "pos3"], ["write_at"], axis=-1),
        h.make_node("ScatterND", ["past_key", "write_at", "kh"], ["present_key"], name="k_cache_write"),
        h.make_node("ScatterND", ["past_value", "write_at", "vh"], ["present_value"], name="v_cache_write"),
        h.make_node("Transpose", ["present_key"], ["kt"], perm=[0, 2, 1]),
        h.make_node("MatMul", ["qh", "kt"], ["scores"]),
        h.make_node("Softmax", ["scores"], ["probs"], axis=-1),
        h.make_node("MatMul", ["probs", "present_value"], ["ctx"]),
        h.make_node("Transpose", ["ctx"], ["ctx_t"], perm=[1, 0, 2]),
        h.make_node("Reshape", ["ctx_t", "out_shape"], ["ctx2"]),
        h.make_node("MatMul", ["ctx2", "Wo"], ["y"]),
    ]
    # topological order: constants first
    nodes = [n for n in nodes if n.op_type == "Constant"] + [n for n in nodes if n.op_type != "Constant"]
    graph = h.make_graph(nodes, "decoder_block", [
        h.make_tensor_value_info("x", T.FLOAT, [tokens, hidden]),
        h.make_tensor_value_info("p", T.INT64, [1]),
        h.make_tensor_value_info("past_key", T.FLOAT, [HEADS, max_seq, head]),
        h.make_tensor_value_info("past_value", T.FLOAT, [HEADS, max_seq, head]),
    ], [h.make_tensor_value_info("y", T.FLOAT, [tokens, hidden]),
        h.make_tensor_value_info("present_key", T.FLOAT, [HEADS, max_seq, head]),
        h.make_tensor_value_info("present_value", T.FLOAT, [HEADS, max_seq, head])], initializer=inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 18)], ir_version=8)
    return model.SerializeToString()


PLAIN_CHILD = """
import sys, numpy as np, onnx
path, feeds_path, runtime = sys.argv[1:4]
feeds = dict(np.load(feeds_path, allow_pickle=False))
if runtime == "reference":
    from onnx.reference import ReferenceEvaluator
    ReferenceEvaluator(onnx.load(path)).run(None, feeds)
else:
    import onnxruntime as ort
    o = ort.SessionOptions(); o.intra_op_num_threads = 1; o.log_severity_level = 4
    ort.InferenceSession(path, o, providers=["CPUExecutionProvider"]).run(None, feeds)
"""


def plain_in_process(data: bytes, feeds: dict, runtime: str) -> float:
    import onnx

    start = time.perf_counter()
    if runtime == "reference":
        from onnx.reference import ReferenceEvaluator

        ReferenceEvaluator(onnx.load_model_from_string(data)).run(None, feeds)
    else:
        import onnxruntime as ort

        o = ort.SessionOptions()
        o.intra_op_num_threads = 1
        o.log_severity_level = 4
        ort.InferenceSession(data, o, providers=["CPUExecutionProvider"]).run(None, feeds)
    return time.perf_counter() - start


def run_only(data: bytes, feeds: dict, runtime: str, n: int) -> float:
    """The run alone, on an evaluator or session built beforehand (median of n)."""
    import onnx

    if runtime == "reference":
        from onnx.reference import ReferenceEvaluator

        evaluator = ReferenceEvaluator(onnx.load_model_from_string(data))
        run = lambda: evaluator.run(None, feeds)  # noqa: E731
    else:
        import onnxruntime as ort

        o = ort.SessionOptions()
        o.intra_op_num_threads = 1
        o.log_severity_level = 4
        session = ort.InferenceSession(data, o, providers=["CPUExecutionProvider"])
        run = lambda: session.run(None, feeds)  # noqa: E731
    return median(lambda: _timed(run), n)


def plain_child(path: Path, feeds_path: Path, runtime: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", PLAIN_CHILD, str(path), str(feeds_path), runtime], check=True)
    return time.perf_counter() - start


def median(fn, n: int) -> float:
    return statistics.median(fn() for _ in range(n))


def main(argv=None) -> int:
    import onnx

    import scatter_models as sm

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    n = 2 if args.quick else 5
    hidden, list_hidden = (1024, 1024) if args.quick else (2048, 2560)
    tokens, max_seq = 32, 256
    print(f"python {platform.python_version()}, onnx {onnx.__version__}, numpy {np.__version__}, "
          f"{os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        data = decoder_block(hidden, max_seq, tokens)
        path = Path(tmp) / "decoder.onnx"
        path.write_bytes(data)
        model = sm.open_model(path, max_bytes=2**31 - 1)
        print(f"decoder block: hidden {hidden}, {len(data) / 2**20:.1f} MiB, scatter nodes "
              f"{[node.name for node in model.nodes]}")
        cap = model.capture(seed=0)
        feeds = cap.feeds
        feeds_path = Path(tmp) / "feeds.npz"
        np.savez(feeds_path, **feeds)
        for runtime in ("reference", "onnxruntime"):
            if runtime == "onnxruntime" and not sm.runtime_available("onnxruntime"):
                print("onnxruntime not installed: skipped")
                continue
            t_in = median(lambda: plain_in_process(data, feeds, runtime), n)
            t_run = run_only(data, feeds, runtime, n)
            t_child = median(lambda: plain_child(path, feeds_path, runtime), n)

            def one_capture():
                start = time.perf_counter()
                model.capture(dict(feeds), runtime=runtime)
                return time.perf_counter() - start

            import scatter_models.capture as capture_module

            capture_module._stop_warm()
            capture_module._WARM = None
            t_first = one_capture()  # starts the warm worker, which parses the model
            capture_module._stop_warm()
            capture_module._WARM = None
            sm.prewarm(runtime)  # what the page does when a model opens: the worker imports onnx (and the runtime)
            time.sleep(PREWARM_SECONDS)  # the user reads the node table before pressing Capture
            t_prewarmed = one_capture()  # the worker is up: it parses the model and runs
            t_cap = median(one_capture, n)  # the same model again: the warm worker holds it
            os.environ["SCATTER_MODELS_WARM_WORKER"] = "0"
            t_cold = median(one_capture, n)  # a fresh process every time
            del os.environ["SCATTER_MODELS_WARM_WORKER"]
            print(f"{runtime:12s} plain: run only {t_run:7.3f} s, load+build+run {t_in:7.3f} s, fresh process "
                  f"{t_child:7.3f} s | capture: first {t_first:7.3f} s ({t_first / t_in:5.2f}x load+build+run), "
                  f"first after prewarm {t_prewarmed:7.3f} s ({t_prewarmed / t_in:5.2f}x load+build+run), "
                  f"again {t_cap:7.3f} s ({t_cap / t_run:5.2f}x run only), fresh process {t_cold:7.3f} s "
                  f"({t_cold / t_child:5.2f}x fresh process)")
        big = decoder_block(list_hidden, max_seq, tokens)
        big_path = Path(tmp) / "big.onnx"
        big_path.write_bytes(big)
        t_load = median(lambda: _timed(lambda: onnx.load(str(big_path))), n)
        t_list = median(lambda: _timed(lambda: sm.open_model(big_path, max_bytes=2**31 - 1)), n)
        print(f"listing {len(big) / 2**20:.1f} MiB: onnx.load {t_load:.3f} s | open_model {t_list:.3f} s | "
              f"{t_list / t_load:.2f}x")
    return 0


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


if __name__ == "__main__":
    sys.exit(main())
