'use client';

import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { AgentActivity } from './agent-activity-state';
import { acquireAgentActivity, noAgentActivity, releaseAgentActivity, type AgentActivityStore } from './agent-activity-store';

/**
 * The files the agent is changing in this workspace now: `{ path, sessionId, since }` per file,
 * from the live events of every session with a run in progress (a write tool waiting for
 * approval or running) and from `files.changed`. Several calls on one page share one follower.
 */
export function useAgentActivity(workspaceId: string): AgentActivity[] {
  const [store, setStore] = useState<AgentActivityStore | null>(null);
  useEffect(() => {
    const s = acquireAgentActivity(workspaceId);
    setStore(s);
    return () => releaseAgentActivity(workspaceId, s);
  }, [workspaceId]);
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!store) return () => undefined;
      store.listeners.add(listener);
      return () => store.listeners.delete(listener);
    },
    [store],
  );
  return useSyncExternalStore(subscribe, () => store?.snapshot ?? noAgentActivity(), noAgentActivity);
}

/** The agent activity on one file, if any (for an editor tab). */
export function agentActivityOn(activity: readonly AgentActivity[], path: string | null): AgentActivity | undefined {
  return path ? activity.find((a) => a.path === path) : undefined;
}
