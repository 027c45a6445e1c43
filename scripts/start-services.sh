#!/usr/bin/env bash
# Starts the throwaway database and file servers the tests use, on loopback (see scripts/ci/).
# Idempotent; run as root. `npm run services` calls it; .ci/run too.
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")"
for script in ci/start-*.sh; do
  echo "=== $script"
  bash "$script"
done
