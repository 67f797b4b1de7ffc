"""The app as an installable program: where its entry script lives, and the `scatter-explorer`
command (``scatter_explorer.cli``).

The entry script (``app.py``), the page files (``app_pages/``) and the Streamlit settings
(``.streamlit/config.toml``) sit at the root of a checkout. A wheel carries a copy of them in
``scatter_explorer/app/`` (``setup.py`` puts it there), so the installed command needs no source tree.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def app_dir() -> Path:
    """The folder holding app.py, app_pages/ and .streamlit/: the copy an installed wheel carries,
    else the checkout's root (a run inside the clone or an editable install)."""
    packaged = _HERE / "app"
    return packaged if (packaged / "app.py").is_file() else _HERE.parent
