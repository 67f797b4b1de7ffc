"""Running the real app and Debian's Chromium: shared by the browser tests, bench/ and scripts/.

No pytest here: tests/support/browser_support.py adds the skip-or-fail rule for tests.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def _chromium() -> str:
    """$CHROMIUM, else the browser scripts/install-test-deps.sh recorded in this venv, else Debian's."""
    recorded = Path(sys.prefix) / "chromium-path"
    return (os.environ.get("CHROMIUM") or (recorded.read_text().strip() if recorded.is_file() else "")
            or "/usr/bin/chromium")


CHROMIUM = _chromium()
ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--disable-quic"]
# Streamlit's front end probes <page>/_stcore/health and host-config to find its base path when a page other
# than the root is opened directly; those 404s are Streamlit's own, not the app's.
BENIGN = ("/_stcore/health", "/_stcore/host-config", "Failed to load resource: the server responded with a status of 404")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AppServer:
    def __init__(self, port: int | None = None, script: Path | None = None, env: dict | None = None):
        self.port = port or free_port()
        self.env = dict(env or {})  # more environment for the server (the tests: SCATTER_PLAYER_CHECK=1)
        self.script = script or ROOT / "app.py"  # bench/bench_player.py serves a bare page the same way
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = None

    def start(self, timeout: float = 90) -> "AppServer":
        env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", **self.env)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(self.script), "--server.headless", "true",
             "--server.port", str(self.port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none"],
            cwd=self.script.parent, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"streamlit exited: {self.proc.stdout.read().decode(errors='replace')[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise RuntimeError("streamlit did not become healthy in time")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)


def real_errors(messages: list[str]) -> list[str]:
    return [m for m in messages if not any(b in m for b in BENIGN)]
