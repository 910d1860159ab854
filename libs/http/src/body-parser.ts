import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import express from 'express';
import { sendError } from './error-body';
import { findInputProblem, INPUT_LIMITS, jsonTooDeep, queryStringProblem } from './input-policy';
import { isRawBodyRoute } from './upload-body';

const JSON_TYPES = ['application/json', 'application/*+json'];

// The API speaks JSON only. A body sent as text/plain or a form used to be ignored or parsed as a
// form and then applied (a PATCH with a form body changed the record): refuse it instead, which
// also keeps cross-site form posts (no CORS preflight) away from the API.
function requireJsonBody(req: Request, res: Response, next: NextFunction): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  // Upload routes (upload-body.ts) parse their own bodies, with their own limit.
  if (!hasBody || req.is(JSON_TYPES) || isRawBodyRoute(req)) return next();
  sendError(res, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON with "content-type: application/json".');
}

/** Refuses nesting past the limit before JSON.parse spends time on it (see input-policy.ts). */
function verifyDepth(_req: Request, _res: Response, buf: Buffer, encoding: string): void {
  if (encoding.toLowerCase().replace('-', '') === 'utf8' && jsonTooDeep(buf)) {
    throw Object.assign(new Error(`The request body is nested deeper than ${INPUT_LIMITS.maxDepth} levels.`), { type: 'entity.too.deep' });
  }
}

/** Query strings that do not decode are refused before anything parses them (input-policy.ts). */
function checkQueryString(req: Request, res: Response, next: NextFunction): void {
  const problem = queryStringProblem(req.originalUrl);
  if (!problem) return next();
  sendError(res, 'VALIDATION_FAILED', problem);
}

/** Every parsed body goes through the one input policy before any route sees it. */
function checkParsedBody(req: Request, res: Response, next: NextFunction): void {
  const problem = req.body === undefined ? null : findInputProblem(req.body, 'body');
  if (!problem) return next();
  sendError(res, 'VALIDATION_FAILED', problem);
}

/**
 * What a body the strict JSON parser refused is, when it is valid JSON after all: a bare number,
 * string, boolean or null (strict mode takes only objects and arrays). Null for malformed JSON.
 */
function jsonPrimitive(body: unknown): string | null {
  if (typeof body !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (value === null) return 'null';
  return typeof value === 'object' ? null : `a ${typeof value}`;
}

// Nest's built-in parser reports malformed JSON through express' default handler (HTML). Ours
// answers with the one error shape and names the limit. Only the api's own paths are parsed (/api
// and h2c's /v1/task): every other path goes to the web app through the proxy with its body untouched.
const API_MOUNTS = ['/api', '/v1/task'];

export function installBodyParsers(app: INestApplication, limit: string): void {
  app.use(API_MOUNTS, checkQueryString);
  app.use(API_MOUNTS, requireJsonBody);
  const json = express.json({ limit, type: JSON_TYPES, verify: verifyDepth });
  app.use(API_MOUNTS, (req: Request, res: Response, next: NextFunction) => (isRawBodyRoute(req) ? next() : json(req, res, next)));
  app.use(API_MOUNTS, checkParsedBody);
  app.use(API_MOUNTS, (err: { type?: string; status?: number; message?: string }, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    const status = err.status ?? 400;
    if (err.type === 'entity.too.large') {
      sendError(res, 'PAYLOAD_TOO_LARGE', `The request body is larger than the ${limit} limit.`);
    } else if (err.type === 'entity.too.deep') {
      sendError(res, 'VALIDATION_FAILED', err.message ?? 'The request body is nested too deeply.');
    } else if (err.type === 'entity.parse.failed') {
      const primitive = jsonPrimitive((err as { body?: unknown }).body);
      if (primitive) sendError(res, 'VALIDATION_FAILED', `The request body must be a JSON object, not ${primitive}.`);
      else sendError(res, 'INVALID_JSON', 'The request body is not valid JSON.', status);
    } else if (err.type === 'encoding.unsupported' || err.type === 'charset.unsupported') {
      sendError(res, 'UNSUPPORTED_MEDIA_TYPE', err.message ?? 'Unsupported encoding.');
    } else if (status < 500) {
      sendError(res, 'BAD_REQUEST', err.message ?? 'Bad request.', status);
    } else {
      next(err);
    }
  });
}
