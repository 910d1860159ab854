'use client';

import { useEffect, useRef, useState } from 'react';

// Closing a tab with unsaved edits asks what to do with them.
export function CloseDirtyDialog({ path, canWrite, onSave, onDiscard, onCancel }: { path: string; canWrite: boolean; onSave: () => Promise<void>; onDiscard: () => void; onCancel: () => void }) {
  const first = useRef<HTMLButtonElement>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => first.current?.focus(), []);
  return (
    <div className="ide-dialog-backdrop" onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <div className="ide-dialog" role="alertdialog" aria-modal="true" aria-labelledby="close-dirty-title" aria-describedby="close-dirty-desc">
        <h2 id="close-dirty-title">Unsaved changes</h2>
        <p id="close-dirty-desc">
          <span className="mono">{path}</span> has changes that are not saved to the workspace.
        </p>
        <div className="form-actions">
          {canWrite ? (
            <button
              ref={first}
              type="button"
              className="button button-primary"
              disabled={saving}
              onClick={() => {
                setSaving(true);
                void onSave().finally(() => setSaving(false));
              }}
            >
              {saving ? 'Saving…' : 'Save and close'}
            </button>
          ) : null}
          <button type="button" className="button button-danger" onClick={onDiscard}>
            Discard changes
          </button>
          <button ref={canWrite ? undefined : first} type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
