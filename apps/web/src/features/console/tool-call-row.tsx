import { agentColour, profileLabel } from './sub-agent-state';
import type { ToolItem, ToolStatus } from './transcript-state';
import { formatDuration, keyArgument } from './tool-args';

const STATUS_LABEL: Record<ToolStatus, string> = {
  pending: 'Queued',
  waiting: 'Waiting for approval',
  running: 'Running',
  ok: 'Succeeded',
  error: 'Failed',
  denied: 'Denied',
};

function StatusIcon({ status }: { status: ToolStatus }) {
  if (status === 'running') return <span className="spinner" aria-hidden="true" />;
  const glyph = status === 'ok' ? '✓' : status === 'error' || status === 'denied' ? '✗' : status === 'waiting' ? '?' : '•';
  return (
    <span className={`tool-icon tool-icon-${status}`} aria-hidden="true">
      {glyph}
    </span>
  );
}

// One compact row per tool call; the result (exactly what the model saw) opens below it.
export function ToolCallRow({ item }: { item: ToolItem }) {
  const arg = keyArgument(item.arguments);
  const head = (
    <>
      <StatusIcon status={item.status} />
      {item.agent ? <span className="tool-agent small">{profileLabel(item.agent)}</span> : null}
      <span className="tool-name">{item.name}</span>
      {arg ? <span className="tool-arg">{arg}</span> : null}
      {item.editedByUser ? <span className="tool-edited small" title="A person changed the input before allowing it">edited</span> : null}
      <span className="visually-hidden">{STATUS_LABEL[item.status]}</span>
      <span className="tool-meta">
        {typeof item.exitCode === 'number' && item.exitCode !== 0 ? <span className="tool-exit">exit {item.exitCode}</span> : null}
        {item.status === 'ok' || item.status === 'error' ? formatDuration(item.durationMs) : item.status === 'running' ? '' : STATUS_LABEL[item.status]}
      </span>
    </>
  );
  return (
    <li
      className={`tool-row tool-${item.status}`}
      data-tool={item.name}
      data-status={item.status}
      data-agent={item.agent ?? 'main'}
      data-agent-colour={agentColour(item.agent)}
    >
      {item.result !== null ? (
        <details>
          <summary className="tool-head">{head}</summary>
          <pre className="tool-result">{item.result || '(no output)'}</pre>
        </details>
      ) : (
        <div className="tool-head">{head}</div>
      )}
    </li>
  );
}
