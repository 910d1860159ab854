'use client';

import Link from 'next/link';
import { DataTable, ListState } from '../../components/data-table';
import { StatusBadge } from '../../components/status-badge';
import type { ListResponse, TeamRole, WorkspaceResponse as Workspace } from '@h/contracts';
import { formatDate } from '../../lib/format';
import { canWrite } from '../../lib/roles';
import type { ApiQuery } from '../../lib/use-api-query';
import { useWorkspaceStatus } from '../workspace/use-workspace-status';
import { CreateWorkspaceForm } from './create-workspace-form';

export function WorkspacesSection({
  base,
  role,
  workspaces,
}: {
  base: string;
  role: TeamRole;
  workspaces: ApiQuery<ListResponse<Workspace>>;
}) {
  const items = workspaces.data?.items;
  // Clone and unpack progress, and the end of a setup, arrive over Socket.IO: the list reloads then.
  useWorkspaceStatus((items ?? []).filter((w) => w.status === 'provisioning').map((w) => w.id), workspaces.reload);
  return (
    <section className="panel" aria-labelledby="workspaces-heading">
      <h2 id="workspaces-heading">Workspaces</h2>
      <p className="muted section-intro">Each workspace has its own files, terminals and sandbox.</p>
      <ListState query={workspaces} loading="Loading workspaces…" empty="No workspaces yet." />
      {items && items.length > 0 ? (
        <DataTable label="Workspaces" columns={['Name', 'Status', 'Created']}>
          {items.map((w) => (
            <tr key={w.id} data-testid="workspace-row">
              <td>
                <Link href={`/workspaces/${w.id}`} className="strong-link">
                  {w.name}
                </Link>
                {w.description ? <div className="muted small">{w.description}</div> : null}
                {w.status === 'ready' ? (
                  <div className="muted small">
                    Download{' '}
                    <a href={`/api/v1/workspaces/${encodeURIComponent(w.id)}/archive?format=tar.gz`} download>
                      .tar.gz
                    </a>
                    {' · '}
                    <a href={`/api/v1/workspaces/${encodeURIComponent(w.id)}/archive?format=zip`} download>
                      .zip
                    </a>
                  </div>
                ) : null}
              </td>
              <td>
                <StatusBadge status={w.status} />
                {w.status !== 'ready' && w.statusMessage ? (
                  <div className="muted small" data-testid="workspace-status-message" role={w.status === 'error' ? 'alert' : 'status'}>
                    {w.statusMessage}
                  </div>
                ) : null}
              </td>
              <td>{formatDate(w.createdAt)}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      {canWrite(role) ? <CreateWorkspaceForm base={base} onCreated={workspaces.reload} /> : null}
    </section>
  );
}
