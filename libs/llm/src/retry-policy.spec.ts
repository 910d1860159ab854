import { ModelCancelledError } from './model-error';
import { backoffDelayMs, parseRetryAfter, sleep, type RetryPolicy } from './retry-policy';

const policy: RetryPolicy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 60_000 };
const headers = (h: Record<string, string>) => ({ get: (n: string) => h[n] ?? null });

describe(backoffDelayMs.name, () => {
  it('should grow exponentially with jitter between half and the whole step, capped', () => {
    expect(backoffDelayMs(1, policy, undefined, () => 0)).toBe(50);
    expect(backoffDelayMs(1, policy, undefined, () => 1)).toBe(100);
    expect(backoffDelayMs(3, policy, undefined, () => 1)).toBe(400);
    expect(backoffDelayMs(10, policy, undefined, () => 1)).toBe(1000);
  });

  it('should never wait less than the server asked for', () => {
    expect(backoffDelayMs(1, policy, 5000, () => 1)).toBe(5000);
  });
});

describe(parseRetryAfter.name, () => {
  it('should read seconds, milliseconds and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '3' }))).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '3' }))).toBe(250);
    const now = Date.parse('2026-11-29T10:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Sun, 29 Nov 2026 10:00:05 GMT' }), now)).toBe(5000);
    expect(parseRetryAfter(headers({}))).toBeUndefined();
  });
});

describe(sleep.name, () => {
  it('should wake at once with ModelCancelledError when aborted', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(ModelCancelledError);
  });
});
