import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig } from '@h/config';
import { configureApiApp } from '@h/http';
import { RedisIoAdapter } from '@h/sessions';
import { AppModule } from './app.module';

/** Builds the api exactly as production runs it; e2e tests call this too. */
export async function createApiApp(config: AppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    bufferLogs: true,
  });
  // Behind a reverse proxy (compose, ingress) the client address comes from X-Forwarded-For.
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  app.useWebSocketAdapter(new RedisIoAdapter(app, config.env.REDIS_URL, config.env.REDIS_PREFIX));
  configureApiApp(app, config);
  return app;
}
