#!/bin/sh
# Runs a compiled app from dist/ with @h/* imports resolved: scripts/run-node.sh apps/api/src/main.js
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
export TS_NODE_PROJECT="$ROOT/dist/tsconfig.json"
app="$1"
shift
exec node --enable-source-maps -r tsconfig-paths/register "$ROOT/dist/$app" "$@"
