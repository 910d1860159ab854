// Calendar months (UTC) as budgets and usage reports count them, and how a budget status reads.
import { BUDGET_LIMITS, type TeamBudgetStatus } from '@h/contracts';

export interface MonthRange {
  /** e.g. 2026-12 */
  month: string;
  from: Date;
  to: Date;
}

/** The month `month` names (YYYY-MM), or the one `now` is in. */
export function monthRange(now: Date, month?: string): MonthRange {
  const [year, mon] = month ? month.split('-').map(Number) : [now.getUTCFullYear(), now.getUTCMonth() + 1];
  return { month: `${year}-${String(mon).padStart(2, '0')}`, from: new Date(Date.UTC(year, mon - 1, 1)), to: new Date(Date.UTC(year, mon, 1)) };
}

export function budgetStatus(range: MonthRange, monthlyUsd: number | null, spentUsd: number): TeamBudgetStatus<Date> {
  const exceeded = monthlyUsd !== null && spentUsd >= monthlyUsd;
  return {
    month: range.month,
    monthlyUsd,
    spentUsd,
    remainingUsd: monthlyUsd === null ? null : Math.max(0, monthlyUsd - spentUsd),
    exceeded,
    warning: monthlyUsd !== null && (exceeded || spentUsd >= monthlyUsd * BUDGET_LIMITS.warnShare),
    resetsAt: range.to,
  };
}

const usd = (n: number) => `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`;

/** What a refused or stopped run tells people: where the team stands and what unblocks it. */
export function budgetExceededMessage(status: TeamBudgetStatus<Date>): string {
  const day = status.resetsAt.toISOString().slice(0, 10);
  return `The team's monthly budget of ${usd(status.monthlyUsd ?? 0)} is spent (${usd(status.spentUsd)} in ${status.month}). Runs start again on ${day}, or as soon as a team owner or admin raises the budget on the team page.`;
}
