// The runs benchmark's processes and clients: the BUILT api, worker and scripted model server as
// separate processes (what production runs), a logged-in HTTP client, and the small helpers the
// phases share. Nothing here measures; runs.bench.ts and steps-phase.ts do.
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import Docker from 'dockerode';
import { Client } from 'pg';

export const ROOT = process.cwd();
export const BENCH_ID = randomBytes(3).toString('hex');
export const LOG_DIR = resolve('tmp/bench-logs');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}

export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

export class Api {
  cookies = new Map<string, string>();
  constructor(readonly base: string) {}
  async call(method: string, path: string, body?: unknown): Promise<any> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
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
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface AppProcess {
  child: ChildProcess;
  started: Promise<void>;
  /** Every stdout line, as it arrives. */
  onLine(listener: (line: string) => void): void;
}

export function spawnApp(name: string, main: string, env: NodeJS.ProcessEnv, args: string[] = [], nodeArgs: string[] = []): AppProcess {
  mkdirSync(LOG_DIR, { recursive: true });
  const log = createWriteStream(join(LOG_DIR, `${BENCH_ID}-${name}.log`));
  // What scripts/run-node.sh does, with room for node's own flags (--cpu-prof is refused in NODE_OPTIONS).
  const child = spawn(process.execPath, ['--enable-source-maps', '-r', 'tsconfig-paths/register', ...nodeArgs, join(ROOT, 'dist', main), ...args], {
    cwd: ROOT,
    env: { ...env, TS_NODE_PROJECT: join(ROOT, 'dist/tsconfig.json') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.pipe(log);
  const listeners: Array<(line: string) => void> = [];
  let partial = '';
  child.stdout?.on('data', (d: Buffer) => {
    log.write(d);
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) for (const f of listeners) f(l);
  });
  const started = new Promise<void>((res, rej) => {
    listeners.push((l) => {
      if (/H (worker|api) started|listening/i.test(l)) res();
    });
    child.once('exit', (code) => rej(new Error(`${name} exited with ${code}; see ${LOG_DIR}`)));
  });
  process.once('exit', () => child.kill('SIGKILL'));
  return { child, started, onLine: (f) => listeners.push(f) };
}

export async function prepareDatabase(dbName: string, url: string): Promise<void> {
  const admin = new Client({ connectionString: 'postgresql://root@127.0.0.1:5432/postgres' });
  await admin.connect();
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
  if (!rowCount) await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  execFileSync('node', ['prisma/engine/prisma-cli.mjs', 'migrate', 'deploy'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url }, stdio: 'pipe' });
}

export async function removeSandboxes(prefix: string): Promise<void> {
  const docker = new Docker();
  for (const c of await docker.listContainers({ all: true }).catch(() => [])) {
    if (c.Names.some((n) => n.replace(/^\//, '').startsWith(prefix))) await docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined);
  }
  const { Volumes } = await docker.listVolumes().catch(() => ({ Volumes: [] as { Name: string }[] }));
  for (const v of Volumes ?? []) if (v.Name.startsWith(prefix)) await docker.getVolume(v.Name).remove({ force: true }).catch(() => undefined);
}

/** Uptime's load averages, to print next to figures taken on a shared machine. */
export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
