import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { isH2cPath } from '@h/contracts';
import { contextFromCarrier, metrics, runInContext, SpanKind, SpanStatusCode, startSpan, withLogContext, type Context, type Span } from '@h/telemetry';

interface RequestTelemetry {
  requestId: string;
  ctx: Context;
  span: Span;
}

const TELEMETRY = Symbol('request telemetry');
type Tracked = Request & { id?: string; [TELEMETRY]?: RequestTelemetry };

/** The route template Express matched (`/api/v1/sessions/:id`), never the raw path (its ids). */
function routeOf(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : 'unmatched';
}

const tracked = (req: Request) => req.originalUrl.startsWith('/api') || isH2cPath(req.path);

/**
 * Right after the request logger (which set req.id): the latency histogram by route template and
 * status, the request's server span (a caller's `traceparent` is its parent), and the async context
 * that puts the request id on every log line and makes the span the parent of what the handler does.
 */
export function installRequestTelemetry(app: INestApplication): void {
  app.use((req: Tracked, res: Response, next: NextFunction) => {
    if (!tracked(req)) return next();
    const started = performance.now();
    const { span, ctx } = startSpan(`${req.method} ${req.path}`, { 'http.request.method': req.method, 'url.path': req.path }, {
      kind: SpanKind.SERVER,
      parent: contextFromCarrier(req.headers),
    });
    const requestId = req.id ?? '';
    req[TELEMETRY] = { requestId, ctx, span };
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      const route = routeOf(req);
      const status = res.writableFinished ? res.statusCode : 499; // 499: the client left first
      metrics.httpRequestDuration.observe({ method: req.method, route, status: String(status) }, (performance.now() - started) / 1000);
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status, 'h.request_id': requestId });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    runInContext(ctx, () => withLogContext({ requestId }, next));
  });
}

/**
 * After the body parsers: a parsed body is delivered from the socket's own async context, which
 * lost the one entered above, so the handler's chain is put back into it here.
 */
export function installRequestContext(app: INestApplication): void {
  app.use((req: Tracked, _res: Response, next: NextFunction) => {
    const t = req[TELEMETRY];
    if (!t) return next();
    runInContext(t.ctx, () => withLogContext({ requestId: t.requestId }, next));
  });
}
