import type { Socket } from 'socket.io';
import type { ErrorBody } from '@h/contracts';
import { AppException } from '@h/http';
import type { AccessService, AuthService } from '@h/identity';
import { lostWorkspaces } from './socket-message';

/** What every workspace-scoped socket feature keeps per socket: the workspaces it is in. */
export interface SocketWorkspacesState {
  workspaces: Set<string>;
}

/**
 * The per-socket state of a gateway whose sockets join workspaces (live files, presence,
 * terminals): made on first use under `socket.data[key]` with a recheck every `everyMs` that
 * takes the socket out of each workspace its caller may no longer read (`onLost`: the session
 * ended, or access is gone), stopped on disconnect and on shutdown.
 */
export class SocketWorkspaces<S extends SocketWorkspacesState> {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly opts: {
      key: string;
      everyMs: () => number;
      deps: { auth: AuthService; access: AccessService };
      create: () => S;
      onLost: (socket: Socket, state: S, workspaceId: string, error: ErrorBody['error']) => Promise<void> | void;
      /** Takes the socket out of one workspace (its room, the hub): for `enter`, `drop` and `end`. */
      leave?: (socket: Socket, workspaceId: string) => Promise<void> | void;
    },
  ) {}

  get(socket: Socket): S | undefined {
    return socket.data[this.opts.key] as S | undefined;
  }

  /** The socket's state, made (with its recheck) when it has none yet. */
  of(socket: Socket): S {
    let state = this.get(socket);
    if (!state) {
      state = this.opts.create();
      const timer = setInterval(() => void this.recheck(socket), this.opts.everyMs());
      timer.unref();
      this.timers.set(socket.id, timer);
      socket.data[this.opts.key] = state;
    }
    return state;
  }

  /**
   * Puts the socket in a workspace it is not in yet: refused past `max` workspaces per socket
   * (TOO_MANY_STREAMS, `refusal` says why), then `join` (the room, the hub), undone with `leave`
   * when it throws. Nothing happens for a workspace the socket is in already.
   */
  async enter(socket: Socket, workspaceId: string, opts: { max: number; refusal: string; join: () => Promise<void> }): Promise<void> {
    const state = this.of(socket);
    if (state.workspaces.has(workspaceId)) return;
    if (state.workspaces.size >= opts.max) throw new AppException(429, 'TOO_MANY_STREAMS', opts.refusal);
    state.workspaces.add(workspaceId);
    try {
      await opts.join();
    } catch (err) {
      state.workspaces.delete(workspaceId);
      await this.opts.leave?.(socket, workspaceId);
      throw err;
    }
    // Gone meanwhile: its disconnect ran before this workspace was in its state.
    if (socket.disconnected) this.end(socket);
  }

  /** Takes the socket out of a workspace it is in (unsubscribe, access lost) with `leave`. */
  async drop(socket: Socket, workspaceId: string): Promise<void> {
    if (!this.get(socket)?.workspaces.delete(workspaceId)) return;
    await this.opts.leave?.(socket, workspaceId);
  }

  /** The socket went away: its recheck stops and `leave` (by default the gateway's) runs for each workspace it was in. */
  end(socket: Socket, leave: (workspaceId: string) => void = (id) => void Promise.resolve(this.opts.leave?.(socket, id)).catch(() => undefined)): void {
    const timer = this.timers.get(socket.id);
    if (timer) clearInterval(timer);
    this.timers.delete(socket.id);
    const state = this.get(socket);
    if (!state) return;
    for (const id of state.workspaces) leave(id);
    state.workspaces.clear();
  }

  stopAll(): void {
    for (const t of this.timers.values()) clearInterval(t);
    this.timers.clear();
  }

  private async recheck(socket: Socket): Promise<void> {
    const state = this.get(socket);
    if (!state?.workspaces.size) return;
    for (const { workspaceId, error } of await lostWorkspaces(socket, [...state.workspaces], this.opts.deps)) {
      await this.opts.onLost(socket, state, workspaceId, error);
    }
  }
}
