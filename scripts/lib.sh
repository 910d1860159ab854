#!/usr/bin/env bash
# Shared steps of the start and test commands. Every step is idempotent and says what it does.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf '\033[1;34m[h]\033[0m %s\n' "$*"; }
die() { printf '\033[1;31m[h] %s\033[0m\n' "$*" >&2; exit 1; }

need_node() {
  command -v node >/dev/null || die "Node.js 20.19+ is required (https://nodejs.org)."
  local major; major=$(node -p 'process.versions.node.split(".")[0]')
  [ "$major" -ge 20 ] || die "Node.js 20.19+ is required; found $(node -v)."
}

# Names of dependencies (dev ones included) that package.json lists but node_modules lacks; empty
# when the install is complete. Catches a tree installed without dev packages (npm ci under
# NODE_ENV=production, as an older start.sh did), which cannot build TypeScript.
missing_deps() {
  (cd "$ROOT" && node -e '
    const fs = require("fs");
    const p = JSON.parse(fs.readFileSync("package.json", "utf8"));
    const names = Object.keys({ ...p.dependencies, ...p.devDependencies });
    const missing = names.filter((n) => !fs.existsSync(`node_modules/${n}/package.json`));
    if (missing.length) console.log(missing.slice(0, 5).join(" ") + (missing.length > 5 ? ` and ${missing.length - 5} more` : ""));
  ')
}

# npm ci when node_modules is missing, older than the lockfile, or incomplete. Dev packages are
# always included: the build needs them, whatever NODE_ENV or an npmrc `omit` says.
ensure_deps() {
  need_node
  local why="" missing
  if [ ! -d "$ROOT/node_modules" ]; then why="no node_modules yet"
  elif [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then why="package-lock.json changed"
  else
    missing="$(missing_deps)"
    [ -z "$missing" ] || why="node_modules lacks $missing"
  fi
  [ -n "$why" ] || return 0
  # npm ci empties node_modules first: never through a link into an install others share.
  [ ! -L "$ROOT/node_modules" ] || die "dependencies need installing ($why), but node_modules links to $(readlink -f "$ROOT/node_modules"): run npm ci there"
  say "installing dependencies (npm ci: $why)"
  (cd "$ROOT" && env -u NODE_ENV npm ci --include=dev --no-audit --no-fund)
  missing="$(missing_deps)"
  [ -z "$missing" ] || die "npm ci finished but node_modules still lacks $missing"
}

apt_install() {
  command -v apt-get >/dev/null || die "apt-get not found: install $* yourself."
  say "installing $* from Debian packages"
  if [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v lock || true)" ]; then apt-get update -qq; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; }
}

ensure_postgres() {
  if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then return; fi
  say "starting PostgreSQL"
  if ! command -v pg_ctlcluster >/dev/null; then apt_install postgresql; fi
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main start
  for _ in $(seq 1 50); do pg_isready -h 127.0.0.1 -p 5432 -q && return; sleep 0.2; done
  die "PostgreSQL did not start on 127.0.0.1:5432"
}

ensure_redis() {
  if redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then return; fi
  say "starting Redis"
  command -v redis-server >/dev/null || apt_install redis-server
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no
  for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && return; sleep 0.2; done
  die "Redis did not start on 127.0.0.1:6379"
}

ensure_chromium() {
  [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || apt_install chromium
}

# The import tests clone over SSH from an sshd they start on loopback (test/support/git-server.ts).
ensure_sshd() {
  [ -x /usr/sbin/sshd ] || apt_install openssh-server
}

# Creates the database named in a postgres URL if it does not exist.
ensure_database() {
  local url="$1"
  (cd "$ROOT" && node -e '
    const { Client } = require("pg");
    const url = new URL(process.argv[1]);
    const name = decodeURIComponent(url.pathname.slice(1));
    url.pathname = "/postgres";
    const c = new Client({ connectionString: url.toString() });
    c.connect()
      .then(() => c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]))
      .then((r) => (r.rowCount ? null : c.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`)))
      .then(() => c.end())
      .catch((e) => { console.error(e.message); process.exit(1); });
  ' "$url")
}

# prisma migrate deploy under H's migration lock (scripts/migrate.mjs): one process at a time.
migrate() {
  say "applying database migrations"
  (cd "$ROOT" && DATABASE_URL="$1" node scripts/migrate.mjs)
}

# The settings start.sh runs with: .env (when present) over the environment, then the defaults
# start.sh and the env schema use. backup.sh and restore.sh read their config the same way.
load_env() {
  if [ -f "$ROOT/.env" ]; then set -a; source "$ROOT/.env"; set +a; fi
  export DATABASE_URL="${DATABASE_URL:-postgresql://root@127.0.0.1:5432/h}"
  export H_DATA_DIR="${H_DATA_DIR:-./var/data}"
  export SANDBOX_NAME_PREFIX="${SANDBOX_NAME_PREFIX:-h-}"
}

# A Prisma DATABASE_URL without the query parameters only Prisma knows (libpq refuses them).
pg_tool_url() {
  node -e '
    const u = new URL(process.argv[1]);
    for (const p of ["schema", "connection_limit", "pool_timeout", "pgbouncer", "socket_timeout", "statement_cache_size"]) u.searchParams.delete(p);
    console.log(u.toString());
  ' "$1"
}

# PostgreSQL's client tools (pg_dump, pg_restore, psql) for backup.sh and restore.sh.
ensure_pg_client() {
  command -v pg_dump >/dev/null && command -v pg_restore >/dev/null && command -v psql >/dev/null && return
  apt_install postgresql-client
}

build_all() {
  say "building (prisma client, server, web)"
  (cd "$ROOT" && node scripts/build.mjs)
}
