'use client';

import Link from 'next/link';
import { Suspense } from 'react';
import { StatusBadge } from '../../components/status-badge';
import { Unavailable } from '../../components/unavailable';
import type { WorkspaceResponse as Workspace, WorkspaceStatus } from '@h/contracts';
import { formatDateTime } from '../../lib/format';
import { canWrite } from '../../lib/roles';
import { useSession } from '../../lib/session-context';
import { useApiQuery } from '../../lib/use-api-query';
import { useDocumentTitle, usePollWhile } from '../../lib/use-poll-while';
import { AgentActivityStrip } from '../collab/agent-activity-badge';
import { PresenceBar } from '../collab/presence-bar';
import { WorkspaceAgent } from '../console/workspace-agent';
import { WorkspaceSettings } from './workspace-settings';

const STATUS_TEXT: Record<WorkspaceStatus, string> = {
  provisioning: 'H is setting up this workspace. This page updates by itself.',
  ready: 'This workspace is set up and ready.',
  error: 'Setting up this workspace failed.',
};

export function WorkspaceView({ workspaceId }: { workspaceId: string }) {
  const workspace = useApiQuery<Workspace>(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}`);
  const { me } = useSession();
  usePollWhile(workspace.data?.status === 'provisioning', workspace);
  useDocumentTitle(workspace.data?.name);

  if (workspace.error) return <Unavailable what="Workspace" error={workspace.error} />;
  if (!workspace.data) return <p className="muted">Loading workspace…</p>;

  const w = workspace.data;
  const team = me.teams.find((t) => t.id === w.teamId);
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/teams">Teams</Link>
        <span aria-hidden="true">/</span>
        <Link href={`/teams/${w.teamId}`}>{team?.name ?? 'Team'}</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{w.name}</span>
      </nav>
      <div className="page-header">
        <div>
          <h1>{w.name}</h1>
          {w.description ? <p className="muted">{w.description}</p> : null}
        </div>
        <div className="page-header-actions">
          {w.status === 'ready' ? <AgentActivityStrip workspaceId={w.id} /> : null}
          <PresenceBar workspaceId={w.id} activeFile={null} />
          <Link href={`/workspaces/${w.id}/settings`}>Settings</Link>
          <StatusBadge status={w.status} />
        </div>
      </div>
      {w.status === 'ready' ? (
        <Suspense fallback={<p className="muted">Loading sessions…</p>}>
          <WorkspaceAgent workspaceId={w.id} canWrite={canWrite(team?.role)} />
        </Suspense>
      ) : null}
      <section className="panel" aria-labelledby="workspace-status">
        <h2 id="workspace-status">Status</h2>
        <p aria-live="polite">{STATUS_TEXT[w.status]}</p>
        {w.statusMessage ? <p className={w.status === 'error' ? 'form-error' : 'muted'}>{w.statusMessage}</p> : null}
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
      <WorkspaceSettings workspace={w} role={team?.role} onSaved={workspace.reload} />
    </>
  );
}
