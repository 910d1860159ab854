'use client';

import { useEffect, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@h/contracts';
import { LIVE_SOCKET_OPTIONS } from './live-socket';

/** A panel's own socket, typed with the server's event maps (libs/contracts). */
export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type LiveConnection = 'connecting' | 'live' | 'reconnecting' | 'failed';

/** What every panel with its own socket shows, whatever else it keeps. */
export interface LiveSocketState {
  socket: LiveSocket | null;
  connection: LiveConnection;
  error: string | null;
}

export interface LiveSocketWiring<S> {
  /** Merges into the state; ignored once the socket is closed. */
  patch: (p: Partial<S>) => void;
  /** The state from the previous one; ignored once the socket is closed. */
  update: (next: (prev: S) => S) => void;
  closed: () => boolean;
}

/**
 * A workspace panel's own Socket.IO connection (terminals, browser): a separate one from the
 * session console's, so neither one's disconnect ends the other. Opened afresh per workspace and
 * closed on unmount; the state starts from `initial`, `wire` subscribes to the panel's events
 * (`ready` arrives on every authenticated connection, also after a reconnect), an `auth_error`
 * fails it with the server's message (or `signInAgain`) and a disconnect shows `reconnecting`.
 */
export function useLiveSocket<S extends LiveSocketState>(
  workspaceId: string,
  initial: Omit<S, keyof LiveSocketState>,
  signInAgain: string,
  wire: (s: LiveSocket, w: LiveSocketWiring<S>) => void,
): S {
  const fresh = (socket: LiveSocket | null) => ({ ...initial, socket, connection: 'connecting', error: null }) as S;
  const [state, setState] = useState<S>(() => fresh(null));

  useEffect(() => {
    let closed = false;
    const s: LiveSocket = io({ ...LIVE_SOCKET_OPTIONS, forceNew: true });
    const update = (next: (prev: S) => S) => !closed && setState(next);
    const patch = (p: Partial<S>) => update((prev) => ({ ...prev, ...p }));
    setState(fresh(s));
    wire(s, { patch, update, closed: () => closed });
    s.on('auth_error', (body) => patch({ connection: 'failed', error: body?.error?.message ?? signInAgain } as Partial<S>));
    s.on('disconnect', () => patch({ connection: 'reconnecting' } as Partial<S>));
    return () => {
      closed = true;
      s.disconnect();
    };
    // Opened once per workspace: `initial`, `signInAgain` and `wire` are read when it opens.
  }, [workspaceId]);

  return state;
}
