import { Module } from '@nestjs/common';
import { EgressModule } from '@h/egress';
import { ProviderSecretsModule } from '@h/providers';
import { RunsModule } from '@h/runs';
import { AgentRunJob } from './agent-run.job';
import { RunSweeper } from './run-sweeper.service';
import { SandboxManager } from './sandbox-manager.service';
import { WorkspaceLifecycleJob } from './workspace-lifecycle.job';

/** The worker side of agent runs and workspaces: run job, sandbox lifecycle, admission sweep. */
@Module({
  imports: [RunsModule, ProviderSecretsModule, EgressModule],
  providers: [AgentRunJob, SandboxManager, RunSweeper, WorkspaceLifecycleJob],
  exports: [SandboxManager],
})
export class RunnerModule {}
