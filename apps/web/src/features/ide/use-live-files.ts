'use client';

import { useEffect, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, FilesChangedEvent, ServerToClientEvents } from '@h/contracts';
import { LIVE_SOCKET_OPTIONS } from '../../lib/live-socket';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'failed';

type FilesSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

// Live files: `files.subscribe` on the shared Socket.IO path once the server says `ready`, then
// every `files.changed` goes to onChange. After a dropped connection changes may have been
// missed, so the first event after re-subscribing is a local `resync` (reload tree and tabs).
export function useLiveFiles(workspaceId: string, onChange: (event: FilesChangedEvent) => void): { state: LiveState; error: string | null } {
  const [state, setState] = useState<LiveState>('connecting');
  const [error, setError] = useState<string | null>(null);
  const handler = useRef(onChange);
  handler.current = onChange;

  useEffect(() => {
    let subscribedOnce = false;
    const socket: FilesSocket = io({ ...LIVE_SOCKET_OPTIONS });
    const subscribe = () =>
      socket.emit('files.subscribe', { workspaceId }, (ack) => {
        if (ack?.ok) {
          setState('live');
          setError(null);
          if (subscribedOnce) handler.current({ workspaceId, changes: [], resync: true });
          subscribedOnce = true;
        } else {
          setState('failed');
          setError(ack?.error?.message ?? 'Live file updates are not available.');
        }
      });
    socket.on('ready', subscribe);
    socket.on('files.changed', (event) => {
      if (event.workspaceId === workspaceId) handler.current(event);
    });
    socket.on('files.error', (body) => {
      if (body.workspaceId !== workspaceId) return;
      setState('failed');
      setError(body.error?.message ?? 'Live file updates stopped.');
    });
    socket.on('auth_error', (body) => {
      setState('failed');
      setError(body?.error?.message ?? 'Sign in again for live file updates.');
    });
    socket.on('disconnect', () => setState('reconnecting'));
    return () => {
      socket.removeAllListeners();
      socket.disconnect();
    };
  }, [workspaceId]);

  return { state, error };
}
