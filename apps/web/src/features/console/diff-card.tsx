'use client';

import { useId, useMemo, useState } from 'react';
import type { AgentChange } from '@h/contracts';
import { FormError } from '../../components/form-error';
import { api } from '../../lib/api-client';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import { unifiedLines, type DiffLine } from './diff-lines';
import type { ChangeItem } from './transcript-state';

const MAX_SHOWN_LINES = 400;

const KIND_LABEL: Record<ChangeItem['change'], string> = { create: 'Created', modify: 'Edited', delete: 'Deleted', rename: 'Renamed' };
const STATUS_LABEL: Record<ChangeItem['status'], string> = { applied: '', accepted: 'Accepted', rejected: 'Rejected: restored', reverted: 'Reverted: restored' };

export function DiffLinesView({ lines, label }: { lines: DiffLine[]; label: string }) {
  const shown = lines.slice(0, MAX_SHOWN_LINES);
  return (
    <pre className="diff-view" aria-label={label}>
      {shown.map((l, i) => (
        <span key={i} className={l.type === 'add' ? 'diff-add' : l.type === 'del' ? 'diff-del' : l.type === 'hunk' ? 'diff-hunk' : 'diff-ctx'}>
          {`${l.type === 'add' ? '+' : l.type === 'del' ? '-' : l.type === 'hunk' ? '' : ' '}${l.text}\n`}
        </span>
      ))}
      {lines.length > shown.length ? <span className="diff-more">{`… ${lines.length - shown.length} more lines\n`}</span> : null}
    </pre>
  );
}

function ChangeBody({ changeId }: { changeId: string }) {
  const { data, error, loading } = useApiQuery<AgentChange>(`/api/v1/changes/${encodeURIComponent(changeId)}`);
  const diff = useMemo(() => {
    if (!data) return null;
    const { before, after } = data;
    const opaque = (s: AgentChange['before']) => s.exists && s.content === null;
    if (opaque(before) || opaque(after)) return null;
    return unifiedLines(before.content ?? '', after.content ?? '');
  }, [data]);
  if (loading && !data) return <p className="muted small">Loading the diff…</p>;
  if (error) return <p className="form-error">{error.message}</p>;
  if (!data) return null;
  if (!diff) {
    const side = data.before.content === null && data.before.exists ? data.before : data.after;
    const why = side.directory ? 'a directory' : side.binary ? 'binary' : `larger than the recorded limit (${side.bytes} bytes)`;
    return <p className="muted small">No text diff: the file is {why}, so only the change itself was recorded.</p>;
  }
  if (diff.length === 0) return <p className="muted small">The content did not change.</p>;
  return <DiffLinesView lines={diff} label={`Diff of ${data.path}`} />;
}

// One file the agent changed: what changed, the diff on demand, and Accept / Reject for members.
export function DiffCard({ item, canDecide }: { item: ChangeItem; canDecide: boolean }) {
  // Closed until asked: the diff is read on demand, so a transcript with many changes stays light
  // and reads the same live, in another browser and after a reload.
  const [open, setOpen] = useState(false);
  const action = useAction();
  const headingId = useId();
  const decided = item.status !== 'applied';
  const undone = item.status === 'rejected' || item.status === 'reverted';

  const decide = (what: 'accept' | 'reject') =>
    void action.run(async () => {
      await api.post(`/api/v1/changes/${encodeURIComponent(item.changeId)}/${what}`, {});
    });

  return (
    <section className={`diff-card diff-card-${item.status}`} aria-labelledby={headingId} data-change-id={item.changeId} data-change-status={item.status}>
      <header className="diff-card-head">
        <button type="button" className="diff-card-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span id={headingId}>
            {KIND_LABEL[item.change]} <span className="mono">{item.change === 'rename' ? `${item.fromPath} → ${item.path}` : item.path}</span>
          </span>
          {item.binary || item.tooLarge ? (
            <span className="muted small">{item.binary ? ' binary' : ' too large to diff'}</span>
          ) : (
            <span className="diff-counts small">
              <span className="diff-count-add">+{item.added}</span> <span className="diff-count-del">−{item.removed}</span>
            </span>
          )}
        </button>
        {decided ? <span className="diff-card-status small">{STATUS_LABEL[item.status]}</span> : null}
      </header>
      {open ? <ChangeBody changeId={item.changeId} /> : null}
      <FormError message={action.error} />
      {canDecide && !undone ? (
        <div className="form-actions">
          {item.status === 'applied' ? (
            <button type="button" className="button button-secondary button-small" disabled={action.pending} onClick={() => decide('accept')}>
              Accept
            </button>
          ) : null}
          <button type="button" className="button button-secondary button-small" disabled={action.pending} onClick={() => decide('reject')}>
            {action.pending ? 'Working…' : 'Reject'}
          </button>
        </div>
      ) : null}
    </section>
  );
}
