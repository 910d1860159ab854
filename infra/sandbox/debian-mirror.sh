#!/usr/bin/env bash
# Prints the Debian mirror this machine already uses (line 1) and its security mirror (line 2), read
# from the machine's own apt sources, so that no build script names a package-archive host:
#   debian-mirror.sh bookworm
# Reads /etc/apt/sources.list and sources.list.d/*.list (one-line format) and sources.list.d/*.sources
# (deb822). Picks the first http(s) `deb` source that serves SUITE (else one whose path ends in
# /debian), and the first that serves SUITE-security (else <mirror without /debian>/debian-security,
# also when H_DEBIAN_MIRROR is set).
# Env: H_DEBIAN_MIRROR, H_DEBIAN_SECURITY_MIRROR (overrides), H_APT_ETC (default /etc/apt; tests).
set -euo pipefail
suite="${1:?usage: debian-mirror.sh SUITE}"
etc="${H_APT_ETC:-/etc/apt}"

# One "URI SUITE" line per enabled binary source and suite.
sources() {
  local f
  for f in "$etc/sources.list" "$etc"/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    # deb [arch=amd64 signed-by=...] URI SUITE COMPONENT...
    awk '$1 == "deb" { sub(/^deb[ \t]+(\[[^]]*\][ \t]+)?/, ""); print $1, $2 }' "$f"
  done
  for f in "$etc"/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk '
      function flush(   n, u, s, i, j, us, ss) {
        if (types ~ /(^| )deb( |$)/ && tolower(enabled) != "no") {
          n = split(uris, us, " "); u = split(suites, ss, " ")
          for (i = 1; i <= n; i++) for (j = 1; j <= u; j++) print us[i], ss[j]
        }
        types = uris = suites = field = ""; enabled = "yes"
      }
      BEGIN { enabled = "yes" }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { flush(); next }
      /^[ \t]/ { if (field == "uris") uris = uris " " $0; else if (field == "suites") suites = suites " " $0; next }
      {
        key = tolower($0); sub(/:.*/, "", key); val = $0; sub(/^[^:]*:[ \t]*/, "", val)
        field = key
        if (key == "types") types = val; else if (key == "uris") uris = val
        else if (key == "suites") suites = val; else if (key == "enabled") enabled = val
      }
      END { flush() }
    ' "$f"
  done
}

pick() { # SUITE -> first http(s) URI serving it, trailing slash removed
  awk -v want="$1" '$2 == want && $1 ~ /^https?:\/\// { sub(/\/+$/, "", $1); print $1; exit }'
}

all="$(sources)"
mirror="${H_DEBIAN_MIRROR:-$(pick "$suite" <<<"$all")}"
if [ -z "$mirror" ]; then
  mirror="$(awk '$1 ~ /^https?:\/\/.*\/debian\/*$/ { sub(/\/+$/, "", $1); print $1; exit }' <<<"$all")"
fi
if [ -z "$mirror" ]; then
  echo "debian-mirror: no Debian mirror found in $etc/sources.list{,.d}; set H_DEBIAN_MIRROR to your Debian mirror (the URL ending in /debian)" >&2
  exit 1
fi
# An explicit mirror brings its own security archive unless that is given too.
if [ -n "${H_DEBIAN_SECURITY_MIRROR:-}" ]; then security="$H_DEBIAN_SECURITY_MIRROR"
elif [ -n "${H_DEBIAN_MIRROR:-}" ]; then security=""
else security="$(pick "$suite-security" <<<"$all")"
fi
echo "${mirror%/}"
echo "${security:-${mirror%/debian}/debian-security}"
