import { Injectable, Logger } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { MCP_TOOLS_PER_SERVER } from '@h/contracts';
import { AppConfig } from '@h/config';
import { McpServerRepository, type EncryptedSecret, type McpServerRecord } from '@h/db';
import { EgressService } from '@h/egress';
import { SecretBoxService } from '@h/providers';
import type { SandboxProcess, SpawnOptions } from '@h/sandbox';
import type { AgentTool } from '@h/tools';
import { egressFetch } from './egress-fetch';
import { openMcpHeaders } from './mcp-headers-secret';
import { mcpAgentTool, schemaTooLarge } from './mcp-tool';
import { SandboxStdioTransport } from './sandbox-stdio.transport';

/** Starts a program in the workspace's sandbox (SandboxDriver.spawn bound to its record), or null where the driver cannot. */
export type SandboxSpawn = ((options: SpawnOptions) => Promise<SandboxProcess>) | null;

export interface McpOpenRequest {
  workspace: { id: string; networkEnabled: boolean };
  spawn: SandboxSpawn;
  signal?: AbortSignal;
  /** Only these servers (a check from the IDE); default: every enabled server of the workspace. */
  serverIds?: string[];
}

export interface McpServerFailure {
  serverId: string;
  server: string;
  message: string;
}

/** The servers a run (or a check) is connected to; close() ends them all (stdio processes are killed). */
export interface McpConnections {
  /** Offered after the core tools, ordered by name: the same list, in the same order, for every request of the run. */
  tools: AgentTool[];
  failures: McpServerFailure[];
  connected: { serverId: string; server: string; tools: string[]; toolCount: number; note: string | null }[];
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'h-agent', version: '1.0.0' };

/**
 * Connects to a workspace's external MCP servers for a run: stdio servers run inside the
 * workspace's sandbox (the driver's spawn, a `docker exec`), http servers through the workspace's
 * egress proxy with their decrypted headers (which stay in this process). Every step is bounded
 * (MCP_CONNECT_TIMEOUT_MS, MCP_LIST_TIMEOUT_MS, MCP_CALL_TIMEOUT_MS, MCP_MAX_MESSAGE_BYTES), so no
 * server can hold a worker; a server that fails is reported (status row + the run's error event)
 * and the run goes on without it. Each outcome is the server's status in the IDE.
 */
@Injectable()
export class McpConnector {
  private readonly logger = new Logger(McpConnector.name);

  constructor(
    private readonly config: AppConfig,
    private readonly servers: McpServerRepository,
    private readonly box: SecretBoxService,
    private readonly egress: EgressService,
  ) {}

  async open(request: McpOpenRequest): Promise<McpConnections> {
    const all = await this.servers.listEnabledWithSecrets(request.workspace.id);
    const only = request.serverIds;
    const chosen = only ? all.filter((s) => only.includes(s.id)) : all;
    const outcomes = await Promise.all(chosen.map((server) => this.connect(server, request)));
    const clients: Client[] = [];
    const tools: AgentTool[] = [];
    const failures: McpServerFailure[] = [];
    const connected: McpConnections['connected'] = [];
    for (const [i, outcome] of outcomes.entries()) {
      const server = chosen[i];
      if ('error' in outcome) {
        failures.push({ serverId: server.id, server: server.name, message: outcome.error });
        await this.servers.recordStatus(server.workspaceId, server.id, server.updatedAt, { state: 'error', message: outcome.error, tools: [], toolCount: null });
        continue;
      }
      clients.push(outcome.client);
      const offered = outcome.tools.filter((t) => !tools.some((o) => o.name === t.name));
      tools.push(...offered);
      const names = offered.map((t) => t.name);
      connected.push({ serverId: server.id, server: server.name, tools: names, toolCount: outcome.listed, note: outcome.note });
      await this.servers.recordStatus(server.workspaceId, server.id, server.updatedAt, { state: 'connected', message: outcome.note, tools: names, toolCount: outcome.listed });
    }
    return {
      tools,
      failures,
      connected,
      close: async () => {
        await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      },
    };
  }

  private async connect(
    server: McpServerRecord & { secret: EncryptedSecret | null },
    request: McpOpenRequest,
  ): Promise<{ client: Client; tools: AgentTool[]; listed: number; note: string | null } | { error: string }> {
    const env = this.config.env;
    let transport: Transport | null = null;
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    try {
      transport = await this.transportFor(server, request);
      await client.connect(transport, { timeout: env.MCP_CONNECT_TIMEOUT_MS, signal: request.signal });
      const listed = await this.listTools(client, request.signal);
      const usable = listed.filter((t) => !schemaTooLarge(t));
      const taken = usable.slice(0, MCP_TOOLS_PER_SERVER);
      const tools = taken
        .map((t) => mcpAgentTool({ name: server.name, approval: server.approval, client, callTimeoutMs: env.MCP_CALL_TIMEOUT_MS }, t))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const notes = [
        usable.length < listed.length ? `${listed.length - usable.length} tool(s) left out: parameter schema over 16 KB` : '',
        usable.length > taken.length ? `${usable.length - taken.length} tool(s) left out beyond ${MCP_TOOLS_PER_SERVER} per server` : '',
      ].filter(Boolean);
      return { client, tools, listed: listed.length, note: notes.length ? notes.join('; ') : null };
    } catch (err) {
      await client.close().catch(() => undefined);
      await transport?.close().catch(() => undefined);
      const stderr = transport instanceof SandboxStdioTransport && transport.stderr ? ` (stderr: ${stderrGist(transport.stderr)})` : '';
      const message = `MCP server "${server.name}" is unavailable: ${(err as Error)?.message ?? String(err)}${stderr}`;
      // Name and cause only: the configuration (headers, env) is never logged.
      this.logger.warn({ workspaceId: server.workspaceId, server: server.name, transport: server.transport }, message);
      return { error: message };
    }
  }

  private async transportFor(server: McpServerRecord & { secret: EncryptedSecret | null }, request: McpOpenRequest): Promise<Transport> {
    const env = this.config.env;
    if (server.transport === 'stdio') {
      if (!request.spawn) throw new Error('stdio servers run in the sandbox and need a sandbox driver that can start processes (SANDBOX_DRIVER=docker or kubernetes)');
      if (!server.command) throw new Error('no command is configured');
      const proc = await withTimeout(
        request.spawn({ argv: [server.command, ...server.args], env: server.env, cwd: '/workspace' }),
        env.MCP_CONNECT_TIMEOUT_MS,
        'start the process',
        (p) => void p.kill().catch(() => undefined),
      );
      return new SandboxStdioTransport(proc, env.MCP_MAX_MESSAGE_BYTES);
    }
    if (!request.workspace.networkEnabled) {
      throw new Error('network access is off for this workspace; an http server is reached only through its egress proxy (turn network access on and add the host to the allowed hosts)');
    }
    await this.egress.serve(request.workspace.id);
    if (!server.url) throw new Error('no url is configured');
    const headers = server.secret ? openMcpHeaders(this.box, server.workspaceId, server.id, server.secret) : {};
    return new StreamableHTTPClientTransport(new URL(server.url), {
      fetch: egressFetch({ socketPath: this.egress.proxy.socketPath(request.workspace.id), connectTimeoutMs: env.MCP_CONNECT_TIMEOUT_MS, maxBodyBytes: env.MCP_MAX_MESSAGE_BYTES }),
      requestInit: { headers },
    });
  }

  /** tools/list, following cursors, bounded in pages, tools and time (MCP_LIST_TIMEOUT_MS for the whole listing). */
  private async listTools(client: Client, signal?: AbortSignal): Promise<Tool[]> {
    const timeout = this.config.env.MCP_LIST_TIMEOUT_MS;
    const deadline = Date.now() + timeout;
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`tools/list took longer than ${timeout} ms (MCP_LIST_TIMEOUT_MS)`);
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: left, signal });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      // One past the cap is enough to say that some were left out.
      if (!cursor || tools.length > MCP_TOOLS_PER_SERVER * 4) break;
    }
    return tools;
  }
}

/** `pending` within `ms`, else a timeout error; a late result is handed to `discard` (e.g. to kill a process that started too late). */
function withTimeout<T>(pending: Promise<T>, ms: number, what: string, discard: (late: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      reject(new Error(`could not ${what} within ${ms} ms (MCP_CONNECT_TIMEOUT_MS)`));
    }, ms);
    pending.then(
      (value) => {
        clearTimeout(timer);
        if (done) discard(value);
        else resolve(value);
      },
      (err) => {
        clearTimeout(timer);
        if (!done) reject(err);
      },
    );
  });
}

/** What a crash printed, without its stack frames (the IDE shows it as the server's status). */
function stderrGist(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => line.trim() && !/^\s+at /.test(line))
    .join(' ')
    .replace(/\s+/g, ' ')
    .slice(0, 400);
}
