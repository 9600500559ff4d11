#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests of the documentation page. Idempotent: when
# /usr/bin/chromium is already there it only reports its version. Playwright never downloads a browser
# in this project; the tests launch this one.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  /usr/bin/chromium --version 2>/dev/null || echo "chromium present at /usr/bin/chromium"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "ensure-chromium: /usr/bin/chromium is missing and installing it needs root (apt-get install -y chromium)" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
/usr/bin/chromium --version
