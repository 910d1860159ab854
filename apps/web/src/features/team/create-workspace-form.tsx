'use client';

import { type FormEvent, useState } from 'react';
import { CSRF_COOKIE, CSRF_HEADER } from '@h/contracts/identity-api';
import type { GitWorkspaceSource, WorkspaceResponse as Workspace } from '@h/contracts';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-error';
import { SelectField } from '../../components/select-field';
import { SubmitButton } from '../../components/submit-button';
import { api, ApiError, readCookie } from '../../lib/api-client';
import { useAction } from '../../lib/use-action';

type SourceKind = 'empty' | 'git' | 'archive';

const SOURCE_OPTIONS = [
  { value: 'empty', label: 'Empty' },
  { value: 'git', label: 'Clone a git repository' },
  { value: 'archive', label: 'Upload an archive (zip or tar.gz)' },
];

// The archive route takes the raw file as its body (the JSON client cannot send it).
async function uploadArchive(base: string, name: string, description: string, file: File): Promise<Workspace> {
  const query = new URLSearchParams({ name });
  if (description) query.set('description', description);
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/octet-stream' };
  const csrf = readCookie(CSRF_COOKIE);
  if (csrf) headers[CSRF_HEADER] = csrf;
  const res = await fetch(`${base}/workspaces/import?${query}`, { method: 'POST', headers, body: file, credentials: 'same-origin' });
  const body = (await res.json().catch(() => undefined)) as (Workspace & { error?: { code: string; message: string } }) | undefined;
  if (!res.ok) throw new ApiError(res.status, body?.error?.code ?? `HTTP_${res.status}`, body?.error?.message ?? `The server answered ${res.status}.`);
  return body as Workspace;
}

/** New workspace: empty, cloned from git (HTTPS token or SSH deploy key), or from an archive. */
export function CreateWorkspaceForm({ base, onCreated }: { base: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [kind, setKind] = useState<SourceKind>('empty');
  const [url, setUrl] = useState('');
  const [branch, setBranch] = useState('');
  const [token, setToken] = useState('');
  const [username, setUsername] = useState('');
  const [privateKey, setPrivateKey] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const action = useAction();
  const ssh = /^ssh:\/\/|^[^/:@\s]+@[^/:\s]+:/.test(url.trim());

  const reset = () => {
    setName('');
    setDescription('');
    setUrl('');
    setBranch('');
    setToken('');
    setUsername('');
    setPrivateKey('');
    setFile(null);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void action.run(async () => {
      if (kind === 'archive') {
        if (!file) throw new ApiError(400, 'VALIDATION_FAILED', 'Choose a zip or tar.gz file to upload.');
        await uploadArchive(base, name.trim(), description.trim(), file);
      } else {
        const body: { name: string; description?: string; source?: GitWorkspaceSource } = { name: name.trim() };
        if (description.trim()) body.description = description.trim();
        if (kind === 'git') {
          const source: GitWorkspaceSource = { kind: 'git', url: url.trim() };
          if (branch.trim()) source.branch = branch.trim();
          if (ssh && privateKey.trim()) source.privateKey = privateKey.trim();
          if (!ssh && token) source.token = token;
          if (!ssh && username.trim()) source.username = username.trim();
          body.source = source;
        }
        await api.post<Workspace>(base + '/workspaces', body);
      }
      reset();
      onCreated();
    });
  };

  return (
    <form onSubmit={onSubmit} className="form subform" aria-labelledby="create-workspace">
      <h3 id="create-workspace">New workspace</h3>
      <div className="form-row">
        <Field id="workspace-name" label="Workspace name" required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
        <Field id="workspace-description" label="Description (optional)" maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
      </div>
      <SelectField id="workspace-source" label="Files" value={kind} options={SOURCE_OPTIONS} onChange={(v) => setKind(v as SourceKind)} />
      {kind === 'git' ? (
        <>
          <div className="form-row">
            <Field
              id="workspace-git-url"
              label="Repository URL"
              required
              maxLength={2048}
              placeholder="https://git.example.org/team/app.git or git@git.example.org:team/app.git"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
            <Field id="workspace-git-branch" label="Branch (optional)" maxLength={200} placeholder="default branch" value={branch} onChange={(e) => setBranch(e.target.value)} />
          </div>
          {ssh ? (
            <div className="field">
              <label htmlFor="workspace-git-key">Deploy key (private, no passphrase)</label>
              <textarea
                id="workspace-git-key"
                name="workspace-git-key"
                rows={5}
                maxLength={16384}
                value={privateKey}
                placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
                aria-describedby="workspace-git-key-hint"
                onChange={(e) => setPrivateKey(e.target.value)}
              />
              <p className="field-hint" id="workspace-git-key-hint">
                Stored encrypted for this workspace and used only by the server for clone, fetch and push; it never enters the sandbox.
              </p>
            </div>
          ) : (
            <div className="form-row">
              <Field
                id="workspace-git-token"
                label="Access token (optional)"
                type="password"
                autoComplete="off"
                maxLength={4096}
                value={token}
                hint="For private repositories. Stored encrypted, used only by the server, never shown again and never in the sandbox."
                onChange={(e) => setToken(e.target.value)}
              />
              <Field id="workspace-git-username" label="User name (optional)" maxLength={200} placeholder="git" value={username} onChange={(e) => setUsername(e.target.value)} />
            </div>
          )}
        </>
      ) : null}
      {kind === 'archive' ? (
        <div className="field">
          <label htmlFor="workspace-archive">Archive</label>
          <input
            id="workspace-archive"
            name="workspace-archive"
            type="file"
            accept=".zip,.tar.gz,.tgz,.tar,application/zip,application/gzip"
            aria-describedby="workspace-archive-hint"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
          <p className="field-hint" id="workspace-archive-hint">
            zip, tar.gz or tar, up to the server&apos;s WORKSPACE_ARCHIVE_MAX_BYTES (100 MB unless changed), unpacking to at most 1 GB and 100,000
            files by default; entries that would land outside the workspace refuse the archive.
          </p>
        </div>
      ) : null}
      <FormError message={action.error} />
      <div>
        <SubmitButton pending={action.pending} pendingLabel={kind === 'archive' ? 'Uploading…' : 'Creating…'}>
          Create workspace
        </SubmitButton>
      </div>
    </form>
  );
}
