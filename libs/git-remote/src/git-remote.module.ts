import { Global, Module } from '@nestjs/common';
import { EgressModule } from '@h/egress';
import { IdentityModule } from '@h/identity';
import { ProviderSecretsModule } from '@h/providers';
import { SANDBOX_MANAGER_ROLE, SandboxLifecycleModule, SandboxManager, WorkspaceImporter, WorkspacesModule, WorkspaceSourceStore, type SandboxManagerRole } from '@h/workspaces';
import { GitCredentialStore } from './git-credential.store';
import { GitRemoteController } from './git-remote.controller';
import { GitRemoteService } from './git-remote.service';
import { HostGit } from './host-git';
import { ImportState } from './import-state';
import { SandboxShells } from './sandbox-shells';
import { WorkspaceArchiveService } from './workspace-archive.service';
import { WorkspaceImportService } from './workspace-import.service';
import { WorkspaceStatusGateway } from './workspace-status.gateway';

/**
 * The api's side: archive upload and download, the git remote routes, setup progress over
 * Socket.IO (`workspace.watch`), and the store that
 * WorkspaceService uses for a git source (global: libs/workspaces does not import this lib). Its
 * own SandboxManager in the `api` role, like libs/files.
 */
@Global()
@Module({
  imports: [IdentityModule, EgressModule, ProviderSecretsModule, WorkspacesModule],
  controllers: [GitRemoteController],
  providers: [
    { provide: SANDBOX_MANAGER_ROLE, useValue: 'api' satisfies SandboxManagerRole },
    SandboxManager,
    GitCredentialStore,
    { provide: WorkspaceSourceStore, useExisting: GitCredentialStore },
    HostGit,
    ImportState,
    SandboxShells,
    GitRemoteService,
    WorkspaceArchiveService,
    WorkspaceStatusGateway,
  ],
  exports: [WorkspaceSourceStore],
})
export class GitRemoteModule {}

/** The worker's side: the setup job's importer (clone, unpack) through the worker's SandboxManager. */
@Global()
@Module({
  imports: [ProviderSecretsModule, SandboxLifecycleModule],
  providers: [GitCredentialStore, HostGit, ImportState, SandboxShells, WorkspaceImportService, { provide: WorkspaceImporter, useExisting: WorkspaceImportService }],
  exports: [WorkspaceImporter],
})
export class GitRemoteWorkerModule {}
