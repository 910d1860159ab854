import type { ErrorCode } from '@h/contracts';
import type { BusMessage, EphemeralFrame, EventEnvelope, EventRepository } from '@h/db';

/** Why the api hung up on a stream; the client resumes after `lastSeq` (the log replays by seq). */
export interface StreamEnd {
  code: Extract<ErrorCode, 'SLOW_CONSUMER' | 'STREAM_STALLED'>;
  message: string;
  lastSeq: number;
}

/** One client's transport (an SSE response, a Socket.IO connection). */
export interface StreamSink {
  /** Writes one persisted event; false when the transport is over its high-water mark. */
  event(event: EventEnvelope): boolean;
  ephemeral(frame: EphemeralFrame): void;
  /** Bytes written for this client that it has not taken yet: what the api holds for it. */
  buffered(): number;
  /** Resolves once the transport is below its low-water mark again, or closed. */
  drained(): Promise<void>;
  /** Tells the client why (as far as it still reads) and hangs up. */
  end(reason: StreamEnd): void;
  failed?(error: Error): void;
}

export interface StreamLimits {
  /** Events per replay read. */
  pageSize: number;
  /** Bytes of event data per replay read. */
  pageMaxBytes: number;
  /** Live events are not written past this many buffered bytes: the client is cut instead. */
  clientBufferBytes: number;
  /** A replay that cannot write for this long ends the stream. */
  stallTimeoutMs: number;
}

/**
 * One client's view of a session's log: replays from the database after `afterSeq`, then goes
 * live. Every persisted event is delivered exactly once and in seq order.
 *
 * Memory per client is bounded. The replay reads one page (count and bytes capped) at a time and
 * writes the next event only after the transport drained. Live events that arrive meanwhile are
 * not held: only the newest seq is noted, and the replay reads on until it reached it. Live events
 * to a client whose transport already holds `clientBufferBytes` are not written: the client is
 * cut with SLOW_CONSUMER and resumes by seq. A gap in the live feed (a missed or reordered pub/sub
 * message) triggers a catch-up read.
 */
export class SessionStream {
  private cursor: number;
  private catchingUp = false;
  /** Newest seq seen on the live feed while catching up. */
  private seenSeq = 0;
  private closed = false;
  /** Most bytes the transport held for this client right after a write. */
  peakBuffered = 0;
  /** The replay is waiting for the client to drain. */
  paused = false;

  constructor(
    readonly sessionId: string,
    afterSeq: number,
    private readonly events: EventRepository,
    private readonly sink: StreamSink,
    private readonly limits: StreamLimits,
    private readonly onClose: (s: SessionStream) => void,
  ) {
    this.cursor = afterSeq;
  }

  get lastSeq(): number {
    return this.cursor;
  }

  get bufferedBytes(): number {
    return this.closed ? 0 : this.sink.buffered();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async start(): Promise<void> {
    await this.catchUp();
  }

  push(message: BusMessage): void {
    if (this.closed) return;
    if (this.catchingUp) {
      if (message.kind === 'event') this.seenSeq = Math.max(this.seenSeq, message.event.seq);
      return;
    }
    this.handle(message);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose(this);
  }

  private handle(message: BusMessage): void {
    if (message.kind === 'ephemeral') {
      // A delta that belongs before what the client already has is stale; deltas to a client that
      // is behind are dropped (the persisted message carries the same text).
      if (message.frame.afterSeq >= this.cursor && this.sink.buffered() < this.limits.clientBufferBytes / 4) this.sink.ephemeral(message.frame);
      return;
    }
    const { seq } = message.event;
    if (seq <= this.cursor) return;
    if (seq !== this.cursor + 1) {
      this.seenSeq = Math.max(this.seenSeq, seq);
      void this.catchUp();
      return;
    }
    if (this.sink.buffered() > this.limits.clientBufferBytes) {
      this.hangUp({
        code: 'SLOW_CONSUMER',
        message: `The client read too slowly: more than ${this.limits.clientBufferBytes} bytes were waiting for it (STREAM_CLIENT_BUFFER_BYTES). Reconnect after seq ${this.cursor}.`,
        lastSeq: this.cursor,
      });
      return;
    }
    this.write(message.event);
  }

  private write(event: EventEnvelope): boolean {
    this.cursor = event.seq;
    const ok = this.sink.event(event);
    this.peakBuffered = Math.max(this.peakBuffered, this.sink.buffered());
    return ok;
  }

  private hangUp(reason: StreamEnd): void {
    if (this.closed) return;
    this.close();
    this.sink.end(reason);
  }

  /** Waits for the client to drain; false when the stream ended meanwhile (closed or stalled). */
  private async waitForDrain(): Promise<boolean> {
    this.paused = true;
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<'stalled'>((resolve) => {
      timer = setTimeout(() => resolve('stalled'), this.limits.stallTimeoutMs);
      timer.unref();
    });
    try {
      const outcome = await Promise.race([this.sink.drained().then(() => 'drained' as const), stalled]);
      if (outcome === 'stalled' && !this.closed) {
        this.hangUp({
          code: 'STREAM_STALLED',
          message: `The client took nothing for ${this.limits.stallTimeoutMs} ms (STREAM_STALL_TIMEOUT_MS). Reconnect after seq ${this.cursor}.`,
          lastSeq: this.cursor,
        });
      }
      return !this.closed;
    } finally {
      clearTimeout(timer);
      this.paused = false;
    }
  }

  private async catchUp(): Promise<void> {
    if (this.catchingUp || this.closed) return;
    this.catchingUp = true;
    try {
      for (;;) {
        const page = await this.events.page(this.sessionId, { after: this.cursor, limit: this.limits.pageSize, maxBytes: this.limits.pageMaxBytes });
        if (this.closed) return;
        for (const e of page.items) {
          if (e.seq <= this.cursor) continue;
          if (!this.write(e) && !(await this.waitForDrain())) return;
        }
        // Nothing is held while replaying, so read on until the newest seq the feed announced.
        if (!page.hasMore && this.seenSeq <= this.cursor) break;
        if (!page.items.length && !page.hasMore) break;
      }
    } catch (err) {
      this.sink.failed?.(err as Error);
      this.close();
      return;
    } finally {
      this.catchingUp = false;
    }
  }
}
