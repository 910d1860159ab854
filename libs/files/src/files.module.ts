import { Module } from '@nestjs/common';
import { EgressModule } from '@h/egress';
import { UploadBodyInterceptor } from '@h/http';
import { IdentityModule } from '@h/identity';
import { SANDBOX_MANAGER_ROLE, SandboxManager, type SandboxManagerRole } from '@h/workspaces';
import { FileSandboxService } from './file-sandbox.service';
import { FilesController } from './files.controller';
import { FilesGateway } from './files.gateway';
import { FilesService } from './files.service';
import { FilesWatchHub } from './files-watch.hub';

/**
 * The file API and live files, in the api process. It reaches sandboxes through its own
 * SandboxManager in the `api` role (no reconcile, no warm pool): the worker still owns their
 * lifecycle. The workspace resolver for @Access comes from WorkspacesModule.
 */
@Module({
  imports: [IdentityModule, EgressModule],
  controllers: [FilesController],
  providers: [
    { provide: SANDBOX_MANAGER_ROLE, useValue: 'api' satisfies SandboxManagerRole },
    SandboxManager,
    FileSandboxService,
    FilesWatchHub,
    FilesService,
    FilesGateway,
    UploadBodyInterceptor,
  ],
  // FileSandboxService: libs/changes restores the agent's changes and forks restore checkpoints through it.
  exports: [FilesService, FileSandboxService],
})
export class FilesModule {}
