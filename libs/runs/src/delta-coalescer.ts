/** A live-only token delta as the job publishes it. */
export interface CoalescedDelta {
  type: 'text.delta' | 'thinking.delta';
  delta: string;
  /** When its first piece arrived. */
  ts: string;
}

/**
 * Token deltas that arrive in one event-loop turn go out as one publish. A provider's chunks of
 * one network read reach the engine together: a fast model's answer was a publish per chunk (a
 * Redis round trip and a fan-out to every socket each, in the worker's and the api's CPU on the
 * step's path, bench/runs); a slow one's tokens still leave one read at a time, no later than
 * before but for a setImmediate. Pieces of another type, and every persisted event (`flush` first),
 * keep their order.
 */
export class DeltaCoalescer {
  private pending: CoalescedDelta | null = null;
  private scheduled = false;

  constructor(private readonly emit: (delta: CoalescedDelta) => void) {}

  push(type: CoalescedDelta['type'], delta: string): void {
    if (this.pending?.type === type) {
      this.pending.delta += delta;
      return;
    }
    this.flush();
    this.pending = { type, delta, ts: new Date().toISOString() };
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** Emits what is pending now (before an event that must follow it). */
  flush(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.emit(pending);
  }
}
