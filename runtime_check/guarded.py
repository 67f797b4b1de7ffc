"""``run_guarded``: :func:`runtime_check.run` in a child Python process.

A runtime can take the whole process down (the OpenVINO CPU plugin segfaults on an index below ``-s`` for the
Elements ops) or hang. The child runs ``python -m runtime_check.worker <dir>``; the case travels as files,
never as pickles: ``inputs.npz`` (read with ``allow_pickle=False``; object arrays refused before writing) and
``request.json``; the child answers with ``result.json`` and, on success, ``output.npz``.

A child killed by a signal, exiting without an answer, or running past ``timeout`` seconds becomes
``RunResult(ok=False)`` with an error saying so. The files in full: docs/architecture.md, runtime_check/guarded.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from ._common import RunResult, as_array, check_runtime_name, error_text, int_list, python_scalar
from .core import _version_of

PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # the directory holding runtime_check/
MAX_STDERR = 1500
ATTR_PREFIX = "attr:"  # an attribute given as an array travels in inputs.npz under this prefix


def _json_attr(name, value):
    scalar = python_scalar(value)
    if scalar is None:
        scalar = int_list(name, value)  # SliceScatter's start, stop, step, axes
    if scalar is None:
        raise TypeError(f"attribute {name} = {value!r} must be a bool, int, float, str or a list of integers "
                        f"(arrays only for axis)")
    return scalar


def write_request(directory: Path, runtime: str, op: str, data, indices, updates, attrs: dict) -> None:
    arrays = {"data": as_array("data", data), "updates": as_array("updates", updates)}
    if indices is not None:  # an optional input left out travels as an absent entry
        arrays["indices"] = as_array("indices", indices)
    scalar_attrs, array_attrs = {}, []
    for key, value in attrs.items():
        if value is None:  # an optional attribute left out (SliceScatter's axes)
            continue
        if isinstance(value, np.ndarray):  # an attribute given as an array (an axis input's int32 ...): as it is
            arrays[f"{ATTR_PREFIX}{key}"] = as_array(key, value)
            array_attrs.append(key)
        else:
            scalar_attrs[key] = _json_attr(key, value)
    np.savez(directory / "inputs.npz", **arrays)
    request = {"runtime": runtime, "op": op, "attrs": scalar_attrs, "array_attrs": array_attrs}
    (directory / "request.json").write_text(json.dumps(request), encoding="utf-8")


def read_request(directory: Path):
    request = json.loads((directory / "request.json").read_text(encoding="utf-8"))
    with np.load(directory / "inputs.npz", allow_pickle=False) as npz:
        data, updates = npz["data"], npz["updates"]
        indices = npz["indices"] if "indices" in npz.files else None
        attrs = dict(request["attrs"])
        for name in request.get("array_attrs", ()):
            attrs[name] = npz[f"{ATTR_PREFIX}{name}"]
    return request["runtime"], request["op"], data, indices, updates, attrs


def write_result(directory: Path, result: RunResult) -> None:
    if result.ok:
        np.savez(directory / "output.npz", output=as_array("output", result.output))
    answer = {"runtime": result.runtime, "version": result.version, "ok": result.ok, "error": result.error}
    tmp = directory / "result.json.tmp"
    tmp.write_text(json.dumps(answer), encoding="utf-8")
    tmp.replace(directory / "result.json")  # atomic: the parent never reads half an answer


def _read_result(directory: Path, runtime: str, version: str | None) -> RunResult | None:
    path = directory / "result.json"
    if not path.exists():
        return None
    answer = json.loads(path.read_text(encoding="utf-8"))
    output = None
    if answer["ok"]:
        with np.load(directory / "output.npz", allow_pickle=False) as npz:
            output = npz["output"]
    return RunResult(runtime, answer.get("version", version), bool(answer["ok"]), output, answer.get("error"))


CRASH_MARKERS = ("crashed (signal", "timed out after", "worker exited with code")


def is_crash(result: RunResult) -> bool:
    """True when the guarded child died, hung or left no answer (not when the runtime refused)."""
    return not result.ok and bool(result.error) and any(
        result.error.startswith(f"{result.runtime} {m}") for m in CRASH_MARKERS)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _tail(text: bytes) -> str:
    s = text.decode("utf-8", errors="replace").strip()
    return s[-MAX_STDERR:]


def run_guarded(runtime: str, op, data, indices, updates, timeout: float = 20, **attrs) -> RunResult:
    """:func:`runtime_check.run` in a separate process, with a timeout.

    Never raises for anything the runtime or the child does: a crash or a hang
    comes back as ``ok=False`` with a message such as
    ``"openvino-cpu crashed (signal 11 / exit code -11, SIGSEGV)"`` or
    ``"openvino-cpu timed out after 20 s"``.
    """
    check_runtime_name(runtime)
    op_name = getattr(op, "name", op)
    version = _version_of(runtime)
    with tempfile.TemporaryDirectory(prefix="runtime_check_") as tmp:
        directory = Path(tmp)
        try:
            write_request(directory, runtime, op_name, data, indices, updates, attrs)
        except Exception as exc:  # noqa: BLE001 - unusable input is a result, not a crash
            return RunResult(runtime, version, False, None, f"could not hand the case to the worker: {error_text(exc)}")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PACKAGE_ROOT), env.get("PYTHONPATH", "")) if p)
        env.setdefault("PYTHONFAULTHANDLER", "1")  # a crash leaves a Python traceback in stderr
        proc = subprocess.Popen([sys.executable, "-m", "runtime_check.worker", str(directory)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                cwd=tmp, env=env)
        try:
            _, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return RunResult(runtime, version, False, None, f"{runtime} timed out after {timeout:g} s")
        code = proc.returncode
        if code < 0:
            return RunResult(runtime, version, False, None,
                             f"{runtime} crashed (signal {-code} / exit code {code}, {_signal_name(-code)})"
                             + (f"; stderr: {_tail(stderr)}" if stderr.strip() else ""))
        try:
            result = _read_result(directory, runtime, version)
        except Exception as exc:  # noqa: BLE001
            result = None
            stderr += f"\n(unreadable answer: {error_text(exc)})".encode()
        if result is None or code != 0:
            return RunResult(runtime, version, False, None,
                             f"{runtime} worker exited with code {code} without an answer"
                             + (f"; stderr: {_tail(stderr)}" if stderr.strip() else ""))
        return result
