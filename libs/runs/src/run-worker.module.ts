import { Module } from '@nestjs/common';
import { ProviderSecretsModule } from '@h/providers';
import { SandboxLifecycleModule } from '@h/workspaces';
import { AgentRunJob } from './agent-run.job';
import { RunSweeper } from './run-sweeper.service';
import { RunsModule } from './runs.module';

/** The worker side of agent runs: the run job and the admission sweep (sandboxes: SandboxLifecycleModule). */
@Module({
  imports: [RunsModule, ProviderSecretsModule, SandboxLifecycleModule],
  providers: [AgentRunJob, RunSweeper],
})
export class RunWorkerModule {}
