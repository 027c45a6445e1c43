#!/bin/sh
# /usr/bin/tributary: the agent's command, run with the package's own Node (no system Node needed).
export TRIBUTARY_DATA_DIR="${TRIBUTARY_DATA_DIR:-/var/lib/tributary}"
exec /usr/lib/tributary/node /usr/lib/tributary/app/dist/electron/cli.js "$@"
