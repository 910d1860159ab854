'use client';

import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@h/contracts';

type FilesSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Calls `onChange` (at most once per `debounceMs`) when files of the workspace change (the agent's
 * edits, a teammate's save, a terminal's checkout), as live files (`files.subscribe`) tell. Live
 * files leave `.git` out, so a terminal's `git add` or `git commit` that touches no work file is
 * not among them: the panel also refreshes on focus and on a slow poll (scm-view.tsx).
 */
export function useFilesChanged(workspaceId: string, onChange: () => void, debounceMs = 400): void {
  const callback = useRef(onChange);
  callback.current = onChange;

  useEffect(() => {
    let closed = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const s: FilesSocket = io({ path: '/api/socket.io', withCredentials: true, reconnectionDelayMax: 4000 });
    const fire = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        if (!closed) callback.current();
      }, debounceMs);
    };
    // Subscribe once the server says the handshake is authenticated (and again after reconnects).
    s.on('ready', () => s.emit('files.subscribe', { workspaceId }, () => undefined));
    s.on('files.changed', (event) => {
      if (event.workspaceId === workspaceId) fire();
    });
    return () => {
      closed = true;
      if (timer) clearTimeout(timer);
      s.disconnect();
    };
  }, [workspaceId, debounceMs]);
}
