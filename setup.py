"""Packaging beyond pyproject.toml: a wheel carries the app itself (app.py, pages/, the Streamlit
settings and plotly.js) in scatter_explorer/app/, so the installed `scatter-explorer` command runs
from any directory without the source tree. The checkout keeps these files at its root, where
`streamlit run app.py` uses them; an editable install uses them there too (scatter_explorer.app_dir).
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
APP_FILES = ["app.py", "pages/*.py", ".streamlit/config.toml"]


class BuildWithApp(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        import plotly  # a build requirement (pyproject.toml): its plotly.min.js is served from static/

        target = Path(self.build_lib) / "scatter_explorer" / "app"
        for pattern in APP_FILES:
            for source in sorted(ROOT.glob(pattern)):
                dest = target / source.relative_to(ROOT)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, dest)
        bundle = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
        (target / "static").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(bundle, target / "static" / bundle.name)


setup(cmdclass={"build_py": BuildWithApp})
