import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Server, Socket } from 'socket.io';
import { FILES_CHANGED_COALESCE_MS, FILES_CHANGED_MAX_CHANGES, type FileChange, type FilesChangedEvent } from '@h/contracts';
import type { FsChange, FsChangedNotification } from '@h/sandbox-protocol';
import { etagFromSha256 } from './file-content';
import { FileSandboxService } from './file-sandbox.service';
import { SandboxRelay, type Relayed } from './sandbox-relay';

/** How long a move made through the API folds the watcher's deleted + created into one `renamed`. */
const RENAME_FOLD_MS = 2000;
/** Changes kept between flushes per workspace at most; beyond, the event says `resync`. */
const MAX_PENDING = 5 * FILES_CHANGED_MAX_CHANGES;

interface WatchFields {
  pending: Map<string, FileChange>;
  resync: boolean;
  /** The repository's state changed since the last flush (sandboxd's `git`). */
  git: boolean;
  timer: NodeJS.Timeout | null;
  /** Paths of recent API moves: from -> expiry, to -> expiry. */
  movedFrom: Map<string, number>;
  movedTo: Map<string, number>;
}

type Watch = Relayed<WatchFields>;

export const filesRoom = (workspaceId: string) => `files:${workspaceId}`;

/**
 * Live files for this api process: one sandbox watch (`fs.watch`) per workspace while at least one
 * of this process's sockets watches it, changes coalesced for FILES_CHANGED_COALESCE_MS and sent
 * to the workspace's room on this process only (`server.local`): every api replica watches for
 * its own clients, so nothing arrives twice through the Redis adapter. sandboxd sees every change
 * to the files — the agent's (worker), a terminal's, the API's — so nothing else needs to publish.
 * A dropped connection (sandbox idle-stopped or restarted) is not re-opened by itself, which would
 * keep an idle sandbox running forever; the next file call or subscribe re-arms the watch and
 * tells clients to `resync`.
 */
@Injectable()
export class FilesWatchHub implements OnModuleDestroy {
  private readonly logger = new Logger(FilesWatchHub.name);
  private readonly relay: SandboxRelay<WatchFields>;
  private server: Server | null = null;

  constructor(sandbox: FileSandboxService) {
    this.relay = new SandboxRelay<WatchFields>(sandbox, {
      create: () => ({ pending: new Map(), resync: false, git: false, timer: null, movedFrom: new Map(), movedTo: new Map() }),
      listen: (w, client) => {
        const onChange = (_paths: string[], n: FsChangedNotification) => this.onNotification(w, n);
        client.on('fs.changed', onChange);
        return () => client.off('fs.changed', onChange);
      },
      start: async (_w, client) => {
        await client.watchFiles(true);
      },
      // Watching again after a dropped connection: whatever happened in between was not seen.
      rearmed: (w) => {
        w.resync = true;
        this.schedule(w);
      },
      stop: (w, client) => {
        if (w.timer) clearTimeout(w.timer);
        w.timer = null;
        if (client) void client.watchFiles(false).catch(() => undefined);
      },
    });
  }

  attach(server: Server): void {
    this.server = server;
  }

  /** Starts watching for this socket; resolves once the sandbox watch is on. */
  async add(workspaceId: string, socket: Socket): Promise<void> {
    await this.relay.add(workspaceId, socket);
  }

  remove(workspaceId: string, socketId: string): void {
    this.relay.remove(workspaceId, socketId);
  }

  /** A move made through the API: sent as `renamed`, and the watcher's deleted + created for it folded in. */
  noteRename(workspaceId: string, from: string, to: string): void {
    const w = this.relay.get(workspaceId);
    if (!w) return;
    const until = Date.now() + RENAME_FOLD_MS;
    w.movedFrom.set(from, until);
    w.movedTo.set(to, until);
    w.pending.delete(from);
    this.queue(w, { path: to, kind: 'renamed', from });
  }

  onModuleDestroy(): void {
    this.relay.stopAll();
  }

  private onNotification(w: Watch, n: FsChangedNotification): void {
    if (n?.overflow) {
      w.resync = true;
      this.schedule(w);
    }
    if (n?.git === true) {
      w.git = true;
      this.schedule(w);
    }
    const now = Date.now();
    const changes: FsChange[] = Array.isArray(n?.changes) ? n.changes : (Array.isArray(n?.paths) ? n.paths : []).map((path) => ({ path, kind: 'changed' as const }));
    for (const c of changes) {
      // What a sandbox sends is untrusted: strings of bounded size only.
      if (typeof c?.path !== 'string' || c.path.length > 4096 || !['created', 'changed', 'deleted'].includes(c.kind)) continue;
      const etag = typeof c.sha256 === 'string' && /^[0-9a-f]{64}$/.test(c.sha256) ? etagFromSha256(c.sha256) : undefined;
      if (c.kind === 'deleted' && (w.movedFrom.get(c.path) ?? 0) > now) continue;
      if (c.kind !== 'deleted' && (w.movedTo.get(c.path) ?? 0) > now) {
        const renamed = w.pending.get(c.path);
        if (renamed?.kind === 'renamed' && etag) renamed.etag = etag;
        continue;
      }
      this.queue(w, { path: c.path, kind: c.kind, ...(c.type ? { type: c.type } : {}), ...(etag ? { etag } : {}) });
    }
    for (const [p, until] of w.movedFrom) if (until <= now) w.movedFrom.delete(p);
    for (const [p, until] of w.movedTo) if (until <= now) w.movedTo.delete(p);
  }

  private queue(w: Watch, change: FileChange): void {
    const prev = w.pending.get(change.path);
    // created then changed inside one window is still news of a new file.
    const kind = prev?.kind === 'created' && change.kind === 'changed' ? 'created' : change.kind;
    if (!prev && w.pending.size >= MAX_PENDING) w.resync = true;
    else w.pending.set(change.path, { ...change, kind });
    this.schedule(w);
  }

  private schedule(w: Watch): void {
    w.timer ??= setTimeout(() => this.flush(w), FILES_CHANGED_COALESCE_MS);
  }

  private flush(w: Watch): void {
    w.timer = null;
    const all = [...w.pending.values()];
    w.pending.clear();
    const resync = w.resync || all.length > FILES_CHANGED_MAX_CHANGES;
    const git = w.git;
    w.resync = false;
    w.git = false;
    if (!all.length && !resync && !git) return;
    const event: FilesChangedEvent = {
      workspaceId: w.workspaceId,
      changes: all.slice(0, FILES_CHANGED_MAX_CHANGES),
      ...(resync ? { resync: true } : {}),
      ...(git ? { git: true } : {}),
    };
    if (!this.server) {
      this.logger.warn({ workspaceId: w.workspaceId }, 'file changes before the socket server was attached; dropped');
      return;
    }
    this.server.local.to(filesRoom(w.workspaceId)).emit('files.changed', event);
  }
}
