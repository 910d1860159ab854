'use client';

import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-error';
import { SubmitButton } from '../../components/submit-button';
import { api } from '../../lib/api-client';
import type { ListResponse, Team } from '@h/contracts';
import { formatDate } from '../../lib/format';
import { ROLE_LABELS } from '../../lib/roles';
import { useSession } from '../../lib/session-context';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';

export function TeamsView() {
  const teams = useApiQuery<ListResponse<Team>>('/api/v1/teams');
  const session = useSession();

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Teams</h1>
          <p className="muted">Workspaces, members, API tokens and model keys belong to a team.</p>
        </div>
      </div>

      <section className="panel" aria-labelledby="your-teams">
        <h2 id="your-teams">Your teams</h2>
        {teams.error ? <FormError message={teams.error.message} /> : null}
        {!teams.data && !teams.error ? <p className="muted">Loading teams…</p> : null}
        {teams.data && teams.data.items.length === 0 ? (
          <p className="empty">You are not a member of any team yet. Create one below to get started.</p>
        ) : null}
        {teams.data && teams.data.items.length > 0 ? (
          <ul className="card-list" aria-label="Teams">
            {teams.data.items.map((team) => (
              <li key={team.id}>
                <Link href={`/teams/${team.id}`} className="card-link">
                  <span className="card-title">{team.name}</span>
                  <span className="card-meta">
                    <span className="mono">{team.slug}</span>
                    <span className="badge">{ROLE_LABELS[team.role] ?? team.role}</span>
                    <span>Created {formatDate(team.createdAt)}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      <CreateTeamForm
        onCreated={() => {
          teams.reload();
          session.refresh();
        }}
      />
    </>
  );
}

function CreateTeamForm({ onCreated }: { onCreated: (team: Team) => void }) {
  const [name, setName] = useState('');
  const action = useAction();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void action.run(async () => {
      const team = await api.post<Team>('/api/v1/teams', { name: name.trim() });
      setName('');
      onCreated(team);
    });
  };

  return (
    <section className="panel" aria-labelledby="create-team">
      <h2 id="create-team">Create a team</h2>
      <form onSubmit={onSubmit} className="form form-inline">
        <Field id="team-name" label="Team name" required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
        <SubmitButton pending={action.pending} pendingLabel="Creating…">
          Create team
        </SubmitButton>
      </form>
      <FormError message={action.error} />
    </section>
  );
}
