#!/usr/bin/env bash
# A throwaway PostgreSQL for the SQL receiver tests (electron/agent/receivers/sql). Run as root
# (or as the postgres user). Idempotent: exits 0 at once when it already runs. Loopback only, on
# 127.0.0.1:55432, with its whole state under /tmp/tributary-postgres:
#   database tributary_test, owned by user tributary / tributary-pg-pass (scram-sha-256 over TCP)
#   TLS on, with a self-signed certificate (CN=localhost) made here: clients may use ssl or not
# The tests create and fill their own tables.
# Options: --restart  stop the running server first (tests use it for "database restarts")
#          --stop     stop it and exit
# Any installed PostgreSQL version works (the newest is used).
# Debian packages: postgresql openssl
set -euo pipefail

root=/tmp/tributary-postgres
data="$root/data"
port=55432
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)

as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
ready() { "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" -t 1 >/dev/null 2>&1; }
stop() {
  [ -f "$data/postmaster.pid" ] || return 0
  as_postgres "$bin/pg_ctl" -D "$data" -m fast -w -t 30 stop >/dev/null 2>&1 || true
}

[ -n "$bin" ] || { echo "postgres: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }

case "${1:-}" in
  --stop) stop; exit 0 ;;
  --restart) stop ;;
  "") ;;
  *) echo "usage: $0 [--restart|--stop]" >&2; exit 2 ;;
esac

if ready; then
  echo "postgres: already running on 127.0.0.1:$port"
  exit 0
fi

if [ ! -s "$data/PG_VERSION" ]; then
  rm -rf "$root"
  mkdir -p "$data" "$root/run"
  [ "$(id -u)" -eq 0 ] && chown -R postgres:postgres "$root"
  chmod 0700 "$data"
  pwfile=$(mktemp)
  echo "postgres-superuser-unused" >"$pwfile"
  chmod 0644 "$pwfile"
  as_postgres "$bin/initdb" -D "$data" -U postgres --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >"$root/initdb.log" 2>&1 || { cat "$root/initdb.log" >&2; rm -f "$pwfile"; exit 1; }
  rm -f "$pwfile"
  as_postgres openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=localhost \
    -keyout "$data/server.key" -out "$data/server.crt" >/dev/null 2>&1
  chmod 0600 "$data/server.key"
  cat >>"$data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$root/run'
ssl = on
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
max_connections = 60
shared_buffers = 32MB
fsync = off
synchronous_commit = off
full_page_writes = off
log_min_messages = warning
CONF
  fresh=1
fi

as_postgres "$bin/pg_ctl" -D "$data" -l "$root/server.log" -w -t 60 start >/dev/null || { tail -n 20 "$root/server.log" >&2; exit 1; }

if [ "${fresh:-0}" = 1 ] || ! as_postgres "$bin/psql" -h "$root/run" -p "$port" -U postgres -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'tributary'" | grep -q 1; then
  as_postgres "$bin/psql" -q -h "$root/run" -p "$port" -U postgres -v ON_ERROR_STOP=1 <<'SQL'
CREATE ROLE tributary LOGIN PASSWORD 'tributary-pg-pass';
CREATE DATABASE tributary_test OWNER tributary;
SQL
fi

for _ in $(seq 1 100); do
  if ready; then
    echo "postgres: running on 127.0.0.1:$port (data $data)"
    exit 0
  fi
  sleep 0.1
done
echo "postgres: did not start; see $root/server.log" >&2
exit 1
