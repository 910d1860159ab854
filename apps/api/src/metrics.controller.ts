import { Controller, Get, Headers, HttpStatus, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { AppConfig } from '@h/config';
import { AppException, ErrorResponseDto } from '@h/http';
import { Public } from '@h/identity';
import { metricsAccess, renderMetrics } from '@h/telemetry';

@ApiTags('health')
@Controller()
export class MetricsController {
  constructor(private readonly config: AppConfig) {}

  // Not a user route: the metrics token (METRICS_TOKEN) is the only credential it takes, so the
  // session/API-token guard stays out of it. The worker's own endpoint checks the same token.
  @Public()
  @Get('metrics')
  @ApiOperation({
    summary: 'Prometheus metrics of this api process',
    description:
      'For Prometheus, not people: no user session or API token counts here, only the metrics token, sent as `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN configured the route answers 404. The worker serves its own metrics at GET /metrics on WORKER_HEALTH_HOST:WORKER_HEALTH_PORT.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: "Prometheus text format: the api's metrics (README, Metrics and traces)",
    content: { 'text/plain': { schema: { type: 'string' }, example: 'h_sse_connections 0\nh_queue_jobs{queue="agent",state="waiting"} 0\n' } },
  })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'UNAUTHENTICATED: no or a wrong `Authorization: Bearer <METRICS_TOKEN>`' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'NOT_FOUND: METRICS_TOKEN is not set, so metrics are off' })
  async getMetrics(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) res: Response): Promise<string> {
    const access = metricsAccess(authorization, this.config.env.METRICS_TOKEN);
    if (access === 'disabled') throw new AppException(HttpStatus.NOT_FOUND, 'NOT_FOUND', 'Metrics are off: METRICS_TOKEN is not set.');
    if (access === 'unauthorized') throw AppException.unauthorized('Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".');
    const { contentType, body } = await renderMetrics('api');
    res.setHeader('content-type', contentType);
    res.setHeader('cache-control', 'no-store');
    return body;
  }
}
