'use client';

import type { TerminalInfo } from '@h/contracts';
import { useLiveSocket, type LiveSocket, type LiveSocketState } from '../../lib/use-live-socket';

/** The terminal socket, typed with the server's event maps (libs/contracts terminals.ts). */
export type TerminalSocket = LiveSocket;

export interface TerminalSocketState extends LiveSocketState {
  terminals: TerminalInfo[];
  max: number;
  /** Bumped on every (re)authenticated connection: terminal views re-attach when it changes. */
  generation: number;
}

/**
 * The workspace's terminals over their own Socket.IO connection: `terminal.list` on every `ready`
 * (the server authenticated this connection, also after a reconnect), then `terminal.changed`
 * keeps the tabs current.
 */
export function useTerminalSocket(workspaceId: string): TerminalSocketState {
  return useLiveSocket<TerminalSocketState>(workspaceId, { terminals: [], max: 0, generation: 0 }, 'Sign in again to use the terminals.', (s, { patch, update, closed }) => {
    const list = () =>
      s.emit('terminal.list', { workspaceId }, (ack) => {
        if (ack?.ok) update((prev) => ({ ...prev, connection: 'live', error: null, terminals: ack.data.terminals, max: ack.data.max, generation: prev.generation + 1 }));
        else patch({ connection: 'failed', error: ack?.error?.message ?? 'Could not list the terminals.' });
      });
    s.on('ready', list);
    s.on('terminal.changed', (e) => {
      if (e.workspaceId === workspaceId) patch({ terminals: e.terminals });
    });
    s.on('terminal.error', (e) => {
      // A workspace-wide refusal (sandbox connection dropped, access lost): list again, which also re-attaches.
      if (e.workspaceId !== workspaceId || e.terminalId) return;
      if (e.error.code === 'SANDBOX_UNAVAILABLE') setTimeout(() => !closed() && s.connected && list(), 1000);
      else patch({ connection: 'failed', error: e.error.message });
    });
  });
}
