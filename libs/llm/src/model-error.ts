export type ModelErrorCode =
  | 'auth'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'bad_request'
  | 'cancelled'
  | 'context_length'
  | 'insufficient_balance';

export interface ModelErrorOptions {
  status?: number;
  retryable?: boolean;
  retryAfterMs?: number;
  /** How many HTTP attempts were made before giving up (filled by the provider). */
  attempts?: number;
  cause?: unknown;
}

/** Every failure of a model call. `message` tells the user what to do; it never contains the key. */
export class ModelError extends Error {
  readonly code: ModelErrorCode;
  readonly status?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  attempts: number;

  constructor(code: ModelErrorCode, message: string, options: ModelErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ModelError';
    this.code = code;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
    this.attempts = options.attempts ?? 1;
  }
}

/**
 * Thrown from the stream iterator when the caller's AbortSignal fires. Its name is 'AbortError'
 * so code that checks abort errors generically (`err.name === 'AbortError'`) treats it as one.
 */
export class ModelCancelledError extends ModelError {
  constructor(message = 'The model request was cancelled.') {
    super('cancelled', message);
    this.name = 'AbortError';
  }
}

export function isModelError(err: unknown): err is ModelError {
  return err instanceof ModelError;
}
