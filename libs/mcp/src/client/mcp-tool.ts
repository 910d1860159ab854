import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpApproval } from '@h/contracts';
import { ToolError, type AgentTool, type ToolResult } from '@h/tools';
import { namespacedToolName } from './mcp-tool-name';

/** Longest description sent to the model per tool (a server's text is not ours to let grow the prompt). */
const DESCRIPTION_MAX_CHARS = 1024;
/** Largest parameter schema accepted per tool (JSON); a larger one leaves the tool out. */
export const SCHEMA_MAX_BYTES = 16 * 1024;

export interface McpToolServer {
  name: string;
  approval: McpApproval;
  client: Client;
  callTimeoutMs: number;
}

/**
 * One tool of an external MCP server as an agent tool. Its category is `command`: it acts outside
 * H's own guards, so the session's `approve` mode asks for it unless the server's rule is `allow`
 * (permission-policy.ts). The result goes through the engine's spill policy like every tool's.
 */
export function mcpAgentTool(server: McpToolServer, tool: Tool): AgentTool<Record<string, unknown>> {
  const name = namespacedToolName(server.name, tool.name);
  const text = (tool.description ?? tool.title ?? '').trim().slice(0, DESCRIPTION_MAX_CHARS);
  return {
    name,
    description: `[MCP server "${server.name}", tool "${tool.name}"]${text ? ` ${text}` : ''}`,
    category: 'command',
    approval: server.approval,
    parameters: parametersOf(tool),
    input: z.record(z.string(), z.unknown()),
    async execute(input, ctx): Promise<ToolResult> {
      let result: CallToolResult;
      try {
        result = (await server.client.callTool({ name: tool.name, arguments: input }, undefined, {
          timeout: server.callTimeoutMs,
          signal: ctx.signal,
        })) as CallToolResult;
      } catch (err) {
        throw new ToolError(callFailure(server, tool.name, err));
      }
      return { text: resultText(result), isError: result.isError === true, data: { mcpServer: server.name, mcpTool: tool.name } };
    },
  };
}

/** The tool's input schema as function parameters: always an object schema, without `$schema`. */
function parametersOf(tool: Tool): Record<string, unknown> {
  const { $schema: _drop, ...schema } = tool.inputSchema as Record<string, unknown>;
  return { ...schema, type: 'object', properties: schema.properties ?? {} };
}

export function schemaTooLarge(tool: Tool): boolean {
  return Buffer.byteLength(JSON.stringify(tool.inputSchema ?? {})) > SCHEMA_MAX_BYTES;
}

/** What the model reads: the text parts in order; other parts named, never inlined (images, audio, blobs). */
export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    if (item.type === 'text') parts.push(item.text);
    else if (item.type === 'image' || item.type === 'audio') parts.push(`[${item.type} ${item.mimeType}, ${Math.floor((item.data.length * 3) / 4)} bytes: not shown]`);
    else if (item.type === 'resource') parts.push('text' in item.resource ? String(item.resource.text) : `[resource ${item.resource.uri}: binary, not shown]`);
    else if (item.type === 'resource_link') parts.push(`[resource link ${item.uri}${item.name ? ` (${item.name})` : ''}]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.length ? parts.join('\n') : '(the tool returned no content)';
}

function callFailure(server: McpToolServer, tool: string, err: unknown): string {
  const where = `MCP server "${server.name}" (tool ${tool})`;
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
    return `${where} did not answer within ${Math.round(server.callTimeoutMs / 1000)} s (MCP_CALL_TIMEOUT_MS); the call was abandoned.`;
  }
  if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) return `${where} is no longer connected: ${err.message}`;
  return `${where} failed: ${(err as Error)?.message ?? String(err)}`;
}
