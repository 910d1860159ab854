#!/usr/bin/env bash
# Makes sure a Compose implementation is installed and prints how to call it (the only stdout line):
# `docker compose` (the v2 plugin) when present, else Debian's docker-compose (v1.29, installed from
# the machine's apt sources when missing; Docker's own packages are not needed).
#   compose="$(infra/compose/ensure-compose.sh)"; $compose -p NAME up -d
# docker-compose.yml keeps to what v1.29 parses (no top-level `name:`; project name from -p or
# COMPOSE_PROJECT_NAME).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/../sandbox/ensure-docker.sh" >&2
if docker compose version >/dev/null 2>&1; then echo "docker compose"; exit 0; fi
if ! command -v docker-compose >/dev/null 2>&1; then
  as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
  echo "ensure-compose: installing docker-compose from Debian" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null \
    || { as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
      && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null; }
fi
docker-compose version >/dev/null
echo "docker-compose"
