// External MCP servers of a workspace (REST under /api/v1/workspaces/:id/mcp-servers, libs/mcp
// client/): the agent's runs connect to the enabled ones and offer their tools as
// `mcp__<server>__<tool>`. A `stdio` server is a program run inside the workspace's sandbox; an
// `http` server (Streamable HTTP) is reached through the workspace's egress proxy, only with network
// access on, with its headers stored encrypted and never returned (only their names).
// Zod-free: the browser may import the constants.

export const MCP_TRANSPORTS = ['stdio', 'http'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/**
 * `ask`: every call asks for approval in the session's `approve` permission mode (like a command);
 * `allow`: calls run without asking. `bypass` / `skip` sessions allow every call either way.
 */
export const MCP_APPROVALS = ['ask', 'allow'] as const;
export type McpApproval = (typeof MCP_APPROVALS)[number];

/**
 * A server name: lower-case letters, digits and single hyphens. No underscore, so the `__` of a
 * namespaced tool name `mcp__<server>__<tool>` can only be the separator.
 */
export const MCP_SERVER_NAME_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';
export const MCP_SERVER_NAME_MAX_LENGTH = 24;
export const MCP_SERVERS_PER_WORKSPACE = 10;
export const MCP_COMMAND_MAX_LENGTH = 1024;
export const MCP_ARGS_MAX = 32;
export const MCP_ARG_MAX_LENGTH = 1024;
export const MCP_ENV_MAX = 32;
export const MCP_ENV_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]{0,63}$';
export const MCP_ENV_VALUE_MAX_LENGTH = 4096;
export const MCP_URL_MAX_LENGTH = 2048;
export const MCP_HEADERS_MAX = 16;
export const MCP_HEADER_NAME_PATTERN = "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$";
export const MCP_HEADER_VALUE_MAX_LENGTH = 8192;
/** Tools taken from one server (the rest are left out, and the status says so). */
export const MCP_TOOLS_PER_SERVER = 64;
/** Longest tool name sent to the model (OpenAI-compatible APIs refuse longer function names). */
export const MCP_TOOL_NAME_MAX_LENGTH = 64;

/** The last real check of a server: a run's connection, or a check asked from the IDE (`checking` until it ends). */
export type McpServerState = 'unknown' | 'checking' | 'connected' | 'error' | 'disabled';

export interface McpServerStatus<TDate = string> {
  state: McpServerState;
  /** Tools the server listed (connected). */
  toolCount: number | null;
  /** The namespaced names offered to the agent, in their order (connected). */
  tools: string[];
  /** Why it failed (error), or a note (e.g. tools left out beyond MCP_TOOLS_PER_SERVER). */
  message: string | null;
  checkedAt: TDate | null;
}

export interface McpServer<TDate = string> {
  id: string;
  workspaceId: string;
  name: string;
  transport: McpTransport;
  /** stdio: the program, run in the sandbox without a shell, cwd /workspace. */
  command: string | null;
  args: string[];
  /** stdio: extra environment for the program (it runs in the sandbox: no secrets here). */
  env: Record<string, string>;
  /** http: the Streamable HTTP endpoint. */
  url: string | null;
  /** http: the names of the headers stored (encrypted); their values are never returned. */
  headerNames: string[];
  enabled: boolean;
  approval: McpApproval;
  status: McpServerStatus<TDate>;
  createdById: string;
  createdAt: TDate;
  updatedAt: TDate;
}

export interface McpServerList<TDate = string> {
  items: McpServer<TDate>[];
}
