'use client';

import { useState } from 'react';
import type { GitRemoteOperation, GitRemoteResult, GitRemoteStatus } from '@h/contracts';
import { api } from '../../lib/api-client';
import type { Action } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import styles from './scm.module.css';

const LABEL: Record<GitRemoteOperation, string> = { fetch: 'Fetch', pull: 'Pull', push: 'Push' };

/**
 * Fetch, Pull and Push through the workspace's stored remote (libs/git-remote runs them on the
 * host with the credential, which never enters the sandbox). Without a remote it says where to
 * set one; viewers see nothing of it (the routes are for members).
 */
export function RemoteActions({ workspaceId, hasUpstream, action, onDone }: { workspaceId: string; hasUpstream: boolean; action: Action; onDone: () => void }) {
  const remote = useApiQuery<GitRemoteStatus>(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/git/remote`);
  const [result, setResult] = useState<string>();

  if (remote.error?.status === 404) return <p className={styles.counts}>No git remote: an admin can set one in the Workspace view.</p>;
  if (!remote.data) return null;

  const run = (operation: GitRemoteOperation) =>
    void action.run(async () => {
      setResult(undefined);
      try {
        // A branch that was never pushed gets origin/<branch> as its upstream on its first push.
        const body = operation === 'push' && !hasUpstream ? { setUpstream: true } : {};
        const r = await api.post<GitRemoteResult>(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/git/${operation}`, body);
        setResult(r.message);
      } finally {
        onDone();
      }
    });

  return (
    <div className={styles.view}>
      <div className={styles.row} role="group" aria-label="Remote">
        <span className={styles.counts} title={remote.data.url}>
          origin
        </span>
        {(['fetch', 'pull', 'push'] as const).map((op) => (
          <button key={op} type="button" className="button button-secondary button-small" disabled={action.pending} onClick={() => run(op)}>
            {LABEL[op]}
          </button>
        ))}
      </div>
      {result ? (
        <p className={styles.counts} role="status">
          {result}
        </p>
      ) : null}
    </div>
  );
}
