#!/bin/sh
# Picks the role of the server image: api (migrate, then serve) or worker.
set -e
role="${1:-api}"
export H_ROLE="$role"
case "$role" in
  api)
    node prisma/engine/prisma-cli.mjs migrate deploy
    exec sh scripts/run-node.sh apps/api/src/main.js
    ;;
  worker)
    exec sh scripts/run-node.sh apps/worker/src/main.js
    ;;
  docker-proxy)
    exec sh scripts/run-node.sh apps/docker-proxy/src/main.js
    ;;
  migrate)
    exec node prisma/engine/prisma-cli.mjs migrate deploy
    ;;
  *)
    echo "unknown role '$role': use api, worker, docker-proxy or migrate" >&2
    exit 64
    ;;
esac
