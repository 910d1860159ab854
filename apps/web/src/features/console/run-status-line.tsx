import type { RunStatus } from '@h/contracts';
import { cacheHitPercent, type ContextUse, formatContextUse, formatTokens, type UsageTotals } from './transcript-state';
import { formatCost } from './usage-panel';

function statusText(status: RunStatus | null, position: number | null, error: string | null): string {
  switch (status) {
    case null:
      return 'Idle';
    case 'queued':
      return position ? `Queued (position ${position})` : 'Queued';
    case 'running':
      return 'Running';
    case 'waiting_permission':
      return 'Waiting for approval';
    case 'waiting_children':
      return 'Waiting for sub-agents';
    case 'completed':
      return 'Done';
    case 'failed':
      return error ? `Failed: ${error}` : 'Failed';
    case 'cancelled':
      return 'Cancelled';
  }
}

export function RunStatusLine({
  status,
  position,
  error,
  usage,
  context,
}: {
  status: RunStatus | null;
  position: number | null;
  error: string | null;
  usage: UsageTotals;
  context: ContextUse | null;
}) {
  const hit = cacheHitPercent(usage);
  const text = statusText(status, position, error);
  return (
    <div className="status-line">
      <span className={`run-status run-status-${status ?? 'idle'}`} role="status" data-run-status={status ?? 'idle'}>
        {status === 'running' ? <span className="spinner" aria-hidden="true" /> : <span className="status-dot" aria-hidden="true" />}
        {/* One line: a failure's whole message is in the transcript (with what to do), and here on hover. */}
        <span className="run-status-text" title={text}>
          {text}
        </span>
      </span>
      {usage.requests > 0 ? (
        <span className="usage" aria-label="Session usage">
          <span title={`${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens in ${usage.requests} requests`}>
            {formatTokens(usage.promptTokens + usage.completionTokens)} tokens
          </span>
          {hit !== null ? <span>{hit}% cache hit</span> : null}
          {context ? (
            <span className="context-use" title="Context in use: estimated size of the next request against the model's window">
              {formatContextUse(context)}
            </span>
          ) : null}
          <span>{formatCost(usage.costUsd)}</span>
        </span>
      ) : null}
    </div>
  );
}
