'use client';

import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, WorkspaceStatusEvent } from '@h/contracts';
import { LIVE_SOCKET_OPTIONS } from '../../lib/live-socket';

/**
 * Setup progress of the given workspaces as it happens (`workspace.watch` → `workspace.status`
 * over Socket.IO): `onChange` runs for every progress message and for the end (ready or error),
 * also when the watch's answer (on every connect and reconnect) says the setup already ended. No
 * socket while `workspaceIds` is empty (nothing is being set up).
 */
export function useWorkspaceStatus(workspaceIds: string[], onChange: (event: WorkspaceStatusEvent) => void): void {
  const handler = useRef(onChange);
  handler.current = onChange;
  const key = [...workspaceIds].sort().join(',');
  useEffect(() => {
    if (!key) return;
    const ids = key.split(',');
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io({ ...LIVE_SOCKET_OPTIONS, forceNew: true });
    // The answer says the status now: a setup that ended before the watch (or while reconnecting) counts too.
    socket.on('ready', () => {
      for (const workspaceId of ids) {
        socket.emit('workspace.watch', { workspaceId }, (ack) => {
          if (ack?.ok && ack.data.status !== 'provisioning') handler.current(ack.data);
        });
      }
    });
    socket.on('workspace.status', (e) => ids.includes(e.workspaceId) && handler.current(e));
    return () => {
      socket.removeAllListeners();
      socket.disconnect();
    };
  }, [key]);
}
