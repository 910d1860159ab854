import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import { from, type Observable, of, switchMap } from 'rxjs';
import { MCP_JSONRPC_ERRORS } from '@h/contracts';
import { AppConfig } from '@h/config';
import { RateLimitRepository } from '@h/db';
import { INPUT_LIMITS, jsonTooDeep } from '@h/http';
import type { AuthedRequest } from '@h/identity';
import { checkEnvelope, jsonRpcError, sendJsonRpcError } from './mcp-jsonrpc';
import { type McpGrant, McpGrantService } from './mcp-grant.service';

const RATE_WINDOW_SECONDS = 60;

export type McpRequest = AuthedRequest & { mcpGrant?: McpGrant };

/**
 * Everything /api/mcp checks before the SDK reads a message, in this order: the token's workspace
 * binding (H's `{ error }` shape, 403), the token's rate (MCP_RATE_LIMIT_PER_MINUTE), the body's type,
 * size (MCP_BODY_MAX_BYTES, its own limit: the route is in RAW_BODY_ROUTES) and depth, and the
 * JSON-RPC envelope. Each limit answers a JSON-RPC error whose data.code names it.
 */
@Injectable()
export class McpRequestInterceptor implements NestInterceptor {
  private readonly json: (req: Request, res: Response, next: NextFunction) => void;

  constructor(
    private readonly config: AppConfig,
    private readonly grants: McpGrantService,
    private readonly rateLimits: RateLimitRepository,
  ) {
    this.json = express.json({
      limit: config.env.MCP_BODY_MAX_BYTES,
      type: () => true,
      // Before JSON.parse spends time on it, as the global parser does (libs/http input-policy.ts).
      verify: (_req, _res, buf) => {
        if (jsonTooDeep(buf)) throw Object.assign(new Error(`The request body is nested deeper than ${INPUT_LIMITS.maxDepth} levels.`), { type: 'entity.too.deep' });
      },
    });
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<McpRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    return from(this.admit(req, res)).pipe(switchMap((admitted) => (admitted ? next.handle() : of(undefined))));
  }

  /** true: the request goes on to the SDK; false: it was answered here. */
  private async admit(req: McpRequest, res: Response): Promise<boolean> {
    if (!req.principal) throw new Error('McpRequestInterceptor runs after the auth guard');
    const grant = await this.grants.grant(req.principal);
    req.mcpGrant = grant;

    const limit = this.config.env.MCP_RATE_LIMIT_PER_MINUTE;
    const rate = await this.rateLimits.hit(`mcp-token:${grant.principal.tokenId}`, RATE_WINDOW_SECONDS);
    if (rate.count > limit) {
      const retry = Math.max(rate.retryAfterSeconds, 1);
      sendJsonRpcError(res, 429, jsonRpcError(null, MCP_JSONRPC_ERRORS.SERVER_REFUSED, `This API token sent more than ${limit} MCP requests in a minute (MCP_RATE_LIMIT_PER_MINUTE); retry in ${retry} s.`, { code: 'RATE_LIMITED', limit, retryAfterSeconds: retry }), { 'Retry-After': String(retry) });
      return false;
    }

    if (!req.is(['application/json', 'application/*+json'])) {
      sendJsonRpcError(res, 415, jsonRpcError(null, MCP_JSONRPC_ERRORS.INVALID_REQUEST, 'Send the JSON-RPC message as JSON with "content-type: application/json".', { code: 'UNSUPPORTED_MEDIA_TYPE' }));
      return false;
    }
    const parseError = await new Promise<{ type?: string; message?: string } | null>((resolve) => this.json(req, res, (err?: unknown) => resolve((err as { type?: string } | undefined) ?? null)));
    if (parseError) {
      const max = this.config.env.MCP_BODY_MAX_BYTES;
      if (parseError.type === 'entity.too.large') {
        sendJsonRpcError(res, 413, jsonRpcError(null, MCP_JSONRPC_ERRORS.SERVER_REFUSED, `The request body is larger than ${max} bytes (MCP_BODY_MAX_BYTES).`, { code: 'PAYLOAD_TOO_LARGE', limit: max }));
      } else if (parseError.type === 'entity.too.deep') {
        sendJsonRpcError(res, 400, jsonRpcError(null, MCP_JSONRPC_ERRORS.INVALID_REQUEST, parseError.message ?? 'The request body is nested too deeply.', { code: 'VALIDATION_FAILED' }));
      } else if (parseError.type === 'encoding.unsupported' || parseError.type === 'charset.unsupported') {
        sendJsonRpcError(res, 415, jsonRpcError(null, MCP_JSONRPC_ERRORS.INVALID_REQUEST, parseError.message ?? 'Unsupported encoding.', { code: 'UNSUPPORTED_MEDIA_TYPE' }));
      } else {
        sendJsonRpcError(res, 400, jsonRpcError(null, MCP_JSONRPC_ERRORS.PARSE_ERROR, 'Parse error: the request body is not valid JSON.', { code: 'INVALID_JSON' }));
      }
      return false;
    }
    const envelope = checkEnvelope(req.body);
    if (!envelope.ok) {
      sendJsonRpcError(res, 400, jsonRpcError(envelope.id, MCP_JSONRPC_ERRORS.INVALID_REQUEST, envelope.message, { code: 'VALIDATION_FAILED' }));
      return false;
    }
    return true;
  }
}
