import { HttpStatus, Injectable } from '@nestjs/common';
import type { TeamBudgetStatus } from '@h/contracts';
import { TeamBudgetRepository } from '@h/db';
import { AppException } from '@h/http';
import { budgetExceededMessage, budgetStatus, monthRange } from './budget-month';

/**
 * A team's monthly budget: read by the team page, checked before a run is created (402
 * BUDGET_EXCEEDED) and by the worker after each model request (the run stops with that code).
 * Both read the spend from Postgres, so every api and worker replica agrees, and a raised budget
 * takes effect at the next check.
 */
@Injectable()
export class TeamBudgetService {
  constructor(private readonly budgets: TeamBudgetRepository) {}

  async status(teamId: string, month?: string, now = new Date()): Promise<TeamBudgetStatus<Date>> {
    const range = monthRange(now, month);
    const state = await this.budgets.state(teamId, range.from, range.to);
    if (!state) throw AppException.notFound('Team');
    return budgetStatus(range, state.monthlyUsd, state.spentUsd);
  }

  /** Throws 402 BUDGET_EXCEEDED when the team's budget for this month is spent. */
  async assertCanStart(teamId: string): Promise<void> {
    const range = monthRange(new Date());
    const state = await this.budgets.state(teamId, range.from, range.to, { budgetedOnly: true });
    if (!state) throw AppException.notFound('Team');
    const status = budgetStatus(range, state.monthlyUsd, state.spentUsd);
    if (status.exceeded) throw new AppException(HttpStatus.PAYMENT_REQUIRED, 'BUDGET_EXCEEDED', budgetExceededMessage(status));
  }

  /** Whether the team has a monthly budget at all (the worker's cheap check before it flushes). */
  async hasBudget(teamId: string): Promise<boolean> {
    return (await this.budgets.monthly(teamId)) !== null;
  }

  /** Why a running run must stop now (its team's budget is spent), or null. */
  async stopReason(teamId: string): Promise<string | null> {
    const range = monthRange(new Date());
    const state = await this.budgets.state(teamId, range.from, range.to);
    if (!state || state.monthlyUsd === null) return null;
    const status = budgetStatus(range, state.monthlyUsd, state.spentUsd);
    return status.exceeded ? budgetExceededMessage(status) : null;
  }
}
