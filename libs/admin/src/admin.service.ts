import { Injectable } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { InstanceRepository, quotaVariable, type QuotaKind } from '@h/db';
import { budgetStatus, monthRange } from '@h/runs';
import type { AdminSandboxListDto, AdminTeamListDto, InstanceQuotasDto } from './admin.dto';

const QUOTA_TEXT: Record<QuotaKind, string> = {
  workspaces: 'Workspaces a team may have',
  runningSandboxes: 'Sandboxes of one team running at once',
  activeRuns: 'Agent runs of one team queued or running at once (runs waiting for an approval do not count)',
};

@Injectable()
export class AdminService {
  constructor(
    private readonly config: AppConfig,
    private readonly instance: InstanceRepository,
  ) {}

  /** Every team with this month's runs and cost (UTC calendar month, as budgets count it). */
  async teams(now = new Date()): Promise<AdminTeamListDto> {
    const range = monthRange(now);
    const rows = await this.instance.teamsOverview(range.from, range.to);
    return {
      month: range.month,
      items: rows.map(({ monthlyBudgetUsd, ...team }) => ({ ...team, budget: budgetStatus(range, monthlyBudgetUsd, team.monthCostUsd) })),
    };
  }

  async runningSandboxes(): Promise<AdminSandboxListDto> {
    const rows = await this.instance.runningSandboxes();
    return { items: rows.map(({ status, updatedAt, ...rest }) => ({ ...rest, state: status, since: updatedAt })) };
  }

  quotas(): InstanceQuotasDto {
    const env = this.config.env;
    const quota = (kind: QuotaKind, limit: number) => ({ setting: quotaVariable(kind), limit, description: QUOTA_TEXT[kind] });
    return {
      workspaces: quota('workspaces', env.TEAM_MAX_WORKSPACES),
      runningSandboxes: quota('runningSandboxes', env.TEAM_MAX_RUNNING_SANDBOXES),
      activeRuns: quota('activeRuns', env.TEAM_MAX_ACTIVE_RUNS),
    };
  }
}
