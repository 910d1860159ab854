'use client';

import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ListResponse, Session, ServerToClientEvents } from '@h/contracts';
import { ACTIVE_RUN_STATUSES } from '@h/contracts/session-api';
import { api } from '../../lib/api-client';
import { applyAgentEvent, applyFilesChanged, currentAgentActivity, pruneAgentActivity, type AgentActivity, type AgentActivityState } from './agent-activity-state';
import { LIVE_SOCKET_OPTIONS } from '../../lib/live-socket';

type CollabSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** How often the workspace's sessions are listed to find runs in progress. */
const SESSIONS_POLL_MS = 3000;
/** Sessions followed at once (each is one live stream of the user's STREAMS_PER_PRINCIPAL). */
const MAX_FOLLOWED = 4;
/** Events replayed before the live stream, to catch a write that started just before. */
const REPLAY_EVENTS = 50;

interface Followed {
  afterSeq: number;
  /** The replay before the live part is over (the subscribe was acknowledged). */
  live: boolean;
}

export interface AgentActivityStore {
  refs: number;
  state: AgentActivityState;
  snapshot: AgentActivity[];
  listeners: Set<() => void>;
  close(): void;
}

const stores = new Map<string, AgentActivityStore>();
const NONE: AgentActivity[] = [];

/**
 * One follower of the agent's file changes per workspace for the whole page (the header strip
 * and every editor tab share it): a socket subscribed to the workspace's `files.changed` and to
 * the events of each session with a run in progress, found by listing the sessions on a timer.
 */
export function acquireAgentActivity(workspaceId: string): AgentActivityStore {
  const existing = stores.get(workspaceId);
  if (existing) {
    existing.refs += 1;
    return existing;
  }
  const followed = new Map<string, Followed>();
  const socket: CollabSocket = io({ ...LIVE_SOCKET_OPTIONS });
  let closed = false;
  let poll: ReturnType<typeof setTimeout> | undefined;
  let clock: ReturnType<typeof setInterval> | undefined;

  const store: AgentActivityStore = {
    refs: 1,
    state: [],
    snapshot: NONE,
    listeners: new Set(),
    close() {
      closed = true;
      clearTimeout(poll);
      clearInterval(clock);
      socket.disconnect();
    },
  };
  stores.set(workspaceId, store);

  const update = (next: AgentActivityState) => {
    const now = Date.now();
    store.state = pruneAgentActivity(next, now);
    const snapshot = currentAgentActivity(store.state, now);
    // The same list keeps its identity, so a tick that changed nothing renders nothing.
    if (JSON.stringify(snapshot) !== JSON.stringify(store.snapshot)) {
      store.snapshot = snapshot.length ? snapshot : NONE;
      for (const l of store.listeners) l();
    }
    // A clock while markers are up, so they go away after their linger.
    if (store.state.length && !clock) clock = setInterval(() => update(store.state), 1000);
    if (!store.state.length && clock) {
      clearInterval(clock);
      clock = undefined;
    }
  };

  const follow = (sessionId: string) => {
    const f = followed.get(sessionId);
    if (!f || !socket.connected) return;
    f.live = false;
    socket.emit('subscribe', { sessionId, afterSeq: f.afterSeq }, () => {
      const now = followed.get(sessionId);
      if (now) now.live = true;
    });
  };

  socket.on('ready', () => {
    socket.emit('files.subscribe', { workspaceId }, () => undefined);
    for (const sessionId of followed.keys()) follow(sessionId);
  });
  socket.on('event', (e) => {
    const f = followed.get(e.sessionId);
    if (!f) return;
    f.afterSeq = Math.max(f.afterSeq, e.seq);
    // Replayed events end at their own time, live ones when they arrive.
    update(applyAgentEvent(store.state, e, f.live ? Date.now() : Date.parse(e.ts)));
  });
  socket.on('files.changed', (e) => e.workspaceId === workspaceId && update(applyFilesChanged(store.state, e, Date.now())));
  socket.on('stream_error', (frame) => follow(frame.sessionId));
  socket.on('disconnect', (reason) => {
    // Socket.IO reconnects by itself only after transport failures, not a server-side close.
    if (reason === 'io server disconnect') setTimeout(() => !closed && socket.connect(), 1000);
  });

  // Runs in progress, from the session list (its latestRun): follow new ones, drop ended ones.
  const refresh = async () => {
    try {
      const list = await api.get<ListResponse<Session>>(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/sessions`);
      const active = list.items.filter((s) => s.latestRun && ACTIVE_RUN_STATUSES.includes(s.latestRun.status)).slice(0, MAX_FOLLOWED);
      const ids = new Set(active.map((s) => s.id));
      for (const s of active) {
        if (followed.has(s.id)) continue;
        followed.set(s.id, { afterSeq: Math.max(0, s.lastSeq - REPLAY_EVENTS), live: false });
        follow(s.id);
      }
      for (const id of [...followed.keys()]) {
        if (ids.has(id)) continue;
        followed.delete(id);
        if (socket.connected) socket.emit('unsubscribe', { sessionId: id }, () => undefined);
      }
    } catch {
      // Keep what is followed; the next poll tries again.
    }
    if (!closed) poll = setTimeout(() => void refresh(), SESSIONS_POLL_MS);
  };
  void refresh();
  return store;
}

export function releaseAgentActivity(workspaceId: string, store: AgentActivityStore): void {
  store.refs -= 1;
  if (store.refs > 0 || stores.get(workspaceId) !== store) return;
  stores.delete(workspaceId);
  store.close();
}

export function noAgentActivity(): AgentActivity[] {
  return NONE;
}
