import { existsSync } from 'node:fs';
import { hostEnv } from '@h/config/sandboxd';
import { egressProxyEnv } from './egress-forwarder';

/** Environment names passed through from the daemon's own environment; nothing else leaks. */
const BASE_ENV_ALLOWLIST = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'];
const DEFAULT_ENV: Record<string, string> = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  LANG: 'C.UTF-8',
};
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function sanitizedEnv(extra?: Record<string, string>, base: Readonly<Record<string, string | undefined>> = hostEnv()): Record<string, string> {
  const env: Record<string, string> = { ...DEFAULT_ENV };
  for (const k of BASE_ENV_ALLOWLIST) {
    const v = base[k];
    if (v !== undefined) env[k] = v;
  }
  // The egress proxy, when this workspace may use the network (set up by the daemon, not inherited).
  Object.assign(env, egressProxyEnv());
  for (const [k, v] of Object.entries(extra ?? {})) {
    if (ENV_NAME.test(k) && typeof v === 'string') env[k] = v;
  }
  return env;
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
