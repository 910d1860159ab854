import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppException, CSRF_HEADER, SESSION_COOKIE } from '@h/http';
import { AuthService } from '../auth/auth.service';
import { safeEqual } from '../auth/secrets';
import { ACCESS_KEY, AccessRequirement, PUBLIC_KEY, USER_ONLY_KEY } from './access.decorators';
import { AccessService } from './access.service';
import type { AccessGrant, Principal } from './principal';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type AuthedRequest = Request & { principal?: Principal; access?: AccessGrant };

export function bearerFrom(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return m?.[1];
}

// Global guard: every route is authenticated unless marked @Public(); cookie-authenticated writes
// must echo the CSRF token; team-scoped routes check the caller's role through AccessService.
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly access: AccessService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;

    const req = context.switchToHttp().getRequest<AuthedRequest>();
    const principal = await this.auth.authenticate({
      bearer: bearerFrom(req.headers.authorization),
      sessionToken: req.cookies?.[SESSION_COOKIE],
    });
    if (!principal) throw AppException.unauthorized();
    req.principal = principal;

    if (principal.kind === 'user' && !SAFE_METHODS.has(req.method)) {
      const sent = req.headers[CSRF_HEADER];
      if (typeof sent !== 'string' || !safeEqual(sent, principal.csrfToken)) {
        throw AppException.forbidden(
          `Missing or wrong ${CSRF_HEADER} header: send the value of the h_csrf cookie with every write.`,
          'CSRF_FAILED',
        );
      }
    }
    if (principal.kind === 'token' && this.reflector.getAllAndOverride<boolean>(USER_ONLY_KEY, targets)) {
      throw AppException.forbidden('API tokens cannot use this route; sign in in the browser.', 'TOKEN_NOT_ALLOWED');
    }
    const requirement = this.reflector.getAllAndOverride<AccessRequirement>(ACCESS_KEY, targets);
    if (requirement) {
      const id = req.params[requirement.param];
      req.access = await this.access.check(principal, requirement.resource, typeof id === "string" ? id : undefined, requirement.role);
    }
    return true;
  }
}
