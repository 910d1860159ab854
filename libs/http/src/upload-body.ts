import { CallHandler, ExecutionContext, HttpException, Injectable, NestInterceptor, PayloadTooLargeException } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import express from 'express';
import { catchError, from, type Observable, switchMap, throwError } from 'rxjs';
import { AppConfig } from '@h/config';
import { AppException } from './app.exception';

// Where the API takes a body that is not JSON, or parses one itself (the MCP endpoint's JSON-RPC).
// The global parser (body-parser.ts) refuses every other type with 415; these routes are exempt from
// it and parse their own bodies (uploads here, with FILE_UPLOAD_MAX_BYTES named in the 413). One
// list, so what the API accepts is decided in one place.
export const RAW_BODY_ROUTES: readonly RegExp[] = [
  /^\/api\/v1\/workspaces\/[^/?#]+\/files\/upload\/?(?:\?|$)/,
  // A workspace from an archive (libs/git-remote): streamed to disk with WORKSPACE_ARCHIVE_MAX_BYTES.
  /^\/api\/v1\/teams\/[^/?#]+\/workspaces\/import\/?(?:\?|$)/,
  // The MCP endpoint (libs/mcp): JSON, but parsed with MCP_BODY_MAX_BYTES and refused in JSON-RPC's shape.
  /^\/api\/mcp\/?(?:\?|$)/,
];

export function isRawBodyRoute(req: Request): boolean {
  return RAW_BODY_ROUTES.some((r) => r.test(req.originalUrl));
}

/** The field of a multipart upload that holds the file. */
export const UPLOAD_FIELD = 'file';

/** What an upload route receives: the bytes and the name the client gave (multipart only). */
export interface UploadedBody {
  data: Buffer;
  filename?: string;
  contentType?: string;
}

export function uploadTooLarge(limit: number): AppException {
  const mib = (limit / (1024 * 1024)).toFixed(limit % (1024 * 1024) ? 1 : 0);
  return new AppException(413, 'FILE_TOO_LARGE', `The upload is larger than the ${limit}-byte (${mib} MiB) limit (FILE_UPLOAD_MAX_BYTES).`);
}

/**
 * Parses an upload: `multipart/form-data` with one file in the field `file` (multer, in memory),
 * or any other content type as the raw bytes of one file. Puts an `UploadedBody` on
 * `req.uploaded`. Over the limit: 413 FILE_TOO_LARGE naming it.
 */
@Injectable()
export class UploadBodyInterceptor implements NestInterceptor {
  private readonly multipart: NestInterceptor;
  private readonly raw: (req: Request, res: Response, next: NextFunction) => void;
  private readonly limit: number;

  constructor(config: AppConfig) {
    this.limit = config.env.FILE_UPLOAD_MAX_BYTES;
    const Multipart = FileInterceptor(UPLOAD_FIELD, { limits: { fileSize: this.limit, files: 1, fields: 10, parts: 12 } });
    this.multipart = new Multipart();
    this.raw = express.raw({ type: () => true, limit: this.limit });
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request & { uploaded?: UploadedBody; file?: { buffer: Buffer; originalname?: string; mimetype?: string } }>();
    if (req.is('multipart/form-data')) {
      const handled = this.multipart.intercept(context, {
        handle: () => {
          if (!req.file) throw new AppException(400, 'VALIDATION_FAILED', `Send the file in the multipart field "${UPLOAD_FIELD}".`);
          req.uploaded = { data: req.file.buffer, filename: req.file.originalname, contentType: req.file.mimetype };
          return next.handle();
        },
      });
      return from(Promise.resolve(handled)).pipe(
        switchMap((o) => o),
        catchError((err) => throwError(() => this.translate(err))),
      );
    }
    const res = context.switchToHttp().getResponse<Response>();
    return from(
      new Promise<void>((resolve, reject) => this.raw(req, res, (err?: unknown) => (err ? reject(err) : resolve()))),
    ).pipe(
      switchMap(() => {
        req.uploaded = { data: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), contentType: req.headers['content-type'] };
        return next.handle();
      }),
      catchError((err) => throwError(() => this.translate(err))),
    );
  }

  private translate(err: unknown): unknown {
    const e = err as { type?: string; status?: number };
    if (err instanceof PayloadTooLargeException || e?.type === 'entity.too.large') return uploadTooLarge(this.limit);
    if (err instanceof HttpException || err instanceof AppException) {
      // multer's other refusals (a second file, too many parts) are the caller's.
      if (err instanceof HttpException && err.getStatus() < 500) return new AppException(err.getStatus(), 'BAD_REQUEST', `The upload is malformed: ${err.message}.`);
      return err;
    }
    if (typeof e?.status === 'number' && e.status < 500) return new AppException(400, 'BAD_REQUEST', 'The upload body could not be read.');
    return err;
  }
}
