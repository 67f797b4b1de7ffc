"""Run every framework_map record whose framework is installed on random cases against scatter_core.

    python scripts/verify_frameworks.py [--cases N] [--seed S] [--frameworks PyTorch TensorFlow JAX] [--write]

Prints one line per (record, configuration) and a summary per framework. With --write it
records the results in framework_map/verified.py (the spec pages' framework map reads it to
say which records were executed, on which framework version, and how they agreed) and prints
the Markdown table for docs/frameworks.md. Frameworks that are not installed are reported as
such and keep their previous record. Exits 1 if any record disagrees.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import platform
import pprint
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import framework_map as fm  # noqa: E402
from framework_map import differential  # noqa: E402
from framework_map.verified import VERIFIED  # noqa: E402

DISTRIBUTIONS = {"PyTorch": ("torch",), "TensorFlow": ("tensorflow-cpu", "tensorflow"), "JAX": ("jax", "jaxlib")}
# behaviours a record's sentences rest on, probed on the installed framework and recorded beside its entries
PROBES = {"TensorFlow": {"out_of_range": differential.tensorflow_out_of_range,
                          "nan_max_min": differential.tensorflow_nan_max_min},
          "PyTorch": {"nan_max_min": differential.torch_nan_max_min,
                      "index_add_alpha": differential.torch_index_add_alpha}}
PROBE_WORDS = {"out_of_range": "out-of-range indices on CPU ({} calls per mode)",
               "nan_max_min": "a NaN taking part in a max / min scatter on CPU ({} calls, float32 and float64)",
               "index_add_alpha": "index_add's data + alpha * source on float32, CPU ({} calls)"}


def version_of(framework: str) -> str | None:
    found = []
    for dist in DISTRIBUTIONS[framework]:
        try:
            found.append(f"{dist} {importlib.metadata.version(dist)}")
        except importlib.metadata.PackageNotFoundError:
            continue
    return ", ".join(found) or None


def verify(framework: str, cases: int, rng) -> dict:
    version = version_of(framework)
    if version is None:
        return {}
    started = time.perf_counter()
    entries: dict[str, dict] = {}
    for entry, config in differential.pairs(framework):
        o = differential.check_entry(entry, config, rng, cases)
        rec = entries.setdefault(entry.id, {"configurations": 0, "cases": 0, "exact": 0, "other_winner": 0,
                                            "duplicates": 0, "failures": []})
        rec["configurations"] += 1
        for k in ("cases", "exact", "other_winner", "duplicates"):
            rec[k] += getattr(o, k)
        rec["failures"] += [f"{config.label}: {f}" for f in o.failures][:3]
        print(f"{framework:10} {entry.id:32} {config.label:58} {o.exact}/{o.cases} exact"
              + (f", {o.other_winner} other duplicate winner" if o.other_winner else "")
              + ("" if o.agrees else "  DISAGREES: " + o.failures[0][:200]), flush=True)
    probed = {}
    for key, probe in PROBES.get(framework, {}).items():
        probed[key] = probe()
        print(f"{framework:10} probe {key}: {probed[key]}", flush=True)
    return {"version": version, "python": platform.python_version(), "date": time.strftime("%Y-%m-%d"),
            "cases_per_configuration": cases, "seconds": round(time.perf_counter() - started, 1),
            "entries": entries, **probed}


def markdown(results: dict) -> str:
    lines = ["| framework | version | record | configurations | cases | equal to scatter_core | "
             "another duplicate won (replacement) | cases with duplicates | disagreements |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for framework, res in results.items():
        for eid, r in res.get("entries", {}).items():
            lines.append(f"| {framework} | {res['version']} | `{eid}` | {r['configurations']} | {r['cases']} | "
                         f"{r['exact']} | {r['other_winner']} | {r['duplicates']} | {len(r['failures'])} |")
    for framework, res in results.items():
        for key in PROBES.get(framework, {}):
            if key in res:
                found = ", ".join(f"{mode}: {v}" for mode, v in res[key].items() if mode != "cases")
                lines += ["", f"{framework} {res['version']}, {PROBE_WORDS[key].format(res[key]['cases'])}: "
                              f"{found}."]
    never = [e.id for e in fm.ENTRIES if not any(e.id in res.get("entries", {}) for res in results.values())]
    lines.append("")
    lines.append("Never executed here: " + (", ".join(f"`{e}`" for e in never) or "none") + ".")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10, help="random cases per (record, configuration), at most 200")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--frameworks", nargs="*", default=list(DISTRIBUTIONS), choices=list(DISTRIBUTIONS))
    ap.add_argument("--write", action="store_true", help="record the results in framework_map/verified.py")
    args = ap.parse_args(argv)
    cases = max(1, min(args.cases, 200))
    rng = np.random.default_rng(args.seed)
    results = dict(VERIFIED)
    bad = 0
    for framework in args.frameworks:
        res = verify(framework, cases, rng)
        if not res:
            print(f"{framework}: not installed ({' / '.join(DISTRIBUTIONS[framework])}); previous record kept")
            continue
        results[framework] = res
        n = sum(r["cases"] for r in res["entries"].values())
        fails = sum(len(r["failures"]) > 0 for r in res["entries"].values())
        bad += fails
        print(f"{framework} ({res['version']}): {len(res['entries'])} records, {n} cases, "
              f"{fails} records disagree, {res['seconds']} s")
    if args.write:
        path = ROOT / "framework_map" / "verified.py"
        path.write_text('"""What scripts/verify_frameworks.py recorded (generated: do not edit by hand)."""\n\n'
                        f"VERIFIED = {pprint.pformat(results, width=110, sort_dicts=True)}\n")
        print(f"wrote {path.relative_to(ROOT)}")
    print()
    print(markdown(results))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
