"""`scatter-explorer`: start the app from wherever the package is installed.

Every argument is passed on to `streamlit run`, e.g. ``scatter-explorer --server.port 8502``,
or ``scatter-explorer --server.address 0.0.0.0`` to serve other machines on the network.

``scatter-explorer serve --replicas N [--port 8501]`` serves a class instead: N Streamlit
replicas behind HAProxy with sticky sessions (``scatter_explorer/serve.py``; README, "A class at once").
"""

from __future__ import annotations

import sys

from scatter_explorer import app_dir


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["serve"]:
        from scatter_explorer import serve

        sys.exit(serve.main(args[1:]))
    entry = app_dir() / "app.py"
    if not entry.is_file():
        sys.exit(f"scatter-explorer: the app's entry script is missing at {entry}; reinstall the package")
    from streamlit.web import cli as streamlit_cli

    sys.argv = ["streamlit", "run", str(entry), *args]
    sys.exit(streamlit_cli.main())


if __name__ == "__main__":
    main()
