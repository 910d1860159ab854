import { type FSWatcher, watch } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { FsChange, RpcPeer } from '@h/sandbox-protocol';
import { isInSkippedDirectory } from '@h/workspace-fs';
import { fileType, sha256Hex } from './fs.service';
import type { PathResolver } from './path-resolver';

const DEBOUNCE_MS = 50;
const MAX_PATHS_PER_NOTIFICATION = 1000;
/** Paths remembered between flushes at most; beyond, one notification says `overflow`. */
const MAX_PENDING_PATHS = 10_000;
/** Files up to this size get their content hash (the host's ETag) in the change. */
export const WATCH_HASH_MAX_BYTES = 1024 * 1024;
/** Hashing per flush stops past this many bytes read (a branch switch touching thousands of files). */
const WATCH_HASH_BUDGET_BYTES = 16 * 1024 * 1024;
/**
 * What `git status` reads besides the work tree: HEAD, the index, refs (branches, tags, remotes)
 * and the state of a merge or rebase. Objects and logs are left out (a commit writes them too,
 * along with a ref), and so are lock files (the real file's rename follows).
 */
const GIT_STATE = /^\.git\/(HEAD|index|packed-refs|FETCH_HEAD|ORIG_HEAD|MERGE_HEAD|CHERRY_PICK_HEAD|REVERT_HEAD|refs\/.+|rebase-(merge|apply)(\/.*)?)$/;

/** Whether a watcher event under .git means the repository's status may have changed. */
export function isGitStateChange(rel: string): boolean {
  return GIT_STATE.test(rel) && !rel.endsWith('.lock');
}

export type WatchListener = (changes: FsChange[], overflow: boolean) => void;

/**
 * Debounced, de-duplicated file-change notifications (`fs.changed {paths, changes}`) for
 * connections that subscribed with `fs.watch {enabled:true}`. One recursive watcher, started for
 * the first subscriber and stopped with the last, so idle sandboxes hold no inotify watches. Each
 * change says created / changed / deleted (inotify's rename events, settled by a stat after the
 * debounce) and, for small files, the content's SHA-256 so an editor can tell its own save from
 * someone else's.
 */
export class WatchService {
  private watcher: FSWatcher | null = null;
  private readonly subscribers = new Set<RpcPeer>();
  /** Path -> whether a rename event (create, delete, move) was seen for it. */
  private readonly changed = new Map<string, boolean>();
  private overflow = false;
  /** A git state file changed since the last flush (see GIT_STATE). */
  private git = false;
  private timer: NodeJS.Timeout | null = null;
  /**
   * In-process consumers (the language servers' open files, the knowledge graph): they keep the
   * watcher on like a subscriber. `overflow`: some changes were dropped (rescan what you keep).
   */
  private readonly listeners = new Set<WatchListener>();

  /** Callers of drained() waiting for the pending changes' flush. */
  private drainWaiters: (() => void)[] = [];

  constructor(private readonly paths: PathResolver) {}

  /**
   * Resolves once every change heard so far has been delivered (at once when none is pending): a
   * consumer asked about the files right after a write waits for it instead of answering stale.
   */
  drained(): Promise<void> {
    if (!this.timer) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Hear every flushed change in this process (`on` false: stop hearing). */
  listen(listener: WatchListener, on: boolean): void {
    if (on) this.listeners.add(listener);
    else this.listeners.delete(listener);
    this.update();
  }

  subscribe(peer: RpcPeer, enabled: boolean): null {
    if (enabled) this.subscribers.add(peer);
    else this.subscribers.delete(peer);
    this.update();
    return null;
  }

  unsubscribe(peer: RpcPeer): void {
    this.subscribers.delete(peer);
    this.update();
  }

  close(): void {
    this.subscribers.clear();
    this.listeners.clear();
    this.update();
    for (const w of this.drainWaiters.splice(0)) w();
  }

  private update(): void {
    if ((this.subscribers.size || this.listeners.size) && !this.watcher) {
      this.watcher = watch(this.paths.root, { recursive: true }, (event, name) => this.onEvent(event, name));
      this.watcher.on('error', () => {
        // e.g. inotify limits: drop the watcher; a later subscribe retries.
        this.watcher?.close();
        this.watcher = null;
      });
    } else if (!this.subscribers.size && !this.listeners.size && this.watcher) {
      this.watcher.close();
      this.watcher = null;
      this.changed.clear();
      this.overflow = false;
      this.git = false;
    }
  }

  private onEvent(event: string, name: string | Buffer | null): void {
    if (!name) return;
    const rel = name.toString().split('\\').join('/');
    if (isGitStateChange(rel)) {
      this.git = true;
      this.timer ??= setTimeout(() => void this.flush(), DEBOUNCE_MS);
      return;
    }
    if (isInSkippedDirectory(rel)) return;
    if (this.changed.size >= MAX_PENDING_PATHS && !this.changed.has(rel)) this.overflow = true;
    else this.changed.set(rel, (this.changed.get(rel) ?? false) || event === 'rename');
    this.timer ??= setTimeout(() => void this.flush(), DEBOUNCE_MS);
  }

  private async flush(): Promise<void> {
    const pending = [...this.changed.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const overflow = this.overflow;
    const git = this.git;
    this.changed.clear();
    this.overflow = false;
    this.git = false;
    const budget = { bytes: WATCH_HASH_BUDGET_BYTES };
    const changes: FsChange[] = [];
    for (const [rel, renamed] of pending) changes.push(await this.describe(rel, renamed, budget));
    // Events that arrived while describing wait for the next flush.
    this.timer = this.changed.size || this.overflow || this.git ? setTimeout(() => void this.flush(), DEBOUNCE_MS) : null;
    if (overflow) for (const peer of this.subscribers) peer.notify('fs.changed', { paths: [], changes: [], overflow: true });
    if (git) for (const peer of this.subscribers) peer.notify('fs.changed', { paths: [], changes: [], git: true });
    if (changes.length || overflow) for (const listener of this.listeners) listener(changes, overflow);
    for (let i = 0; i < changes.length; i += MAX_PATHS_PER_NOTIFICATION) {
      const part = changes.slice(i, i + MAX_PATHS_PER_NOTIFICATION);
      for (const peer of this.subscribers) peer.notify('fs.changed', { paths: part.map((c) => c.path), changes: part });
    }
    if (!this.timer) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    }
  }

  private async describe(rel: string, renamed: boolean, budget: { bytes: number }): Promise<FsChange> {
    const abs = path.join(this.paths.root, rel);
    try {
      const st = await lstat(abs);
      const change: FsChange = { path: rel, kind: renamed ? 'created' : 'changed', type: fileType(st) };
      if (st.isFile() && st.size <= WATCH_HASH_MAX_BYTES && st.size <= budget.bytes) {
        budget.bytes -= st.size;
        change.sha256 = sha256Hex(await readFile(abs));
      }
      return change;
    } catch {
      return { path: rel, kind: 'deleted' };
    }
  }
}
