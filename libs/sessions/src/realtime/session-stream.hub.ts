import { HttpStatus, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { EventBusRepository, EventRepository } from '@h/db';
import { AppException } from '@h/http';
import type { Principal } from '@h/identity';
import { SessionStream, type StreamEnd, type StreamLimits, type StreamSink } from './session-stream';

export { SessionStream, type StreamEnd, type StreamSink } from './session-stream';

/** Events per replay read; the byte cap (EVENT_PAGE_MAX_BYTES) usually ends a page first. */
const REPLAY_PAGE = 200;

/** A place in the per-principal stream budget, held by one open stream until it closes. */
export interface StreamLease {
  readonly principal: string;
  release(): void;
}

/** What the hub holds for one open stream, for tests and diagnostics. */
export interface StreamStats {
  sessionId: string;
  principal: string;
  lastSeq: number;
  bufferedBytes: number;
  peakBufferedBytes: number;
  paused: boolean;
}

/** A user's streams count together whatever they log in with; each API token has its own budget. */
export function principalKey(principal: Principal): string {
  return principal.kind === 'token' ? `token:${principal.tokenId}` : `user:${principal.userId}`;
}

/**
 * Routes this process's single Redis subscription to the open streams of each session, and keeps
 * each principal's open streams (SSE plus Socket.IO subscriptions) within STREAMS_PER_PRINCIPAL.
 */
@Injectable()
export class SessionStreamHub implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SessionStreamHub.name);
  private readonly streams = new Map<string, Set<SessionStream>>();
  private readonly owners = new Map<SessionStream, string>();
  private readonly perPrincipal = new Map<string, number>();
  /** Highest peakBuffered of the streams already closed. */
  private closedPeak = 0;
  /** Streams cut, by reason, since start. */
  readonly cuts: Record<StreamEnd['code'], number> = { SLOW_CONSUMER: 0, STREAM_STALLED: 0 };
  private unsubscribe?: () => void;

  constructor(
    private readonly bus: EventBusRepository,
    private readonly events: EventRepository,
    private readonly config: AppConfig,
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

  /**
   * Takes a place in the principal's stream budget, or refuses with 429 TOO_MANY_STREAMS. Taken
   * before an SSE response starts, so the refusal is a plain JSON error.
   */
  reserve(principal: Principal): StreamLease {
    const key = principalKey(principal);
    const limit = this.config.env.STREAMS_PER_PRINCIPAL;
    const open = this.perPrincipal.get(key) ?? 0;
    if (open >= limit) {
      throw new AppException(
        HttpStatus.TOO_MANY_REQUESTS,
        'TOO_MANY_STREAMS',
        `At most ${limit} live streams (SSE streams and Socket.IO subscriptions) may be open at once per user or API token (STREAMS_PER_PRINCIPAL); close one first.`,
      );
    }
    this.perPrincipal.set(key, open + 1);
    let released = false;
    return {
      principal: key,
      release: () => {
        if (released) return;
        released = true;
        const n = (this.perPrincipal.get(key) ?? 1) - 1;
        if (n > 0) this.perPrincipal.set(key, n);
        else this.perPrincipal.delete(key);
      },
    };
  }

  /**
   * Registers a stream holding `lease` (released when the stream closes); the caller then awaits
   * `start()`, the replay. Registered first, so nothing published during the replay is lost and a
   * client that leaves during it can close it at once.
   */
  open(sessionId: string, afterSeq: number, sink: StreamSink, lease: StreamLease): SessionStream {
    const env = this.config.env;
    const limits: StreamLimits = {
      pageSize: REPLAY_PAGE,
      pageMaxBytes: env.EVENT_PAGE_MAX_BYTES,
      clientBufferBytes: env.STREAM_CLIENT_BUFFER_BYTES,
      stallTimeoutMs: env.STREAM_STALL_TIMEOUT_MS,
    };
    const logged: StreamSink = {
      ...sink,
      end: (reason: StreamEnd) => {
        this.cuts[reason.code]++;
        this.logger.warn({ sessionId, principal: lease.principal, ...reason }, 'stream cut');
        sink.end(reason);
      },
    };
    const stream = new SessionStream(sessionId, afterSeq, this.events, logged, limits, (s) => {
      lease.release();
      this.closedPeak = Math.max(this.closedPeak, s.peakBuffered);
      this.owners.delete(s);
      const set = this.streams.get(sessionId);
      set?.delete(s);
      if (set && !set.size) this.streams.delete(sessionId);
    });
    const set = this.streams.get(sessionId) ?? new Set();
    set.add(stream);
    this.streams.set(sessionId, set);
    this.owners.set(stream, lease.principal);
    this.logger.debug({ sessionId, afterSeq }, 'stream opened');
    return stream;
  }

  get openStreams(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  /** The most bytes any stream's transport held right after a write, since start. */
  get peakBufferedBytes(): number {
    let peak = this.closedPeak;
    for (const set of this.streams.values()) for (const s of set) peak = Math.max(peak, s.peakBuffered);
    return peak;
  }

  /** Open streams and what their transports hold: the bound on a slow client is read here. */
  stats(): StreamStats[] {
    const out: StreamStats[] = [];
    for (const [sessionId, set] of this.streams) {
      for (const s of set) {
        out.push({
          sessionId,
          principal: this.owners.get(s) ?? '',
          lastSeq: s.lastSeq,
          bufferedBytes: s.bufferedBytes,
          peakBufferedBytes: s.peakBuffered,
          paused: s.paused,
        });
      }
    }
    return out;
  }
}
