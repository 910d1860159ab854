import { existsSync } from 'node:fs';
import { commandEnv } from '@h/workspace-fs';
import { egressProxyEnv } from './egress-forwarder';

/** The command environment every driver gives (see @h/workspace-fs): allowlisted host variables plus the caller's. */
export function sanitizedEnv(extra?: Record<string, string>, base?: Readonly<Record<string, string | undefined>>): Record<string, string> {
  // The egress proxy, when this workspace may use the network (set up by the daemon, not inherited).
  return commandEnv({ ...egressProxyEnv(), ...(extra ?? {}) }, base);
}

const canAdjustOom = existsSync('/proc/self/oom_score_adj');

/**
 * Prefixes argv so the started program volunteers as the first OOM victim: under the container's
 * memory limit a memory hog is killed, not sandboxd. Raising one's own score needs no privilege.
 */
export function withRaisedOomScore(argv: string[]): string[] {
  if (!canAdjustOom) return argv;
  return ['/bin/sh', '-c', 'echo 1000 >/proc/self/oom_score_adj 2>/dev/null; exec "$@"', 'sh', ...argv];
}

/**
 * SIGKILLs a process group until it is empty. One kill() may race with a fork in flight (a fork
 * bomb), so repeat until the group is gone (ESRCH) or we give up.
 */
export async function killProcessGroup(pgid: number, rounds = 200): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, i < 10 ? 5 : 25));
  }
}
