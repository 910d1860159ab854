import { Module } from '@nestjs/common';
import { EgressModule } from '@h/egress';
import { SandboxManager } from './sandbox-manager.service';
import { SandboxMetrics } from './sandbox-metrics';
import { WorkspaceLifecycleJob } from './workspace-lifecycle.job';

/**
 * The worker side of workspaces: each workspace's sandbox (started, pooled, reconciled at boot,
 * removed) through the drivers of @h/sandbox. The api never imports it: it starts no driver.
 */
@Module({
  imports: [EgressModule],
  providers: [SandboxManager, SandboxMetrics, WorkspaceLifecycleJob],
  exports: [SandboxManager],
})
export class SandboxLifecycleModule {}
