#!/usr/bin/env bash
# Sets up and starts H on this machine: dependencies, PostgreSQL and Redis, migrations, build, the
# Docker engine and sandbox image, then the api, worker and web processes in the background. Prints
# the URL to open. Run it again to restart; scripts/stop.sh stops H. Settings come from .env (see
# .env.example) or the environment.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

if [ -f .env ]; then set -a; source .env; set +a; fi
export DATABASE_URL="${DATABASE_URL:-postgresql://root@127.0.0.1:5432/h}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
export H_PORT="${H_PORT:-3000}"
# A local trial serves plain HTTP (below): listen on this machine only. Behind a TLS proxy on another
# host, set H_HOST=0.0.0.0 (and H_SECURE_COOKIES=true, TRUST_PROXY; see infra/README.md).
export H_HOST="${H_HOST:-127.0.0.1}"
export WEB_PORT="${WEB_PORT:-3001}"
export WEB_INTERNAL_URL="${WEB_INTERNAL_URL:-http://127.0.0.1:$WEB_PORT}"
# H_DATA_DIR: the env schema's default (./var/data, from $ROOT, where every process starts).
# Plain HTTP on a local port: Secure cookies would never be sent back. Put H behind HTTPS and set
# H_SECURE_COOKIES=true for anything but a local trial.
export H_SECURE_COOKIES="${H_SECURE_COOKIES:-false}"
export NEXT_TELEMETRY_DISABLED=1

# Install first (with dev packages: the build needs them), then run the processes in production mode.
ensure_deps
export NODE_ENV="${NODE_ENV:-production}"
ensure_postgres
ensure_redis
ensure_database "$DATABASE_URL"
migrate "$DATABASE_URL"
build_all
if [ "${SANDBOX_DRIVER:-docker}" = docker ] && [ -z "${SANDBOX_IMAGE:-}" ]; then
  say "preparing the workspace sandbox image (Docker; the first build takes a few minutes)"
  SANDBOX_IMAGE="$(bash infra/sandbox/build-image.sh | tail -n 1)"
  export SANDBOX_IMAGE
fi
bash scripts/stop.sh --quiet

mkdir -p var/log var/run
start_bg() {
  local name="$1"; shift
  nohup "$@" >>"var/log/$name.log" 2>&1 &
  echo $! >"var/run/$name.pid"
}
say "starting web, worker and api (logs in var/log/)"
start_bg web node node_modules/next/dist/bin/next start apps/web -p "$WEB_PORT" -H 127.0.0.1
start_bg worker bash scripts/run-node.sh apps/worker/src/main.js
start_bg api bash scripts/run-node.sh apps/api/src/main.js

url="http://localhost:$H_PORT"
# The processes themselves start in seconds (the slow parts, install, build and the sandbox image,
# are done above); the limit is generous for a loaded machine and says how long it waited.
limit="${H_START_TIMEOUT_S:-180}"
started=$SECONDS
next_note=10
while :; do
  if curl -fsS "$url/api/ready" >/dev/null 2>&1 && curl -fsS -o /dev/null "http://127.0.0.1:$WEB_PORT/login" 2>/dev/null; then
    say "H is up after $((SECONDS - started)) s. Open ${H_PUBLIC_URL:-$url}  (API docs: $url/api/docs; stop with: bash scripts/stop.sh)"
    echo "${H_PUBLIC_URL:-$url}"
    exit 0
  fi
  for p in api worker web; do
    if ! kill -0 "$(cat var/run/$p.pid)" 2>/dev/null; then tail -n 30 "var/log/$p.log" >&2; die "$p exited during start; see var/log/$p.log"; fi
  done
  waited=$((SECONDS - started))
  if [ "$waited" -ge "$limit" ]; then
    bash scripts/stop.sh --quiet
    die "H did not become ready within $limit s (H_START_TIMEOUT_S); see var/log/*.log"
  fi
  if [ "$waited" -ge "$next_note" ]; then
    say "waiting for the api ($url/api/ready) and web (127.0.0.1:$WEB_PORT/login): $waited s of $limit s"
    next_note=$((next_note + 10))
  fi
  sleep 0.2
done
