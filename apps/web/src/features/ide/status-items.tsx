'use client';

import { useEffect, useState } from 'react';
import { filesClient } from './files-client';
import type { IdeContext } from './panels';
import { useEditorStatus } from './workbench';

/** `ref: refs/heads/main` -> main; a detached HEAD -> its short hash; anything else -> null. */
export function branchFromHead(head: string): string | null {
  const text = head.trim();
  const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(text);
  if (ref) return ref[1];
  if (/^[0-9a-f]{40,64}$/i.test(text)) return text.slice(0, 7);
  return null;
}

// The branch from .git/HEAD through the file API, read again when the window regains focus (a
// terminal or the agent may have switched it). Source control may register a richer item.
export function BranchStatus({ ctx }: { ctx: IdeContext }) {
  const [branch, setBranch] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    const read = () =>
      filesClient.read(ctx.workspaceId, '.git/HEAD').then(
        (file) => alive && setBranch(file.encoding === 'utf8' ? branchFromHead(file.content) : null),
        () => alive && setBranch(null),
      );
    void read();
    window.addEventListener('focus', read);
    return () => {
      alive = false;
      window.removeEventListener('focus', read);
    };
  }, [ctx.workspaceId]);
  if (!branch) return null;
  return (
    <span className="status-item" title="Current git branch (.git/HEAD)">
      <span aria-hidden="true">⎇</span> <span data-testid="status-branch">{branch}</span>
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
