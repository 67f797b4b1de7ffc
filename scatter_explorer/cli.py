"""`scatter-explorer`: start the app from wherever the package is installed.

Every argument is passed on to `streamlit run`, e.g. ``scatter-explorer --server.port 8502``,
or ``scatter-explorer --server.address 0.0.0.0`` to serve other machines on the network.
"""

from __future__ import annotations

import sys

from scatter_explorer import app_dir


def main(argv: list[str] | None = None) -> None:
    entry = app_dir() / "app.py"
    if not entry.is_file():
        sys.exit(f"scatter-explorer: the app's entry script is missing at {entry}; reinstall the package")
    from streamlit.web import cli as streamlit_cli

    sys.argv = ["streamlit", "run", str(entry), *(sys.argv[1:] if argv is None else argv)]
    sys.exit(streamlit_cli.main())


if __name__ == "__main__":
    main()
