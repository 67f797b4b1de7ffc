"""A repeated capture of small exported models against the bare run, as paired times (issue #32, Speed).

    python bench/bench_models_small.py [N]     # run from the root of the copy of the app to measure

The goal: a repeated capture at most 5 ms plus 2x the bare run. For each ONNX sample model (the shipped
ones are what exporters write, kept small) and each of onnx.reference and onnxruntime: N pairs of (the run
alone on an evaluator or session built beforehand, a capture again on the warm worker), timed one right
after the other so the machine's load hits both alike. Printed per model and runtime: the medians, the
median of each pair's capture minus twice its run (the fixed cost, to compare with 5 ms) and how many pairs
met the goal. docs/performance.md records the results beside the 64 MiB decoder block's.
"""
import os
import statistics
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/bench")

import scatter_models as sm  # noqa: E402
from bench_models_paired import plain_runner, timed  # noqa: E402

GOAL_MS = 5.0


def main(argv) -> int:
    n = int(argv[0]) if argv else 21
    med = statistics.median
    print(os.getcwd(), "load", os.getloadavg())
    print(f"{'model':16s} {'runtime':12s} {'run':>8s} {'capture':>9s} {'capture-2*run':>14s}  pairs within 5 ms + 2x run")
    for key, sample in sm.SAMPLES.items():
        if not sample.file.endswith(".onnx"):
            continue
        path = sm.sample_path(key)
        model = sm.open_model(path)
        for runtime in ("reference", "onnxruntime"):
            if sm.runtime_problem(model, runtime):
                continue
            feeds = model.capture(seed=0, runtime=runtime).feeds
            try:
                run = plain_runner(path.read_bytes(), dict(feeds), runtime)
            except Exception as exc:  # noqa: BLE001 - no bare run to compare with (onnx.reference and Scatter-9)
                print(f"{key:16s} {runtime:12s} no bare run: {type(exc).__name__}")
                continue
            run()
            model.capture(dict(feeds), runtime=runtime)  # the worker holds the model and its session
            runs, caps = [], []
            for _ in range(n):
                runs.append(timed(run))
                caps.append(timed(lambda: model.capture(dict(feeds), runtime=runtime)))
            over = [1e3 * (c - 2 * r) for c, r in zip(caps, runs)]
            within = sum(o <= GOAL_MS for o in over)
            print(f"{key:16s} {runtime:12s} {1e3 * med(runs):6.2f}ms {1e3 * med(caps):7.2f}ms {med(over):12.2f}ms  "
                  f"{within}/{n}")
    print("load", os.getloadavg())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
