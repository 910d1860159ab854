// scripts/migrate.mjs, which every start path runs (start.sh, the server image's api and worker
// roles, restore.sh): processes starting together apply each migration once, one of them does the
// work and the others wait for H's lock instead of failing on Prisma's 10 s lock timeout; and an
// older backup set restored onto this checkout is brought up to its schema.
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { waitFor } from '../../support/wait-for';
import { databaseUrl, dropDatabase, adminQuery, query, runScript } from './ops-fixture';

const MIGRATIONS = join(process.cwd(), 'prisma', 'migrations');
const LOCAL = readdirSync(MIGRATIONS).filter((n) => /^\d{14}_/.test(n)).sort();
const HMIG = 0x484d4947;

/** Applied migrations: name -> how many finished rows. */
async function appliedCounts(url: string): Promise<Record<string, number>> {
  const rows = await query<{ migration_name: string; n: number }>(
    url,
    'SELECT migration_name, count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL GROUP BY 1',
  );
  return Object.fromEntries(rows.map((r) => [r.migration_name, r.n]));
}

const once = () => Object.fromEntries(LOCAL.map((n) => [n, 1]));

describe('migrations at start under a lock', () => {
  const databases: string[] = [];
  const fresh = () => {
    const name = `h_test_migrate_${randomUUID().slice(0, 8)}`;
    databases.push(name);
    return name;
  };
  afterAll(async () => {
    for (const name of databases) await dropDatabase(name);
  });

  it('should apply every migration exactly once when two processes migrate a fresh database at the same time', async () => {
    const url = databaseUrl(fresh());
    const [a, b] = await Promise.all([
      runScript('node', ['scripts/migrate.mjs'], { DATABASE_URL: url }),
      runScript('node', ['scripts/migrate.mjs'], { DATABASE_URL: url }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(await appliedCounts(url)).toEqual(once());
    // One did the work; the other found it done once it had the lock (it never ran the CLI).
    const logs = [a.stderr, b.stderr];
    expect(logs.filter((l) => l.includes(`applying ${LOCAL.length} migration(s)`))).toHaveLength(1);
    expect(logs.filter((l) => l.includes('database schema is up to date'))).toHaveLength(1);
  });

  it('should wait while another process holds the migration lock, then apply', async () => {
    const name = fresh();
    await adminQuery(`CREATE DATABASE "${name}"`);
    const url = databaseUrl(name);
    const holder = new Client({ connectionString: url });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [HMIG]);
    const child = spawn('node', ['scripts/migrate.mjs'], { cwd: process.cwd(), env: { ...process.env, DATABASE_URL: url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor('migrate to wait for the lock', async () => stderr.includes('another process is applying migrations; waiting'));
      // Still waiting: nothing applied while the lock is held.
      expect((await query(url, `SELECT to_regclass('public._prisma_migrations') AS t`))[0].t).toBeNull();
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1)', [HMIG]);
      await holder.end();
    }
    expect(await exited).toBe(0);
    expect(await appliedCounts(url)).toEqual(once());
  });

  it('should bring an older backup set up to this schema when it is restored', async () => {
    // A database as an older H left it: every migration but the last applied, recorded the way
    // Prisma records them (checksum = sha256 of migration.sql).
    const older = fresh();
    await adminQuery(`CREATE DATABASE "${older}"`);
    const olderUrl = databaseUrl(older);
    const db = new Client({ connectionString: olderUrl });
    await db.connect();
    await db.query(`CREATE TABLE _prisma_migrations (
      id varchar(36) PRIMARY KEY, checksum varchar(64) NOT NULL, finished_at timestamptz, migration_name varchar(255) NOT NULL,
      logs text, rolled_back_at timestamptz, started_at timestamptz NOT NULL DEFAULT now(), applied_steps_count integer NOT NULL DEFAULT 0)`);
    for (const name of LOCAL.slice(0, -1)) {
      const sql = readFileSync(join(MIGRATIONS, name, 'migration.sql'), 'utf8');
      await db.query(sql);
      await db.query('INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)', [
        randomUUID(), createHash('sha256').update(sql).digest('hex'), name,
      ]);
    }
    await db.end();
    const dir = mkdtempSync(join(tmpdir(), 'h-backup-old-'));
    try {
      const env = { H_DATA_DIR: join(dir, 'data'), SANDBOX_NAME_PREFIX: 'h-test-old-' };
      const backup = await runScript('bash', ['scripts/backup.sh', join(dir, 'set')], { ...env, DATABASE_URL: olderUrl });
      expect(backup).toMatchObject({ code: 0 });
      expect(JSON.parse(readFileSync(join(dir, 'set', 'manifest.json'), 'utf8')).database.lastMigration).toBe(LOCAL.at(-2));
      const target = databaseUrl(fresh());
      const restore = await runScript('bash', ['scripts/restore.sh', join(dir, 'set'), '--database-url', target], env);
      expect(restore).toMatchObject({ code: 0 });
      expect(restore.stderr).toContain('applying 1 migration(s)');
      expect(await appliedCounts(target)).toEqual(once());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
