import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { DirEntry, FileStat, FileType } from '@h/contracts';
import type {
  FsListParams,
  FsListResult,
  FsReadParams,
  FsReadResult,
  FsWriteParams,
  FsWriteResult,
} from '@h/sandbox-protocol';
import { SKIPPED_DIRECTORIES } from '@h/workspace-fs';
import { fail, mapFsError } from './errors';
import type { PathResolver } from './path-resolver';

const DEFAULT_MAX_READ_BYTES = 50 * 1024 * 1024;
const DEFAULT_MAX_LIST_ENTRIES = 10_000;
/** Directories recursive walks (list, find) never enter. */

export function fileType(st: Stats): FileType {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  return 'other';
}

export const sha256Hex = (buf: Buffer): string => createHash('sha256').update(buf).digest('hex');

export class FsService {
  /** Tail of the conditional writes per real path: check-and-write runs one at a time per file. */
  private readonly writeLocks = new Map<string, Promise<unknown>>();

  constructor(private readonly paths: PathResolver) {}

  async read(p: FsReadParams): Promise<FsReadResult> {
    const { abs } = await this.paths.resolve(p.path);
    const max = p.maxBytes ?? DEFAULT_MAX_READ_BYTES;
    try {
      const st = await stat(abs);
      if (st.isDirectory()) fail('IS_DIRECTORY', `${p.path}: is a directory`);
      if (st.size > max) fail('TOO_LARGE', `${p.path}: ${st.size} bytes exceeds the ${max}-byte limit`);
      const buf = await readFile(abs);
      const encoding = p.encoding ?? 'utf8';
      return { content: buf.toString(encoding), encoding, size: buf.length };
    } catch (e) {
      return mapFsError(e, p.path);
    }
  }

  async write(p: FsWriteParams): Promise<FsWriteResult> {
    const { abs } = await this.paths.resolve(p.path);
    if (typeof p.content !== 'string') fail('INVALID_ARGUMENT', 'content must be a string');
    if (p.ifSha256 !== undefined && p.ifSha256 !== null && !/^[0-9a-f]{64}$/.test(p.ifSha256)) {
      fail('INVALID_ARGUMENT', 'ifSha256 must be 64 lowercase hex digits or null');
    }
    const data = Buffer.from(p.content, p.encoding ?? 'utf8');
    return this.locked(abs, async () => {
      try {
        let existed: boolean;
        if (p.ifSha256 !== undefined) {
          const before = await this.currentSha256(abs);
          if (p.ifSha256 !== before) {
            fail('EDIT_CONFLICT', before === null ? `${p.path}: there is no such file (any more)` : `${p.path}: the file changed since it was read`);
          }
          existed = before !== null;
        } else {
          // Unconditional writes (the agent's tools) do not pay for reading what they replace.
          existed = (await stat(abs).catch(() => null)) !== null;
        }
        if (p.mkdirs !== false) await mkdir(path.dirname(abs), { recursive: true });
        await writeFile(abs, data);
        return { sha256: sha256Hex(data), size: data.length, created: !existed };
      } catch (e) {
        return mapFsError(e, p.path);
      }
    });
  }

  /** SHA-256 of the file's content, or null when there is none (a directory is IS_DIRECTORY). */
  private async currentSha256(abs: string): Promise<string | null> {
    try {
      return sha256Hex(await readFile(abs));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      throw e;
    }
  }

  private async locked<T>(key: string, work: () => Promise<T>): Promise<T> {
    const prev = this.writeLocks.get(key) ?? Promise.resolve();
    const run = prev.then(work, work);
    const tail = run.catch(() => undefined);
    this.writeLocks.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.writeLocks.get(key) === tail) this.writeLocks.delete(key);
    }
  }

  async stat(p: { path: string }): Promise<FileStat | null> {
    await this.paths.resolve(p.path); // refuses links that lead out
    const { abs, rel } = await this.paths.resolve(p.path, { noFollowLast: true });
    try {
      const st = await lstat(abs);
      return { path: rel, type: fileType(st), size: st.size, mtimeMs: Math.round(st.mtimeMs) };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      return mapFsError(e, p.path);
    }
  }

  async list(p: FsListParams): Promise<FsListResult> {
    const { abs } = await this.paths.resolve(p.path || '.');
    const max = Math.max(1, p.maxEntries ?? DEFAULT_MAX_LIST_ENTRIES);
    const entries: DirEntry[] = [];
    try {
      const st = await stat(abs);
      if (!st.isDirectory()) fail('NOT_DIRECTORY', `${p.path}: not a directory`);
      // Depth-first and sorted, like LocalWorkspace, so tools print the same listing either way.
      const truncated = await this.walk(abs, !!p.recursive, (e) => {
        if (entries.length >= max) return false;
        entries.push(e);
        return true;
      });
      return { entries, truncated };
    } catch (e) {
      return mapFsError(e, p.path);
    }
  }

  /**
   * Visits entries depth-first in name order; never follows symlinks or enters SKIPPED_DIRECTORIES. Returns
   * true when `visit` stopped the walk (the caller's cap was reached).
   */
  async walk(dir: string, recursive: boolean, visit: (e: DirEntry) => boolean): Promise<boolean> {
    let names: string[];
    try {
      names = (await readdir(dir)).sort();
    } catch {
      return false; // vanished or unreadable below the start
    }
    for (const name of names) {
      const full = path.join(dir, name);
      let st: Stats;
      try {
        st = await lstat(full);
      } catch {
        continue;
      }
      if (!visit({ path: this.paths.toRel(full), name, type: fileType(st), size: st.size })) return true;
      if (recursive && st.isDirectory() && !SKIPPED_DIRECTORIES.has(name) && (await this.walk(full, true, visit))) return true;
    }
    return false;
  }

  async mkdir(p: { path: string }): Promise<null> {
    const { abs } = await this.paths.resolve(p.path);
    try {
      await mkdir(abs, { recursive: true });
      return null;
    } catch (e) {
      return mapFsError(e, p.path);
    }
  }

  async rename(p: { from: string; to: string }): Promise<null> {
    const from = await this.paths.resolve(p.from, { noFollowLast: true });
    const to = await this.paths.resolve(p.to, { noFollowLast: true });
    if (from.abs === this.paths.root) fail('INVALID_ARGUMENT', 'cannot rename the workspace root');
    try {
      await lstat(from.abs);
      const existing = await lstat(to.abs).catch(() => null);
      if (existing) fail('ALREADY_EXISTS', `${p.to}: already exists`);
      await mkdir(path.dirname(to.abs), { recursive: true });
      await rename(from.abs, to.abs);
      return null;
    } catch (e) {
      return mapFsError(e, p.from);
    }
  }

  async delete(p: { path: string; recursive?: boolean }): Promise<null> {
    const { abs } = await this.paths.resolve(p.path, { noFollowLast: true });
    if (abs === this.paths.root) fail('INVALID_ARGUMENT', 'cannot delete the workspace root');
    try {
      const st = await lstat(abs);
      if (!st.isDirectory()) await unlink(abs);
      else if (p.recursive) await rm(abs, { recursive: true, force: false });
      else fail('IS_DIRECTORY', `${p.path}: is a directory (remove it recursively)`);
      return null;
    } catch (e) {
      return mapFsError(e, p.path);
    }
  }
}
