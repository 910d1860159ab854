'use client';

import { useCallback, useEffect, useState } from 'react';
import type { GitBranchList, GitFileChange } from '@h/contracts';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import { BranchPicker } from './branch-picker';
import { type ChangeActions, type ChangeGroup, ChangeList } from './change-list';
import { CommitBox } from './commit-box';
import { LogList } from './log-list';
import { RemoteActions } from './remote-actions';
import { scmApi, scmPaths } from './scm-api';
import { useGitStatus } from './git-status-store';
import styles from './scm.module.css';

export interface OpenDiffInput {
  title: string;
  path?: string;
  original: string;
  modified: string;
}

/**
 * The Source Control side view: the workspace repository's changes grouped (staged, changes,
 * untracked, conflicts), a click opens the file's diff in the editor, stage / unstage / discard
 * per file and all, the commit box, the branch picker and the log. Viewers see everything and
 * change nothing (the api refuses them too). Without a repository it offers `git init`.
 */
export function ScmView(props: { workspaceId: string; canWrite: boolean; openDiff: (input: OpenDiffInput) => void }) {
  // Headed and padded like the other side views (Explorer, Workspace).
  return (
    <>
      <div className="ide-view-header">
        <h2>Source control</h2>
      </div>
      <div className="ide-pad">
        <ScmBody {...props} />
      </div>
    </>
  );
}

function ScmBody({ workspaceId, canWrite, openDiff }: { workspaceId: string; canWrite: boolean; openDiff: (input: OpenDiffInput) => void }) {
  const status = useGitStatus(workspaceId);
  const repo = status.status?.initialized ? status.status : null;
  const branches = useApiQuery<GitBranchList>(repo ? scmPaths.branches(workspaceId) : null);
  const action = useAction();
  const [notice, setNotice] = useState<string>();
  const reloadStatus = status.reload;
  const reloadBranches = branches.reload;

  const refresh = useCallback(() => {
    reloadStatus();
    reloadBranches();
  }, [reloadStatus, reloadBranches]);
  // A new commit or branch (here or in a terminal) changes what the branch list shows.
  const head = repo ? `${repo.head}:${repo.branch}` : '';
  useEffect(() => {
    if (head) reloadBranches();
  }, [head, reloadBranches]);

  const act = (work: () => Promise<unknown>) =>
    action.run(async () => {
      setNotice(undefined);
      try {
        await work();
      } finally {
        refresh();
      }
    });

  const actions: ChangeActions = {
    open: (file, group) => void openChange(file, group),
    stage: (paths) => void act(() => scmApi.stage(workspaceId, paths)),
    unstage: (paths) => void act(() => scmApi.unstage(workspaceId, repo && paths.length === repo.staged.length ? 'all' : paths)),
    discard: (paths) => void act(() => scmApi.discard(workspaceId, paths)),
  };

  async function openChange(file: GitFileChange, group: ChangeGroup) {
    const staged = group === 'staged';
    await action.run(async () => {
      setNotice(undefined);
      const diff = await scmApi.diff(workspaceId, file.path, staged, staged ? file.originalPath : undefined);
      const hidden = [diff.original, diff.modified].find((side) => side.binary || side.tooLarge);
      if (hidden) {
        setNotice(`${file.path}: ${hidden.binary ? 'a binary file has no text diff' : 'too large to show as a diff'}.`);
        return;
      }
      const name = file.path.slice(file.path.lastIndexOf('/') + 1);
      openDiff({ title: `${name} (${staged ? 'staged' : group === 'untracked' ? 'untracked' : 'working tree'})`, path: file.path, original: diff.original.text, modified: diff.modified.text });
    });
  }

  if (status.error && !status.status) {
    return (
      <div className={styles.view}>
        <p className="form-error">{status.error.message}</p>
        <button type="button" className="button button-secondary button-small" onClick={status.reload}>
          Try again
        </button>
      </div>
    );
  }
  if (!status.status) return <p className="muted">Loading source control…</p>;
  if (!repo) {
    return (
      <div className={styles.view}>
        <p>This workspace has no git repository.</p>
        {canWrite ? (
          <button type="button" className="button button-primary button-small" disabled={action.pending} onClick={() => void act(() => scmApi.init(workspaceId))}>
            Initialize repository
          </button>
        ) : (
          <p className="muted">A member of the team can initialize one.</p>
        )}
        {action.error ? <p className="form-error">{action.error}</p> : null}
      </div>
    );
  }

  const changed = repo.staged.length + repo.unstaged.length + repo.untracked.length + repo.conflicted.length;
  return (
    <div className={styles.view} aria-busy={action.pending}>
      <BranchPicker
        current={repo.branch}
        branches={branches.data}
        canWrite={canWrite}
        busy={action.pending}
        onSwitch={(branch) => void act(() => scmApi.checkout(workspaceId, branch))}
        onCreate={(name) => act(() => scmApi.createBranch(workspaceId, name))}
      />
      <div className={styles.row}>
        <span className={styles.counts}>{repo.upstream ? `${repo.upstream}: ${repo.ahead} ahead, ${repo.behind} behind` : 'No upstream branch'}</span>
        <button type="button" className={styles.iconButton} onClick={refresh} aria-label="Refresh source control" title="Refresh">
          ⟳
        </button>
      </div>
      {canWrite ? <RemoteActions workspaceId={workspaceId} hasUpstream={repo.upstream !== null} action={action} onDone={refresh} /> : null}
      {canWrite ? <CommitBox branch={repo.branch} stagedCount={repo.staged.length} busy={action.pending} onCommit={(message, amend) => act(() => scmApi.commit(workspaceId, message, amend))} /> : null}
      {action.error ? (
        <p className="form-error" role="alert">
          {action.error}
        </p>
      ) : null}
      {notice ? <p className="muted">{notice}</p> : null}
      {!changed ? <p className={styles.counts}>No changes.</p> : null}
      <ChangeList group="conflicts" files={repo.conflicted} canWrite={canWrite} busy={action.pending} actions={actions} />
      <ChangeList group="staged" files={repo.staged} canWrite={canWrite} busy={action.pending} actions={actions} />
      <ChangeList group="changes" files={repo.unstaged} canWrite={canWrite} busy={action.pending} actions={actions} />
      <ChangeList group="untracked" files={repo.untracked} canWrite={canWrite} busy={action.pending} actions={actions} />
      {repo.truncated ? <p className={styles.counts}>More files changed than can be listed here; commit or ignore some to see the rest.</p> : null}
      <LogList workspaceId={workspaceId} version={head} />
    </div>
  );
}
