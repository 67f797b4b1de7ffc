"""``compare``: scatter_core next to every available runtime, cell by cell."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import scatter_core
from scatter_core import OpSpec, ScatterError, coerce_updates, get_spec, is_typed

from ._common import RUNTIMES, RunResult, error_text, input_arrays
from .core import available, not_runnable_reason, run, runtimes_for, stand_in
from .divergences import RuntimeCase, Divergence, match
from .guarded import is_crash, run_guarded

MAX_CELLS = 1000  # differing cells carried in a Comparison (n_cells gives the full count)


@dataclass(frozen=True)
class Comparison:
    """scatter_core vs one runtime on one case.

    ``agree``: both produced bit-identical outputs (same dtype and shape), or
    both refused the case. Otherwise ``outcome`` says how they differ:
    ``"value"`` (both ran, ``cells`` lists the differing output cells with
    ``core_values`` / ``runtime_values``), ``"refused"`` (the runtime refused
    what scatter_core computes), ``"accepted"`` (the runtime computed what
    scatter_core refuses) or ``"crash"`` (the runtime process died or hung).

    ``divergence`` names the known divergence that explains the difference;
    ``known_divergence`` is that name only when docs/semantics.md describes it.
    ``new`` is True for a difference docs/semantics.md does not explain (no record,
    or a record of a behaviour observed by these tests but not yet documented).
    """

    runtime: str
    version: str | None
    op: str  # the version the runtime ran (a stand-in for Scatter-11)
    agree: bool
    outcome: str | None  # None when agree
    core_ok: bool
    runtime_ok: bool
    cells: tuple[tuple[int, ...], ...] = ()
    n_cells: int = 0
    core_values: tuple = ()
    runtime_values: tuple = ()
    core_output: np.ndarray | None = field(default=None, repr=False, compare=False)
    runtime_output: np.ndarray | None = field(default=None, repr=False, compare=False)
    core_error: str | None = None
    runtime_error: str | None = None
    divergence: str | None = None
    known_divergence: str | None = None
    divergence_text: str | None = None
    new: bool = False
    note: str | None = None


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def differing_cells(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Boolean mask of cells whose bits differ (NaN == NaN when the bits match; -0.0 != 0.0)."""
    if a.dtype == b.dtype:
        width = a.dtype.itemsize
        if a.dtype.kind == "f" and width in (2, 4, 8):
            view = {2: np.uint16, 4: np.uint32, 8: np.uint64}[width]
            return a.view(view) != b.view(view)
        return a != b
    with np.errstate(all="ignore"):
        return a.astype(np.float64) != b.astype(np.float64)


def _runtime_attrs(spec: OpSpec, attrs: dict) -> dict:
    """What the runtime gets: scatter_core treats reduction='none' on a version without the
    attribute as 'not given', so the model does not carry it either."""
    out = dict(attrs)
    reduction = scatter_core.reduction_codec(spec)  # implied where the version declares none
    if spec.attribute(reduction.name) is None and out.get(reduction.name) == reduction.default:
        del out[reduction.name]
    return out


def _inputs(spec: OpSpec, data, indices, updates):
    typed = is_typed(updates)
    data, indices, updates = input_arrays(data, indices, updates)  # an indices left out stays None
    if data.dtype.kind in "biuf" and updates.dtype != data.dtype and not typed:
        try:  # untyped updates (a list) take data's dtype when no value changes, as in scatter_core
            updates, _ = coerce_updates(spec, data, updates)
        except ScatterError:
            pass
    return data, indices, updates


def _compare_one(runtime: str, result: RunResult, case: RuntimeCase, op_name: str, core_out, core_err, note) -> Comparison:
    common = dict(runtime=runtime, version=result.version, op=op_name, core_ok=core_out is not None,
                  runtime_ok=result.ok, core_output=core_out, runtime_output=result.output,
                  core_error=core_err, runtime_error=result.error, note=note)
    crashed = is_crash(result)
    if core_out is not None and result.ok and _same_bits(core_out, result.output):
        return Comparison(agree=True, outcome=None, **common)
    if core_out is None and not result.ok and not crashed:
        return Comparison(agree=True, outcome=None, **common)
    extra = {}
    if crashed:
        outcome = "crash"
    elif core_out is not None and result.ok:
        outcome = "value"
        if core_out.shape == result.output.shape:
            mask = differing_cells(core_out, result.output)
            where = np.argwhere(mask)
            cells = tuple(tuple(int(v) for v in row) for row in where[:MAX_CELLS])
            picked = tuple(where[:MAX_CELLS].T)
            extra = dict(cells=cells, n_cells=int(mask.sum()),
                         core_values=tuple(core_out[picked].tolist()) if cells else (),
                         runtime_values=tuple(result.output[picked].tolist()) if cells else ())
    elif core_out is not None:
        outcome = "refused"
    else:
        outcome = "accepted"
    found: Divergence | None = match(case, outcome, result.output, result.error, core_out)
    documented = bool(found and found.documented_for(case.spec, case.runtime))
    return Comparison(
        agree=False, outcome=outcome, divergence=found.label if found else None,
        known_divergence=found.label if documented else None,
        divergence_text=found.text_for(case.spec, case.runtime) if found else None, new=not documented,
        **extra, **common)


def compare(op, data, indices, updates, *, runtimes=None, guarded: bool = True, timeout: float = 20,
            **attrs) -> list[Comparison]:
    """Run scatter_core and each available runtime that can execute ``op``; compare them.

    ``runtimes`` restricts the runtimes tried (default: all that can run the
    version and are installed). ``guarded=True`` (default) runs each runtime in
    its own child process (:func:`run_guarded`), so a crash or hang is reported
    rather than suffered. A version no runtime can execute (``Scatter-11``) is
    compared through its registry stand-in; ``Comparison.note`` says so.
    """
    spec = get_spec(op)
    try:
        with np.errstate(all="ignore"):
            core_out = scatter_core.scatter(spec, data, indices, updates, **attrs)
        core_err = None
    except ScatterError as exc:
        core_out, core_err = None, str(exc)
    except Exception as exc:  # noqa: BLE001 - shown next to the runtimes, never raised
        core_out, core_err = None, error_text(exc)

    run_spec, note = spec, None
    if not runtimes_for(spec) and stand_in(spec):
        run_spec = get_spec(stand_in(spec))
        note = not_runnable_reason(spec)
    try:
        data, indices, updates = _inputs(spec, data, indices, updates)
        unusable = None
    except (TypeError, ValueError) as exc:
        unusable = f"the inputs cannot be given to a runtime: {error_text(exc)}"
    runtime_attrs = _runtime_attrs(run_spec, attrs)
    installed = available()
    wanted = [r for r in runtimes_for(run_spec) if installed.get(r) and (runtimes is None or r in runtimes)]
    out = []
    for runtime in wanted:
        if unusable:
            result = RunResult(runtime, installed[runtime], False, None, unusable)
            out.append(Comparison(runtime=runtime, version=result.version, op=run_spec.name, agree=core_out is None,
                                  outcome=None if core_out is None else "refused", core_ok=core_out is not None,
                                  runtime_ok=False, core_output=core_out, core_error=core_err,
                                  runtime_error=unusable, new=core_out is not None, note=note))
            continue
        if guarded:
            result = run_guarded(runtime, run_spec.name, data, indices, updates, timeout=timeout, **runtime_attrs)
        else:
            result = run(runtime, run_spec, data, indices, updates, **runtime_attrs)
        case = RuntimeCase.of(runtime, run_spec, data, indices, updates, runtime_attrs)
        out.append(_compare_one(runtime, result, case, run_spec.name, core_out, core_err, note))
    return out


__all__ = ["Comparison", "compare", "differing_cells", "RUNTIMES"]
