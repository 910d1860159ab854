'use client';

import { useEffect, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, TerminalInfo } from '@h/contracts';
import { LIVE_SOCKET_OPTIONS } from '../../lib/live-socket';

/** The terminal socket, typed with the server's event maps (libs/contracts terminals.ts). */
export type TerminalSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export type TerminalConnection = 'connecting' | 'live' | 'reconnecting' | 'failed';

export interface TerminalSocketState {
  socket: TerminalSocket | null;
  connection: TerminalConnection;
  terminals: TerminalInfo[];
  max: number;
  error: string | null;
  /** Bumped on every (re)authenticated connection: terminal views re-attach when it changes. */
  generation: number;
}

/**
 * The workspace's terminals over their own Socket.IO connection (a separate one from the session
 * console's, so neither one's disconnect ends the other): `terminal.list` on every `ready` (the
 * server authenticated this connection, also after a reconnect), then `terminal.changed` keeps the
 * tabs current.
 */
export function useTerminalSocket(workspaceId: string): TerminalSocketState {
  const [state, setState] = useState<TerminalSocketState>({ socket: null, connection: 'connecting', terminals: [], max: 0, error: null, generation: 0 });

  useEffect(() => {
    let closed = false;
    const s: TerminalSocket = io({ ...LIVE_SOCKET_OPTIONS, forceNew: true });
    const patch = (p: Partial<TerminalSocketState>) => !closed && setState((prev) => ({ ...prev, ...p }));
    const list = () =>
      s.emit('terminal.list', { workspaceId }, (ack) => {
        if (closed) return;
        if (ack?.ok) setState((prev) => ({ ...prev, connection: 'live', error: null, terminals: ack.data.terminals, max: ack.data.max, generation: prev.generation + 1 }));
        else patch({ connection: 'failed', error: ack?.error?.message ?? 'Could not list the terminals.' });
      });
    setState({ socket: s, connection: 'connecting', terminals: [], max: 0, error: null, generation: 0 });
    s.on('ready', list);
    s.on('terminal.changed', (e) => {
      if (e.workspaceId === workspaceId) patch({ terminals: e.terminals });
    });
    s.on('terminal.error', (e) => {
      // A workspace-wide refusal (sandbox connection dropped, access lost): list again, which also re-attaches.
      if (e.workspaceId !== workspaceId || e.terminalId) return;
      if (e.error.code === 'SANDBOX_UNAVAILABLE') setTimeout(() => !closed && s.connected && list(), 1000);
      else patch({ connection: 'failed', error: e.error.message });
    });
    s.on('auth_error', (body) => patch({ connection: 'failed', error: body?.error?.message ?? 'Sign in again to use the terminals.' }));
    s.on('disconnect', () => patch({ connection: 'reconnecting' }));
    return () => {
      closed = true;
      s.disconnect();
    };
  }, [workspaceId]);

  return state;
}
