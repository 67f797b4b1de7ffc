#!/usr/bin/env bash
# Serve the app to a class: N Streamlit replicas behind HAProxy (Debian's package) with sticky
# sessions, on one public port. Run it in a clone of this repository:
#   bash scripts/serve-class.sh 2                 # 2 replicas, http://<this machine>:8501
#   bash scripts/serve-class.sh 4 --port 8080     # 4 replicas on port 8080
#   bash scripts/serve-class.sh 2 --address 127.0.0.1   # this machine only
# It makes .venv and installs the app into it (as scripts/run-app.sh does), then runs
#   .venv/bin/scatter-explorer serve --replicas N [options]
# (scatter_explorer/serve.py; `--help` lists the options). One Ctrl+C stops everything.
# About one replica per core; README.md, "A class at once", says what one replica holds.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: bash scripts/serve-class.sh N [--port 8501] [--address 0.0.0.0] [--replica-port P]" >&2
  echo "  N: how many Streamlit replicas to start (about one per core)" >&2
  exit 2
fi
replicas="$1"; shift
if [ -z "${HAPROXY:-}" ] && ! command -v haproxy >/dev/null && [ ! -x /usr/sbin/haproxy ]; then
  echo "serve-class: HAProxy is not installed. Install it, then run this again:" >&2
  echo "  Debian or Ubuntu: sudo apt-get install haproxy" >&2
  echo "  Fedora: sudo dnf install haproxy      macOS: brew install haproxy" >&2
  echo "  (or set HAPROXY=/path/to/haproxy)" >&2
  exit 3
fi
VENV="${VENV:-.venv}"
if [ ! -x "$VENV/bin/python" ] && ! python3 -m venv "$VENV"; then
  echo "serve-class: 'python3 -m venv $VENV' failed. On Debian or Ubuntu install the venv module first:" >&2
  echo "  sudo apt-get install python3-venv" >&2
  exit 1
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e .
exec "$VENV/bin/python" -m scatter_explorer.cli serve --replicas "$replicas" "$@"
