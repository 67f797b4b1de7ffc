"""Packaging beyond pyproject.toml: a wheel carries the app itself (app.py, app_pages/ and the
Streamlit settings) in scatter_explorer/app/, so the installed `scatter-explorer` command runs from
any directory without the source tree. The checkout keeps these files at its root, where
`streamlit run app.py` uses them; an editable install uses them there too (scatter_explorer.app_dir).
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
APP_FILES = ["app.py", "app_pages/*.py", ".streamlit/config.toml", "deploy/haproxy.cfg.template"]  # keep MANIFEST.in in step


class BuildWithApp(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "scatter_explorer" / "app"
        for pattern in APP_FILES:
            for source in sorted(ROOT.glob(pattern)):
                dest = target / source.relative_to(ROOT)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, dest)


setup(cmdclass={"build_py": BuildWithApp})
