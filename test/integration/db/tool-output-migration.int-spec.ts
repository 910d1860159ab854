import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { ADMIN_DATABASE_URL } from '../../support/test-env';

// Logs written before full outputs moved out of `tool.end` events carry them in data.fullOutput:
// the migration moves each into ToolOutput under its [cmd #N] number and leaves the locator.
const MIGRATIONS = resolve(__dirname, '../../../prisma/migrations');
const TARGET = '20261201090100_tool_outputs';

describe(`migration ${TARGET}`, () => {
  const database = `h_migration_outputs_${randomBytes(6).toString('hex')}`;
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

  it('should move fullOutput out of tool.end events into ToolOutput and keep the locator', async () => {
    const names = readdirSync(MIGRATIONS).filter((n) => /^\d{14}_/.test(n)).sort();
    for (const name of names.filter((n) => n < TARGET)) await apply(name);
    await db.query(`
      INSERT INTO "User" (id, email, name, "passwordHash", "updatedAt") VALUES ('00000000-0000-4000-8000-000000000001', 'm@example.com', 'M', 'x', now());
      INSERT INTO "Team" (id, name, slug, "updatedAt") VALUES ('00000000-0000-4000-8000-000000000002', 'T', 't', now());
      INSERT INTO "Workspace" (id, "teamId", "createdById", name, "updatedAt")
        VALUES ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'w', now());
      INSERT INTO "AgentSession" (id, "teamId", "workspaceId", "createdById", title, model, "updatedAt")
        VALUES ('00000000-0000-4000-8000-000000000004', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003',
                '00000000-0000-4000-8000-000000000001', 's', 'm', now());`);
    const session = '00000000-0000-4000-8000-000000000004';
    const full = `all ✓\n${'of it\n'.repeat(1000)}`;
    await db.query(`INSERT INTO "Event" ("sessionId", seq, type, data) VALUES ($1, 1, 'tool.end', $2), ($1, 2, 'tool.end', $3), ($1, 3, 'note', $4)`, [
      session,
      JSON.stringify({ toolCallId: 'c1', name: 'run_command', result: '[cmd #1] key lines', isError: false, durationMs: 1, outputId: 1, outputLabel: 'npm test', fullOutput: full }),
      JSON.stringify({ toolCallId: 'c2', name: 'read_file', result: 'small', isError: false, durationMs: 1 }),
      JSON.stringify({ fullOutput: 'not a tool.end: left alone' }),
    ]);

    await apply(TARGET);

    const events = (await db.query(`SELECT seq, data FROM "Event" ORDER BY seq`)).rows;
    expect(events[0].data).toEqual({
      toolCallId: 'c1', name: 'run_command', result: '[cmd #1] key lines', isError: false, durationMs: 1,
      outputId: 1, outputLabel: 'npm test', outputBytes: Buffer.byteLength(full), outputTruncated: false,
    });
    expect(events[1].data).toEqual({ toolCallId: 'c2', name: 'read_file', result: 'small', isError: false, durationMs: 1 });
    expect(events[2].data).toEqual({ fullOutput: 'not a tool.end: left alone' });
    const outputs = (await db.query(`SELECT "sessionId", number, "callId", label, bytes, truncated, content FROM "ToolOutput"`)).rows;
    expect(outputs).toEqual([{ sessionId: session, number: 1, callId: 'c1', label: 'npm test', bytes: Buffer.byteLength(full), truncated: false, content: full }]);
  });
});
