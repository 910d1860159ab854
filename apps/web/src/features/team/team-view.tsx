'use client';

import Link from 'next/link';
import { Unavailable } from '../../components/unavailable';
import type { ListResponse, Team, WorkspaceResponse as Workspace } from '@h/contracts';
import { canManage, canWrite, ROLE_LABELS } from '../../lib/roles';
import { useApiQuery } from '../../lib/use-api-query';
import { useDocumentTitle } from '../../lib/use-poll-while';
import { AuditSection } from './audit-section';
import { MembersSection } from './members-section';
import { CustomProvidersSection } from '../settings/custom-providers-section';
import { ProviderKeySection } from './provider-key-section';
import { QuotasSection } from './quotas-section';
import { UsageSection } from './usage-section';
import { TokensSection } from './tokens-section';
import { WorkspacesSection } from './workspaces-section';
import { TeamSessionSearch } from './team-session-search';

export function TeamView({ teamId }: { teamId: string }) {
  const base = `/api/v1/teams/${encodeURIComponent(teamId)}`;
  const team = useApiQuery<Team>(base);
  const workspaces = useApiQuery<ListResponse<Workspace>>(base + '/workspaces');

  // Workspaces are set up by a worker job: WorkspacesSection hears its progress over Socket.IO.
  useDocumentTitle(team.data?.name);

  if (team.error) return <Unavailable what="Team" error={team.error} />;
  if (!team.data) return <p className="muted">Loading team…</p>;

  const role = team.data.role;
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/teams">Teams</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{team.data.name}</span>
      </nav>
      <div className="page-header">
        <div>
          <h1>{team.data.name}</h1>
          <p className="muted">
            <span className="mono">{team.data.slug}</span> · your role: <span className="badge">{ROLE_LABELS[role] ?? role}</span>
          </p>
        </div>
      </div>
      <WorkspacesSection base={base} role={role} workspaces={workspaces} />
      <TeamSessionSearch teamId={teamId} workspaces={workspaces.data?.items ?? []} />
      <MembersSection base={base} role={role} />
      {/* Tokens are listed to members and up; a viewer's request would answer 403. */}
      {canWrite(role) ? <TokensSection base={base} role={role} workspaces={workspaces.data?.items ?? []} /> : null}
      <ProviderKeySection base={base} role={role} />
      <ProviderKeySection base={base} role={role} provider="anthropic" />
      <CustomProvidersSection base={base} role={role} />
      <UsageSection base={base} role={role} />
      <QuotasSection base={base} />
      {/* The audit log is for admins and owners; others would get 403. */}
      {canManage(role) ? <AuditSection base={base} /> : null}
    </>
  );
}
