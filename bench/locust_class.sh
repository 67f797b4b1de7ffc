#!/usr/bin/env bash
# A class stepping against one server pinned to one core (issue #35 §5): the app on core 0, Locust on core 1.
# Usage: bash bench/locust_class.sh [USERS=30] [SECONDS=60] [PORT=8599]   (PYTHON: the venv's python)
# Starts `streamlit run app.py` under `taskset -c 0`, opens one page to warm it, runs bench/locust_steps.py
# headless under `taskset -c 1`, prints Locust's table, the steps' p50/p95/max and lost count, and the
# server's CPU seconds over the run; stops the server. STEPS_JSON=file also writes the figures as JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
users=${1:-30}; secs=${2:-60}; port=${3:-8599}
py=${PYTHON:-.venv/bin/python}
log=$(mktemp -t locust-class-server.XXXXXX)
STREAMLIT_BROWSER_GATHER_USAGE_STATS=false taskset -c 0 "$py" -m streamlit run app.py --server.headless true \
  --server.port "$port" --server.address 127.0.0.1 --server.fileWatcherType none >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 120); do
  curl -fs "http://127.0.0.1:$port/_stcore/health" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { echo "the server exited:"; tail -20 "$log"; exit 1; }
  sleep 0.5
done
PYTHONPATH=$PWD "$py" -c "from devtools.protocol import StreamSession as S; s = S('http://127.0.0.1:$port'); \
s.open('/elements?op=Scatter-9&example=onnx-scatter-9-example-1'); s.step(1); s.close()"
cpu() { awk '{print ($14 + $15) / 100}' "/proc/$1/stat" 2>/dev/null; }  # utime + stime, at 100 ticks a second
before=$(cpu "$server")
taskset -c 1 "$py" -m locust -f bench/locust_steps.py --headless -u "$users" -r 10 -t "${secs}s" \
  -H "http://127.0.0.1:$port" --only-summary --loglevel WARNING &
locust=$!
used=0
while kill -0 "$locust" 2>/dev/null; do used=$(cpu "$locust" || echo "$used"); after=$(cpu "$server"); sleep 1; done
status=0
wait "$locust" || status=$?
echo "server CPU during the run: $(awk -v a="$before" -v b="$after" 'BEGIN {printf "%.1f", b - a}') s in ${secs} s (core 0)"
echo "Locust's CPU: ${used} s (core 1; the load generator itself, at most the last second unseen)"
exit "$status"
