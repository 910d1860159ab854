import { Injectable, Logger } from '@nestjs/common';
import { QuotaExceededError, WorkspaceRepository } from '@h/db';
import { JobName, JobPayload, OnJob } from '@h/jobs';
import { SandboxManager } from './sandbox-manager.service';

// A new workspace gets its sandbox right away (from the warm pool when one is ready), so the first
// agent run does not wait for a container; a deleted one has its container and volume removed.
@Injectable()
export class WorkspaceLifecycleJob {
  private readonly logger = new Logger(WorkspaceLifecycleJob.name);

  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly sandboxes: SandboxManager,
  ) {}

  @OnJob(JobName.WorkspaceSetup)
  async setup({ workspaceId }: JobPayload<JobName.WorkspaceSetup>): Promise<void> {
    const workspace = await this.workspaces.findById(workspaceId);
    if (!workspace) {
      this.logger.warn({ workspaceId }, 'workspace deleted before setup; nothing to do');
      return;
    }
    if (workspace.status === 'ready') return;
    try {
      await this.sandboxes.open(workspace);
    } catch (err) {
      if (err instanceof QuotaExceededError) {
        // Not an error of the workspace: its sandbox starts on first use, within the quota then.
        this.logger.log({ workspaceId, teamId: workspace.teamId }, 'sandbox not started ahead: the team is at its running-sandbox quota');
        await this.workspaces.markSetUp(workspaceId, 'ready', null);
        return;
      }
      // Docker's and the build's own words go to the log; users get what happened and what to do.
      this.logger.error({ workspaceId, err }, 'sandbox setup failed');
      await this.workspaces.markSetUp(workspaceId, 'error', 'The sandbox could not be started. H retries on its own; if this stays, an admin can find the cause in the worker log.');
      throw err; // retried with backoff; a later attempt sets it ready
    }
    await this.workspaces.markSetUp(workspaceId, 'ready', null);
    this.logger.log({ workspaceId, teamId: workspace.teamId }, 'workspace set up');
  }

  @OnJob(JobName.WorkspaceTeardown)
  async teardown({ workspaceId, record }: JobPayload<JobName.WorkspaceTeardown>): Promise<void> {
    const parsed = record ? this.sandboxes.parseRecord(record) : null;
    if (!parsed) return;
    await this.sandboxes.teardown(parsed);
    this.logger.log({ workspaceId }, 'workspace sandbox removed');
  }
}
