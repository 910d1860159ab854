'use client';

import { type FormEvent, useState } from 'react';
import { ConfirmButton } from '../../components/confirm-button';
import { DataTable, ListState } from '../../components/data-table';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-error';
import { SubmitButton } from '../../components/submit-button';
import { api } from '../../lib/api-client';
import type { CatalogModel, ModelPreset, ModelPresetList, TeamRole } from '@h/contracts';
import { MODEL_PRESET_NAME_MAX_LENGTH } from '@h/contracts/model-presets';
import { canManage } from '../../lib/roles';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import { ProviderModelFields, useProviderChoices, type ProviderChoice } from './model-choice';
import { SETTINGS_SECTIONS } from '@h/contracts/settings-sections';

/** What a preset's thinking means on its model: the model may decide it whatever the preset says. */
export function thinkingLabel(preset: Pick<ModelPreset, 'thinking' | 'model'>, models: readonly CatalogModel[]): string {
  const support = models.find((m) => m.id === preset.model)?.thinking ?? 'toggle';
  if (support === 'always') return 'Always (this model always thinks)';
  if (support === 'never') return 'Off (this model cannot think)';
  return preset.thinking ? 'On' : 'Off';
}

// A team's model presets: everyone sees them and picks one when starting a session; owners and
// admins add, change and delete them. The model list is the instance's catalog, from the api.
export function ModelPresetsSection({ base, role }: { base: string; role: TeamRole }) {
  const presets = useApiQuery<ModelPresetList>(base + '/model-presets');
  const choices = useProviderChoices(base);
  const manageable = canManage(role);
  const models = presets.data?.models ?? [];
  const items = presets.data?.items;
  return (
    <section className="panel" aria-labelledby={SETTINGS_SECTIONS.modelPresets.id}>
      <h2 id={SETTINGS_SECTIONS.modelPresets.id}>{SETTINGS_SECTIONS.modelPresets.title}</h2>
      <p className="muted section-intro">
        A named provider, model and thinking setting the team picks from when starting a session.
        {manageable ? null : ' Owners and admins change them.'}
      </p>
      <ListState query={presets} loading="Loading presets…" empty="No presets yet." />
      {items && items.length > 0 ? (
        <DataTable label="Model presets" columns={['Name', 'Provider', 'Model', 'Thinking']} actions={manageable}>
          {items.map((p) => (
            <PresetRow key={p.id} preset={p} models={models} providerName={providerName(choices, p.providerId)} base={base} manageable={manageable} onChanged={presets.reload} />
          ))}
        </DataTable>
      ) : null}
      {manageable && models.length ? <CreatePresetForm base={base} models={models} choices={choices} onCreated={presets.reload} /> : null}
    </section>
  );
}

function providerName(choices: ProviderChoice[], id: string | null): string {
  return choices.find((c) => c.id === id)?.name ?? (id ? 'Team provider' : 'DeepSeek');
}

function PresetRow({ preset, models, providerName, base, manageable, onChanged }: { preset: ModelPreset; models: CatalogModel[]; providerName: string; base: string; manageable: boolean; onChanged: () => void }) {
  const path = `${base}/model-presets/${encodeURIComponent(preset.id)}`;
  const toggle = useAction();
  const remove = useAction();
  const nameId = `preset-${preset.id}-name`;
  // A team provider's model gets no thinking toggle: its server decides.
  const support = preset.providerId ? 'never' : (models.find((m) => m.id === preset.model)?.thinking ?? 'toggle');
  return (
    <tr data-testid="preset-row" data-preset-id={preset.id}>
      <td id={nameId}>{preset.name}</td>
      <td>{providerName}</td>
      <td className="mono">{preset.model}</td>
      <td>{preset.providerId ? 'Decided by the model' : thinkingLabel(preset, models)}</td>
      {manageable ? (
        <td className="cell-actions">
          {support === 'toggle' ? (
            <button
              type="button"
              className="button button-secondary button-small"
              aria-describedby={nameId}
              disabled={toggle.pending}
              onClick={() => void toggle.run(async () => {
                await api.patch<ModelPreset>(path, { thinking: !preset.thinking });
                onChanged();
              })}
            >
              {preset.thinking ? 'Turn thinking off' : 'Turn thinking on'}
            </button>
          ) : null}
          <ConfirmButton
            label="Delete"
            confirmLabel="Confirm delete"
            pendingLabel="Deleting…"
            pending={remove.pending}
            describedBy={nameId}
            onConfirm={() => void remove.run(async () => {
              await api.delete(path);
              onChanged();
            })}
          />
          <FormError message={toggle.error ?? remove.error} />
        </td>
      ) : null}
    </tr>
  );
}

function CreatePresetForm({ base, models, choices, onCreated }: { base: string; models: CatalogModel[]; choices: ProviderChoice[]; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [choice, setChoice] = useState<{ providerId: string | null; model: string }>({ providerId: null, model: models[0].id });
  const { providerId, model } = choice;
  const [thinking, setThinking] = useState(false);
  const create = useAction();
  const support = providerId ? 'never' : (models.find((m) => m.id === model)?.thinking ?? 'toggle');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void create.run(async () => {
      await api.post<ModelPreset>(base + '/model-presets', { name: name.trim(), ...(providerId ? { providerId } : {}), model, thinking: support === 'toggle' ? thinking : support === 'always' });
      setName('');
      onCreated();
    });
  };

  return (
    <form className="form form-inline" onSubmit={onSubmit} aria-label="Add a model preset">
      <Field id="preset-name" label="Preset name" required maxLength={MODEL_PRESET_NAME_MAX_LENGTH} value={name} onChange={(e) => setName(e.target.value)} />
      <ProviderModelFields idPrefix="preset" labelPrefix="Preset " choices={choices} providerId={providerId} model={model} onChange={setChoice} />
      <div className="checkbox-field">
        <input id="preset-thinking" type="checkbox" disabled={support !== 'toggle'} checked={support === 'toggle' ? thinking : support === 'always'} onChange={(e) => setThinking(e.target.checked)} />
        <label htmlFor="preset-thinking">Thinking{support === 'toggle' ? '' : support === 'always' ? ' (always on for this model)' : ' (not available on this model)'}</label>
      </div>
      <SubmitButton pending={create.pending} pendingLabel="Adding…">
        Add preset
      </SubmitButton>
      <FormError message={create.error} />
    </form>
  );
}
