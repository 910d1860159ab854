// Workspace checkpoints (issue 10 point 7): what /workspace held before a run changed it, so a
// session can be forked from an earlier message with the files as they were. Kept in a git object
// store of our own outside the workspace (<state dir>/checkpoints.git, with an index of its own), so
// the user's own .git is never read or written.
//
// What a checkpoint holds: every file git would not ignore under the workspace's own .gitignore
// rules (node_modules, build output and the like are regenerable and often huge), each up to
// `maxFileBytes`; larger files are left out. A restore brings back the saved files and removes files
// created since, and leaves ignored and larger files alone. Nested repositories are kept as links
// only (their files are not saved). The state dir is the workspace's H-internal state volume
// (SANDBOXD_STATE_DIR, mounted by the driver outside /workspace; the local driver: a sibling
// directory), so checkpoints survive a sandbox stop and go only with the workspace. Without one
// (a container created before state volumes) the store is in ~/.h, the sandbox's tmpfs: a stopped
// sandbox then starts with none and restore answers NOT_FOUND.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import type { CheckpointCreateParams, CheckpointCreateResult, CheckpointRestoreResult } from '@h/sandbox-protocol';
import { CheckpointShell } from './checkpoint-shell';
import { fail } from './errors';
import type { PathResolver } from './path-resolver';
import { sanitizedEnv } from './process-utils';

const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;
const GIT_TIMEOUT_MS = 120_000;
const ID = /^[0-9a-f]{40}$/;

export class CheckpointService {
  /** One checkpoint operation at a time: they share the object store and walk the same tree. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Runs a checkpoint's processes (checkpoint-shell.ts) and a restore's `find`; a restore's git steps, rare, start their own. */
  private readonly shell: CheckpointShell;

  constructor(
    private readonly paths: PathResolver,
    private readonly gitDir = defaultGitDir(paths.root),
  ) {
    this.shell = new CheckpointShell(paths.root, sanitizedEnv(this.gitEnv({ GIT_INDEX_FILE: this.indexFile() })), GIT_TIMEOUT_MS);
  }

  close(): void {
    this.shell.close();
  }

  create(p: CheckpointCreateParams): Promise<CheckpointCreateResult> {
    return this.serial(async () => {
      await this.init();
      const max = p.maxFileBytes && p.maxFileBytes > 0 ? Math.floor(p.maxFileBytes) : DEFAULT_MAX_FILE_BYTES;
      // A restore judges the workspace by the cap the checkpoints were taken with: by another, a
      // file left out as too large would count as created since, and be removed.
      await writeFile(this.capFile(), String(max));
      // Three processes (find, git add, git commit), started by the checkpoint shell: starting a
      // process is the cost here (4-7 ms each on the build machine), and a checkpoint is on the way
      // to a run's first change. Each checkpoint is a commit on the store's branch, whose history
      // keeps every one a run still names; the id and the file count are read from the store's
      // files (ref, index header), not asked of git.
      const skipped = await this.excludeLarge(max);
      await this.shell.run({ step: 'commit' });
      const env = { GIT_INDEX_FILE: this.indexFile() };
      const id = await this.headCommit(env);
      return { id, files: await indexEntries(env.GIT_INDEX_FILE), skipped };
    });
  }

  restore(p: { id: string }): Promise<CheckpointRestoreResult> {
    return this.serial(async () => {
      if (typeof p.id !== 'string' || !ID.test(p.id)) fail('INVALID_ARGUMENT', 'id: a checkpoint id (40 hex digits)');
      if (!existsSync(this.gitDir)) fail('NOT_FOUND', `checkpoint ${p.id}: no longer kept for this workspace`);
      await this.git(['cat-file', '-e', `${p.id}^{commit}`], {}).catch(() =>
        fail('NOT_FOUND', `checkpoint ${p.id}: no longer kept for this workspace`),
      );
      return this.withIndex(async (env) => {
        // The workspace now, by the same rules, to find files created since the checkpoint.
        const cap = Number(await readFile(this.capFile(), 'utf8').catch(() => ''));
        await this.excludeLarge(Number.isSafeInteger(cap) && cap > 0 ? cap : DEFAULT_MAX_FILE_BYTES);
        await this.git(['add', '-A', '--', '.'], env);
        const created = (await this.git(['diff', '--cached', '--name-only', '-z', '--diff-filter=A', p.id], env)).split('\0').filter(Boolean);
        for (const rel of created) await rm(path.join(this.paths.root, rel), { force: true, recursive: true });
        await this.git(['read-tree', p.id], env);
        await this.git(['checkout-index', '-a', '-f'], env);
        const restored = (await this.git(['ls-files', '-z'], env)).split('\0').filter(Boolean).length;
        return { restored, removed: created.length };
      });
    });
  }

  /** The commit the store's HEAD names: its loose ref file, else git's answer (packed refs). */
  private async headCommit(env: Record<string, string>): Promise<string> {
    const head = (await readFile(path.join(this.gitDir, 'HEAD'), 'utf8').catch(() => '')).trim();
    const ref = /^ref: (refs\/heads\/[\w.-]+)$/.exec(head)?.[1];
    const loose = ref ? (await readFile(path.join(this.gitDir, ref), 'utf8').catch(() => '')).trim() : '';
    if (ID.test(loose)) return loose;
    return (await this.git(['rev-parse', 'HEAD'], env)).trim();
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async init(): Promise<void> {
    if (existsSync(path.join(this.gitDir, 'HEAD'))) return;
    await mkdir(path.dirname(this.gitDir), { recursive: true });
    await this.git(['init', '--bare', '-q', this.gitDir], {}, false);
    await this.git(['config', 'core.autocrlf', 'false'], {});
    await this.git(['config', 'gc.auto', '0'], {});
  }

  /**
   * The store's own index, kept between operations (operations are serial): git then re-reads only
   * files whose size or mtime changed since the last checkpoint, so a checkpoint of a large
   * workspace that barely changed costs a stat per file, not a hash.
   */
  private async withIndex<T>(fn: (env: Record<string, string>) => Promise<T>): Promise<T> {
    return fn({ GIT_INDEX_FILE: this.indexFile() });
  }

  private capFile(): string {
    return path.join(this.gitDir, 'h-max-file-bytes');
  }

  private indexFile(): string {
    return path.join(this.gitDir, 'checkpoint-index');
  }

  /**
   * Files over the cap (the shell's `find`, for a checkpoint and a restore alike) go into the
   * store's own exclude list (never the workspace's ignore files).
   */
  private async excludeLarge(maxBytes: number): Promise<string[]> {
    await this.shell.run({ step: 'large', maxBytes });
    const large = (await this.shell.largeFiles()).split('\0').filter(Boolean).map((p) => p.replace(/^\.\//, ''));
    await mkdir(path.join(this.gitDir, 'info'), { recursive: true });
    const lines = large.map((p) => `/${p.replace(/([\\*?[\]!#])/g, '\\$1')}`);
    await writeFile(path.join(this.gitDir, 'info', 'exclude'), lines.length ? `${lines.join('\n')}\n` : '');
    return large;
  }

  /** git on the store, as H, none of the user's settings applied. */
  private git(args: string[], env: Record<string, string>, inStore = true): Promise<string> {
    return run('git', args, this.paths.root, inStore ? this.gitEnv(env) : this.identity(env));
  }

  /** The store, its work tree (the workspace) and H's identity. */
  private gitEnv(env: Record<string, string>): Record<string, string> {
    return this.identity({ GIT_DIR: this.gitDir, GIT_WORK_TREE: this.paths.root, ...env });
  }

  private identity(env: Record<string, string>): Record<string, string> {
    return {
      ...env,
      GIT_AUTHOR_NAME: 'H',
      GIT_AUTHOR_EMAIL: 'checkpoints@h.invalid',
      GIT_COMMITTER_NAME: 'H',
      GIT_COMMITTER_EMAIL: 'checkpoints@h.invalid',
      // The user's global git settings (hooks, filters) have no say over our store.
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
    };
  }
}

/**
 * ~/.h/checkpoints.git in a sandbox (one workspace, root /workspace); beside it a store per root
 * when several daemons share a home (the local driver), so they never share an exclude list.
 */
function defaultGitDir(root: string): string {
  const base = path.join(homedir(), '.h');
  if (root === '/workspace') return path.join(base, 'checkpoints.git');
  return path.join(base, `checkpoints-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.git`);
}

/** Entries in a git index file: the header's count (DIRC, version, count; all versions alike). */
async function indexEntries(file: string): Promise<number> {
  const fh = await open(file, 'r');
  try {
    const header = Buffer.alloc(12);
    const { bytesRead } = await fh.read(header, 0, 12, 0);
    return bytesRead === 12 && header.toString('latin1', 0, 4) === 'DIRC' ? header.readUInt32BE(8) : 0;
  } finally {
    await fh.close();
  }
}

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { cwd, env: sanitizedEnv(env), timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${cmd} ${args[0]}: ${String(stderr).trim() || err.message}`));
        else resolve(String(stdout));
      },
    );
  });
}
