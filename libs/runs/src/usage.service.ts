import { Injectable } from '@nestjs/common';
import { cacheHitRatio, type TeamBudgetStatus, type TeamUsageReport, type UsageBreakdownRow } from '@h/contracts';
import { RunRepository, TeamBudgetRepository, type UsageGroupRow } from '@h/db';
import { AppException } from '@h/http';
import { AuditService, type Principal } from '@h/identity';
import { TeamBudgetService } from './budget/team-budget.service';
import { budgetStatus, monthRange } from './budget/budget-month';

const withRatio = (r: UsageGroupRow): UsageBreakdownRow => ({ ...r, cacheHitRatio: cacheHitRatio(r) });

/** Every day of the month, with the days that had runs filled in (a chart's fixed axis). */
function allDays(from: Date, to: Date, rows: UsageGroupRow[]): UsageBreakdownRow[] {
  const byDay = new Map(rows.map((r) => [r.key, r]));
  const days: UsageBreakdownRow[] = [];
  for (let t = from.getTime(); t < to.getTime(); t += 86_400_000) {
    const key = new Date(t).toISOString().slice(0, 10);
    const row = byDay.get(key);
    days.push(row ? withRatio(row) : { key, label: key, runs: 0, requests: 0, promptTokens: 0, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0, reasoningTokens: 0, costUsd: 0, cacheHitRatio: null });
  }
  return days;
}

@Injectable()
export class UsageService {
  constructor(
    private readonly runs: RunRepository,
    private readonly budgets: TeamBudgetRepository,
    private readonly budget: TeamBudgetService,
    private readonly audit: AuditService,
  ) {}

  /** Sets (or, with null, removes) the team's monthly budget; audited. */
  async setBudget(principal: Principal, teamId: string, monthlyUsd: number | null, ip: string | null): Promise<TeamBudgetStatus<Date>> {
    await this.budgets.setMonthly(teamId, monthlyUsd);
    await this.audit.byPrincipal(principal, { action: 'team.budget.set', teamId, targetType: 'team', targetId: teamId, ip, metadata: { monthlyUsd } });
    return this.budget.status(teamId);
  }

  /**
   * Usage and cost of the team's runs created in one calendar month (UTC): the totals, the budget
   * against them, and the same sums per user, workspace, model and day (each set of rows adds up
   * to the totals).
   */
  async teamMonth(teamId: string, month?: string, now = new Date()): Promise<TeamUsageReport<Date>> {
    const range = monthRange(now, month);
    const [usage, state, byUser, byWorkspace, byModel, byDay] = await Promise.all([
      this.runs.teamUsage(teamId, range.from, range.to),
      this.budgets.state(teamId, range.from, range.to),
      this.budgets.grouped(teamId, range.from, range.to, 'user'),
      this.budgets.grouped(teamId, range.from, range.to, 'workspace'),
      this.budgets.grouped(teamId, range.from, range.to, 'model'),
      this.budgets.grouped(teamId, range.from, range.to, 'day'),
    ]);
    if (!state) throw AppException.notFound('Team');
    return {
      month: range.month,
      ...usage,
      cacheHitRatio: cacheHitRatio(usage),
      budget: budgetStatus(range, state.monthlyUsd, usage.costUsd),
      byUser: byUser.map(withRatio),
      byWorkspace: byWorkspace.map(withRatio),
      byModel: byModel.map(withRatio),
      byDay: allDays(range.from, range.to, byDay),
    };
  }
}
