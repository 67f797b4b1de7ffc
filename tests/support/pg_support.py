"""A throwaway PostgreSQL server for the class store's tests: Debian's binaries, initdb and pg_ctl in a temp dir.

``postgres_server()`` yields a ``postgresql://`` URL of a fresh cluster (in a new directory under the temp
dir) listening on loopback on a free port (trust authentication, nothing else reaches it), and stops it
afterwards. PostgreSQL refuses to run as
root, so as root the cluster is made and run by the ``postgres`` user (Debian's package makes it) through
``runuser``. Without PostgreSQL the test skips (fails under CI=true: scripts/install-test-deps.sh installs it).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from tests.support.skipping import skip_or_fail


def pg_bin() -> Path | None:
    """The newest installed PostgreSQL's bin directory (``$PG_BIN`` overrides), or None."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def postgres_server():
    binary = pg_bin()
    if binary is None or not (binary / "pg_ctl").exists():
        skip_or_fail("PostgreSQL not found (scripts/install-test-deps.sh installs Debian's postgresql; or set PG_BIN)")
    as_user: list[str] = []
    workdir = Path(tempfile.mkdtemp(prefix="scatter-pg-"))  # under /tmp: the postgres user reaches it
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            skip_or_fail("running as root and there is no 'postgres' user to run PostgreSQL as")
        as_user = ["runuser", "-u", "postgres", "--"]
        os.chown(workdir, user.pw_uid, user.pw_gid)
    data, log = workdir / "data", workdir / "server.log"
    port = _free_port()

    def run(*cmd, check=True):
        return subprocess.run([*as_user, *cmd], check=check, capture_output=True, text=True, timeout=120)

    run(str(binary / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
    try:
        run(str(binary / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o",
            f"-p {port} -c listen_addresses=127.0.0.1 -k {workdir} -c fsync=on -c max_connections=100", "start")
    except subprocess.CalledProcessError as exc:
        text = log.read_text() if log.exists() else ""
        raise RuntimeError(f"pg_ctl start failed: {exc.stderr}\n{text}") from None
    try:
        run(str(binary / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "classes")
        yield f"postgresql://postgres@127.0.0.1:{port}/classes"
    finally:
        run(str(binary / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(workdir, ignore_errors=True)
