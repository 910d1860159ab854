#!/bin/sh
# Picks the role of the server image: api or worker (each migrates first, then serves), docker-proxy
# or migrate. scripts/migrate.mjs takes H's migration lock: when api and worker (or replicas) start
# together, one applies the migrations and the others wait, find the schema up to date and go on.
set -e
role="${1:-api}"
export H_ROLE="$role"
case "$role" in
  api)
    node scripts/migrate.mjs
    exec sh scripts/run-node.sh apps/api/src/main.js
    ;;
  worker)
    node scripts/migrate.mjs
    exec sh scripts/run-node.sh apps/worker/src/main.js
    ;;
  docker-proxy)
    exec sh scripts/run-node.sh apps/docker-proxy/src/main.js
    ;;
  migrate)
    exec node scripts/migrate.mjs
    ;;
  *)
    echo "unknown role '$role': use api, worker, docker-proxy or migrate" >&2
    exit 64
    ;;
esac
