'use client';

import { useEditorStatus } from './workbench';

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
