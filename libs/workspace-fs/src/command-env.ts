// The environment of a command the agent or a terminal runs: only these host variables pass
// through (the seed's run_command allowlist), so no secret of the process that starts it leaks.
// The host environment is read through the config library's Nest-free entry (sandboxd bundles this).
import { hostEnv } from '@h/config/sandboxd';

export const COMMAND_ENV_ALLOWLIST: readonly string[] = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'TEMP'];

const DEFAULTS: Readonly<Record<string, string>> = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  LANG: 'C.UTF-8',
};
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Defaults, then the allowlisted variables of `base`, then the caller's `extra` (valid names only). */
export function commandEnv(extra: Readonly<Record<string, string>> = {}, base: Readonly<Record<string, string | undefined>> = hostEnv()): Record<string, string> {
  const env: Record<string, string> = { ...DEFAULTS };
  for (const name of COMMAND_ENV_ALLOWLIST) {
    const value = base[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    if (ENV_NAME.test(name) && typeof value === 'string') env[name] = value;
  }
  return env;
}
