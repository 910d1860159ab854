/**
 * A token bucket per socket for raw view input: mouse moves come at the display's rate (the view
 * sends at most one per animation frame), so `perSecond` with a burst of `burst` covers a person and
 * refuses a script flooding the sandbox's Chromium. Time is passed in, so tests need no clock.
 */
export class InputRateLimit {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  /** True when one more event may pass now (and it is counted). */
  take(now: number): boolean {
    const elapsed = Math.max(0, now - this.at);
    this.at = now;
    this.tokens = Math.min(this.burst, this.tokens + (elapsed / 1000) * this.perSecond);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
