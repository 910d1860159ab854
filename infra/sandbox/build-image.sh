#!/usr/bin/env bash
# Builds (or reuses) the workspace sandbox image and prints its tag on stdout (the only stdout line).
#   infra/sandbox/build-image.sh      -> h-sandbox:<recipe hash>
# Two layers, each tagged by the hash of its recipe and reused when that hash already exists:
#   h-sandbox-base:<hash>  OS + Node + tools, built offline by build-base.sh (minutes, rare);
#   h-sandbox:<hash>       base + the sandboxd bundle (seconds; changes with apps/sandboxd).
# Safe to call repeatedly and concurrently (flock); fast when cached (~1 s: bundle + hash + inspect).
# Env: H_SANDBOX_IMAGE_REPO (default h-sandbox), H_SANDBOX_CACHE, H_DEBIAN_MIRROR.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
name="${H_SANDBOX_IMAGE_REPO:-h-sandbox}"
log() { echo "build-image: $*" >&2; }

"$here/ensure-docker.sh" >&2

exec 9>"${TMPDIR:-/tmp}/h-sandbox-build.lock"
flock 9

hash_of() { sha256sum "$@" | sha256sum | cut -c1-16; }

# shellcheck source=versions.env
source "$here/versions.env"
# The base tag hashes what decides the base image's content: packages.txt and versions.env (pinned
# versions and BASE_RECIPE, the version of build-base.sh's recipe). Not build-base.sh's text: an
# edit that changes nothing in the image (a comment, a log line, how the Debian mirror is found;
# any mirror serves the same suite) must not force every machine into a minutes-long rebuild. An
# edit of build-base.sh that does change the image bumps BASE_RECIPE; test/unit/sandbox-recipe.spec.ts
# fails on any change to its commands until that has been decided.
base_hash="$(cd "$here" && hash_of packages.txt versions.env)"
base_tag="$name-base:$base_hash"
# Until 2026-12-01 the tag also hashed build-base.sh; the last base built that way has exactly
# recipe 1's content (same packages.txt and pins, same steps). Adopt it under the new tag instead
# of building the same thing again.
legacy_base_tag="$name-base:631a3ea1826ff34e"
if [ "$BASE_RECIPE" = 1 ] && ! docker image inspect "$base_tag" >/dev/null 2>&1 \
  && docker image inspect "$legacy_base_tag" >/dev/null 2>&1; then
  log "adopting $legacy_base_tag as $base_tag (same recipe, older tag scheme)"
  docker tag "$legacy_base_tag" "$base_tag"
fi
if ! docker image inspect "$base_tag" >/dev/null 2>&1; then
  log "base image $base_tag missing; building it offline (several minutes the first time)"
  "$here/build-base.sh" "$base_tag"
  built_base=1
fi

# The daemon bundle: one esbuild file plus node-pty (native, N-API, so the module built by the
# host's `npm ci` on Debian bookworm loads under the image's Node 22 as well).
stage="$repo_root/dist/sandboxd"
node "$repo_root/apps/sandboxd/build.mjs" "$stage" >&2

final_recipe="$(cat <<DOCKERFILE
FROM $base_tag
COPY sandboxd /opt/sandboxd
USER $SANDBOX_UID:$SANDBOX_UID
WORKDIR /workspace
ENV HOME=/home/h NODE_ENV=production
LABEL h.sandbox=1 h.sandbox.base="$base_tag"
ENTRYPOINT ["/usr/bin/tini", "-g", "--", "/usr/local/bin/node", "/opt/sandboxd/sandboxd.js"]
DOCKERFILE
)"
final_hash="$( { echo "$final_recipe"; (cd "$stage" && find . -type f -print0 | sort -z | xargs -0 sha256sum); } | sha256sum | cut -c1-16)"
final_tag="$name:$final_hash"
if ! docker image inspect "$final_tag" >/dev/null 2>&1; then
  ctx="$(mktemp -d)"
  trap 'rm -rf "$ctx"' EXIT
  cp -a "$stage" "$ctx/sandboxd"
  echo "$final_recipe" >"$ctx/Dockerfile"
  log "building $final_tag"
  # The classic builder uses the local base image without contacting any registry.
  DOCKER_BUILDKIT=0 docker build -q -t "$final_tag" "$ctx" >/dev/null 2>"$ctx/build.err" \
    || { cat "$ctx/build.err" >&2; exit 1; }
fi
docker tag "$final_tag" "$name:latest" >/dev/null

# A new base makes the old ones (1.4 GB each) garbage: drop images of older bases. Images still used
# by a container (a stopped workspace) are refused by `docker rmi` and stay until re-created.
if [ "${built_base:-0}" = 1 ]; then
  for img in $(docker images --format '{{.Repository}}:{{.Tag}}' "$name"); do
    [ "$img" = "$final_tag" ] || [ "$img" = "$name:latest" ] && continue
    b="$(docker image inspect -f '{{index .Config.Labels "h.sandbox.base"}}' "$img" 2>/dev/null || true)"
    [ "$b" != "$base_tag" ] && docker rmi "$img" >/dev/null 2>&1 || true
  done
  for img in $(docker images --format '{{.Repository}}:{{.Tag}}' "$name-base"); do
    [ "$img" = "$base_tag" ] || docker rmi "$img" >/dev/null 2>&1 || true
  done
fi
echo "$final_tag"
