import { Controller, Get, Headers, Param, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig } from '@h/config';
import { EventRepository } from '@h/db';
import { AppException, parseQueryInteger, SESSION_COOKIE } from '@h/http';
import { Access, bearerFrom } from '@h/identity';
import { LiveAccessService } from './realtime/live-access.service';
import { SessionStreamHub } from './realtime/session-stream.hub';
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
  @ApiOkResponse({ type: EventPageDto, description: 'Events with seq > after, oldest first' })
  async listEvents(@Param('id') id: string, @Query() query: EventsQueryDto): Promise<EventPageDto> {
    const limit = query.limit ?? 200;
    const items = await this.events.list(id, { after: query.after ?? 0, limit: limit + 1 });
    const hasMore = items.length > limit;
    const page = items.slice(0, limit);
    return { items: page, nextAfter: page.at(-1)?.seq ?? query.after ?? 0, hasMore };
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
  @ApiOkResponse({ description: 'An endless text/event-stream; data lines are event envelopes', schema: { type: 'string' } })
  async streamEvents(
    @Param('id') id: string,
    @Query() query: StreamQueryDto,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    let after = query.after ?? 0;
    if (lastEventId !== undefined && lastEventId !== '') {
      const seq = parseQueryInteger(lastEventId);
      if (seq === null || seq < 0) throw AppException.badRequest('BAD_LAST_EVENT_ID', 'Last-Event-ID must be an event seq');
      after = seq;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    let closed = false;
    const stream = await this.hub.open(id, after, {
      event: (e) => res.write(`id: ${e.seq}\ndata: ${JSON.stringify(e)}\n\n`),
      ephemeral: (f) => res.write(`event: delta\ndata: ${JSON.stringify(f)}\n\n`),
      failed: () => res.end(),
    });
    // Each heartbeat also re-checks the caller: a logout, a revoked token or leaving the team ends
    // the stream (an EventSource that reconnects then gets the 401/404 itself).
    const credentials = { bearer: bearerFrom(req.headers.authorization), sessionToken: req.cookies?.[SESSION_COOKIE] };
    const heartbeat = setInterval(() => {
      void this.live.verdict(credentials, id).then((v) => {
        if (closed) return;
        if (v.ok === false) {
          close();
          res.end();
        } else res.write(`: heartbeat\n\n`);
      });
    }, this.config.env.SSE_HEARTBEAT_MS);
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      stream.close();
    };
    req.on('close', close);
    res.on('close', close);
  }
}
