import type { Socket } from 'socket.io';
import type { ErrorBody } from '@h/contracts';
import type { AccessService, AuthService } from '@h/identity';
import { SocketWorkspaces, type SocketWorkspacesState } from '@h/sessions';

/** A hub that relays one sandbox watch per workspace to the sockets in it (SandboxRelay's users). */
export interface RelayHub {
  add(workspaceId: string, socket: Socket): Promise<void>;
  remove(workspaceId: string, socketId: string): void;
}

/**
 * A gateway's sockets in the workspaces of a relay hub (live files, diagnostics): entering joins the
 * workspace's room and the hub's watch, at most `max` workspaces a socket; leaving (unsubscribe,
 * disconnect, access lost on the recheck every `everyMs`) undoes both. `onLost` tells the socket
 * why it was taken out, when the feature says so.
 */
export class RelaySockets {
  private readonly sockets: SocketWorkspaces<SocketWorkspacesState>;

  constructor(
    private readonly o: {
      key: string;
      everyMs: () => number;
      deps: { auth: AuthService; access: AccessService };
      hub: RelayHub;
      room: (workspaceId: string) => string;
      max: number;
      refusal: string;
      onLost?: (socket: Socket, workspaceId: string, error: ErrorBody['error']) => void;
    },
  ) {
    this.sockets = new SocketWorkspaces<SocketWorkspacesState>({
      key: o.key,
      everyMs: o.everyMs,
      deps: o.deps,
      create: () => ({ workspaces: new Set() }),
      onLost: async (socket, _state, workspaceId, error) => {
        await this.sockets.drop(socket, workspaceId);
        o.onLost?.(socket, workspaceId, error);
      },
      leave: async (socket, workspaceId) => {
        o.hub.remove(workspaceId, socket.id);
        await socket.leave(o.room(workspaceId));
      },
    });
  }

  /** Into the workspace's room and watch (TOO_MANY_STREAMS past `max`); nothing for one it is in. */
  enter(socket: Socket, workspaceId: string): Promise<void> {
    return this.sockets.enter(socket, workspaceId, {
      max: this.o.max,
      refusal: this.o.refusal,
      join: async () => {
        await socket.join(this.o.room(workspaceId));
        await this.o.hub.add(workspaceId, socket);
      },
    });
  }

  drop(socket: Socket, workspaceId: string): Promise<void> {
    return this.sockets.drop(socket, workspaceId);
  }

  /** The socket disconnected: out of every workspace it was in. */
  end(socket: Socket): void {
    this.sockets.end(socket);
  }

  stopAll(): void {
    this.sockets.stopAll();
  }
}
