'use client';

import { useState, type KeyboardEvent } from 'react';
import { GIT_COMMIT_MESSAGE_MAX_LENGTH } from '@h/contracts/scm';
import styles from './scm.module.css';

/** The commit message and button; Ctrl/Cmd+Enter commits. Only for writers. */
export function CommitBox({ branch, stagedCount, busy, onCommit }: { branch: string | null; stagedCount: number; busy: boolean; onCommit: (message: string, amend: boolean) => Promise<boolean> }) {
  const [message, setMessage] = useState('');
  const [amend, setAmend] = useState(false);
  const ready = message.trim().length > 0 && (stagedCount > 0 || amend) && !busy;

  const commit = async () => {
    if (!ready) return;
    if (await onCommit(message, amend)) {
      setMessage('');
      setAmend(false);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void commit();
    }
  };

  return (
    <div className={styles.view}>
      <label className="visually-hidden" htmlFor="scm-commit-message">
        Commit message
      </label>
      <textarea
        id="scm-commit-message"
        className={styles.message}
        value={message}
        placeholder={`Message (Ctrl+Enter to commit on ${branch ?? 'detached HEAD'})`}
        onChange={(e) => setMessage(e.target.value)}
        onKeyDown={onKeyDown}
        maxLength={GIT_COMMIT_MESSAGE_MAX_LENGTH}
      />
      <div className={styles.row}>
        <button type="button" className="button button-primary button-small" disabled={!ready} aria-busy={busy} onClick={() => void commit()}>
          {amend ? 'Amend last commit' : stagedCount ? `Commit ${stagedCount} file${stagedCount === 1 ? '' : 's'}` : 'Commit'}
        </button>
        <label className={`checkbox-field ${styles.counts}`}>
          <input type="checkbox" checked={amend} onChange={(e) => setAmend(e.target.checked)} /> Amend
        </label>
      </div>
      {!stagedCount && !amend ? <p className={styles.counts}>Stage changes (+) to commit them.</p> : null}
    </div>
  );
}
