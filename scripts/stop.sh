#!/usr/bin/env bash
# Stops the api, worker and web started by scripts/start.sh (gracefully, then forcefully).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
quiet="${1:-}"
for name in api worker web; do
  pidfile="$ROOT/var/run/$name.pid"
  [ -f "$pidfile" ] || continue
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    pkill -TERM -P "$pid" 2>/dev/null || true
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    [ "$quiet" = "--quiet" ] || echo "[h] stopped $name"
  fi
  rm -f "$pidfile"
done
