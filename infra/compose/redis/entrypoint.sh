#!/bin/sh
# As the official image does: without a config file Redis refuses non-loopback clients (protected
# mode), and the api and worker are other containers.
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  exec redis-server --protected-mode no "$@"
fi
exec "$@"
