import type { INestApplication } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppConfig } from '@h/config';
import { H2C_ROUTE_PATHS } from '@h/contracts';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { installBodyParsers } from './body-parser';
import { installClientErrorAnswer } from './client-error';
import { installHttpLogger } from './logging';
import { setupOpenApi } from './openapi';
import { installRequestContext, installRequestTelemetry } from './request-telemetry';
import { createValidationPipe } from './validation.pipe';
import { installWebProxy } from './web-proxy';

/**
 * Routes outside the global `/api` prefix, by route path: h2c's (clients expect `/health` and
 * `/v1/task*` at the root) and H's own health routes, whose controller names `api/` itself (an
 * excluded path matches by route path alone, so h2c's `health` would otherwise take `/api/health`).
 */
export const UNPREFIXED_ROUTES: readonly string[] = [...H2C_ROUTE_PATHS, 'api/health', 'api/ready'];

/** Everything main.ts and the e2e tests share, so tests boot exactly what production runs. */
export function configureApiApp(app: INestApplication, config: AppConfig): void {
  app.useLogger(app.get(Logger));
  app.flushLogs();
  // Next.js pages carry inline scripts; a CSP with nonces comes with the IDE. Other headers stay on.
  installHttpLogger(app);
  installRequestTelemetry(app);
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  installClientErrorAnswer(app.getHttpServer());
  installBodyParsers(app, config.env.BODY_LIMIT);
  app.use(cookieParser());
  installRequestContext(app);
  app.setGlobalPrefix('api', { exclude: [...UNPREFIXED_ROUTES] });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter());
  app.enableShutdownHooks();
  setupOpenApi(app);
  if (config.env.WEB_INTERNAL_URL) installWebProxy(app, config.env.WEB_INTERNAL_URL);
}
