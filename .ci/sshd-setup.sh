#!/usr/bin/env bash
# Starts a private sshd that serves SFTP on loopback for the delivery tests (run as root; idempotent).
# It never touches the system sshd: its own config, host key and pid file live in $SQ_SFTP_STATE.
# Needs the Debian packages openssh-server and openssh-sftp-server.
set -euo pipefail

PORT="${SQ_TEST_SFTP_PORT:-2222}"
USER_NAME="${SQ_TEST_SFTP_USER:-sqtest}"
PASSWORD="${SQ_TEST_SFTP_PASSWORD:-sqtest-pw-2222}"
BASE="/srv/sq-sftp"
UPLOAD="${SQ_TEST_SFTP_DIR:-$BASE/upload}"
STATE="${SQ_SFTP_STATE:-/var/lib/sq-sshd}"
# Per port, so servers on several ports (SQ_TEST_SFTP_PORT) never share or overwrite each other's files.
CONF="$STATE/sshd-$PORT.conf"
PIDFILE="$STATE/sshd-$PORT.pid"

if [ "$(id -u)" -ne 0 ]; then
  echo "sshd-setup: must run as root" >&2
  exit 1
fi
if [ ! -x /usr/sbin/sshd ]; then
  echo "sshd-setup: /usr/sbin/sshd missing; apt-get install -y openssh-server openssh-sftp-server" >&2
  exit 1
fi

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; }

# Test user: password login only, no shell (ForceCommand below), home outside /tmp.
mkdir -p "$BASE"
if ! id "$USER_NAME" >/dev/null 2>&1; then
  useradd --home-dir "$BASE" --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
fi
echo "$USER_NAME:$PASSWORD" | chpasswd
mkdir -p "$UPLOAD"
chown "$USER_NAME:$USER_NAME" "$UPLOAD"
chmod 755 "$UPLOAD"

install -d -m 700 "$STATE"
# sshd refuses to start without its privilege-separation directory.
install -d -m 755 /run/sshd
if [ ! -f "$STATE/ssh_host_ed25519_key" ]; then
  ssh-keygen -q -t ed25519 -N '' -f "$STATE/ssh_host_ed25519_key"
fi

cat >"$CONF" <<CONF
Port $PORT
ListenAddress 127.0.0.1
HostKey $STATE/ssh_host_ed25519_key
PidFile $PIDFILE
UsePAM no
PasswordAuthentication yes
KbdInteractiveAuthentication no
PubkeyAuthentication no
PermitRootLogin no
AllowUsers $USER_NAME
Subsystem sftp internal-sftp
ForceCommand internal-sftp
AllowTcpForwarding no
X11Forwarding no
CONF

if [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null && port_open; then
  echo "sshd-setup: already running on 127.0.0.1:$PORT (pid $(cat "$PIDFILE"))"
  exit 0
fi
if port_open; then
  echo "sshd-setup: port $PORT is taken by another process; set SQ_TEST_SFTP_PORT" >&2
  exit 1
fi

/usr/sbin/sshd -t -f "$CONF"
/usr/sbin/sshd -f "$CONF"

for _ in $(seq 1 100); do
  if port_open; then
    echo "sshd-setup: sftp://$USER_NAME@127.0.0.1:$PORT$UPLOAD ready"
    exit 0
  fi
  sleep 0.1
done
echo "sshd-setup: sshd did not start listening on 127.0.0.1:$PORT" >&2
exit 1
