'use client';

import { useState } from 'react';
import type { GitChangeKind, GitFileChange } from '@h/contracts';
import styles from './scm.module.css';

export type ChangeGroup = 'staged' | 'changes' | 'untracked' | 'conflicts';

const TITLES: Record<ChangeGroup, string> = {
  staged: 'Staged changes',
  changes: 'Changes',
  untracked: 'Untracked',
  conflicts: 'Merge conflicts',
};

const LETTER: Record<GitChangeKind, string> = {
  added: 'A',
  modified: 'M',
  deleted: 'D',
  renamed: 'R',
  copied: 'C',
  'type-changed': 'T',
  untracked: 'U',
  conflicted: '!',
};

export interface ChangeActions {
  open: (file: GitFileChange, group: ChangeGroup) => void;
  stage: (paths: string[]) => void;
  unstage: (paths: string[]) => void;
  discard: (paths: string[]) => void;
}

/** One group of changed files with per-file and whole-group actions (writers only). */
export function ChangeList({ group, files, canWrite, busy, actions }: { group: ChangeGroup; files: GitFileChange[]; canWrite: boolean; busy: boolean; actions: ChangeActions }) {
  // A discard cannot be undone: the first click asks, the second (on the same target) does it.
  const [asking, setAsking] = useState<string | null>(null);
  if (!files.length) return null;
  const paths = files.map((f) => f.path);
  const headingId = `scm-group-${group}`;

  const discard = (key: string, targets: string[]) => {
    if (asking !== key) return setAsking(key);
    setAsking(null);
    actions.discard(targets);
  };

  return (
    <section aria-labelledby={headingId}>
      <h3 className={styles.groupHeader} id={headingId}>
        <span>
          {TITLES[group]} ({files.length})
        </span>
        {canWrite ? (
          <span className={styles.row}>
            <TargetActions group={group} targets={paths} confirmKey="*" whole busy={busy} asking={asking} setAsking={setAsking} onDiscard={discard} actions={actions} />
          </span>
        ) : null}
      </h3>
      <ul className={styles.files}>
        {files.map((file) => {
          const slash = file.path.lastIndexOf('/');
          const name = file.path.slice(slash + 1);
          const dir = slash > 0 ? file.path.slice(0, slash) : '';
          return (
            <li key={`${group}:${file.path}`} className={styles.file} data-path={file.path}>
              <span className={`${styles.kind} ${styles[`kind-${file.kind}`] ?? ''}`} title={file.kind} aria-label={file.kind}>
                {LETTER[file.kind]}
              </span>
              <button type="button" className={styles.fileName} onClick={() => actions.open(file, group)} title={file.originalPath ? `${file.originalPath} → ${file.path}` : file.path}>
                {name}
                {dir ? <span className={styles.fileDir}>{dir}</span> : null}
              </button>
              {canWrite ? (
                <TargetActions group={group} targets={[file.path]} confirmKey={file.path} busy={busy} asking={asking} setAsking={setAsking} onDiscard={discard} actions={actions} />
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * The stage / unstage / discard buttons of a whole group (`whole`, words) or of one file (symbols,
 * labelled with its path). A discard asks first: `asking` holds the target key being confirmed.
 */
function TargetActions({
  group,
  targets,
  confirmKey,
  whole = false,
  busy,
  asking,
  setAsking,
  onDiscard,
  actions,
}: {
  group: ChangeGroup;
  targets: string[];
  confirmKey: string;
  whole?: boolean;
  busy: boolean;
  asking: string | null;
  setAsking: (key: string | null) => void;
  onDiscard: (key: string, targets: string[]) => void;
  actions: ChangeActions;
}) {
  const what = whole ? null : targets[0];
  if (group === 'staged') {
    return (
      <button type="button" className={styles.iconButton} disabled={busy} onClick={() => actions.unstage(targets)} aria-label={what ? `Unstage ${what}` : undefined} title={whole ? 'Unstage all' : 'Unstage'}>
        {whole ? 'Unstage all' : '−'}
      </button>
    );
  }
  const confirming = asking === confirmKey;
  const untracked = group === 'untracked';
  return (
    <>
      {group !== 'conflicts' ? (
        <button
          type="button"
          className={`${styles.iconButton} ${styles.danger}`}
          disabled={busy}
          onClick={() => onDiscard(confirmKey, targets)}
          onBlur={() => confirming && setAsking(null)}
          aria-label={what ? (confirming ? `Really discard ${what}?` : `Discard ${what}`) : undefined}
          title={whole ? (untracked ? 'Delete all untracked files' : 'Discard all changes') : untracked ? 'Delete this file' : 'Discard changes'}
        >
          {whole ? (confirming ? 'Really discard all?' : 'Discard all') : confirming ? 'Sure?' : '↺'}
        </button>
      ) : null}
      <button
        type="button"
        className={styles.iconButton}
        disabled={busy}
        onClick={() => actions.stage(targets)}
        aria-label={what ? `Stage ${what}` : undefined}
        title={whole ? 'Stage all' : group === 'conflicts' ? 'Mark resolved (stage)' : 'Stage'}
      >
        {whole ? 'Stage all' : '+'}
      </button>
    </>
  );
}
