import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { DeltaFrame } from '@h/contracts';
import { RedisService } from '../redis.service';
import type { EventEnvelope } from './event.repository';

/**
 * Live-only frames (token deltas) carry no seq; `afterSeq` says which persisted event they follow.
 * The api sends them on as they are: the contract's DeltaFrame.
 */
export type EphemeralFrame = DeltaFrame;

export type BusMessage = { kind: 'event'; event: EventEnvelope } | { kind: 'ephemeral'; frame: EphemeralFrame };

export type BusListener = (sessionId: string, message: BusMessage) => void;

// Redis pub/sub fan-out of session events and run control signals. Events are published only after
// they are committed to Postgres, so a subscriber that misses a message recovers it from the log.
@Injectable()
export class EventBusRepository implements OnModuleDestroy {
  private subscriber: Redis | null = null;
  private readonly listeners = new Set<BusListener>();
  private readonly cancelListeners = new Set<(runId: string) => void>();

  constructor(private readonly redis: RedisService) {}

  private channel(sessionId: string): string {
    return this.redis.key('events', sessionId);
  }

  async publishEvents(events: EventEnvelope[]): Promise<void> {
    if (!events.length) return;
    const pipeline = this.redis.client.pipeline();
    for (const event of events) pipeline.publish(this.channel(event.sessionId), JSON.stringify({ kind: 'event', event } satisfies BusMessage));
    await pipeline.exec();
  }

  async publishEphemeral(frame: EphemeralFrame): Promise<void> {
    await this.redis.client.publish(this.channel(frame.sessionId), JSON.stringify({ kind: 'ephemeral', frame } satisfies BusMessage));
  }

  async publishCancel(runId: string): Promise<void> {
    await this.redis.client.publish(this.redis.key('run-cancel'), runId);
  }

  /** Starts one pattern subscription per process; listeners filter by session. */
  async onMessage(listener: BusListener): Promise<() => void> {
    await this.ensureSubscriber();
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async onCancel(listener: (runId: string) => void): Promise<() => void> {
    await this.ensureSubscriber();
    this.cancelListeners.add(listener);
    return () => this.cancelListeners.delete(listener);
  }

  private async ensureSubscriber(): Promise<void> {
    if (this.subscriber) return;
    const sub = this.redis.client.duplicate();
    this.subscriber = sub;
    const eventsPattern = this.redis.key('events', '*');
    const cancelChannel = this.redis.key('run-cancel');
    const prefixLength = this.redis.key('events', '').length;
    sub.on('pmessage', (_pattern, channel, payload) => {
      const sessionId = channel.slice(prefixLength);
      let message: BusMessage;
      try {
        message = JSON.parse(payload);
      } catch {
        return;
      }
      for (const l of this.listeners) l(sessionId, message);
    });
    sub.on('message', (channel, payload) => {
      if (channel === cancelChannel) for (const l of this.cancelListeners) l(payload);
    });
    await Promise.all([sub.psubscribe(eventsPattern), sub.subscribe(cancelChannel)]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }
}
