'use client';

import { type FormEvent, useState } from 'react';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-error';
import { SelectField } from '../../components/select-field';
import { SubmitButton } from '../../components/submit-button';
import { api } from '../../lib/api-client';
import type { Session as AgentSession, PermissionMode } from '@h/contracts';
import { PERMISSION_MODES } from '@h/contracts/session-api';
import { useAction } from '../../lib/use-action';
import { MODE_INFO } from './permission-modes';
import { PresetPicker } from '../settings/preset-picker';

const MODELS = [
  { value: 'deepseek-v4-flash', label: 'DeepSeek V4 Flash (fast, low cost)' },
  { value: 'deepseek-v4-pro', label: 'DeepSeek V4 Pro (stronger, costs more)' },
];

export function NewSessionForm({ workspaceId, onCreated, onCancel }: { workspaceId: string; onCreated: (s: AgentSession) => void; onCancel: () => void }) {
  const [title, setTitle] = useState('');
  const [model, setModel] = useState(MODELS[0].value);
  const [thinking, setThinking] = useState(false);
  const [mode, setMode] = useState<PermissionMode>('approve');
  const create = useAction();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void create.run(async () => {
      const body = { model, thinking, permissionMode: mode, ...(title.trim() ? { title: title.trim() } : {}) };
      onCreated(await api.post<AgentSession>(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/sessions`, body));
    });
  };

  return (
    <form className="form new-session" onSubmit={onSubmit} aria-labelledby="new-session-title">
      <h3 id="new-session-title">New session</h3>
      <Field id="session-title" label="Title (optional)" maxLength={120} value={title} onChange={(e) => setTitle(e.target.value)} hint="Defaults to the first line of your first message." />
      <PresetPicker workspaceId={workspaceId} onPick={(p) => {
          setModel(p.model);
          setThinking(p.thinking);
        }}
      />
      {/* A preset may name a model beyond the two offered here (the catalog has more). */}
      <SelectField id="session-model" label="Model" value={model} options={MODELS.some((m) => m.value === model) ? MODELS : [...MODELS, { value: model, label: model }]} onChange={setModel} />
      <div className="checkbox-field">
        <input id="session-thinking" type="checkbox" checked={thinking} onChange={(e) => setThinking(e.target.checked)} />
        <label htmlFor="session-thinking">Thinking (the model reasons before answering)</label>
      </div>
      <fieldset className="radio-group">
        <legend>Permissions</legend>
        {PERMISSION_MODES.map((m) => (
          <div key={m} className="radio-option">
            <input id={`session-mode-${m}`} type="radio" name="session-mode" value={m} checked={mode === m} onChange={() => setMode(m)} aria-describedby={`session-mode-${m}-help`} />
            <label htmlFor={`session-mode-${m}`}>
              <span className="strong">{MODE_INFO[m].label}</span>
              <span id={`session-mode-${m}-help`} className="muted small">
                {MODE_INFO[m].help}
              </span>
            </label>
          </div>
        ))}
      </fieldset>
      <FormError message={create.error} />
      <div className="form-actions">
        <SubmitButton pending={create.pending} pendingLabel="Starting…">
          Start session
        </SubmitButton>
        <button type="button" className="button button-ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
