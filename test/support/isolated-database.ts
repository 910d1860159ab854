import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { ADMIN_DATABASE_URL, TEST_DATABASE_URL } from './test-env';

async function asAdmin(sql: string): Promise<void> {
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(sql).finally(() => admin.end());
}

/**
 * A migrated database of the caller's own. Every worker sweeps every stale run of its database, so
 * a stack whose worker dies on purpose (crash tests) must not share one with other test files: their
 * workers would resume its runs with their own config (master key, model URL) before its new
 * worker does.
 */
export async function createIsolatedDatabase(tag: string, name = `h_test_${tag}_${randomUUID().slice(0, 8)}`): Promise<{ url: string; drop(): Promise<void> }> {
  await asAdmin(`CREATE DATABASE "${name}"`);
  const url = TEST_DATABASE_URL.replace(/\/[^/?]+(\?|$)/, `/${name}$1`);
  execFileSync('node', ['prisma/engine/prisma-cli.mjs', 'migrate', 'deploy'], { env: { ...process.env, DATABASE_URL: url }, stdio: 'pipe' });
  return { url, drop: () => asAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
