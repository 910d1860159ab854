import { Injectable, Logger } from '@nestjs/common';
import { WorkspaceRepository } from '@h/db';
import { JobName, JobPayload, OnJob } from '@h/jobs';

// Runs in the worker. Today it records the workspace as set up; provisioning its sandbox joins
// this job when sandboxes are wired in, so the path API -> queue -> worker -> database is the one
// every later job uses.
@Injectable()
export class WorkspaceSetupJob {
  private readonly logger = new Logger(WorkspaceSetupJob.name);

  constructor(private readonly workspaces: WorkspaceRepository) {}

  @OnJob(JobName.WorkspaceSetup)
  async handle({ workspaceId }: JobPayload<JobName.WorkspaceSetup>): Promise<void> {
    const workspace = await this.workspaces.findById(workspaceId);
    if (!workspace) {
      this.logger.warn({ workspaceId }, 'workspace deleted before setup; nothing to do');
      return;
    }
    if (workspace.status === 'ready') return;
    await this.workspaces.markSetUp(workspaceId, 'ready', null);
    this.logger.log({ workspaceId, teamId: workspace.teamId }, 'workspace set up');
  }
}
