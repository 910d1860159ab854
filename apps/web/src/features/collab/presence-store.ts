'use client';

import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, PresenceMember, PresenceState, ServerToClientEvents } from '@h/contracts';
import { LIVE_SOCKET_OPTIONS } from '../../lib/live-socket';

type CollabSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export type PresenceConnection = 'connecting' | 'live' | 'reconnecting' | 'failed';

export interface PresenceSnapshot {
  members: PresenceMember[];
  connection: PresenceConnection;
  error: string | null;
}

interface Store {
  refs: number;
  file: string | null;
  snapshot: PresenceSnapshot;
  version: number;
  listeners: Set<() => void>;
  socket: CollabSocket;
}

const EMPTY: PresenceSnapshot = { members: [], connection: 'connecting', error: null };
const stores = new Map<string, Store>();

/**
 * One presence connection per workspace for the whole page: every `usePresence` of a workspace
 * shares it, so the people list and the editor's tab markers count this browser tab once. The
 * server's state replaces ours whole; one with a lower version than ours is late and dropped.
 */
export function acquirePresence(workspaceId: string): Store {
  const existing = stores.get(workspaceId);
  if (existing) {
    existing.refs += 1;
    return existing;
  }
  const socket: CollabSocket = io({ ...LIVE_SOCKET_OPTIONS });
  const store: Store = { refs: 1, file: null, snapshot: EMPTY, version: -1, listeners: new Set(), socket };
  stores.set(workspaceId, store);
  const set = (patch: Partial<PresenceSnapshot>) => {
    store.snapshot = { ...store.snapshot, ...patch };
    for (const l of store.listeners) l();
  };
  const take = (state: PresenceState) => {
    if (state.workspaceId !== workspaceId || state.version < store.version) return;
    store.version = state.version;
    set({ members: state.members });
  };
  // The server authenticates a connection asynchronously and says `ready` when a message may be sent.
  socket.on('ready', () => {
    socket.emit('presence.join', { workspaceId, file: store.file }, (ack) => {
      if (ack?.ok) {
        take(ack.data);
        set({ connection: 'live', error: null });
      } else set({ connection: 'failed', error: ack?.error?.message ?? 'Could not show who is here.' });
    });
  });
  socket.on('presence.state', take);
  socket.on('presence.error', (e) => e.workspaceId === workspaceId && set({ connection: 'failed', error: e.error.message, members: [] }));
  socket.on('auth_error', (body) => set({ connection: 'failed', error: body?.error?.message ?? 'Sign in again to see who is here.' }));
  socket.on('disconnect', (reason) => {
    if (!stores.has(workspaceId)) return;
    set({ connection: 'reconnecting' });
    // Socket.IO reconnects by itself only after transport failures, not a server-side close.
    if (reason === 'io server disconnect') setTimeout(() => stores.get(workspaceId) === store && socket.connect(), 1000);
  });
  socket.on('connect_error', () => set({ connection: 'reconnecting' }));
  return store;
}

export function releasePresence(workspaceId: string, store: Store): void {
  store.refs -= 1;
  if (store.refs > 0 || stores.get(workspaceId) !== store) return;
  stores.delete(workspaceId);
  store.socket.disconnect();
}

/** Tells the others which file this browser tab has open (null: none). */
export function announceFile(workspaceId: string, store: Store, file: string | null): void {
  if (store.file === file) return;
  store.file = file;
  if (store.snapshot.connection !== 'live') return; // sent with the next join
  store.socket.emit('presence.update', { workspaceId, file }, () => undefined);
}

export function subscribePresence(store: Store, listener: () => void): () => void {
  store.listeners.add(listener);
  return () => store.listeners.delete(listener);
}

export function emptyPresence(): PresenceSnapshot {
  return EMPTY;
}
