"""`scatter-explorer`: the app, and the project's other commands.

* ``scatter-explorer [--section.option VALUE ...]`` (or ``scatter-explorer app ...``): run the app with
  ``streamlit run``, passing Streamlit's own options on (``--server.port 8502``, ``--server.address 0.0.0.0``);
* ``scatter-explorer serve --replicas N``: a class, N replicas behind HAProxy (:mod:`scatter_explorer.serve`);
* ``scatter-explorer audit MODEL``: every scatter node of a model checked for CI (:mod:`scatter_explorer.audit`);
* ``scatter-explorer verify-facts``: the runtime facts checked on the installed runtimes.

A word or an option a command does not take stops it with exit status 2, a message naming the word and the
list of what it takes; it never starts a server. ``--help`` works on each command.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass

from scatter_explorer import app_dir
from scatter_explorer.options import STREAMLIT_EPILOG, StrictParser, split_streamlit

PROG = "scatter-explorer"


@dataclass(frozen=True)
class Command:
    name: str
    summary: str
    module: str  # its module has main(argv) -> int (and parser() for its --help)


COMMANDS = {c.name: c for c in (
    Command("app", "run the app (the default: `scatter-explorer` alone runs it)", "scatter_explorer.cli"),
    Command("serve", "serve a class: N Streamlit replicas behind HAProxy", "scatter_explorer.serve"),
    Command("audit", "check every scatter node of a model against the exact semantics on each runtime (for CI)",
            "scatter_explorer.audit"),
    Command("verify-facts", "check the runtime facts on the installed runtimes", "scatter_explorer.verify_facts"),
)}


def command_list() -> str:
    return ", ".join(f"{name}{' (default)' if name == 'app' else ''}" for name in COMMANDS)


def top_help() -> str:
    width = max(len(n) for n in COMMANDS)
    lines = [f"usage: {PROG} [COMMAND] [OPTIONS]", "",
             "Scatter Explorer: the app, and the commands around it. Without a command it runs the app.", "",
             "commands:"]
    lines += [f"  {c.name:<{width}}  {c.summary}" for c in COMMANDS.values()]
    lines += ["", f"`{PROG} COMMAND --help` says what each takes. " + STREAMLIT_EPILOG]
    return "\n".join(lines)


def app_parser(prog: str = f"{PROG} app") -> StrictParser:
    takes = "Streamlit's options as --section.option VALUE (--server.port 8502 ...), --help"
    if prog == PROG:  # the command alone: its commands too
        takes = f"a command ({command_list()}), or the app's options: {takes}"
    return StrictParser(prog=prog, description="Run the app (streamlit run app.py).", epilog=STREAMLIT_EPILOG,
                        takes=takes)


def main_app(argv: list[str], prog: str = f"{PROG} app") -> int:
    """Run the app with Streamlit's options ``argv``, after refusing anything else (exit status 2)."""
    parser = app_parser(prog)
    own, streamlit = split_streamlit(parser, argv)
    if own in (["-h"], ["--help"]):
        print(top_help() if prog == PROG else parser.format_help())
        return 0
    parser.parse_args(own)  # refuses every word left: the app takes none of its own
    entry = app_dir() / "app.py"
    if not entry.is_file():
        print(f"{PROG}: the app's entry script is missing at {entry}; reinstall the package", file=sys.stderr)
        return 1
    from streamlit.web import cli as streamlit_cli

    sys.argv = ["streamlit", "run", str(entry), *streamlit]
    return streamlit_cli.main()


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0].startswith("-"):
        sys.exit(main_app(args, PROG))  # the app by default
    command = COMMANDS.get(args[0])
    if command is None:
        print(f"usage: {PROG} [COMMAND] [OPTIONS]", file=sys.stderr)
        print(f"{PROG}: unknown command {args[0]!r}. {PROG} takes: {command_list()}. `{PROG} --help` says more.",
              file=sys.stderr)
        sys.exit(2)
    if command.name == "app":
        sys.exit(main_app(args[1:]))
    try:
        module = importlib.import_module(command.module)
    except ModuleNotFoundError as exc:
        if exc.name != command.module:
            raise
        print(f"{PROG} {command.name}: not in this version of Scatter Explorer ({command.summary}); "
              f"{PROG} takes: {', '.join(n for n in COMMANDS if n != command.name)}.", file=sys.stderr)
        sys.exit(2)
    sys.exit(module.main(args[1:]))


if __name__ == "__main__":
    main()
