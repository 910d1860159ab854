// Test helpers shared by the specs of libs/tools and libs/agent (exported for tests only).

/** Whether a process with this pid still exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it holds; rejects after timeoutMs. For tests: no fixed sleeps. */
export async function waitForCondition(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
