import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from '../support/free-port';
import { ADMIN_DATABASE_URL, TEST_LOG_DIR, TEST_REDIS_URL } from '../support/test-env';

const run = promisify(execFile);

/** The README's start command: the first fenced block (the README keeps it there, before anything else fenced). */
export function readmeStartCommand(readme: string): string {
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README.md has no fenced block');
  return block[1].trim();
}

/**
 * A clone of this repository's HEAD in a temporary folder, with its own ports, database, data dir,
 * Redis prefix and sandbox name prefix, so running H there never touches another stack. Committed
 * work only: uncommitted changes are not in a clone, as they would not be for a newcomer.
 */
export class FreshClone {
  readonly id = randomBytes(4).toString('hex');
  readonly folder = mkdtempSync(join(tmpdir(), 'h-newcomer-'));
  readonly dir = join(this.folder, 'h');
  readonly database = `h_newcomer_${this.id}`;
  readonly redisPrefix = `h-newcomer-${this.id}`;
  readonly sandboxPrefix = `h-newcomer-${this.id}-`;
  readonly logFile = join(TEST_LOG_DIR, `newcomer-${this.id}-start.log`);
  private ports: { api: number; web: number } | null = null;

  async clone(source: string): Promise<void> {
    await run('git', ['clone', '--quiet', '--no-checkout', source, this.dir]);
    // HEAD itself (it may be detached or on a branch the clone did not check out).
    await run('git', ['-C', this.dir, 'fetch', '--quiet', source, 'HEAD']);
    await run('git', ['-C', this.dir, 'checkout', '--quiet', '--detach', 'FETCH_HEAD']);
  }

  get databaseUrl(): string {
    const url = new URL(ADMIN_DATABASE_URL);
    url.pathname = `/${this.database}`;
    return url.toString();
  }

  /**
   * What a newcomer's shell has, nothing of this test run's (no NODE_ENV=test, no jest or npm
   * variables, no node_modules/.bin on PATH), plus the settings that keep this stack apart. npm may
   * use its cache (offline-safe and faster); it still installs everything from the lockfile.
   */
  async env(): Promise<NodeJS.ProcessEnv> {
    this.ports ??= { api: await freePort(), web: await freePort() };
    const keep = ['HOME', 'LANG', 'LC_ALL', 'USER', 'SHELL', 'TERM', 'TMPDIR', 'DOCKER_HOST'];
    const base = Object.fromEntries(keep.filter((k) => process.env[k]).map((k) => [k, process.env[k]]));
    const path = (process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin')
      .split(delimiter)
      .filter((p) => !p.includes('node_modules'))
      .join(delimiter);
    return {
      ...base,
      PATH: path,
      H_PORT: String(this.ports.api),
      WEB_PORT: String(this.ports.web),
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: this.redisPrefix,
      H_DATA_DIR: join(this.folder, 'data'),
      SANDBOX_NAME_PREFIX: this.sandboxPrefix,
      SANDBOX_POOL_SIZE: '0',
      npm_config_prefer_offline: 'true',
    };
  }

  /** Runs a shell command in the clone; resolves with its stdout, rejects with the log's tail on failure. */
  async sh(command: string, timeoutMs: number): Promise<string> {
    mkdirSync(TEST_LOG_DIR, { recursive: true });
    const log = createWriteStream(this.logFile, { flags: 'a' });
    log.write(`$ ${command}\n`);
    const child = spawn('bash', ['-c', command], { cwd: this.dir, env: await this.env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      log.write(d);
    });
    child.stderr.on('data', (d: Buffer) => log.write(d));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    await new Promise((r) => log.end(r));
    if (code !== 0) {
      const tail = readFileSync(this.logFile, 'utf8').split('\n').slice(-40).join('\n');
      throw new Error(`\`${command}\` in the clone ${code === null ? `timed out after ${timeoutMs} ms` : `exited with ${code}`}:\n${tail}`);
    }
    return stdout;
  }

  /** Stops what the clone started, keeps its logs for the run, removes its folder, database, keys and sandboxes. */
  async remove(): Promise<void> {
    if (existsSync(join(this.dir, 'scripts/stop.sh'))) await this.sh('bash scripts/stop.sh', 60_000).catch(() => undefined);
    const logs = join(this.dir, 'var/log');
    if (existsSync(logs)) {
      for (const f of readdirSync(logs)) cpSync(join(logs, f), join(TEST_LOG_DIR, `newcomer-${this.id}-${f}`));
    }
    rmSync(this.folder, { recursive: true, force: true });
    const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${this.database}" WITH (FORCE)`).finally(() => admin.end());
    const Redis = (await import('ioredis')).default;
    const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${this.redisPrefix}*`, 'COUNT', 500);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  }
}
