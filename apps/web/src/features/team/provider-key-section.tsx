'use client';

import { type FormEvent, useState } from 'react';
import { ConfirmButton } from '../../components/confirm-button';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-error';
import { SubmitButton } from '../../components/submit-button';
import { api } from '../../lib/api-client';
import type { ProviderStatus, TeamRole } from '@h/contracts';
import { SETTINGS_SECTIONS } from '@h/contracts/settings-sections';
import { formatDateTime } from '../../lib/format';
import { canManage } from '../../lib/roles';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';

const PROVIDERS = {
  deepseek: { section: SETTINGS_SECTIONS.deepseekKey, intro: "The agent uses this key for the team's model requests." },
  anthropic: {
    section: SETTINGS_SECTIONS.anthropicKey,
    intro: 'Claude Code sessions use this key. H adds it to their model requests on the server: it never enters a workspace sandbox.',
  },
} as const;

// The api never returns the key itself, only whether one is stored; the input is cleared as soon
// as it has been sent so it does not linger in the page.
export function ProviderKeySection({ base, role, provider = 'deepseek' }: { base: string; role: TeamRole; provider?: keyof typeof PROVIDERS }) {
  const path = `${base}/providers/${provider}`;
  const info = PROVIDERS[provider];
  const status = useApiQuery<ProviderStatus>(path);
  const [apiKey, setApiKey] = useState('');
  const save = useAction();
  const remove = useAction();
  const manageable = canManage(role);
  const configured = status.data?.configured ?? false;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void save.run(async () => {
      const key = apiKey.trim();
      setApiKey('');
      await api.put<ProviderStatus>(path, { apiKey: key });
      status.reload();
    });
  };

  return (
    <section className="panel" aria-labelledby={info.section.id}>
      <h2 id={info.section.id}>{info.section.title}</h2>
      <p className="muted section-intro">{info.intro} It is stored encrypted and never shown again.</p>
      {status.error ? <FormError message={status.error.message} /> : null}
      {status.data ? (
        <p className="provider-status" data-testid={provider === 'deepseek' ? 'provider-status' : `provider-status-${provider}`}>
          {configured ? (
            <>
              <span className="badge badge-status-ready">Configured</span>
              <span className="muted">updated {formatDateTime(status.data.updatedAt)}</span>
            </>
          ) : (
            <span className="badge">Not configured</span>
          )}
        </p>
      ) : null}
      {status.data && manageable ? (
        <>
          <form onSubmit={onSubmit} className="form form-inline">
            <Field
              id={`${provider}-key`}
              label={configured ? 'New API key' : 'API key'}
              type="password"
              autoComplete="off"
              spellCheck={false}
              required
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
            />
            <SubmitButton pending={save.pending} pendingLabel="Saving…">
              {configured ? 'Replace key' : 'Save key'}
            </SubmitButton>
            {configured ? (
              <ConfirmButton
                label="Remove key"
                confirmLabel="Confirm remove"
                pendingLabel="Removing…"
                pending={remove.pending}
                onConfirm={() => void remove.run(async () => {
                  await api.delete(path);
                  status.reload();
                })}
              />
            ) : null}
          </form>
          <FormError message={save.error ?? remove.error} />
        </>
      ) : null}
    </section>
  );
}
