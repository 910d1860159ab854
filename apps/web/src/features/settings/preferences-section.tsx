'use client';

import { type FormEvent, useEffect, useState } from 'react';
import { FormError } from '../../components/form-error';
import { SelectField } from '../../components/select-field';
import { SubmitButton } from '../../components/submit-button';
import { api } from '../../lib/api-client';
import type { UserPreferences, UserPreferencesResponse } from '@h/contracts';
import { EDITOR_FONT_SIZE_RANGE, EDITOR_TAB_SIZE_RANGE, EDITOR_THEMES, WORD_WRAP_MODES } from '@h/contracts/preferences';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import { SETTINGS_SECTIONS } from '@h/contracts/settings-sections';

const THEME_LABELS: Record<UserPreferences['theme'], string> = { light: 'Light', dark: 'Dark' };
const WRAP_LABELS: Record<UserPreferences['wordWrap'], string> = { off: 'Off: scroll sideways', on: 'On: wrap at the window edge' };

// The signed-in user's editor preferences, stored on the server (GET/PUT /api/v1/me/preferences),
// so they follow the person to every browser; the IDE applies them to its editors.
export function PreferencesSection() {
  const stored = useApiQuery<UserPreferencesResponse>('/api/v1/me/preferences');
  const [draft, setDraft] = useState<UserPreferences | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useAction();
  useEffect(() => {
    if (stored.data) setDraft(stored.data.preferences);
  }, [stored.data]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    setSaved(false);
    void save.run(async () => {
      await api.put<UserPreferencesResponse>('/api/v1/me/preferences', draft);
      setSaved(true);
      stored.reload();
    });
  };
  const set = (patch: Partial<UserPreferences>) => {
    setSaved(false);
    setDraft((d) => (d ? { ...d, ...patch } : d));
  };

  return (
    <section className="panel" aria-labelledby={SETTINGS_SECTIONS.preferences.id}>
      <h2 id={SETTINGS_SECTIONS.preferences.id}>{SETTINGS_SECTIONS.preferences.title}</h2>
      <p className="muted section-intro">Yours alone, in every workspace and browser.</p>
      {stored.error ? <FormError message={stored.error.message} /> : null}
      {draft ? (
        <form className="form" onSubmit={onSubmit} aria-label="Editor preferences">
          <div className="field">
            <label htmlFor="settings-font-size">Editor font size</label>
            <input id="settings-font-size" type="number" required min={EDITOR_FONT_SIZE_RANGE.min} max={EDITOR_FONT_SIZE_RANGE.max} value={draft.editorFontSize} onChange={(e) => set({ editorFontSize: e.target.valueAsNumber })} />
            <span className="muted small">{EDITOR_FONT_SIZE_RANGE.min}–{EDITOR_FONT_SIZE_RANGE.max} px</span>
          </div>
          <div className="field">
            <label htmlFor="settings-tab-size">Tab size</label>
            <input id="settings-tab-size" type="number" required min={EDITOR_TAB_SIZE_RANGE.min} max={EDITOR_TAB_SIZE_RANGE.max} value={draft.tabSize} onChange={(e) => set({ tabSize: e.target.valueAsNumber })} />
            <span className="muted small">{EDITOR_TAB_SIZE_RANGE.min}–{EDITOR_TAB_SIZE_RANGE.max} spaces</span>
          </div>
          <SelectField id="settings-word-wrap" label="Word wrap" value={draft.wordWrap} options={WORD_WRAP_MODES.map((m) => ({ value: m, label: WRAP_LABELS[m] }))} onChange={(v) => set({ wordWrap: v as UserPreferences['wordWrap'] })} />
          <SelectField id="settings-theme" label="Editor theme" value={draft.theme} options={EDITOR_THEMES.map((t) => ({ value: t, label: THEME_LABELS[t] }))} onChange={(v) => set({ theme: v as UserPreferences['theme'] })} />
          <FormError message={save.error} />
          <div className="form-actions">
            <SubmitButton pending={save.pending} pendingLabel="Saving…">
              Save preferences
            </SubmitButton>
            {saved ? <span className="muted small" role="status">Saved.</span> : null}
          </div>
        </form>
      ) : stored.error ? null : (
        <p className="muted">Loading preferences…</p>
      )}
    </section>
  );
}
