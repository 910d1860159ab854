import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '@h/config';
import { waitFor } from './wait-for';
import { envOf } from './worker-process';
import { TEST_LOG_DIR } from './test-env';

export interface ApiProcess {
  url: string;
  logFile: string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

let apiCount = 0;

/** The BUILT api (`dist/apps/api/src/main.js`) as a process of its own with `config`, on `port`. */
export async function startApiProcess(config: AppConfig, port: number): Promise<ApiProcess> {
  mkdirSync(TEST_LOG_DIR, { recursive: true });
  const logFile = join(TEST_LOG_DIR, `api-${process.pid}-${++apiCount}.log`);
  const out = openSync(logFile, 'a');
  const child = spawn('bash', ['scripts/run-node.sh', 'apps/api/src/main.js'], {
    cwd: process.cwd(),
    env: envOf(config, { H_PORT: String(port), H_HOST: '127.0.0.1', LOG_FILE: logFile, LOG_STDOUT: 'false', WEB_INTERNAL_URL: '' }),
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  void exited.then(() => process.off('exit', reap));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`api process to answer /api/ready (log: ${logFile})`, async () => {
    if (child.exitCode !== null) throw new Error(`api exited with ${child.exitCode} during start; see ${logFile}`);
    return fetch(`${url}/api/ready`).then((r) => r.ok).catch(() => false);
  }, 60_000);
  return {
    url,
    logFile,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
