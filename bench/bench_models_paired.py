"""scatter_models' capture time on a loaded machine, as paired ratios (issue #23; docs/performance.md).

    python bench/bench_models_paired.py [N]     # run from the root of the copy of the app to measure

The same decoder block as ``bench_models.py`` (64 MiB of weights, two ScatterND-18 KV-cache writes). On a
machine shared with other jobs, medians of separate runs drift more than the difference measured, so each
capture is timed right after a plain run and the ratio is taken per pair: N pairs of (the run alone on a
built evaluator or session, a capture again on the warm worker), then 3 pairs of (the first capture, with the
worker started 3 s before by ``scatter_models.prewarm`` where this copy of the app has it, a plain load +
build + run in this process). Where ``prewarm`` takes the model (as the page calls it), the worker also takes
the model and builds its evaluator or session in those 3 s; the time it took to be ready is printed. Run it from two copies of the app (``git archive`` one into /tmp) one after the
other, twice, to compare them side by side.
"""
import inspect
import os
import statistics
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/bench")
import onnx  # noqa: E402

import scatter_models as sm  # noqa: E402
import scatter_models.capture as capture_module  # noqa: E402
from bench_models import decoder_block, plain_in_process  # noqa: E402


def plain_runner(data: bytes, feeds: dict, runtime: str):
    """The run alone, on an evaluator or a session built beforehand."""
    if runtime == "reference":
        from onnx.reference import ReferenceEvaluator

        evaluator = ReferenceEvaluator(onnx.load_model_from_string(data))
        return lambda: evaluator.run(None, feeds)
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 4
    session = ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
    return lambda: session.run(None, feeds)


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv) -> int:
    n = int(argv[0]) if argv else 11
    data = decoder_block(2048, 256, 32)
    model = sm.open_model(data, max_bytes=2**31 - 1)
    feeds = model.capture(seed=0).feeds
    has_prewarm = hasattr(sm, "prewarm")
    takes_model = has_prewarm and "model" in inspect.signature(sm.prewarm).parameters
    med = statistics.median
    print(os.getcwd(), "load", os.getloadavg())
    for runtime in ("reference", "onnxruntime"):
        run = plain_runner(data, feeds, runtime)
        model.capture(dict(feeds), runtime=runtime)
        runs, caps = [], []
        for _ in range(n):
            runs.append(timed(run))
            caps.append(timed(lambda: model.capture(dict(feeds), runtime=runtime)))
        ratios = [c / r for c, r in zip(caps, runs)]
        firsts, plains, readies = [], [], []
        for _ in range(3):
            capture_module._stop_warm()
            capture_module._WARM = None
            if has_prewarm:
                opened = time.perf_counter()
                if takes_model:  # the page's call: the worker also takes the model and builds its evaluator/session
                    sm.prewarm(runtime, model)
                else:
                    sm.prewarm(runtime)
                preparing = getattr(capture_module, "_PREPARING", None)
                while preparing is not None and preparing.is_set() and time.perf_counter() - opened < 60:
                    time.sleep(0.01)
                readies.append(time.perf_counter() - opened)
                time.sleep(max(0.0, 3.0 - readies[-1]))  # a user reading the node table for 3 s
            firsts.append(timed(lambda: model.capture(dict(feeds), runtime=runtime)))
            plains.append(plain_in_process(data, feeds, runtime))
        fratios = [f / p for f, p in zip(firsts, plains)]
        print(f"{runtime:12s} again: run only {med(runs):.3f} s, capture {med(caps):.3f} s, paired ratio median "
              f"{med(ratios):.2f}x (min {min(ratios):.2f}, max {max(ratios):.2f}); over the run "
              f"{med(caps) - med(runs):+.3f} s | first{' after prewarm' if has_prewarm else ''}: {med(firsts):.3f} s "
              f"vs load+build+run {med(plains):.3f} s, paired {med(fratios):.2f}x"
              + (f" (worker ready {med(readies):.2f} s after the model opened)" if readies else ""))
    print("load", os.getloadavg())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
