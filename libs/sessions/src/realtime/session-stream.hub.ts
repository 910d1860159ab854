import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { BusMessage, EphemeralFrame, EventBusRepository, EventEnvelope, EventRepository } from '@h/db';

export interface StreamSink {
  event(event: EventEnvelope): void;
  ephemeral(frame: EphemeralFrame): void;
  failed?(error: Error): void;
}

const PAGE = 500;

/**
 * One client's view of a session's log: replays from the database after `afterSeq`, then goes
 * live. Every persisted event is delivered exactly once and in seq order: live events that arrive
 * while replaying are held back, duplicates are dropped, and a gap (a missed or reordered pub/sub
 * message) triggers a catch-up read from the database.
 */
export class SessionStream {
  private cursor: number;
  private catchingUp = false;
  private held: BusMessage[] = [];
  private closed = false;

  constructor(
    readonly sessionId: string,
    afterSeq: number,
    private readonly events: EventRepository,
    private readonly sink: StreamSink,
    private readonly onClose: (s: SessionStream) => void,
  ) {
    this.cursor = afterSeq;
  }

  get lastSeq(): number {
    return this.cursor;
  }

  async start(): Promise<void> {
    await this.catchUp();
  }

  push(message: BusMessage): void {
    if (this.closed) return;
    if (this.catchingUp) {
      if (message.kind === 'event') this.held.push(message);
      return;
    }
    this.handle(message);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.held = [];
    this.onClose(this);
  }

  private handle(message: BusMessage): void {
    if (message.kind === 'ephemeral') {
      // A delta that belongs before what the client already has is stale.
      if (message.frame.afterSeq >= this.cursor) this.sink.ephemeral(message.frame);
      return;
    }
    const { seq } = message.event;
    if (seq <= this.cursor) return;
    if (seq === this.cursor + 1) {
      this.deliver(message.event);
      return;
    }
    void this.catchUp();
  }

  private deliver(event: EventEnvelope): void {
    this.cursor = event.seq;
    this.sink.event(event);
  }

  private async catchUp(): Promise<void> {
    if (this.catchingUp || this.closed) return;
    this.catchingUp = true;
    try {
      for (;;) {
        const page = await this.events.list(this.sessionId, { after: this.cursor, limit: PAGE });
        if (this.closed) return;
        for (const e of page) this.deliver(e);
        if (page.length < PAGE) break;
      }
    } catch (err) {
      this.sink.failed?.(err as Error);
      this.close();
      return;
    } finally {
      this.catchingUp = false;
    }
    const held = this.held.sort((a, b) => (a.kind === 'event' && b.kind === 'event' ? a.event.seq - b.event.seq : 0));
    this.held = [];
    for (const m of held) {
      if (this.catchingUp || this.closed) {
        this.held.push(m);
        continue;
      }
      this.handle(m);
    }
  }
}

/** Routes this process's single Redis subscription to the open streams of each session. */
@Injectable()
export class SessionStreamHub implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SessionStreamHub.name);
  private readonly streams = new Map<string, Set<SessionStream>>();
  private unsubscribe?: () => void;

  constructor(
    private readonly bus: EventBusRepository,
    private readonly events: EventRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = await this.bus.onMessage((sessionId, message) => {
      for (const s of this.streams.get(sessionId) ?? []) s.push(message);
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    for (const set of this.streams.values()) for (const s of set) s.close();
  }

  /** Opens a stream; it is registered before the replay starts, so nothing published meanwhile is lost. */
  async open(sessionId: string, afterSeq: number, sink: StreamSink): Promise<SessionStream> {
    const stream = new SessionStream(sessionId, afterSeq, this.events, sink, (s) => {
      const set = this.streams.get(sessionId);
      set?.delete(s);
      if (set && !set.size) this.streams.delete(sessionId);
    });
    const set = this.streams.get(sessionId) ?? new Set();
    set.add(stream);
    this.streams.set(sessionId, set);
    await stream.start();
    this.logger.debug({ sessionId, afterSeq, lastSeq: stream.lastSeq }, 'stream opened');
    return stream;
  }

  get openStreams(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }
}
