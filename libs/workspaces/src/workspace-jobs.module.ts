import { Module } from '@nestjs/common';
import { WorkspaceSetupJob } from './workspace-setup.job';

/** The worker side of workspaces: job handlers only, no HTTP. */
@Module({ providers: [WorkspaceSetupJob], exports: [WorkspaceSetupJob] })
export class WorkspaceJobsModule {}
