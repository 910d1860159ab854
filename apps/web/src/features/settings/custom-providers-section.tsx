'use client';

import { type FormEvent, useState } from 'react';
import { ConfirmButton } from '../../components/confirm-button';
import { ListState } from '../../components/data-table';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-error';
import { SubmitButton } from '../../components/submit-button';
import { api, ApiError } from '../../lib/api-client';
import type { CustomProvider, CustomProviderList, DiscoveredModelList, TeamRole } from '@h/contracts';
import { CUSTOM_PROVIDER_KEY_MAX_LENGTH, CUSTOM_PROVIDER_NAME_MAX_LENGTH, CUSTOM_PROVIDER_URL_MAX_LENGTH } from '@h/contracts/providers';
import { canManage } from '../../lib/roles';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import { announceProvidersChanged } from './model-choice';
import { modelsFrom, ProviderModelsEditor, rowFor, type ModelRow } from './provider-models-editor';
import { SETTINGS_SECTIONS } from '@h/contracts/settings-sections';

/** A fetched model whose server does not report its window starts with this one (editable). */
const FETCHED_WINDOW_GUESS = 32768;

// The team's own OpenAI-compatible providers (a self-hosted vLLM or Ollama, a gateway): everyone
// sees them, owners and admins add and change them. Keys are write-only: the page only learns
// whether one is set, and clears the field once sent.
export function CustomProvidersSection({ base, role }: { base: string; role: TeamRole }) {
  const list = useApiQuery<CustomProviderList>(base + '/providers');
  const manageable = canManage(role);
  const items = list.data?.items;
  const changed = () => {
    list.reload();
    announceProvidersChanged();
  };
  return (
    <section className="panel" aria-labelledby={SETTINGS_SECTIONS.customProviders.id}>
      <h2 id={SETTINGS_SECTIONS.customProviders.id}>{SETTINGS_SECTIONS.customProviders.title}</h2>
      <p className="muted section-intro">
        Besides DeepSeek, the team may use its own OpenAI-compatible servers: a self-hosted vLLM or Ollama, or a gateway. Sessions and presets choose one of their models.
        {manageable ? ' Plain http and internal addresses work only for hosts this instance allows (PROVIDER_ALLOWED_INTERNAL_HOSTS).' : ' Owners and admins change them.'}
      </p>
      <ListState query={list} loading="Loading providers…" empty="No providers of the team's own yet." />
      {items?.map((p) => <ProviderCard key={p.id} provider={p} base={base} manageable={manageable} onChanged={changed} />)}
      {manageable ? <CreateProviderForm base={base} onCreated={changed} /> : null}
    </section>
  );
}

function ProviderCard({ provider, base, manageable, onChanged }: { provider: CustomProvider; base: string; manageable: boolean; onChanged: () => void }) {
  const path = `${base}/providers/custom/${encodeURIComponent(provider.id)}`;
  const [rows, setRows] = useState<ModelRow[]>(() => provider.models.map(rowFor));
  const [apiKey, setApiKey] = useState('');
  const [note, setNote] = useState<string>();
  const save = useAction();
  const fetchModels = useAction();
  const key = useAction();
  const remove = useAction();
  const headingId = `provider-${provider.id}-name`;

  const saveModels = () =>
    void save.run(async () => {
      const models = modelsFrom(rows);
      if (typeof models === 'string') throw new ApiError(400, 'VALIDATION_FAILED', models);
      const saved = await api.patch<CustomProvider>(path, { models });
      setRows(saved.models.map(rowFor));
      setNote('Models saved.');
      onChanged();
    });

  const fetchList = () =>
    void fetchModels.run(async () => {
      const { models } = await api.post<DiscoveredModelList>(path + '/models/fetch');
      const known = new Set(rows.map((r) => r.id));
      const added = models.filter((m) => !known.has(m.id)).map((m) => rowFor({ id: m.id, contextWindow: m.contextWindow ?? FETCHED_WINDOW_GUESS }));
      setRows([...rows, ...added]);
      setNote(added.length ? `${added.length} model(s) added from the provider; check their context windows and prices, then save.` : 'The provider lists no models beyond these.');
    });

  return (
    <article className="provider-card" data-testid="custom-provider" data-provider-id={provider.id} aria-labelledby={headingId}>
      <h3 id={headingId}>{provider.name}</h3>
      <p className="provider-status">
        <span className="mono">{provider.baseUrl}</span>
        {provider.configured ? <span className="badge badge-status-ready">Key set</span> : <span className="badge">No key</span>}
      </p>
      {manageable ? (
        <>
          <ProviderModelsEditor idPrefix={`provider-${provider.id}`} rows={rows} onChange={setRows} />
          <div className="form-actions">
            <button type="button" className="button" disabled={save.pending} onClick={saveModels}>
              {save.pending ? 'Saving…' : 'Save models'}
            </button>
            <button type="button" className="button button-secondary" disabled={fetchModels.pending} onClick={fetchList}>
              {fetchModels.pending ? 'Fetching…' : 'Fetch models'}
            </button>
          </div>
          {note ? <p className="muted" role="status">{note}</p> : null}
          <FormError message={save.error ?? fetchModels.error} />
          <form
            className="form form-inline"
            aria-label={`API key of ${provider.name}`}
            onSubmit={(event: FormEvent) => {
              event.preventDefault();
              void key.run(async () => {
                const value = apiKey.trim();
                setApiKey('');
                await api.patch<CustomProvider>(path, { apiKey: value });
                onChanged();
              });
            }}
          >
            <Field id={`provider-${provider.id}-key`} label={provider.configured ? 'New API key' : 'API key'} type="password" autoComplete="off" spellCheck={false} required maxLength={CUSTOM_PROVIDER_KEY_MAX_LENGTH} value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
            <SubmitButton pending={key.pending} pendingLabel="Saving…">
              {provider.configured ? 'Replace key' : 'Save key'}
            </SubmitButton>
            {provider.configured ? (
              <button type="button" className="button button-ghost" disabled={key.pending} onClick={() => void key.run(async () => {
                  await api.patch<CustomProvider>(path, { apiKey: null });
                  onChanged();
                })}
              >
                Remove key
              </button>
            ) : null}
            <ConfirmButton label="Delete provider" confirmLabel="Confirm delete" pendingLabel="Deleting…" pending={remove.pending} describedBy={headingId} onConfirm={() => void remove.run(async () => {
                await api.delete(path);
                onChanged();
              })}
            />
          </form>
          <FormError message={key.error ?? remove.error} />
        </>
      ) : (
        <p className="muted">{provider.models.map((m) => m.id).join(', ') || 'No models yet.'}</p>
      )}
    </article>
  );
}

function CreateProviderForm({ base, onCreated }: { base: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [rows, setRows] = useState<ModelRow[]>([]);
  const create = useAction();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void create.run(async () => {
      const models = modelsFrom(rows);
      if (typeof models === 'string') throw new ApiError(400, 'VALIDATION_FAILED', models);
      const key = apiKey.trim();
      setApiKey('');
      await api.post<CustomProvider>(base + '/providers', { name: name.trim(), baseUrl: baseUrl.trim(), models, ...(key ? { apiKey: key } : {}) });
      setName('');
      setBaseUrl('');
      setRows([]);
      onCreated();
    });
  };

  return (
    <form className="form" onSubmit={onSubmit} aria-label="Add a provider">
      <h3>Add a provider</h3>
      <Field id="new-provider-name" label="Provider name" required maxLength={CUSTOM_PROVIDER_NAME_MAX_LENGTH} value={name} onChange={(e) => setName(e.target.value)} />
      <Field id="new-provider-url" label="Base URL" required maxLength={CUSTOM_PROVIDER_URL_MAX_LENGTH} placeholder="https://llm.example.org/v1" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} hint="The OpenAI-compatible endpoint, usually ending in /v1 (vLLM: http://host:8000/v1, Ollama: http://host:11434/v1)." />
      <Field id="new-provider-key" label="API key (optional)" type="password" autoComplete="off" spellCheck={false} maxLength={CUSTOM_PROVIDER_KEY_MAX_LENGTH} value={apiKey} onChange={(e) => setApiKey(e.target.value)} hint="Stored encrypted and never shown again; leave empty for a server without keys." />
      <ProviderModelsEditor idPrefix="new-provider" rows={rows} onChange={setRows} />
      <p className="muted small">Once it is added, “Fetch models” reads the provider&apos;s own model list.</p>
      <SubmitButton pending={create.pending} pendingLabel="Adding…">
        Add provider
      </SubmitButton>
      <FormError message={create.error} />
    </form>
  );
}
