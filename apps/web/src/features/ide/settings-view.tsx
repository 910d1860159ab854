'use client';

import { useState } from 'react';
import type { UserPreferences, WorkspaceStatus } from '@h/contracts';
import { EDITOR_FONT_SIZE_RANGE, EDITOR_TAB_SIZE_RANGE } from '@h/contracts/preferences';
import { StatusBadge } from '../../components/status-badge';
import { formatDateTime } from '../../lib/format';
import { WorkspaceSettings } from '../workspace/workspace-settings';
import type { IdeContext } from './panels';
import { useWorkbench } from './workbench';

export const WORKSPACE_STATUS_TEXT: Record<WorkspaceStatus, string> = {
  provisioning: 'H is setting up this workspace. This page updates by itself.',
  ready: 'This workspace is set up and ready.',
  error: 'Setting up this workspace failed.',
};

// The "Workspace" side view: its status and facts, its settings (members and admins), and the
// signed-in user's editor preferences (stored on the server, so they follow the user).
export function SettingsView({ ctx }: { ctx: IdeContext }) {
  const { workspace: w, role, reloadWorkspace } = useWorkbench();
  return (
    <div className="ide-settings">
      <div className="ide-view-header">
        <h2>Workspace</h2>
        <StatusBadge status={w.status} />
      </div>
      <div className="ide-pad">
        {w.description ? <p className="small">{w.description}</p> : null}
        <p aria-live="polite" className="small">{WORKSPACE_STATUS_TEXT[w.status]}</p>
        <dl className="facts small">
          <dt>Created</dt>
          <dd>{formatDateTime(w.createdAt)}</dd>
          <dt>Network access</dt>
          <dd>{w.networkEnabled ? (w.allowedHosts.length ? `To: ${w.allowedHosts.join(', ')}` : 'On, no allowed hosts yet') : 'Off'}</dd>
          <dt>Workspace id</dt>
          <dd className="mono">{ctx.workspaceId}</dd>
        </dl>
        <EditorPreferences />
        <WorkspaceSettings workspace={w} role={role} onSaved={reloadWorkspace} />
      </div>
    </div>
  );
}

function EditorPreferences() {
  const { preferences, savePreferences } = useWorkbench();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = (patch: Partial<UserPreferences>) => {
    setSaving(true);
    setError(null);
    savePreferences(patch)
      .catch((err: unknown) => setError(err instanceof Error ? err.message : 'Could not save your preferences.'))
      .finally(() => setSaving(false));
  };
  const clamp = (v: number, r: { min: number; max: number }) => Math.min(r.max, Math.max(r.min, Math.round(v)));
  return (
    <section className="panel ide-prefs" aria-labelledby="editor-prefs">
      <h2 id="editor-prefs">Editor (your preferences)</h2>
      <div className="field">
        <label htmlFor="pref-font-size">Font size</label>
        <input id="pref-font-size" type="number" min={EDITOR_FONT_SIZE_RANGE.min} max={EDITOR_FONT_SIZE_RANGE.max} defaultValue={preferences.editorFontSize}
          onBlur={(e) => e.target.valueAsNumber && save({ editorFontSize: clamp(e.target.valueAsNumber, EDITOR_FONT_SIZE_RANGE) })} />
      </div>
      <div className="field">
        <label htmlFor="pref-tab-size">Tab size</label>
        <input id="pref-tab-size" type="number" min={EDITOR_TAB_SIZE_RANGE.min} max={EDITOR_TAB_SIZE_RANGE.max} defaultValue={preferences.tabSize}
          onBlur={(e) => e.target.valueAsNumber && save({ tabSize: clamp(e.target.valueAsNumber, EDITOR_TAB_SIZE_RANGE) })} />
      </div>
      <div className="checkbox-field">
        <input id="pref-wrap" type="checkbox" checked={preferences.wordWrap === 'on'} onChange={(e) => save({ wordWrap: e.target.checked ? 'on' : 'off' })} />
        <label htmlFor="pref-wrap">Wrap long lines</label>
      </div>
      <div className="checkbox-field">
        <input id="pref-theme" type="checkbox" checked={preferences.theme === 'dark'} onChange={(e) => save({ theme: e.target.checked ? 'dark' : 'light' })} />
        <label htmlFor="pref-theme">Dark editor theme</label>
      </div>
      {saving ? <p className="muted small" role="status">Saving…</p> : null}
      {error ? <p className="form-error" role="alert">{error}</p> : null}
    </section>
  );
}
