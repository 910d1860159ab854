'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useState } from 'react';
import type { Session as AgentSession, ListResponse, RunStatus } from '@h/contracts';
import { ACTIVE_RUN_STATUSES } from '@h/contracts/session-api';
import { useApiQuery } from '../../lib/use-api-query';
import { usePollWhile } from '../../lib/use-poll-while';
import { NewSessionForm } from './new-session-form';
import { SessionConsole } from './session-console';
import { SessionSearchBox } from './session-search-box';
import { SessionsList } from './sessions-list';

const LIST_POLL_MS = 5000;

// The agent half of the workspace page: the sessions (newest first) and the console of the one
// named by ?session=<id>, so a link or a reload opens the same session.
export function WorkspaceAgent({ workspaceId, canWrite }: { workspaceId: string; canWrite: boolean }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const selectedId = search.get('session');
  const [creating, setCreating] = useState(false);
  const list = useApiQuery<ListResponse<AgentSession>>(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/sessions`);
  // A session just created is shown at once, before the list has been read again.
  const [created, setCreated] = useState<AgentSession | null>(null);

  const sessions = useMemo(() => {
    const items = list.data?.items ?? [];
    const all = created && !items.some((s) => s.id === created.id) ? [created, ...items] : items;
    return [...all].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }, [list.data, created]);
  const selected = sessions.find((s) => s.id === selectedId) ?? null;

  const select = useCallback(
    (id: string) => {
      setCreating(false);
      router.push(`${pathname}?session=${encodeURIComponent(id)}`, { scroll: false });
    },
    [router, pathname],
  );

  // Each listed session's newest run comes with the list, for its status badge.
  const statuses = useMemo<Record<string, RunStatus | undefined>>(
    () => Object.fromEntries(sessions.map((s) => [s.id, s.latestRun?.status])),
    [sessions],
  );

  // Other members' sessions change too: refresh the list while any of them is active.
  const anyActive = Object.values(statuses).some((s) => s && ACTIVE_RUN_STATUSES.includes(s));
  usePollWhile(anyActive, list, LIST_POLL_MS);
  const { reload } = list;

  return (
    <section className="agent-area" aria-labelledby="agent-heading">
      <div className="sessions-pane panel">
        <div className="sessions-header">
          <h2 id="agent-heading">Sessions</h2>
          {canWrite && !creating ? (
            <button type="button" className="button button-primary button-small" onClick={() => setCreating(true)}>
              New session
            </button>
          ) : null}
        </div>
        <SessionSearchBox scope={{ workspaceId }} onSelect={select} />
        {list.error ? <p className="form-error">{list.error.message}</p> : null}
        {list.data ? <SessionsList sessions={sessions} statuses={statuses} selectedId={selectedId} onSelect={select} /> : <p className="muted small">Loading sessions…</p>}
      </div>
      <div className="console-pane">
        {creating ? (
          <div className="panel">
            <NewSessionForm
              workspaceId={workspaceId}
              onCancel={() => setCreating(false)}
              onCreated={(s) => {
                setCreated(s);
                reload();
                select(s.id);
              }}
            />
          </div>
        ) : selected ? (
          <SessionConsole
            key={selected.id}
            session={selected}
            canWrite={canWrite}
            onActivity={reload}
            onForked={(s) => {
              setCreated(s);
              reload();
              select(s.id);
            }}
          />
        ) : (
          <div className="panel console-placeholder">
            {selectedId && list.data ? (
              <p className="form-error">That session does not exist in this workspace.</p>
            ) : (
              <p className="muted">{canWrite ? 'Pick a session, or start a new one to work with the agent.' : 'Pick a session to follow what the agent did.'}</p>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
