import { cacheHitPercent, type ContextUse, formatContextUse, formatTokens, type UsageTotals } from './transcript-state';

const COST = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });

export function formatCost(usd: number): string {
  return COST.format(usd);
}

// The session's model use in detail; the status line shows the short form.
export function UsagePanel({ usage, context }: { usage: UsageTotals; context: ContextUse | null }) {
  const hit = cacheHitPercent(usage);
  return (
    <section className="side-panel" aria-labelledby="console-usage">
      <h3 id="console-usage">Usage</h3>
      {usage.requests === 0 ? (
        <p className="muted small">No model requests yet.</p>
      ) : (
        <dl className="usage-facts">
          <dt>Requests</dt>
          <dd>{usage.requests}</dd>
          <dt>Prompt</dt>
          <dd>{formatTokens(usage.promptTokens)} tokens</dd>
          <dt>Completion</dt>
          <dd>{formatTokens(usage.completionTokens)} tokens</dd>
          <dt>Cache hit</dt>
          <dd>{hit === null ? '—' : `${hit}%`}</dd>
          <dt>Cost</dt>
          <dd>{formatCost(usage.costUsd)}</dd>
          {context ? (
            <>
              <dt>Context</dt>
              <dd title="Estimated size of the next request (characters / 4) against the model's context window">{formatContextUse(context)}</dd>
            </>
          ) : null}
        </dl>
      )}
    </section>
  );
}
