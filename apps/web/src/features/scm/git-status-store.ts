'use client';

import { useCallback, useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, GitStatus, ServerToClientEvents } from '@h/contracts';
import { ApiError, api } from '../../lib/api-client';
import { scmPaths } from './scm-api';

/** How often status is asked for while the page is visible: a terminal's `git commit` touches only .git, which live files leave out. */
const POLL_MS = 5000;
/** files.changed bursts (a checkout, the agent writing) become one status call. */
const DEBOUNCE_MS = 300;

interface Snapshot {
  status?: GitStatus;
  error?: ApiError;
}

interface Entry {
  snapshot: Snapshot;
  listeners: Set<() => void>;
  inflight: boolean;
  again: boolean;
  /** Subscribers that want the slow poll (the open view; the status bar alone does not keep a sandbox busy). */
  pollers: number;
  stop?: () => void;
}

// One status per workspace for every part of the page that shows it (the Source Control view, the
// status bar's branch): one request at a time, refreshed after the panel's own actions, on
// files.changed, on focus and on a slow poll while the page is visible — and only while someone
// is subscribed.
const entries = new Map<string, Entry>();

function entryOf(workspaceId: string): Entry {
  let e = entries.get(workspaceId);
  if (!e) {
    e = { snapshot: {}, listeners: new Set(), inflight: false, again: false, pollers: 0 };
    entries.set(workspaceId, e);
  }
  return e;
}

/** Asks for the workspace's status now (a second ask while one is out runs once after it). */
export function reloadGitStatus(workspaceId: string): void {
  const e = entryOf(workspaceId);
  if (e.inflight) {
    e.again = true;
    return;
  }
  e.inflight = true;
  api.get<GitStatus>(scmPaths.status(workspaceId)).then(
    (status) => publish(e, { status }),
    (cause: unknown) => publish(e, { status: e.snapshot.status, error: cause instanceof ApiError ? cause : new ApiError(0, 'UNKNOWN', 'Could not read the repository status.') }),
  ).finally(() => {
    e.inflight = false;
    if (e.again) {
      e.again = false;
      reloadGitStatus(workspaceId);
    }
  });
}

function publish(e: Entry, snapshot: Snapshot): void {
  e.snapshot = snapshot;
  for (const l of e.listeners) l();
}

function start(workspaceId: string): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const soon = () => {
    timer ??= setTimeout(() => {
      timer = null;
      reloadGitStatus(workspaceId);
    }, DEBOUNCE_MS);
  };
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io({ path: '/api/socket.io', withCredentials: true, reconnectionDelayMax: 4000 });
  socket.on('ready', () => socket.emit('files.subscribe', { workspaceId }, () => undefined));
  socket.on('files.changed', (event) => event.workspaceId === workspaceId && soon());
  const visible = () => document.visibilityState === 'visible';
  const poll = setInterval(() => visible() && entryOf(workspaceId).pollers > 0 && reloadGitStatus(workspaceId), POLL_MS);
  const onBack = () => visible() && reloadGitStatus(workspaceId);
  document.addEventListener('visibilitychange', onBack);
  window.addEventListener('focus', onBack);
  reloadGitStatus(workspaceId);
  return () => {
    if (timer) clearTimeout(timer);
    clearInterval(poll);
    document.removeEventListener('visibilitychange', onBack);
    window.removeEventListener('focus', onBack);
    socket.removeAllListeners();
    socket.disconnect();
  };
}

/** The workspace's git status, live while the component is mounted; `poll` adds the slow poll. */
export function useGitStatus(workspaceId: string, { poll = false }: { poll?: boolean } = {}): Snapshot & { reload: () => void } {
  const subscribe = useCallback(
    (listener: () => void) => {
      const e = entryOf(workspaceId);
      e.listeners.add(listener);
      if (poll) e.pollers++;
      if (e.listeners.size === 1) e.stop = start(workspaceId);
      return () => {
        e.listeners.delete(listener);
        if (poll) e.pollers--;
        if (!e.listeners.size) {
          e.stop?.();
          e.stop = undefined;
        }
      };
    },
    [workspaceId, poll],
  );
  const snapshot = useSyncExternalStore(subscribe, () => entryOf(workspaceId).snapshot, () => EMPTY);
  const reload = useCallback(() => reloadGitStatus(workspaceId), [workspaceId]);
  return { ...snapshot, reload };
}

const EMPTY: Snapshot = {};
