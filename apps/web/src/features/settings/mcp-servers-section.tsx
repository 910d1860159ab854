'use client';

import { useState } from 'react';
import { ConfirmButton } from '../../components/confirm-button';
import { ListState } from '../../components/data-table';
import { FormError } from '../../components/form-error';
import { api } from '../../lib/api-client';
import type { McpServer, McpServerList, TeamRole } from '@h/contracts';
import { formatDateTime } from '../../lib/format';
import { canWrite } from '../../lib/roles';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import { usePollWhile } from '../../lib/use-poll-while';
import { McpServerForm, type McpServerBody } from './mcp-server-form';
import { SETTINGS_SECTIONS } from '@h/contracts/settings-sections';

// The workspace's external MCP servers: everyone sees them with their status (what the last run
// found when it connected: tools, or why it failed), members and up add, change and remove them.
export function McpServersSection({ workspaceId, role }: { workspaceId: string; role: TeamRole }) {
  const base = `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/mcp-servers`;
  const list = useApiQuery<McpServerList>(base);
  const writable = canWrite(role);
  // A check runs in the worker: the list is read again until none is `checking`.
  usePollWhile(!!list.data?.items.some((s) => s.status.state === 'checking'), list);
  // A new key after each add gives the next server an empty form.
  const [added, setAdded] = useState(0);
  return (
    <section className="panel" aria-labelledby={SETTINGS_SECTIONS.mcpServers.id}>
      <h2 id={SETTINGS_SECTIONS.mcpServers.id}>{SETTINGS_SECTIONS.mcpServers.title}</h2>
      <p className="muted section-intro">
        External MCP servers whose tools this workspace&apos;s agent may use, named mcp__&lt;server&gt;__&lt;tool&gt;. Each run connects to the enabled ones; the status is what the last run (or “Check now”) found.
        {writable ? '' : ' Members and up change them.'}
      </p>
      <div className="form-actions">
        <button type="button" className="button button-ghost" onClick={() => list.reload()}>
          Refresh status
        </button>
      </div>
      <ListState query={list} loading="Loading MCP servers…" empty="No MCP servers in this workspace yet." />
      {list.data?.items.map((s) => <McpServerCard key={s.id} server={s} path={`${base}/${encodeURIComponent(s.id)}`} writable={writable} onChanged={() => list.reload()} />)}
      {writable ? (
        <details className="mcp-add">
          <summary>Add an MCP server</summary>
          <McpServerForm
            key={added}
            idPrefix="new-mcp-server"
            submitLabel="Add MCP server"
            onSubmit={async (body: McpServerBody) => {
              await api.post<McpServer>(base, body);
              setAdded((n) => n + 1);
              list.reload();
            }}
          />
        </details>
      ) : null}
    </section>
  );
}

/** The status badge: connected with its tool count, the error, disabled, or not checked yet. */
export function McpStatus({ server }: { server: McpServer }) {
  const { status } = server;
  if (status.state === 'connected') return <span className="badge badge-status-ready">Connected · {status.toolCount ?? 0} tool{status.toolCount === 1 ? '' : 's'}</span>;
  if (status.state === 'error') return <span className="badge badge-status-error">Error</span>;
  if (status.state === 'disabled') return <span className="badge">Disabled</span>;
  if (status.state === 'checking') return <span className="badge badge-status-provisioning">Checking…</span>;
  return <span className="badge badge-status-provisioning">Not checked yet</span>;
}

function McpServerCard({ server, path, writable, onChanged }: { server: McpServer; path: string; writable: boolean; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const change = useAction();
  const headingId = `mcp-server-${server.id}-name`;
  const { status } = server;
  const where = server.transport === 'stdio' ? [server.command, ...server.args].join(' ') : server.url;
  const patch = (body: McpServerBody) =>
    void change.run(async () => {
      await api.patch<McpServer>(path, body);
      onChanged();
    });

  return (
    <article className="provider-card" data-testid="mcp-server" data-mcp-server={server.name} aria-labelledby={headingId}>
      <h3 id={headingId}>{server.name}</h3>
      <p className="provider-status">
        <span className="badge">{server.transport}</span>
        <span className="mono">{where}</span>
        <McpStatus server={server} />
        <span className="badge">{server.approval === 'allow' ? 'Runs without asking' : 'Asks before each call'}</span>
        {server.headerNames.length ? <span className="badge">Headers set: {server.headerNames.join(', ')}</span> : null}
      </p>
      {status.state === 'error' && status.message ? (
        <p className="form-error" role="status">
          {status.message}
        </p>
      ) : null}
      {status.state === 'connected' ? <p className="muted small mono">{status.tools.join(', ') || 'No tools.'}{status.message ? ` (${status.message})` : ''}</p> : null}
      {status.checkedAt ? <p className="muted small">Checked {formatDateTime(status.checkedAt)}</p> : null}
      {writable ? (
        <>
          <div className="form-actions">
            <button type="button" className="button button-secondary" disabled={change.pending} onClick={() => patch({ enabled: !server.enabled })}>
              {server.enabled ? 'Disable' : 'Enable'}
            </button>
            {server.enabled ? (
              <button type="button" className="button button-secondary" disabled={change.pending || status.state === 'checking'} onClick={() => void change.run(async () => {
                  await api.post<McpServer>(`${path}/check`);
                  onChanged();
                })}
              >
                Check now
              </button>
            ) : null}
            <button type="button" className="button button-ghost" aria-expanded={editing} onClick={() => setEditing(!editing)}>
              {editing ? 'Close editor' : 'Edit'}
            </button>
            {server.headerNames.length ? (
              <button type="button" className="button button-ghost" disabled={change.pending} onClick={() => patch({ headers: null })}>
                Remove headers
              </button>
            ) : null}
            <ConfirmButton label="Remove server" confirmLabel="Confirm remove" pendingLabel="Removing…" pending={change.pending} describedBy={headingId} onConfirm={() => void change.run(async () => {
                await api.delete(path);
                onChanged();
              })}
            />
          </div>
          <FormError message={change.error} />
          {editing ? (
            <McpServerForm
              server={server}
              idPrefix={`mcp-server-${server.id}`}
              submitLabel="Save MCP server"
              onSubmit={async (body) => {
                await api.patch<McpServer>(path, body);
                setEditing(false);
                onChanged();
              }}
            />
          ) : null}
        </>
      ) : null}
    </article>
  );
}
