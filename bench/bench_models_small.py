"""A repeated capture of small exported models against the bare run, as paired times (issue #32, Speed).

    python bench/bench_models_small.py [N] [--only WORD]   # run from the root of the copy of the app to measure

The goal: a repeated capture at most 5 ms plus 2x the bare run. For each small model (the shipped samples and
tests/data/real_models/: what exporters write) and each runtime that can capture it (onnx.reference,
onnxruntime, OpenVINO): N pairs of (the run alone on an evaluator, session or compiled model built
beforehand, a capture again on the warm worker), timed one right after the other so the machine's load hits
both alike. Printed per model and runtime: the medians, the median of each pair's capture minus twice its run
(the fixed cost, to compare with 5 ms), how many pairs met the goal, and the CPU a capture took (this
process's and the warm worker's, read from /proc: what the load changes least). An IR's bare run is OpenVINO's CPU
plugin (its "reference" capture also runs the reference kernel on each node). docs/performance.md records
the results beside the 64 MiB decoder block's.
"""
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/bench")

import scatter_models as sm  # noqa: E402
import scatter_models.capture as capture_module  # noqa: E402
from bench_models_paired import plain_runner, timed  # noqa: E402

GOAL_MS = 5.0
REAL = Path("tests/data/real_models")


def models() -> list:
    """(label, path) of every small model: the shipped samples, then the repo's exported ones."""
    out = [(key, sm.sample_path(key)) for key in sm.SAMPLES]
    out += [(p.stem, p) for p in sorted(REAL.glob("*.onnx")) + sorted(REAL.glob("*.xml"))]
    return out


def openvino_runner(path: Path, feeds: dict):
    """The run alone on an OpenVINO CPU compiled model built beforehand."""
    import openvino as ov

    core = ov.Core()
    model = core.read_model(str(path)) if path.suffix == ".onnx" else core.read_model(
        str(path), str(path.with_suffix(".bin")))
    compiled = core.compile_model(model, "CPU")
    request = compiled.create_infer_request()
    by_port = {}
    for port in compiled.inputs:
        names = set(port.get_names()) | {port.get_node().get_friendly_name()}
        for name in names & set(feeds):
            by_port[port] = feeds[name]
    return lambda: request.infer(by_port)


def worker_cpu() -> float:
    """The warm worker's CPU seconds so far (its time on a CPU in nanoseconds, /proc/PID/schedstat; 0 without
    one)."""
    warm = getattr(capture_module, "_WARM", None)
    try:
        with open(f"/proc/{warm.proc.pid}/schedstat", encoding="ascii") as f:
            return int(f.read().split()[0]) / 1e9
    except (AttributeError, OSError, ValueError, IndexError):
        return 0.0


def bare(path: Path, feeds: dict, runtime: str, kind: str):
    if runtime == "openvino" or kind != "onnx":
        return openvino_runner(path, feeds)
    return plain_runner(path.read_bytes(), dict(feeds), runtime)


def main(argv) -> int:
    only = argv[argv.index("--only") + 1] if "--only" in argv else ""
    argv = [a for i, a in enumerate(argv) if a != "--only" and (i == 0 or argv[i - 1] != "--only")]
    n = int(argv[0]) if argv else 21
    med = statistics.median
    print(os.getcwd(), "load", os.getloadavg())
    print(f"{'model':30s} {'runtime':12s} {'run':>8s} {'capture':>9s} {'capture-2*run':>14s}  "
          f"pairs within 5 ms + 2x run, "
          f"CPU per capture")
    for label, path in models():
        if only and only not in label:
            continue
        model = sm.open_model(path)
        for runtime in sm.RUNTIMES:
            if sm.runtime_problem(model, runtime):
                continue
            feeds = model.capture(seed=0, runtime=runtime).feeds
            try:
                run = bare(path, feeds, runtime, model.kind)
                run()
            except Exception as exc:  # noqa: BLE001 - no bare run to compare with (onnx.reference and Scatter-9)
                print(f"{label:30s} {runtime:12s} no bare run: {type(exc).__name__}")
                continue
            model.capture(dict(feeds), runtime=runtime)  # the worker holds the model and its session
            runs, caps, cpu = [], [], 0.0
            worker = worker_cpu()
            for _ in range(n):
                runs.append(timed(run))
                start = time.process_time()
                caps.append(timed(lambda: model.capture(dict(feeds), runtime=runtime)))
                cpu += time.process_time() - start
            cpu += worker_cpu() - worker
            over = [1e3 * (c - 2 * r) for c, r in zip(caps, runs)]
            within = sum(o <= GOAL_MS for o in over)
            print(f"{label:30s} {runtime:12s} {1e3 * med(runs):6.2f}ms {1e3 * med(caps):7.2f}ms {med(over):12.2f}ms  "
                  f"{within}/{n}  cpu {1e3 * cpu / n:.1f}ms", flush=True)
    print("load", os.getloadavg())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
