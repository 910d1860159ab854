import { Injectable, Logger } from '@nestjs/common';
import { McpServerRepository, WorkspaceRepository } from '@h/db';
import { JobName, JobPayload, OnJob } from '@h/jobs';
import { SandboxManager } from '@h/workspaces';
import { McpConnector, type SandboxSpawn } from './mcp-connector.service';

/**
 * "Check now" from the IDE (POST …/mcp-servers/:id/check): connects to one server as a run would —
 * a stdio server in the workspace's sandbox (started if it was not), an http one through egress —
 * lists its tools, records the outcome as its status (McpConnector) and disconnects.
 */
@Injectable()
export class McpCheckJob {
  private readonly logger = new Logger(McpCheckJob.name);

  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly servers: McpServerRepository,
    private readonly sandboxes: SandboxManager,
    private readonly connector: McpConnector,
  ) {}

  @OnJob(JobName.McpServerCheck)
  async check({ workspaceId, serverId }: JobPayload<JobName.McpServerCheck>): Promise<void> {
    const [workspace, server] = await Promise.all([this.workspaces.findById(workspaceId), this.servers.findInWorkspace(workspaceId, serverId)]);
    if (!workspace || !server) return; // deleted meanwhile
    let spawn: SandboxSpawn = null;
    if (server.transport === 'stdio') {
      try {
        const { record } = await this.sandboxes.open(workspace);
        const driver = await this.sandboxes.driver();
        const start = driver.spawn?.bind(driver);
        spawn = start ? (options) => start(record, options) : null;
      } catch (err) {
        this.logger.warn({ workspaceId, server: server.name, err }, 'no sandbox for an MCP server check');
        const message = `MCP server "${server.name}" could not be checked: the workspace sandbox did not start (${(err as Error).message})`;
        await this.servers.recordStatus(workspaceId, serverId, server.updatedAt, { state: 'error', message, tools: [], toolCount: null });
        return;
      }
    }
    const connections = await this.connector.open({ workspace, spawn, serverIds: [serverId] });
    await connections.close();
  }
}
