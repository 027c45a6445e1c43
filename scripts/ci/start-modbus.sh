#!/usr/bin/env bash
# A throwaway Modbus TCP server for the modbus receiver's integration tests
# (electron/agent/receivers/modbus/*.integration.test.ts): Debian's pymodbus (3.0 in bookworm)
# holding the values of electron/testing/modbus/plant.json, two unit ids (1 and 2), on
#   127.0.0.1:5020
# Idempotent: exits 0 at once when it already answers. Tests that stop a server mid-read start a
# private one on a port of their own (electron/testing/modbus/pymodbus-server.ts), never this one.
# Options: --restart  stop the running server first
#          --stop     stop it and exit
# Debian packages: python3-pymodbus
set -euo pipefail

root=/tmp/tributary-modbus
port=5020
pidfile="$root/server.pid"
server="$(cd "$(dirname "$0")/../.." && pwd)/electron/testing/modbus/modbus-server.py"

running_pid() {
  local pid
  pid=$(cat "$pidfile" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}
# The port accepts a connection (bash's /dev/tcp: no client tool needed).
ready() {
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
}
stop() {
  local pid
  pid=$(running_pid || true)
  [ -z "$pid" ] && return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

case "${1:-}" in
  --stop) stop; exit 0 ;;
  --restart) stop ;;
  "") ;;
  *) echo "usage: $0 [--restart|--stop]" >&2; exit 2 ;;
esac

if running_pid >/dev/null && ready; then
  echo "modbus: already running on 127.0.0.1:$port"
  exit 0
fi
stop

mkdir -p "$root"
# /usr/bin/python3: Debian's interpreter, the one python3-pymodbus is installed for.
nohup /usr/bin/python3 "$server" --host 127.0.0.1 --port "$port" >"$root/server.log" 2>&1 &
echo $! >"$pidfile"

for _ in $(seq 1 100); do
  if ready; then
    echo "modbus: running on 127.0.0.1:$port (units 1 and 2, values of electron/testing/modbus/plant.json)"
    exit 0
  fi
  kill -0 "$(cat "$pidfile")" 2>/dev/null || break
  sleep 0.1
done
echo "modbus: did not start; see $root/server.log" >&2
tail -n 20 "$root/server.log" >&2 || true
exit 1
