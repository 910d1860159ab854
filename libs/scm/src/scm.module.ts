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
  // GitDiffService: the MCP server's git_diff tool (libs/mcp) shows the same patch as the IDE.
  exports: [ScmService, GitDiffService],
})
export class ScmModule {}
