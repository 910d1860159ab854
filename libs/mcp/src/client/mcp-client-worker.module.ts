import { Module } from '@nestjs/common';
import { EgressModule } from '@h/egress';
import { ProviderSecretsModule } from '@h/providers';
import { SandboxLifecycleModule } from '@h/workspaces';
import { McpCheckJob } from './mcp-check.job';
import { McpConnector } from './mcp-connector.service';

/** The worker side of external MCP servers: connecting to them for a run or a check (stdio in the sandbox, http through egress). */
@Module({
  imports: [ProviderSecretsModule, EgressModule, SandboxLifecycleModule],
  providers: [McpConnector, McpCheckJob],
  exports: [McpConnector],
})
export class McpClientWorkerModule {}
