// Stops the processes e2e-setup started: SIGTERM for a graceful shutdown, SIGKILL if they linger.
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
}
