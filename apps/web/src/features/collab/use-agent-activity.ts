'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ListResponse, Session, ServerToClientEvents } from '@h/contracts';
import { ACTIVE_RUN_STATUSES } from '@h/contracts/session-api';
import { api } from '../../lib/api-client';
import { applyAgentEvent, applyFilesChanged, currentAgentActivity, pruneAgentActivity, type AgentActivity, type AgentActivityState } from './agent-activity-state';

type CollabSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** How often the workspace's sessions are listed to find runs in progress. */
const SESSIONS_POLL_MS = 3000;
/** Sessions followed at once (each is one live stream of the user's STREAMS_PER_PRINCIPAL). */
const MAX_FOLLOWED = 4;
/** Events replayed before the live stream, to catch a write that started just before. */
const REPLAY_EVENTS = 50;

/**
 * The files the agent is changing in this workspace now: `{ path, sessionId, since }` per file,
 * from the live events of every session with a run in progress and from `files.changed`.
 * The IDE marks editor tabs with it ("the agent is changing this file").
 */
export function useAgentActivity(workspaceId: string): AgentActivity[] {
  const [state, setState] = useState<AgentActivityState>([]);
  const [now, setNow] = useState(() => Date.now());
  const [active, setActive] = useState<Session[]>([]);
  const socketRef = useRef<CollabSocket | null>(null);
  /** sessionId -> where its stream starts, and whether the replay before the live part is over. */
  const followed = useRef(new Map<string, { afterSeq: number; live: boolean }>());

  // Runs in progress, from the session list (its latestRun), refreshed on a timer.
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const list = await api.get<ListResponse<Session>>(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/sessions`);
        if (!stopped) setActive(list.items.filter((s) => s.latestRun && ACTIVE_RUN_STATUSES.includes(s.latestRun.status)).slice(0, MAX_FOLLOWED));
      } catch {
        // Keep what is followed; the next poll tries again.
      }
      if (!stopped) timer = setTimeout(() => void poll(), SESSIONS_POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [workspaceId]);

  // One socket: the workspace's file changes, plus the events of each followed session.
  useEffect(() => {
    const socket: CollabSocket = io({ path: '/api/socket.io', withCredentials: true, reconnectionDelayMax: 4000 });
    socketRef.current = socket;
    const tracked = followed.current;
    setState([]);
    socket.on('ready', () => {
      socket.emit('files.subscribe', { workspaceId }, () => undefined);
      for (const sessionId of tracked.keys()) follow(socket, tracked, sessionId);
    });
    socket.on('event', (e) => {
      const t = tracked.get(e.sessionId);
      if (!t) return;
      t.afterSeq = Math.max(t.afterSeq, e.seq);
      // Replayed events end at their own time, live ones when they arrive.
      setState((s) => applyAgentEvent(s, e, t.live ? Date.now() : Date.parse(e.ts)));
    });
    socket.on('files.changed', (e) => e.workspaceId === workspaceId && setState((s) => applyFilesChanged(s, e, Date.now())));
    socket.on('disconnect', (reason) => {
      if (reason === 'io server disconnect') setTimeout(() => socketRef.current === socket && socket.connect(), 1000);
    });
    return () => {
      socketRef.current = null;
      tracked.clear();
      socket.disconnect();
    };
  }, [workspaceId]);

  // Follow sessions as their runs start; stop following when they end.
  useEffect(() => {
    const socket = socketRef.current;
    const tracked = followed.current;
    const ids = new Set(active.map((s) => s.id));
    for (const s of active) {
      if (tracked.has(s.id)) continue;
      tracked.set(s.id, { afterSeq: Math.max(0, s.lastSeq - REPLAY_EVENTS), live: false });
      if (socket?.connected) follow(socket, tracked, s.id);
    }
    for (const id of [...tracked.keys()]) {
      if (ids.has(id)) continue;
      tracked.delete(id);
      if (socket?.connected) socket.emit('unsubscribe', { sessionId: id }, () => undefined);
    }
  }, [active]);

  // A clock while markers are up, so they go away after their linger.
  useEffect(() => {
    if (!state.length) return;
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      setState((s) => pruneAgentActivity(s, t));
    }, 1000);
    return () => clearInterval(timer);
  }, [state.length]);

  return useMemo(() => currentAgentActivity(state, Math.max(now, Date.now())), [state, now]);
}

/** Subscribes from where the session's stream is; the acknowledgement comes after the replay. */
function follow(socket: CollabSocket, tracked: Map<string, { afterSeq: number; live: boolean }>, sessionId: string): void {
  const t = tracked.get(sessionId);
  if (!t) return;
  t.live = false;
  socket.emit('subscribe', { sessionId, afterSeq: t.afterSeq }, () => {
    const now = tracked.get(sessionId);
    if (now) now.live = true;
  });
}

/** The agent activity on one file, if any (for an editor tab). */
export function agentActivityOn(activity: readonly AgentActivity[], path: string | null): AgentActivity | undefined {
  return path ? activity.find((a) => a.path === path) : undefined;
}
