import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application, NextFunction, Request, Response } from 'express';
import { isMcpServerPath, MCP_JSONRPC_ERRORS, MCP_SERVER_PATH } from '@h/contracts';
import { jsonRpcError, sendJsonRpcError } from './mcp-jsonrpc';

/**
 * GET (a server-to-client event stream) and DELETE (ending a session) of Streamable HTTP answer
 * 405 here, as the spec lets a stateless server do; the SDK client takes 405 on GET as "no stream".
 * Plain express middleware, not routes: they do nothing, so they are no API operation to document.
 * Installed in onModuleInit, which Nest runs after the routes are registered and before its 404
 * handler, so only methods the route does not take reach it.
 */
@Injectable()
export class McpHttpMethods implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const app = this.adapterHost.httpAdapter?.getInstance<Application>();
    if (!app) return;
    app.use(MCP_SERVER_PATH, (req: Request, res: Response, next: NextFunction) => {
      if (!isMcpServerPath(req.originalUrl.split('?')[0]) || req.method === 'POST') return next();
      sendJsonRpcError(
        res,
        405,
        jsonRpcError(null, MCP_JSONRPC_ERRORS.SERVER_REFUSED, `${req.method} is not served: this MCP server is stateless and answers each POST as JSON (no event stream, no session to end).`, { code: 'METHOD_NOT_ALLOWED' }),
        { Allow: 'POST' },
      );
    });
  }
}
