'use client';

import { useEffect, useState } from 'react';
import type { GitCommitSummary, GitLog } from '@h/contracts';
import { api, errorMessage } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { scmPaths } from './scm-api';
import styles from './scm.module.css';

const PAGE = 30;

/** The branch's commits, newest first; "More" loads the next page. Reloads when `version` changes. */
export function LogList({ workspaceId, version }: { workspaceId: string; version: string }) {
  const [commits, setCommits] = useState<GitCommitSummary[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    const controller = new AbortController();
    api
      .get<GitLog>(scmPaths.log(workspaceId, PAGE, 0), { signal: controller.signal })
      .then((log) => {
        setCommits(log.commits);
        setHasMore(log.hasMore);
        setError(undefined);
      })
      .catch((cause: unknown) => !controller.signal.aborted && setError(errorMessage(cause)));
    return () => controller.abort();
  }, [workspaceId, version]);

  const more = async () => {
    try {
      const log = await api.get<GitLog>(scmPaths.log(workspaceId, PAGE, commits.length));
      setCommits((c) => [...c, ...log.commits]);
      setHasMore(log.hasMore);
    } catch (cause) {
      setError(errorMessage(cause));
    }
  };

  return (
    <section aria-labelledby="scm-log">
      <h3 className={styles.groupHeader} id="scm-log">
        <span>Commits</span>
      </h3>
      {error ? <p className="form-error">{error}</p> : null}
      {!commits.length && !error ? <p className={styles.counts}>No commits yet.</p> : null}
      <ol className={styles.log}>
        {commits.map((c) => (
          <li key={c.hash} className={styles.commit} data-hash={c.hash}>
            <div className={styles.commitSubject} title={c.subject}>
              {c.subject}
            </div>
            <div className={styles.commitMeta}>
              <span className="mono">{c.hash.slice(0, 7)}</span> · {c.author} · {formatDateTime(c.date)}
            </div>
          </li>
        ))}
      </ol>
      {hasMore ? (
        <button type="button" className={styles.iconButton} onClick={() => void more()}>
          More commits
        </button>
      ) : null}
    </section>
  );
}
