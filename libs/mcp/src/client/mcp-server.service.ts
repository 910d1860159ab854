import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { MCP_SERVERS_PER_WORKSPACE } from '@h/contracts';
import { McpServerNameTaken, McpServerRepository, type McpServerWrite } from '@h/db';
import { AppException } from '@h/http';
import { JobName, JobQueueService } from '@h/jobs';
import { AccessGrant, AuditService, Principal } from '@h/identity';
import { SecretBoxService } from '@h/providers';
import { sealMcpHeaders } from './mcp-headers-secret';
import { mcpConfigProblem } from './mcp-server-config';
import type { CreateMcpServerDto, McpServerDto, McpServerListDto, UpdateMcpServerDto } from './mcp-server.dto';

/**
 * A workspace's external MCP servers: configuration checked against its transport, http headers
 * sealed before they reach the repository (and never answered), changes audited. What a server
 * offers is found by connecting (McpConnector, in the worker); this side never connects.
 */
@Injectable()
export class McpServerService {
  constructor(
    private readonly servers: McpServerRepository,
    private readonly box: SecretBoxService,
    private readonly audit: AuditService,
    private readonly jobs: JobQueueService,
  ) {}

  async list(workspaceId: string): Promise<McpServerListDto> {
    return { items: await this.servers.listByWorkspace(workspaceId) };
  }

  async get(workspaceId: string, id: string): Promise<McpServerDto> {
    const server = await this.servers.findInWorkspace(workspaceId, id);
    if (!server) throw AppException.notFound('MCP server');
    return server;
  }

  async create(principal: Principal, access: AccessGrant, workspaceId: string, body: CreateMcpServerDto, ip: string | null): Promise<McpServerDto> {
    const transport = body.transport;
    const config = {
      transport,
      command: body.command ?? null,
      args: body.args ?? [],
      env: body.env ?? {},
      url: body.url ?? null,
      headers: body.headers ?? null,
      hasStoredHeaders: false,
    };
    this.validate(config);
    if ((await this.servers.countByWorkspace(workspaceId)) >= MCP_SERVERS_PER_WORKSPACE) {
      throw new AppException(409, 'MCP_SERVER_LIMIT', `A workspace keeps at most ${MCP_SERVERS_PER_WORKSPACE} MCP servers; remove one first.`);
    }
    const id = randomUUID();
    const created = await this.servers
      .create({
        id,
        workspaceId,
        createdById: principal.userId,
        name: body.name,
        transport,
        command: config.command,
        args: config.args,
        env: config.env,
        url: config.url,
        enabled: body.enabled ?? true,
        approval: body.approval ?? 'ask',
        headers: this.sealed(workspaceId, id, config.headers),
      })
      .catch(nameTaken);
    await this.audit.byPrincipal(principal, { action: 'mcp-server.create', teamId: access.teamId, targetType: 'mcp-server', targetId: id, ip });
    return created;
  }

  async update(principal: Principal, access: AccessGrant, workspaceId: string, id: string, body: UpdateMcpServerDto, ip: string | null): Promise<McpServerDto> {
    const current = await this.get(workspaceId, id);
    const transport = body.transport ?? current.transport;
    // A new transport starts from its own fields: what the old one had does not carry over.
    const switched = transport !== current.transport;
    const config = {
      transport,
      command: body.command !== undefined ? body.command : switched ? null : current.command,
      args: body.args ?? (switched ? [] : current.args),
      env: body.env ?? (switched ? {} : current.env),
      url: body.url !== undefined ? body.url : switched ? null : current.url,
      headers: body.headers,
      hasStoredHeaders: body.headers === undefined && !switched && current.headerNames.length > 0,
    };
    this.validate(config);
    const write: McpServerWrite = {
      name: body.name,
      transport,
      command: config.command,
      args: config.args,
      env: config.env,
      url: config.url,
      enabled: body.enabled,
      approval: body.approval,
      headers: body.headers === undefined ? (switched ? null : undefined) : this.sealed(workspaceId, id, body.headers),
    };
    const updated = await this.servers.update(workspaceId, id, write).catch(nameTaken);
    if (!updated) throw AppException.notFound('MCP server');
    await this.audit.byPrincipal(principal, { action: 'mcp-server.update', teamId: access.teamId, targetType: 'mcp-server', targetId: id, ip });
    return updated;
  }

  /** Asks the worker to connect now (McpCheckJob): the status says `checking` until it has. */
  async check(workspaceId: string, id: string): Promise<McpServerDto> {
    const server = await this.get(workspaceId, id);
    if (!server.enabled) throw new AppException(409, 'CONFLICT', 'The MCP server is disabled; enable it to check it.');
    const marked = await this.servers.markChecking(workspaceId, id);
    if (!marked) throw AppException.notFound('MCP server');
    await this.jobs.enqueue(JobName.McpServerCheck, { workspaceId, serverId: id }, { jobId: `mcp-check-${id}-${Date.now()}` });
    return marked;
  }

  async remove(principal: Principal, access: AccessGrant, workspaceId: string, id: string, ip: string | null): Promise<void> {
    if (!(await this.servers.remove(workspaceId, id))) throw AppException.notFound('MCP server');
    await this.audit.byPrincipal(principal, { action: 'mcp-server.delete', teamId: access.teamId, targetType: 'mcp-server', targetId: id, ip });
  }

  private validate(config: Parameters<typeof mcpConfigProblem>[0]): void {
    const problem = mcpConfigProblem(config);
    if (problem) throw new AppException(400, 'INVALID_MCP_SERVER', problem);
  }

  private sealed(workspaceId: string, id: string, headers: Record<string, string> | null | undefined): McpServerWrite['headers'] {
    if (!headers || Object.keys(headers).length === 0) return null;
    return { names: Object.keys(headers).sort(), secret: sealMcpHeaders(this.box, workspaceId, id, headers) };
  }
}

function nameTaken(err: unknown): never {
  if (err instanceof McpServerNameTaken) throw new AppException(409, 'CONFLICT', 'This workspace has an MCP server of that name already.');
  throw err;
}

