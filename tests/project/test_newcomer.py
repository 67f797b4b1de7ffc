"""A newcomer's first ten minutes (issue #15): the README's commands match the scripts they call,
Streamlit's settings, and the installed `scatter-explorer` command running outside the checkout."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

import spec_examples
from scatter_core import OPERATORS
from scatter_core import verified_versions
from tests.support.browser_support import free_port
from tests.support.skipping import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
RUN_APP_CHAIN = ["python3 -m venv .venv", ". .venv/bin/activate", "pip install -e .", "streamlit run app.py"]


def code_blocks(markdown: str, lang: str = "bash") -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", markdown, flags=re.S | re.M)


def section(markdown: str, heading: str) -> str:
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", markdown, flags=re.S | re.M)
    assert match, f"README.md has no section '## {heading}'"
    return match.group(1)


def command_of(heading: str) -> str:
    """The one command in the first bash block of a README section."""
    blocks = code_blocks(section(README, heading))
    assert blocks, f"README.md's '{heading}' has no bash block"
    lines = [ln for ln in blocks[0].splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert len(lines) == 1, f"README.md's '{heading}' should give one command, not {lines}"
    return lines[0].strip()


def code_lines(path: Path) -> list[str]:
    return [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()
            if ln.strip() and not ln.lstrip().startswith("#")]


# -- the README's commands and the scripts they name ---------------------------------------
def test_every_script_the_readme_names_exists():
    named = set(re.findall(r"scripts/[\w.-]+", README))
    assert {"scripts/run-app.sh", "scripts/install-test-deps.sh", "scripts/screenshot.py"} <= named
    for rel in named:
        assert (ROOT / rel).is_file(), f"README.md names {rel}, which does not exist"
    for block in code_blocks(README):
        for rel in re.findall(r"scripts/[\w.-]+", block):
            assert (ROOT / rel).is_file(), f"a README command calls {rel}, which does not exist"


def test_ci_runs_the_readmes_test_command_verbatim():
    command = command_of("Run the tests")
    assert command.startswith("bash scripts/install-test-deps.sh && ")
    assert command in code_lines(ROOT / ".ci" / "run"), f".ci/run does not run `{command}` as a line of its own"


def test_run_app_script_does_exactly_the_chain_the_readme_states():
    command = command_of("Run the app")
    assert command == "bash scripts/run-app.sh"
    assert " && ".join(RUN_APP_CHAIN) in section(README, "Run the app").replace("\n", " ")
    lines = code_lines(ROOT / "scripts" / "run-app.sh")
    found = [next((i for i, ln in enumerate(lines) if step in ln), None) for step in RUN_APP_CHAIN]
    assert None not in found and found == sorted(found), (RUN_APP_CHAIN, found)


def test_the_installed_command_and_the_readme_agree():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"scatter-explorer": "scatter_explorer.cli:main"}
    assert "scatter-explorer" in code_blocks(section(README, "Run the app"))[-1]


def test_the_screenshot_script_opens_an_existing_example():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import screenshot
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    query = dict(re.findall(r"(\w+)=([^&]+)", screenshot.PAGE))
    assert query["op"] in OPERATORS
    assert query["example"] in {e.id for e in spec_examples.examples_for(query["op"])}
    assert (ROOT / "docs" / "img" / "explorer.png").is_file() and "docs/img/explorer.png" in README


# -- Streamlit's settings -------------------------------------------------------------------
def test_streamlit_config_is_local_quiet_and_minimal():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["address"] == "localhost"  # no Network URL, not reachable from elsewhere
    assert config["server"]["showEmailPrompt"] is False  # no "Welcome to Streamlit! Email:" on a desktop
    assert config["client"]["toolbarMode"] == "viewer"  # no Deploy button, but the theme menu
    assert config["client"]["showErrorDetails"] == "none"
    assert config["browser"]["gatherUsageStats"] is False
    assert "enableStaticServing" not in config["server"]  # it warns at start without a static/ folder


def _serve(command: list[str], cwd: Path, env: dict, timeout: float = 90) -> tuple[str, dict[str, int]]:
    """Start a server, wait for /_stcore/health, stop it; its log and the health status."""
    port = free_port()
    proc = subprocess.Popen([*command, "--server.headless", "true", "--server.port", str(port),
                             "--server.fileWatcherType", "none"],
                            cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    statuses = {}
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and proc.poll() is None and "health" not in statuses:
            try:
                with urllib.request.urlopen(f"http://localhost:{port}/_stcore/health", timeout=2) as r:
                    statuses["health"] = r.status
            except OSError:
                time.sleep(0.3)
        if "health" in statuses:
            time.sleep(1)  # anything Streamlit prints just after start
    finally:
        proc.terminate()
        try:
            log = proc.communicate(timeout=15)[0]
        except subprocess.TimeoutExpired:
            proc.kill()
            log = proc.communicate()[0]
    return log, statuses


def _clean_env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_") and k != "PYTHONPATH"}
    env.pop("DISPLAY", None)
    return env


def _assert_quiet_start(log: str, statuses: dict) -> None:
    assert statuses.get("health") == 200, log
    assert "Network URL" not in log and "External URL" not in log, log
    assert not re.search(r"warning|error|traceback", log, flags=re.I), log
    assert re.search(r"URL: http://localhost:\d+", log), log


def test_streamlit_run_app_py_starts_quietly_on_localhost():
    log, statuses = _serve([sys.executable, "-m", "streamlit", "run", "app.py"], ROOT, _clean_env())
    _assert_quiet_start(log, statuses)


@pytest.mark.slow
def test_installed_command_runs_outside_the_checkout(tmp_path):
    """A non-editable install of the wheel in a new venv, run from another directory. The wheel is
    built from a copy of the checkout (pip's isolated build: setuptools comes from pip's
    cache or the index); its dependencies come from this test environment through a .pth file, so
    the test needs no 570 MB install."""
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "artifacts", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
        ".hypothesis"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check",
                            "-w", str(tmp_path / "dist"), str(source)], capture_output=True, text=True)
    if built.returncode:
        skip_or_fail(f"pip could not build the wheel here (no index or cache?): {built.stderr[-1500:]}")
    wheel = next((tmp_path / "dist").glob("scatter_explorer-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    "--disable-pip-version-check", str(wheel)], check=True)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    here = subprocess.run([sys.executable, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (Path(site) / "zz_test_dependencies.pth").write_text(here + "\n")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run([str(python), "-c", "import scatter_explorer, scatter_ui; "
                            "print(scatter_explorer.app_dir()); print(scatter_ui.__file__)"],
                           cwd=elsewhere, env=_clean_env(), capture_output=True, text=True, check=True).stdout.split()
    assert all(Path(p).is_relative_to(venv) for p in where), where  # the wheel's copy, not the checkout
    log, statuses = _serve([str(venv / "bin" / "scatter-explorer")], elsewhere, _clean_env())
    _assert_quiet_start(log, statuses)
    installed = Path(site)
    shipped = {p.relative_to(installed).as_posix() for p in installed.rglob("*") if p.is_file()}
    for rel in (ROOT / "scatter_ui" / "player" / "assets").iterdir():  # the step player's plotly.js, JS, CSS
        assert f"scatter_ui/player/assets/{rel.name}" in shipped
    for rel in (ROOT / "scatter_ui" / "player" / "js").glob("*.mjs"):  # its modules, joined into one script at start
        assert f"scatter_ui/player/js/{rel.name}" in shipped
    for page in (ROOT / "app_pages").glob("*.py"):
        assert f"scatter_explorer/app/app_pages/{page.name}" in shipped
    # the installed command checks a runtime fact with no checkout beside it: the verified versions are the package's
    facts = subprocess.run([str(venv / "bin" / "scatter-explorer"), "verify-facts", "--fact",
                            "ort-scatter-9-negative-index"], cwd=elsewhere, env=_clean_env(), capture_output=True,
                           text=True, timeout=300)
    assert facts.returncode == 0, facts.stdout + facts.stderr
    assert f"verified on {verified_versions()['onnxruntime']}" in facts.stdout and "1 fact: 0 fails" in facts.stdout


@pytest.mark.parametrize("name", ["README.md", "CHANGELOG.md", "docs/architecture.md", "docs/performance.md",
                                  "docs/robustness.md", "docs/semantics.md"])
def test_relative_links_in_the_docs_resolve(name):
    path = ROOT / name
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8")):
        assert (path.parent / target).exists(), f"{name} links to {target}, which does not exist"
