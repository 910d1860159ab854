import { z } from 'zod';
import {
  MCP_ENV_MAX,
  MCP_ENV_NAME_PATTERN,
  MCP_ENV_VALUE_MAX_LENGTH,
  MCP_HEADER_NAME_PATTERN,
  MCP_HEADER_VALUE_MAX_LENGTH,
  MCP_HEADERS_MAX,
  type McpTransport,
} from '@h/contracts';

/** A whole server configuration as it will be stored (a create, or a stored row with a change applied). */
export interface McpServerConfig {
  transport: McpTransport;
  command: string | null;
  args: string[];
  env: Record<string, string>;
  url: string | null;
  /** undefined: unchanged stored headers (only their presence matters here). */
  headers: Record<string, string> | null | undefined;
  hasStoredHeaders: boolean;
}

// Header names H sets itself, or that would let a configuration smuggle a second request.
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'te', 'trailer', 'mcp-session-id', 'mcp-protocol-version', 'accept', 'content-type']);
const PRINTABLE = /^[\t\x20-\x7e\x80-\uffff]*$/;

const envSchema = z
  .record(z.string().regex(new RegExp(MCP_ENV_NAME_PATTERN), 'env names are letters, digits and _, not starting with a digit'), z.string().max(MCP_ENV_VALUE_MAX_LENGTH).regex(/^[^\0]*$/, 'env values cannot hold NUL'))
  .refine((env) => Object.keys(env).length <= MCP_ENV_MAX, `at most ${MCP_ENV_MAX} env entries`);

const headersSchema = z
  .record(
    z.string().regex(new RegExp(MCP_HEADER_NAME_PATTERN), 'header names are HTTP tokens').refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()), 'this header is set by H itself'),
    z.string().min(1).max(MCP_HEADER_VALUE_MAX_LENGTH).regex(PRINTABLE, 'header values cannot hold control characters'),
  )
  .refine((headers) => Object.keys(headers).length <= MCP_HEADERS_MAX, `at most ${MCP_HEADERS_MAX} headers`);

const urlSchema = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && !url.hash;
  } catch {
    return false;
  }
}, 'url must be an http(s) URL without user info or fragment (credentials go in headers)');

const stdioSchema = z.object({
  transport: z.literal('stdio'),
  command: z.string({ error: 'a stdio server needs a command' }).min(1, 'a stdio server needs a command'),
  args: z.array(z.string().regex(/^[^\0]*$/, 'args cannot hold NUL')),
  env: envSchema,
  url: z.null({ error: 'a stdio server takes no url' }),
  headers: z.union([z.null(), z.undefined()], { error: 'a stdio server takes no headers (its env enters the sandbox; it has no secrets)' }),
  hasStoredHeaders: z.literal(false, { error: 'a stdio server takes no headers: remove them (headers: null)' }),
});

const httpSchema = z.object({
  transport: z.literal('http'),
  command: z.null({ error: 'an http server takes no command' }),
  args: z.array(z.string()).max(0, 'an http server takes no args'),
  env: z.record(z.string(), z.string()).refine((env) => Object.keys(env).length === 0, 'an http server takes no env'),
  url: urlSchema.nullable().refine((url) => url !== null, 'an http server needs a url'),
  headers: headersSchema.nullable().optional(),
  hasStoredHeaders: z.boolean(),
});

const configSchema = z.discriminatedUnion('transport', [stdioSchema, httpSchema]);

/** null when the configuration fits its transport; else the first problem, naming the field. */
export function mcpConfigProblem(config: McpServerConfig): string | null {
  const result = configSchema.safeParse(config);
  if (result.success) return null;
  const issue = result.error.issues[0];
  const field = issue.path.filter((p) => p !== 'hasStoredHeaders').join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
}
