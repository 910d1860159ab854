'use client';

import Link from 'next/link';
import { DataTable, ListState } from '../../components/data-table';
import { FormError } from '../../components/form-error';
import type { AdminSandboxList, AdminTeam, AdminTeamList, InstanceQuotas } from '@h/contracts';
import { QUEUE_BOARD_PATH } from '@h/contracts/admin-api';
import { formatDate, formatDateTime } from '../../lib/format';
import { useSession } from '../../lib/session-context';
import { useApiQuery } from '../../lib/use-api-query';
import { useDocumentTitle } from '../../lib/use-poll-while';

const usd = (n: number) => `$${n < 1 && n > 0 ? n.toFixed(4) : n.toFixed(2)}`;

// The instance page (/admin): every team, the sandboxes running now, the quotas the instance
// sets, and the queue board. The api refuses everyone but instance admins; the header links here
// only for them.
export function InstanceView() {
  const { me } = useSession();
  useDocumentTitle('Instance');
  if (!me.instanceAdmin) return <p className="muted">This page is for the instance&apos;s admins.</p>;
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Instance</h1>
          <p className="muted">Every team of this H, what runs now and the limits every team has.</p>
        </div>
        {/* The board is the api's own page (Bull Board), not a route of this app: a full page load. */}
        <a className="button button-secondary" href={QUEUE_BOARD_PATH} data-testid="queue-board-link">
          Queue board
        </a>
      </div>
      <TeamsSection />
      <SandboxesSection />
      <InstanceQuotasSection />
    </>
  );
}

function TeamsSection() {
  const teams = useApiQuery<AdminTeamList>('/api/v1/admin/teams');
  return (
    <section className="panel" aria-labelledby="instance-teams-heading">
      <h2 id="instance-teams-heading">Teams</h2>
      {teams.data ? <p className="muted section-intro">Runs and cost of {teams.data.month} (UTC), as budgets count them.</p> : null}
      <ListState query={teams} loading="Loading teams…" empty="No teams yet." />
      {teams.data?.items.length ? (
        <DataTable label="Teams" columns={['Team', 'Members', 'Workspaces', 'Runs this month', 'Cost this month', 'Budget', 'Sandboxes running', 'Active runs', 'Created']}>
          {teams.data.items.map((t) => (
            <TeamRow key={t.id} team={t} />
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}

function TeamRow({ team }: { team: AdminTeam }) {
  const budget = team.budget;
  return (
    <tr data-testid={`instance-team-${team.id}`}>
      <th scope="row">
        <Link href={`/teams/${team.id}`}>{team.name}</Link> <span className="mono small muted">{team.slug}</span>
      </th>
      <td>{team.members}</td>
      <td>{team.workspaces}</td>
      <td>{team.monthRuns}</td>
      <td>{usd(team.monthCostUsd)}</td>
      <td>
        {budget.monthlyUsd === null ? <span className="muted">none</span> : usd(budget.monthlyUsd)}
        {budget.exceeded ? <span className="badge"> spent</span> : budget.warning ? <span className="badge"> near</span> : null}
      </td>
      <td>{team.runningSandboxes}</td>
      <td>{team.activeRuns}</td>
      <td>{formatDate(team.createdAt)}</td>
    </tr>
  );
}

function SandboxesSection() {
  const sandboxes = useApiQuery<AdminSandboxList>('/api/v1/admin/sandboxes');
  return (
    <section className="panel" aria-labelledby="instance-sandboxes-heading">
      <h2 id="instance-sandboxes-heading">Running sandboxes</h2>
      <ListState query={sandboxes} loading="Loading sandboxes…" empty="No sandbox is running." />
      {sandboxes.data?.items.length ? (
        <DataTable label="Running sandboxes" columns={['Workspace', 'Team', 'State', 'Since', 'Last used']}>
          {sandboxes.data.items.map((s) => (
            <tr key={s.workspaceId} data-testid={`instance-sandbox-${s.workspaceId}`}>
              <th scope="row">
                <Link href={`/workspaces/${s.workspaceId}`}>{s.workspaceName}</Link>
              </th>
              <td>{s.teamName}</td>
              <td>
                <span className="badge">{s.state}</span>
              </td>
              <td>{formatDateTime(s.since)}</td>
              <td>{formatDateTime(s.lastUsedAt)}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}

const QUOTA_ROWS: { key: keyof InstanceQuotas; label: string }[] = [
  { key: 'workspaces', label: 'Workspaces per team' },
  { key: 'runningSandboxes', label: 'Sandboxes running per team' },
  { key: 'activeRuns', label: 'Agent runs queued or running per team' },
];

function InstanceQuotasSection() {
  const quotas = useApiQuery<InstanceQuotas>('/api/v1/admin/quotas');
  const data = quotas.data;
  return (
    <section className="panel" aria-labelledby="instance-quotas-heading">
      <h2 id="instance-quotas-heading">Quotas</h2>
      <p className="muted section-intro">Set in the environment of the api and worker; a change needs a restart.</p>
      {quotas.error ? <FormError message={quotas.error.message} /> : null}
      {data ? (
        <DataTable label="Quotas" columns={['What', 'Limit', 'Setting']}>
          {QUOTA_ROWS.map((r) => (
            <tr key={r.key}>
              <th scope="row" title={data[r.key].description}>
                {r.label}
              </th>
              <td>{data[r.key].limit}</td>
              <td className="mono small">{data[r.key].setting}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}
