'use client';

import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { DataTable, ListState } from '../../components/data-table';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-error';
import { StatusBadge } from '../../components/status-badge';
import { SubmitButton } from '../../components/submit-button';
import { api } from '../../lib/api-client';
import type { ListResponse, TeamRole, WorkspaceResponse as Workspace } from '@h/contracts';
import { formatDate } from '../../lib/format';
import { canWrite } from '../../lib/roles';
import { useAction } from '../../lib/use-action';
import type { ApiQuery } from '../../lib/use-api-query';

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
              </td>
              <td>
                <StatusBadge status={w.status} />
                {w.status === 'error' && w.statusMessage ? <div className="muted small">{w.statusMessage}</div> : null}
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

function CreateWorkspaceForm({ base, onCreated }: { base: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const action = useAction();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void action.run(async () => {
      const body: { name: string; description?: string } = { name: name.trim() };
      if (description.trim()) body.description = description.trim();
      await api.post<Workspace>(base + '/workspaces', body);
      setName('');
      setDescription('');
      onCreated();
    });
  };

  return (
    <form onSubmit={onSubmit} className="form subform" aria-labelledby="create-workspace">
      <h3 id="create-workspace">New workspace</h3>
      <div className="form-row">
        <Field id="workspace-name" label="Workspace name" required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
        <Field
          id="workspace-description"
          label="Description (optional)"
          maxLength={500}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <FormError message={action.error} />
      <div>
        <SubmitButton pending={action.pending} pendingLabel="Creating…">
          Create workspace
        </SubmitButton>
      </div>
    </form>
  );
}
