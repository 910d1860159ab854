'use client';

import { useEffect } from 'react';
import type { CustomProviderList, ModelPresetList } from '@h/contracts';
import { SelectField } from '../../components/select-field';
import { useApiQuery } from '../../lib/use-api-query';

/** A provider a session or preset may use: DeepSeek (id null, the catalog's models) or the team's own. */
export interface ProviderChoice {
  id: string | null;
  name: string;
  models: { id: string; contextWindow: number; thinking: 'toggle' | 'always' | 'never' }[];
}

// `base` is the team's API path (/api/v1/teams/:id). DeepSeek's catalog comes with the presets
// list (GET …/model-presets), the team's own providers from GET …/providers; everyone in the team reads both.
const PROVIDERS_CHANGED = 'h:providers-changed';

/** Tells every provider picker on the page (presets, new session) to read the list again. */
export function announceProvidersChanged(): void {
  window.dispatchEvent(new Event(PROVIDERS_CHANGED));
}

export function useProviderChoices(base: string | null): ProviderChoice[] {
  const catalog = useApiQuery<ModelPresetList>(base ? base + '/model-presets' : null);
  const custom = useApiQuery<CustomProviderList>(base ? base + '/providers' : null);
  const reload = custom.reload;
  useEffect(() => {
    window.addEventListener(PROVIDERS_CHANGED, reload);
    return () => window.removeEventListener(PROVIDERS_CHANGED, reload);
  }, [reload]);
  const deepseek: ProviderChoice = { id: null, name: 'DeepSeek', models: catalog.data?.models ?? [] };
  const own = (custom.data?.items ?? [])
    .filter((p) => p.models.length > 0)
    .map((p): ProviderChoice => ({ id: p.id, name: p.name, models: p.models.map((m) => ({ id: m.id, contextWindow: m.contextWindow, thinking: 'never' })) }));
  return [deepseek, ...own];
}

const DEEPSEEK_VALUE = 'deepseek';

/**
 * Provider and model as two linked selects: changing the provider picks its first model. A model
 * not in the list (a preset's, or a catalog the page has not loaded yet) stays selectable.
 */
export function ProviderModelFields({
  idPrefix,
  labelPrefix,
  choices,
  providerId,
  model,
  onChange,
}: {
  idPrefix: string;
  labelPrefix?: string;
  choices: ProviderChoice[];
  providerId: string | null;
  model: string;
  onChange: (next: { providerId: string | null; model: string }) => void;
}) {
  const current = choices.find((c) => c.id === providerId);
  const models = current?.models ?? [];
  const modelOptions = models.map((m) => ({ value: m.id, label: `${m.id} (${Math.round(m.contextWindow / 1000)}k context)` }));
  if (model && !models.some((m) => m.id === model)) modelOptions.push({ value: model, label: model });
  const providerOptions = choices.map((c) => ({ value: c.id ?? DEEPSEEK_VALUE, label: c.name }));
  if (providerId && !current) providerOptions.push({ value: providerId, label: 'A provider no longer listed' });
  return (
    <>
      {choices.length > 1 ? (
        <SelectField
          id={`${idPrefix}-provider`}
          label={labelPrefix ? `${labelPrefix}provider` : 'Provider'}
          value={providerId ?? DEEPSEEK_VALUE}
          options={providerOptions}
          onChange={(value) => {
            const next = choices.find((c) => (c.id ?? DEEPSEEK_VALUE) === value);
            onChange({ providerId: next?.id ?? null, model: next?.models[0]?.id ?? model });
          }}
        />
      ) : null}
      <SelectField id={`${idPrefix}-model`} label={labelPrefix ? `${labelPrefix}model` : 'Model'} value={model} options={modelOptions} onChange={(m) => onChange({ providerId, model: m })} />
    </>
  );
}
