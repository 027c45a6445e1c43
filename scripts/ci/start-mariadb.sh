#!/usr/bin/env bash
# A throwaway MariaDB for the SQL receiver tests (electron/agent/receivers/sql). Run as root.
# Idempotent: exits 0 at once when it already runs. Loopback only, on 127.0.0.1:53306, with its
# whole state under /tmp/tributary-mariadb:
#   database tributary_test, user tributary / tributary-my-pass (all rights on that database only)
#   no TLS (the tests use that to check the "server has no TLS" marker)
# The tests create and fill their own tables.
# Options: --restart  stop the running server first (tests use it for "database restarts")
#          --stop     stop it and exit
# Debian packages: mariadb-server mariadb-client
set -euo pipefail

root=/tmp/tributary-mariadb
data="$root/data"
port=53306
socket="$root/run/mysqld.sock"
pidfile="$root/run/mysqld.pid"

running_pid() {
  local pid
  pid=$(cat "$pidfile" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }
# root signs in through the socket (unix_socket authentication), so this needs root.
ready() { listening && mariadb-admin --no-defaults --socket="$socket" -u root --connect-timeout=1 ping >/dev/null 2>&1; }
stop() {
  local pid
  pid=$(running_pid || true)
  [ -z "$pid" ] && return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 300); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

command -v mariadbd >/dev/null || { echo "mariadb: mariadbd is not installed (apt-get install mariadb-server mariadb-client)" >&2; exit 1; }

case "${1:-}" in
  --stop) stop; exit 0 ;;
  --restart) stop ;;
  "") ;;
  *) echo "usage: $0 [--restart|--stop]" >&2; exit 2 ;;
esac

if [ -n "$(running_pid || true)" ] && ready; then
  echo "mariadb: already running on 127.0.0.1:$port"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "mariadb: run as root (the server runs as user mysql)" >&2
  exit 1
fi

if [ ! -d "$data/mysql" ]; then
  rm -rf "$root"
  mkdir -p "$data" "$root/run" "$root/log"
  chown -R mysql:mysql "$root"
  mariadb-install-db --no-defaults --user=mysql --datadir="$data" --auth-root-authentication-method=socket \
    --skip-test-db >"$root/log/install.log" 2>&1 || { cat "$root/log/install.log" >&2; exit 1; }
fi

setsid mariadbd --no-defaults --user=mysql --datadir="$data" --bind-address=127.0.0.1 --port="$port" \
  --socket="$socket" --pid-file="$pidfile" --log-error="$root/log/error.log" \
  --innodb-buffer-pool-size=32M --innodb-log-file-size=16M --innodb-flush-log-at-trx-commit=0 \
  --skip-name-resolve --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
  --max-connections=100 </dev/null >/dev/null 2>&1 &

for _ in $(seq 1 300); do
  ready && break
  sleep 0.1
done
ready || { echo "mariadb: did not start; see $root/log/error.log" >&2; tail -n 20 "$root/log/error.log" >&2; exit 1; }

# Idempotent: also repairs a data directory whose first start was interrupted.
mariadb --no-defaults --socket="$socket" -u root <<'SQL'
CREATE DATABASE IF NOT EXISTS tributary_test CHARACTER SET utf8mb4;
CREATE USER IF NOT EXISTS 'tributary'@'127.0.0.1' IDENTIFIED BY 'tributary-my-pass';
CREATE USER IF NOT EXISTS 'tributary'@'localhost' IDENTIFIED BY 'tributary-my-pass';
GRANT ALL PRIVILEGES ON tributary_test.* TO 'tributary'@'127.0.0.1';
GRANT ALL PRIVILEGES ON tributary_test.* TO 'tributary'@'localhost';
FLUSH PRIVILEGES;
SQL
echo "mariadb: running on 127.0.0.1:$port (data $data)"
