import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig, envSchema } from '@h/config';
import { createApiApp } from '../../apps/api/src/bootstrap';
import { waitFor } from './api-harness';
import { TEST_LOG_DIR } from './test-env';

export { ensureServerBuild } from './server-build';

// Crash tests need processes they can SIGKILL: the BUILT worker (what production runs) as a child
// process, a private redis-server they may shut down, and an api they can close and start again.

const ROOT = process.cwd();

/** The process environment that gives a child exactly this config (nothing inherited from ours). */
export function envOf(config: AppConfig, overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const schemaKeys = new Set(Object.keys(envSchema.shape));
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !schemaKeys.has(k)));
  const fromConfig = Object.fromEntries(
    Object.entries(config.env)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );
  return { ...base, ...fromConfig, ...overrides };
}

export interface WorkerProcess {
  child: ChildProcess;
  logFile: string;
  /** SIGKILL: no shutdown hook runs, no lock is released. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

let workerCount = 0;

/** Starts `dist/apps/worker/src/main.js` with the config's env; resolves once it says it started. */
export async function startWorkerProcess(config: AppConfig, overrides: Record<string, string> = {}): Promise<WorkerProcess> {
  mkdirSync(TEST_LOG_DIR, { recursive: true });
  const logFile = join(TEST_LOG_DIR, `worker-${process.pid}-${++workerCount}.log`);
  const child = spawn('bash', ['scripts/run-node.sh', 'apps/worker/src/main.js'], {
    cwd: ROOT,
    env: envOf(config, { LOG_FILE: logFile, LOG_STDOUT: 'false', ...overrides }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile, { flags: 'a' });
  let started = false;
  child.stdout?.on('data', (d: Buffer) => {
    log.write(d);
    if (d.toString().includes('H worker started')) started = true;
  });
  child.stderr?.on('data', (d: Buffer) => log.write(d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Never leave a worker behind when the test process itself is killed or exits early.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  void exited.then(() => process.off('exit', reap));
  await waitFor(`worker process to start (log: ${logFile})`, async () => {
    if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode} during start; see ${logFile}`);
    return started;
  }, 60_000);
  return {
    child,
    logFile,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      // A worker that does not shut down within 15 s is killed: teardown must not hang a suite.
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The api app of `config`, listening on a given port (an api restart keeps its address). */
export async function startApiOnPort(config: AppConfig, port: number): Promise<NestExpressApplication> {
  const api = await createApiApp(config);
  await api.listen(port, '127.0.0.1');
  return api;
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** `shutdown nosave` then start an empty server on the same port: everything in Redis is gone. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** Starts an empty server again on the same port after stop(). */
  start(): Promise<void>;
}

/**
 * A redis-server of this test's own (the machine's Redis on 6379 is shared by everyone, so it is
 * never restarted), in memory only, so that a restart loses every queue and key like a crash does.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  // A random high port; if it is taken the server exits at once and another is tried.
  let port = 0;
  let proc: ChildProcess | null = null;
  const ping = () => {
    try {
      return execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'pipe' }).toString().trim() === 'PONG';
    } catch {
      return false;
    }
  };
  const start = async () => {
    const p = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    proc = p;
    await waitFor(`private redis on ${port}`, async () => {
      if (p.exitCode !== null) throw new Error(`redis-server on ${port} exited with ${p.exitCode}`);
      return ping();
    });
  };
  const stop = async () => {
    const p = proc;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    try {
      execFileSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave'], { stdio: 'pipe' });
    } catch {
      /* the connection drops as the server exits */
    }
    await exited;
  };
  for (let attempt = 0; ; attempt++) {
    port = 20000 + Math.floor(Math.random() * 20000);
    try {
      await start();
      break;
    } catch (err) {
      if (attempt >= 4) throw err;
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart() {
      await stop();
      await start();
    },
    stop,
    start,
  };
}
