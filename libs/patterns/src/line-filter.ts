import { MatchBudget } from './match-budget';
import { MATCH_BUDGET_MS } from './pattern-limits';
import type { LinearPattern } from './user-pattern';

export interface LineFilterResult {
  /** Indexes (0-based) of the matching lines among those scanned. */
  matches: number[];
  /** Lines looked at; less than `lines.length` when the budget ran out. */
  scanned: number;
  complete: boolean;
}

/**
 * The lines that match, scanned in order under a wall-clock budget with regular yields, so a
 * megabyte of output costs at most about `budgetMs` and never holds the event loop for long.
 */
export async function filterLines(
  lines: readonly string[],
  pattern: LinearPattern,
  budgetMs: number = MATCH_BUDGET_MS,
): Promise<LineFilterResult> {
  const budget = new MatchBudget(budgetMs);
  const matches: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (budget.expired) return { matches, scanned: i, complete: false };
    if (pattern.test(lines[i])) matches.push(i);
    await budget.pace();
  }
  return { matches, scanned: lines.length, complete: true };
}
