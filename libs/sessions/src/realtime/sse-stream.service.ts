import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '@h/config';
import { metrics } from '@h/telemetry';
import type { Principal } from '@h/identity';
import { LiveAccessService, type LiveCredentials } from './live-access.service';
import { SessionStreamHub, type StreamSink } from './session-stream.hub';

export interface SseStreamOptions {
  sessionId: string;
  /** Replay the log after this seq, then go live. */
  after: number;
  principal: Principal;
  /** What the request authenticated with; re-checked on every heartbeat. */
  credentials: LiveCredentials;
  /** Turns the response into the stream's transport (H's frames by default: `sseSink`). */
  sink(res: Response, ended: () => void): StreamSink;
  /** Written right after the headers (e.g. `retry:`, or h2c's `connected` frame). */
  preamble: string;
}

/**
 * One replay-then-live SSE response over a session's log, shared by H's event stream and h2c's
 * task stream: the per-principal budget (taken before the response starts, so a refusal is a plain
 * JSON error), a heartbeat that also re-checks the caller (a logout, a revoked token or leaving the
 * team ends the stream), and closing on either side's hang-up.
 */
@Injectable()
export class SseStreamService {
  constructor(
    private readonly hub: SessionStreamHub,
    private readonly live: LiveAccessService,
    private readonly config: AppConfig,
  ) {}

  async serve(req: Request, res: Response, options: SseStreamOptions): Promise<void> {
    const lease = this.hub.reserve(options.principal);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(options.preamble);
    metrics.sseConnections.inc();
    let closed = false;
    // Used only once the stream and the heartbeat below exist (nothing ends a stream while it opens).
    const close = () => {
      if (closed) return;
      closed = true;
      metrics.sseConnections.dec();
      clearInterval(heartbeat);
      stream.close();
    };
    const ended = () => {
      close();
      res.end();
    };
    const stream = this.hub.open(options.sessionId, options.after, options.sink(res, ended), lease);
    req.on('close', close);
    res.on('close', close);
    const heartbeat = setInterval(() => {
      void this.live.verdict(options.credentials, options.sessionId).then((v) => {
        if (closed) return;
        if (v.ok === false) ended();
        else if (!res.writableNeedDrain) res.write(`: heartbeat\n\n`);
      });
    }, this.config.env.SSE_HEARTBEAT_MS);
    // The replay; a client that leaves during it closes the stream, which ends it.
    await stream.start();
  }
}
