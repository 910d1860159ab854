#!/usr/bin/env bash
# Makes sure a Docker engine is installed and answering. Idempotent: cheap when it already runs.
# Used by .ci/run and the start script before anything touches sandboxes.
#   infra/sandbox/ensure-docker.sh            # install docker.io if missing, start dockerd if down
# Env: H_DOCKERD_LOG (default /tmp/dockerd.log), H_DOCKER_WAIT_S (default 60).
set -euo pipefail

log="${H_DOCKERD_LOG:-/tmp/dockerd.log}"
wait_s="${H_DOCKER_WAIT_S:-60}"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker >/dev/null 2>&1; then
  echo "ensure-docker: installing docker.io" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
fi

if docker info >/dev/null 2>&1; then
  exit 0
fi

# A dockerd may be starting already (another caller raced us); only start one if none runs.
if ! pgrep -x dockerd >/dev/null 2>&1; then
  echo "ensure-docker: starting dockerd (log: $log)" >&2
  # containerd's stale pid/socket from a killed run makes dockerd exit at once; clear them.
  as_root rm -f /var/run/docker.pid /var/run/docker/containerd/containerd.pid 2>/dev/null || true
  as_root nohup dockerd >>"$log" 2>&1 </dev/null &
  disown || true
fi

for _ in $(seq 1 $((wait_s * 4))); do
  if docker info >/dev/null 2>&1; then exit 0; fi
  sleep 0.25
done
echo "ensure-docker: dockerd did not answer within ${wait_s}s; see $log" >&2
tail -n 20 "$log" >&2 || true
exit 1
