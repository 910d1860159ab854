import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { ADMIN_DATABASE_URL } from './test-env';

const MIGRATIONS = resolve(__dirname, '../../prisma/migrations');

/**
 * A scratch database for testing one data migration: `upTo(target)` applies every migration before
 * it (so the test can insert rows in the old shape), `apply(target)` runs the target itself.
 */
export function useMigrationDatabase(label: string) {
  const database = `h_migration_${label}_${randomBytes(6).toString('hex')}`;
  let db: Client;

  beforeAll(async () => {
    const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    await admin.end();
    const url = new URL(ADMIN_DATABASE_URL);
    url.pathname = `/${database}`;
    db = new Client({ connectionString: url.toString() });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  const apply = async (name: string) => db.query(readFileSync(join(MIGRATIONS, name, 'migration.sql'), 'utf8'));
  return {
    db: () => db,
    apply,
    upTo: async (target: string) => {
      const names = readdirSync(MIGRATIONS).filter((n) => /^\d{14}_/.test(n)).sort();
      for (const name of names.filter((n) => n < target)) await apply(name);
    },
    /** A user, team, workspace and session (ids ending …1 to …4) for rows that need them. */
    seedSession: async () => {
      await db.query(`
        INSERT INTO "User" (id, email, name, "passwordHash", "updatedAt") VALUES ('00000000-0000-4000-8000-000000000001', 'm@example.com', 'M', 'x', now());
        INSERT INTO "Team" (id, name, slug, "updatedAt") VALUES ('00000000-0000-4000-8000-000000000002', 'T', 't', now());
        INSERT INTO "Workspace" (id, "teamId", "createdById", name, "updatedAt")
          VALUES ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'w', now());
        INSERT INTO "AgentSession" (id, "teamId", "workspaceId", "createdById", title, model, "updatedAt")
          VALUES ('00000000-0000-4000-8000-000000000004', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003',
                  '00000000-0000-4000-8000-000000000001', 's', 'm', now());`);
      return '00000000-0000-4000-8000-000000000004';
    },
  };
}
