'use client';

import { useEditorStatus, useWorkbench } from './workbench';

/** Bottom tabs the status bar opens directly (Problems has its own counts there), as VS Code's layout controls do. */
const PANEL_TOGGLES = [
  { id: 'terminals', label: 'Terminal', title: 'Show or hide the terminal (Ctrl/⌘+`)' },
  { id: 'browser', label: 'Browser', title: 'Show or hide the workspace\'s browser' },
];

export function PanelToggles() {
  const { bottomTab, toggleBottom } = useWorkbench();
  return (
    <span className="status-toggles">
      {PANEL_TOGGLES.map((t) => (
        <button key={t.id} type="button" className="status-item status-button" data-testid={`status-toggle-${t.id}`} aria-pressed={bottomTab === t.id} title={t.title} onClick={() => toggleBottom(t.id)}>
          {t.label}
        </button>
      ))}
    </span>
  );
}

export function CursorStatus() {
  const status = useEditorStatus();
  if (!status) return null;
  return (
    <span className="status-item" data-testid="status-cursor" aria-label={`Line ${status.line}, column ${status.column}`}>
      Ln {status.line}, Col {status.column}
      {status.selected ? ` (${status.selected} selected)` : ''}
    </span>
  );
}

export function IndentStatus() {
  const status = useEditorStatus();
  if (!status) return null;
  return <span className="status-item">{status.insertSpaces ? `Spaces: ${status.tabSize}` : `Tab size: ${status.tabSize}`}</span>;
}

export function LanguageStatus() {
  const status = useEditorStatus();
  if (!status) return null;
  return (
    <span className="status-item" data-testid="status-language">
      {status.language}
    </span>
  );
}
