import { cacheHitPercent, formatTokens, type UsageTotals } from './transcript-state';

const COST = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });

export function formatCost(usd: number): string {
  return COST.format(usd);
}

// The session's model use in detail; the status line shows the short form.
export function UsagePanel({ usage }: { usage: UsageTotals }) {
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
          <dd>{formatCost(usage.cost)}</dd>
        </dl>
      )}
    </section>
  );
}
