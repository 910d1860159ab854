import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { DestinationStream, LoggerOptions } from 'pino';
import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { PARAMS_PROVIDER_TOKEN, Params } from 'nestjs-pino';
import { Options, pinoHttp } from 'pino-http';
import { AppConfig } from '@h/config';
import { isH2cPath } from '@h/contracts';
import { logContextMixin } from '@h/telemetry';

// Anything that may hold a credential is censored before a line is written. Paths cover request
// headers, response cookies and any object field with a secret-like name, at any of the first
// levels where services put them.
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  ...['password', 'apiKey', 'secret', 'token', 'authorization', 'cookie', 'csrfToken', 'passwordHash', 'secretHash'].flatMap(
    (f) => [f, `*.${f}`, `*.*.${f}`],
  ),
];

export function loggerOptions(config: AppConfig, base: Record<string, unknown> = {}): LoggerOptions {
  return {
    level: config.env.LOG_LEVEL,
    base: { service: base.service ?? 'h', pid: process.pid, ...base },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // requestId / runId / jobId / traceId from the async context (libs/telemetry log-context.ts).
    mixin: logContextMixin,
  };
}

export function logDestination(config: AppConfig): DestinationStream {
  // A multistream entry without a level drops everything below info; the logger's own level
  // (LOG_LEVEL) is the one filter, so each stream takes every line it is given.
  const streams: pino.StreamEntry[] = [];
  if (config.env.LOG_STDOUT || !config.env.LOG_FILE) streams.push({ level: 'trace', stream: pino.destination({ fd: 1, sync: false }) });
  if (config.env.LOG_FILE) streams.push({ level: 'trace', stream: pino.destination({ dest: config.env.LOG_FILE, mkdir: true, sync: true }) });
  return pino.multistream(streams);
}

export function createLogger(config: AppConfig, service: string): pino.Logger {
  return pino(loggerOptions(config, { service }), logDestination(config));
}

export function httpLoggerParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      logger: createLogger(config, 'api'),
      // A caller's x-request-id is kept (so a proxy's id follows the request), else we mint one.
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      // The completion line is written after the request's async context ended: its id by hand.
      customProps: (req: IncomingMessage) => ({ requestId: (req as IncomingMessage & { id?: string }).id }),
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      autoLogging: { ignore: (req) => req.url === '/api/health' || req.url === '/api/ready' || req.url === '/health' },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      },
    },
    // installHttpLogger puts pino-http first; nestjs-pino only binds its req.log to Nest loggers.
    useExisting: true,
  };
}

/**
 * pino-http as the very first middleware. Nest applies module middleware after everything
 * app.use()d, so requests the body parser refused (invalid JSON, 413, 415) used to leave no log
 * line and no request id. The web proxy's paths are logged by Next itself.
 */
export function installHttpLogger(app: INestApplication): void {
  const params = app.get<Params>(PARAMS_PROVIDER_TOKEN);
  const middleware = pinoHttp(params.pinoHttp as Options);
  app.use((req: Request, res: Response, next: NextFunction) => (req.originalUrl.startsWith('/api') || isH2cPath(req.path) ? middleware(req, res, next) : next()));
}
