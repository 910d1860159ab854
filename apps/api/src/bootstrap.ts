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
  // Only the configured proxy may say who the client is (rate limits and audit use the address).
  const trust = config.env.TRUST_PROXY;
  // A whole number is a hop count; anything else (names, addresses, lists) proxy-addr reads as is.
  app.set('trust proxy', trust === 'false' ? false : trust === 'true' ? true : /^\d+$/.test(trust) ? Number(trust) : trust);
  app.useWebSocketAdapter(new RedisIoAdapter(app, config.env.REDIS_URL, config.env.REDIS_PREFIX));
  configureApiApp(app, config);
  return app;
}
