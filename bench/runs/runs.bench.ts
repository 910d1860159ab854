// Runs as jobs under load: N concurrent sessions (default 50), each posting one message, against the
// scripted model, with the BUILT api and worker as separate processes (what production runs) and
// one Socket.IO client per session. Prints enqueue → worker start latency, event latency from
// append to a Socket.IO client, runs per second and api memory; exits non-zero when a target is
// missed. Run: node bench/engine/run.mjs bench/runs/runs.bench.ts (see bench/runs/README.md).
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import Docker from 'dockerode';
import { Client } from 'pg';
import { io, type Socket } from 'socket.io-client';
import { ensureSandboxImage } from '@h/sandbox';
import { parseScenario } from '@h/scripted-model';
import { ensureServerBuild } from '../../test/support/server-build';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? 5);
const DRIVER = process.env.BENCH_SANDBOX_DRIVER === 'local' ? 'local' : 'docker';
const DB_NAME = process.env.BENCH_DATABASE ?? 'h_bench';
// 'paced' (default): messages arrive BENCH_ARRIVAL_MS apart and the model streams a chunk every
// BENCH_CHUNK_DELAY_MS, so all sessions are busy at once, as with a real provider. 'burst': every
// message in the same instant and an instant model: a stress figure for the 2-core machine.
const MODE = process.env.BENCH_MODE === 'burst' ? 'burst' : 'paced';
const ARRIVAL_MS = MODE === 'burst' ? 0 : Number(process.env.BENCH_ARRIVAL_MS ?? 40);
const CHUNK_DELAY_MS = MODE === 'burst' ? 0 : Number(process.env.BENCH_CHUNK_DELAY_MS ?? 100);
const ROOT = process.cwd();
const id = randomBytes(3).toString('hex');
const prefix = `h-bench-${id}-`;
const logDir = resolve('tmp/bench-logs');

const scenario = parseScenario({
  name: 'bench-two-step',
  match: { firstUserMessageContains: 'benchmark note' },
  turns: [
    {
      expect: { lastMessageRole: 'user' },
      ...(CHUNK_DELAY_MS ? { fault: { type: 'slow', chunkDelayMs: CHUNK_DELAY_MS } } : {}),
      thinking: 'Write the note.',
      text: 'Writing the note now.',
      toolCalls: [{ name: 'write_file', arguments: { path: 'bench/note.txt', content: 'benchmark note\n' } }],
    },
    {
      expect: { lastMessageRole: 'tool' },
      ...(CHUNK_DELAY_MS ? { fault: { type: 'slow', chunkDelayMs: CHUNK_DELAY_MS } } : {}),
      thinking: 'Done; summarise.',
      toolCalls: [
        {
          name: 'write_summary',
          arguments: {
            summary: '### Changes Made\n- `bench/note.txt`: created.\n\n### Verification\n- Checked the write_file result: created.\n\n### Outcome\nThe note exists.',
          },
        },
        { name: 'task_complete', arguments: {} },
      ],
    },
  ],
});

// ---------- small helpers ----------
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

class Api {
  cookies = new Map<string, string>();
  constructor(readonly base: string) {}
  async call(method: string, path: string, body?: unknown): Promise<any> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.cookies.has('h_csrf') && method !== 'GET') headers['x-csrf-token'] = this.cookies.get('h_csrf') ?? '';
    const res = await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1));
    }
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
}

function spawnApp(name: string, main: string, env: NodeJS.ProcessEnv, args: string[] = []): { child: ChildProcess; started: Promise<void> } {
  mkdirSync(logDir, { recursive: true });
  const log = createWriteStream(join(logDir, `${id}-${name}.log`));
  const child = spawn('bash', ['scripts/run-node.sh', main, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.pipe(log);
  const started = new Promise<void>((res, rej) => {
    child.stdout?.on('data', (d: Buffer) => {
      log.write(d);
      if (/H (worker|api) started|listening/i.test(d.toString())) res();
    });
    child.once('exit', (code) => rej(new Error(`${name} exited with ${code}; see ${logDir}`)));
  });
  process.once('exit', () => child.kill('SIGKILL'));
  return { child, started };
}

async function prepareDatabase(url: string): Promise<void> {
  const admin = new Client({ connectionString: 'postgresql://root@127.0.0.1:5432/postgres' });
  await admin.connect();
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
  if (!rowCount) await admin.query(`CREATE DATABASE "${DB_NAME}"`);
  await admin.end();
  execFileSync('node', ['prisma/engine/prisma-cli.mjs', 'migrate', 'deploy'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url }, stdio: 'pipe' });
}

async function removeSandboxes(): Promise<void> {
  const docker = new Docker();
  for (const c of await docker.listContainers({ all: true }).catch(() => [])) {
    if (c.Names.some((n) => n.replace(/^\//, '').startsWith(prefix))) await docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined);
  }
  const { Volumes } = await docker.listVolumes().catch(() => ({ Volumes: [] as { Name: string }[] }));
  for (const v of Volumes ?? []) if (v.Name.startsWith(prefix)) await docker.getVolume(v.Name).remove({ force: true }).catch(() => undefined);
}

// ---------- one round: SESSIONS sessions, one run each, all posted at once ----------
interface RoundResult {
  /** POST sent → the run row's createdAt (Postgres clock, same machine). */
  toCreated: number[];
  /** createdAt → startedAt: admission, enqueue, BullMQ pickup, claim. */
  createdToStart: number[];
  postMs: number[];
  startLatency: number[];
  startedEventLatency: number[];
  eventLatency: number[];
  wallMs: number;
  runs: number;
  /** Most runs between run.started and their end at one moment. */
  maxConcurrent: number;
}

async function round(api: Api, base: string, workspaceIds: string[], cookie: string, db: Client): Promise<RoundResult> {
  const sessions: string[] = await Promise.all(
    Array.from({ length: SESSIONS }, (_, i) =>
      api.call('POST', `/api/v1/workspaces/${workspaceIds[i % workspaceIds.length]}/sessions`, { permissionMode: 'skip' }).then((s) => s.id as string),
    ),
  );
  const eventLatency: number[] = [];
  const runStartedAt = new Map<string, number>();
  const done = new Set<string>();
  let maxConcurrent = 0;
  const sockets: Socket[] = await Promise.all(
    sessions.map(
      (sessionId) =>
        new Promise<Socket>((res, rej) => {
          const socket = io(base, { path: '/api/socket.io', transports: ['websocket'], extraHeaders: { cookie }, reconnection: false, forceNew: true });
          socket.on('event', (e: { seq: number; ts: string; type: string; runId: string }) => {
            const now = Date.now();
            eventLatency.push(now - Date.parse(e.ts));
            if (e.type === 'run.started' && !runStartedAt.has(e.runId)) {
              runStartedAt.set(e.runId, Date.parse(e.ts));
              maxConcurrent = Math.max(maxConcurrent, runStartedAt.size - done.size);
            }
            if (e.type === 'run.done' || e.type === 'run.failed') done.add(e.runId);
          });
          socket.once('ready', () => {
            socket.emit('subscribe', { sessionId, afterSeq: 0 }, (ack: { ok: boolean }) => (ack.ok ? res(socket) : rej(new Error('subscribe refused'))));
          });
          socket.once('connect_error', rej);
        }),
    ),
  );
  // Replayed events (none yet, sessions are new) would not be live latency: start counting now.
  eventLatency.length = 0;
  const t0 = Date.now();
  const posted = await Promise.all(
    sessions.map(async (sessionId, i) => {
      if (ARRIVAL_MS) await sleep(i * ARRIVAL_MS);
      const before = Date.now();
      const run = await api.call('POST', `/api/v1/sessions/${sessionId}/messages`, { content: 'Write the benchmark note.' });
      return { runId: run.id as string, before, postMs: Date.now() - before };
    }),
  );
  await until('every run to end', async () => done.size >= posted.length, 300_000);
  const wallMs = Date.now() - t0;
  const startLatency: number[] = [];
  const startedEventLatency: number[] = [];
  for (const p of posted) {
    // run.done is in the log a moment before the run's row says completed.
    const run = await until('the run to finish', async () => {
      const r = await api.call('GET', `/api/v1/runs/${p.runId}`);
      return ['running', 'queued'].includes(r.status) ? null : r;
    });
    if (run.status !== 'completed') throw new Error(`run ${p.runId} ended ${run.status}: ${JSON.stringify(run.error)}`);
    startLatency.push(Date.parse(run.startedAt) - p.before);
    startedEventLatency.push((runStartedAt.get(p.runId) ?? NaN) - p.before);
  }
  for (const s of sockets) s.close();
  const rows = await db.query<{ id: string; createdAt: Date; startedAt: Date }>('SELECT id, "createdAt", "startedAt" FROM "Run" WHERE id = ANY($1)', [
    posted.map((p) => p.runId),
  ]);
  const byId = new Map(rows.rows.map((r) => [r.id, { created: r.createdAt.getTime(), started: r.startedAt.getTime() }]));
  const toCreated = posted.map((p) => (byId.get(p.runId)?.created ?? NaN) - p.before);
  const createdToStart = posted.map((p) => (byId.get(p.runId)?.started ?? NaN) - (byId.get(p.runId)?.created ?? NaN));
  return { toCreated, createdToStart, postMs: posted.map((p) => p.postMs), startLatency, startedEventLatency, eventLatency, wallMs, runs: posted.length, maxConcurrent };
}

async function main(): Promise<void> {
  // The api and worker run from dist/: rebuilt here when a server source file is newer.
  ensureServerBuild();
  const dbUrl = `postgresql://root@127.0.0.1:5432/${DB_NAME}`;
  await prepareDatabase(dbUrl);
  // The model server is a process of its own, like a real provider: its streaming must not share
  // an event loop with the clients whose receive times are measured.
  const scenarioDir = resolve(`tmp/bench-scenarios-${id}`);
  mkdirSync(scenarioDir, { recursive: true });
  writeFileSync(join(scenarioDir, `${scenario.name}.json`), JSON.stringify(scenario));
  const modelPort = await freePort();
  const modelProc = spawnApp('model', 'apps/model-server/src/main.js', process.env, ['--port', String(modelPort), '--scenarios', scenarioDir]);
  await modelProc.started;
  const model = { url: `http://127.0.0.1:${modelPort}/v1` };
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: dbUrl,
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `h-bench-${id}`,
    H_PORT: String(port),
    H_HOST: '127.0.0.1',
    WEB_INTERNAL_URL: '',
    H_MASTER_KEY: randomBytes(32).toString('base64'),
    H_SECURE_COOKIES: 'false',
    H_DATA_DIR: resolve('tmp/bench-data'),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    LOG_STDOUT: 'true',
    DEEPSEEK_BASE_URL: model.url,
    RUNS_PER_TEAM: String(SESSIONS * 2),
    RUNS_PER_USER: String(SESSIONS * 2),
    WORKER_CONCURRENCY: String(Math.min(64, SESSIONS)),
    SANDBOX_DRIVER: DRIVER,
    H_ALLOW_LOCAL_SANDBOX: DRIVER === 'local' ? 'true' : 'false',
    SANDBOX_LOCAL_DIR: resolve(`tmp/bench-workspaces-${id}`),
    SANDBOX_NAME_PREFIX: prefix,
    SANDBOX_POOL_SIZE: '0',
    LOGIN_MAX_ATTEMPTS: '1000',
  };
  if (DRIVER === 'docker') env.SANDBOX_IMAGE = process.env.H_SANDBOX_IMAGE ?? (await ensureSandboxImage());
  const apiProc = spawnApp('api', 'apps/api/src/main.js', env);
  apiProc.started.catch(() => undefined); // readiness comes from /api/ready
  const workerProc = spawnApp('worker', 'apps/worker/src/main.js', env);
  const base = `http://127.0.0.1:${port}`;
  let peakApiRss = 0;
  const sampler = setInterval(() => {
    if (apiProc.child.pid) peakApiRss = Math.max(peakApiRss, rssMb(apiProc.child.pid));
  }, 100);
  try {
    await workerProc.started;
    await until('the api to be ready', async () => (await fetch(`${base}/api/ready`).catch(() => null))?.ok);
    const api = new Api(base);
    await api.call('POST', '/api/v1/auth/signup', { email: `bench-${id}@example.test`, password: 'correct-horse-battery-staple', name: 'bench' });
    const team = await api.call('POST', '/api/v1/teams', { name: 'bench team' });
    await api.call('PUT', `/api/v1/teams/${team.id}/providers/deepseek`, { apiKey: 'sk-scripted-bench' });
    const workspaceIds: string[] = [];
    for (let i = 0; i < WORKSPACES; i++) workspaceIds.push((await api.call('POST', `/api/v1/teams/${team.id}/workspaces`, { name: `bench-${i}` })).id);
    for (const w of workspaceIds) await until('workspace ready', async () => (await api.call('GET', `/api/v1/workspaces/${w}`)).status === 'ready');
    const cookie = [...api.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

    // Warm-up: starts each workspace's sandbox and the code paths; not measured.
    const idleApiRss = apiProc.child.pid ? rssMb(apiProc.child.pid) : 0;
    const db = new Client({ connectionString: dbUrl });
    await db.connect();
    await round(api, base, workspaceIds, cookie, db);
    peakApiRss = 0;
    const results: RoundResult[] = [];
    for (let r = 0; r < ROUNDS; r++) results.push(await round(api, base, workspaceIds, cookie, db));
    await db.end();
    const endApiRss = apiProc.child.pid ? rssMb(apiProc.child.pid) : 0;
    const workerRss = workerProc.child.pid ? rssMb(workerProc.child.pid) : 0;

    const all = (k: 'startLatency' | 'startedEventLatency' | 'eventLatency' | 'toCreated' | 'createdToStart' | 'postMs') => results.flatMap((r) => r[k]);
    const split = (k: 'toCreated' | 'createdToStart' | 'postMs') => `p50 ${pct(all(k), 50)} ms, p99 ${pct(all(k), 99)} ms`;
    const start = all('startLatency');
    const startedEvent = all('startedEventLatency');
    const events = all('eventLatency');
    const runsPerSecond = results.map((r) => r.runs / (r.wallMs / 1000));
    const rows: Array<{ figure: string; value: string; target: string; ok: boolean }> = [
      {
        figure: 'enqueue → worker start (POST → run.startedAt)',
        value: `p50 ${pct(start, 50)} ms, p99 ${pct(start, 99)} ms (n=${start.length})`,
        target: 'p50 ≤ 25 ms',
        ok: pct(start, 50) <= 25,
      },
      { figure: '  of which POST → run row created', value: split('toCreated'), target: '—', ok: true },
      { figure: '  of which run row created → claimed', value: split('createdToStart'), target: '—', ok: true },
      { figure: 'POST /messages response time', value: split('postMs'), target: '—', ok: true },
      {
        figure: 'enqueue → run.started event',
        value: `p50 ${pct(startedEvent, 50)} ms, p99 ${pct(startedEvent, 99)} ms`,
        target: '—',
        ok: true,
      },
      {
        figure: 'event latency, append → Socket.IO client',
        value: `p50 ${pct(events, 50)} ms, p99 ${pct(events, 99)} ms (n=${events.length})`,
        target: 'p99 ≤ 50 ms',
        ok: pct(events, 99) <= 50,
      },
      {
        figure: 'runs per second (per round)',
        value: runsPerSecond.map((x) => x.toFixed(1)).join(' · '),
        target: '—',
        ok: true,
      },
      { figure: 'most runs running at once', value: results.map((r) => r.maxConcurrent).join(' · '), target: '—', ok: true },
      { figure: 'api RSS', value: `idle ${idleApiRss.toFixed(0)} MB, peak ${peakApiRss.toFixed(0)} MB, after ${endApiRss.toFixed(0)} MB`, target: '—', ok: true },
      { figure: 'worker RSS after the rounds', value: `${workerRss.toFixed(0)} MB`, target: '—', ok: true },
    ];
    process.stdout.write(
      `\nruns benchmark (${MODE}: messages ${ARRIVAL_MS} ms apart, model chunks ${CHUNK_DELAY_MS} ms apart): ` +
        `${SESSIONS} concurrent sessions × ${ROUNDS} rounds, ${WORKSPACES} workspaces, sandbox driver ${DRIVER}` +
        `${DRIVER === 'local' ? ' (UNSAFE local driver: no container isolation)' : ' (Docker containers)'}, api and worker as separate built processes\n`,
    );
    for (const r of rows) process.stdout.write(`${r.ok ? '  ' : '✗ '}${r.figure.padEnd(46)} ${r.value.padEnd(48)} ${r.target}\n`);
    process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
  } finally {
    clearInterval(sampler);
    for (const p of [apiProc, workerProc, modelProc]) p.child.kill('SIGTERM');
    await sleep(1500);
    for (const p of [apiProc, workerProc, modelProc]) p.child.kill('SIGKILL');
    rmSync(scenarioDir, { recursive: true, force: true });
    if (DRIVER === 'local') rmSync(env.SANDBOX_LOCAL_DIR as string, { recursive: true, force: true });
    if (DRIVER === 'docker') await removeSandboxes();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
