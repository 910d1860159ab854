import { Controller, Get, HttpStatus, Logger, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { HealthRepository } from '@h/db';
import { errorBody, ErrorResponseDto } from '@h/http';
import { Public } from '@h/identity';

class HealthDto {
  @ApiProperty({ example: 'ok' }) status: string;
}

class ReadyDto {
  @ApiProperty({ example: 'ok' }) status: string;
  @ApiProperty({ example: { postgres: 'ok', redis: 'ok' } }) checks: Record<string, string>;
}

@ApiTags('health')
@Controller()
export class HealthController {
  private readonly logger = new Logger('Health');

  constructor(private readonly health: HealthRepository) {}

  @Public()
  @Get('api/health')
  @ApiOkResponse({ type: HealthDto, description: 'The process is up' })
  getHealth(): HealthDto {
    return { status: 'ok' };
  }

  @Public()
  @Get('api/ready')
  @ApiOkResponse({ type: ReadyDto, description: 'Postgres and Redis answer' })
  @ApiServiceUnavailableResponse({ type: ErrorResponseDto, description: 'NOT_READY: a dependency does not answer' })
  async getReady(@Res({ passthrough: true }) res: Response): Promise<ReadyDto | ErrorResponseDto> {
    const checks: Record<string, string> = {};
    const timeout = <T>(p: Promise<T>) =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out after 2s')), 2000).unref())]);
    // Anyone may ask, so the answer names what is down, never why: driver errors carry addresses,
    // user names and versions. The reason goes to the log.
    const check = (name: string, ping: Promise<unknown>) =>
      timeout(ping).then(
        () => (checks[name] = 'ok'),
        (err: Error) => {
          this.logger.error({ err, dependency: name }, 'readiness check failed');
          checks[name] = 'unreachable';
        },
      );
    await Promise.all([check('postgres', this.health.pingPostgres()), check('redis', this.health.pingRedis())]);
    const failing = Object.entries(checks).filter(([, v]) => v !== 'ok');
    if (failing.length) {
      res.status(HttpStatus.SERVICE_UNAVAILABLE);
      return errorBody('NOT_READY', failing.map(([k, v]) => `${k}: ${v}`).join('; '));
    }
    return { status: 'ok', checks };
  }
}
