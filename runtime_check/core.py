"""``available``, ``runtimes_for`` and the in-process ``run``."""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import importlib.util
import os
from typing import Mapping

from scatter_core import OpSpec, get_spec

from ._common import (ENGINE_RUNTIMES, FRONTEND_RUNTIMES, RUNTIME_FRAMEWORK, RUNTIMES, RunResult, check_runtime_name,
                      error_text)

# runtime -> (module that must be importable, distribution whose version is reported)
_DISTRIBUTIONS = {
    "onnxruntime": ("onnxruntime", ("onnxruntime", "onnxruntime-gpu", "onnxruntime-openvino")),
    "onnx.reference": ("onnx", ("onnx",)),
    "openvino-onnx": ("openvino", ("openvino",)),
    "openvino-cpu": ("openvino", ("openvino",)),
    "openvino-reference": ("openvino", ("openvino",)),
}


@functools.lru_cache(maxsize=None)
def _version_of(runtime: str) -> str | None:
    module, dists = _DISTRIBUTIONS[runtime]
    try:
        if importlib.util.find_spec(module) is None:
            return None
    except (ImportError, ValueError):
        return None
    for dist in dists:
        try:
            version = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
        if runtime == "onnx.reference" and tuple(int(p) for p in version.split(".")[:2] if p.isdigit()) < (1, 13):
            return None  # onnx.reference arrived in onnx 1.13
        return version
    return None


_PRETEND: dict[str, str | None] = {}
PRETEND_ENV = "SCATTER_EXPLORER_PRETEND_INSTALLED"  # "onnxruntime=1.32.0,openvino-cpu=" (empty: not installed)


def _pretended() -> dict[str, str | None]:
    found = {}
    for item in os.environ.get(PRETEND_ENV, "").split(","):
        name, eq, version = item.strip().partition("=")
        if eq and name in RUNTIMES:
            found[name] = version or None
    return {**found, **_PRETEND}


def available() -> dict[str, str | None]:
    """Runtime name -> installed version, or None when it is not installed.

    Reads package metadata only: nothing heavy is imported. :func:`pretend_installed` (or
    ``$SCATTER_EXPLORER_PRETEND_INSTALLED``) changes what it reports, for tests and demonstrations.
    """
    pretended = _pretended()
    return {runtime: pretended[runtime] if runtime in pretended else _version_of(runtime) for runtime in RUNTIMES}


@contextlib.contextmanager
def pretend_installed(versions: Mapping[str, str | None]):
    """Inside the block, :func:`available` reports ``versions`` (runtime -> version; None: not installed) for
    those runtimes: the public hook to show a page or ``verify-facts`` on other versions than the installed."""
    for runtime in versions:
        check_runtime_name(runtime)
    saved = dict(_PRETEND)
    _PRETEND.update(versions)
    try:
        yield
    finally:
        _PRETEND.clear()
        _PRETEND.update(saved)


def runtimes_for(op) -> list[str]:
    """The runtimes that can execute operator version ``op``, from its registry record.

    The record's ``runnable_on`` names engines; OpenVINO stands for both the CPU
    plugin and the reference implementation. A version no runtime can run (the
    deprecated ``Scatter-11``) gives an empty list; :func:`not_runnable_reason`
    says why and names its stand-in. A version some runtime runs is also tried
    on the runtimes that read its format through a frontend (an ONNX version on
    ``"openvino-onnx"``, the OpenVINO CPU plugin through its ONNX frontend),
    which may refuse it (no conversion rule for ``TensorScatter-24``).
    """
    spec = get_spec(op)
    out = []
    for engine in spec.runnable_on:
        for runtime in ENGINE_RUNTIMES.get(engine, ()):
            if RUNTIME_FRAMEWORK[runtime] == spec.framework and runtime not in out:
                out.append(runtime)
    if out:
        out += [r for r in FRONTEND_RUNTIMES.get(spec.framework, ()) if r not in out]
    return [r for r in RUNTIMES if r in out]


def stand_in(op) -> str | None:
    """The version the registry names as ``op``'s runtime stand-in, if any."""
    value = get_spec(op).extra.get("runtime_stand_in")
    return str(value) if value else None


def not_runnable_reason(op, runtime: str | None = None) -> str | None:
    """Why ``op`` cannot run (on ``runtime``, or anywhere); None when it can."""
    spec = get_spec(op)
    can = runtimes_for(spec)
    if runtime is not None and runtime in can:
        return None
    if runtime is None and can:
        return None
    if runtime is not None and RUNTIME_FRAMEWORK[runtime] != spec.framework:
        return f"{spec.name} is an {spec.framework} operator; {runtime} runs {RUNTIME_FRAMEWORK[runtime]} models only"
    where = f"on {runtime}" if runtime else "on any runtime"
    text = f"{spec.name} cannot run {where}"
    notes = spec.note_text("deprecated")
    if notes:
        text += f" ({notes})"
    alt = stand_in(spec)
    if alt:
        text += f"; use {alt}, its runtime stand-in"
    return text


_RUNNERS = {
    "onnxruntime": ("runtime_check.onnx_backend", "run_onnxruntime"),
    "onnx.reference": ("runtime_check.onnx_backend", "run_onnx_reference"),
    "openvino-onnx": ("runtime_check.openvino_onnx_backend", "run_cpu_onnx"),
    "openvino-cpu": ("runtime_check.openvino_backend", "run_cpu"),
    "openvino-reference": ("runtime_check.openvino_backend", "run_reference"),
}


def run(runtime: str, op, data, indices, updates, **attrs) -> RunResult:
    """Run ``op`` on ``runtime`` in this process.

    Builds a single-node model of that exact version and runs it. Whatever the
    runtime raises is captured into ``RunResult.error``; only an unknown
    ``runtime`` or ``op`` name (a caller's mistake) raises ``ValueError``.

    A version whose framework the runtime does not load (an OpenVINO op on
    onnxruntime) is not attempted. A same-framework version the registry does
    not list as runnable (``Scatter-11``) *is* attempted, so the runtime's own
    refusal is reported.
    """
    check_runtime_name(runtime)
    spec: OpSpec = get_spec(op)
    version = _version_of(runtime)
    if RUNTIME_FRAMEWORK[runtime] != spec.framework:
        return RunResult(runtime, version, False, None, not_runnable_reason(spec, runtime))
    if version is None:
        return RunResult(runtime, None, False, None, f"{runtime} is not installed (pip install -e '.[runtimes]')")
    module_name, func_name = _RUNNERS[runtime]
    try:
        module = importlib.import_module(module_name)
        output = getattr(module, func_name)(spec, data, indices, updates, dict(attrs))
    except Exception as exc:  # noqa: BLE001 - the runtime's refusal is the result
        return RunResult(runtime, version, False, None, error_text(exc))
    return RunResult(runtime, version, True, output, None)


__all__ = ["available", "not_runnable_reason", "run", "runtimes_for", "stand_in"]
