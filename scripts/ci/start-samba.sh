#!/usr/bin/env bash
# Throwaway Samba servers for the SMB receiver tests (electron/agent/receivers/smb). Run as root.
# Idempotent: a server that runs with the current configuration is left alone; one whose
# configuration this script changed is told to reload it. Loopback only, state under /tmp:
#
# "plain" on port 4445, /tmp/tributary-samba (SMB 2.0.2 to 3.1.1, signing and encryption optional):
#   share "data"     → /tmp/tributary-samba/data (mode 0777: tests drop files there directly)
#                      user smbtest       / tributary-smb-pass : read and write
#                      user smbtest_ro    / tributary-ro-pass  : read only (delete is refused)
#                      (not "tributary": that is the Linux package's service user, made by its postinst)
#   share "private"  → /tmp/tributary-samba/private-share, only for user smbtest
#   share "sealed"   → /tmp/tributary-samba/sealed, `smb encrypt = required` (SMB 3 encryption)
# "strict" on port 4446, /tmp/tributary-samba-strict: `server min protocol = SMB3_11` and
#   `server signing = mandatory`, as Windows 11 24H2 and hardened NAS boxes ship:
#   share "data"     → /tmp/tributary-samba-strict/data, users as above
#
# Options: --restart  stop the plain server first (tests use it for "server restart mid-read")
#          --stop     stop both and exit
# Debian packages: samba smbclient
set -euo pipefail

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
running_pid() {
  local pid
  pid=$(cat "$1/run/smbd.pid" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}
stop() { # root port
  local pid
  pid=$(running_pid "$1" || true)
  [ -z "$pid" ] && return 0
  # smbd -D leads its own process group: end the parent and the children serving connections.
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do
    listening "$2" || return 0
    sleep 0.1
  done
}

plain=/tmp/tributary-samba
strict=/tmp/tributary-samba-strict
case "${1:-}" in
  --stop) stop "$plain" 4445; stop "$strict" 4446; exit 0 ;;
  --restart) stop "$plain" 4445 ;;
  "") ;;
  *) echo "usage: $0 [--restart|--stop]" >&2; exit 2 ;;
esac

if [ "$(id -u)" -ne 0 ]; then
  echo "samba: run as root (creates users, starts smbd)" >&2
  exit 1
fi
command -v smbd >/dev/null || { echo "samba: smbd is not installed (apt-get install samba smbclient)" >&2; exit 1; }

global() { # root port extra-lines
  cat <<CONF
[global]
  workgroup = TRIBUTARY
  server role = standalone server
  smb ports = $2
  interfaces = 127.0.0.1
  bind interfaces only = yes
  disable netbios = yes
  ntlm auth = ntlmv2-only
  map to guest = never
  passdb backend = tdbsam:$1/private/passdb.tdb
  private dir = $1/private
  lock directory = $1/lock
  state directory = $1/state
  cache directory = $1/cache
  pid directory = $1/run
  ncalrpc dir = $1/ncalrpc
  log file = $1/log/smbd.log
  max log size = 1000
  log level = 1
  load printers = no
  printing = bsd
  printcap name = /dev/null
  disable spoolss = yes
$3
CONF
}
data_share() { # root
  cat <<CONF
[data]
  path = $1/data
  read only = no
  valid users = smbtest smbtest_ro
  read list = smbtest_ro
  create mask = 0666
  directory mask = 0777
CONF
}

add_user() { # conf name password
  id -u "$2" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$2"
  printf '%s\n%s\n' "$3" "$3" | smbpasswd -c "$1" -s -a "$2" >/dev/null
  smbpasswd -c "$1" -e "$2" >/dev/null
}

# Writes the configuration; starts smbd, or makes a running one reload a changed configuration.
instance() { # name root port config
  local name=$1 root=$2 port=$3 config=$4 conf="$2/smb.conf" changed=no pid
  mkdir -p "$root"/{private,lock,state,cache,run,ncalrpc,log,data}
  chmod 0755 "$root"
  chmod 0777 "$root/data"
  chmod 0700 "$root/private"
  if [ "$(cat "$conf" 2>/dev/null)" != "$config" ]; then
    printf '%s\n' "$config" >"$conf"
    changed=yes
  fi
  pid=$(running_pid "$root" || true)
  if [ -n "$pid" ] && listening "$port"; then
    if [ "$changed" = yes ]; then
      add_user "$conf" smbtest tributary-smb-pass
      add_user "$conf" smbtest_ro tributary-ro-pass
      kill -HUP "$pid"
      echo "samba ($name): configuration reloaded on 127.0.0.1:$port"
    else
      echo "samba ($name): already running on 127.0.0.1:$port"
    fi
    return 0
  fi
  add_user "$conf" smbtest tributary-smb-pass
  add_user "$conf" smbtest_ro tributary-ro-pass
  smbd -D -s "$conf"
  for _ in $(seq 1 100); do
    if listening "$port"; then
      echo "samba ($name): smbd running on 127.0.0.1:$port (config $conf)"
      return 0
    fi
    sleep 0.1
  done
  echo "samba ($name): smbd did not start; see $root/log/smbd.log" >&2
  tail -n 20 "$root/log/smbd.log" >&2 || true
  return 1
}

mkdir -p "$plain/private-share" "$plain/sealed"
chmod 0777 "$plain/private-share" "$plain/sealed"
instance plain "$plain" 4445 "$(global "$plain" 4445 '  server min protocol = SMB2_02'
data_share "$plain"
cat <<CONF

[private]
  path = $plain/private-share
  read only = no
  valid users = tributary

[sealed]
  path = $plain/sealed
  read only = no
  valid users = smbtest smbtest_ro
  smb encrypt = required
  create mask = 0666
  directory mask = 0777
CONF
)"

instance strict "$strict" 4446 "$(global "$strict" 4446 '  server min protocol = SMB3_11
  server signing = mandatory'
data_share "$strict")"
