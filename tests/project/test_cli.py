"""Commands that refuse what they do not know (issue #35 §1): `scatter-explorer` and its subcommands, and
scripts/serve-class.sh, run as subprocesses with a time limit. A word or an option a command does not take
exits with status 2, names the word and lists what the command takes, and never starts a server."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.skipping import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 60  # seconds: a command that started a server instead of refusing would hit it


def run(*argv: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """`python -m scatter_explorer.cli ARGV` (what the installed command runs), stopped after LIMIT seconds."""
    environment = dict(os.environ, PYTHONPATH=str(ROOT), STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    environment.update(env or {})
    try:
        return subprocess.run([sys.executable, "-m", "scatter_explorer.cli", *argv], capture_output=True, text=True,
                              timeout=LIMIT, cwd=ROOT, env=environment, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"scatter-explorer {' '.join(argv)} did not end within {LIMIT} s (a server started?): "
                    f"{exc.stdout!r} {exc.stderr!r}")


@pytest.mark.parametrize("argv,word,takes", [
    (["audits", "model.onnx"], "'audits'", "app (default), serve, audit, verify-facts"),
    (["model.onnx"], "'model.onnx'", "app (default), serve, audit, verify-facts"),
    (["--bogus"], "'--bogus'", "a command (app (default), serve, audit, verify-facts)"),
    (["--server.port", "8502", "extra"], "'extra'", "Streamlit's options as --section.option VALUE"),
    (["--server.prot", "8502"], "'--server.prot'", "did you mean --server.port"),
    (["--server.port"], "'--server.port' needs a value", "--section.option VALUE"),
    (["app", "9999"], "'9999'", "Streamlit's options as --section.option VALUE"),
    (["serve", "2", "9999"], "'2'", "--replicas N, --port PORT"),
    (["serve", "--replicas", "2", "9999"], "'9999'", "--replicas N, --port PORT"),
    (["serve", "--replicas", "2", "--prot", "9999"], "'--prot'", "--replicas N, --port PORT"),
    (["serve", "--replicas", "2", "--server.port", "9000"], "--server.port is set by serve", "--replica-port"),
    (["audit"], "MODEL", "MODEL, --inputs PATH, --runtime NAME"),
    (["audit", "a.onnx", "b.onnx"], "'b.onnx'", "MODEL, --inputs PATH, --runtime NAME"),
    (["audit", "a.onnx", "--server.port", "1"], "'--server.port'", "MODEL, --inputs PATH"),
    (["audit", "a.onnx", "--format", "xml"], "'xml'", "text', 'json', 'junit'"),
    (["audit", "a.onnx", "--runtime", "tensorrt"], "'tensorrt'", "'reference', 'onnxruntime', 'openvino'"),
    (["verify-facts", "--bogus"], "'--bogus'", "--fact ID, --format"),
])
def test_a_word_a_command_does_not_take_exits_2_naming_it_and_what_it_takes(argv, word, takes):
    result = run(*argv)
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert word in result.stderr and takes in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "Uvicorn" not in result.stderr + result.stdout
    assert "You can now view your Streamlit app" not in result.stdout


@pytest.mark.parametrize("argv,says", [
    (["--help"], ["commands:", "serve", "audit", "verify-facts", "--server.port"]),
    (["-h"], ["commands:"]),
    (["app", "--help"], ["usage: scatter-explorer app", "--section.option VALUE"]),
    (["serve", "--help"], ["usage: scatter-explorer serve", "--replicas N", "--theme.base"]),
    (["audit", "--help"], ["usage: scatter-explorer audit", "--format {text,json,junit}", "Exit status"]),
])
def test_help_on_each_command(argv, says):
    result = run(*argv)
    assert result.returncode == 0, result.stderr
    for text in says:
        assert text in result.stdout, (text, result.stdout)


def test_the_app_takes_streamlits_options_and_starts(tmp_path):
    """The default still runs the app with Streamlit's options: --server.port reaches Streamlit (it serves there)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "scatter_explorer.cli", "--server.port", str(port),
                             "--server.headless=true", "--server.address", "127.0.0.1"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT), STREAMLIT_BROWSER_GATHER_USAGE_STATS="false"),
                            start_new_session=True)
    try:
        import time
        import urllib.request

        deadline = time.monotonic() + LIMIT
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                    assert r.status == 200
                    break
            except OSError:
                assert proc.poll() is None, proc.stdout.read()
                time.sleep(0.3)
        else:
            pytest.fail(f"the app did not answer on port {port} within {LIMIT} s")
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)


SCRIPT = ROOT / "scripts" / "serve-class.sh"


def run_script(*argv: str, venv: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["bash", str(SCRIPT), *argv], capture_output=True, text=True, timeout=LIMIT,
                              env=dict(os.environ, VENV=venv), stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"serve-class.sh {' '.join(argv)} did not end within {LIMIT} s: {exc.stdout!r} {exc.stderr!r}")


# the project's venv (Streamlit's option names checked) and none at all (the system's python3, before
# `.venv` exists: the script's own words are still checked before anything is installed)
VENVS = {"venv": str(Path(sys.executable).parent.parent), "no-venv": "/nonexistent-venv"}


@pytest.mark.parametrize("venv", list(VENVS))
@pytest.mark.parametrize("argv,word", [(["2", "9999"], "'9999'"), (["2", "--prot", "9000"], "'--prot'"),
                                       (["2", "--port"], "--port"), (["two"], "'two'"),
                                       (["2", "--replicas", "3", "x"], "'x'")])
def test_serve_class_script_refuses_words_it_does_not_take_before_installing_anything(venv, argv, word, tmp_path):
    if venv == "no-venv" and shutil.which("python3") is None:
        skip_or_fail("no python3 on PATH")
    result = run_script(*argv, venv=VENVS[venv])
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert word in result.stderr and "usage:" in result.stderr, result.stderr
    assert "serve: starting" not in result.stdout and not Path(VENVS[venv]).joinpath("x").exists()
    assert not Path("/nonexistent-venv").exists()  # nothing was installed


def test_serve_class_script_checks_streamlit_option_names_with_the_venv():
    result = run_script("2", "--server.prot", "9000", venv=VENVS["venv"])
    assert result.returncode == 2 and "'--server.prot'" in result.stderr and "--server.port" in result.stderr


def test_serve_class_script_help():
    result = run_script("--help", venv=VENVS["venv"])
    assert result.returncode == 0, result.stderr
    assert "usage: bash scripts/serve-class.sh N" in result.stdout and "--replica-port PORT" in result.stdout
