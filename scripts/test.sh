#!/usr/bin/env bash
# Sets up what the tests need (dependencies, PostgreSQL, Redis, Docker, Chromium, a build) and runs
# every tier: unit, integration (real Postgres, Redis, Docker), e2e (the built app in headless
# Chromium) and newcomer (a fresh clone of HEAD started with the README's start command). Ends with
# one line "N passed, N failed, N skipped" and exits non-zero on any failure.
# Pass tier names to run only some: scripts/test.sh unit integration
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

tiers=("$@")
[ ${#tiers[@]} -gt 0 ] || tiers=(unit integration e2e newcomer)
export NEXT_TELEMETRY_DISABLED=1
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"

ensure_deps
ensure_postgres
ensure_redis
ensure_chromium
ensure_sshd
if [ -x infra/sandbox/ensure-docker.sh ] || [ -f infra/sandbox/ensure-docker.sh ]; then bash infra/sandbox/ensure-docker.sh; fi
build_all

summary="$ROOT/tmp/test-summary.jsonl"
mkdir -p "$ROOT/tmp" && rm -f "$summary" && rm -rf "$ROOT/tmp/test-logs" "$ROOT/tmp/test-secrets"
export H_TEST_SUMMARY_FILE="$summary"

status=0
# Lint (incl. Nx module boundaries) counts as one check of the run.
if [ "$#" -eq 0 ]; then
  say "linting (eslint + Nx module boundaries)"
  if npm run -s lint; then echo '{"passed":1,"failed":0,"skipped":0}' >>"$summary"; else echo '{"passed":0,"failed":1,"skipped":0}' >>"$summary"; status=1; fi
fi
for tier in "${tiers[@]}"; do
  say "running $tier tests"
  band=()
  [ "$tier" = unit ] || band=(--runInBand)
  # One process runs a tier's suites in band, and Jest keeps each suite's module registry until
  # the end: 93 integration suites passed V8's default ~4 GB heap and the process aborted (out of
  # memory) with 20 suites to go. The machine has 24 GB; 8 GB leaves room for the tiers to grow.
  NODE_OPTIONS="--max-old-space-size=8192 ${NODE_OPTIONS:-}" npx jest --selectProjects "$tier" "${band[@]}" --forceExit --passWithNoTests || status=1
done
# Last: scan every log the run wrote (api, worker, web, e2e) for the secrets tests used.
if [ "$#" -eq 0 ]; then
  say "scanning all test logs for leaked secrets"
  npx jest --selectProjects integration --forceExit -- test/integration/security/log-scan || status=1
fi

node -e '
  const fs = require("fs");
  const lines = fs.existsSync(process.argv[1]) ? fs.readFileSync(process.argv[1], "utf8").trim().split("\n").filter(Boolean) : [];
  const t = lines.map(JSON.parse).reduce((a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed, skipped: a.skipped + r.skipped }), { passed: 0, failed: 0, skipped: 0 });
  // A tier that crashed before reporting counts as a failure, so a broken run is never green.
  if (lines.length < Number(process.argv[2])) t.failed += Number(process.argv[2]) - lines.length;
  console.log(`${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
  process.exit(t.failed > 0 ? 1 : 0);
' "$summary" "$(( ${#tiers[@]} + ($# == 0 ? 2 : 0) ))" || status=1
exit $status
