import { ModelCancelledError } from './model-error';

export interface RetryPolicy {
  /** Retries after the first attempt (0 = one attempt only). */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error goes to the caller instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Delay before retry number `retry` (1-based): exponential with "equal jitter" (half fixed, half
 * random) so that many workers hit by the same 429 do not come back in lockstep. A server's
 * Retry-After is a floor, never shortened by jitter.
 */
export function backoffDelayMs(
  retry: number,
  policy: RetryPolicy,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const jittered = exp / 2 + random() * (exp / 2);
  return Math.round(retryAfterMs !== undefined ? Math.max(retryAfterMs, jittered) : jittered);
}

/** Retry-After as milliseconds: `retry-after-ms`, then `retry-after` in seconds or as an HTTP date. */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Sleeps, but wakes at once with ModelCancelledError when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ModelCancelledError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ModelCancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
