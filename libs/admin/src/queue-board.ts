import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { Application, NextFunction, Request, Response } from 'express';
import { AppConfig } from '@h/config';
import { QUEUE_BOARD_PATH } from '@h/contracts';
import { CSRF_HEADER } from '@h/http';
import { type AuthedRequest, InstanceAdminMiddleware } from '@h/identity';
import { QueueName } from '@h/jobs';

/**
 * H's own JSON parser (libs/http body-parser.ts, with its input policy) has read the body of every
 * /api request already; the board's router runs express 4's json parser again, which would read
 * the spent stream and fail ("stream is not readable"). That parser skips requests marked `_body`.
 */
function bodyAlreadyRead(req: Request, _res: Response, next: NextFunction): void {
  if (req.body !== undefined) (req as Request & { _body?: boolean })._body = true;
  next();
}

// Bull Board's page sends its writes (pause, retry, clean) with axios, which echoes a cookie named
// XSRF-TOKEN as the X-XSRF-TOKEN header on same-origin requests and knows nothing of H's names. The
// board's pages get H's CSRF token under axios' cookie name (path-scoped to the board), and the
// header axios sends is read as H's own, so the same double-submit check applies to the board's
// writes; a cross-site request can read neither cookie.
const BOARD_CSRF_COOKIE = 'XSRF-TOKEN';
const BOARD_CSRF_HEADER = 'x-xsrf-token';

function boardCsrfHeader(req: Request, _res: Response, next: NextFunction): void {
  const sent = req.headers[BOARD_CSRF_HEADER];
  if (req.headers[CSRF_HEADER] === undefined && typeof sent === 'string') req.headers[CSRF_HEADER] = sent;
  next();
}

/**
 * Bull Board at /api/admin/queues: every queue of libs/jobs' registry, behind the same session,
 * CSRF and instance-admin checks as @InstanceAdmin() routes. It is an express router (its own
 * HTML, static files and JSON API), not a Nest controller, so it is mounted on the http adapter
 * once Nest has registered its routes and before Nest's 404 handler (onModuleInit runs between the
 * two). The HTML's <base href> is the full path, so its static files load through the web proxy
 * and under the /api prefix alike.
 */
@Injectable()
export class QueueBoard implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly moduleRef: ModuleRef,
    private readonly guard: InstanceAdminMiddleware,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const http = this.adapterHost.httpAdapter;
    // The worker and the tests' bare modules have no express server to mount on.
    if (!http || http.getType() !== 'express') return;
    const board = new ExpressAdapter();
    board.setBasePath(QUEUE_BOARD_PATH);
    const queues = Object.values(QueueName).map((name) => new BullMQAdapter(this.moduleRef.get<Queue>(getQueueToken(name), { strict: false })));
    createBullBoard({ queues, serverAdapter: board, options: { uiConfig: { boardTitle: 'H queues' } } });
    const app = http.getInstance<Application>();
    const csrfCookie = (req: AuthedRequest, res: Response, next: NextFunction) => {
      if (req.method === 'GET' && req.principal?.kind === 'user') {
        res.cookie(BOARD_CSRF_COOKIE, req.principal.csrfToken, { sameSite: 'lax', secure: this.config.secureCookies, path: QUEUE_BOARD_PATH, httpOnly: false });
      }
      next();
    };
    app.use(QUEUE_BOARD_PATH, boardCsrfHeader, this.guard.handle, csrfCookie, bodyAlreadyRead, board.getRouter());
  }
}
