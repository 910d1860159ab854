import { Injectable, Logger } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Response } from 'express';
import { MCP_JSONRPC_ERRORS } from '@h/contracts';
import { AppConfig } from '@h/config';
import { WorkspaceRepository } from '@h/db';
import { FileSandboxService } from '@h/files';
import { AppException } from '@h/http';
import { AuditService } from '@h/identity';
import { SandboxWorkspace } from '@h/sandbox';
import { GitDiffService, ScmService } from '@h/scm';
import { MemoryOutputStore, newRunToolState, type ToolResult } from '@h/tools';
import type { McpGrant } from './mcp-grant.service';
import { McpGrantService } from './mcp-grant.service';
import { gitTools } from './mcp-git.tools';
import type { McpRequest } from './mcp-request.interceptor';
import { McpToolSet } from './mcp-tool-set';
import { auditArguments, capResultText } from './mcp-tool-result';
import { systemInfoTool } from './system-info.tool';

const SERVER_INFO = { name: 'H', title: 'H workspace tools', version: '0.1.0' };
// What the text of the first tools/list teaches a client in one paragraph.
const INSTRUCTIONS =
  "Tools act on one H workspace (the one the API token is bound to), inside its sandbox, rooted at /workspace. Reads need a token with the read scope; writes, deletes and run_command need the write scope and are recorded in the team's audit log.";

class ToolTimeout extends Error {}

/**
 * One MCP exchange per HTTP POST (the SDK's stateless Streamable HTTP mode, JSON answers): no MCP
 * session lives in an api process, so any replica answers any request and a restart loses nothing.
 * The tools are H's agent tools over the workspace's sandbox, reached the way the file API reaches
 * it (FileSandboxService: SandboxManager in the api role).
 */
@Injectable()
export class McpServerService {
  private readonly logger = new Logger(McpServerService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly sandbox: FileSandboxService,
    private readonly scm: ScmService,
    private readonly diffs: GitDiffService,
    private readonly workspaces: WorkspaceRepository,
    private readonly grants: McpGrantService,
    private readonly audit: AuditService,
  ) {}

  async handle(req: McpRequest, res: Response, body: unknown): Promise<void> {
    const grant = req.mcpGrant;
    if (!grant) throw new Error('McpRequestInterceptor must run before McpServerService.handle');
    const server = this.serverFor(grant, req.ip ?? null);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    // Every answer here is JSON (enableJsonResponse), so an Accept that leaves out the stream type
    // (curl, REST tools, the route table) is served all the same instead of 406.
    req.headers.accept = 'application/json, text/event-stream';
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  private serverFor(grant: McpGrant, ip: string | null): Server {
    const env = this.config.env;
    const workspace = new SandboxWorkspace(() => this.sandbox.client(grant.workspaceId), { readMaxBytes: env.SANDBOX_READ_MAX_BYTES });
    const tools = new McpToolSet([
      ...gitTools(this.scm, this.diffs, grant.workspaceId),
      systemInfoTool(async () => ({
        cpus: env.SANDBOX_CPUS,
        memoryMb: env.SANDBOX_MEMORY_MB,
        diskMb: env.SANDBOX_DISK_MB,
        network: (await this.workspaces.findById(grant.workspaceId))?.networkEnabled ? 'egress' : 'none',
      })),
    ]);
    const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...tools.definitions()] }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name } = request.params;
      const args: Record<string, unknown> = { ...(request.params.arguments ?? {}) };
      const scope = tools.scopeOf(name);
      if (!scope) {
        throw new McpError(MCP_JSONRPC_ERRORS.INVALID_PARAMS, `Unknown tool "${name}". Tools: ${tools.definitions().map((t) => t.name).join(', ')}.`, { code: 'VALIDATION_FAILED' });
      }
      const record = (outcome: string, extraData: Record<string, unknown> = {}) =>
        scope === 'read'
          ? Promise.resolve()
          : this.audit.byPrincipal(grant.principal, {
              action: 'mcp.tool_call',
              teamId: grant.teamId,
              targetType: 'workspace',
              targetId: grant.workspaceId,
              ip,
              metadata: { tool: name, arguments: auditArguments(args), outcome, ...extraData },
            });
      try {
        await this.grants.requireForTool(grant, scope);
      } catch (err) {
        if (!(err instanceof AppException)) throw err;
        await record('refused', { code: err.code });
        throw new McpError(MCP_JSONRPC_ERRORS.SERVER_REFUSED, `${name}: ${err.message}`, { code: err.code, scope });
      }
      const timeoutMs = env.MCP_TOOL_TIMEOUT_MS;
      // The command's own timeout stays past ours, so the JSON-RPC timeout below is what a client
      // sees; the sandbox's kill is the backstop if the cancel does not reach the process.
      if (name === 'run_command') args.timeout = Math.min(Number(args.timeout ?? 120) || 120, Math.ceil(timeoutMs / 1000) + 5);
      const started = Date.now();
      const result = await this.runWithTimeout(tools, name, args, workspace, extra.signal, timeoutMs).catch(async (err: unknown) => {
        if (!(err instanceof ToolTimeout)) throw err;
        await record('timeout', { durationMs: Date.now() - started });
        throw new McpError(MCP_JSONRPC_ERRORS.REQUEST_TIMEOUT, `${name} did not finish within ${timeoutMs / 1000} s (MCP_TOOL_TIMEOUT_MS) and was stopped.`, { code: 'TOOL_TIMEOUT', limit: timeoutMs });
      });
      await record(result.isError ? 'error' : 'ok', { durationMs: Date.now() - started });
      return { content: [{ type: 'text', text: capResultText(result.text) }], isError: result.isError ?? false } satisfies CallToolResult;
    });
    server.onerror = (err) => this.logger.warn({ err, workspaceId: grant.workspaceId }, 'MCP protocol error');
    return server;
  }

  private async runWithTimeout(tools: McpToolSet, name: string, args: Record<string, unknown>, workspace: SandboxWorkspace, clientSignal: AbortSignal, timeoutMs: number): Promise<ToolResult> {
    const controller = new AbortController();
    const onClientAbort = () => controller.abort(clientSignal.reason);
    clientSignal.addEventListener('abort', onClientAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new ToolTimeout());
        reject(new ToolTimeout());
      }, timeoutMs);
    });
    try {
      const run = tools.registry.run(name, JSON.stringify(args), {
        workspace,
        signal: controller.signal,
        // Outputs live for this request only: what the client gets is the distilled text.
        outputs: new MemoryOutputStore(this.config.env.TOOL_OUTPUT_MAX_BYTES, this.config.env.TOOL_OUTPUT_MAX_BYTES),
        state: newRunToolState(),
      });
      return await Promise.race([run, timedOut]);
    } finally {
      clearTimeout(timer);
      clientSignal.removeEventListener('abort', onClientAbort);
    }
  }
}
