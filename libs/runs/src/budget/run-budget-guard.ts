import { RunStop } from '@h/agent';
import type { TeamBudgetService } from './team-budget.service';

/**
 * Stops a running run once its team's monthly budget is spent: after each model request's usage
 * (checked before the request's tool calls run), the run's usage is persisted and the team's spend
 * read back; at the budget the run is aborted with a RunStop, so the engine ends it as failed with
 * BUDGET_EXCEEDED and a message saying when runs start again and who can raise the budget.
 * A team without a budget costs one small query per model request and no flush.
 */
export class RunBudgetGuard {
  private stopped = false;

  constructor(
    private readonly budget: TeamBudgetService,
    private readonly teamId: string,
    private readonly controller: AbortController,
  ) {}

  /** `flush` persists the events (and usage) recorded so far. */
  async afterUsage(flush: () => Promise<void>): Promise<void> {
    if (this.stopped || this.controller.signal.aborted) return;
    if (!(await this.budget.hasBudget(this.teamId))) return;
    await flush();
    const reason = await this.budget.stopReason(this.teamId);
    if (!reason) return;
    this.stopped = true;
    this.controller.abort(new RunStop('BUDGET_EXCEEDED', reason));
  }

  /** The budget stopped this run (the engine, or the Claude Code runner, ends it as cancelled otherwise). */
  get reason(): RunStop | null {
    const r: unknown = this.controller.signal.reason;
    return this.stopped && r instanceof RunStop ? r : null;
  }
}
