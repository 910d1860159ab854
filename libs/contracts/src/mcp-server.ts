// H as an MCP server (libs/mcp server/): the endpoint, the tools it offers with the token scope
// each needs, and the JSON-RPC error codes its refusals carry. Every JSON-RPC error of /api/mcp
// has `error.data.code`, a code of H's registry (error-codes.ts), so a client tells a rate limit
// from a timeout without parsing the message. Zod-free on purpose, like error-codes.ts.
import type { ErrorCode } from './error-codes';
import type { TokenScope } from './identity-api';

/** Where the MCP server listens (Streamable HTTP, POST only), below the api's global prefix. */
export const MCP_SERVER_PATH = '/api/mcp';

/** Whether a request path (without query) is the MCP endpoint: its body errors are JSON-RPC errors. */
export function isMcpServerPath(path: string): boolean {
  return path === MCP_SERVER_PATH || path === `${MCP_SERVER_PATH}/`;
}

/**
 * The tools of the seed's MCP chapter, in the order tools/list gives them, with the token scope a
 * call needs: reads need `read`; anything that changes files or runs a command needs `write` (and
 * the member role), the scope the agent's permission layer would ask about (libs/tools categories).
 */
export const MCP_SERVER_TOOL_SCOPES = {
  read_file: 'read',
  write_file: 'write',
  edit_file: 'write',
  list_files: 'read',
  search_files: 'read',
  grep: 'read',
  run_command: 'write',
  create_directory: 'write',
  delete_file: 'write',
  rename_file: 'write',
  git_status: 'read',
  git_log: 'read',
  git_diff: 'read',
  system_info: 'read',
} as const satisfies Record<string, TokenScope>;

export type McpServerToolName = keyof typeof MCP_SERVER_TOOL_SCOPES;
export const MCP_SERVER_TOOL_NAMES = Object.keys(MCP_SERVER_TOOL_SCOPES) as McpServerToolName[];

/** JSON-RPC 2.0 error codes the MCP endpoint answers with (the spec's, and the SDK's timeout). */
export const MCP_JSONRPC_ERRORS = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** H's limits and refusals that are not about the message's form (rate, size, scope). */
  SERVER_REFUSED: -32000,
  /** The SDK's RequestTimeout: a tool call ran past MCP_TOOL_TIMEOUT_MS. */
  REQUEST_TIMEOUT: -32001,
} as const;

/** What `error.data` of an MCP JSON-RPC error holds. */
export interface McpErrorData {
  code: ErrorCode;
  /** The limit that was hit, when one was (bytes, calls per minute, milliseconds). */
  limit?: number;
  retryAfterSeconds?: number;
  /** The scope the tool needs, on INSUFFICIENT_SCOPE. */
  scope?: TokenScope;
}

/** The body of every JSON-RPC error the endpoint answers outside a tool result. */
export interface McpJsonRpcErrorBody {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string; data: McpErrorData };
}
