#!/usr/bin/env bash
# A throwaway Samba server for the SMB receiver tests (electron/agent/receivers/smb). Run as root.
# Idempotent: exits 0 at once when it already runs. Loopback only, on port 4445 (not 445), with its
# whole state under /tmp/tributary-samba:
#   share "data"     → /tmp/tributary-samba/data (mode 0777: tests drop files there directly)
#                      user tributary     / tributary-smb-pass : read and write
#                      user tributary_ro  / tributary-ro-pass  : read only (delete is refused)
#   share "private"  → /tmp/tributary-samba/private-share, only for user tributary
# Options: --restart  stop the running smbd first (tests use it for "server restart mid-read")
#          --stop     stop it and exit
# Debian packages: samba smbclient
set -euo pipefail

root=/tmp/tributary-samba
port=4445
conf="$root/smb.conf"
pidfile="$root/run/smbd.pid"

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }
running_pid() {
  local pid
  pid=$(cat "$pidfile" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}
stop() {
  local pid
  pid=$(running_pid || true)
  [ -z "$pid" ] && return 0
  # smbd -D leads its own process group: end the parent and the children serving connections.
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do
    listening || return 0
    sleep 0.1
  done
}

case "${1:-}" in
  --stop) stop; exit 0 ;;
  --restart) stop ;;
  "") ;;
  *) echo "usage: $0 [--restart|--stop]" >&2; exit 2 ;;
esac

if [ -n "$(running_pid || true)" ] && listening; then
  echo "samba: already running on 127.0.0.1:$port"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "samba: run as root (creates users, starts smbd)" >&2
  exit 1
fi
command -v smbd >/dev/null || { echo "samba: smbd is not installed (apt-get install samba smbclient)" >&2; exit 1; }

mkdir -p "$root"/{private,lock,state,cache,run,ncalrpc,log,data,private-share}
chmod 0755 "$root"
chmod 0777 "$root/data" "$root/private-share"
chmod 0700 "$root/private"

cat >"$conf" <<CONF
[global]
  workgroup = TRIBUTARY
  server role = standalone server
  smb ports = $port
  interfaces = 127.0.0.1
  bind interfaces only = yes
  disable netbios = yes
  server min protocol = SMB2_02
  ntlm auth = ntlmv2-only
  map to guest = never
  passdb backend = tdbsam:$root/private/passdb.tdb
  private dir = $root/private
  lock directory = $root/lock
  state directory = $root/state
  cache directory = $root/cache
  pid directory = $root/run
  ncalrpc dir = $root/ncalrpc
  log file = $root/log/smbd.log
  max log size = 1000
  log level = 1
  load printers = no
  printing = bsd
  printcap name = /dev/null
  disable spoolss = yes

[data]
  path = $root/data
  read only = no
  valid users = tributary tributary_ro
  read list = tributary_ro
  create mask = 0666
  directory mask = 0777

[private]
  path = $root/private-share
  read only = no
  valid users = tributary
CONF

add_user() {
  local name=$1 password=$2
  id -u "$name" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$name"
  printf '%s\n%s\n' "$password" "$password" | smbpasswd -c "$conf" -s -a "$name" >/dev/null
  smbpasswd -c "$conf" -e "$name" >/dev/null
}
add_user tributary tributary-smb-pass
add_user tributary_ro tributary-ro-pass

smbd -D -s "$conf"
for _ in $(seq 1 100); do
  if listening; then
    echo "samba: smbd running on 127.0.0.1:$port (config $conf)"
    exit 0
  fi
  sleep 0.1
done
echo "samba: smbd did not start; see $root/log/smbd.log" >&2
tail -n 20 "$root/log/smbd.log" >&2 || true
exit 1
