import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { DeltaFrame, WorkspaceStatusEvent } from '@h/contracts';
import { detachedFromContext } from '@h/telemetry';
import { RedisService } from '../redis.service';
import type { EventEnvelope } from './event.repository';

/**
 * Live-only frames (token deltas) carry no seq; `afterSeq` says which persisted event they follow.
 * The api sends them on as they are: the contract's DeltaFrame.
 */
export type EphemeralFrame = DeltaFrame;

export type BusMessage = { kind: 'event'; event: EventEnvelope } | { kind: 'ephemeral'; frame: EphemeralFrame };

export type BusListener = (sessionId: string, message: BusMessage) => void;

/**
 * What travels on a session's channel: a batch of persisted events (one append's, in seq order)
 * or one ephemeral frame. Listeners still get one BusMessage per event.
 */
type WireMessage = { kind: 'events'; events: EventEnvelope[] } | { kind: 'ephemeral'; frame: EphemeralFrame };

// Redis pub/sub fan-out of session events and run control signals. Events are published only after
// they are committed to Postgres, so a subscriber that misses a message recovers it from the log.
@Injectable()
export class EventBusRepository implements OnModuleDestroy {
  private subscriber: Redis | null = null;
  /** Each listener with the sessions it wants (none given: all of them). */
  private readonly listeners = new Map<BusListener, ((sessionId: string) => boolean) | undefined>();
  private readonly cancelListeners = new Set<(runId: string) => void>();
  private readonly statusListeners = new Set<(event: WorkspaceStatusEvent) => void>();
  private readonly dismissListeners = new Set<(ref: { workspaceId: string; terminalId: string }) => void>();

  constructor(private readonly redis: RedisService) {}

  private channel(sessionId: string): string {
    return this.redis.key('events', sessionId);
  }

  async publishEvents(events: EventEnvelope[]): Promise<void> {
    if (!events.length) return;
    // One message per session for the whole batch (usually one append's events): a publish per
    // event made every subscriber parse and dispatch each one on its own (bench/runs).
    const bySession = new Map<string, EventEnvelope[]>();
    for (const event of events) {
      const batch = bySession.get(event.sessionId);
      if (batch) batch.push(event);
      else bySession.set(event.sessionId, [event]);
    }
    if (bySession.size === 1) {
      await this.redis.client.publish(this.channel(events[0].sessionId), JSON.stringify({ kind: 'events', events } satisfies WireMessage));
      return;
    }
    const pipeline = this.redis.client.pipeline();
    for (const [sessionId, batch] of bySession) pipeline.publish(this.channel(sessionId), JSON.stringify({ kind: 'events', events: batch } satisfies WireMessage));
    await pipeline.exec();
  }

  async publishEphemeral(frame: EphemeralFrame): Promise<void> {
    await this.redis.client.publish(this.channel(frame.sessionId), JSON.stringify({ kind: 'ephemeral', frame } satisfies WireMessage));
  }

  async publishCancel(runId: string): Promise<void> {
    await this.redis.client.publish(this.redis.key('run-cancel'), runId);
  }

  /** A workspace's setup progressed (worker) or ended: every api process tells its watching sockets. */
  async publishWorkspaceStatus(event: WorkspaceStatusEvent): Promise<void> {
    await this.redis.client.publish(this.redis.key('workspace-status'), JSON.stringify(event));
  }

  /** An ended terminal's history was dismissed: every api process updates its watching sockets' lists. */
  async publishTerminalDismissed(ref: { workspaceId: string; terminalId: string }): Promise<void> {
    await this.redis.client.publish(this.redis.key('terminal-dismissed'), JSON.stringify(ref));
  }

  async onTerminalDismissed(listener: (ref: { workspaceId: string; terminalId: string }) => void): Promise<() => void> {
    await this.ensureSubscriber();
    this.dismissListeners.add(listener);
    return () => this.dismissListeners.delete(listener);
  }

  async onWorkspaceStatus(listener: (event: WorkspaceStatusEvent) => void): Promise<() => void> {
    await this.ensureSubscriber();
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /**
   * Starts one pattern subscription per process; listeners filter by session. `wants` says which
   * sessions a listener cares about: a message no listener wants is not even parsed (a worker sees
   * every session's events and token deltas, and needs only those of the runs it holds).
   */
  async onMessage(listener: BusListener, wants?: (sessionId: string) => boolean): Promise<() => void> {
    await this.ensureSubscriber();
    this.listeners.set(listener, wants);
    return () => this.listeners.delete(listener);
  }

  async onCancel(listener: (runId: string) => void): Promise<() => void> {
    await this.ensureSubscriber();
    this.cancelListeners.add(listener);
    return () => this.cancelListeners.delete(listener);
  }

  private async ensureSubscriber(): Promise<void> {
    if (this.subscriber) return;
    // The subscriber lives as long as the process; its callbacks must not run in the context of
    // the request or job that happened to subscribe first (its ids would be on their log lines).
    const sub = detachedFromContext(() => this.redis.client.duplicate());
    this.subscriber = sub;
    const eventsPattern = this.redis.key('events', '*');
    const cancelChannel = this.redis.key('run-cancel');
    const statusChannel = this.redis.key('workspace-status');
    const dismissChannel = this.redis.key('terminal-dismissed');
    const prefixLength = this.redis.key('events', '').length;
    sub.on('pmessage', (_pattern, channel, payload) => {
      const sessionId = channel.slice(prefixLength);
      let messages: BusMessage[] | undefined;
      for (const [listener, wants] of this.listeners) {
        if (wants && !wants(sessionId)) continue;
        try {
          messages ??= unpack(JSON.parse(payload) as WireMessage);
        } catch {
          return;
        }
        for (const message of messages) listener(sessionId, message);
      }
    });
    sub.on('message', (channel, payload) => {
      if (channel === cancelChannel) for (const l of this.cancelListeners) l(payload);
      if (channel === dismissChannel) {
        const ref = parseTerminalRef(payload);
        if (ref) for (const l of this.dismissListeners) l(ref);
      }
      if (channel === statusChannel) {
        const event = parseStatus(payload);
        if (event) for (const l of this.statusListeners) l(event);
      }
    });
    await Promise.all([sub.psubscribe(eventsPattern), sub.subscribe(cancelChannel, statusChannel, dismissChannel)]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }
}

/** A channel message as the listeners take it: one BusMessage per event of a batch. */
function unpack(wire: WireMessage): BusMessage[] {
  if (wire.kind === 'events') return wire.events.map((event) => ({ kind: 'event', event }));
  return wire.kind === 'ephemeral' ? [wire] : [];
}

function parseStatus(payload: string): WorkspaceStatusEvent | null {
  try {
    const e = JSON.parse(payload) as Partial<WorkspaceStatusEvent>;
    if (typeof e?.workspaceId !== 'string' || typeof e.status !== 'string') return null;
    return { workspaceId: e.workspaceId, status: e.status, statusMessage: typeof e.statusMessage === 'string' ? e.statusMessage : null };
  } catch {
    return null;
  }
}

function parseTerminalRef(payload: string): { workspaceId: string; terminalId: string } | null {
  try {
    const r = JSON.parse(payload) as { workspaceId?: unknown; terminalId?: unknown };
    return typeof r?.workspaceId === 'string' && typeof r.terminalId === 'string' ? { workspaceId: r.workspaceId, terminalId: r.terminalId } : null;
  } catch {
    return null;
  }
}
