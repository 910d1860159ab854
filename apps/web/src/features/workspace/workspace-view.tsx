'use client';

import Link from 'next/link';
import { useEffect } from 'react';
import { StatusBadge } from '../../components/status-badge';
import { Unavailable } from '../../components/unavailable';
import type { TeamRole, WorkspaceResponse as Workspace } from '@h/contracts';
import { api } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { canWrite } from '../../lib/roles';
import { useSession } from '../../lib/session-context';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import { useDocumentTitle } from '../../lib/use-poll-while';
import { IdeShell } from '../ide/ide-shell';
import { preloadMonaco } from '../ide/monaco-setup';
import { prefetchIdeState } from '../ide/use-ide-state';
import { WORKSPACE_STATUS_TEXT } from '../ide/settings-view';
import { useWorkspaceStatus } from './use-workspace-status';
import { WorkspaceSettings } from './workspace-settings';

// A ready workspace opens as the IDE (files, editor, agent console; status and settings in its
// "Workspace" side view). While it is being set up, or when setup failed, the page shows its status.
export function WorkspaceView({ workspaceId }: { workspaceId: string }) {
  const workspace = useApiQuery<Workspace>(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}`);
  // What the IDE needs next, asked for alongside the workspace instead of after it: the saved
  // layout and tabs, and the editor's chunk (the largest of the page).
  useEffect(() => {
    prefetchIdeState(workspaceId);
    preloadMonaco();
  }, [workspaceId]);
  const { me } = useSession();
  // While it is being set up, its progress and the end of the setup arrive over Socket.IO.
  useWorkspaceStatus(workspace.data?.status === 'provisioning' ? [workspaceId] : [], workspace.reload);
  useDocumentTitle(workspace.data?.name);

  if (workspace.error) return <Unavailable what="Workspace" error={workspace.error} />;
  if (!workspace.data) return <p className="muted">Loading workspace…</p>;

  const w = workspace.data;
  const team = me.teams.find((t) => t.id === w.teamId);
  if (w.status === 'ready') {
    return (
      <div className="ide-page">
        <div className="ide-header">
          <Breadcrumb workspace={w} teamName={team?.name} />
          {/* Team settings (model presets, provider key, members, tokens) and your preferences: features/settings. */}
          <Link className="ide-header-link" href={`/workspaces/${w.id}/settings`}>
            Settings
          </Link>
          <StatusBadge status={w.status} />
        </div>
        <IdeShell workspace={w} role={team?.role} canWrite={canWrite(team?.role)} reloadWorkspace={workspace.reload} />
      </div>
    );
  }
  return <WorkspaceStatusPage workspace={w} teamName={team?.name} role={team?.role} reload={workspace.reload} />;
}

function Breadcrumb({ workspace: w, teamName }: { workspace: Workspace; teamName: string | undefined }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <Link href="/teams">Teams</Link>
      <span aria-hidden="true">/</span>
      <Link href={`/teams/${w.teamId}`}>{teamName ?? 'Team'}</Link>
      <span aria-hidden="true">/</span>
      <h1 aria-current="page" className="ide-title">
        {w.name}
      </h1>
    </nav>
  );
}

function WorkspaceStatusPage({ workspace: w, teamName, role, reload }: { workspace: Workspace; teamName: string | undefined; role: TeamRole | undefined; reload: () => void }) {
  return (
    <>
      <div className="page-header">
        <Breadcrumb workspace={w} teamName={teamName} />
        <StatusBadge status={w.status} />
      </div>
      {w.description ? <p className="muted">{w.description}</p> : null}
      <section className="panel" aria-labelledby="workspace-status">
        <h2 id="workspace-status">Status</h2>
        <p aria-live="polite">{WORKSPACE_STATUS_TEXT[w.status]}</p>
        {w.statusMessage ? <p className={w.status === 'error' ? 'form-error' : 'muted'}>{w.statusMessage}</p> : null}
        {w.status === 'error' && canWrite(role) ? <RetrySetup workspaceId={w.id} onRetried={reload} /> : null}
        <dl className="facts">
          <dt>Created</dt>
          <dd>{formatDateTime(w.createdAt)}</dd>
          <dt>Set up</dt>
          <dd>{w.setupAt ? formatDateTime(w.setupAt) : 'Not yet'}</dd>
          <dt>Network access</dt>
          <dd>
            {w.networkEnabled
              ? w.allowedHosts.length
                ? `Through the egress proxy, to: ${w.allowedHosts.join(', ')}`
                : 'On, but no allowed hosts yet: every connection is refused'
              : 'Off: the sandbox cannot reach the network'}
          </dd>
          <dt>Workspace id</dt>
          <dd className="mono">{w.id}</dd>
        </dl>
      </section>
      <WorkspaceSettings workspace={w} role={role} onSaved={reload} />
    </>
  );
}

/** A failed setup (clone refused, archive unreadable, sandbox down) tried again once its cause is mended. */
function RetrySetup({ workspaceId, onRetried }: { workspaceId: string; onRetried: () => void }) {
  const action = useAction();
  return (
    <div className="form-actions retry-setup">
      <button
        type="button"
        className="button button-primary"
        disabled={action.pending}
        onClick={() => void action.run(async () => {
          await api.post(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/setup/retry`);
          onRetried();
        })}
      >
        {action.pending ? 'Retrying…' : 'Retry setup'}
      </button>
      <span className="muted small">Clones or unpacks again, with the settings below.</span>
      {action.error ? (
        <p className="form-error" role="alert">
          {action.error}
        </p>
      ) : null}
    </div>
  );
}
