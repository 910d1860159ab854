import { hostEnv } from './host-env';

// The `h` CLI (apps/cli) runs on a developer's machine or a CI runner, without the server's
// configuration. These are the variables it reads; a set variable wins over the saved config
// (`h login`). Kept free of Nest and zod so esbuild bundles only this into the CLI (imported as
// `@h/config/cli`).

export interface CliEnv {
  /** H's URL, e.g. https://h.example.com (wins over `h login --url`). */
  H_URL?: string;
  /** An H API token (wins over the saved one). */
  H_TOKEN?: string;
  /** The workspace `h run` / `h runs` use when --workspace is not given (a name or an id). */
  H_WORKSPACE?: string;
  /** Where the config file lives: $H_CONFIG_DIR, else $XDG_CONFIG_HOME/h, else ~/.config/h. */
  H_CONFIG_DIR?: string;
  XDG_CONFIG_HOME?: string;
  HOME?: string;
  /** Set (any value): no colours (https://no-color.org). */
  NO_COLOR?: string;
  /** Set by most CI systems: never ask at the terminal, even when it looks like one. */
  CI?: string;
}

const NAMES = ['H_URL', 'H_TOKEN', 'H_WORKSPACE', 'H_CONFIG_DIR', 'XDG_CONFIG_HOME', 'HOME', 'NO_COLOR', 'CI'] as const;

/** The CLI's variables that are set and not empty. */
export function cliEnv(source: Readonly<Record<string, string | undefined>> = hostEnv()): CliEnv {
  const out: CliEnv = {};
  for (const name of NAMES) {
    const value = source[name]?.trim();
    if (value) out[name] = value;
  }
  return out;
}
