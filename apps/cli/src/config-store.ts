import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, type CliEnv } from '@h/config/cli';
import { CliError, EXIT } from './exit-codes';

/** What `h login` saves: ~/.config/h/config.json, mode 0600 (it holds a token). */
export interface SavedConfig {
  url?: string;
  token?: string;
  workspace?: string;
}

/** The settings a command runs with: env wins over the saved file. */
export interface Settings {
  url: string;
  token: string;
  workspace?: string;
  /** Where each came from, for `h whoami` and error messages. */
  source: { url: 'env' | 'config'; token: 'env' | 'config' };
  configPath: string;
}

export function configDir(env: CliEnv = cliEnv()): string {
  if (env.H_CONFIG_DIR) return env.H_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'h');
  return join(env.HOME ?? homedir(), '.config', 'h');
}

export function configPath(env: CliEnv = cliEnv()): string {
  return join(configDir(env), 'config.json');
}

export function readConfig(path = configPath()): SavedConfig {
  if (!existsSync(path)) return {};
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
    const { url, token, workspace } = parsed as Record<string, unknown>;
    return {
      ...(typeof url === 'string' ? { url } : {}),
      ...(typeof token === 'string' ? { token } : {}),
      ...(typeof workspace === 'string' ? { workspace } : {}),
    };
  } catch (err) {
    throw new CliError(`The config file ${path} is not valid JSON (${(err as Error).message}). Run \`h login\` again to rewrite it.`, EXIT.usage);
  }
}

/** Writes the file atomically with mode 0600 in a 0700 folder, whatever the umask. */
export function writeConfig(config: SavedConfig, env: CliEnv = cliEnv()): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, 'config.json');
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
  return path;
}

/** Removes a trailing slash and checks the URL is http(s). */
export function normaliseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`"${raw}" is not a URL; give H's address, e.g. https://h.example.com`, EXIT.usage);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CliError(`"${raw}" is not an http(s) URL`, EXIT.usage);
  return url.toString().replace(/\/+$/, '');
}

export function loadSettings(env: CliEnv = cliEnv()): Settings {
  const path = configPath(env);
  const saved = readConfig(path);
  const url = env.H_URL ?? saved.url;
  const token = env.H_TOKEN ?? saved.token;
  if (!url || !token) {
    const missing = [!url && 'the URL', !token && 'a token'].filter(Boolean).join(' and ');
    throw new CliError(`Not logged in (${missing} missing). Run \`h login --url URL --token TOKEN\`, or set H_URL and H_TOKEN.`, EXIT.usage);
  }
  return {
    url: normaliseUrl(url),
    token,
    workspace: env.H_WORKSPACE ?? saved.workspace,
    source: { url: env.H_URL ? 'env' : 'config', token: env.H_TOKEN ? 'env' : 'config' },
    configPath: path,
  };
}
