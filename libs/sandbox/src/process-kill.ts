const KILL_GRACE_MS = 3000;

/**
 * kill() of a spawned sandbox process (both drivers): TERM to its process group, KILL if it has not
 * exited after a grace period, then `done` (tear the stream down). Idempotent: later calls share the first.
 */
export function graceKill(signal: (sig: 'TERM' | 'KILL') => Promise<void>, exited: Promise<unknown>, done: () => void): () => Promise<void> {
  let killing: Promise<void> | null = null;
  return () =>
    (killing ??= (async () => {
      await signal('TERM').catch(() => undefined);
      const gone = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), KILL_GRACE_MS).unref())]);
      if (!gone) await signal('KILL').catch(() => undefined);
      done();
    })());
}
