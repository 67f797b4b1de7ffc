#!/usr/bin/env bash
# Serve the app to a class: N Streamlit replicas behind HAProxy (Debian's package) with sticky
# sessions, on one public port. Run it in a clone of this repository:
#   bash scripts/serve-class.sh 2                 # 2 replicas, http://<this machine>:8501
#   bash scripts/serve-class.sh 4 --port 8080     # 4 replicas on port 8080
#   bash scripts/serve-class.sh 2 --address 127.0.0.1   # this machine only
# It makes .venv and installs the app into it (as scripts/run-app.sh does), then runs
#   .venv/bin/scatter-explorer serve --replicas N [options]
# (scatter_explorer/serve.py; `--help` lists the options). A word it does not take stops it with status 2
# before anything is installed or started. One Ctrl+C stops everything.
# About one replica per core; docs/deploy.md, "A class at once", says what one replica holds.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
usage="usage: bash scripts/serve-class.sh N [--port 8501] [--address 0.0.0.0] [--replica-port P] [--haproxy PATH] [--no-restart] [--workdir DIR] [--section.option VALUE ...]"
# The words are checked by serve's own parser before anything is installed or started: the venv's Python when
# there is one, else the system's (Streamlit's option names are then checked by the venv's run itself).
check_python="$VENV/bin/python"
[ -x "$check_python" ] || check_python="$(command -v python3 || true)"
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  echo "$usage"
  echo "  N: how many Streamlit replicas to start (about one per core)"
  if [ -n "$check_python" ]; then
    echo
    PYTHONPATH="$PWD" "$check_python" -m scatter_explorer.cli serve --help | sed -n '/^options:/,$p'
  fi
  exit 0
fi
if [ "$#" -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  [ "$#" -ge 1 ] && echo "serve-class: the first word must be N, how many replicas to start, not '$1'" >&2
  echo "$usage" >&2
  echo "  N: how many Streamlit replicas to start (about one per core); --help says more" >&2
  exit 2
fi
replicas="$1"; shift
if [ -n "$check_python" ]; then
  PYTHONPATH="$PWD" "$check_python" -m scatter_explorer.cli serve --parse-only --replicas "$replicas" "$@" \
    || exit $?
fi
if [ -z "${HAPROXY:-}" ] && ! command -v haproxy >/dev/null && [ ! -x /usr/sbin/haproxy ]; then
  echo "serve-class: HAProxy is not installed. Install it, then run this again:" >&2
  echo "  Debian or Ubuntu: sudo apt-get install haproxy" >&2
  echo "  Fedora: sudo dnf install haproxy      macOS: brew install haproxy" >&2
  echo "  (or set HAPROXY=/path/to/haproxy)" >&2
  exit 3
fi
if [ ! -x "$VENV/bin/python" ] && ! python3 -m venv "$VENV"; then
  echo "serve-class: 'python3 -m venv $VENV' failed. On Debian or Ubuntu install the venv module first:" >&2
  echo "  sudo apt-get install python3-venv" >&2
  exit 1
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e .
exec "$VENV/bin/python" -m scatter_explorer.cli serve --replicas "$replicas" "$@"
