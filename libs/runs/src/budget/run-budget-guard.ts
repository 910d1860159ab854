import { RunStop } from '@h/agent';
import type { TeamBudgetService } from './team-budget.service';

/** How old the "has a budget" answer may get before it is read again. */
export const BUDGET_RECHECK_MS = 10_000;

/**
 * Stops a running run once its team's monthly budget is spent: after each model request's usage
 * (checked before the request's tool calls run), the run's usage is persisted and the team's spend
 * read back; at the budget the run is aborted with a RunStop, so the engine ends it as failed with
 * BUDGET_EXCEEDED and a message saying when runs start again and who can raise the budget.
 * Whether the team has a budget is read when the segment starts (beside the run's other reads) and
 * again in the background once BUDGET_RECHECK_MS old, so a team without one costs no query on a
 * model request's path (bench/runs: a round trip there held back the next call's events by
 * 1.5–3 ms a step); a budget set while a run is going applies from that re-read on.
 */
export class RunBudgetGuard {
  private stopped = false;
  private known: Promise<boolean>;
  private knownAt = Date.now();

  constructor(
    private readonly budget: TeamBudgetService,
    private readonly teamId: string,
    private readonly controller: AbortController,
  ) {
    this.known = this.read();
  }

  /** `flush` persists the events (and usage) recorded so far. */
  async afterUsage(flush: () => Promise<void>): Promise<void> {
    if (this.stopped || this.controller.signal.aborted) return;
    if (Date.now() - this.knownAt >= BUDGET_RECHECK_MS) {
      const next = this.read();
      this.knownAt = Date.now();
      // The answer in hand serves this request; the new one the next.
      void next.then((has) => (this.known = Promise.resolve(has)));
    }
    if (!(await this.known)) return;
    await flush();
    const reason = await this.budget.stopReason(this.teamId);
    if (!reason) return;
    this.stopped = true;
    this.controller.abort(new RunStop('BUDGET_EXCEEDED', reason));
  }

  // A failed read counts as "has a budget": the state read after the flush then decides.
  private read(): Promise<boolean> {
    return this.budget.hasBudget(this.teamId).catch(() => true);
  }

  /** The budget stopped this run (the engine, or the Claude Code runner, ends it as cancelled otherwise). */
  get reason(): RunStop | null {
    const r: unknown = this.controller.signal.reason;
    return this.stopped && r instanceof RunStop ? r : null;
  }
}
