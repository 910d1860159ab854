'use client';

import { useEffect, useState } from 'react';
import type { GraphStatus } from '@h/contracts/knowledge-graph';
import { api } from '../../lib/api-client';

/** While the first build (or an update) runs the bar follows it closely. */
const BUILDING_POLL_MS = 2000;
/** After files changed: the sandbox's watcher and the graph's debounce come first (~0.4 s). */
const AFTER_CHANGE_MS = 1000;

// Who shows a workspace's graph status: told when its files changed (the IDE's live files).
const followers = new Map<string, Set<() => void>>();

/** The IDE's live files say the workspace changed: the status bar asks again shortly. */
export function graphFilesChanged(workspaceId: string): void {
  for (const f of followers.get(workspaceId) ?? []) f();
}

export const graphStatusPath = (workspaceId: string) => `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/graph/status`;

/** The words the status bar shows for a graph status. */
export function graphStatusLabel(status: GraphStatus | null, failed: boolean): string {
  if (!status) return failed ? 'Graph: unavailable' : 'Graph: …';
  if (status.state === 'building') return 'Graph: building…';
  if (status.state === 'error') return 'Graph: error';
  return `Graph: ${counted(status.files, 'file')}, ${counted(status.symbols, 'symbol')}`;
}

function counted(n: number, noun: string): string {
  return `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * The codebase knowledge graph's state in the status bar (sandboxd builds it; the api's
 * …/graph/status asks). Asked on mount, every 2 s while the first build runs, shortly after the
 * workspace's files changed and when the page comes back into view. No steady polling: a status
 * bar must not keep an idle sandbox awake.
 */
export function GraphStatusItem({ workspaceId }: { workspaceId: string }) {
  const [status, setStatus] = useState<GraphStatus | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    const soon = (ms: number) => {
      if (stopped) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(ask, ms);
    };
    const ask = () => {
      timer = null;
      api.get<GraphStatus>(graphStatusPath(workspaceId)).then(
        (s) => {
          if (stopped) return;
          setStatus(s);
          setFailed(false);
          if (s.state === 'building' || s.updating) soon(BUILDING_POLL_MS);
        },
        () => !stopped && setFailed(true),
      );
    };
    const onChanged = () => soon(AFTER_CHANGE_MS);
    const onBack = () => document.visibilityState === 'visible' && soon(0);
    let set = followers.get(workspaceId);
    if (!set) followers.set(workspaceId, (set = new Set()));
    set.add(onChanged);
    document.addEventListener('visibilitychange', onBack);
    window.addEventListener('focus', onBack);
    ask();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      set.delete(onChanged);
      document.removeEventListener('visibilitychange', onBack);
      window.removeEventListener('focus', onBack);
    };
  }, [workspaceId]);
  const title = status?.state === 'error' ? `The knowledge graph could not be built: ${status.error ?? 'unknown error'}` : status?.builtAt ? `Codebase knowledge graph, updated ${new Date(status.builtAt).toLocaleTimeString()}` : 'Codebase knowledge graph (read_graph)';
  return (
    <span className={`status-item${status?.state === 'error' ? ' status-graph-error' : ''}`} data-testid="status-graph" data-state={status?.state ?? 'unknown'} title={title}>
      {graphStatusLabel(status, failed)}
    </span>
  );
}
