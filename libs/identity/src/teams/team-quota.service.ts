import { Injectable } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { QuotaExceededError, quotaVariable, RunRepository, SandboxRepository, WorkspaceRepository } from '@h/db';
import { AppException } from '@h/http';
import type { TeamQuotasDto } from './team.dto';

/** The 4xx a quota refusal answers with: 409 for what the team keeps, 429 for what frees up by itself. */
export function quotaExceeded(err: QuotaExceededError): AppException {
  return new AppException(err.kind === 'workspaces' ? 409 : 429, 'QUOTA_EXCEEDED', err.message);
}

@Injectable()
export class TeamQuotaService {
  constructor(
    private readonly config: AppConfig,
    private readonly workspaces: WorkspaceRepository,
    private readonly sandboxes: SandboxRepository,
    private readonly runs: RunRepository,
  ) {}

  async describe(teamId: string): Promise<TeamQuotasDto> {
    const env = this.config.env;
    const [workspaces, runningSandboxes, activeRuns] = await Promise.all([
      this.workspaces.countByTeam(teamId),
      this.sandboxes.countRunning(teamId),
      this.runs.countForQuota(teamId),
    ]);
    const quota = (used: number, limit: number, kind: Parameters<typeof quotaVariable>[0]) => ({ used, limit, setting: quotaVariable(kind) });
    return {
      workspaces: quota(workspaces, env.TEAM_MAX_WORKSPACES, 'workspaces'),
      runningSandboxes: quota(runningSandboxes, env.TEAM_MAX_RUNNING_SANDBOXES, 'runningSandboxes'),
      activeRuns: quota(activeRuns, env.TEAM_MAX_ACTIVE_RUNS, 'activeRuns'),
    };
  }

  /**
   * Before a run is queued for a workspace whose sandbox is not running: a team already at its
   * running-sandbox quota is told now, instead of by a run that fails in the worker.
   */
  async assertSandboxCanStart(teamId: string, workspaceId: string): Promise<void> {
    if ((await this.sandboxes.find(workspaceId))?.status === 'running') return;
    const used = await this.sandboxes.countRunning(teamId, workspaceId);
    const limit = this.config.env.TEAM_MAX_RUNNING_SANDBOXES;
    if (used >= limit) throw quotaExceeded(new QuotaExceededError('runningSandboxes', used, limit));
  }
}
