'use client';

import { io, type Socket } from 'socket.io-client';
import type { Ack, ClientToServerEvents, LspCompletionList, LspHover, LspLocation, LspPosition, ServerToClientEvents } from '@h/contracts';
import { diagnosticsReducer, initialDiagnostics, type DiagnosticsAction, type DiagnosticsState } from './diagnostics-state';
import { LIVE_SOCKET_OPTIONS } from '../../lib/live-socket';

type LspSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A language server that does not answer in time must not hold the editor (completion, hover). */
const REQUEST_TIMEOUT_MS = 8000;

export interface DiagnosticsStore {
  readonly workspaceId: string;
  state: DiagnosticsState;
  subscribe(listener: () => void): () => void;
  /** Sends an editor buffer (members and up); resolves with the language serving it, null if none. */
  sync(path: string, text: string): Promise<string | null>;
  close(path: string): void;
  completion(position: Omit<LspPosition, 'workspaceId'>): Promise<LspCompletionList | null>;
  hover(position: Omit<LspPosition, 'workspaceId'>): Promise<LspHover | null>;
  definition(position: Omit<LspPosition, 'workspaceId'>): Promise<LspLocation[]>;
}

interface Entry {
  refs: number;
  store: DiagnosticsStore;
  socket: LspSocket;
}

const entries = new Map<string, Entry>();

function answer<T>(resolve: (value: T | null) => void) {
  return (err: Error | null, ack: Ack<T>) => resolve(!err && ack?.ok ? ack.data : null);
}

function create(workspaceId: string): Entry {
  const socket: LspSocket = io({ ...LIVE_SOCKET_OPTIONS });
  const listeners = new Set<() => void>();
  const dispatch = (action: DiagnosticsAction) => {
    store.state = diagnosticsReducer(store.state, action);
    for (const l of listeners) l();
  };
  const subscribe = () =>
    socket.emit('diagnostics.subscribe', { workspaceId }, (ack) => {
      if (ack?.ok) dispatch({ type: 'snapshot', snapshot: ack.data });
      else dispatch({ type: 'connection', connection: 'failed', error: ack?.error?.message ?? 'Problems are not available.' });
    });
  const store: DiagnosticsStore = {
    workspaceId,
    state: initialDiagnostics,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    sync: (path, text) =>
      new Promise((resolve) => {
        if (!socket.connected) return resolve(null);
        socket.timeout(REQUEST_TIMEOUT_MS).emit('lsp.sync', { workspaceId, path, text }, (err: Error | null, ack: Ack<{ language: string | null }>) =>
          resolve(!err && ack?.ok ? ack.data.language : null),
        );
      }),
    close(path) {
      if (socket.connected) socket.emit('lsp.close', { workspaceId, path }, () => undefined);
    },
    completion: (position) => new Promise((resolve) => socket.timeout(REQUEST_TIMEOUT_MS).emit('lsp.completion', { workspaceId, ...position }, answer(resolve))),
    hover: (position) => new Promise((resolve) => socket.timeout(REQUEST_TIMEOUT_MS).emit('lsp.hover', { workspaceId, ...position }, answer<LspHover | null>((v) => resolve(v ?? null)))),
    definition: (position) =>
      new Promise((resolve) => socket.timeout(REQUEST_TIMEOUT_MS).emit('lsp.definition', { workspaceId, ...position }, answer<{ locations: LspLocation[] }>((v) => resolve(v?.locations ?? [])))),
  };
  // `ready` comes after every (re)connection once the server has authenticated it: subscribing
  // there also resubscribes after a drop, and the snapshot replaces whatever was missed.
  socket.on('ready', subscribe);
  socket.on('diagnostics.changed', (event) => {
    if (event.workspaceId !== workspaceId) return;
    dispatch({ type: 'changed', event });
    if (event.reset) subscribe();
  });
  socket.on('auth_error', (body) => dispatch({ type: 'connection', connection: 'failed', error: body?.error?.message ?? 'Sign in again to see problems.' }));
  socket.on('disconnect', (reason) => {
    if (entries.get(workspaceId)?.socket !== socket) return;
    dispatch({ type: 'connection', connection: 'reconnecting' });
    // Socket.IO reconnects by itself only after transport failures, not a server-side close.
    if (reason === 'io server disconnect') setTimeout(() => entries.get(workspaceId)?.socket === socket && socket.connect(), 1000);
  });
  return { refs: 0, store, socket };
}

/**
 * One diagnostics connection per workspace for the page: the Problems panel, the status bar and the
 * Monaco bridge share it (and its snapshot), released when the last of them unmounts.
 */
export function acquireDiagnostics(workspaceId: string): DiagnosticsStore {
  let entry = entries.get(workspaceId);
  if (!entry) {
    entry = create(workspaceId);
    entries.set(workspaceId, entry);
  }
  entry.refs += 1;
  return entry.store;
}

export function releaseDiagnostics(store: DiagnosticsStore): void {
  const entry = entries.get(store.workspaceId);
  if (!entry || entry.store !== store) return;
  entry.refs -= 1;
  if (entry.refs > 0) return;
  entries.delete(store.workspaceId);
  entry.socket.removeAllListeners();
  entry.socket.disconnect();
}
