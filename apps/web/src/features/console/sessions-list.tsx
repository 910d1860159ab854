import type { Session as AgentSession, RunStatus } from '@h/contracts';
import { formatDateTime } from '../../lib/format';

const STATUS_LABEL: Record<RunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  waiting_permission: 'Needs approval',
  waiting_children: 'Delegating',
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function SessionsList({
  sessions,
  statuses,
  selectedId,
  onSelect,
}: {
  sessions: AgentSession[];
  statuses: Record<string, RunStatus | undefined>;
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  if (!sessions.length) return <p className="empty small">No sessions yet.</p>;
  return (
    <ul className="session-list">
      {sessions.map((s) => {
        const status = statuses[s.id];
        return (
          <li key={s.id}>
            <a
              href={`?session=${encodeURIComponent(s.id)}`}
              className="session-link"
              aria-current={s.id === selectedId ? 'page' : undefined}
              onClick={(event) => {
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                onSelect(s.id);
              }}
            >
              <span className="session-title">{s.title}</span>
              <span className="session-meta">
                {status ? (
                  <span className={`badge badge-run badge-run-${status}`} data-run-status={status}>
                    {STATUS_LABEL[status]}
                  </span>
                ) : null}
                <span>{formatDateTime(s.updatedAt)}</span>
              </span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}
