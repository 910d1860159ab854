import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { AppConfig } from '@h/config';
import { HealthRepository } from '@h/db';
import { errorBody, errorStatus } from '@h/http';
import { metricsAccess, renderMetrics } from '@h/telemetry';
import { ActiveJobs } from './active-jobs';
import { EventLoopLag, type LagStats } from './event-loop-lag';

export interface WorkerHealth {
  status: 'ok' | 'lagging' | 'redis_unavailable';
  eventLoopLagMs: LagStats;
  maxLagMs: number;
  redis: string;
  activeJobs: number;
}

const REDIS_TIMEOUT_MS = 2000;

/**
 * The worker's only HTTP, on WORKER_HEALTH_HOST:WORKER_HEALTH_PORT (127.0.0.1; off when port is 0):
 * GET /health for the compose healthcheck and operators, GET /metrics for Prometheus (METRICS_TOKEN). 503 while the event loop lags past WORKER_HEALTH_MAX_LAG_MS
 * or Redis does not answer. A worker that is stuck outright cannot answer at all: that case is the
 * stall watchdog's (stall-watchdog.ts), which makes the process exit so it is restarted.
 */
@Injectable()
export class WorkerHealthServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WorkerHealthServer.name);
  private lag: EventLoopLag | null = null;
  private server: Server | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly health: HealthRepository,
    private readonly jobs: ActiveJobs,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.env.WORKER_HEALTH_PORT;
    if (!port) return;
    const host = this.config.env.WORKER_HEALTH_HOST;
    this.lag = new EventLoopLag();
    const server = createServer((req, res) => {
      if (req.method === 'GET' && req.url?.split('?')[0] === '/health') {
        void this.check().then((h) => send(res, h.status === 'ok' ? 200 : 503, h));
        return;
      }
      if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') {
        void this.metrics(req.headers.authorization, res);
        return;
      }
      send(res, errorStatus('NOT_FOUND'), errorBody('NOT_FOUND', 'only GET /health and GET /metrics are served here'));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.server = server;
    this.logger.log({ port, host }, `worker health endpoint listening on ${host}`);
  }

  async check(): Promise<WorkerHealth> {
    const eventLoopLagMs = this.lag?.stats() ?? { p50: 0, p99: 0, max: 0 };
    const redis = await withTimeout(this.health.pingRedis()).then(
      () => 'ok',
      (e: Error) => e.message,
    );
    const maxLagMs = this.config.env.WORKER_HEALTH_MAX_LAG_MS;
    const status = redis !== 'ok' ? 'redis_unavailable' : eventLoopLagMs.p99 > maxLagMs ? 'lagging' : 'ok';
    return { status, eventLoopLagMs, maxLagMs, redis, activeJobs: this.jobs.active };
  }

  /** The worker's Prometheus metrics, behind the same token as the api's /api/metrics. */
  private async metrics(authorization: string | undefined, res: ServerResponse): Promise<void> {
    const access = metricsAccess(authorization, this.config.env.METRICS_TOKEN);
    if (access === 'disabled') return send(res, errorStatus('NOT_FOUND'), errorBody('NOT_FOUND', 'Metrics are off: METRICS_TOKEN is not set.'));
    if (access === 'unauthorized') return send(res, errorStatus('UNAUTHENTICATED'), errorBody('UNAUTHENTICATED', 'Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".'));
    try {
      const { contentType, body } = await renderMetrics('worker');
      res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
      res.end(body);
    } catch (err) {
      this.logger.error({ err }, 'could not collect the metrics');
      send(res, errorStatus('INTERNAL'), errorBody('INTERNAL', 'The metrics could not be collected; see the worker log.'));
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.lag?.close();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function withTimeout<T>(p: Promise<T>): Promise<T> {
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error(`timed out after ${REDIS_TIMEOUT_MS} ms`)), REDIS_TIMEOUT_MS).unref();
    }),
  ]);
}
