import { join } from 'node:path';
import { E2E_DISK_DIR } from './test-env';
import { removeSandboxes } from './sandbox-cleanup';

// Stops the processes e2e-setup started (SIGTERM for a graceful shutdown, SIGKILL if they linger)
// and removes the sandboxes they created.
export default async function e2eTeardown(): Promise<void> {
  const procs = globalThis.__H_E2E_PROCS__ ?? [];
  await Promise.all(
    procs.map(
      (p) =>
        new Promise<void>((resolve) => {
          if (p.exitCode !== null) return resolve();
          const timer = setTimeout(() => p.kill('SIGKILL'), 5000);
          p.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          p.kill('SIGTERM');
        }),
    ),
  );
  await globalThis.__H_E2E_MODEL__?.close();
  if (process.env.H_E2E_SANDBOX_PREFIX) await removeSandboxes(process.env.H_E2E_SANDBOX_PREFIX, join(process.cwd(), E2E_DISK_DIR));
}
