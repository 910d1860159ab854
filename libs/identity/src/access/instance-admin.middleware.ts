import { Injectable } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { AppException, SESSION_COOKIE, sendError } from '@h/http';
import { AuthService } from '../auth/auth.service';
import { AccessService } from './access.service';
import { apiTokenFrom, type AuthedRequest, requireCsrf } from './auth.guard';

/**
 * The same checks as @InstanceAdmin() for express routers that are not Nest controllers (the queue
 * board): the session through AuthService, the CSRF header on writes as the AuthGuard asks it, and
 * the instance-admin check of AccessService. Bearer tokens are authenticated so a valid one gets the
 * guard's 403 TOKEN_NOT_ALLOWED rather than a 401.
 */
@Injectable()
export class InstanceAdminMiddleware {
  constructor(
    private readonly auth: AuthService,
    private readonly access: AccessService,
  ) {}

  readonly handle = (req: AuthedRequest, res: Response, next: NextFunction): void => {
    this.check(req).then(
      () => next(),
      (err: unknown) => {
        if (err instanceof AppException) return sendError(res, err.code as Parameters<typeof sendError>[1], err.message, err.status);
        next(err);
      },
    );
  };

  private async check(req: AuthedRequest): Promise<void> {
    const principal = await this.auth.authenticate({ bearer: apiTokenFrom(req.headers.authorization, false), sessionToken: req.cookies?.[SESSION_COOKIE] });
    if (!principal) throw AppException.unauthorized('Sign in in the browser as an instance admin first.');
    requireCsrf(req, principal);
    await this.access.requireInstanceAdmin(principal);
    req.principal = principal;
  }
}
