'use client';

import { runBuiltin } from '../ide/ide-context';

// "Open in browser view" from anywhere in the IDE (a terminal's preview URL): the address waits
// here until the Browser panel (mounted on demand) takes it, then the panel is shown.
type Listener = (workspaceId: string, url: string) => void;
const listeners = new Set<Listener>();
const pending = new Map<string, string>();

export function openInBrowserView(workspaceId: string, url: string): void {
  if (listeners.size) for (const l of listeners) l(workspaceId, url);
  else pending.set(workspaceId, url);
  runBuiltin('workbench.showBrowser');
}

/** The panel listens while mounted; an address asked for before it mounted is handed over at once. */
export function onBrowserOpen(workspaceId: string, listener: Listener): () => void {
  listeners.add(listener);
  const waiting = pending.get(workspaceId);
  if (waiting) {
    pending.delete(workspaceId);
    listener(workspaceId, waiting);
  }
  return () => listeners.delete(listener);
}
