import { Injectable, Logger, Optional } from '@nestjs/common';
import type { WorkspaceStatus } from '@h/contracts';
import { EventBusRepository, QuotaExceededError, WorkspaceRepository } from '@h/db';
import { JobName, JobPayload, OnJob } from '@h/jobs';
import { SandboxManager } from './sandbox-manager.service';
import { WorkspaceImporter } from './workspace-import.port';

// A new workspace gets its sandbox right away (from the warm pool when one is ready), so the first
// agent run does not wait for a container; a deleted one has its container and volume removed.
@Injectable()
export class WorkspaceLifecycleJob {
  private readonly logger = new Logger(WorkspaceLifecycleJob.name);

  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly sandboxes: SandboxManager,
    private readonly bus: EventBusRepository,
    // libs/git-remote's worker module provides it; without it workspaces start empty.
    @Optional() private readonly importer?: WorkspaceImporter,
  ) {}

  @OnJob(JobName.WorkspaceSetup)
  async setup({ workspaceId }: JobPayload<JobName.WorkspaceSetup>): Promise<void> {
    const workspace = await this.workspaces.findById(workspaceId);
    if (!workspace) {
      this.logger.warn({ workspaceId }, 'workspace deleted before setup; nothing to do');
      return;
    }
    if (workspace.status === 'ready') return;
    let opened: Awaited<ReturnType<SandboxManager['open']>>;
    try {
      opened = await this.sandboxes.open(workspace);
    } catch (err) {
      if (err instanceof QuotaExceededError && (await this.importer?.pending(workspaceId))) {
        // Files to bring in need the sandbox now: say so, and let the user retry once one is free.
        await this.settle(workspaceId, 'error', `${err.message} Then retry the setup: the files are brought in once a sandbox can start.`);
        return;
      }
      if (err instanceof QuotaExceededError) {
        // Not an error of the workspace: its sandbox starts on first use, within the quota then.
        this.logger.log({ workspaceId, teamId: workspace.teamId }, 'sandbox not started ahead: the team is at its running-sandbox quota');
        await this.settle(workspaceId, 'ready', null);
        return;
      }
      // Docker's and the build's own words go to the log; users get what happened and what to do.
      this.logger.error({ workspaceId, err }, 'sandbox setup failed');
      await this.settle(workspaceId, 'error', 'The sandbox could not be started. H retries on its own; if this stays, an admin can find the cause in the worker log.');
      throw err; // retried with backoff; a later attempt sets it ready
    }
    if (this.importer && (await this.importer.pending(workspaceId))) {
      // A clone or an uploaded archive: the workspace stays provisioning, its message shows progress.
      const progress = (message: string) =>
        void this.workspaces
          .setStatusMessage(workspaceId, message)
          .then(() => this.announce(workspaceId, 'provisioning', message))
          .catch((err) => this.logger.warn({ err, workspaceId }, 'could not record import progress'));
      const problem = await this.importer.run(workspace, opened.record, progress).catch(async (err) => {
        this.logger.error({ workspaceId, err }, 'workspace import failed');
        await this.settle(workspaceId, 'error', 'The files could not be brought into the workspace. H retries on its own; if this stays, an admin can find the cause in the worker log.');
        throw err;
      });
      if (problem) {
        // The user's to fix (token, branch, URL): retrying the same job would only fail again.
        await this.settle(workspaceId, 'error', problem);
        return;
      }
    }
    await this.settle(workspaceId, 'ready', null);
    this.logger.log({ workspaceId, teamId: workspace.teamId }, 'workspace set up');
  }

  /** Records how the setup ended and tells the api processes (the pages watching it hear at once). */
  private async settle(workspaceId: string, status: WorkspaceStatus, statusMessage: string | null): Promise<void> {
    await this.workspaces.markSetUp(workspaceId, status, statusMessage);
    await this.announce(workspaceId, status, statusMessage);
  }

  /** Progress is news, not state: a lost message only delays a page until its next reload. */
  private async announce(workspaceId: string, status: WorkspaceStatus, statusMessage: string | null): Promise<void> {
    await this.bus.publishWorkspaceStatus({ workspaceId, status, statusMessage }).catch((err) => this.logger.warn({ err, workspaceId }, 'could not announce the workspace status'));
  }

  @OnJob(JobName.WorkspaceTeardown)
  async teardown({ workspaceId, record }: JobPayload<JobName.WorkspaceTeardown>): Promise<void> {
    const parsed = record ? this.sandboxes.parseRecord(record) : null;
    if (!parsed) return;
    await this.sandboxes.teardown(parsed);
    this.logger.log({ workspaceId }, 'workspace sandbox removed');
  }
}
