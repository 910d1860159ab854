'use client';

import { useCallback, useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, GitStatus, ServerToClientEvents } from '@h/contracts';
import { ApiError, api } from '../../lib/api-client';
import { scmPaths } from './scm-api';
import { LIVE_SOCKET_OPTIONS } from '../../lib/live-socket';

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
  stop?: () => void;
}

// One status per workspace for every part of the page that shows it (the Source Control view, the
// status bar's branch): one request at a time, refreshed after the panel's own actions, on
// files.changed (work-tree changes, and `git: true` when HEAD, the index or refs change, e.g. a
// `git commit` in a terminal: sandboxd's watcher sees .git too) and on focus — and only while
// someone is subscribed. No polling.
const entries = new Map<string, Entry>();

function entryOf(workspaceId: string): Entry {
  let e = entries.get(workspaceId);
  if (!e) {
    e = { snapshot: {}, listeners: new Set(), inflight: false, again: false };
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
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io({ ...LIVE_SOCKET_OPTIONS });
  socket.on('ready', () => socket.emit('files.subscribe', { workspaceId }, () => undefined));
  socket.on('files.changed', (event) => event.workspaceId === workspaceId && soon());
  const visible = () => document.visibilityState === 'visible';
  const onBack = () => visible() && reloadGitStatus(workspaceId);
  document.addEventListener('visibilitychange', onBack);
  window.addEventListener('focus', onBack);
  reloadGitStatus(workspaceId);
  return () => {
    if (timer) clearTimeout(timer);
    document.removeEventListener('visibilitychange', onBack);
    window.removeEventListener('focus', onBack);
    socket.removeAllListeners();
    socket.disconnect();
  };
}

/** The workspace's git status, live while the component is mounted. */
export function useGitStatus(workspaceId: string): Snapshot & { reload: () => void } {
  const subscribe = useCallback(
    (listener: () => void) => {
      const e = entryOf(workspaceId);
      e.listeners.add(listener);
      if (e.listeners.size === 1) e.stop = start(workspaceId);
      return () => {
        e.listeners.delete(listener);
        if (!e.listeners.size) {
          e.stop?.();
          e.stop = undefined;
        }
      };
    },
    [workspaceId],
  );
  const snapshot = useSyncExternalStore(subscribe, () => entryOf(workspaceId).snapshot, () => EMPTY);
  const reload = useCallback(() => reloadGitStatus(workspaceId), [workspaceId]);
  return { ...snapshot, reload };
}

const EMPTY: Snapshot = {};
