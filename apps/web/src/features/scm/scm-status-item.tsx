'use client';

import { useGitStatus } from './git-status-store';

/** The status bar's branch: the repository's current branch (or detached HEAD), ahead/behind its upstream. */
export function ScmBranchStatus({ workspaceId }: { workspaceId: string }) {
  const { status } = useGitStatus(workspaceId);
  if (!status?.initialized) return null;
  const sync = status.upstream && (status.ahead || status.behind) ? ` ↑${status.ahead} ↓${status.behind}` : '';
  return (
    <span className="status-item" title={status.upstream ? `Current git branch, tracking ${status.upstream}` : 'Current git branch'}>
      <span aria-hidden="true">⎇</span> <span data-testid="status-branch">{status.branch ?? (status.head ? status.head.slice(0, 7) : 'detached')}</span>
      {sync}
    </span>
  );
}
