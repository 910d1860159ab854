import { Controller, Get, Headers, Param, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiProduces, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig } from '@h/config';
import { EventRepository } from '@h/db';
import { AppException, parseQueryInteger, SESSION_COOKIE } from '@h/http';
import { Access, bearerFrom, CurrentPrincipal, type Principal } from '@h/identity';
import { LiveAccessService } from './realtime/live-access.service';
import { SessionStreamHub } from './realtime/session-stream.hub';
import { sseSink } from './realtime/stream-sinks';
import { EventPageDto, EventsQueryDto, StreamQueryDto } from './session.dto';

@ApiTags('events')
@Controller('v1/sessions/:id/events')
export class EventController {
  constructor(
    private readonly events: EventRepository,
    private readonly hub: SessionStreamHub,
    private readonly config: AppConfig,
    private readonly live: LiveAccessService,
  ) {}

  @Get()
  @Access('session', 'id', 'viewer')
  @ApiOkResponse({
    type: EventPageDto,
    description: 'Events with seq > after, oldest first: at most `limit` events and EVENT_PAGE_MAX_BYTES bytes of event data (at least one event); read on from `nextAfter` while `hasMore`',
  })
  async listEvents(@Param('id') id: string, @Query() query: EventsQueryDto): Promise<EventPageDto> {
    const after = query.after ?? 0;
    const page = await this.events.page(id, { after, limit: query.limit ?? 200, maxBytes: this.config.env.EVENT_PAGE_MAX_BYTES });
    return { items: page.items, nextAfter: page.items.at(-1)?.seq ?? after, hasMore: page.hasMore };
  }

  /**
   * Server-sent events: each persisted event as a default `message` with `id:` = its seq (so
   * EventSource resumes by itself via Last-Event-ID), token deltas as `event: delta` without id,
   * and a comment heartbeat.
   */
  @Get('stream')
  @Access('session', 'id', 'viewer')
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this seq', schema: { type: 'string', pattern: '^(0|[1-9]\\d{0,9})$' } })
  @ApiOkResponse({
    description:
      'An endless text/event-stream; data lines are event envelopes. A client that falls more than STREAM_CLIENT_BUFFER_BYTES behind gets `event: stream_error` (SLOW_CONSUMER) and is disconnected; it resumes with Last-Event-ID.',
    schema: { type: 'string' },
  })
  @ApiTooManyRequestsResponse({ description: 'TOO_MANY_STREAMS: the caller already holds STREAMS_PER_PRINCIPAL live streams' })
  async streamEvents(
    @Param('id') id: string,
    @Query() query: StreamQueryDto,
    @Headers('last-event-id') lastEventId: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    let after = query.after ?? 0;
    if (lastEventId !== undefined && lastEventId !== '') {
      const seq = parseQueryInteger(lastEventId);
      if (seq === null || seq < 0) throw AppException.badRequest('BAD_LAST_EVENT_ID', 'Last-Event-ID must be an event seq');
      after = seq;
    }
    // Before the response starts, so a refusal is a plain 429 JSON error.
    const lease = this.hub.reserve(principal);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    let closed = false;
    const stream = this.hub.open(id, after, sseSink(res, { failed: () => res.end() }), lease);
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      stream.close();
    };
    req.on('close', close);
    res.on('close', close);
    // Each heartbeat also re-checks the caller: a logout, a revoked token or leaving the team ends
    // the stream (an EventSource that reconnects then gets the 401/404 itself).
    const credentials = { bearer: bearerFrom(req.headers.authorization), sessionToken: req.cookies?.[SESSION_COOKIE] };
    const heartbeat = setInterval(() => {
      void this.live.verdict(credentials, id).then((v) => {
        if (closed) return;
        if (v.ok === false) {
          close();
          res.end();
        } else if (!res.writableNeedDrain) res.write(`: heartbeat\n\n`);
      });
    }, this.config.env.SSE_HEARTBEAT_MS);
    // The replay; a client that leaves during it closes the stream, which ends it.
    await stream.start();
  }
}
