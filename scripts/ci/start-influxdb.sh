#!/usr/bin/env bash
# A throwaway InfluxDB 1.x (Debian's influxdb) for the influxdb transmit tests
# (electron/agent/transmits/influxdb). Run as root. Idempotent: exits 0 at once when it already runs.
# Loopback only, its whole state under /tmp/tributary-influxdb:
#   http://127.0.0.1:58086   the HTTP API (/write, /query, /ping), no authentication
# The Debian package's own service (port 8086) is not used.
# Options: --restart  stop the running server first (tests use it for "the database restarts")
#          --stop     stop it and exit
# Debian packages: influxdb curl
set -euo pipefail

root=/tmp/tributary-influxdb
port=58086
pidfile="$root/influxd.pid"

running_pid() {
  local pid
  pid=$(cat "$pidfile" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}
ready() { curl -sf "http://127.0.0.1:$port/ping" >/dev/null 2>&1; }
stop() {
  local pid
  pid=$(running_pid || true)
  [ -z "$pid" ] && return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
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
  echo "influxdb: already running on 127.0.0.1:$port"
  exit 0
fi
command -v influxd >/dev/null || { echo "influxdb: influxd is not installed (apt-get install influxdb)" >&2; exit 1; }
mkdir -p "$root"/{meta,data,wal}
cat >"$root/influxdb.conf" <<CONF
reporting-disabled = true
bind-address = "127.0.0.1:58088"
[meta]
  dir = "$root/meta"
[data]
  dir = "$root/data"
  wal-dir = "$root/wal"
  query-log-enabled = false
[http]
  enabled = true
  bind-address = "127.0.0.1:$port"
  auth-enabled = false
  log-enabled = false
[monitor]
  store-enabled = false
[continuous_queries]
  enabled = false
CONF
nohup influxd -config "$root/influxdb.conf" >"$root/influxd.log" 2>&1 &
echo $! >"$pidfile"
for _ in $(seq 1 200); do
  if ready; then
    echo "influxdb: running on 127.0.0.1:$port (state $root)"
    exit 0
  fi
  sleep 0.1
done
echo "influxdb: did not answer on 127.0.0.1:$port; see $root/influxd.log" >&2
exit 1
