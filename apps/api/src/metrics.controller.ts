import { Controller, Get, Headers, HttpStatus, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiProduces, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
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
  @ApiBearerAuth()
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: "Prometheus text format: the api's metrics (see README, Metrics)" })
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
