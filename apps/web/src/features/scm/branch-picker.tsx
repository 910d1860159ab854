'use client';

import { useState, type FormEvent } from 'react';
import type { GitBranchList } from '@h/contracts';
import { GIT_BRANCH_NAME_MAX_LENGTH } from '@h/contracts/scm';
import styles from './scm.module.css';

/**
 * The current branch, a picker to switch (local branches, and remote ones to track), and a small
 * form to create a branch from HEAD and switch to it. Viewers see the branch only.
 */
export function BranchPicker({
  current,
  branches,
  canWrite,
  busy,
  onSwitch,
  onCreate,
}: {
  current: string | null;
  branches: GitBranchList | undefined;
  canWrite: boolean;
  busy: boolean;
  onSwitch: (branch: string) => void;
  onCreate: (name: string) => Promise<boolean>;
}) {
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const local = branches?.branches.filter((b) => !b.remote) ?? [];
  const localNames = new Set(local.map((b) => b.name));
  // A remote branch is switched to by its short name (git switch creates the tracking branch).
  const remote = (branches?.branches.filter((b) => b.remote) ?? [])
    .map((b) => ({ ref: b.name, short: b.name.slice(b.name.indexOf('/') + 1) }))
    .filter((b) => !localNames.has(b.short));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    if (await onCreate(name.trim())) {
      setName('');
      setCreating(false);
    }
  };

  if (!canWrite) {
    return (
      <div className={styles.row}>
        <span className={styles.counts}>Branch</span>
        <span className={styles.branch}>{current ?? 'detached HEAD'}</span>
      </div>
    );
  }
  return (
    <div className={styles.view}>
      <div className={styles.row}>
        <label className={styles.counts} htmlFor="scm-branch">
          Branch
        </label>
        <select id="scm-branch" className={styles.select} value={current ?? ''} disabled={busy} onChange={(e) => e.target.value && e.target.value !== current && onSwitch(e.target.value)}>
          {current === null ? <option value="">detached HEAD</option> : null}
          {current !== null && !localNames.has(current) ? <option value={current}>{current}</option> : null}
          {local.map((b) => (
            <option key={b.name} value={b.name}>
              {b.name}
            </option>
          ))}
          {remote.length ? (
            <optgroup label="Remote branches">
              {remote.map((b) => (
                <option key={b.ref} value={b.short}>
                  {b.ref}
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
        <button type="button" className={styles.iconButton} onClick={() => setCreating((c) => !c)} aria-expanded={creating} title="Create a branch">
          New branch
        </button>
      </div>
      {creating ? (
        <form className={styles.row} onSubmit={(e) => void submit(e)}>
          <label className="visually-hidden" htmlFor="scm-new-branch">
            New branch name
          </label>
          <input id="scm-new-branch" className={styles.input} value={name} onChange={(e) => setName(e.target.value)} placeholder="feature/name" maxLength={GIT_BRANCH_NAME_MAX_LENGTH} autoFocus />
          <button type="submit" className="button button-secondary button-small" disabled={busy || !name.trim()}>
            Create
          </button>
        </form>
      ) : null}
    </div>
  );
}
