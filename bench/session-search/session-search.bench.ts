// Session search over 1,000,000 events: seeds a database of its own with generate_series (4
// workspaces, 4,000 sessions of 250 events: user and assistant messages, tool calls and results
// over a vocabulary with common, medium and rare words), then times SessionSearchService's
// session_search path (pages, best per session, ranking, snippets) for a mix of queries and
// prints p50/p95 against the target (p95 ≤ 50 ms). Not run in CI.
//   node bench/engine/run.mjs bench/session-search/session-search.bench.ts
//   BENCH_SEARCH_RUNS=200 BENCH_SEARCH_KEEP=1 node bench/engine/run.mjs …   (KEEP: leave the database)
//   BENCH_SEARCH_DB=h_bench_search_xxxxxx node bench/engine/run.mjs …      (time a kept database again, no seeding)
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { PrismaService, SessionSearchRepository } from '@h/db';
import { SessionSearchService, toTsquery } from '@h/session-search';

const TARGET_P95_MS = 50;
const EVENTS = 1_000_000;
const SESSIONS = 4_000;
const WORKSPACES = 4;
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 100);
const ADMIN_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://root@127.0.0.1:5432/postgres';
const REUSE = process.env.BENCH_SEARCH_DB;
const NAME = REUSE ?? `h_bench_search_${randomBytes(3).toString('hex')}`;
const URL = ADMIN_URL.replace(/\/[^/?]+(\?|$)/, `/${NAME}$1`);

// What people look for: an identifier seen a few hundred times, an error seen in many sessions, a
// file path, two words together, a prefix, and a common word.
const QUERIES = ['invoice_total_4720', 'TypeError undefined', 'src/module17.ts', 'rounding cent', 'parse_conf', 'test failed', 'please word123'];

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

async function sql(url: string, text: string): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

async function seed(): Promise<string> {
  const t0 = performance.now();
  await sql(URL, `
    INSERT INTO "User" ("id", "email", "name", "passwordHash", "updatedAt") VALUES ('00000000-0000-4000-8000-000000000001', 'bench@example.com', 'bench', 'x', now());
    INSERT INTO "Team" ("id", "name", "slug", "updatedAt") VALUES ('00000000-0000-4000-8000-000000000002', 'bench', 'bench', now());
    INSERT INTO "Workspace" ("id", "teamId", "createdById", "name", "updatedAt")
      SELECT ('00000000-0000-4000-8001-' || lpad(w::text, 12, '0'))::uuid, '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'ws' || w, now()
      FROM generate_series(1, ${WORKSPACES}) w;
    INSERT INTO "AgentSession" ("id", "teamId", "workspaceId", "createdById", "title", "model", "lastSeq", "updatedAt", "createdAt")
      SELECT ('00000000-0000-4000-8002-' || lpad(s::text, 12, '0'))::uuid, '00000000-0000-4000-8000-000000000002',
        ('00000000-0000-4000-8001-' || lpad((1 + s % ${WORKSPACES})::text, 12, '0'))::uuid, '00000000-0000-4000-8000-000000000001',
        'Session ' || s, 'deepseek-v4-flash', ${EVENTS / SESSIONS}, now() - (${SESSIONS} - s) * interval '10 minutes', now() - (${SESSIONS} - s) * interval '10 minutes'
      FROM generate_series(1, ${SESSIONS}) s;
    INSERT INTO "Event" ("sessionId", "seq", "type", "data", "ts")
      SELECT ('00000000-0000-4000-8002-' || lpad((1 + (i - 1) / ${EVENTS / SESSIONS})::text, 12, '0'))::uuid,
        1 + (i - 1) % ${EVENTS / SESSIONS},
        (ARRAY['message.user', 'message.assistant', 'tool.start', 'tool.end'])[1 + (i + 3) % 4],
        CASE i % 4
          WHEN 1 THEN jsonb_build_object('content', 'please fix the test in src/module' || (i % 50) || '.ts word' || (i % 997) || ' word' || (i % 89))
          WHEN 2 THEN jsonb_build_object('content', 'I will look at parse_config and word' || (i % 1009) || CASE WHEN i % 97 = 0 THEN ' the rounding was off by a cent' ELSE '' END)
          WHEN 3 THEN jsonb_build_object('toolCallId', 'call_' || i, 'name', 'read_file', 'arguments', '{"path":"src/module' || (i % 50) || '.ts"}', 'category', 'read')
          ELSE jsonb_build_object('toolCallId', 'call_' || (i - 1), 'name', 'run_command', 'isError', false, 'durationMs', 12,
            'result', CASE WHEN i % 40 = 0 THEN 'TypeError: cannot read properties of undefined (reading total) at invoice_total_' || (i % 5000) ELSE 'test failed: expected ' || (i % 1013) || ' received word' || (i % 71) END)
        END,
        now() - (${EVENTS} - i) * interval '600 milliseconds'
      FROM generate_series(1, ${EVENTS}) i;
    ANALYZE;`);
  return `${((performance.now() - t0) / 1000).toFixed(1)} s`;
}

async function main(): Promise<void> {
  if (!REUSE) await sql(ADMIN_URL, `CREATE DATABASE "${NAME}"`);
  const prisma = new PrismaService({ env: { DATABASE_URL: URL, DATABASE_POOL_SIZE: 5 } } as never);
  try {
    if (!REUSE) {
      execFileSync('node', ['prisma/engine/prisma-cli.mjs', 'migrate', 'deploy'], { env: { ...process.env, DATABASE_URL: URL }, stdio: 'pipe' });
      console.log(`seeded ${EVENTS.toLocaleString('en')} events in ${SESSIONS} sessions over ${WORKSPACES} workspaces: ${await seed()}`);
    }
    const repo = new SessionSearchRepository(prisma);
    // Where a query's time goes: milliseconds and calls per repository method, per query.
    const spent = new Map<string, Map<string, { ms: number; calls: number }>>();
    let current = '';
    for (const name of ['searchSessionEvents', 'headlines', 'sessions'] as const) {
      const inner = repo[name].bind(repo) as (...a: unknown[]) => Promise<unknown>;
      (repo as unknown as Record<string, unknown>)[name] = async (...a: unknown[]) => {
        const t0 = performance.now();
        try {
          return await inner(...a);
        } finally {
          const byQuery = spent.get(current) ?? new Map<string, { ms: number; calls: number }>();
          const s = byQuery.get(name) ?? { ms: 0, calls: 0 };
          s.ms += performance.now() - t0;
          s.calls += 1;
          byQuery.set(name, s);
          spent.set(current, byQuery);
        }
      };
    }
    const search = new SessionSearchService(repo);
    const workspaceIds = ['00000000-0000-4000-8001-000000000001'];
    const times: number[] = [];
    const perQuery = new Map<string, number[]>();
    for (let r = -1; r < RUNS; r++) {
      for (const q of QUERIES) {
        current = r < 0 ? '' : q;
        const t0 = performance.now();
        const found = await search.searchSessions({ workspaceIds, excludeSession: null, tsquery: toTsquery(q) as string });
        const ms = performance.now() - t0;
        if (r < 0) {
          console.log(`  "${q}": ${found.hits.length} sessions${found.partial ? ' (partial)' : ''}`);
          continue; // warm-up
        }
        times.push(ms);
        perQuery.set(q, [...(perQuery.get(q) ?? []), ms]);
      }
    }
    for (const [q, xs] of perQuery) {
      const parts = [...(spent.get(q) ?? new Map()).entries()].map(([m, s]) => `${m} ${(s.ms / xs.length).toFixed(1)} ms × ${(s.calls / xs.length).toFixed(1)}`);
      console.log(`  ${q.padEnd(22)} p50 ${pct(xs, 50).toFixed(1)} ms  p95 ${pct(xs, 95).toFixed(1)} ms   (mean per search: ${parts.join(', ')})`);
    }
    const p95 = pct(times, 95);
    console.log(`session_search over ${EVENTS.toLocaleString('en')} events: p50 ${pct(times, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (target ≤ ${TARGET_P95_MS} ms) ${p95 <= TARGET_P95_MS ? 'OK' : 'MISSED'}`);
    process.exitCode = p95 <= TARGET_P95_MS ? 0 : 1;
  } finally {
    await prisma.$disconnect();
    if (!process.env.BENCH_SEARCH_KEEP && !REUSE) await sql(ADMIN_URL, `DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`);
  }
}

void main();
