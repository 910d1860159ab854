import { Module } from '@nestjs/common';
import { ProviderSecretsModule } from '@h/providers';
import { RunsModule } from '@h/runs';
import { AgentRunJob } from './agent-run.job';
import { RunSweeper } from './run-sweeper.service';
import { SandboxManager } from './sandbox-manager.service';

/** The worker side of agent runs: the run job, sandboxes, and the admission sweep. */
@Module({
  imports: [RunsModule, ProviderSecretsModule],
  providers: [AgentRunJob, SandboxManager, RunSweeper],
  exports: [SandboxManager],
})
export class RunnerModule {}
