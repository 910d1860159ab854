import { Module } from '@nestjs/common';
import { FilesModule } from '@h/files';
import { IdentityModule } from '@h/identity';
import { GitDiffService } from './git-diff.service';
import { GitRunner } from './git-runner.service';
import { ScmController } from './scm.controller';
import { ScmService } from './scm.service';

/**
 * Source Control in the api process. git runs in the workspace's sandbox through the file API's
 * sandbox connection (FileSandboxService: one SandboxManager in the api role, shared).
 */
@Module({
  imports: [IdentityModule, FilesModule],
  controllers: [ScmController],
  providers: [GitRunner, ScmService, GitDiffService],
  exports: [ScmService],
})
export class ScmModule {}
