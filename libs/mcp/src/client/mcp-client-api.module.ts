import { Module } from '@nestjs/common';
import { IdentityModule } from '@h/identity';
import { ProviderSecretsModule } from '@h/providers';
import { McpServerController } from './mcp-server.controller';
import { McpServerService } from './mcp-server.service';

/** The api side of external MCP servers: their configuration REST routes. It never connects to one. */
@Module({
  imports: [IdentityModule, ProviderSecretsModule],
  controllers: [McpServerController],
  providers: [McpServerService],
})
export class McpClientApiModule {}
