import type { Socket } from 'socket.io';
import type { SandboxClient } from '@h/sandbox';
import type { FileSandboxService } from './file-sandbox.service';

/** What a relay keeps of one workspace besides the hub's own fields. */
export interface RelayedWorkspace {
  readonly workspaceId: string;
  /** This process's sockets that follow the workspace. */
  readonly sockets: Map<string, Socket>;
  /** The connection listened on: null before the first arm and after it dropped. */
  client: SandboxClient | null;
}

export type Relayed<T> = T & RelayedWorkspace;

export interface SandboxRelayHooks<T> {
  /** The hub's fields for a workspace this process starts to follow. */
  create(workspaceId: string): T;
  /** Listens on `client` for the workspace's notifications; returns how to stop. */
  listen(w: Relayed<T>, client: SandboxClient): () => void;
  /** Turns the sandbox's stream on for this connection (after `listen`); throwing refuses the subscriber. */
  start?(w: Relayed<T>, client: SandboxClient): Promise<void>;
  /** Listening again on a new connection after one dropped: what was sent meanwhile was missed. */
  rearmed?(w: Relayed<T>): void;
  /** The last socket left (or the module stops): the stream off on `client` if it is still open, timers cleared. */
  stop?(w: Relayed<T>, client: SandboxClient | null): void;
}

interface Entry extends RelayedWorkspace {
  arming: Promise<void> | null;
  armedOnce: boolean;
  detach?: () => void;
}

/**
 * The per-workspace lifecycle shared by the api's sandbox notification hubs (live files,
 * diagnostics, the browser view): one listener on the workspace's sandbox connection (the file
 * API's, FileSandboxService) while at least one of this process's sockets follows it, removed when
 * the last leaves. sandboxd sends its notifications to every connection, so each api replica
 * listens for its own sockets and nothing crosses the Redis adapter twice. A dropped connection
 * (sandbox idle-stopped or restarted) is not re-opened by itself, which would keep an idle sandbox
 * running forever: the next call that reaches the sandbox re-arms it and the hub is told (`rearmed`).
 */
export class SandboxRelay<T extends object> {
  private readonly entries = new Map<string, Relayed<T> & Entry>();

  constructor(
    private readonly sandbox: FileSandboxService,
    private readonly hooks: SandboxRelayHooks<T>,
  ) {
    sandbox.onConnected((workspaceId, client) => {
      const w = this.entries.get(workspaceId);
      if (w && !w.arming && w.client !== client && w.sockets.size) void this.arm(w).catch(() => undefined);
    });
  }

  get(workspaceId: string): Relayed<T> | undefined {
    return this.entries.get(workspaceId);
  }

  /** The socket follows the workspace from now on; resolves once the sandbox's stream is on for it. */
  async add(workspaceId: string, socket: Socket): Promise<Relayed<T>> {
    let w = this.entries.get(workspaceId);
    if (!w) {
      const fields: Entry = { workspaceId, sockets: new Map(), client: null, arming: null, armedOnce: false };
      w = Object.assign(this.hooks.create(workspaceId), fields);
      this.entries.set(workspaceId, w);
    }
    w.sockets.set(socket.id, socket);
    try {
      if (w.arming) await w.arming;
      if (!w.client || w.client.closed) await this.arm(w);
    } catch (err) {
      this.remove(workspaceId, socket.id);
      throw err;
    }
    return w;
  }

  remove(workspaceId: string, socketId: string): void {
    const w = this.entries.get(workspaceId);
    if (!w || !w.sockets.delete(socketId) || w.sockets.size) return;
    this.entries.delete(workspaceId);
    this.stop(w);
  }

  stopAll(): void {
    for (const w of this.entries.values()) this.stop(w);
    this.entries.clear();
  }

  private stop(w: Relayed<T> & Entry): void {
    w.detach?.();
    w.detach = undefined;
    this.hooks.stop?.(w, w.client && !w.client.closed ? w.client : null);
  }

  private arm(w: Relayed<T> & Entry): Promise<void> {
    const run = (async () => {
      const client = await this.sandbox.client(w.workspaceId);
      if (this.entries.get(w.workspaceId) !== w) return;
      w.detach?.();
      const unlisten = this.hooks.listen(w, client);
      const onClose = () => {
        if (w.client === client) w.client = null;
      };
      client.once('close', onClose);
      const detach = () => {
        unlisten();
        client.off('close', onClose);
      };
      w.detach = detach;
      try {
        await this.hooks.start?.(w, client);
      } catch (err) {
        detach();
        if (w.detach === detach) w.detach = undefined;
        throw err;
      }
      // Everyone left while the stream was turned on: remove() could not turn it off on this
      // connection. Left on if a newer subscriber follows the workspace already (the stream is per
      // connection, and turning it off here could undo theirs).
      if (this.entries.get(w.workspaceId) !== w) {
        detach();
        if (!this.entries.has(w.workspaceId)) this.hooks.stop?.(w, client.closed ? null : client);
        return;
      }
      const rearmed = w.armedOnce && w.client === null;
      w.armedOnce = true;
      w.client = client;
      if (rearmed) this.hooks.rearmed?.(w);
    })();
    const tracked: Promise<void> = run
      .catch(() => undefined)
      .finally(() => {
        if (w.arming === tracked) w.arming = null;
      });
    w.arming = tracked;
    return run;
  }
}
