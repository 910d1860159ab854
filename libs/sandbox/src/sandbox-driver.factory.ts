import * as os from 'node:os';
import * as path from 'node:path';
import { DockerSandboxDriver } from './docker-sandbox.driver';
import { LocalSandboxDriver } from './local-sandbox.driver';
import type { SandboxDriver, SandboxLimits } from './sandbox-driver';
import { ensureSandboxImage } from './sandbox-image';

/**
 * Environment the factory reads (all optional). Documented here so the config owner can copy them
 * into the validated env schema and `.env.example`.
 */
export const SANDBOX_ENV = {
  H_SANDBOX_DRIVER: 'docker (default) | local — local is UNSAFE and refused in multi-user mode',
  H_ALLOW_LOCAL_SANDBOX: '1 to allow the local driver in multi-user mode',
  H_SANDBOX_IMAGE: 'image tag; default: build/reuse with infra/sandbox/build-image.sh',
  H_SANDBOX_POOL_SIZE: 'warm containers kept ready (default 0)',
  H_SANDBOX_IDLE_MS: 'stop a sandbox after this long without use (default 900000; 0 = never)',
  H_SANDBOX_CPUS: 'CPU cores per sandbox (default 1)',
  H_SANDBOX_MEMORY_MB: 'memory per sandbox in MiB (default 1024)',
  H_SANDBOX_PIDS: 'process limit per sandbox (default 512)',
  H_SANDBOX_SOCKET_DIR: 'host dir for bind-mounted daemon sockets (direct connect; default: exec bridge)',
  H_SANDBOX_LOCAL_DIR: 'local driver: base directory of workspaces (default <tmp>/h-workspaces)',
} as const;

function num(env: NodeJS.ProcessEnv, key: string): number | undefined {
  const v = env[key];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${key} must be a non-negative number, got "${v}"`);
  return n;
}

/** Builds the configured driver; `multiUser` is whether H serves more than one user. */
export async function createSandboxDriver(options: { multiUser: boolean; env?: NodeJS.ProcessEnv }): Promise<SandboxDriver> {
  const env = options.env ?? process.env;
  const kind = env.H_SANDBOX_DRIVER ?? 'docker';
  if (kind === 'local') {
    return new LocalSandboxDriver({
      baseDir: env.H_SANDBOX_LOCAL_DIR ?? path.join(os.tmpdir(), 'h-workspaces'),
      multiUser: options.multiUser,
    });
  }
  if (kind !== 'docker') throw new Error(`H_SANDBOX_DRIVER must be docker or local, got "${kind}"`);
  const limits: Partial<SandboxLimits> = {};
  const cpus = num(env, 'H_SANDBOX_CPUS');
  const mem = num(env, 'H_SANDBOX_MEMORY_MB');
  const pids = num(env, 'H_SANDBOX_PIDS');
  if (cpus !== undefined) limits.cpus = cpus;
  if (mem !== undefined) limits.memoryBytes = Math.round(mem * 1024 * 1024);
  if (pids !== undefined) limits.pids = pids;
  return new DockerSandboxDriver({
    image: env.H_SANDBOX_IMAGE || (await ensureSandboxImage()),
    poolSize: num(env, 'H_SANDBOX_POOL_SIZE') ?? 0,
    idleTimeoutMs: num(env, 'H_SANDBOX_IDLE_MS'),
    hostSocketDir: env.H_SANDBOX_SOCKET_DIR || undefined,
    limits,
  });
}
