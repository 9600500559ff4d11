#!/usr/bin/env bash
# Installs what the load benchmarks (npm run bench, npm run bench:peers) drive the servers with: wrk
# (the load generator) and taskset (util-linux, which pins servers and wrk to their cores). Debian
# packages; idempotent: when both are there it only reports their versions.
set -euo pipefail

missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v taskset >/dev/null 2>&1 || missing+=(util-linux)

if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      SUDO="sudo"
    else
      echo "ensure-bench-tools: ${missing[*]} missing and installing needs root (apt-get install -y ${missing[*]})" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

wrk --version 2>&1 | head -n 1 || true
taskset -V
