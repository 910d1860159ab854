'use client';

import { DiffEditor, type MonacoDiffEditor } from '@monaco-editor/react';
import { useEffect, useRef } from 'react';
import type { FileTab } from './editor-tabs-state';

// A save refused with 409 EDIT_CONFLICT (or unsaved edits meeting a change in the workspace):
// the workspace's version on the left, yours on the right (editable, so the two can be merged),
// and the two ways out.
export function ConflictView({
  tab,
  language,
  theme,
  canWrite,
  onKeepMine,
  onTakeTheirs,
}: {
  tab: FileTab;
  language: string;
  theme: string;
  canWrite: boolean;
  onKeepMine: (content: string) => void;
  onTakeTheirs: () => void;
}) {
  const editor = useRef<MonacoDiffEditor | null>(null);
  // The wrapper would dispose the models before the diff editor lets go of them (Monaco then
  // throws); keep them there and dispose them once the editor is gone.
  useEffect(
    () => () => {
      const models = editor.current?.getModel();
      if (models) setTimeout(() => [models.original, models.modified].forEach((m) => m.isDisposed() || m.dispose()), 0);
    },
    [],
  );
  const conflict = tab.conflict;
  if (!conflict) return null;
  const gone = conflict.theirs === null;
  return (
    <div className="ide-conflict" data-testid="conflict-view">
      <div className="ide-bar ide-bar-warn" role="alert">
        <span>
          {gone
            ? `${tab.path} was deleted in the workspace while you edited it.`
            : `${tab.path} changed in the workspace since you opened it. Left: the workspace's version; right: yours (you can edit it before keeping it).`}
        </span>
        <span className="ide-bar-actions">
          <button type="button" className="button button-primary button-small" disabled={!canWrite || tab.saving} onClick={() => onKeepMine(editor.current?.getModifiedEditor().getValue() ?? conflict.mine)}>
            {tab.saving ? 'Saving…' : gone ? 'Keep mine (recreate the file)' : 'Keep mine'}
          </button>
          <button type="button" className="button button-secondary button-small" onClick={onTakeTheirs}>
            {gone ? 'Discard mine and close' : 'Take theirs'}
          </button>
        </span>
      </div>
      <div className="ide-conflict-titles" aria-hidden="true">
        <span>Workspace version</span>
        <span>Your version</span>
      </div>
      <div className="ide-editor-host">
        <DiffEditor
          original={conflict.theirs ?? ''}
          modified={conflict.mine}
          language={language}
          theme={theme}
          loading={<p className="muted ide-pad">Loading the compare view…</p>}
          keepCurrentOriginalModel
          keepCurrentModifiedModel
          options={{ renderSideBySide: true, originalEditable: false, readOnly: !canWrite, automaticLayout: true }}
          onMount={(e) => {
            editor.current = e;
          }}
        />
      </div>
    </div>
  );
}
