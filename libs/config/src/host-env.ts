// The process environment itself, for the few readers whose job is to pass part of it on to a
// child process (the command environment allowlists of sandboxd and the local workspace) or to
// tools that run before any configuration exists. Everything else reads the validated schemas
// (env.schema.ts, sandboxd-env.ts); lint refuses `process.env` outside this library.

/** The host environment, read-only. */
export function hostEnv(): Readonly<Record<string, string | undefined>> {
  return process.env;
}

/** The named variables that are set, e.g. the PATH/HOME/LANG a child process inherits. */
export function pickHostEnv(names: readonly string[], source: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = source[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
