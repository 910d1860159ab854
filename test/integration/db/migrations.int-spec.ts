import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { ADMIN_DATABASE_URL } from '../../support/test-env';

// The real Prisma CLI through the offline wrapper (prisma/engine/prisma-cli.mjs), as H's start
// script and CI use it, against a database of its own that starts empty.
const ROOT = resolve(__dirname, '../../..');
const CLI = join(ROOT, 'prisma/engine/prisma-cli.mjs');
const SCHEMA = join(ROOT, 'prisma/schema.prisma');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function prisma(args: string[], databaseUrl: string): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function urlOf(database: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// Table names of every model in schema.prisma (the model name, or its @@map).
function modelTables(schema: string): string[] {
  return [...schema.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)].map(
    ([, name, body]) => /@@map\(\s*"([^"]+)"\s*\)/.exec(body)?.[1] ?? name,
  );
}

describe('prisma migrations through the offline schema engine', () => {
  const database = `h_migrations_${randomBytes(6).toString('hex')}`;
  const databaseUrl = urlOf(database);
  let db: Client;
  let deploy: CliResult;

  beforeAll(async () => {
    await admin((client) => client.query(`CREATE DATABASE "${database}"`));
    deploy = await prisma(['migrate', 'deploy'], databaseUrl);
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await admin((client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
  });

  it('should create a table for every model when migrate deploy runs on an empty database', async () => {
    expect(deploy).toMatchObject({ code: 0 });
    const expected = modelTables(readFileSync(SCHEMA, 'utf8'));
    expect(expected).toContain('Event');

    const { rows } = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    const tables = rows.map((row) => row.table_name);
    expect(tables).toEqual(expect.arrayContaining([...expected, '_prisma_migrations']));
  });

  it('should reject a second event with the same (sessionId, seq)', async () => {
    const { rows } = await db.query<{ session_id: string }>(`
      WITH u AS (INSERT INTO "User" (id, email, name, "passwordHash", "updatedAt")
                 VALUES (gen_random_uuid(), 'seq@example.test', 'Seq', 'x', now()) RETURNING id),
           t AS (INSERT INTO "Team" (id, name, slug, "updatedAt")
                 VALUES (gen_random_uuid(), 'Seq', 'seq', now()) RETURNING id),
           w AS (INSERT INTO "Workspace" (id, "teamId", "createdById", name, "updatedAt")
                 SELECT gen_random_uuid(), t.id, u.id, 'ws', now() FROM t, u RETURNING id, "teamId", "createdById")
      INSERT INTO "AgentSession" (id, "teamId", "workspaceId", "createdById", title, model, "updatedAt")
      SELECT gen_random_uuid(), w."teamId", w.id, w."createdById", 'session', 'm', now() FROM w
      RETURNING id AS session_id`);
    const sessionId = rows[0].session_id;
    const append = (seq: number) =>
      db.query(`INSERT INTO "Event" ("sessionId", seq, type, data) VALUES ($1, $2, 'message.user', '{}')`, [sessionId, seq]);

    await append(1);
    await append(2);
    await expect(append(2)).rejects.toMatchObject({ code: '23505', constraint: 'Event_sessionId_seq_key' });
  });

  it('should report the database up to date in migrate status after deploy', async () => {
    const status = await prisma(['migrate', 'status'], databaseUrl);

    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Database schema is up to date');
  });

  it('should have committed migrations that produce exactly schema.prisma', async () => {
    // Exit code 2 would mean schema.prisma changed without a new migration.
    const diff = await prisma(
      ['migrate', 'diff', '--from-migrations', 'prisma/migrations', '--to-schema', 'prisma/schema.prisma', '--exit-code'],
      databaseUrl,
    );

    expect(diff.stdout).toContain('No difference detected');
    expect(diff.code).toBe(0);
  });

  it('should generate a client that creates and reads a User through adapter-pg', async () => {
    // Generate from a copy of the schema whose generator writes into a scratch folder inside the
    // repo (so the client resolves @prisma/client from the repo's node_modules).
    const scratch = join(ROOT, 'tmp', `prisma-generate-${randomBytes(6).toString('hex')}`);
    mkdirSync(scratch, { recursive: true });
    try {
      const schema = readFileSync(SCHEMA, 'utf8').replace(/^(\s*output\s*=\s*)".*"$/m, '$1"./client"');
      writeFileSync(join(scratch, 'schema.prisma'), schema);

      const generate = await prisma(['generate', '--schema', join(scratch, 'schema.prisma')], databaseUrl);
      expect(generate).toMatchObject({ code: 0 });
      const clientFile = join(scratch, 'client', 'client.ts');
      expect(existsSync(clientFile)).toBe(true);

      const { PrismaClient } = require(clientFile) as { PrismaClient: new (options: { adapter: unknown }) => any };
      const { PrismaPg } = await import('@prisma/adapter-pg');
      const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
      try {
        const created = await client.user.create({ data: { email: 'client@example.test', name: 'Client', passwordHash: 'x' } });
        const read = await client.user.findUnique({ where: { id: created.id }, select: { email: true, createdAt: true } });
        expect(read).toEqual({ email: 'client@example.test', createdAt: expect.any(Date) });
      } finally {
        await client.$disconnect();
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
