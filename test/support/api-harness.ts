import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig, parseEnv } from '@h/config';
import { createApiApp } from '../../apps/api/src/bootstrap';
import { createWorker } from '../../apps/worker/src/bootstrap';
import { removeSandboxes } from './sandbox-cleanup';
import { TEST_DATABASE_URL, TEST_DISK_DIR, TEST_LOG_DIR, TEST_METRICS_TOKEN, TEST_REDIS_URL } from './test-env';

export { removeSandboxes };
// Kept in its own file so e2e specs can wait without loading the api's modules into the test process.
export { waitFor } from './wait-for';

export interface TestStack {
  /** Prefix of this stack's sandbox containers and volumes (removed by close()). */
  sandboxPrefix: string;
  config: AppConfig;
  url: string;
  api: NestExpressApplication;
  worker?: INestApplicationContext;
  logFile: string;
  close(): Promise<void>;
}

/**
 * Boots the real api (and optionally the worker) in-process against the test database and Redis.
 * Each stack gets its own Redis key prefix, so queues and rate limits never leak between files.
 */
export async function startStack(options: { worker?: boolean; env?: Record<string, string> } = {}): Promise<TestStack> {
  const id = randomUUID().slice(0, 8);
  const logFile = `${TEST_LOG_DIR}/stack-${id}.log`;
  const config = new AppConfig(
    parseEnv({
      NODE_ENV: 'test',
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: `h-test-${id}`,
      WEB_INTERNAL_URL: '',
      H_MASTER_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'debug',
      LOG_FILE: logFile,
      LOG_STDOUT: 'false',
      SANDBOX_NAME_PREFIX: `h-test-${id}-`,
      SANDBOX_POOL_SIZE: '0',
      // Small budgets in tests; close() unmounts and deletes the images (removeSandboxes).
      SANDBOX_DISK_MB: '256',
      SANDBOX_DISK_DIR: TEST_DISK_DIR,
      EGRESS_SOCKET_DIR: `${process.cwd()}/tmp/test-egress`,
      // Short: a run's socket path (<dir>/<run id>.sock) must stay under the 108-byte unix limit.
      MODEL_GATEWAY_SOCKET_DIR: `${process.cwd()}/tmp/test-gw`,
      // Specs sign up dozens of people from one address into a shared database: sign-up is open
      // and its rate limit out of the way unless a spec sets them (test/integration/api/accounts).
      SIGNUP_POLICY: 'open',
      SIGNUP_MAX_ATTEMPTS: '100000',
      // Tests serve git repositories on loopback (test/support/git-server.ts); the refusal of
      // private hosts is unit-tested in libs/git-remote.
      GIT_REMOTE_ALLOW_PRIVATE_HOSTS: 'true',
      // Team providers in tests are loopback servers (the scripted model); the refusal of
      // internal hosts is unit-tested in libs/providers and by custom-providers.int-spec.ts.
      PROVIDER_ALLOWED_INTERNAL_HOSTS: '127.0.0.1',
      // Scrapable like a configured deployment (an empty value turns metrics off again).
      METRICS_TOKEN: TEST_METRICS_TOKEN,
      ...(process.env.H_SANDBOX_IMAGE ? { SANDBOX_IMAGE: process.env.H_SANDBOX_IMAGE } : {}),
      ...options.env,
    }),
  );
  const api = await createApiApp(config);
  await api.listen(0, '127.0.0.1');
  const address = api.getHttpServer().address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const worker = options.worker ? await createWorker(config) : undefined;
  return {
    config,
    url,
    api,
    worker,
    logFile,
    sandboxPrefix: `h-test-${id}-`,
    async close() {
      await worker?.close();
      await api.close();
      await removeSandboxes(`h-test-${id}-`);
    },
  };
}
