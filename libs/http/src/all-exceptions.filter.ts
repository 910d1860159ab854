import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { ErrorCode } from '@h/contracts';
import { AppException } from './app.exception';
import { errorBodyFor } from './error-body';

const statusCodes: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
};

const GENERIC_MESSAGE = 'Something went wrong on our side; it was logged.';

interface Mapped {
  status: number;
  code: ErrorCode;
  message: string;
  headers?: Record<string, string>;
  details?: Record<string, unknown>;
  /** Logged although a 4xx: the input checks should have caught it first. */
  log?: 'warn';
}

const UNSTORABLE: Mapped = {
  status: 400,
  code: 'VALIDATION_FAILED',
  message: 'A value in the request cannot be stored (text with NUL characters or invalid Unicode, or a number out of range).',
  log: 'warn',
};

/** The Postgres SQLSTATE behind a Prisma error raised through the driver adapter, if any. */
function sqlState(err: { meta?: unknown }): string | undefined {
  const cause = (err.meta as { driverAdapterError?: { cause?: { originalCode?: string; code?: string } } } | undefined)?.driverAdapterError?.cause;
  return cause?.originalCode ?? cause?.code;
}

// Prisma errors carry a code; the ones a caller can cause map to 4xx, everything else is a bug.
// The input policy (input-policy.ts) refuses such values before they reach the database; these
// mappings are the second line for whatever it misses.
function mapPrismaError(err: { code?: string; meta?: unknown }): Mapped | null {
  // SQLSTATE class 22 is "data exception": 22021 NUL byte, 22P05 \u0000 in jsonb, 22003 out of range…
  if (sqlState(err)?.startsWith('22')) return UNSTORABLE;
  switch (err.code) {
    case 'P2000': // value too long for the column
    case 'P2006': // invalid value for the field type
    case 'P2007': // data validation error
    case 'P2020': // value out of range for the type
    case 'P2033': // a number does not fit in 64 bits
      return UNSTORABLE;
    case 'P2002':
      return { status: 409, code: 'CONFLICT', message: 'That already exists.' };
    case 'P2025':
      return { status: 404, code: 'NOT_FOUND', message: 'Not found.' };
    case 'P2003':
      return { status: 409, code: 'CONFLICT', message: 'A related record is missing or still in use.' };
    default:
      return null;
  }
}

export function mapException(exception: unknown): Mapped {
  if (exception instanceof AppException) {
    return { status: exception.status, code: exception.code, message: exception.message, headers: exception.headers, details: exception.details };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const body = exception.getResponse();
    let message = exception.message;
    if (typeof body === 'object' && body && 'message' in body) {
      const m = (body as { message: unknown }).message;
      message = Array.isArray(m) ? m.join('; ') : String(m);
    }
    // A library's own 5xx (a lost connection, a driver failure) says things about the machine: the
    // caller gets the generic answer, the log gets the error.
    if (status >= 500) return { status, code: 'INTERNAL', message: GENERIC_MESSAGE };
    if (status === 404 && /^Cannot (GET|POST|PUT|PATCH|DELETE)/.test(message)) {
      message = `No route ${message.replace(/^Cannot /, '')}. See /api/docs for the API.`;
    }
    return { status, code: statusCodes[status] ?? (status >= 500 ? 'INTERNAL' : 'BAD_REQUEST'), message };
  }
  const err = exception as { code?: string; name?: string; type?: string; status?: number; expose?: boolean; message?: string };
  if (err && typeof err.code === 'string' && err.code.startsWith('P')) {
    const mapped = mapPrismaError(err);
    if (mapped) return mapped;
  }
  // Prisma refuses arguments that do not fit the schema (null for a required column, an integer
  // past 64 bits) before any SQL: a value from the request that the checks let through.
  if (err?.name === 'PrismaClientValidationError') return UNSTORABLE;
  // validator.js and decodeURIComponent throw URIError on lone surrogates and broken %-escapes.
  if (exception instanceof URIError) return { status: 400, code: 'VALIDATION_FAILED', message: 'The request contains text that is not valid Unicode.' };
  // http-errors raised by express itself (e.g. a path that does not decode): the status is ours.
  if (err?.expose === true && typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
    return { status: err.status, code: statusCodes[err.status] ?? 'BAD_REQUEST', message: 'The request is malformed.' };
  }
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, code: 'INTERNAL', message: GENERIC_MESSAGE };
}

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<{ originalUrl?: string }>();
    const mapped = mapException(exception);
    if (mapped.status >= 500) {
      this.logger.error({ err: exception }, 'unhandled error');
    } else if (mapped.log) {
      this.logger.warn({ err: exception }, 'the database refused a value the input checks let through');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [k, v] of Object.entries(mapped.headers ?? {})) res.setHeader(k, v);
    // EDIT_CONFLICT and the like carry more fields beside code and message (AppException.details).
    res.status(mapped.status).json(errorBodyFor(req.originalUrl ?? '', mapped.status, mapped.code, mapped.message, mapped.details));
  }
}
