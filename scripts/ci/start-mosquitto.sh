#!/usr/bin/env bash
# A throwaway Mosquitto MQTT broker for the mqtt receiver and transmit tests (electron/agent/mqtt,
# receivers/mqtt, transmits/mqtt) and the MQTT bench. Run as root. Idempotent: exits 0 at once when
# it already runs. Loopback only, with its whole state under /tmp/tributary-mosquitto:
#   127.0.0.1:51883  plain MQTT (3.1.1 and 5)
#   127.0.0.1:58883  MQTT over TLS; the server certificate (CN=localhost, SAN localhost and
#                    127.0.0.1) is signed by a throwaway CA made here: ca.crt. A client that does
#                    not trust ca.crt must refuse the broker.
#   no anonymous access; password file with
#     tributary / tributary-mqtt-pass  : read and write on every topic
#     limited   / tributary-mqtt-limited : read and write only below allowed/ (anything else is
#                                          "not authorized")
#   persistence on (sessions and queued messages survive a restart), queues unbounded
# Tests that stop the broker mid-stream start a private broker with the same files on a port of
# their own (electron/testing/mqtt-broker.ts), so they never disturb this one.
# Options: --restart  stop the running broker first
#          --stop     stop it and exit
# scripts/start-services.sh installs the packages when missing.
# Debian packages: mosquitto mosquitto-clients openssl
set -euo pipefail

root=/tmp/tributary-mosquitto
port=51883
tls_port=58883
conf="$root/mosquitto.conf"
pidfile="$root/mosquitto.pid"

running_pid() {
  local pid
  pid=$(cat "$pidfile" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}
# A real round trip with the test user: the broker listens and checks passwords.
ready() {
  mosquitto_pub -h 127.0.0.1 -p "$port" -u tributary -P tributary-mqtt-pass -t tributary/health -m ok -q 1 >/dev/null 2>&1
}
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

# mosquitto itself is in /usr/sbin, which a non-login root shell may lack.
case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH="$PATH:/usr/sbin" ;; esac

case "${1:-}" in
  --stop) stop; exit 0 ;;
  --restart) stop ;;
  "") ;;
  *) echo "usage: $0 [--restart|--stop]" >&2; exit 2 ;;
esac

if running_pid >/dev/null && ready; then
  echo "mosquitto: already running on 127.0.0.1:$port (TLS $tls_port)"
  exit 0
fi
stop

mkdir -p "$root/data"
if [ ! -s "$root/server.crt" ] || [ ! -s "$root/ca.crt" ]; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=Tributary test CA" \
    -keyout "$root/ca.key" -out "$root/ca.crt" >/dev/null 2>&1
  openssl req -newkey rsa:2048 -nodes -subj /CN=localhost -keyout "$root/server.key" -out "$root/server.csr" >/dev/null 2>&1
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$root/server.ext"
  openssl x509 -req -in "$root/server.csr" -CA "$root/ca.crt" -CAkey "$root/ca.key" -CAcreateserial -days 3650 \
    -extfile "$root/server.ext" -out "$root/server.crt" >/dev/null 2>&1
  rm -f "$root/server.csr" "$root/server.ext"
fi

# Written every time: the users and rules are part of what the tests rely on.
: >"$root/passwd"
mosquitto_passwd -b "$root/passwd" tributary tributary-mqtt-pass
mosquitto_passwd -b "$root/passwd" limited tributary-mqtt-limited
cat >"$root/acl" <<'ACL'
user tributary
topic readwrite #

user limited
topic readwrite allowed/#
ACL
chmod 0600 "$root/passwd" "$root/acl" "$root/ca.key" "$root/server.key"
chmod 0644 "$root/ca.crt" "$root/server.crt"

# The settings a private broker (tests) shares with include_dir; it adds its own listeners, pid file
# and data folder.
mkdir -p "$root/conf.d"
cat >"$root/conf.d/common.conf" <<CONF
per_listener_settings false
allow_anonymous false
password_file $root/passwd
acl_file $root/acl
persistence true
autosave_interval 1
max_queued_messages 0
max_queued_bytes 0
log_type error
log_type warning
log_type notice
connection_messages true
CONF

cat >"$conf" <<CONF
# Stays root: the state folder is root's and this broker is a throwaway on loopback.
user root
pid_file $pidfile
persistence_location $root/data/
log_dest file $root/mosquitto.log
include_dir $root/conf.d
listener $port 127.0.0.1
listener $tls_port 127.0.0.1
cafile $root/ca.crt
certfile $root/server.crt
keyfile $root/server.key
CONF

mosquitto -c "$conf" -d 2>"$root/start.log" || { cat "$root/start.log" >&2; tail -n 20 "$root/mosquitto.log" >&2 || true; exit 1; }

for _ in $(seq 1 100); do
  if ready; then
    echo "mosquitto: running on 127.0.0.1:$port (TLS $tls_port, CA $root/ca.crt)"
    exit 0
  fi
  sleep 0.1
done
echo "mosquitto: did not start; see $root/mosquitto.log" >&2
exit 1
