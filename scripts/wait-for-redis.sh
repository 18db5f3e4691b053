#!/usr/bin/env bash
# Make sure the Redis the job tests use (tests/jobs, SCOREPAD_TEST_REDIS_URL's host) is up:
# start a local redis-server when none answers, then wait until it does. Exits non-zero
# after 60 s.
set -uo pipefail
HOST="${REDIS_HOST:-127.0.0.1}"; PORT="${REDIS_PORT:-6379}"
ready() { redis-cli -h "$HOST" -p "$PORT" ping 2>/dev/null | grep -q PONG || \
  python3 -c "import socket,sys; s=socket.socket(); s.settimeout(1); s.connect(('$HOST',$PORT)); s.sendall(b'PING\r\n'); sys.exit(0 if s.recv(16).startswith(b'+PONG') else 1)" 2>/dev/null; }
if ! ready && command -v redis-server >/dev/null 2>&1 && [ "$HOST" = 127.0.0.1 ]; then
  echo "redis: starting a local server"
  redis-server --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes >/dev/null || true
fi
for _ in $(seq 1 60); do
  if ready; then echo "redis: ready on $HOST:$PORT"; exit 0; fi
  sleep 1
done
echo "redis: not reachable on $HOST:$PORT after 60 s" >&2
exit 1
