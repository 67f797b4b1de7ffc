"""Starting `scatter-explorer serve` (N replicas behind HAProxy) on loopback, for tests/test_deploy.py
and bench/load_balancer.py. HAProxy: $HAPROXY, else the one scripts/install-test-deps.sh recorded in
<venv>/haproxy-path, else haproxy on PATH or in /usr/sbin; missing, the caller skips (fails under CI=true).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from scatter_explorer import serve
from tests.browser_support import ROOT
from tests.skipping import skip_or_fail


def haproxy() -> str:
    recorded = Path(sys.prefix) / "haproxy-path"
    path = (os.environ.get("HAPROXY") or (recorded.read_text().strip() if recorded.is_file() else "")
            or serve.find_haproxy() or "")
    if not (path and os.access(path, os.X_OK)):
        skip_or_fail("HAProxy not found (scripts/install-test-deps.sh installs Debian's haproxy; or set HAPROXY)")
    return path


def _free_run(n: int) -> int:
    """A port p with p .. p+n all free on loopback."""
    for p in range(20000 + os.getpid() % 20000, 60000, 7):
        if all(serve.port_is_free(q) for q in range(p, p + n + 1)):
            return p
    raise RuntimeError("no free ports")


class Balancer:
    """`scatter-explorer serve --replicas N --no-restart` on loopback, as a user would start it; `stop()` is Ctrl+C."""

    def __init__(self, workdir: Path, app: Path | None = None, replicas: int = 2):
        self.port = _free_run(replicas)
        self.url = f"http://127.0.0.1:{self.port}"
        argv = [sys.executable, "-m", "scatter_explorer.cli", "serve", "--replicas", str(replicas), "--no-restart",
                "--address", "127.0.0.1", "--port", str(self.port), "--haproxy", haproxy(), "--workdir", str(workdir)]
        if app:
            argv += ["--app", str(app)]
        self.proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.out: list[str] = []
        self.pids: dict[str, int] = {}
        deadline = time.monotonic() + 300
        for line in self.proc.stdout:
            self.out.append(line)
            if m := re.search(r"replica (r\d+) on \S+ \(pid (\d+)\)", line):
                self.pids[m[1]] = int(m[2])
            if m := re.search(r"HAProxy \(pid (\d+)\)", line):
                self.pids["haproxy"] = int(m[1])
            if "Ctrl+C stops everything" in line or time.monotonic() > deadline:
                break
        if "haproxy" not in self.pids:
            self.stop()
            raise RuntimeError("serve did not start:\n" + "".join(self.out))

    def kill_replica(self, name: str) -> None:
        os.killpg(self.pids[name], signal.SIGKILL)

    def stop(self) -> int:
        """Ctrl+C, as in the terminal."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            code = self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        self.out.append(self.proc.stdout.read())
        return code


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False
