#!/usr/bin/env bash
# Installs everything the test suite needs, from this project's own files:
#  1. a virtual environment in .venv (made with python3 unless it exists; VENV=dir and
#     PYTHON=interpreter choose others, e.g. PYTHON=python3.13 VENV=.venv-newest);
#  2. into it, the package with its test, runtimes and frameworks extras (Python 3.11+), the runtimes
#     held to the versions the runtime facts were verified on (constraints/verified.txt), so that the
#     differential tests run on exactly those on a fresh machine;
#  3. a Chromium for the browser tests, which Playwright drives (it never downloads one here):
#     $CHROMIUM if set; else Debian's /usr/bin/chromium, installed with apt-get on Debian and
#     Ubuntu or dnf on Fedora (root or sudo); on macOS an installed Chromium or Google Chrome,
#     else Playwright's own Chromium. The browser used is recorded in $VENV/chromium-path,
#     where the tests look for it (tests/support/browser_support.py); $CHROMIUM overrides it;
#  4. Node.js (Debian's nodejs when node is missing), for the step player's unit tests (tests/ui/js);
#  5. axe-core (pinned, from npm) into ./node_modules (git-ignored), for the accessibility audit
#     (tests/browser/test_browser_axe.py); it needs npm (Debian and Ubuntu: sudo apt-get install npm).
# It says what it could not install. Without a browser the browser tests skip, and without axe-core
# the audit skips (both fail under CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
PYTHON="${PYTHON:-python3}"

if [ ! -x "$VENV/bin/python" ]; then
  if ! "$PYTHON" -m venv "$VENV"; then
    echo "install-test-deps: '$PYTHON -m venv $VENV' failed. On Debian or Ubuntu: sudo apt-get install python3-venv" >&2
    exit 1
  fi
fi
if ! "$VENV/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "install-test-deps: the test suite needs Python 3.11 or newer; $VENV has $("$VENV/bin/python" -V 2>&1)." >&2
  echo "  It installs onnxruntime 1.31.1, the version the runtime facts were verified on (constraints/verified.txt)," >&2
  echo "  and onnxruntime 1.31.1 has no wheel for Python 3.10 (nor has jaxlib 0.10.2, the frameworks" >&2
  echo "  extra's pin). The app itself runs on 3.10." >&2
  echo "  Use a newer interpreter, e.g.: PYTHON=python3.11 VENV=.venv-tests bash scripts/install-test-deps.sh" >&2
  exit 1
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -c constraints/verified.txt \
  -e ".[test,runtimes,frameworks]"

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
# install_package APT DNF BREW: the system's package of that name (Debian and Ubuntu, Fedora, macOS), quietly;
# what could not be installed is said by the caller, which looks for the program afterwards
install_package() {
  if [ "$(uname -s)" = "Linux" ] && command -v apt-get >/dev/null; then
    $SUDO apt-get update -qq || true
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null || true
  elif [ "$(uname -s)" = "Linux" ] && command -v dnf >/dev/null; then
    $SUDO dnf install -y -q "$2" || true
  elif [ "$(uname -s)" = "Darwin" ] && command -v brew >/dev/null; then
    brew install "$3" || true
  fi
}
found=""
why="this system has no apt-get or dnf and is not macOS"
if [ -n "${CHROMIUM:-}" ]; then
  if [ -x "$CHROMIUM" ]; then found="$CHROMIUM"; else
    why="CHROMIUM=$CHROMIUM is not an executable file; nothing was installed in its place"
  fi
elif [ -x /usr/bin/chromium ]; then
  found=/usr/bin/chromium
elif [ "$(uname -s)" = "Linux" ] && command -v apt-get >/dev/null; then
  $SUDO apt-get update -qq || true
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null ||
    why="apt-get could not install chromium"
  for b in /usr/bin/chromium /usr/bin/chromium-browser; do if [ -x "$b" ]; then found="$b"; break; fi; done
elif [ "$(uname -s)" = "Linux" ] && command -v dnf >/dev/null; then
  $SUDO dnf install -y -q chromium dejavu-sans-fonts || why="dnf could not install chromium"
  for b in /usr/bin/chromium-browser /usr/bin/chromium; do if [ -x "$b" ]; then found="$b"; break; fi; done
elif [ "$(uname -s)" = "Darwin" ]; then
  for b in "/Applications/Chromium.app/Contents/MacOS/Chromium" \
           "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"; do
    if [ -x "$b" ]; then found="$b"; break; fi
  done
  if [ -z "$found" ]; then
    if "$VENV/bin/python" -m playwright install chromium; then
      found="$("$VENV/bin/python" -c 'from playwright.sync_api import sync_playwright
with sync_playwright() as p: print(p.chromium.executable_path)')"
    else
      why="no Chromium or Chrome in /Applications, and 'playwright install chromium' failed"
    fi
  fi
fi
if [ -n "$found" ] && [ -x "$found" ]; then
  printf '%s\n' "$found" > "$VENV/chromium-path"
  echo "install-test-deps: browser tests will use $found"
else
  rm -f "$VENV/chromium-path"
  echo "install-test-deps: no Chromium for the browser tests: $why." >&2
  echo "  The browser tests will skip (and fail under CI=true). Install Chromium or Chrome and set" >&2
  echo "  CHROMIUM=/path/to/the/browser before running this script and the tests." >&2
fi

# HAProxy, for the class-serving tests (tests/project/test_deploy.py; scatter-explorer serve): the
# haproxy on PATH or in /usr/sbin, else Debian's package with apt-get (dnf on Fedora, brew on
# macOS). Recorded in $VENV/haproxy-path, where the tests look for it; $HAPROXY overrides it.
# Without it those tests skip (and fail under CI=true).
haproxy_found=""
for b in "${HAPROXY:-}" "$(command -v haproxy || true)" /usr/sbin/haproxy /usr/local/sbin/haproxy; do
  if [ -n "$b" ] && [ -x "$b" ]; then haproxy_found="$b"; break; fi
done
if [ -z "$haproxy_found" ]; then
  install_package haproxy haproxy haproxy
  for b in "$(command -v haproxy || true)" /usr/sbin/haproxy /usr/local/sbin/haproxy /opt/homebrew/bin/haproxy; do
    if [ -n "$b" ] && [ -x "$b" ]; then haproxy_found="$b"; break; fi
  done
fi
if [ -n "$haproxy_found" ]; then
  printf '%s\n' "$haproxy_found" > "$VENV/haproxy-path"
  echo "install-test-deps: the class-serving tests will use $haproxy_found ($("$haproxy_found" -v 2>/dev/null | head -1))"
else
  rm -f "$VENV/haproxy-path"
  echo "install-test-deps: no HAProxy for the class-serving tests (apt-get install haproxy failed or is" >&2
  echo "  not available here). Those tests will skip (and fail under CI=true). Install haproxy, or set" >&2
  echo "  HAPROXY=/path/to/haproxy before running this script and the tests." >&2
fi

# PostgreSQL, for the class store's tests on a real server (tests/practice/test_classroom.py starts a throwaway
# cluster with initdb and pg_ctl; as root it runs them as the package's postgres user): Debian's
# postgresql with apt-get (its binaries in /usr/lib/postgresql/<version>/bin; the package's own cluster
# is not used), dnf's postgresql-server on Fedora, brew's postgresql on macOS. $PG_BIN overrides.
# Without it those tests skip (and fail under CI=true).
pg_found="${PG_BIN:-}"
if [ -z "$pg_found" ]; then pg_found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"; fi
if [ -z "$pg_found" ] && command -v initdb >/dev/null; then pg_found="$(dirname "$(command -v initdb)")"; fi
if [ -z "$pg_found" ]; then
  install_package postgresql postgresql-server postgresql
  pg_found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
  if [ -z "$pg_found" ] && command -v initdb >/dev/null; then pg_found="$(dirname "$(command -v initdb)")"; fi
fi
if [ -n "$pg_found" ] && [ -x "$pg_found/pg_ctl" ]; then
  echo "install-test-deps: the class store's PostgreSQL tests will use $pg_found"
else
  echo "install-test-deps: no PostgreSQL for the class store's tests (apt-get install postgresql failed or" >&2
  echo "  is not available here). Those tests will skip (and fail under CI=true). Install it, or set" >&2
  echo "  PG_BIN=/path/to/postgresql/bin before running the tests." >&2
fi

# Node.js 18 or newer, for the step player's unit tests (tests/ui/js/*.test.mjs under node --test, run by
# tests/ui/test_player_js.py) and its contract check: Debian's nodejs with apt-get (dnf on Fedora, brew on macOS)
# when node is missing. Without it those tests skip (and fail under CI=true).
if ! command -v node >/dev/null; then
  install_package nodejs nodejs node
fi
if command -v node >/dev/null; then
  echo "install-test-deps: the player's unit tests will use node $(node --version)"
else
  echo "install-test-deps: no Node.js for the player's unit tests (apt-get install nodejs failed or is not" >&2
  echo "  available here). tests/ui/test_player_js.py will skip (and fail under CI=true). Install Node.js 18 or newer." >&2
fi

AXE_VERSION="4.14.1"
if ! command -v npm >/dev/null && [ "$(uname -s)" = "Linux" ] && command -v apt-get >/dev/null; then
  $SUDO apt-get update -qq || true
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null || true
fi
if ! command -v npm >/dev/null; then
  echo "install-test-deps: npm is missing, so axe-core $AXE_VERSION (the accessibility audit's engine) was not installed." >&2
  echo "  Install Node.js and npm (Debian or Ubuntu: sudo apt-get install npm; macOS: brew install node) and run" >&2
  echo "  this script again. Until then tests/browser/test_browser_axe.py skips (and fails under CI=true)." >&2
  exit 1
fi
npm install --prefix . --no-save --no-package-lock --no-audit --no-fund --silent "axe-core@$AXE_VERSION"
echo "install-test-deps: axe-core $AXE_VERSION is in node_modules/axe-core"
