import type { INestApplication } from '@nestjs/common';
import type { Request } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { isH2cPath } from '@h/contracts';
import { errorBody, errorStatus } from './error-body';

// One URL for a team: the api answers /api/* and h2c's /health and /v1/task*, and hands every other
// path to the Next.js server.
export function installWebProxy(app: INestApplication, target: string): void {
  const proxy = createProxyMiddleware<Request>({
    target,
    changeOrigin: false,
    xfwd: true,
    pathFilter: (path) => !path.startsWith('/api') && !isH2cPath(path.split('?')[0]),
    on: {
      error: (_err, _req, res) => {
        const r = res as import('node:http').ServerResponse;
        if ('headersSent' in r && !r.headersSent) {
          r.writeHead(errorStatus('WEB_UNAVAILABLE'), { 'content-type': 'application/json' });
          r.end(JSON.stringify(errorBody('WEB_UNAVAILABLE', 'The web app is not answering yet; retry in a few seconds.')));
        }
      },
    },
  });
  app.use(proxy);
}
