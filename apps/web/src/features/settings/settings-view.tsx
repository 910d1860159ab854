'use client';

import Link from 'next/link';
import { Fragment, type ReactNode } from 'react';
import { Unavailable } from '../../components/unavailable';
import { ApiError } from '../../lib/api-client';
import type { ListResponse, TeamRole, WorkspaceResponse as Workspace } from '@h/contracts';
import { SETTINGS_SECTIONS, type SettingsSection } from '@h/contracts/settings-sections';
import { canWrite, ROLE_LABELS } from '../../lib/roles';
import { useSession } from '../../lib/session-context';
import { useApiQuery } from '../../lib/use-api-query';
import { useDocumentTitle } from '../../lib/use-poll-while';
import { MembersSection } from '../team/members-section';
import { ProviderKeySection } from '../team/provider-key-section';
import { TokensSection } from '../team/tokens-section';
import { CustomProvidersSection } from './custom-providers-section';
import { McpServersSection } from './mcp-servers-section';
import { MemorySection } from './memory-section';
import { ModelPresetsSection } from './model-presets-section';
import { PreferencesSection } from './preferences-section';
import { useHashTarget } from './use-hash-target';

interface SectionProps {
  workspaceId: string;
  base: string;
  role: TeamRole;
  workspaces: Workspace[];
}

/**
 * The page's sections in the page's order (a long single column): the table of contents and the
 * page are both drawn from this one list. Tokens are listed to members and up (a viewer's request
 * would answer 403).
 */
const SECTIONS: Array<{ section: SettingsSection; writersOnly?: boolean; render: (p: SectionProps) => ReactNode }> = [
  { section: 'preferences', render: () => <PreferencesSection /> },
  { section: 'mcpServers', render: (p) => <McpServersSection workspaceId={p.workspaceId} role={p.role} /> },
  { section: 'memory', render: (p) => <MemorySection workspaceId={p.workspaceId} role={p.role} /> },
  { section: 'modelPresets', render: (p) => <ModelPresetsSection base={p.base} role={p.role} /> },
  { section: 'deepseekKey', render: (p) => <ProviderKeySection base={p.base} role={p.role} /> },
  { section: 'anthropicKey', render: (p) => <ProviderKeySection base={p.base} role={p.role} provider="anthropic" /> },
  { section: 'customProviders', render: (p) => <CustomProvidersSection base={p.base} role={p.role} /> },
  { section: 'members', render: (p) => <MembersSection base={p.base} role={p.role} /> },
  { section: 'tokens', writersOnly: true, render: (p) => <TokensSection base={p.base} role={p.role} workspaces={p.workspaces} /> },
];

/**
 * Settings as seen from a workspace's IDE: your editor preferences, the workspace's MCP servers, then the team's model presets,
 * its DeepSeek key and its own OpenAI-compatible providers, members and API tokens (the team page's own sections, so both stay one
 * implementation).
 */
export function SettingsView({ workspaceId }: { workspaceId: string }) {
  const workspace = useApiQuery<Workspace>(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}`);
  const { me } = useSession();
  const teamId = workspace.data?.teamId;
  const base = teamId ? `/api/v1/teams/${encodeURIComponent(teamId)}` : null;
  const team = me.teams.find((t) => t.id === teamId);
  // Tokens may be bound to a workspace: the form offers the team's workspaces (members and up only).
  const workspaces = useApiQuery<ListResponse<Workspace>>(base && canWrite(team?.role) ? base + '/workspaces' : null);
  useDocumentTitle(workspace.data ? `Settings · ${workspace.data.name}` : undefined);
  // The sections (and their headings, the `#` targets) render once the workspace and team are known.
  useHashTarget(Boolean(workspace.data && base && team));

  if (workspace.error) return <Unavailable what="Workspace" error={workspace.error} />;
  if (!workspace.data || !base) return <p className="muted">Loading settings…</p>;
  const w = workspace.data;
  if (!team) return <Unavailable what="Team" error={new ApiError(404, 'NOT_FOUND', 'Not found.')} />;
  const role = team.role;
  const shown = SECTIONS.filter((x) => !x.writersOnly || canWrite(role));
  const props: SectionProps = { workspaceId: w.id, base, role, workspaces: workspaces.data?.items ?? [] };

  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/teams">Teams</Link>
        <span aria-hidden="true">/</span>
        <Link href={`/teams/${w.teamId}`}>{team.name}</Link>
        <span aria-hidden="true">/</span>
        <Link href={`/workspaces/${w.id}`}>{w.name}</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">Settings</span>
      </nav>
      <div className="page-header">
        <div>
          <h1>Settings</h1>
          <p className="muted">
            Team {team.name} · your role: <span className="badge">{ROLE_LABELS[role] ?? role}</span>
          </p>
        </div>
        <Link className="button button-secondary" href={`/workspaces/${w.id}`}>
          Back to the workspace
        </Link>
      </div>
      <nav aria-label="Settings sections" className="settings-toc">
        {shown.map(({ section }) => (
          <a key={section} href={`#${SETTINGS_SECTIONS[section].id}`}>
            {SETTINGS_SECTIONS[section].title}
          </a>
        ))}
      </nav>
      {shown.map(({ section, render }) => (
        <Fragment key={section}>{render(props)}</Fragment>
      ))}
    </>
  );
}
