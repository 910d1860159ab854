'use client';

import { type FormEvent, useState } from 'react';
import { ConfirmButton } from '../../components/confirm-button';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-error';
import { SubmitButton } from '../../components/submit-button';
import { api } from '../../lib/api-client';
import type { TeamRole, WorkspaceResponse as Workspace } from '@h/contracts';
import { canManage, canWrite } from '../../lib/roles';
import { useAction } from '../../lib/use-action';

// Members rename and describe a workspace; only admins open its network or delete it (the api
// enforces the same split).
export function WorkspaceSettings({ workspace, role, onSaved }: { workspace: Workspace; role: TeamRole | undefined; onSaved: () => void }) {
  const [name, setName] = useState(workspace.name);
  const [description, setDescription] = useState(workspace.description);
  const [networkEnabled, setNetworkEnabled] = useState(workspace.networkEnabled);
  const [allowedHosts, setAllowedHosts] = useState(workspace.allowedHosts.join('\n'));
  const save = useAction();
  const remove = useAction();
  const [saved, setSaved] = useState(false);
  const admin = canManage(role);
  if (!canWrite(role)) return null;

  const path = `/api/v1/workspaces/${encodeURIComponent(workspace.id)}`;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    void save.run(async () => {
      const body: { name: string; description: string; networkEnabled?: boolean; allowedHosts?: string[] } = { name: name.trim(), description: description.trim() };
      if (admin) {
        body.networkEnabled = networkEnabled;
        body.allowedHosts = allowedHosts.split(/[\s,]+/).filter(Boolean);
      }
      await api.patch<Workspace>(path, body);
      setSaved(true);
      onSaved();
    });
  };

  return (
    <section className="panel" aria-labelledby="workspace-settings">
      <h2 id="workspace-settings">Settings</h2>
      <form onSubmit={onSubmit} className="form">
        <div className="form-row">
          <Field id="workspace-name" label="Name" required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
          <Field id="workspace-description" label="Description" maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        {admin ? (
          <div className="checkbox-field">
            <input id="workspace-network" type="checkbox" checked={networkEnabled} onChange={(e) => setNetworkEnabled(e.target.checked)} />
            <label htmlFor="workspace-network">Allow network access from the sandbox (through H&apos;s egress proxy, to the hosts below only)</label>
          </div>
        ) : null}
        {admin ? (
          <div className="field">
            <label htmlFor="workspace-allowed-hosts">Allowed hosts</label>
            <textarea
              id="workspace-allowed-hosts"
              name="workspace-allowed-hosts"
              rows={4}
              value={allowedHosts}
              placeholder={'registry.example.org\n*.git.example.com'}
              aria-describedby="workspace-allowed-hosts-hint"
              onChange={(e) => setAllowedHosts(e.target.value)}
            />
            <p className="field-hint" id="workspace-allowed-hosts-hint">
              One host name per line; *.example.com covers the names below it. No IP addresses: private, loopback and cloud metadata
              addresses are always refused.
            </p>
          </div>
        ) : null}
        <FormError message={save.error} />
        <div className="form-actions">
          <SubmitButton pending={save.pending} pendingLabel="Saving…">
            Save changes
          </SubmitButton>
          {saved && !save.pending ? (
            <span className="muted small" role="status">
              Saved.
            </span>
          ) : null}
        </div>
      </form>
      {admin ? (
        <div className="subform danger-zone">
          <h3>Delete this workspace</h3>
          <p className="muted small">Its files, sessions and sandbox are deleted for good.</p>
          <ConfirmButton
            label="Delete workspace"
            confirmLabel="Confirm delete"
            pendingLabel="Deleting…"
            pending={remove.pending}
            onConfirm={() =>
              void remove.run(async () => {
                await api.delete(path);
                window.location.assign(`/teams/${encodeURIComponent(workspace.teamId)}`);
              })
            }
          />
          <FormError message={remove.error} />
        </div>
      ) : null}
    </section>
  );
}
