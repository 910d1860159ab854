'use client';

import { useEffect, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { BrowserActionEvent, BrowserFrameEvent, BrowserState, ClientToServerEvents, ServerToClientEvents } from '@h/contracts';
import { LIVE_SOCKET_OPTIONS } from '../../lib/live-socket';

export type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type BrowserConnection = 'connecting' | 'live' | 'reconnecting' | 'failed';

export interface BrowserSocketState {
  socket: BrowserSocket | null;
  connection: BrowserConnection;
  state: BrowserState | null;
  error: string | null;
  /** The signed-in user (from `ready`), so the view can say "You" for its own actions. */
  userId: string | null;
}

export interface BrowserStreams {
  /** Called for every frame, outside React state: a frame a second re-rendering the panel would cost more than drawing it. */
  onFrame: (frame: BrowserFrameEvent) => void;
  onAction: (action: BrowserActionEvent) => void;
}

/**
 * The workspace's browser over its own Socket.IO connection (like the terminals': neither one's
 * disconnect ends the other): `browser.subscribe` on every `ready` (also after a reconnect, which
 * turns the screencast back on), then `browser.state` keeps the tabs current.
 */
export function useBrowserSocket(workspaceId: string, streams: BrowserStreams): BrowserSocketState {
  const [state, setState] = useState<BrowserSocketState>({ socket: null, connection: 'connecting', state: null, error: null, userId: null });
  const handlers = useRef(streams);
  handlers.current = streams;

  useEffect(() => {
    let closed = false;
    const s: BrowserSocket = io({ ...LIVE_SOCKET_OPTIONS, forceNew: true });
    const patch = (p: Partial<BrowserSocketState>) => !closed && setState((prev) => ({ ...prev, ...p }));
    setState({ socket: s, connection: 'connecting', state: null, error: null, userId: null });
    s.on('ready', (hello) => {
      patch({ userId: hello.userId });
      s.emit('browser.subscribe', { workspaceId }, (ack) => {
        if (ack?.ok) patch({ connection: 'live', error: null, state: ack.data });
        else patch({ connection: 'failed', error: ack?.error?.message ?? 'Could not open the browser view.' });
      });
    });
    s.on('browser.state', (e) => e.workspaceId === workspaceId && patch({ state: e }));
    s.on('browser.frame', (f) => f.workspaceId === workspaceId && handlers.current.onFrame(f));
    s.on('browser.action', (a) => a.workspaceId === workspaceId && handlers.current.onAction(a));
    s.on('auth_error', (body) => patch({ connection: 'failed', error: body?.error?.message ?? 'Sign in again to use the browser view.' }));
    s.on('disconnect', () => patch({ connection: 'reconnecting' }));
    return () => {
      closed = true;
      s.disconnect();
    };
  }, [workspaceId]);

  return state;
}
