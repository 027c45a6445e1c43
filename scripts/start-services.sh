#!/usr/bin/env bash
# `npm run services`: what the integration and end-to-end tests need on this machine, on loopback.
# Every script in scripts/ci/ names the Debian packages it needs on one line,
#   # Debian packages: <package> <package> …
# First those that are missing are installed (as root; `apt-get update` once, and only when
# something is missing), then each script runs: start-<service>.sh starts a throwaway server
# (idempotent), test-tools.sh checks the tools the tests call. Adding a service is one file:
# scripts/ci/start-<service>.sh with its packages line.
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")"
scripts=(ci/*.sh)

installed() { [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = "installed" ]; }

missing=()
for package in $(sed -n 's/^# Debian packages: //p' "${scripts[@]}" | tr ' ' '\n' | sort -u); do
  installed "$package" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "services: these Debian packages are missing: ${missing[*]}. Run npm run services as root (it installs them), or: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "=== apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

for script in "${scripts[@]}"; do
  echo "=== $script"
  bash "$script"
done
