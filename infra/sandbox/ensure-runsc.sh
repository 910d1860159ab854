#!/usr/bin/env bash
# Registers gVisor's runsc with the Docker engine so SANDBOX_RUNTIME=runsc can run sandboxes under
# it. Idempotent. Installs the Debian package `runsc` if missing, merges a `runsc` runtime into
# /etc/docker/daemon.json and asks dockerd to reload it (SIGHUP: running containers are untouched).
#   sudo bash infra/sandbox/ensure-runsc.sh
# Runtime flags: --network=none (sandboxes have no network interface anyway; gVisor's own netstack
# cannot start in Docker's `none` namespace on some kernels) and --host-uds=open (lets a sandbox
# connect to the egress proxy's host unix socket that is mounted into it).
set -euo pipefail
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v runsc >/dev/null 2>&1; then
  echo "ensure-runsc: installing runsc" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq runsc >/dev/null
fi
path="$(command -v runsc)"
conf=/etc/docker/daemon.json
as_root node -e '
  const fs = require("fs"); const [conf, path] = process.argv.slice(1);
  const cur = fs.existsSync(conf) ? JSON.parse(fs.readFileSync(conf, "utf8")) : {};
  cur.runtimes = { ...cur.runtimes, runsc: { path, runtimeArgs: ["--network=none", "--host-uds=open"] } };
  fs.mkdirSync(require("path").dirname(conf), { recursive: true });
  fs.writeFileSync(conf, JSON.stringify(cur, null, 2) + "\n");
' "$conf" "$path"
# Reload, not restart: dockerd re-reads its runtimes on SIGHUP.
as_root kill -HUP "$(cat /var/run/docker.pid)"
for _ in $(seq 1 40); do
  if docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"'; then echo "ensure-runsc: runsc registered ($path)" >&2; exit 0; fi
  sleep 0.25
done
echo "ensure-runsc: dockerd did not pick up the runsc runtime; see its log" >&2
exit 1
