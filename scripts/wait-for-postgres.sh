#!/usr/bin/env bash
# Make sure the PostgreSQL server the database tests use is up (start it if it is installed
# but stopped), then wait until it accepts connections. Exits non-zero after 60 s.
set -uo pipefail
HOST="${PGHOST:-127.0.0.1}"; PORT="${PGPORT:-5432}"
ready() { pg_isready -q -h "$HOST" -p "$PORT" 2>/dev/null || \
  python3 -c "import socket,sys; s=socket.socket(); s.settimeout(1); sys.exit(s.connect_ex(('$HOST',$PORT)))"; }
if ! ready; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "postgres: starting the local cluster"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  fi
fi
for _ in $(seq 1 60); do
  if ready; then echo "postgres: ready on $HOST:$PORT"; exit 0; fi
  sleep 1
done
echo "postgres: not reachable on $HOST:$PORT after 60 s" >&2
exit 1
