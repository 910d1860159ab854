import type { RunStatus } from '@h/contracts';
import type { DelegationItem } from './sub-agent-state';

const STATUS: Record<RunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  waiting_permission: 'Waiting for approval',
  waiting_children: 'Waiting',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

// One card per delegate call: each sub-agent with its profile (in its colour), status and report.
// Their tool calls stream above as coloured cards; their text is not shown as messages.
export function DelegationCard({ item }: { item: DelegationItem }) {
  return (
    <section className="delegation-card" aria-label="Sub-agents" data-tool-call={item.toolCallId}>
      <h3 className="delegation-title">{item.children.length === 1 ? 'Sub-agent' : `${item.children.length} sub-agents`}</h3>
      <ul className="delegation-list">
        {item.children.map((c) => (
          <li key={c.runId} className="delegation-child" data-agent={c.profile} data-agent-colour={c.colour} data-status={c.status}>
            <div className="delegation-head">
              <span className="delegation-profile">{c.label}</span>
              <span className="delegation-status small">{STATUS[c.status]}</span>
            </div>
            <p className="delegation-task small">{c.task}</p>
            {c.result ? (
              <details>
                <summary className="small">{c.status === 'completed' ? 'Report' : 'Why it stopped'}</summary>
                <pre className="tool-result">{c.result}</pre>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
