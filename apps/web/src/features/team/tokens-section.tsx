'use client';

import { type FormEvent, useState } from 'react';
import { DataTable, ListState } from '../../components/data-table';
import { RevokeCell } from '../../components/revoke-cell';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-error';
import { SelectField } from '../../components/select-field';
import { ShownOnce } from '../../components/shown-once';
import { SubmitButton } from '../../components/submit-button';
import { api } from '../../lib/api-client';
import { TOKEN_SCOPE_INFO, TOKEN_SCOPES } from '@h/contracts/identity-api';
import type { ApiToken, CreatedApiToken, ListResponse, TeamRole, TokenScope, WorkspaceResponse as Workspace } from '@h/contracts';
import { formatDate, formatDateTime } from '../../lib/format';
import { canManage } from '../../lib/roles';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import { SETTINGS_SECTIONS } from '@h/contracts/settings-sections';

// A token never gets more than its creator's role (the api checks that too): members may make
// read, run and write tokens, owners and admins also admin ones. Each scope includes the ones
// before it, so a token holds one.
const ADMIN_ONLY_SCOPES: readonly TokenScope[] = ['admin'];

function scopeLabel(scopes: TokenScope[]): string {
  const highest = [...TOKEN_SCOPES].reverse().find((s) => scopes.includes(s));
  return highest ? TOKEN_SCOPE_INFO[highest].label : 'No access';
}

const EXPIRY_CHOICES = [
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
  { days: 0, label: 'Never' },
];

export function TokensSection({ base, role, workspaces }: { base: string; role: TeamRole; workspaces: Workspace[] }) {
  const tokens = useApiQuery<ListResponse<ApiToken>>(base + '/tokens');
  const [created, setCreated] = useState<CreatedApiToken>();
  const items = tokens.data?.items;
  const workspaceName = (id: string | null) => (id ? (workspaces.find((w) => w.id === id)?.name ?? 'one workspace') : 'Whole team');

  return (
    <section className="panel" aria-labelledby={SETTINGS_SECTIONS.tokens.id}>
      <h2 id={SETTINGS_SECTIONS.tokens.id}>{SETTINGS_SECTIONS.tokens.title}</h2>
      <p className="muted section-intro">
        For CI bots and scripts: send a token as <span className="mono">Authorization: Bearer &lt;token&gt;</span>.
      </p>
      {created ? <NewTokenSecret created={created} onDone={() => setCreated(undefined)} /> : null}
      <ListState query={tokens} loading="Loading tokens…" empty="No API tokens." />
      {items && items.length > 0 ? (
        <DataTable label="API tokens" columns={['Name', 'Token', 'Access', 'Expires', 'Last used']} actions>
          {items.map((t) => (
            <TokenRow key={t.id} token={t} access={workspaceName(t.workspaceId)} base={base} onRevoked={tokens.reload} />
          ))}
        </DataTable>
      ) : null}
      <CreateTokenForm
        base={base}
        workspaces={workspaces}
        allowAdmin={canManage(role)}
        onCreated={(result) => {
          setCreated(result);
          tokens.reload();
        }}
      />
    </section>
  );
}

function TokenRow({
  token,
  access,
  base,
  onRevoked,
}: {
  token: ApiToken;
  access: string;
  base: string;
  onRevoked: () => void;
}) {
  const nameId = `token-${token.id}-name`;
  return (
    <tr>
      <td id={nameId}>{token.name}</td>
      {/* Tokens read "h_<prefix>_<secret>": show the start so people can match their copy. */}
      <td className="mono">h_{token.prefix}_…</td>
      <td>
        {access}
        <div className="muted small">{scopeLabel(token.scopes)}</div>
      </td>
      <td>{token.expiresAt ? formatDate(token.expiresAt) : 'Never'}</td>
      <td>{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Never'}</td>
      <RevokeCell path={`${base}/tokens/${encodeURIComponent(token.id)}`} describedBy={nameId} onRevoked={onRevoked} />
    </tr>
  );
}

function NewTokenSecret({ created, onDone }: { created: CreatedApiToken; onDone: () => void }) {
  return (
    <ShownOnce
      id="new-token-secret"
      label="New API token"
      message={`Token “${created.token.name}” created. Copy it now: it will not be shown again.`}
      value={created.secret}
      onDone={onDone}
    />
  );
}

function CreateTokenForm({
  base,
  workspaces,
  allowAdmin,
  onCreated,
}: {
  base: string;
  workspaces: Workspace[];
  allowAdmin: boolean;
  onCreated: (created: CreatedApiToken) => void;
}) {
  const [name, setName] = useState('');
  const [workspaceId, setWorkspaceId] = useState('');
  const [expiresInDays, setExpiresInDays] = useState(90);
  const [scope, setScope] = useState<TokenScope>('write');
  const scopes = TOKEN_SCOPES.filter((s) => allowAdmin || !ADMIN_ONLY_SCOPES.includes(s));
  const action = useAction();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void action.run(async () => {
      const body: { name: string; scopes: TokenScope[]; workspaceId?: string; expiresInDays?: number } = { name: name.trim(), scopes: [scope] };
      if (workspaceId) body.workspaceId = workspaceId;
      if (expiresInDays > 0) body.expiresInDays = expiresInDays;
      const result = await api.post<CreatedApiToken>(base + '/tokens', body);
      setName('');
      onCreated(result);
    });
  };

  return (
    <form onSubmit={onSubmit} className="form subform" aria-labelledby="create-token">
      <h3 id="create-token">New API token</h3>
      <div className="form-row">
        <Field id="token-name" label="Token name" required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
        <SelectField
          id="token-workspace"
          label="Access"
          value={workspaceId}
          options={[{ value: '', label: 'Whole team' }, ...workspaces.map((w) => ({ value: w.id, label: `Only ${w.name}` }))]}
          onChange={setWorkspaceId}
        />
        <SelectField
          id="token-scope"
          label="Permissions"
          value={scope}
          options={scopes.map((s) => ({ value: s, label: TOKEN_SCOPE_INFO[s].label }))}
          onChange={(value) => setScope(value as TokenScope)}
          describedBy="token-scope-help"
        />
        <SelectField
          id="token-expiry"
          label="Expires after"
          value={String(expiresInDays)}
          options={EXPIRY_CHOICES.map((c) => ({ value: String(c.days), label: c.label }))}
          onChange={(value) => setExpiresInDays(Number(value))}
        />
      </div>
      <dl id="token-scope-help" className="muted small scope-help">
        {scopes.map((s) => (
          <div key={s}>
            <dt>{TOKEN_SCOPE_INFO[s].label}</dt>
            <dd>{TOKEN_SCOPE_INFO[s].allows}</dd>
          </div>
        ))}
      </dl>
      <FormError message={action.error} />
      <div>
        <SubmitButton pending={action.pending} pendingLabel="Creating…">
          Create token
        </SubmitButton>
      </div>
    </form>
  );
}
