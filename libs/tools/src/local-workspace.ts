// A Workspace over a directory on this machine: what tests, benchmarks and single-host setups
// use. Containment is decided on real paths (after symlinks), not on strings, so `..`, foreign
// absolute paths and symlinks that lead out are all refused the same way.
import { spawn } from 'node:child_process';
import { promises as fs, realpathSync, type Dirent } from 'node:fs';
import * as nodePath from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import {
  WorkspaceError,
  type DirEntry,
  type ExecOptions,
  type ExecResult,
  type FileStat,
  type FileType,
  type FindFilesOptions,
  type GrepOptions,
  type GrepResult,
  type ListOptions,
  type ListResult,
  type ReadOptions,
  type Workspace,
} from '@h/contracts';
import { compileUserPattern, MatchBudget, SEARCH_BUDGET_MS, type LinearPattern } from '@h/patterns';
// Globs, skipped directories, the command environment: the same rules as sandboxd's.
import { commandEnv, compileGlob, InvalidGlobError, matchesGlob, nameMatcher, SKIPPED_DIRECTORIES } from '@h/workspace-fs';

const MAX_READ_BYTES = 20 * 1024 * 1024;
const MAX_GREP_FILE_BYTES = 2 * 1024 * 1024;
const DEFAULT_EXEC_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
const KILL_GRACE_MS = 500;

export interface LocalWorkspaceOptions {
  /** How the root is shown to the model; absolute paths under it are accepted. Default "/workspace". */
  displayRoot?: string;
}

interface Resolved {
  abs: string;
  rel: string;
}

export class LocalWorkspace implements Workspace {
  readonly root: string;
  readonly realRoot: string;

  constructor(directory: string, options: LocalWorkspaceOptions = {}) {
    this.realRoot = realpathSync(directory);
    this.root = (options.displayRoot ?? '/workspace').replace(/\/+$/, '') || '/';
  }

  async readFile(path: string, options: ReadOptions = {}): Promise<Uint8Array> {
    const { abs, rel } = await this.resolve(path);
    const st = await this.statOrThrow(abs, rel);
    if (st.isDirectory()) throw new WorkspaceError('IS_DIRECTORY', `${rel} is a directory`);
    const max = Math.min(options.maxBytes ?? MAX_READ_BYTES, MAX_READ_BYTES);
    if (st.size > max) throw new WorkspaceError('TOO_LARGE', `${rel} is ${st.size} bytes, over the ${max}-byte limit`);
    return fs.readFile(abs).catch((e) => this.fail(e, rel));
  }

  async readTextFile(path: string, options: ReadOptions = {}): Promise<string> {
    return Buffer.from(await this.readFile(path, options)).toString('utf8');
  }

  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    const { abs, rel } = await this.resolve(path);
    if (rel === '') throw new WorkspaceError('IS_DIRECTORY', 'the workspace root is a directory');
    const st = await fs.stat(abs).catch(() => null);
    if (st?.isDirectory()) throw new WorkspaceError('IS_DIRECTORY', `${rel} is a directory`);
    await fs.mkdir(nodePath.dirname(abs), { recursive: true }).catch((e) => this.fail(e, rel));
    await fs.writeFile(abs, content).catch((e) => this.fail(e, rel));
  }

  async stat(path: string): Promise<FileStat | null> {
    const { abs, rel } = await this.resolve(path);
    const st = await fs.lstat(abs).catch(() => null);
    if (!st) return null;
    return { path: rel, type: fileType(st), size: st.size, mtimeMs: st.mtimeMs };
  }

  async list(path: string, options: ListOptions = {}): Promise<ListResult> {
    const { abs, rel } = await this.resolve(path);
    const st = await this.statOrThrow(abs, rel);
    if (!st.isDirectory()) throw new WorkspaceError('NOT_DIRECTORY', `${rel} is not a directory`);
    const max = options.maxEntries ?? Number.POSITIVE_INFINITY;
    const entries: DirEntry[] = [];
    for await (const entry of this.walk(rel, options.recursive ?? false)) {
      if (entries.length >= max) return { entries, truncated: true };
      entries.push(entry);
    }
    return { entries, truncated: false };
  }

  async mkdir(path: string): Promise<void> {
    const { abs, rel } = await this.resolve(path);
    const st = await fs.stat(abs).catch(() => null);
    if (st && !st.isDirectory()) throw new WorkspaceError('ALREADY_EXISTS', `${rel} exists and is not a directory`);
    await fs.mkdir(abs, { recursive: true }).catch((e) => this.fail(e, rel));
  }

  async rename(from: string, to: string): Promise<void> {
    const src = await this.resolve(from);
    const dst = await this.resolve(to);
    if (src.rel === '' || dst.rel === '') throw new WorkspaceError('IO_ERROR', 'cannot move the workspace root');
    await this.statOrThrow(src.abs, src.rel, true);
    if (await fs.lstat(dst.abs).catch(() => null)) {
      throw new WorkspaceError('ALREADY_EXISTS', `${dst.rel} already exists`);
    }
    await fs.mkdir(nodePath.dirname(dst.abs), { recursive: true }).catch((e) => this.fail(e, dst.rel));
    await fs.rename(src.abs, dst.abs).catch((e) => this.fail(e, src.rel));
  }

  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const { abs, rel } = await this.resolve(path);
    if (rel === '') throw new WorkspaceError('IO_ERROR', 'cannot delete the workspace root');
    const st = await this.statOrThrow(abs, rel, true);
    if (st.isDirectory() && !options.recursive) throw new WorkspaceError('IS_DIRECTORY', `${rel} is a directory`);
    await fs.rm(abs, { recursive: options.recursive ?? false, force: false }).catch((e) => this.fail(e, rel));
  }

  async findFiles(pattern: string, options: FindFilesOptions = {}): Promise<string[]> {
    const { abs, rel } = await this.resolve(options.path ?? '');
    await this.statOrThrow(abs, rel);
    const max = options.maxResults ?? 1000;
    const matches = orInvalidGlob(() => nameMatcher(pattern));
    const found: string[] = [];
    for await (const entry of this.walk(rel, true)) {
      if (matches(entry)) {
        found.push(entry.path);
        if (found.length >= max) break;
      }
    }
    return found;
  }

  /** A glob (on RE2, like every pattern from the model), else a case-insensitive substring. */
  async grep(pattern: string, options: GrepOptions = {}): Promise<GrepResult> {
    let re: ReturnType<typeof compileUserPattern>;
    try {
      re = compileUserPattern(pattern, { ignoreCase: options.ignoreCase, fixedString: options.fixedString });
    } catch (e) {
      throw new WorkspaceError('IO_ERROR', `invalid regular expression: ${(e as Error).message}`);
    }
    const { abs, rel } = await this.resolve(options.path ?? '');
    const st = await this.statOrThrow(abs, rel);
    const max = options.maxResults ?? 500;
    const glob = options.glob ? globOrFail(options.glob) : null;
    const globSlash = options.glob?.includes('/') ?? false;
    const files = st.isDirectory() ? this.walkFiles(rel) : single(rel);
    const matches: GrepResult['matches'] = [];
    // This runs on the worker's event loop: yield regularly, and stop (truncated) at the budget.
    const budget = new MatchBudget(SEARCH_BUDGET_MS);
    for await (const file of files) {
      if (glob && !matchesGlob(file, glob, globSlash)) continue;
      const text = await this.readSearchable(file);
      if (text === null) continue;
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        await budget.pace();
        if (budget.expired) return { matches, truncated: true };
        const at = re.search(lines[i]);
        if (at < 0) continue;
        matches.push({ path: file, line: i + 1, column: at + 1, text: lines[i] });
        if (matches.length >= max) return { matches, truncated: true };
      }
    }
    return { matches, truncated: false };
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const started = Date.now();
    const cwd = (await this.resolve(options.cwd ?? '')).abs;
    const base: ExecResult = {
      exitCode: null, signal: null, stdout: '', stderr: '',
      timedOut: false, cancelled: false, truncated: false, durationMs: 0,
    };
    if (options.signal?.aborted) return { ...base, cancelled: true };
    const cwdStat = await fs.stat(cwd).catch(() => null);
    if (!cwdStat?.isDirectory()) throw new WorkspaceError('NOT_DIRECTORY', `${options.cwd} is not a directory`);

    return new Promise<ExecResult>((resolve) => {
      // detached: the shell leads its own process group, so one kill reaches every descendant.
      const child = spawn('/bin/sh', ['-c', command], { cwd, env: execEnv(options.env), detached: true });
      const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
      let captured = 0;
      const result = { ...base };
      const out = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
      const take = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
        if (captured >= cap) {
          result.truncated = true;
          return;
        }
        const part = captured + chunk.length > cap ? chunk.subarray(0, cap - captured) : chunk;
        if (part !== chunk) result.truncated = true;
        captured += part.length;
        result[stream] += out[stream].write(part);
      };
      child.stdout.on('data', take('stdout'));
      child.stderr.on('data', take('stderr'));
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.stdin ?? '');

      let finished = false;
      let killTimer: NodeJS.Timeout | undefined;
      let exitTimer: NodeJS.Timeout | undefined;
      const killGroup = (sig: NodeJS.Signals) => {
        try {
          if (child.pid) process.kill(-child.pid, sig);
        } catch {
          // the group is already gone
        }
      };
      const stop = (why: 'timedOut' | 'cancelled') => {
        if (finished) return;
        result[why] = true;
        killGroup('SIGTERM');
        killTimer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
      };
      const timeout = setTimeout(() => stop('timedOut'), options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS);
      const onAbort = () => stop('cancelled');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        if (finished) return;
        finished = true;
        clearTimeout(timeout);
        clearTimeout(exitTimer);
        options.signal?.removeEventListener('abort', onAbort);
        // Whatever the shell left behind in its group dies with it.
        killGroup('SIGKILL');
        clearTimeout(killTimer);
        result.stdout += out.stdout.end();
        result.stderr += out.stderr.end();
        resolve({ ...result, exitCode: code, signal, durationMs: Date.now() - started });
      };
      child.on('close', finish);
      // A grandchild that escaped the group could hold the pipes open forever; do not wait on it.
      child.on('exit', (code, signal) => {
        exitTimer = setTimeout(() => finish(code, signal), 200);
      });
      child.on('error', (e) => {
        result.stderr += e.message;
        finish(null, null);
      });
    });
  }

  /** Maps a model-supplied path to an absolute real path inside the root, or throws. */
  private async resolve(path: string): Promise<Resolved> {
    let rel = path.trim();
    if (nodePath.isAbsolute(rel)) {
      const under = [this.root, this.realRoot].find((r) => rel === r || rel.startsWith(r === '/' ? r : `${r}/`));
      if (under === undefined) throw outside(path);
      rel = rel.slice(under.length);
    }
    const abs = nodePath.resolve(this.realRoot, `.${nodePath.sep}${rel}`);
    if (!within(this.realRoot, abs)) throw outside(path);
    await this.assertRealWithin(abs, path);
    return { abs, rel: toRel(this.realRoot, abs) };
  }

  // Follows symlinks on the deepest existing ancestor; a dangling link counts as pointing out.
  private async assertRealWithin(abs: string, original: string): Promise<void> {
    let probe = abs;
    for (;;) {
      const real = await fs.realpath(probe).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : e));
      if (typeof real === 'string') {
        if (!within(this.realRoot, real)) throw outside(original);
        return;
      }
      if (real instanceof Error) throw new WorkspaceError('IO_ERROR', `${original}: ${real.message}`);
      if (await fs.lstat(probe).catch(() => null)) throw outside(original);
      const parent = nodePath.dirname(probe);
      if (parent === probe) return;
      probe = parent;
    }
  }

  private async statOrThrow(abs: string, rel: string, noFollow = false) {
    const st = await (noFollow ? fs.lstat(abs) : fs.stat(abs)).catch(() => null);
    if (!st) throw new WorkspaceError('NOT_FOUND', `${rel || '.'} does not exist`);
    return st;
  }

  private fail(e: NodeJS.ErrnoException, rel: string): never {
    if (e.code === 'ENOENT') throw new WorkspaceError('NOT_FOUND', `${rel} does not exist`);
    if (e.code === 'EISDIR') throw new WorkspaceError('IS_DIRECTORY', `${rel} is a directory`);
    if (e.code === 'ENOTDIR') throw new WorkspaceError('NOT_DIRECTORY', `a parent of ${rel} is not a directory`);
    if (e.code === 'EEXIST' || e.code === 'ENOTEMPTY') throw new WorkspaceError('ALREADY_EXISTS', `${rel} already exists`);
    throw new WorkspaceError('IO_ERROR', `${rel}: ${e.message}`);
  }

  // Depth-first, sorted, never following symlinks and never descending into SKIPPED_DIRECTORIES.
  private async *walk(relDir: string, recursive: boolean): AsyncGenerator<DirEntry> {
    const absDir = relDir ? nodePath.join(this.realRoot, relDir) : this.realRoot;
    const dirents: Dirent[] = await fs.readdir(absDir, { withFileTypes: true }).catch(() => []);
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of dirents) {
      const path = relDir ? `${relDir}/${d.name}` : d.name;
      const type = direntType(d);
      const size = type === 'file' ? ((await fs.lstat(nodePath.join(absDir, d.name)).catch(() => null))?.size ?? 0) : 0;
      yield { path, name: d.name, type, size };
      if (recursive && type === 'directory' && !SKIPPED_DIRECTORIES.has(d.name)) yield* this.walk(path, true);
    }
  }

  private async *walkFiles(relDir: string): AsyncGenerator<string> {
    for await (const entry of this.walk(relDir, true)) if (entry.type === 'file') yield entry.path;
  }

  // Text of a file for grep, or null for binary and oversized files.
  private async readSearchable(rel: string): Promise<string | null> {
    const abs = nodePath.join(this.realRoot, rel);
    const st = await fs.stat(abs).catch(() => null);
    if (!st?.isFile() || st.size > MAX_GREP_FILE_BYTES) return null;
    const buf = await fs.readFile(abs).catch(() => null);
    if (!buf || buf.subarray(0, 8000).includes(0)) return null;
    return buf.toString('utf8');
  }
}

function globOrFail(glob: string): LinearPattern {
  return orInvalidGlob(() => compileGlob(glob));
}

function orInvalidGlob<T>(compile: () => T): T {
  try {
    return compile();
  } catch (e) {
    if (e instanceof InvalidGlobError) throw new WorkspaceError('IO_ERROR', e.message);
    throw e;
  }
}

function execEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return commandEnv(extra);
}

async function* single(rel: string): AsyncGenerator<string> {
  yield rel;
}

function within(root: string, abs: string): boolean {
  return abs === root || abs.startsWith(root.endsWith(nodePath.sep) ? root : root + nodePath.sep);
}

function toRel(root: string, abs: string): string {
  return nodePath.relative(root, abs).split(nodePath.sep).join('/');
}

function outside(path: string): WorkspaceError {
  return new WorkspaceError('PATH_OUTSIDE_WORKSPACE', `${path} is outside the workspace`);
}

function fileType(st: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FileType {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isDirectory()) return 'directory';
  return st.isFile() ? 'file' : 'other';
}

function direntType(d: Dirent): FileType {
  return fileType(d);
}
