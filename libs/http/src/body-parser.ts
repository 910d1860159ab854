import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import express from 'express';
import { ErrorBody } from './app.exception';

// Nest's built-in parser reports malformed JSON through express' default handler (HTML). Ours
// answers with the one error shape and names the limit.
export function installBodyParsers(app: INestApplication, limit: string): void {
  app.use(express.json({ limit }));
  app.use(express.urlencoded({ extended: false, limit }));
  app.use((err: { type?: string; status?: number; message?: string }, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    let status = err.status ?? 400;
    let body: ErrorBody;
    if (err.type === 'entity.too.large') {
      status = 413;
      body = { error: { code: 'PAYLOAD_TOO_LARGE', message: `The request body is larger than the ${limit} limit.` } };
    } else if (err.type === 'entity.parse.failed') {
      body = { error: { code: 'INVALID_JSON', message: 'The request body is not valid JSON.' } };
    } else if (err.type === 'encoding.unsupported' || err.type === 'charset.unsupported') {
      status = 415;
      body = { error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: err.message ?? 'Unsupported encoding.' } };
    } else if (status < 500) {
      body = { error: { code: 'BAD_REQUEST', message: err.message ?? 'Bad request.' } };
    } else {
      return next(err);
    }
    res.status(status).json(body);
  });
}
