import { type FSWatcher, watch } from 'node:fs';
import type { RpcPeer } from '@h/sandbox-protocol';
import { isInSkippedDirectory } from '@h/workspace-fs';
import type { PathResolver } from './path-resolver';

const DEBOUNCE_MS = 100;
const MAX_PATHS_PER_NOTIFICATION = 1000;

/**
 * Debounced, de-duplicated file-change notifications (`fs.changed {paths}`) for connections that
 * subscribed with `fs.watch {enabled:true}`. One recursive watcher, started for the first
 * subscriber and stopped with the last, so idle sandboxes hold no inotify watches.
 */
export class WatchService {
  private watcher: FSWatcher | null = null;
  private readonly subscribers = new Set<RpcPeer>();
  private readonly changed = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly paths: PathResolver) {}

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
    this.update();
  }

  private update(): void {
    if (this.subscribers.size && !this.watcher) {
      this.watcher = watch(this.paths.root, { recursive: true }, (_event, name) => this.onEvent(name));
      this.watcher.on('error', () => {
        // e.g. inotify limits: drop the watcher; a later subscribe retries.
        this.watcher?.close();
        this.watcher = null;
      });
    } else if (!this.subscribers.size && this.watcher) {
      this.watcher.close();
      this.watcher = null;
      this.changed.clear();
    }
  }

  private onEvent(name: string | Buffer | null): void {
    if (!name) return;
    const rel = name.toString().split('\\').join('/');
    if (isInSkippedDirectory(rel)) return;
    this.changed.add(rel);
    this.timer ??= setTimeout(() => this.flush(), DEBOUNCE_MS);
  }

  private flush(): void {
    this.timer = null;
    const all = [...this.changed].sort();
    this.changed.clear();
    for (let i = 0; i < all.length; i += MAX_PATHS_PER_NOTIFICATION) {
      const paths = all.slice(i, i + MAX_PATHS_PER_NOTIFICATION);
      for (const peer of this.subscribers) peer.notify('fs.changed', { paths });
    }
  }
}
