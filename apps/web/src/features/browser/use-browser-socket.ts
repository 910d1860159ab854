'use client';

import { useRef } from 'react';
import type { BrowserActionEvent, BrowserFrameEvent, BrowserState } from '@h/contracts';
import { useLiveSocket, type LiveSocket, type LiveSocketState } from '../../lib/use-live-socket';

export type BrowserSocket = LiveSocket;

export interface BrowserSocketState extends LiveSocketState {
  state: BrowserState | null;
  /** The signed-in user (from `ready`), so the view can say "You" for its own actions. */
  userId: string | null;
}

export interface BrowserStreams {
  /** Called for every frame, outside React state: a frame a second re-rendering the panel would cost more than drawing it. */
  onFrame: (frame: BrowserFrameEvent) => void;
  onAction: (action: BrowserActionEvent) => void;
}

/**
 * The workspace's browser over its own Socket.IO connection (like the terminals'):
 * `browser.subscribe` on every `ready` (also after a reconnect, which turns the screencast back
 * on), then `browser.state` keeps the tabs current.
 */
export function useBrowserSocket(workspaceId: string, streams: BrowserStreams): BrowserSocketState {
  const handlers = useRef(streams);
  handlers.current = streams;
  return useLiveSocket<BrowserSocketState>(workspaceId, { state: null, userId: null }, 'Sign in again to use the browser view.', (s, { patch }) => {
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
  });
}
