import { execFile } from 'node:child_process';
import { Client } from 'pg';
import { ADMIN_DATABASE_URL, TEST_DATABASE_URL } from '../../support/test-env';

// Runs the operator scripts (scripts/backup.sh, restore.sh, migrate.mjs) as a person would, as child
// processes with an environment of the test's choosing: nothing of the test process's own
// configuration (jest sets DATABASE_URL) leaks into them.

export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Variables H reads (so none comes from the test process unless given). */
const H_VARS = /^(DATABASE_URL|H_[A-Z_]+|SANDBOX_[A-Z_]+|REDIS_[A-Z_]+)$/;

export function runScript(command: string, args: string[], env: Record<string, string>, timeoutMs = 300_000): Promise<ScriptResult> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !H_VARS.test(k)));
  return new Promise((resolve) => {
    execFile(command, args, { cwd: process.cwd(), env: { ...base, ...env }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The URL of a database named `name` on the test server (it need not exist). */
export function databaseUrl(name: string): string {
  return TEST_DATABASE_URL.replace(/\/[^/?]+(\?|$)/, `/${name}$1`);
}

export async function adminQuery(sql: string): Promise<void> {
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(sql).finally(() => admin.end());
}

export const dropDatabase = (name: string) => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);

/** Runs one query on a database of the test server and closes the connection. */
export async function query<T extends Record<string, unknown> = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query<T>(sql, params)).rows;
  } finally {
    await db.end();
  }
}
