"""The class server (`scatter-explorer serve --replicas N`) on loopback: shared by the deploy tests and
bench/load_balancer.py. No pytest here: tests/support/deploy_support.py adds the skip-or-fail rule."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from devtools.browser import ROOT
from scatter_explorer import serve


def find_haproxy() -> str | None:
    """$HAPROXY, else the HAProxy scripts/install-test-deps.sh recorded in this venv, else one on PATH."""
    recorded = Path(sys.prefix) / "haproxy-path"
    path = (os.environ.get("HAPROXY") or (recorded.read_text().strip() if recorded.is_file() else "")
            or serve.find_haproxy() or "")
    return path if path and os.access(path, os.X_OK) else None


def _free_run(n: int) -> int:
    """A port p with p .. p+n all free on loopback."""
    for p in range(20000 + os.getpid() % 20000, 60000, 7):
        if all(serve.port_is_free(q) for q in range(p, p + n + 1)):
            return p
    raise RuntimeError("no free ports")


class Balancer:
    """`scatter-explorer serve --replicas N --no-restart` on loopback, as a user would start it; `stop()` is Ctrl+C."""

    def __init__(self, workdir: Path, app: Path | None = None, replicas: int = 2, haproxy: str | None = None):
        self.port = _free_run(replicas)
        self.url = f"http://127.0.0.1:{self.port}"
        argv = [sys.executable, "-m", "scatter_explorer.cli", "serve", "--replicas", str(replicas), "--no-restart",
                "--address", "127.0.0.1", "--port", str(self.port), "--haproxy", haproxy or find_haproxy() or "haproxy",
                "--workdir", str(workdir)]
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
