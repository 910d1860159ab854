import type { Response } from 'express';
import { ERROR_CODES, h2cErrorCode, isH2cPath, type ErrorBody, type ErrorCode, type H2cErrorBody, type HttpErrorCode } from '@h/contracts';

// Every `{ error: { code, message } }` H writes by hand (body parser, client errors, the proxy,
// health checks, socket acks and stream_error frames) is built here, so the shape and the codes
// stay those of the registry.

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { error: { code, message } };
}

/** The registry's HTTP status of a code that answers requests. */
export function errorStatus(code: HttpErrorCode): number {
  return ERROR_CODES[code].status;
}

/**
 * The body of an error answer to `path`: H's shape, or h2c's `{ error: "<code>" }` on the h2c routes
 * (`/health`, `/v1/task*`, whose clients expect it). The one place the two shapes are chosen.
 */
export function errorBodyFor(url: string, status: number, code: ErrorCode, message: string, details?: Record<string, unknown>): ErrorBody | H2cErrorBody {
  // The original URL: inside a mounted middleware `req.path` is relative to the mount point.
  if (isH2cPath(url.split('?')[0])) return { error: h2cErrorCode(code, status), message };
  return { error: { ...details, ...errorBody(code, message).error } };
}

/** Answers an express response with the error shape; the status defaults to the code's own. */
export function sendError(res: Response, code: HttpErrorCode, message: string, status: number = errorStatus(code)): void {
  res.status(status).json(errorBodyFor(res.req?.originalUrl ?? '', status, code, message));
}
