'use client';

import { useEffect, useState } from 'react';
import type { GraphStatus } from '@h/contracts/knowledge-graph';
import { api } from '../../lib/api-client';

/** While the first build runs the bar follows it closely; after, a change shows within this long. */
const BUILDING_POLL_MS = 2000;
const READY_POLL_MS = 15_000;

export const graphStatusPath = (workspaceId: string) => `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/graph/status`;

/** The words the status bar shows for a graph status. */
export function graphStatusLabel(status: GraphStatus | null, failed: boolean): string {
  if (!status) return failed ? 'Graph: unavailable' : 'Graph: …';
  if (status.state === 'building') return 'Graph: building…';
  if (status.state === 'error') return 'Graph: error';
  return `Graph: ${status.files.toLocaleString('en')} files, ${status.symbols.toLocaleString('en')} symbols`;
}

/**
 * The codebase knowledge graph's state in the status bar (sandboxd builds it; the api's
 * …/graph/status asks). Polled, slowly once built, and only while the page is visible: the count
 * is for orientation, so a few seconds late is fine and no socket is held for it.
 */
export function GraphStatusItem({ workspaceId }: { workspaceId: string }) {
  const [status, setStatus] = useState<GraphStatus | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    const next = (ms: number) => {
      if (!stopped) timer = setTimeout(poll, ms);
    };
    const poll = () => {
      timer = null;
      if (document.visibilityState !== 'visible') return next(READY_POLL_MS);
      api.get<GraphStatus>(graphStatusPath(workspaceId)).then(
        (s) => {
          setStatus(s);
          setFailed(false);
          next(s.state === 'building' ? BUILDING_POLL_MS : READY_POLL_MS);
        },
        () => {
          setFailed(true);
          next(READY_POLL_MS);
        },
      );
    };
    poll();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [workspaceId]);
  const title = status?.state === 'error' ? `The knowledge graph could not be built: ${status.error ?? 'unknown error'}` : status?.builtAt ? `Codebase knowledge graph, updated ${new Date(status.builtAt).toLocaleTimeString()}` : 'Codebase knowledge graph (read_graph)';
  return (
    <span className={`status-item${status?.state === 'error' ? ' status-graph-error' : ''}`} data-testid="status-graph" data-state={status?.state ?? 'unknown'} title={title}>
      {graphStatusLabel(status, failed)}
    </span>
  );
}
