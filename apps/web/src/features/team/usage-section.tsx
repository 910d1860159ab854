'use client';

import { type FormEvent, useState } from 'react';
import { BUDGET_LIMITS, type TeamBudgetStatus, type TeamUsageReport, type UsageBreakdownRow } from '@h/contracts/budget';
import type { TeamRole } from '@h/contracts';
import { DataTable } from '../../components/data-table';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-error';
import { SubmitButton } from '../../components/submit-button';
import { api } from '../../lib/api-client';
import { formatDate } from '../../lib/format';
import { canManage } from '../../lib/roles';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import { UsageChart } from './usage-chart';
import { formatRatio, formatTokens, formatUsd, shiftMonth } from './usage-format';

/**
 * What the team's runs cost this month (or an earlier one): against the budget, per day as a
 * chart, and per person, workspace and model with the cache-hit ratio. Owners and admins set the
 * budget here; when it is spent everyone sees why runs are refused.
 */
export function UsageSection({ base, role }: { base: string; role: TeamRole }) {
  const [month, setMonth] = useState<string | null>(null);
  const report = useApiQuery<TeamUsageReport>(`${base}/usage${month ? `?month=${month}` : ''}`);
  const data = report.data;
  const shown = data?.month ?? month;
  const current = !month;
  return (
    <section className="panel" aria-labelledby="usage-heading">
      <h2 id="usage-heading">Usage and budget</h2>
      <p className="muted section-intro">What the team&apos;s agent runs cost, as the model catalog prices them: prompt tokens served from the provider&apos;s cache are priced as hits.</p>
      {report.error ? <FormError message={report.error.message} /> : null}
      {data && current ? <BudgetAlert status={data.budget} /> : null}
      {data ? (
        <>
          <div className="usage-month" role="group" aria-label="Month">
            <button type="button" className="button button-small" onClick={() => shown && setMonth(shiftMonth(shown, -1))}>
              ← Earlier
            </button>
            <strong data-testid="usage-month">{shown}</strong>
            <button type="button" className="button button-small" disabled={current} onClick={() => shown && setMonth(shiftMonth(shown, 1) === data.budget.month ? null : shiftMonth(shown, 1))}>
              Later →
            </button>
          </div>
          <dl className="usage-totals">
            <div><dt>Cost</dt><dd data-testid="usage-cost">{formatUsd(data.costUsd)}</dd></div>
            <div><dt>Runs</dt><dd>{data.runs}</dd></div>
            <div><dt>Model requests</dt><dd>{data.requests}</dd></div>
            <div><dt>Prompt tokens</dt><dd>{formatTokens(data.promptTokens)}</dd></div>
            <div><dt>Cache hits</dt><dd data-testid="usage-cache-ratio">{formatRatio(data.cacheHitRatio)}</dd></div>
          </dl>
          <UsageChart days={data.byDay} budgetUsd={data.budget.monthlyUsd} />
          <Breakdown label="By person" rows={data.byUser} />
          <Breakdown label="By workspace" rows={data.byWorkspace} />
          <Breakdown label="By model" rows={data.byModel} />
        </>
      ) : null}
      {canManage(role) ? <BudgetForm base={base} status={data && current ? data.budget : null} onSaved={report.reload} /> : null}
    </section>
  );
}

function BudgetAlert({ status }: { status: TeamBudgetStatus }) {
  if (status.monthlyUsd === null) return <p className="muted small">No monthly budget: runs are limited only by the limits below.</p>;
  const share = status.monthlyUsd > 0 ? Math.min(1, status.spentUsd / status.monthlyUsd) : 1;
  const line = `${formatUsd(status.spentUsd)} of ${formatUsd(status.monthlyUsd)} spent in ${status.month}`;
  return (
    <div className={status.exceeded ? 'callout callout-error' : status.warning ? 'callout callout-warning' : 'callout'} role={status.exceeded || status.warning ? 'alert' : undefined} data-testid="budget-status">
      <p>
        <strong>{status.exceeded ? 'Monthly budget reached. ' : status.warning ? 'Most of the monthly budget is spent. ' : ''}</strong>
        {line}.{' '}
        {status.exceeded
          ? `New runs are refused and running ones stopped until ${formatDate(status.resetsAt)}, unless an owner or admin raises the budget.`
          : `Runs stop when it is spent; it starts again on ${formatDate(status.resetsAt)}.`}
      </p>
      <meter min={0} max={1} low={BUDGET_LIMITS.warnShare} high={0.999} optimum={0} value={share} aria-label="Share of the budget spent" />
    </div>
  );
}

function BudgetForm({ base, status, onSaved }: { base: string; status: TeamBudgetStatus | null; onSaved: () => void }) {
  const [value, setValue] = useState('');
  const save = useAction();
  const submit = (body: { monthlyUsd: number | null }) =>
    void save.run(async () => {
      await api.put(`${base}/budget`, body);
      setValue('');
      onSaved();
    });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit({ monthlyUsd: Number(value) });
  };
  return (
    <>
      <form onSubmit={onSubmit} className="form form-inline" aria-label="Monthly budget">
        <Field
          id="budget-usd"
          label="Monthly budget (USD)"
          type="number"
          min={0}
          max={BUDGET_LIMITS.maxMonthlyUsd}
          step="0.01"
          required
          placeholder={status?.monthlyUsd != null ? String(status.monthlyUsd) : 'e.g. 250'}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <SubmitButton pending={save.pending} pendingLabel="Saving…">
          {status?.monthlyUsd != null ? 'Change budget' : 'Set budget'}
        </SubmitButton>
        {status?.monthlyUsd != null ? (
          <button type="button" className="button" onClick={() => submit({ monthlyUsd: null })} disabled={save.pending}>
            Remove budget
          </button>
        ) : null}
      </form>
      <FormError message={save.error} />
    </>
  );
}

function Breakdown({ label, rows }: { label: string; rows: UsageBreakdownRow[] }) {
  if (!rows.length) return null;
  return (
    <DataTable label={label} columns={[label.replace(/^By /, '').replace(/^./, (c) => c.toUpperCase()), 'Runs', 'Requests', 'Prompt tokens', 'Cache hits', 'Cost']}>
      {rows.map((r) => (
        <tr key={r.key}>
          <th scope="row">{r.label}</th>
          <td>{r.runs}</td>
          <td>{r.requests}</td>
          <td>{formatTokens(r.promptTokens)}</td>
          <td>{formatRatio(r.cacheHitRatio)}</td>
          <td>{formatUsd(r.costUsd)}</td>
        </tr>
      ))}
    </DataTable>
  );
}
