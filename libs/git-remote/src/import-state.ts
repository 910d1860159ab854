import { Injectable } from '@nestjs/common';
import { stat } from 'node:fs/promises';
import { AppConfig } from '@h/config';
import { WorkspaceGitRemoteRepository } from '@h/db';
import { importSpoolFile } from './git-paths';

/** Whether a workspace still waits for its files: an uploaded archive not unpacked, or a clone not done. */
@Injectable()
export class ImportState {
  constructor(
    private readonly config: AppConfig,
    private readonly remotes: WorkspaceGitRemoteRepository,
  ) {}

  async pending(workspaceId: string): Promise<boolean> {
    if (await stat(importSpoolFile(this.config, workspaceId)).then(() => true, () => false)) return true;
    const remote = await this.remotes.findStatus(workspaceId);
    return !!remote && !remote.clonedAt;
  }
}
