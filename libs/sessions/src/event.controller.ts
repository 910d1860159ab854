import { Controller, Get, Headers, Param, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiProduces, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig } from '@h/config';
import { EventRepository } from '@h/db';
import { AppException, parseQueryInteger, SESSION_COOKIE } from '@h/http';
import { Access, bearerFrom, CurrentPrincipal, type Principal } from '@h/identity';
import { SseStreamService } from './realtime/sse-stream.service';
import { sseSink } from './realtime/stream-sinks';
import { EventPageDto, EventsQueryDto, StreamQueryDto } from './session.dto';

@ApiTags('events')
@Controller('v1/sessions/:id/events')
export class EventController {
  constructor(
    private readonly events: EventRepository,
    private readonly sse: SseStreamService,
    private readonly config: AppConfig,
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
    schema: {
      type: 'string',
      example:
        'retry: 2000\n\n' +
        'id: 12\ndata: {"sessionId":"7d3f6c2a-5b1e-4c8a-9f0d-2e6b8a4c1d90","seq":12,"runId":"0b6e2f4c-8d1a-4e3b-9c5f-7a2d6e8b1c43","ts":"2026-12-01T09:30:00.000Z","type":"tool.end","data":{"toolCallId":"call_0_7f3a","name":"run_command","result":"24 passed","isError":false,"durationMs":1840}}\n\n' +
        'event: delta\ndata: {"sessionId":"7d3f6c2a-5b1e-4c8a-9f0d-2e6b8a4c1d90","runId":"0b6e2f4c-8d1a-4e3b-9c5f-7a2d6e8b1c43","afterSeq":12,"ts":"2026-12-01T09:30:01.000Z","type":"text.delta","data":{"delta":"All tests"}}\n\n',
    },
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
    await this.sse.serve(req, res, {
      sessionId: id,
      after,
      principal,
      credentials: { bearer: bearerFrom(req.headers.authorization), sessionToken: req.cookies?.[SESSION_COOKIE] },
      sink: (r, ended) => sseSink(r, { failed: ended }),
      preamble: 'retry: 2000\n\n',
    });
  }
}
