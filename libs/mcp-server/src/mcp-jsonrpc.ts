// The JSON-RPC side of /api/mcp's refusals: every error the endpoint answers outside a tool result
// is a JSON-RPC 2.0 error object whose `data.code` is a code of H's registry (MCP_JSONRPC_ERRORS in
// @h/contracts), so MCP clients read it as the protocol says and H's tests read it by code.
import type { Response } from 'express';
import { z } from 'zod';
import { type McpErrorData, type McpJsonRpcErrorBody } from '@h/contracts';
import { findInputProblem } from '@h/http';

export type JsonRpcId = string | number | null;

export function jsonRpcError(id: JsonRpcId, code: number, message: string, data: McpErrorData): McpJsonRpcErrorBody {
  return { jsonrpc: '2.0', id, error: { code, message, data } };
}

export function sendJsonRpcError(res: Response, status: number, body: McpJsonRpcErrorBody, headers: Record<string, string> = {}): void {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(status).json(body);
}

/** The MCP methods H answers: tools only (no resources, prompts or sampling), as the seed says. */
export const MCP_SERVER_METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
] as const;

/** Longest string id accepted (SDK clients send small integers). */
export const MCP_ID_MAX_LENGTH = 200;
const id = z.union([z.string().max(MCP_ID_MAX_LENGTH), z.number().int().safe()]);
const params = z.record(z.string(), z.unknown());
// Strict: a field JSON-RPC does not define is a mistake, refused like an unknown DTO field elsewhere.
const request = z.strictObject({ jsonrpc: z.literal('2.0'), id, method: z.enum(MCP_SERVER_METHODS), params: params.optional() });
const notification = z.strictObject({ jsonrpc: z.literal('2.0'), method: z.enum(MCP_SERVER_METHODS), params: params.optional() });
// H never sends the client a request in this stateless server, but a client may answer one it thinks it got.
const response = z.strictObject({ jsonrpc: z.literal('2.0'), id, result: z.record(z.string(), z.unknown()) });
const errorResponse = z.strictObject({
  jsonrpc: z.literal('2.0'),
  id: id.nullable(),
  error: z.strictObject({ code: z.number().int(), message: z.string().max(10_000), data: z.unknown().optional() }),
});
/** The schema a message is held to, chosen by what it carries, so a refusal names the wrong field. */
function schemaFor(m: unknown): z.ZodType {
  const o = m && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
  if ('method' in o) return 'id' in o ? request : notification;
  if ('error' in o) return errorResponse;
  if ('result' in o) return response;
  return request;
}

export type McpEnvelopeCheck = { ok: true } | { ok: false; id: JsonRpcId; message: string };

function idOf(value: unknown): JsonRpcId {
  const v = (value as { id?: unknown } | null)?.id;
  return typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v)) ? v : null;
}

/**
 * Whether a parsed body is one JSON-RPC message of a method H serves, checked before the SDK sees
 * it, so every refusal names the field the way H's other routes do. Batches (JSON arrays) were
 * removed from MCP in revision 2025-06-18, and no SDK client sends them: refused.
 */
export function checkEnvelope(body: unknown): McpEnvelopeCheck {
  const problem = findInputProblem(body, 'body');
  if (problem) return { ok: false, id: idOf(body), message: problem };
  if (Array.isArray(body)) return { ok: false, id: null, message: 'body must be one JSON-RPC message: batches (arrays) are not part of MCP since revision 2025-06-18.' };
  const parsed = schemaFor(body).safeParse(body);
  if (parsed.success) return { ok: true };
  const issue = parsed.error.issues[0];
  const field = issue.path.length ? `.${issue.path.join('.')}` : '';
  const detail =
    issue.code === 'invalid_value' && issue.path[0] === 'method'
      ? `is not a method this server serves (${MCP_SERVER_METHODS.join(', ')})`
      : issue.code === 'invalid_type' && issue.path.length === 0
        ? 'must be a JSON-RPC 2.0 message such as {"jsonrpc":"2.0","id":1,"method":"tools/list"}'
        : issue.message;
  return { ok: false, id: idOf(body), message: `body${field} ${detail}` };
}
