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
# edit of build-base.sh that does change the image bumps BASE_RECIPE; test/unit/sandbox-build-inputs.spec.ts
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

# The agent CLIs layer (agents.env): FROM the base, built once per base + versions and reused by
# every sandboxd rebuild, so the ~370 MB Claude Code binary is neither re-sent nor re-hashed then.
# shellcheck source=agents.env
source "$here/agents.env"
agents_hash="$( { echo "$base_tag"; cat "$here/agents.env"; } | sha256sum | cut -c1-16)"
agents_tag="$name-agents:$agents_hash"
if ! docker image inspect "$agents_tag" >/dev/null 2>&1; then
  cache="${H_SANDBOX_CACHE:-/var/cache/h-sandbox}"
  staged="$cache/claude-code-$CLAUDE_CODE_VERSION"
  if [ ! -x "$staged/bin/claude" ]; then
    log "claude-code $CLAUDE_CODE_VERSION from the npm registry"
    tmp="$(mktemp -d "${TMPDIR:-/tmp}/h-claude.XXXXXX")"
    echo '{"name":"h-sandbox-agents","private":true}' >"$tmp/package.json"
    # --force: the package asks for Node >= 22 (the image's), the host's npm may run an older one;
    # --ignore-scripts: its postinstall is the copy done below. npm picks the linux-x64 optional
    # dependency for this host, which is the image's platform too (glibc, x64).
    (cd "$tmp" && npm install --silent --no-audit --no-fund --ignore-scripts --omit=dev --force \
      "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION") >&2
    native="$tmp/node_modules/@anthropic-ai/claude-code-linux-x64/claude"
    [ -x "$native" ] || { log "claude-code: no native linux-x64 binary in the package"; exit 1; }
    rm -rf "$staged.tmp" && mkdir -p "$staged.tmp/bin"
    mv "$native" "$staged.tmp/bin/claude"
    cp "$tmp/node_modules/@anthropic-ai/claude-code/package.json" "$tmp/node_modules/@anthropic-ai/claude-code/LICENSE.md" "$staged.tmp/"
    rm -rf "$tmp" "$staged" && mv "$staged.tmp" "$staged"
  fi
  actx="$(mktemp -d)"
  cp -a "$staged" "$actx/claude-code"
  cat >"$actx/Dockerfile" <<DOCKERFILE
FROM $base_tag
COPY claude-code /opt/claude-code
USER 0:0
RUN ln -sf /opt/claude-code/bin/claude /usr/local/bin/claude && /usr/local/bin/claude --version
USER $SANDBOX_UID:$SANDBOX_UID
LABEL h.sandbox.agents="claude-code@$CLAUDE_CODE_VERSION"
DOCKERFILE
  log "building $agents_tag (claude-code $CLAUDE_CODE_VERSION)"
  DOCKER_BUILDKIT=0 docker build -q -t "$agents_tag" "$actx" >/dev/null 2>"$actx/build.err" \
    || { cat "$actx/build.err" >&2; rm -rf "$actx"; exit 1; }
  rm -rf "$actx"
  # Older agent layers are garbage now (refused while a container still uses them).
  for img in $(docker images --format '{{.Repository}}:{{.Tag}}' "$name-agents"); do
    [ "$img" = "$agents_tag" ] || docker rmi "$img" >/dev/null 2>&1 || true
  done
fi

# The daemon bundle: one esbuild file plus node-pty (native, N-API, so the module built by the
# host's `npm ci` on Debian bookworm loads under the image's Node 22 as well).
stage="$repo_root/dist/sandboxd"
node "$repo_root/apps/sandboxd/build.mjs" "$stage" >&2

final_recipe="$(cat <<DOCKERFILE
FROM $agents_tag
USER 0:0
RUN install -d -o $SANDBOX_UID -g $SANDBOX_UID -m 0700 /var/lib/h-state
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
