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
            {group === 'staged' ? (
              <button type="button" className={styles.iconButton} disabled={busy} onClick={() => actions.unstage(paths)} title="Unstage all">
                Unstage all
              </button>
            ) : (
              <>
                {group !== 'conflicts' ? (
                  <button
                    type="button"
                    className={`${styles.iconButton} ${styles.danger}`}
                    disabled={busy}
                    onClick={() => discard('*', paths)}
                    onBlur={() => asking === '*' && setAsking(null)}
                    title={group === 'untracked' ? 'Delete all untracked files' : 'Discard all changes'}
                  >
                    {asking === '*' ? 'Really discard all?' : 'Discard all'}
                  </button>
                ) : null}
                <button type="button" className={styles.iconButton} disabled={busy} onClick={() => actions.stage(paths)} title="Stage all">
                  Stage all
                </button>
              </>
            )}
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
                group === 'staged' ? (
                  <button type="button" className={styles.iconButton} disabled={busy} onClick={() => actions.unstage([file.path])} aria-label={`Unstage ${file.path}`} title="Unstage">
                    −
                  </button>
                ) : (
                  <>
                    {group !== 'conflicts' ? (
                      <button
                        type="button"
                        className={`${styles.iconButton} ${styles.danger}`}
                        disabled={busy}
                        onClick={() => discard(file.path, [file.path])}
                        onBlur={() => asking === file.path && setAsking(null)}
                        aria-label={asking === file.path ? `Really discard ${file.path}?` : `Discard ${file.path}`}
                        title={group === 'untracked' ? 'Delete this file' : 'Discard changes'}
                      >
                        {asking === file.path ? 'Sure?' : '↺'}
                      </button>
                    ) : null}
                    <button type="button" className={styles.iconButton} disabled={busy} onClick={() => actions.stage([file.path])} aria-label={`Stage ${file.path}`} title={group === 'conflicts' ? 'Mark resolved (stage)' : 'Stage'}>
                      +
                    </button>
                  </>
                )
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
