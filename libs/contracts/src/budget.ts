// A team's monthly budget and the usage reports behind it (issue 15): what the api answers, the web
// draws and the worker enforces. Costs are US dollars as the model catalog prices them, cache-aware
// (prompt tokens served from the provider's prefix cache are priced as hits).
import type { Usage } from './agent-events';

export const BUDGET_LIMITS = {
  /** The largest monthly budget a team may set, in dollars. */
  maxMonthlyUsd: 1_000_000,
  /** From this share of the budget on, the team page warns its owners. */
  warnShare: 0.8,
} as const;

/**
 * Where a team stands against its budget in one calendar month (UTC). A month's spend is the cost
 * of the runs created in it (a run that crosses midnight of the 1st counts where it started).
 */
export interface TeamBudgetStatus<D = string> {
  /** Calendar month, e.g. 2026-12. */
  month: string;
  /** null: no budget (runs are limited only by the quotas). */
  monthlyUsd: number | null;
  spentUsd: number;
  /** null without a budget; never below 0. */
  remainingUsd: number | null;
  /** The spend reached the budget: new runs are refused and running ones stopped. */
  exceeded: boolean;
  /** The spend reached BUDGET_LIMITS.warnShare of the budget. */
  warning: boolean;
  /** When the month ends and the spend starts again from 0. */
  resetsAt: D;
}

export interface SetTeamBudget {
  /** Dollars per calendar month; null removes the budget. */
  monthlyUsd: number | null;
}

/** One line of a usage breakdown: a user, a workspace, a model or a day of the month. */
export interface UsageBreakdownRow extends Usage {
  /** The user's, workspace's or model's id, or the day (YYYY-MM-DD). */
  key: string;
  /** What people read: a name, a model id, the day. */
  label: string;
  runs: number;
  /** Cache hits over prompt tokens (0–1); null when there were none. */
  cacheHitRatio: number | null;
}

export interface TeamUsageReport<D = string> extends Usage {
  month: string;
  runs: number;
  cacheHitRatio: number | null;
  budget: TeamBudgetStatus<D>;
  byUser: UsageBreakdownRow[];
  byWorkspace: UsageBreakdownRow[];
  byModel: UsageBreakdownRow[];
  /** Every day of the month, zero rows included, oldest first. */
  byDay: UsageBreakdownRow[];
}

/** The cache-hit ratio of a usage line: hits over prompt tokens, or null without prompt tokens. */
export function cacheHitRatio(u: Pick<Usage, 'cacheHitTokens' | 'promptTokens'>): number | null {
  return u.promptTokens > 0 ? u.cacheHitTokens / u.promptTokens : null;
}
