#!/usr/bin/env bash
# Builds (or reuses) the images docker-compose.yml runs without any registry, and prints the
# variables that select them (the only stdout lines):
#   H_POSTGRES_IMAGE=h-postgres-local:<hash>  H_REDIS_IMAGE=h-redis-local:<hash>
#   H_SERVER_IMAGE=h-server:local-<hash>      H_WEB_IMAGE=h-web:local-<hash>
# Each tag hashes its recipe and what it copies, and is reused when it exists (like
# infra/sandbox/build-image.sh). The base (h-compose-base:<hash>) is built offline by build-base.sh;
# the server and web images COPY the host's build output, so run `node scripts/build.mjs` first
# (prisma, server, web). Nothing is installed inside a build: the classic builder, no registry.
# Env: H_SANDBOX_CACHE, H_DEBIAN_MIRROR (build-base.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
log() { echo "compose-images: $*" >&2; }
hash16() { sha256sum | cut -c1-16; }
# Content hash of the files under a directory (paths and contents), optionally skipping a subtree.
tree_hash() { (cd "$1" && find . -type f ${2:+-not -path "$2"} -print0 | sort -z | xargs -0 sha256sum) | hash16; }

"$repo/infra/sandbox/ensure-docker.sh" >&2
exec 9>"${TMPDIR:-/tmp}/h-compose-images.lock"
flock 9

base_hash="$(cat "$here/base.env" "$repo/infra/sandbox/versions.env" | hash16)"
base="h-compose-base:$base_hash"
if ! docker image inspect "$base" >/dev/null 2>&1; then
  log "base $base missing; building it offline (a few minutes the first time)"
  "$here/build-base.sh" "$base"
fi

# build TAG CONTEXT_DIR [DOCKERFILE]: classic builder, FROM the local base only.
build() {
  docker image inspect "$1" >/dev/null 2>&1 && return 0
  log "building $1"
  DOCKER_BUILDKIT=0 docker build -q --build-arg "BASE=$base" -t "$1" ${3:+-f "$3"} "$2" >/dev/null
}

for svc in postgres redis; do
  tag="h-$svc-local:$( { echo "$base"; tree_hash "$here/$svc"; } | hash16)"
  build "$tag" "$here/$svc"
  echo "H_$(echo "$svc" | tr a-z A-Z)_IMAGE=$tag"
done

# The server: dist/ and production node_modules, staged with hard links (cheap, same filesystem).
[ -f "$repo/dist/apps/api/src/main.js" ] || { log "dist/ missing: run node scripts/build.mjs first"; exit 1; }
stage="$repo/var/compose-stage"
rm -rf "$stage" && mkdir -p "$stage/server/app/scripts" "$stage/web"
server_hash="$( { echo "$base"; cat "$here/server.Dockerfile" "$repo/infra/server/entrypoint.sh" "$repo/package-lock.json" \
  "$repo/scripts/run-node.sh" "$repo/scripts/migrate.mjs" "$repo/prisma.config.ts" "$repo/package.json"; tree_hash "$repo/dist"; tree_hash "$repo/prisma"; } | hash16)"
server="h-server:local-$server_hash"
if ! docker image inspect "$server" >/dev/null 2>&1; then
  cp -al "$repo/node_modules" "$stage/server/node_modules"
  node "$here/prune-dev.mjs" "$repo/package-lock.json" "$stage/server/node_modules"
  cp -a "$repo/dist" "$repo/prisma" "$repo/prisma.config.ts" "$repo/package.json" "$stage/server/app/"
  cp -a "$repo/scripts/run-node.sh" "$repo/scripts/migrate.mjs" "$stage/server/app/scripts/"
  cp -a "$repo/infra/server/entrypoint.sh" "$stage/server/"
  build "$server" "$stage/server" "$here/server.Dockerfile"
fi
echo "H_SERVER_IMAGE=$server"

# The web: Next's standalone server (with its traced node_modules) plus the static chunks and public/.
web_out="$repo/apps/web/.next"
[ -f "$web_out/standalone/apps/web/server.js" ] || { log "apps/web/.next/standalone missing: run node scripts/build.mjs web first"; exit 1; }
web_hash="$( { echo "$base"; cat "$here/web.Dockerfile" "$web_out/BUILD_ID"; tree_hash "$web_out/standalone" '*/node_modules/*'; } | hash16)"
web="h-web:local-$web_hash"
if ! docker image inspect "$web" >/dev/null 2>&1; then
  cp -a "$web_out/standalone" "$stage/web/app"
  mkdir -p "$stage/web/app/apps/web/.next"
  cp -a "$web_out/static" "$stage/web/app/apps/web/.next/static"
  [ ! -d "$repo/apps/web/public" ] || cp -a "$repo/apps/web/public" "$stage/web/app/apps/web/public"
  build "$web" "$stage/web" "$here/web.Dockerfile"
fi
echo "H_WEB_IMAGE=$web"
rm -rf "$stage"
