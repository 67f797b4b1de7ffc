#!/usr/bin/env bash
# Run the app: make a virtual environment in .venv, install the package into it, start Streamlit.
# It does exactly: python3 -m venv .venv && . .venv/bin/activate && pip install -e . && streamlit run app.py
# (plus a hint when python3 can't make a venv). Arguments go to `streamlit run`, e.g.
#   bash scripts/run-app.sh --server.port 8502
# Then open http://localhost:8501 (the port Streamlit prints); Ctrl+C in this terminal stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -m venv .venv; then
  echo "run-app: 'python3 -m venv .venv' failed. On Debian or Ubuntu install the venv module first:" >&2
  echo "  sudo apt-get install python3-venv" >&2
  exit 1
fi
. .venv/bin/activate
pip install -e .
exec streamlit run app.py "$@"
