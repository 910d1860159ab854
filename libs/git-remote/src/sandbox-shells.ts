import { Injectable, Logger } from '@nestjs/common';
import type Docker from 'dockerode';
import { AppConfig } from '@h/config';
import { QuotaExceededError, type WorkspaceRecord } from '@h/db';
import { AppException } from '@h/http';
import { quotaExceeded } from '@h/identity';
import { dockerClient, type SandboxRecord } from '@h/sandbox';
import { SandboxManager } from '@h/workspaces';
import { SandboxShell } from './sandbox-shell';

/** One Docker client per process for the shells of every sandbox (through DOCKER_HOST, the socket proxy in compose). */
@Injectable()
export class SandboxShells {
  private readonly logger = new Logger(SandboxShells.name);
  private docker: Docker | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly manager: SandboxManager,
  ) {}

  for(record: SandboxRecord): SandboxShell {
    if (record.driver === 'local') return new SandboxShell(record, null);
    this.docker ??= dockerClient(this.config.env.DOCKER_HOST);
    return new SandboxShell(record, this.docker);
  }

  /** The running sandbox of a workspace (started on demand) as a shell; quota and start failures as the API's errors. */
  async open(workspace: WorkspaceRecord): Promise<SandboxShell> {
    try {
      return this.for((await this.manager.open(workspace)).record);
    } catch (err) {
      if (err instanceof QuotaExceededError) throw quotaExceeded(err);
      this.logger.error({ err, workspaceId: workspace.id }, 'sandbox could not be opened');
      throw new AppException(503, 'SANDBOX_UNAVAILABLE', 'The workspace sandbox could not be started; try again in a moment.');
    }
  }
}
