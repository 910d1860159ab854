import { HttpStatus } from '@nestjs/common';

// The one error type services throw. `code` is a stable string clients can branch on; `message`
// tells a person what happened and what to do next.
export class AppException extends Error {
  constructor(
    readonly status: HttpStatus,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** More fields of the error object beside code and message (e.g. EDIT_CONFLICT's versions). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppException';
  }

  static badRequest(code: string, message: string): AppException {
    return new AppException(HttpStatus.BAD_REQUEST, code, message);
  }
  static unauthorized(message = 'Sign in first, or send a valid API token as "Authorization: Bearer <token>".'): AppException {
    return new AppException(HttpStatus.UNAUTHORIZED, 'UNAUTHENTICATED', message);
  }
  static forbidden(message: string, code = 'FORBIDDEN'): AppException {
    return new AppException(HttpStatus.FORBIDDEN, code, message);
  }
  static notFound(what: string, code = 'NOT_FOUND'): AppException {
    return new AppException(HttpStatus.NOT_FOUND, code, `${what} not found.`);
  }
  static conflict(code: string, message: string): AppException {
    return new AppException(HttpStatus.CONFLICT, code, message);
  }
  static tooManyRequests(message: string, retryAfterSeconds: number): AppException {
    return new AppException(HttpStatus.TOO_MANY_REQUESTS, 'RATE_LIMITED', message, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}

export interface ErrorBody {
  error: { code: string; message: string; [detail: string]: unknown };
}
