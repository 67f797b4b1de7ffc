"""`scatter-explorer verify-facts [--fact ID ...] [--format text|json]`: the runtime facts on the installed runtimes.

Runs each fact's check (:mod:`runtime_check.fact_checks`) and says which facts still hold, which no longer
hold and which could not run (a runtime is missing), with the installed and verified versions. Exit status
0 when every check that ran holds; 1 when any fails; 2 for words it does not take or an unknown fact id.
"""

from __future__ import annotations

import json
import sys

from scatter_explorer.options import StrictParser

FORMATS = ("text", "json")
PROG = "scatter-explorer verify-facts"


def parser() -> StrictParser:
    p = StrictParser(prog=PROG,
                     description="Run every runtime fact's check on the installed runtimes (onnxruntime, "
                                 "onnx.reference, OpenVINO) and say which facts still hold.",
                     epilog="Exit status: 0 every check that ran holds; 1 a fact no longer holds; 2 a word it does "
                            "not take, or an unknown fact id. Facts whose runtime is not installed are listed as "
                            "not run (pip install 'scatter-explorer[runtimes]').")
    p.add_argument("--fact", metavar="ID", action="append", dest="facts",
                   help="check only this fact (an id of the table, e.g. ov-int64), again for more")
    p.add_argument("--format", choices=FORMATS, default="text", help="how to print the results (default text)")
    return p


def versions_line(results) -> str:
    """"onnxruntime: installed 1.32.0, verified on 1.31.1; ..." over the runtimes the checks name."""
    seen = {}
    for r in results:
        seen.update(r.versions)
    return "; ".join(f"{runtime}: installed {installed or '(not installed)'}, verified on {verified or '(unknown)'}"
                     for runtime, (installed, verified) in seen.items())


def to_text(results) -> str:
    groups = {"fails": "No longer hold", "not run": "Not run (a runtime is missing)", "no check": "No check",
              "holds": "Still hold"}
    lines = ["Runtimes: " + versions_line(results), ""]
    for status, title in groups.items():
        mine = [r for r in results if r.status == status]
        if not mine:
            continue
        lines.append(f"{title}: {len(mine)}")
        for r in mine:
            lines.append(f"  {r.fact}")
            if status != "holds":
                lines += [f"    {d}" for d in r.details]
        lines.append("")
    counts = ", ".join(f"{sum(r.status == s for r in results)} {s}" for s in groups)
    n = len(results)
    return "\n".join(lines + [f"{n} fact{'' if n == 1 else 's'}: {counts}."]) + "\n"


def to_json(results) -> str:
    return json.dumps({"facts": [r.as_dict() for r in results],
                       "summary": {s: sum(r.status == s for r in results)
                                   for s in ("holds", "fails", "not run", "no check")}}, indent=2) + "\n"


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    import scatter_core as sc
    from runtime_check import fact_checks

    unknown = [f for f in args.facts or () if f not in sc.FACT_BY_ID]
    if unknown:
        print(f"{PROG}: --fact {unknown[0]!r} is not a fact of the table; the ids are those of "
              f"scatter_core.FACTS, e.g. {', '.join(f.id for f in sc.FACTS[:3])}", file=sys.stderr)
        return 2
    results = fact_checks.check_all(args.facts)
    sys.stdout.write((to_json if args.format == "json" else to_text)(results))
    sys.stdout.flush()
    return 1 if any(r.status == "fails" for r in results) else 0
