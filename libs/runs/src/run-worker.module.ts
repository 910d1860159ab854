import { Module } from '@nestjs/common';
import { McpClientWorkerModule } from '@h/mcp';
import { MemoryWorkerModule } from '@h/memory';
import { ProviderSecretsModule } from '@h/providers';
import { SessionSearchCoreModule } from '@h/session-search';
import { SandboxLifecycleModule } from '@h/workspaces';
import { AgentRunJob } from './agent-run.job';
import { RunEventSink } from './run-event-sink';
import { RunSegmentHooks } from './run-segment-hooks';
import { RunConclusion } from './run-conclusion.service';
import { ClaudeCodeRunner } from './claude-code-run';
import { RunSweeper } from './run-sweeper.service';
import { RunMemory } from './run-memory';
import { RunsModule } from './runs.module';

/** The worker side of agent runs: the run job and the admission sweep (sandboxes: SandboxLifecycleModule). */
@Module({
  imports: [RunsModule, ProviderSecretsModule, SandboxLifecycleModule, McpClientWorkerModule, MemoryWorkerModule, SessionSearchCoreModule],
  providers: [AgentRunJob, ClaudeCodeRunner, RunSweeper, RunMemory, RunEventSink, RunSegmentHooks, RunConclusion],
})
export class RunWorkerModule {}
