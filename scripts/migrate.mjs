#!/usr/bin/env node
// Applies the committed migrations to DATABASE_URL, one process at a time: `node scripts/migrate.mjs`.
// start.sh, restore.sh and the server image's api, worker and migrate roles all start through it, so
// several processes (api + worker, replicas, a restore) starting together never race.
//
// Why on top of Prisma's own lock: `migrate deploy` takes pg_advisory_lock(72707369) itself, but
// gives up after 10 s ("Timed out trying to acquire a postgres advisory lock", exit 1, not
// configurable), so a second process starting while the first runs a long migration (an index over
// the event log) fails its start. Here each process first takes H's own advisory lock on a dedicated
// connection and waits for it (H_MIGRATE_LOCK_TIMEOUT_S, default 900 s); the holder runs the CLI,
// the others then find every migration applied in _prisma_migrations and start without running
// the CLI at all. Exit status: 0 up to date, 1 anything else (the CLI's message is on stderr).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MIGRATIONS = join(ROOT, 'prisma', 'migrations');
/** "HMIG": H's migration lock, distinct from Prisma's 72707369. */
const MIGRATE_LOCK_KEY = 0x484d4947;

const url = process.env.DATABASE_URL || 'postgresql://root@127.0.0.1:5432/h';
const timeoutS = Number(process.env.H_MIGRATE_LOCK_TIMEOUT_S || 900);
const log = (msg) => process.stderr.write(`[h migrate] ${msg}\n`);

/** Same URL without the query parameters only Prisma understands (libpq/pg refuse or ignore them). */
function pgUrl(raw) {
  const u = new URL(raw);
  for (const p of ['schema', 'connection_limit', 'pool_timeout', 'pgbouncer', 'socket_timeout', 'statement_cache_size']) u.searchParams.delete(p);
  return u.toString();
}

/** Creates the database when missing (migrate deploy would too, but the lock needs a connection to it first). */
async function ensureDatabase() {
  const target = new URL(pgUrl(url));
  const name = decodeURIComponent(target.pathname.slice(1));
  target.pathname = '/postgres';
  const admin = new Client({ connectionString: target.toString() });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!found.rowCount) {
      // 42P04: another process created it meanwhile.
      await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((e) => {
        if (e.code !== '42P04' && e.code !== '23505') throw e;
      });
    }
  } finally {
    await admin.end();
  }
}

/** Committed migrations not (successfully) applied yet, and whether a failed one blocks the history. */
async function pending(db) {
  const local = readdirSync(MIGRATIONS).filter((n) => /^\d{14}_/.test(n) && existsSync(join(MIGRATIONS, n, 'migration.sql'))).sort();
  const table = await db.query(`SELECT to_regclass('public._prisma_migrations') AS t`);
  if (!table.rows[0].t) return { missing: local, failed: [] };
  const { rows } = await db.query('SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations');
  const applied = new Set(rows.filter((r) => r.finished_at && !r.rolled_back_at).map((r) => r.migration_name));
  const failed = rows.filter((r) => !r.finished_at && !r.rolled_back_at).map((r) => r.migration_name);
  return { missing: local.filter((n) => !applied.has(n)), failed };
}

/** A connection to the database, created first when it does not exist (3D000). */
async function connect() {
  const open = async () => {
    const db = new Client({ connectionString: pgUrl(url), application_name: 'h-migrate' });
    await db.connect();
    return db;
  };
  try {
    return await open();
  } catch (e) {
    if (e.code !== '3D000') throw e;
    await ensureDatabase();
    return open();
  }
}

async function main() {
  const db = await connect();
  try {
    // lock_timeout bounds the wait for the advisory lock (55P03 when it passes).
    await db.query(`SET lock_timeout = ${Math.max(1, Math.round(timeoutS)) * 1000}`);
    const first = await db.query('SELECT pg_try_advisory_lock($1) AS got', [MIGRATE_LOCK_KEY]);
    if (!first.rows[0].got) {
      log(`another process is applying migrations; waiting for it (up to ${timeoutS} s)`);
      await db.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK_KEY]).catch((e) => {
        throw e.code === '55P03' ? new Error(`gave up waiting ${timeoutS} s for the migration lock (H_MIGRATE_LOCK_TIMEOUT_S)`) : e;
      });
    }
    const before = await pending(db);
    if (!before.missing.length && !before.failed.length) {
      log('database schema is up to date');
      return 0;
    }
    log(`applying ${before.missing.length} migration(s)${before.failed.length ? ` (failed before: ${before.failed.join(', ')})` : ''}`);
    const cli = spawnSync(process.execPath, [join(ROOT, 'prisma', 'engine', 'prisma-cli.mjs'), 'migrate', 'deploy'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url },
      // Its report is shown only when it fails (on stderr: stdout stays free for the callers' output).
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
    if (cli.status !== 0) {
      process.stderr.write(`${cli.stdout ?? ''}${cli.stderr ?? ''}`);
      log(`prisma migrate deploy failed (${cli.status ?? cli.signal})`);
      return 1;
    }
    const after = await pending(db);
    if (after.missing.length || after.failed.length) {
      log(`still not applied after migrate deploy: ${[...after.missing, ...after.failed].join(', ')}`);
      return 1;
    }
    log(`applied ${before.missing.length} migration(s), the last ${before.missing.at(-1) ?? '(none new)'}`);
    return 0;
  } finally {
    // Ending the session releases the lock too; unlock first so the next process goes on at once.
    await db.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK_KEY]).catch(() => undefined);
    await db.end().catch(() => undefined);
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    log(err.message);
    process.exit(1);
  },
);
