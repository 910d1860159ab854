import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
// Relative import: global setup has no @h/* mapping (the scripted model imports only node and zod).
import { startScriptedModelServer, type ScriptedModelServer } from '../../libs/scripted-model/src/scripted-model.server';
import { freePort } from './free-port';
import globalSetup from './global-setup';
import { E2E_DISK_DIR, TEST_DATABASE_URL, TEST_LOG_DIR, TEST_REDIS_URL } from './test-env';

// e2e tests drive H the way a user meets it: the BUILT api, worker and web as separate processes
// (what scripts/start.sh runs), on free ports, against the test database. Build first
// (`node scripts/build.mjs`; scripts/test.sh does it).

declare global {
  var __H_E2E_PROCS__: ChildProcess[] | undefined;
  var __H_E2E_MODEL__: ScriptedModelServer | undefined;
}

async function waitForUrl(url: string, procs: ChildProcess[], timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const dead = procs.find((p) => p.exitCode !== null);
    if (dead) throw new Error(`an H process exited with code ${dead.exitCode} during e2e setup; see ${TEST_LOG_DIR}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms; see ${TEST_LOG_DIR}`);
}

export default async function e2eSetup(): Promise<void> {
  await globalSetup();
  const root = process.cwd();
  if (!existsSync(join(root, 'dist/apps/api/src/main.js'))) {
    throw new Error('e2e tests run the built app: run `node scripts/build.mjs` first (scripts/test.sh does).');
  }
  mkdirSync(TEST_LOG_DIR, { recursive: true });
  const [apiPort, webPort] = [await freePort(), await freePort()];
  // The model provider is the one thing replaced: the worker talks to the scripted
  // OpenAI-compatible server (scenarios in libs/scripted-model/scenarios) over real HTTP.
  const model = await startScriptedModelServer({ scenarioDir: join(root, 'libs/scripted-model/scenarios') });
  globalThis.__H_E2E_MODEL__ = model;
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `h-e2e-${process.pid}`,
    H_PORT: String(apiPort),
    H_HOST: '127.0.0.1',
    WEB_INTERNAL_URL: `http://127.0.0.1:${webPort}`,
    H_DATA_DIR: join(root, 'tmp/e2e-data'),
    H_SECURE_COOKIES: 'false',
    LOG_LEVEL: 'debug',
    LOG_FILE: join(TEST_LOG_DIR, 'e2e-stack.log'),
    SANDBOX_NAME_PREFIX: `h-e2e-${process.pid}-`,
    SANDBOX_POOL_SIZE: '0',
    SANDBOX_DISK_MB: '256',
    SANDBOX_DISK_DIR: join(root, E2E_DISK_DIR),
    // The test database already has accounts: sign-up stays open for the specs' new people.
    SIGNUP_POLICY: 'open',
    SIGNUP_MAX_ATTEMPTS: '100000',
    // Specs serve git repositories on loopback (test/support/git-server.ts), as the integration stack does.
    GIT_REMOTE_ALLOW_PRIVATE_HOSTS: 'true',
    DEEPSEEK_BASE_URL: model.url,
    // A team's own provider in e2e specs is the same scripted server on loopback.
    PROVIDER_ALLOWED_INTERNAL_HOSTS: '127.0.0.1',
    ...(process.env.H_SANDBOX_IMAGE ? { SANDBOX_IMAGE: process.env.H_SANDBOX_IMAGE } : {}),
    NEXT_TELEMETRY_DISABLED: '1',
  };
  const start = (name: string, args: string[]) => {
    const out = openSync(join(TEST_LOG_DIR, `e2e-${name}.log`), 'a');
    const child = spawn(args[0], args.slice(1), { cwd: root, env, stdio: ['ignore', out, out] });
    closeSync(out);
    return child;
  };
  const procs = [
    start('web', ['node', 'node_modules/next/dist/bin/next', 'start', 'apps/web', '-p', String(webPort), '-H', '127.0.0.1']),
    start('worker', ['bash', 'scripts/run-node.sh', 'apps/worker/src/main.js']),
    start('api', ['bash', 'scripts/run-node.sh', 'apps/api/src/main.js']),
  ];
  globalThis.__H_E2E_PROCS__ = procs;
  process.env.H_E2E_SANDBOX_PREFIX = env.SANDBOX_NAME_PREFIX;
  const base = `http://127.0.0.1:${apiPort}`;
  await waitForUrl(`${base}/api/ready`, procs);
  await waitForUrl(`${base}/login`, procs);
  process.env.H_BASE_URL = base;
  process.env.H_E2E_MODEL_URL = model.url;
}
