import { createHash } from 'node:crypto';
import { MCP_TOOL_NAME_MAX_LENGTH } from '@h/contracts';

/** The name prefix of every external MCP tool offered to the agent. */
export const MCP_TOOL_PREFIX = 'mcp__';

/**
 * The model-facing name of one server's tool: `mcp__<server>__<tool>`. Server names are already
 * `[a-z0-9-]` (contracts MCP_SERVER_NAME_PATTERN); a tool name from the server is reduced to what
 * function-calling APIs accept (`[A-Za-z0-9_-]`), and a name that had to be changed or cut to fit
 * MCP_TOOL_NAME_MAX_LENGTH gets a short hash of the original, so two tools never share a name.
 */
export function namespacedToolName(server: string, tool: string): string {
  const base = `${MCP_TOOL_PREFIX}${server}__`;
  const clean = tool.replace(/[^A-Za-z0-9_-]/g, '_');
  const whole = `${base}${clean}`;
  if (clean === tool && clean.length > 0 && whole.length <= MCP_TOOL_NAME_MAX_LENGTH) return whole;
  const hash = createHash('sha256').update(tool).digest('hex').slice(0, 8);
  const room = Math.max(0, MCP_TOOL_NAME_MAX_LENGTH - base.length - hash.length - 1);
  return `${base}${clean.slice(0, room)}_${hash}`;
}
