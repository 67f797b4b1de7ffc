"""`scatter-explorer audit MODEL [--inputs PATH] [--runtime NAME ...] [--format text|json|junit]`.

Captures the model on each runtime and prints one row per scatter node (:func:`scatter_models.audit`).
Exit status 0 when every node passes; 1 when a runtime differs from the exact result with no runtime fact to
explain it, or when indices repeat under reduction none; 2 for a model or inputs it cannot read (or words it
does not take), and when no runtime could run the model at all. docs/audit.md describes the JSON.
"""

from __future__ import annotations

import sys

from scatter_explorer.options import StrictParser

PROGRESS_NODES = 20  # a model with this many scatter nodes or more gets progress lines on stderr
FORMATS = ("text", "json", "junit")


def parser() -> StrictParser:
    from scatter_models import RUNTIMES

    p = StrictParser(prog="scatter-explorer audit",
                     description="Check every scatter node of a model: each runtime's output against the exact "
                                 "semantics, the indices' repeats, and the runtime facts that explain a difference.",
                     epilog="Exit status: 0 every node passes; 1 a runtime differs with no fact to explain it, or "
                            "indices repeat under reduction none; 2 a file it cannot read, or no runtime could run "
                            "the model. The JSON is described in docs/audit.md.")
    p.add_argument("model", metavar="MODEL", help="an .onnx file, or an OpenVINO .xml with its .bin beside it")
    p.add_argument("--inputs", metavar="PATH", default=None,
                   help="the model's inputs: an .npz (one array per input name) or .npy file, or what "
                        "Model.capture takes as a path (default: drawn from --seed)")
    p.add_argument("--runtime", metavar="NAME", action="append", choices=RUNTIMES, dest="runtimes",
                   help=f"a runtime to capture on, again for more: {', '.join(RUNTIMES)} "
                        "(default: every installed one that can run the model, the deployed one first)")
    p.add_argument("--format", choices=FORMATS, default="text", help="how to print the rows (default text)")
    p.add_argument("--seed", type=int, default=0, metavar="N", help="the seed that draws inputs not given (default 0)")
    return p


def _progress(text: str) -> None:
    print(f"audit: {text}", file=sys.stderr, flush=True)


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    import scatter_models as sm
    from scatter_models import auditing

    try:
        model = sm.open_model(args.model)
        for runtime in args.runtimes or ():
            if not sm.runtime_available(runtime if model.kind == "onnx" else "openvino"):
                print(f"scatter-explorer audit: {sm.runtime_problem(model, runtime)}", file=sys.stderr)
                return 2
        many = len(model.nodes) >= PROGRESS_NODES
        result = auditing.audit_model(model, args.inputs, args.runtimes, seed=args.seed,
                                      progress=_progress if many else None)
        result.path = args.model
    except sm.ModelError as exc:
        print(f"scatter-explorer audit: {exc}", file=sys.stderr)
        return 2
    if model.nodes and not any(status == "ran" for _, _, status, _ in result.runs.values()):
        print("scatter-explorer audit: no runtime could run the model: " + "; ".join(
            f"{name}: {message}" for name, _, _, message in result.runs.values()) if result.runs else
            "scatter-explorer audit: no capture runtime is installed (pip install 'scatter-explorer[runtimes]')",
            file=sys.stderr)
        return 2
    write = {"text": auditing.to_text, "json": auditing.to_json, "junit": auditing.to_junit}[args.format]
    sys.stdout.write(write(result))
    sys.stdout.flush()
    return result.exit_status
