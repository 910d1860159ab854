import type { Response } from 'express';
import { ERROR_CODES, type ErrorBody, type ErrorCode, type HttpErrorCode } from '@h/contracts';

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

/** Answers an express response with the error shape; the status defaults to the code's own. */
export function sendError(res: Response, code: HttpErrorCode, message: string, status: number = errorStatus(code)): void {
  res.status(status).json(errorBody(code, message));
}
