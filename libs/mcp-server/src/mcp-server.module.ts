import { Module } from '@nestjs/common';
import { FilesModule } from '@h/files';
import { IdentityModule } from '@h/identity';
import { ScmModule } from '@h/scm';
import { McpController } from './mcp.controller';
import { McpGrantService } from './mcp-grant.service';
import { McpHttpMethods } from './mcp-http-methods';
import { McpRequestInterceptor } from './mcp-request.interceptor';
import { McpServerService } from './mcp-server.service';

/**
 * H as an MCP server, in the api process. Sandboxes through the file API's connection
 * (FilesModule's FileSandboxService, an api-role SandboxManager) and git through Source Control's
 * services (ScmModule), so there is one way into a workspace and one git runner.
 */
@Module({
  imports: [IdentityModule, FilesModule, ScmModule],
  controllers: [McpController],
  providers: [McpGrantService, McpRequestInterceptor, McpServerService, McpHttpMethods],
})
export class McpServerModule {}
