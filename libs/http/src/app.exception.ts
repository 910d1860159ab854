import { HttpStatus } from '@nestjs/common';
import type { ErrorBody, ErrorCode } from '@h/contracts';

export type { ErrorBody, ErrorCode };

// The one error type services throw. `code` comes from the registry (libs/contracts
// error-codes.ts), so a typo does not compile; `message` tells a person what happened and what
// to do next.
export class AppException extends Error {
  constructor(
    readonly status: HttpStatus,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** More fields of the error object beside code and message (e.g. EDIT_CONFLICT's versions). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppException';
  }

  static badRequest(code: ErrorCode, message: string): AppException {
    return new AppException(HttpStatus.BAD_REQUEST, code, message);
  }
  static unauthorized(message = 'Sign in first, or send a valid API token as "Authorization: Bearer <token>".'): AppException {
    return new AppException(HttpStatus.UNAUTHORIZED, 'UNAUTHENTICATED', message);
  }
  static forbidden(message: string, code: ErrorCode = 'FORBIDDEN'): AppException {
    return new AppException(HttpStatus.FORBIDDEN, code, message);
  }
  static notFound(what: string, code: ErrorCode = 'NOT_FOUND'): AppException {
    return new AppException(HttpStatus.NOT_FOUND, code, `${what} not found.`);
  }
  static conflict(code: ErrorCode, message: string): AppException {
    return new AppException(HttpStatus.CONFLICT, code, message);
  }
  static tooManyRequests(message: string, retryAfterSeconds: number): AppException {
    return new AppException(HttpStatus.TOO_MANY_REQUESTS, 'RATE_LIMITED', message, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}
