"""``Model.capture``: run a model once, in a guarded child process, and record every scatter node.

Before anything runs: the inputs are settled (given ones checked, the rest drawn from ``seed``), the bytes
the capture may allocate are estimated from the shapes and refused over the budget, and the runtime is
checked (installed, able to run every op in the model). Then ``python -m scatter_models.worker`` runs the
model with a time limit and a resident-memory limit the parent enforces (it says which one was hit).

The worker is kept warm between captures (:class:`_WarmWorker`: onnx imported, the last model parsed, its
evaluator, session or OpenVINO compiled model built), so capturing the same model again costs about the run.
It exits by itself after ``SCATTER_MODELS_WORKER_IDLE`` seconds without a job (180), is killed when a capture
passes a limit, and is replaced by a one-shot worker when another capture is using it.
``SCATTER_MODELS_WARM_WORKER=0`` starts a fresh process for every capture. :func:`prewarm` starts it ahead
and, given the model, has it build the chosen runtime's evaluator, session or compiled model too (the page
does when a model opens), so the first capture pays the run. Jobs go through a folder in ``/dev/shm`` when it has
room (else the temp folder; ``SCATTER_MODELS_JOB_DIR``), the tensors as one raw file each way (:mod:`.tensor_file`).
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import scatter_core as sc

from . import draws, support, tensor_file
from .errors import ModelError
from .inputs import given_dims, inputs_from_path
from .limits import DEFAULT_DIM, MAX_DIM, max_capture_bytes, shape_text
from .onnx_file import ORT_DOMAINS, STANDARD_DOMAINS

RUNTIMES = ("reference", "onnxruntime", "openvino")
INSTALL = {
    "onnxruntime": "pip install onnxruntime==1.31.1 (or pip install 'scatter-explorer[runtimes]')",
    "openvino": "pip install openvino==2026.4.1 (or pip install 'scatter-explorer[runtimes]')",
    "onnx": "pip install onnx==1.23.2",
}
MODULE = {"reference": "onnx", "onnxruntime": "onnxruntime", "openvino": "openvino"}
DRAW_INT_HIGH = 4  # drawn integers lie in [0, DRAW_INT_HIGH)
PACKAGE_ROOT = Path(__file__).resolve().parent.parent
POLL_SECONDS = 0.01


@dataclass(eq=False)
class CapturedNode:
    """One scatter node as the run saw it: ``case`` (a scatter_core Case with its real inputs, in scatter_core's
    roles), ``output`` (what the runtime gave for the node), ``calls`` (how often it ran; inputs and output
    are the first call's) and ``output_source`` (which engine produced ``output``)."""

    name: str
    op: str
    case: sc.Case
    output: np.ndarray
    calls: int
    output_source: str
    runtime: str

    @property
    def stood_in(self) -> bool:
        """True when scatter_core stood in for the node (the runtime has no kernel for it, e.g. onnx.reference
        and Scatter-9): ``output`` is then the exact result itself, and no runtime output exists to compare."""
        return self.output_source.startswith("scatter_core")

    @property
    def exact(self) -> np.ndarray:
        """scatter_core's exact result for the captured inputs."""
        return self.case.run()


class Capture(dict):
    """node name -> :class:`CapturedNode`; also the ``feeds`` the model ran on, the ``runtime`` and its
    ``version``, and ``missing``: nodes that did not run (an ``If`` branch not taken), with why."""

    def __init__(self, records, *, feeds, runtime, version, missing, seed, dims):
        super().__init__(records)
        self.feeds = feeds
        self.runtime = runtime
        self.version = version
        self.missing = missing
        self.seed = seed
        self.dims = dims


_FOUND: set = set()  # runtimes found installed (asked once: a capture asked six times, 0.4 ms)


def runtime_available(runtime: str) -> bool:
    if runtime not in _FOUND and importlib.util.find_spec(MODULE[runtime]) is not None:
        _FOUND.add(runtime)
    return runtime in _FOUND


def _memo(model) -> dict:
    """What a capture derives from the model alone and would derive again every time (the runtime's checks, the
    graph's hints for drawn inputs, the byte estimate, the worker's request), kept on the model: a few small
    values per runtime, let go with the model (the page's model cache gives that back when idle)."""
    memo = getattr(model, "_capture_memo", None)
    if memo is None:
        memo = model._capture_memo = {}
    return memo


def default_runtime(model) -> str:
    """The runtime ``Model.capture`` uses when none is given: what gets deployed, where it can run the model (an
    IR: OpenVINO's CPU plugin; an ONNX model: onnxruntime where installed), else the spec's reference."""
    return support.default_runtime(model, runtime_available, runtime_problem)


def runtime_note(model, runtime: str) -> str | None:
    """What ``runtime`` will run but not capture in ``model`` (nodes inside subgraphs on OpenVINO), said before
    the capture; None when it captures every scatter node it runs."""
    if runtime not in RUNTIMES:
        return None
    return support.unexposed_note(model, runtime)


def runtime_problem(model, runtime: str) -> str | None:
    """Why ``model`` cannot be captured on ``runtime`` (None when it can), in words a user can act on."""
    if runtime not in RUNTIMES:
        return f"runtime {runtime!r} is not one of {', '.join(RUNTIMES)}"
    if model.kind == "openvino-ir":
        if not runtime_available("openvino"):
            return f"an OpenVINO IR runs on OpenVINO, which is not installed: {INSTALL['openvino']}"
        if runtime == "onnxruntime":
            return "onnxruntime runs ONNX models only; capture an OpenVINO IR with runtime 'openvino' or 'reference'"
        return None
    if not runtime_available(runtime):
        return f"{runtime if runtime != 'reference' else 'onnx.reference (onnx)'} is not installed: " \
               f"{INSTALL[MODULE[runtime]]}"
    allowed = STANDARD_DOMAINS + (ORT_DOMAINS if runtime == "onnxruntime" else ())
    for op_type, domain, name, where in model.unrunnable:
        if domain not in allowed:
            return (f"node {name or '(unnamed)'!r} ({where}) is op {op_type!r} of domain {domain!r}, which "
                    f"{runtime} cannot run (a custom op); its scatter nodes are listed but cannot be captured")
    return support.node_problems(model, runtime, runtime_available)


def _settle_dims(model, dims) -> dict:
    out = {}
    given = dict(dims or {})
    for name in given:
        if name not in model.symbolic_dims:
            raise ModelError(f"{model.where} has no symbolic dim {name!r} (its symbolic dims: "
                             f"{', '.join(model.symbolic_dims) or 'none'})", argument="dims", rule="unknown-dim")
    defaults = draws.default_dims(model, given)  # an IR's sizes its shape inference accepts
    for name in model.symbolic_dims:
        value = given.get(name, defaults.get(name, DEFAULT_DIM))
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= int(value) <= MAX_DIM:
            raise ModelError(f"symbolic dim {name!r} = {value!r} must be an integer in [0, {MAX_DIM}]",
                             argument="dims", rule="dim-value")
        out[name] = int(value)
    return out


def _concrete(shape, dims: dict):
    if shape is None:
        return None
    return tuple(dims.get(d) if isinstance(d, str) else d for d in shape)


def _nbytes(shape, dtype) -> int | None:
    if shape is None or dtype is None or any(d is None for d in shape):
        return None
    return int(np.prod(shape, dtype=object)) * np.dtype(dtype).itemsize


def estimate_bytes(model, dims=None, given_shapes: dict | None = None) -> tuple[int, list[str]]:
    """(bytes a capture allocates for the model's inputs and its scatter nodes' tensors, as far as the shapes
    say; what could not be counted)."""
    dims = _settle_dims(model, dims)
    total, unknown = 0, []
    given_shapes = given_shapes or {}
    for inp in model.inputs:
        shape = given_shapes.get(inp.name) or _concrete(inp.shape, dims)
        n = _nbytes(shape, inp.dtype)
        if n is None:
            unknown.append(f"input {inp.name!r}")
        else:
            total += n
    for node in model.nodes:
        for dtype, shape in list(node.input_types) + [node.output_type]:
            n = _nbytes(_concrete(shape, dims), dtype)
            if n is None:
                unknown.append(f"a tensor of node {node.name!r}")
            else:
                total += n
    return total, unknown


def _draw(inp, shape, rng, derived=None, dims=None) -> np.ndarray:
    dtype = np.dtype(inp.dtype or "float32")
    if derived is not None:  # what the graph says of an index input (scatter_models.draws)
        values = draws.draw(derived, shape, dtype, rng, dims or {})
        if values is not None:
            return values
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        return rng.integers(0, DRAW_INT_HIGH, size=shape).astype(dtype)
    if dtype.kind == "f":
        return (rng.integers(-8, 9, size=shape) / 4).astype(dtype)  # quarters: exact in float16 too
    raise ModelError(f"input {inp.name!r} has dtype {dtype}, which capture cannot draw; give it in inputs",
                     argument=inp.name, rule="dtype")


def settle_inputs(model, inputs, seed: int, dims: dict) -> dict:
    """The feeds: given inputs checked against their declarations, the rest drawn from ``seed``."""
    if inputs is None:
        inputs = {}
    if isinstance(inputs, np.ndarray):
        if len(model.inputs) != 1:
            raise ModelError(f"{model.where} has {len(model.inputs)} inputs; give them as a dict name -> array",
                             argument="inputs", rule="inputs")
        inputs = {model.inputs[0].name: inputs}
    if not isinstance(inputs, dict):
        raise ModelError("inputs must be a dict from input name to array", argument="inputs", rule="type")
    declared = {i.name: i for i in model.inputs}
    for name in inputs:
        if name not in declared:
            raise ModelError(f"{model.where} has no input named {name!r} (its inputs: {', '.join(declared)})",
                             argument="inputs", rule="unknown-input")
    rng = np.random.default_rng(int(seed))
    memo = _memo(model)
    if "derived" not in memo:
        memo["derived"] = draws.derive(model)
    derived = memo["derived"]
    feeds = {}
    for inp in model.inputs:
        shape = _concrete(inp.shape, dims)
        if inp.name in inputs:
            arr = np.asarray(inputs[inp.name])
            if arr.dtype.kind in "OUSV":
                raise ModelError(f"input {inp.name!r} has dtype {arr.dtype}; inputs are bool, integer or float "
                                 f"arrays", argument=inp.name, rule="dtype")
            if inp.dtype is not None and arr.dtype != np.dtype(inp.dtype):
                cast = arr.astype(inp.dtype)
                if not np.array_equal(cast, arr):
                    raise ModelError(f"input {inp.name!r} is {arr.dtype} but the model declares {inp.dtype}, and "
                                     f"casting changes values", argument=inp.name, rule="dtype")
                arr = cast
            if inp.shape is not None:
                ok = arr.ndim == len(inp.shape) and all(
                    isinstance(d, str) or d == s for d, s in zip(inp.shape, arr.shape))
                if not ok:
                    raise ModelError(f"input {inp.name!r} has shape {sc.fmt_shape(arr.shape)} but the model declares "
                                     f"{shape_text(inp.shape)}", argument=inp.name, rule="shape")
            feeds[inp.name] = arr
        else:
            if shape is None:
                raise ModelError(f"input {inp.name!r} has no declared shape; give it in inputs", argument=inp.name,
                                 rule="shape")
            feeds[inp.name] = _draw(inp, shape, rng, derived.get(inp.name), dims)
    return feeds


SHM = "/dev/shm"
SHM_HEADROOM = 4  # use the memory-backed folder only when it has this many times the job's bytes free


def job_parent(job_bytes: int) -> str | None:
    """Where a capture's job folder goes: ``SCATTER_MODELS_JOB_DIR`` when set; else ``/dev/shm`` (memory, not
    disk: the inputs, the model and the captured tensors cross it once each way) when it is there, writable
    and has room to spare; else the system's temporary folder (None). The folder is removed after the
    capture either way."""
    chosen = os.environ.get("SCATTER_MODELS_JOB_DIR")
    if chosen:
        return chosen
    try:
        stat = os.statvfs(SHM)
    except (OSError, AttributeError):
        return None
    if os.access(SHM, os.W_OK) and stat.f_bavail * stat.f_frsize > SHM_HEADROOM * job_bytes + 2**26:
        return SHM
    return None


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return 0
    return 0


def _worker_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PACKAGE_ROOT), env.get("PYTHONPATH", "")) if p)
    env.setdefault("OMP_NUM_THREADS", "1")  # one BLAS thread: the server is shared
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    return env


def _watch(proc, done, seconds: float, max_rss: int, pipe=None) -> str | None:
    """Wait until ``done()`` or the process ends; kill it when it passes a limit ("time" or "memory"). Between
    checks it waits on ``pipe`` (the warm worker writes a line there when a job is done) or on the process's
    end, so the answer is taken the moment it is there, not at the next tick."""
    start = time.monotonic()
    while proc.poll() is None and not done():
        if _rss(proc.pid) > max_rss:
            hit = "memory"
        elif time.monotonic() - start > seconds:
            hit = "time"
        else:
            if pipe is not None:
                ready, _, _ = select.select([pipe], [], [], POLL_SECONDS)
                if ready and not os.read(pipe.fileno(), 4096):
                    pipe = None  # closed: the worker is ending; poll() sees it
            else:
                try:
                    proc.wait(timeout=POLL_SECONDS)
                except subprocess.TimeoutExpired:
                    pass
            continue
        proc.kill()
        proc.wait()
        return hit
    return None


def _limit_error(hit: str, where: str, seconds: float, max_rss: int) -> ModelError:
    if hit == "time":
        return ModelError(f"{where}: the capture ran past its time limit of {seconds:g} s and was stopped (set "
                          f"SCATTER_MODELS_TIME_LIMIT or capture(..., time_limit=...) to allow more)",
                          rule="time-limit")
    return ModelError(f"{where}: the capture used more than its memory limit of {max_rss / 2**20:,.0f} MiB "
                      f"resident and was stopped (set SCATTER_MODELS_MEMORY_LIMIT or "
                      f"capture(..., memory_limit=...) to allow more)", rule="memory-limit")


class _WarmWorker:
    """A worker process started once (``python -m scatter_models.worker --serve``) with onnx imported, kept
    between captures with the last model it parsed. One capture at a time uses it; a capture that finds it
    busy runs in a one-shot worker. Killed (and started again on the next capture) when a capture passes a
    limit, when it dies, or when it holds more than half the memory limit while idle."""

    def __init__(self, runtime: str = "reference"):
        self.log = tempfile.TemporaryFile()
        env = _worker_env()
        env["SCATTER_MODELS_WORKER_PRELOAD"] = MODULE.get(runtime, "onnx")  # imported before the first job
        self.proc = subprocess.Popen([sys.executable, "-m", "scatter_models.worker", "--serve"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                     cwd=tempfile.gettempdir(), env=env)
        self.holds = None  # the digest of the model it has parsed
        self.prepared: set = set()  # (digest, "reference" / "onnxruntime" / "openvino"): built for the held model

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.alive():
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.log):
            if stream is not None:
                try:
                    stream.close()
                except OSError:  # a pipe to a process already gone
                    pass

    def stderr_tail(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", errors="replace").strip()[-800:]


def _stop_warm() -> None:
    if _WARM is not None:
        _WARM.stop()


atexit.register(_stop_warm)
_WARM: _WarmWorker | None = None
_WARM_LOCK = threading.Lock()
_PREPARING = threading.Event()  # a prepare job holds the lock (its thread releases it)


def warm_worker() -> _WarmWorker | None:
    """The worker process kept warm between captures (None before the first capture and after a stop)."""
    return _WARM


def stop_warm_worker() -> None:
    """Stop the warm worker; the next capture starts a fresh one (a cold start, as tests and benches need)."""
    global _WARM
    _stop_warm()
    _WARM = None


def preparing() -> bool:
    """Whether a prepare job (:func:`prewarm`) still holds the warm worker."""
    return _PREPARING.is_set()


def warm_enabled() -> bool:
    """``SCATTER_MODELS_WARM_WORKER=0`` runs every capture in a fresh process."""
    return os.environ.get("SCATTER_MODELS_WARM_WORKER", "1") != "0"


def prewarm(runtime: str = "reference", model=None) -> bool:
    """Start the warm worker now if none is running (it imports onnx, and ``runtime``'s package, while the user
    reads the node table), so the first capture does not wait for a Python interpreter and its imports. Given
    the ``model`` to capture, the worker also takes it and builds its evaluator, session or OpenVINO compiled
    model then (a *prepare* job), so the first capture pays only the run.

    Returns whether it started a worker or a preparation. Never blocks: a capture using the worker leaves it
    alone, and the preparation is watched, with the capture's time and memory limits, by a thread of its own
    (a capture that arrives meanwhile waits for it, within its own time limit)."""
    global _WARM
    if not warm_enabled() or not _WARM_LOCK.acquire(blocking=False):
        return False
    started = handed = False
    try:
        if _WARM is None or not _WARM.alive():
            _WARM = _WarmWorker(runtime if runtime in RUNTIMES and runtime_available(runtime) else "reference")
            started = True
        if (model is None or runtime not in RUNTIMES or runtime_problem(model, runtime) is not None
                or (model.digest, _built_by(model, runtime)) in _WARM.prepared):
            return started
        _PREPARING.set()
        thread = threading.Thread(target=_prepare, args=(_WARM, model, runtime), name="scatter-models-prepare",
                                  daemon=True)
        try:
            thread.start()
        except BaseException:
            _PREPARING.clear()
            raise
        handed = True  # the thread releases the lock when the job is done
        return True
    finally:
        if not handed:
            _WARM_LOCK.release()


def _prepare(warm: _WarmWorker, model, runtime: str) -> None:
    """The prepare job on ``warm`` (the lock is held for it): the model's bytes and a request without feeds."""
    global _WARM
    from .limits import memory_limit, time_limit

    try:
        request = dict(_request(model, runtime, [i.name for i in model.inputs]), prepare=True)
        with tempfile.TemporaryDirectory(prefix="scatter_models_", dir=job_parent(model.size)) as tmp:
            directory = Path(tmp)
            if _sends_model(warm, model, runtime):
                write_model(directory, model)
            (directory / "request.json").write_text(json.dumps(request), encoding="utf-8")
            try:
                warm.proc.stdin.write(f"{directory}\n".encode())
                warm.proc.stdin.flush()
            except OSError:
                pass  # it died: _watch sees that
            hit = _watch(warm.proc, lambda: (directory / "result.json").exists(), time_limit(), memory_limit(),
                         warm.proc.stdout)
            done = (directory / "result.json").exists()
            answer = json.loads((directory / "result.json").read_text(encoding="utf-8")) if done else {}
        if hit is not None or not done:  # a capture would hit that too: it starts another worker and says so
            warm.stop()
            if _WARM is warm:
                _WARM = None
            return
        _holds(warm, model.digest, answer)
    except Exception:  # noqa: BLE001 - a preparation is only ahead of time: the capture does it again and reports
        warm.stop()
        if _WARM is warm:
            _WARM = None
    finally:
        _PREPARING.clear()
        _WARM_LOCK.release()


def _holds(warm: _WarmWorker, digest, answer: dict) -> None:
    """After a job: which model the worker holds now, and what it holds built for it (its answer's "held":
    the evaluator, the session, the compiled model)."""
    warm.holds = digest
    warm.prepared = {(digest, held) for held in answer.get("held", ())}


def _built_by(model, runtime: str) -> str:
    """What the worker builds to capture ``model`` on ``runtime``: an IR and OpenVINO compile on OpenVINO."""
    return "openvino" if runtime == "openvino" or model.kind != "onnx" else runtime


def _sends_model(warm: _WarmWorker, model, runtime: str) -> bool:
    """Whether the job must carry the model's files: not when the worker holds the model and, for OpenVINO (which
    compiles from the files), the compiled model too."""
    if warm.holds != model.digest:
        return True
    return _built_by(model, runtime) == "openvino" and (model.digest, "openvino") not in warm.prepared


def _acquire_warm(seconds: float) -> bool:
    """The warm worker's lock: at once, or, while a preparation runs, when it ends (within ``seconds``)."""
    if _WARM_LOCK.acquire(blocking=False):
        return True
    return _PREPARING.is_set() and _WARM_LOCK.acquire(timeout=seconds)


def _answer(directory: Path) -> dict:
    return json.loads((directory / "result.json").read_text(encoding="utf-8"))


def execute_request(directory: Path, model, request: dict, where: str, seconds: float, max_rss: int) -> dict:
    """Run the job in ``directory`` on the warm worker when it is free, else in a one-shot worker; its answer."""
    global _WARM
    if not (warm_enabled() and _acquire_warm(seconds)):
        write_model(directory, model)
        run_worker(directory, where, seconds, max_rss)
        return _answer(directory)
    try:
        if _WARM is None or not _WARM.alive():
            _WARM = _WarmWorker(request["runtime"])
        warm = _WARM
        if _sends_model(warm, model, request["runtime"]):
            write_model(directory, model)
        try:
            warm.proc.stdin.write(f"{directory}\n".encode())
            warm.proc.stdin.flush()
        except OSError:
            pass  # it died: _watch sees that
        hit = _watch(warm.proc, lambda: (directory / "result.json").exists(), seconds, max_rss, warm.proc.stdout)
        if hit is not None:
            warm.stop()
            _WARM = None
            raise _limit_error(hit, where, seconds, max_rss)
        if not (directory / "result.json").exists():
            # it died without an answer: perhaps before this job (killed while idle), perhaps on it. A one-shot
            # worker runs the job again and says what happened (a runtime crash comes back with its stderr).
            warm.stop()
            _WARM = None
            if not (directory / "model.onnx").exists() and not (directory / "model.xml").exists():
                write_model(directory, model)
            run_worker(directory, where, seconds, max_rss)
            return _answer(directory)
        answer = _answer(directory)
        _holds(warm, model.digest, answer)
        if _rss(warm.proc.pid) > max_rss // 2:
            warm.stop()
            _WARM = None
        return answer
    finally:
        _WARM_LOCK.release()


def write_model(directory: Path, model) -> None:
    """Write ``model`` into ``directory`` for a worker to read."""
    if model.kind == "onnx":
        (directory / "model.onnx").write_bytes(model._payload)
    else:
        (directory / "model.xml").write_bytes(model._payload)
        (directory / "model.bin").write_bytes(model._weights or b"")


def run_worker(directory: Path, where: str, seconds: float, max_rss: int) -> None:
    """Run the job in ``directory`` in a one-shot worker process, within the time and memory limits."""
    with tempfile.TemporaryFile() as log:  # a file, not a pipe: a chatty runtime can never block on it
        proc = subprocess.Popen([sys.executable, "-m", "scatter_models.worker", str(directory)],
                                stdout=subprocess.DEVNULL, stderr=log, stdin=subprocess.DEVNULL,
                                cwd=directory, env=_worker_env())
        hit = _watch(proc, lambda: False, seconds, max_rss)
        proc.wait()
        log.seek(0)
        stderr = log.read().decode("utf-8", errors="replace")
    if hit is not None:
        raise _limit_error(hit, where, seconds, max_rss)
    if proc.returncode != 0 or not (directory / "result.json").exists():
        raise ModelError(f"{where}: the capture's worker process ended with code {proc.returncode} without an "
                         f"answer (a runtime crash?){'; stderr: ' + stderr.strip()[-800:] if stderr.strip() else ''}",
                         rule="worker-crash")


def capture(model, inputs=None, *, seed: int = 0, dims=None, runtime: str | None = None,
            time_limit: float | None = None, memory_limit: int | None = None,
            max_bytes: int | None = None) -> Capture:
    """See :meth:`scatter_models.Model.capture`."""
    from .limits import memory_limit as default_memory, time_limit as default_time

    memo = _memo(model)
    if runtime is None:
        runtime = memo.get("default") or default_runtime(model)
        memo["default"] = runtime
    if ("runs", runtime) not in memo:  # only a runtime that can run the model is remembered
        problem = runtime_problem(model, runtime)
        if problem is not None:
            raise ModelError(f"{model.where}: {problem}", argument="runtime", rule="runtime")
        memo["runs", runtime] = True
    if isinstance(inputs, (str, os.PathLike)):  # a test_data_set_N folder, or an inputs file
        inputs = inputs_from_path(inputs, model)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ModelError(f"seed = {seed!r} must be an integer", argument="seed", rule="seed")
    settled = _settle_dims(model, given_dims(model, dims, inputs))
    budget = max_capture_bytes() if max_bytes is None else int(max_bytes)
    given_shapes = {k: np.shape(v) for k, v in inputs.items()} if isinstance(inputs, dict) else None
    key = (tuple(settled.items()), tuple((given_shapes or {}).items()))
    if memo.get("bytes", (None,))[0] != key:  # the last dims and shapes only
        memo["bytes"] = (key, estimate_bytes(model, settled, given_shapes))
    need, unknown = memo["bytes"][1]
    if need > budget:
        raise ModelError(f"{model.where}: with dims {settled or '(none)'} the inputs and scatter tensors take "
                         f"{need:,} bytes, over the capture budget of {budget:,} bytes (smaller symbolic dims, or "
                         f"SCATTER_MODELS_MAX_CAPTURE_BYTES / capture(..., max_bytes=...))",
                         argument="dims", rule="byte-budget")
    feeds = settle_inputs(model, inputs, seed, settled)
    seconds = default_time() if time_limit is None else float(time_limit)
    max_rss = default_memory() if memory_limit is None else int(memory_limit)
    feed_names = list(feeds)
    if memo.get("request", (None,))[0] != (runtime, feed_names):
        memo["request"] = ((runtime, feed_names), _request(model, runtime, feed_names))
    request = dict(memo["request"][1])
    with tempfile.TemporaryDirectory(prefix="scatter_models_", dir=job_parent(need + model.size)) as tmp:
        directory = Path(tmp)
        # one file of raw bytes for all the inputs (a 0-d input stays 0-d: OpenVINO refuses shape (1,))
        request["feeds"] = tensor_file.write(directory / "feeds.bin", feeds)
        (directory / "request.json").write_text(json.dumps(request), encoding="utf-8")
        answer = execute_request(directory, model, request, model.where, seconds, max_rss)
        if not answer["ok"]:
            node = answer.get("node")
            if node:
                raise ModelError(f"{model.where}: node {node!r} ({model.node(node).op}) cannot run on these inputs "
                                 f"(seed {seed}, dims {settled or '(none)'}): {answer['error']}",
                                 argument="inputs", rule=answer.get("rule"), node=node)
            explained = support.explain_load_error(model, runtime, answer["error"])
            said = explained or f"{support.runtime_name(runtime, model.kind)} could not run the model: " \
                                f"{support.plain(answer['error'])}"
            hint = draws.dims_hint(model, settled)
            raise ModelError(f"{model.where}: " + (said.rstrip(". ") + "." + hint if hint else said),
                             argument="runtime", rule=answer.get("rule") or "runtime-error")
        captured = tensor_file.read(directory / "captured.bin", answer["tensors"]) if answer.get("tensors") else {}
    records, missing = {}, {}
    for node in model.nodes:
        meta = answer["captured"].get(node.name)
        if meta is None:
            missing[node.name] = support.unexposed_why(model, node, runtime) or (
                "not captured: the node did not run (a branch not taken, or a subgraph this runtime does not expose)"
                if node.spec is not None else "not captured: its operator version is not in the registry")
            continue
        i = meta["index"]
        fed = {int(j): name for j, name in meta.get("fed", {}).items()}  # the model's inputs, as fed
        args = [feeds[fed[j]] if j in fed else captured.get(f"n{i}_in{j}") for j in range(meta["inputs"])]
        records[node.name] = _record(model, node, args, captured[f"n{i}_out"], meta, runtime)
    return Capture(records, feeds=feeds, runtime=runtime, version=answer.get("version"), missing=missing,
                   seed=int(seed), dims=settled)


def _request(model, runtime: str, feed_names: list) -> dict:
    """What the worker needs to know of the model, beside its bytes and the feeds."""
    return {
        "runtime": runtime, "kind": model.kind, "feed_names": feed_names,
        "nodes": {n.name: {"op": n.op, "attrs": _json_attrs(n.attrs), "inputs": list(n.input_names),
                           "output": n.output_name, "original": n.original_name, "where": n.location,
                           "consts": sorted(n.constant_inputs),
                           "consts_known": all(pos in n.constants for pos in n.constant_inputs)}
                  for n in model.nodes if n.spec is not None},
        "graph_outputs": list(model.graph_outputs),
        "keys": [n.name for n in model.nodes],  # every scatter node, in the listing's order (for renaming)
        "types": _onnx_types(model),
        "model_digest": model.digest,
    }


def _record(model, node, args, output, meta, runtime) -> CapturedNode:
    spec = node.spec
    roles = {}
    for pos, inp in enumerate(spec.inputs):
        value = args[pos] if pos < len(args) else None
        if value is None and pos in node.constants:
            value = node.constants[pos]
        roles[inp.role] = value
    attrs = {k: v for k, v in node.attrs.items() if spec.attribute(k) is not None}
    for k, a in enumerate(a for a in spec.attributes if a.is_input):
        pos = len(spec.inputs) + k
        value = args[pos] if pos < len(args) and args[pos] is not None else node.constants.get(pos)
        if value is not None:
            attrs[a.name] = sc.codec_of(spec, a).from_openvino(np.asarray(value))  # an input's array
    try:
        case = sc.case(spec, roles.get("data"), roles.get("indices"), roles.get("updates"), **attrs)
    except sc.ScatterError as exc:
        raise ModelError(f"{model.where}: node {node.name!r} ({spec.name}) received inputs that break its rule "
                         f"{exc.rule or 'invalid'}: {exc}", argument=exc.argument, rule=exc.rule,
                         node=node.name) from None
    return CapturedNode(node.name, spec.name, case, np.asarray(output), int(meta["calls"]), meta["source"], runtime)


def _json_attrs(attrs: dict) -> dict:
    out = {}
    for k, v in attrs.items():
        if isinstance(v, (bool, int, float, str)):
            out[k] = v
        elif isinstance(v, tuple) and all(isinstance(x, (int, float, str)) for x in v):
            out[k] = list(v)
    return out


def _onnx_types(model) -> dict:
    """Tensor name -> (ONNX element type, shape) for the main graph's scatter tensors (for extra outputs)."""
    if model.kind != "onnx":
        return {}
    from onnx import helper

    types = {}
    for node in model.nodes:
        if node.in_function:
            continue
        for name, (dtype, shape) in zip(list(node.input_names) + [node.output_name],
                                        list(node.input_types) + [node.output_type]):
            if name and dtype is not None:
                dims = None if shape is None else [d if isinstance(d, int) else None for d in shape]
                types[name] = (int(helper.np_dtype_to_tensor_dtype(np.dtype(dtype))), dims)
    return types
