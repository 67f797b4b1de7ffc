#!/usr/bin/env bash
# Installs everything the test suite needs, from this project's own files:
# the package with its test and runtimes extras, and Debian's chromium for the
# browser tests (playwright drives /usr/bin/chromium; it never downloads a browser).
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --disable-pip-version-check -e ".[test,runtimes,frameworks]"
if [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi
