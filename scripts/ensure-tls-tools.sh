#!/usr/bin/env bash
# Installs what the TLS end-to-end tests run: Debian's caddy (the TLS proxy of deploy/Caddyfile),
# pebble (Let's Encrypt's test CA, which issues the certificates offline) and openssl (which makes
# Pebble's own listener certificate). Idempotent: when all are there it only reports their versions.
set -euo pipefail

missing=()
command -v caddy >/dev/null 2>&1 || missing+=(caddy)
command -v pebble >/dev/null 2>&1 || missing+=(pebble)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)

if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      SUDO="sudo"
    else
      echo "ensure-tls-tools: ${missing[*]} missing and installing needs root (apt-get install -y ${missing[*]})" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # Debian starts a caddy service on port 80 where systemd runs; the tests start their own Caddy.
  if [[ " ${missing[*]} " == *" caddy "* ]] && command -v systemctl >/dev/null 2>&1 &&
    systemctl is-active --quiet caddy 2>/dev/null; then
    $SUDO systemctl disable --now caddy >/dev/null 2>&1 || true
  fi
fi

echo "caddy $(caddy version)"
echo "pebble $(dpkg-query -W -f='${Version}' pebble 2>/dev/null || echo present at "$(command -v pebble)")"
openssl version
