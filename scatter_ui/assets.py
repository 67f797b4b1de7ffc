"""Static files the browser needs, served by Streamlit from ./static (see .streamlit/config.toml)."""

from __future__ import annotations

import shutil
from pathlib import Path

import plotly

from scatter_explorer import app_dir

STATIC = app_dir() / "static"  # beside the entry script: the checkout's root or an installed wheel's copy
PLOTLY_JS = "plotly.min.js"
STATIC_URL = "/app/static/"


def ensure_plotly_js() -> str:
    """Copy the installed plotly package's plotly.min.js into ./static (once); return its URL."""
    source = Path(plotly.__file__).resolve().parent / "package_data" / PLOTLY_JS
    target = STATIC / PLOTLY_JS
    if not target.exists() or target.stat().st_size != source.stat().st_size:
        STATIC.mkdir(exist_ok=True)
        tmp = target.with_suffix(".tmp")
        shutil.copyfile(source, tmp)
        tmp.replace(target)
    return STATIC_URL + PLOTLY_JS
