'use client';

import { type FormEvent, useState } from 'react';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-error';
import { SubmitButton } from '../../components/submit-button';
import { api } from '../../lib/api-client';
import type { Session as AgentSession, PermissionMode, ProviderStatus, SessionEngine, WorkspaceResponse as Workspace } from '@h/contracts';
import { PERMISSION_MODES } from '@h/contracts/session-api';
import { SelectField } from '../../components/select-field';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import { ProviderModelFields, useProviderChoices, type ProviderChoice } from '../settings/model-choice';
import { MODE_INFO } from './permission-modes';
import { PresetPicker } from '../settings/preset-picker';

// Until the team's catalog has loaded (and if it cannot be), DeepSeek's two current models.
const FALLBACK: ProviderChoice = {
  id: null,
  name: 'DeepSeek',
  models: [
    { id: 'deepseek-v4-flash', contextWindow: 1_000_000, thinking: 'toggle' },
    { id: 'deepseek-v4-pro', contextWindow: 1_000_000, thinking: 'toggle' },
  ],
};

const ENGINES = [
  { value: 'h', label: "H's agent (DeepSeek)" },
  { value: 'claude-code', label: 'Claude Code (Anthropic), run in the workspace sandbox' },
];

export function NewSessionForm({ workspaceId, onCreated, onCancel }: { workspaceId: string; onCreated: (s: AgentSession) => void; onCancel: () => void }) {
  const [title, setTitle] = useState('');
  const [engine, setEngine] = useState<SessionEngine>('h');
  const [choice, setChoice] = useState<{ providerId: string | null; model: string }>({ providerId: null, model: FALLBACK.models[0].id });
  const [thinking, setThinking] = useState(false);
  const workspace = useApiQuery<Workspace>(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}`);
  const teamId = workspace.data?.teamId;
  // Claude Code is offered when the team has an Anthropic key (whoever may not read it sees H only).
  const anthropic = useApiQuery<ProviderStatus>(teamId ? `/api/v1/teams/${encodeURIComponent(teamId)}/providers/anthropic` : null);
  const claudeOffered = anthropic.data?.configured === true;
  const claude = claudeOffered && engine === 'claude-code';
  const loaded = useProviderChoices(teamId ? `/api/v1/teams/${encodeURIComponent(teamId)}` : null);
  const choices = loaded[0].models.length ? loaded : [FALLBACK, ...loaded.slice(1)];
  // A team provider's model gets no thinking toggle: its server decides.
  const canThink = choice.providerId === null;
  const [mode, setMode] = useState<PermissionMode>('approve');
  const [stepMode, setStepMode] = useState(false);
  const create = useAction();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void create.run(async () => {
      // A claude-code session asks for the instance's CLAUDE_CODE_MODEL; thinking is Claude Code's own business.
      const settings = claude
        ? { engine: 'claude-code' as const }
        : { ...(choice.providerId ? { providerId: choice.providerId } : {}), model: choice.model, thinking: canThink && thinking };
      const body = { ...settings, permissionMode: mode, ...(!claude && stepMode ? { stepMode: true } : {}), ...(title.trim() ? { title: title.trim() } : {}) };
      onCreated(await api.post<AgentSession>(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/sessions`, body));
    });
  };

  return (
    <form className="form new-session" onSubmit={onSubmit} aria-labelledby="new-session-title">
      <h3 id="new-session-title">New session</h3>
      <Field id="session-title" label="Title (optional)" maxLength={120} value={title} onChange={(e) => setTitle(e.target.value)} hint="Defaults to the first line of your first message." />
      {claudeOffered ? <SelectField id="session-engine" label="Engine" value={engine} options={ENGINES} onChange={(v) => setEngine(v as SessionEngine)} /> : null}
      {claude ? null : (
        <>
          <PresetPicker workspaceId={workspaceId} onPick={(p) => {
              setChoice({ providerId: p.providerId, model: p.model });
              setThinking(p.thinking);
            }}
          />
          <ProviderModelFields idPrefix="session" choices={choices} providerId={choice.providerId} model={choice.model} onChange={setChoice} />
          <div className="checkbox-field">
            <input id="session-thinking" type="checkbox" disabled={!canThink} checked={canThink && thinking} onChange={(e) => setThinking(e.target.checked)} />
            <label htmlFor="session-thinking">Thinking (the model reasons before answering){canThink ? '' : ': decided by the provider\'s model'}</label>
          </div>
        </>
      )}
      {claude ? null : (
        <div className="checkbox-field">
          <input id="session-step-mode" type="checkbox" checked={stepMode} onChange={(e) => setStepMode(e.target.checked)} />
          <label htmlFor="session-step-mode">Step by step (plan first; the server locks the plan and runs each step as its own sub-agent)</label>
        </div>
      )}
      <fieldset className="radio-group">
        <legend>Permissions</legend>
        {PERMISSION_MODES.filter((m) => MODE_INFO[m].offered).map((m) => (
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
