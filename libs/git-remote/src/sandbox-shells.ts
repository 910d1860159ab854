import { Injectable, Logger } from '@nestjs/common';
import { QuotaExceededError, type WorkspaceRecord } from '@h/db';
import { AppException } from '@h/http';
import { quotaExceeded } from '@h/identity';
import { isSandboxHostError, type SandboxRecord } from '@h/sandbox';
import { SandboxManager } from '@h/workspaces';
import { SandboxShell } from './sandbox-shell';

/** Shells into sandboxes, each through the Docker engine its sandbox lives on (SandboxManager.dockerFor). */
@Injectable()
export class SandboxShells {
  private readonly logger = new Logger(SandboxShells.name);

  constructor(private readonly manager: SandboxManager) {}

  async for(record: SandboxRecord): Promise<SandboxShell> {
    return new SandboxShell(record, await this.manager.dockerFor(record));
  }

  /** The running sandbox of a workspace (started on demand) as a shell; quota and start failures as the API's errors. */
  async open(workspace: WorkspaceRecord): Promise<SandboxShell> {
    try {
      return await this.for((await this.manager.open(workspace)).record);
    } catch (err) {
      if (err instanceof QuotaExceededError) throw quotaExceeded(err);
      if (isSandboxHostError(err)) throw new AppException(503, err.code, err.message);
      this.logger.error({ err, workspaceId: workspace.id }, 'sandbox could not be opened');
      throw new AppException(503, 'SANDBOX_UNAVAILABLE', 'The workspace sandbox could not be started; try again in a moment.');
    }
  }
}
