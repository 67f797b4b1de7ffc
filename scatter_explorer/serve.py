"""`scatter-explorer serve --replicas N`: N Streamlit replicas of the app behind one HAProxy.

For a class: one Streamlit process is one Python interpreter, so it uses about one core for its
reruns. This starts N `streamlit run` processes on loopback ports (``port+1`` .. ``port+N`` unless
``--replica-port`` says otherwise) and HAProxy (Debian's package) on the one public port, with the
config written from ``deploy/haproxy.cfg.template``: a sticky cookie HAProxy inserts, health checks
on ``/_stcore/health``, websockets passed through. One Ctrl+C (or SIGTERM) stops everything.

Every process is started in a process group of its own, and on Linux asks the kernel to be
terminated when this process dies, so nothing is left running even if this one is killed.
A replica that exits by itself is started again (``--no-restart`` keeps it down); HAProxy sends
its browsers to another replica meanwhile, where the page reopens from its URL.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from scatter_explorer import app_dir
from scatter_explorer.options import STREAMLIT_EPILOG, StrictParser, split_streamlit

MAX_REPLICAS = 32
COOKIE = "scatter_replica"
INSTALL_HINT = ("HAProxy is not installed. Install it, then run this again:\n"
                "  Debian or Ubuntu: sudo apt-get install haproxy\n"
                "  Fedora: sudo dnf install haproxy      macOS: brew install haproxy\n"
                "or give its path: --haproxy /path/to/haproxy (or HAPROXY=/path/to/haproxy).")


def template_path() -> Path:
    """deploy/haproxy.cfg.template: the checkout's, or the copy a wheel carries (setup.py APP_FILES)."""
    return app_dir() / "deploy" / "haproxy.cfg.template"


def find_haproxy(given: str | None = None) -> str | None:
    """--haproxy, else $HAPROXY, else haproxy on PATH or in /usr/sbin (Debian puts it there,
    outside a normal user's PATH)."""
    for candidate in (given, os.environ.get("HAPROXY")):
        if candidate:
            return candidate if os.access(candidate, os.X_OK) else None
    found = shutil.which("haproxy")
    if found:
        return found
    for path in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy", "/opt/homebrew/bin/haproxy"):
        if os.access(path, os.X_OK):
            return path
    return None


def render_config(replica_ports: list[int], address: str, port: int, *, replica_host: str = "127.0.0.1",
                  template: Path | None = None) -> str:
    """The HAProxy config for these replicas: the template with its ${...} fields filled in and one
    `server rK host:port cookie rK check` line per replica."""
    servers = "\n".join(f"    server r{k} {replica_host}:{p} cookie r{k} check"
                        for k, p in enumerate(replica_ports, start=1))
    text = (template or template_path()).read_text()
    return string.Template(text).substitute(
        ADDRESS=address, PORT=port, COOKIE=COOKIE, SERVERS=servers,
        MAXCONN=4000 + 200 * len(replica_ports), REPLICA_MAXCONN=2000)


def port_is_free(port: int, address: str = "127.0.0.1") -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((address, port))
        except OSError:
            return False
    return True


def _die_with_parent() -> None:
    """In the child before exec: its own process group, and SIGTERM when the parent dies (Linux)."""
    os.setsid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except OSError:
            pass


@dataclass
class Child:
    name: str
    argv: list[str]
    log: Path
    proc: subprocess.Popen | None = None
    restarts: int = 0
    started: float = field(default=0.0)

    def start(self, env: dict) -> None:
        out = open(self.log, "ab")  # noqa: SIM115 - the child keeps it; closed with the process
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                     env=env, cwd=str(app_dir()), preexec_fn=_die_with_parent)
        out.close()
        self.started = time.monotonic()

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal_group(self, sig: int) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, sig)  # the child is its group's leader (setsid)
        except ProcessLookupError:
            pass


def stop_all(children: list[Child], grace: float = 10.0) -> None:
    """SIGTERM to every child's process group, then SIGKILL to what is still there after `grace` s."""
    for c in children:
        if c.running():
            c.signal_group(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for c in children:
        if c.proc is None:
            continue
        try:
            c.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            c.signal_group(signal.SIGKILL)
            c.proc.wait()
        c.signal_group(signal.SIGKILL)  # anything the child itself left in its group


def wait_healthy(child: Child, url: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not child.running():
            return False
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return True
        except OSError:
            time.sleep(0.3)
    return False


def lan_address() -> str | None:
    """This machine's address on its network (the one a default route leaves from), for the
    students' link; None when there is no network. A UDP connect sends nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            address = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def parser() -> StrictParser:
    p = StrictParser(
        prog="scatter-explorer serve",
        description="Serve the app to a class: N Streamlit replicas behind HAProxy with sticky sessions. "
                    "Ctrl+C stops everything.",
        epilog=STREAMLIT_EPILOG + " They are passed to every replica (--server.port and --server.address "
                                  "excepted: serve sets them).")
    p.add_argument("--replicas", "-n", type=int, default=2, metavar="N",
                   help="Streamlit processes to start (about one per core; default 2)")
    p.add_argument("--port", type=int, default=8501, metavar="PORT", help="the public port browsers open (default 8501)")
    p.add_argument("--address", default="0.0.0.0", metavar="ADDRESS",
                   help="the address HAProxy listens on (default 0.0.0.0: every interface; "
                        "127.0.0.1 for this machine only)")
    p.add_argument("--replica-port", type=int, default=None, metavar="PORT",
                   help="the first replica's loopback port (default: --port + 1); they take consecutive ports")
    p.add_argument("--haproxy", default=None, metavar="PATH", help="the haproxy program (default: $HAPROXY, else haproxy on PATH)")
    p.add_argument("--no-restart", action="store_true", help="leave a replica that exits down instead of restarting it")
    p.add_argument("--app", default=None, help=argparse.SUPPRESS)  # tests: another Streamlit script
    p.add_argument("--workdir", default=None, metavar="DIR",
                   help="where the HAProxy config and the logs go (default: a new temporary directory)")
    p.add_argument("--parse-only", action="store_true", help=argparse.SUPPRESS)  # scripts/serve-class.sh
    return p


def parse(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """(serve's options, Streamlit's options for every replica); anything else exits with status 2."""
    options = parser()
    own, streamlit_options = split_streamlit(options, argv)
    args = options.parse_args(own)
    for option in ("--server.port", "--server.address"):
        if option in streamlit_options[::2]:
            options.error(f"{option} is set by serve for each replica; use --port, --address or --replica-port")
    return args, streamlit_options


def main(argv: list[str]) -> int:
    args, streamlit_options = parse(argv)
    if not 1 <= args.replicas <= MAX_REPLICAS:
        print(f"serve: --replicas must be between 1 and {MAX_REPLICAS}, not {args.replicas}", file=sys.stderr)
        return 2
    if args.parse_only:
        return 0
    haproxy = find_haproxy(args.haproxy)
    if haproxy is None:
        print(f"serve: {INSTALL_HINT}", file=sys.stderr)
        return 3
    first = args.replica_port or args.port + 1
    ports = list(range(first, first + args.replicas))
    if args.port in ports:
        print(f"serve: the replicas' ports {ports[0]}..{ports[-1]} include the public port {args.port}", file=sys.stderr)
        return 2
    busy = [p for p in ports if not port_is_free(p)] + ([args.port] if not port_is_free(args.port, args.address) else [])
    if busy:
        print(f"serve: port(s) {', '.join(map(str, busy))} already in use; choose others with --port "
              f"and --replica-port", file=sys.stderr)
        return 2
    entry = Path(args.app).resolve() if args.app else app_dir() / "app.py"
    work = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="scatter-serve-"))
    work.mkdir(parents=True, exist_ok=True)

    # One cookie secret for every replica: a cookie one replica signs, another accepts.
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false",
               STREAMLIT_SERVER_COOKIE_SECRET=os.environ.get("STREAMLIT_SERVER_COOKIE_SECRET") or secrets.token_hex(32))
    replicas = [Child(f"r{k}", [sys.executable, "-m", "streamlit", "run", str(entry),
                                "--server.headless", "true", "--server.address", "127.0.0.1",
                                "--server.port", str(p), "--server.fileWatcherType", "none",
                                "--server.runOnSave", "false", *streamlit_options],
                      work / f"replica-r{k}.log")
                for k, p in enumerate(ports, start=1)]
    cfg = work / "haproxy.cfg"
    cfg.write_text(render_config(ports, args.address, args.port))
    check = subprocess.run([haproxy, "-c", "-q", "-f", str(cfg)], capture_output=True, text=True)
    if check.returncode != 0:
        print(f"serve: HAProxy refused the config {cfg}:\n{check.stdout}{check.stderr}", file=sys.stderr)
        return 1
    balancer = Child("haproxy", [haproxy, "-db", "-f", str(cfg)], work / "haproxy.log")

    def on_signal(signum, frame):
        raise KeyboardInterrupt

    # SIGINT too: a shell that starts this in the background has it ignored, and Ctrl+C must work
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    try:
        print(f"serve: starting {len(replicas)} replica(s); logs and the HAProxy config in {work}", flush=True)
        for r in replicas:
            r.start(env)
        for r, p in zip(replicas, ports):
            if not wait_healthy(r, f"http://127.0.0.1:{p}", timeout=180):
                print(f"serve: replica {r.name} (port {p}) did not start; its log {r.log} ends:\n"
                      + r.log.read_text(errors="replace")[-1500:], file=sys.stderr)
                return 1
            print(f"serve: replica {r.name} on http://127.0.0.1:{p} (pid {r.proc.pid})", flush=True)
        balancer.start(env)
        time.sleep(0.5)
        if not balancer.running():
            print(f"serve: HAProxy exited at once; {balancer.log}:\n" + balancer.log.read_text(errors="replace"),
                  file=sys.stderr)
            return 1
        everywhere = args.address in ("0.0.0.0", "::")
        shown = "localhost" if everywhere or args.address == "127.0.0.1" else args.address
        lan = lan_address() if everywhere else None
        print(f"serve: HAProxy (pid {balancer.proc.pid}) on {args.address}:{args.port}. Open http://{shown}:{args.port}"
              + (f"; other machines: http://{lan}:{args.port}" if lan else
                 " (other machines: this machine's address)" if everywhere else ""), flush=True)
        print("serve: Ctrl+C stops everything.", flush=True)
        while True:
            time.sleep(1)
            if not balancer.running():
                print(f"serve: HAProxy exited ({balancer.proc.returncode}); stopping. See {balancer.log}", file=sys.stderr)
                return 1
            for r, p in zip(replicas, ports):
                if r.running() or r.proc is None:
                    continue
                code = r.proc.returncode
                r.signal_group(signal.SIGKILL)  # whatever it left in its group
                if args.no_restart:
                    print(f"serve: replica {r.name} exited ({code}); left down (--no-restart)", flush=True)
                    r.proc = None
                    continue
                if r.restarts >= 5 and time.monotonic() - r.started < 60:
                    print(f"serve: replica {r.name} keeps exiting ({code}); left down. See {r.log}", flush=True)
                    r.proc = None
                    continue
                r.restarts += 1
                print(f"serve: replica {r.name} exited ({code}); starting it again on port {p}", flush=True)
                r.start(env)
    except KeyboardInterrupt:
        print("\nserve: stopping HAProxy and the replicas ...", flush=True)
        return 0
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # a second Ctrl+C must not cut the clean-up short
            signal.signal(sig, signal.SIG_IGN)
        stop_all([balancer, *replicas])
        print("serve: stopped.", flush=True)
